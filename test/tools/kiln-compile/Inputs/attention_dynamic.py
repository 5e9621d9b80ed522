"""Writes a multi-head self-attention block over x [batch, seq, 32] with
both dims dynamic, reshaped the way PyTorch exports `x.view(B, T, 4, 8)`
(Shape -> Gather -> Concat -> Reshape), and, for several shapes, inputs and
numpy's outputs, for dynamic-attention.test. The packed Q/K/V projection
is split into three views, each split into heads and transposed; the heads
are merged back and projected. The sequence lengths leave partial product
tiles (16 rows, 32 columns) and include 1.

usage: attention_dynamic.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SHAPES = [(1, 1), (2, 5), (3, 17), (1, 33), (2, 40)]
C, H = 32, 4
D = C // H


def weights(rng):
    return {
        "wqkv": (rng.standard_normal((C, 3 * C)) / np.sqrt(C)),
        "bqkv": rng.standard_normal(3 * C) * 0.1,
        "wo": (rng.standard_normal((C, C)) / np.sqrt(C)),
        "bo": rng.standard_normal(C) * 0.1,
    }


def reference(x, w):
    b, t, _ = x.shape
    qkv = x @ w["wqkv"] + w["bqkv"]
    q, k, v = (qkv[..., i * C:(i + 1) * C].reshape(b, t, H, D)
               .transpose(0, 2, 1, 3) for i in range(3))
    s = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    ctx = (p @ v).transpose(0, 2, 1, 3).reshape(b, t, C)
    return ctx @ w["wo"] + w["bo"]


def ints(name, values):
    return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)


def main():
    out_dir = sys.argv[1]
    rng = np.random.default_rng(11)
    w = weights(rng)
    n = helper.make_node
    nodes = [
        n("MatMul", ["x", "wqkv"], ["qkv0"], name="qkv"),
        n("Add", ["qkv0", "bqkv"], ["qkv1"], name="qkv_bias"),
        n("Split", ["qkv1", "split"], ["q0", "k0", "v0"], name="split",
          axis=2),
        n("Shape", ["x"], ["shape"], name="shape"),
        n("Gather", ["shape", "zero"], ["b"], name="batch", axis=0),
        n("Gather", ["shape", "one"], ["t"], name="seq", axis=0),
        n("Unsqueeze", ["b", "axes0"], ["b1"], name="b1"),
        n("Unsqueeze", ["t", "axes0"], ["t1"], name="t1"),
        n("Concat", ["b1", "t1", "heads"], ["hshape"], name="hshape",
          axis=0),
        n("Concat", ["b1", "t1", "width"], ["cshape"], name="cshape",
          axis=0),
    ]
    for name, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]),
                       ("v", [0, 2, 1, 3])):
        nodes += [
            n("Reshape", [name + "0", "hshape"], [name + "1"],
              name=name + "_view"),
            n("Transpose", [name + "1"], [name], name=name + "_heads",
              perm=perm),
        ]
    nodes += [
        n("MatMul", ["q", "k"], ["s0"], name="scores"),
        n("Mul", ["s0", "scale"], ["s"], name="scale"),
        n("Softmax", ["s"], ["p"], name="softmax", axis=-1),
        n("MatMul", ["p", "v"], ["c0"], name="context"),
        n("Transpose", ["c0"], ["c1"], name="merge", perm=[0, 2, 1, 3]),
        n("Reshape", ["c1", "cshape"], ["c"], name="merge_view"),
        n("MatMul", ["c", "wo"], ["y0"], name="out"),
        n("Add", ["y0", "bo"], ["y"], name="out_bias"),
    ]
    inits = [numpy_helper.from_array(v.astype(np.float32), k)
             for k, v in w.items()]
    inits += [
        ints("split", [C, C, C]),
        helper.make_tensor("zero", TensorProto.INT64, [], [0]),
        helper.make_tensor("one", TensorProto.INT64, [], [1]),
        ints("axes0", [0]),
        ints("heads", [H, D]),
        ints("width", [C]),
        helper.make_tensor("scale", TensorProto.FLOAT, [],
                           [1 / np.sqrt(D)]),
    ]
    graph = helper.make_graph(
        nodes, "attention",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["batch", "seq", C])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       ["batch", "seq", C])],
        inits)
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(out_dir, "attention.onnx"))
    for i, shape in enumerate(SHAPES):
        x = rng.standard_normal(shape + (C,)).astype(np.float32)
        np.save(os.path.join(out_dir, "ax%d.npy" % i), x)
        np.save(os.path.join(out_dir, "ay%d.npy" % i),
                reference(x.astype(np.float64), w).astype(np.float32))


if __name__ == "__main__":
    main()

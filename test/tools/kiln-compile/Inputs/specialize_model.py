"""Writes attn.onnx, one attention block over token ids of dims [batch, seq],
and inputs with numpy's outputs for several shapes, for specialize.test:

  x = embed[ids]                          Gather, [batch, seq, 32]
  q, k, v = x @ wq, x @ wk, x @ wv        four 32x32 weights (4 KiB each,
  a = softmax(q @ k^T / sqrt(32)) @ v      as large as the weights code
  y = relu(a @ wo + bo) + x + pos[:seq]    generation keeps apart)

pos [32, 32] is a weight of wq's size that a static seq folds away: a
library specialized at seq 16 numbers its weights' globals unlike the
generic one, so a weight shared by content has a namesake of other content
(which the merge must not confuse with it).

Files: ids_B_S.npy and y_B_S.npy for each shape, and bad_B_S.npy: ids with
one out of range (embed has 50 rows).

usage: specialize_model.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

SHAPES = [(1, 16), (2, 16), (1, 5), (3, 7), (2, 1), (1, 32)]
D = 32


def tensor(name, a):
    kind = TensorProto.INT64 if a.dtype == np.int64 else TensorProto.FLOAT
    return helper.make_tensor(name, kind, a.shape, a.flatten())


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(5)
    embed = rng.standard_normal((50, D)).astype(np.float32)
    pos = rng.standard_normal((32, D)).astype(np.float32)
    w = {n: (rng.standard_normal((D, D)) / np.sqrt(D)).astype(np.float32)
         for n in ("wq", "wk", "wv", "wo")}
    bo = rng.standard_normal(D).astype(np.float32)
    scale = np.array(1 / np.sqrt(D), np.float32)
    nodes = [
        helper.make_node("Gather", ["embed", "ids"], ["x"], name="embed"),
        helper.make_node("MatMul", ["x", "wq"], ["q"]),
        helper.make_node("MatMul", ["x", "wk"], ["k"]),
        helper.make_node("MatMul", ["x", "wv"], ["v"]),
        helper.make_node("Transpose", ["k"], ["kt"], perm=[0, 2, 1]),
        helper.make_node("MatMul", ["q", "kt"], ["s"]),
        helper.make_node("Mul", ["s", "scale"], ["ss"]),
        helper.make_node("Softmax", ["ss"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "v"], ["a"]),
        helper.make_node("MatMul", ["a", "wo"], ["o"]),
        helper.make_node("Add", ["o", "bo"], ["ob"]),
        helper.make_node("Relu", ["ob"], ["r"]),
        helper.make_node("Add", ["r", "x"], ["rx"]),
        helper.make_node("Shape", ["ids"], ["shape"]),
        helper.make_node("Slice", ["shape", "one", "two"], ["seqlen"]),
        helper.make_node("Slice", ["pos", "zero", "seqlen", "zero"], ["ps"]),
        helper.make_node("Add", ["rx", "ps"], ["y"]),
    ]
    inits = [tensor("embed", embed), tensor("bo", bo),
             tensor("zero", np.array([0], np.int64)),
             tensor("one", np.array([1], np.int64)),
             tensor("two", np.array([2], np.int64)),
             helper.make_tensor("scale", TensorProto.FLOAT, [], [float(scale)])]
    inits += [tensor(n, a) for n, a in w.items()] + [tensor("pos", pos)]
    graph = helper.make_graph(
        nodes, "attn",
        [helper.make_tensor_value_info("ids", TensorProto.INT64,
                                       ["batch", "seq"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       ["batch", "seq", D])],
        inits)
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 13)]),
              os.path.join(out, "attn.onnx"))

    for b, s in SHAPES:
        ids = rng.integers(0, 50, (b, s)).astype(np.int64)
        x = embed[ids].astype(np.float64)
        q, k, v = (x @ w[n] for n in ("wq", "wk", "wv"))
        e = q @ k.transpose(0, 2, 1) * float(scale)
        e = np.exp(e - e.max(-1, keepdims=True))
        a = (e / e.sum(-1, keepdims=True)) @ v
        y = np.maximum(a @ w["wo"] + bo, 0) + x + pos[:s]
        np.save(os.path.join(out, "ids_%d_%d.npy" % (b, s)), ids)
        np.save(os.path.join(out, "y_%d_%d.npy" % (b, s)),
                y.astype(np.float32))
        bad = ids.copy()
        bad[-1, -1] = 50
        np.save(os.path.join(out, "bad_%d_%d.npy" % (b, s)), bad)


if __name__ == "__main__":
    main()

"""Writes two models whose only dynamic dim is the batch, which kiln-compile
--dynamic runs sample by sample (graph-per-sample), and inputs and numpy's
outputs for several batch sizes, for dynamic.test:

  cnn.onnx: conv 3x3 -> relu -> maxpool 2x2 -> conv 3x3 + residual -> relu
            -> global average pool -> flatten -> gemm, x [batch, 3, 12, 12]
  two.onnx: matmul(a, w) + b, a [n, 16, 4] and b [m, 16, 3] (dims of
            different names: their batch is checked equal at run time)

usage: per_sample_dynamic.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def conv3x3(x, w, b=None):
    n, c, h, wd = x.shape
    p = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    y = np.zeros((n, w.shape[0], h, wd))
    for i in range(3):
        for j in range(3):
            y += np.einsum("nchw,mc->nmhw", p[:, :, i:i + h, j:j + wd],
                           w[:, :, i, j])
    return y if b is None else y + b[None, :, None, None]


def tensor(name, a):
    return helper.make_tensor(name, TensorProto.FLOAT, a.shape, a.flatten())


def save(graph, path):
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 13)]),
              path)


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(11)
    w1 = (0.3 * rng.standard_normal((8, 3, 3, 3))).astype(np.float32)
    b1 = rng.standard_normal(8).astype(np.float32)
    w2 = (0.2 * rng.standard_normal((8, 8, 3, 3))).astype(np.float32)
    g = rng.standard_normal((5, 8)).astype(np.float32)
    c = rng.standard_normal(5).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p"], kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("Conv", ["p", "w2"], ["c2"], pads=[1, 1, 1, 1]),
        helper.make_node("Add", ["c2", "p"], ["a"]),
        helper.make_node("Relu", ["a"], ["r2"]),
        helper.make_node("GlobalAveragePool", ["r2"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["f"]),
        helper.make_node("Gemm", ["f", "g", "c"], ["y"], transB=1),
    ]
    save(helper.make_graph(
        nodes, "cnn",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["batch", 3, 12, 12])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [tensor("w1", w1), tensor("b1", b1), tensor("w2", w2), tensor("g", g),
         tensor("c", c)]), os.path.join(out, "cnn.onnx"))
    for batch in (1, 3, 0):
        x = rng.standard_normal((batch, 3, 12, 12)).astype(np.float32)
        r1 = np.maximum(conv3x3(x.astype(np.float64), w1, b1), 0)
        p = r1.reshape(batch, 8, 6, 2, 6, 2).max((3, 5))
        r2 = np.maximum(conv3x3(p, w2) + p, 0)
        y = r2.mean((2, 3)) @ g.T + c
        np.save(os.path.join(out, "cnnx%d.npy" % batch), x)
        np.save(os.path.join(out, "cnny%d.npy" % batch), y.astype(np.float32))

    w = rng.standard_normal((4, 3)).astype(np.float32)
    save(helper.make_graph(
        [helper.make_node("MatMul", ["a", "w"], ["m"]),
         helper.make_node("Add", ["m", "b"], ["y"])], "two",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["n", 16, 4]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, ["m", 16, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [tensor("w", w)]), os.path.join(out, "two.onnx"))
    a = rng.standard_normal((2, 16, 4)).astype(np.float32)
    b = rng.standard_normal((2, 16, 3)).astype(np.float32)
    np.save(os.path.join(out, "twoa.npy"), a)
    np.save(os.path.join(out, "twob.npy"), b)
    np.save(os.path.join(out, "twob3.npy"), np.concatenate([b, b[:1]]))
    np.save(os.path.join(out, "twoy.npy"), (a @ w + b).astype(np.float32))


if __name__ == "__main__":
    main()

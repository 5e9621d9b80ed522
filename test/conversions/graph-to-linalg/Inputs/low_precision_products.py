"""Writes f16 MatMul and Gemm models whose sums need an f32 accumulator
(K = 2048: an f16 running sum of 2048 products drifts by tenths), each
with an input and the expected output: the product of the f16 operands
summed in float64 and rounded to f16 once.

  matmul_f16  [37, 2048] x [2048, 45]
  bmm_f16     [3, 19, 2048] x [2048, 21] (B broadcast over the batch)
  gemm_f16    alpha 0.5 * [33, 2048] x W[2048, 29] (a constant) + 0.25 * bias[29]

usage: low_precision_products.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def save(out, name, nodes, inputs, output, inits, x, y):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, TensorProto.FLOAT16, list(v.shape))
         for n, v in inputs],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT16,
                                       list(output.shape))],
        [numpy_helper.from_array(v, n) for n, v in inits])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, name + ".onnx"))
    for i, v in enumerate(x):
        np.save(os.path.join(out, "%s.input_%d.npy" % (name, i)), v)
    np.save(os.path.join(out, name + ".expected.npy"), y)


def main():
    out = sys.argv[1]
    rng = np.random.default_rng(7)

    def f16(*shape):
        return rng.uniform(-1, 1, shape).astype(np.float16)

    a, b = f16(37, 2048), f16(2048, 45)
    y = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    save(out, "matmul_f16", [helper.make_node("MatMul", ["a", "b"], ["y"])],
         [("a", a), ("b", b)], y, [], [a, b], y)

    a, b = f16(3, 19, 2048), f16(2048, 21)
    y = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float16)
    save(out, "bmm_f16", [helper.make_node("MatMul", ["a", "b"], ["y"])],
         [("a", a), ("b", b)], y, [], [a, b], y)

    a, w, bias = f16(33, 2048), f16(2048, 29), f16(29)
    y = (0.5 * (a.astype(np.float64) @ w.astype(np.float64))
         + 0.25 * bias.astype(np.float64)).astype(np.float16)
    save(out, "gemm_f16",
         [helper.make_node("Gemm", ["a", "w", "bias"], ["y"], alpha=0.5,
                           beta=0.25)],
         [("a", a)], y, [("w", w), ("bias", bias)], [a], y)


if __name__ == "__main__":
    main()

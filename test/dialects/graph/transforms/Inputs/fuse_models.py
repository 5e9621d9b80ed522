"""Writes small ONNX models for graph-fuse's numerical test, each with a
random input: DIR/NAME.onnx and DIR/NAME.input_0.npy.

  conv:        Conv(+bias) -> Relu -> Conv(+bias) -> Add(residual) -> Relu
  gemm:        Gemm(transB) -> Sigmoid -> MatMul -> Add(bias) -> Tanh
  elementwise: Mul -> Add -> Exp -> Sigmoid -> Sub(broadcast) -> Abs
  reduction:   Mul -> Exp -> ReduceSum(axis 1) -> Sqrt; ReduceMax(Abs(x))
  swish:       Conv(+bias, 5 -> 24, odd image) -> x * Sigmoid(x) (SiLU) ->
               depthwise Conv(stride 2) -> x * HardSigmoid(x) (hard-swish,
               as opset 13 exports it) -> Conv 1x1 -> x * Sigmoid(x)
               + HardSigmoid(x) (an epilogue DAG with three reads of x)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)


def const(name, shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * 0.3).astype(np.float32), name)


def save(out_dir, name, nodes, inits, in_shape, out_shape):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    x = rng.standard_normal(in_shape).astype(np.float32)
    np.save(f"{out_dir}/{name}.input_0.npy", x)


def main(out_dir):
    mk = helper.make_node
    save(out_dir, "conv", [
        mk("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        mk("Relu", ["c1"], ["r1"]),
        mk("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
        mk("Add", ["c2", "x"], ["s"]),
        mk("Relu", ["s"], ["y"]),
    ], [const("w1", (8, 8, 3, 3)), const("b1", (8,)),
        const("w2", (8, 8, 3, 3)), const("b2", (8,))],
        [2, 8, 12, 10], [2, 8, 12, 10])
    save(out_dir, "gemm", [
        mk("Gemm", ["x", "wg", "bg"], ["g"], transB=1),
        mk("Sigmoid", ["g"], ["h"]),
        mk("MatMul", ["h", "wm"], ["m"]),
        mk("Add", ["m", "bm"], ["a"]),
        mk("Tanh", ["a"], ["y"]),
    ], [const("wg", (32, 24)), const("bg", (32,)), const("wm", (32, 16)),
        const("bm", (16,))], [20, 24], [20, 16])
    save(out_dir, "elementwise", [
        mk("Mul", ["x", "k"], ["a"]),
        mk("Add", ["a", "x"], ["b"]),
        mk("Exp", ["b"], ["c"]),
        mk("Sigmoid", ["c"], ["d"]),
        mk("Sub", ["d", "k"], ["e"]),
        mk("Abs", ["e"], ["y"]),
    ], [const("k", (6,))], [4, 5, 6], [4, 5, 6])
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    save(out_dir, "reduction", [
        mk("Mul", ["x", "k"], ["a"]),
        mk("Exp", ["a"], ["b"]),
        mk("ReduceSum", ["b", "axes"], ["s"], keepdims=0),
        mk("Sqrt", ["s"], ["t"]),
        mk("Abs", ["x"], ["ax"]),
        mk("ReduceMax", ["ax"], ["mx"], axes=[1], keepdims=0),
        mk("Add", ["t", "mx"], ["y"]),
    ], [const("k", (7,)), axes], [3, 5, 7], [3, 7])
    save(out_dir, "swish", [
        mk("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        mk("Sigmoid", ["c1"], ["s1"]),
        mk("Mul", ["c1", "s1"], ["a1"]),
        mk("Conv", ["a1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1], group=24,
           strides=[2, 2]),
        mk("HardSigmoid", ["c2"], ["h2"], alpha=1.0 / 6),
        mk("Mul", ["c2", "h2"], ["a2"]),
        mk("Conv", ["a2", "w3", "b3"], ["c3"]),
        mk("Sigmoid", ["c3"], ["s3"]),
        mk("Mul", ["c3", "s3"], ["m3"]),
        mk("HardSigmoid", ["c3"], ["h3"], alpha=1.0 / 6),
        mk("Add", ["m3", "h3"], ["y"]),
    ], [const("w1", (24, 5, 3, 3)), const("b1", (24,)),
        const("w2", (24, 1, 3, 3)), const("b2", (24,)),
        const("w3", (40, 24, 1, 1)), const("b3", (40,))],
        [1, 5, 37, 45], [1, 40, 19, 23])


if __name__ == "__main__":
    main(sys.argv[1])

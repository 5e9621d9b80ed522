"""Writes ONNX models of row reductions for kiln-split-reductions'
numerical check, each with a random input and NumPy's output:
DIR/NAME.onnx, DIR/NAME.x.npy, DIR/NAME.y.npy.

  gap:       GlobalAveragePool on 2x7x13x11 (rows of 143 = 8 x 16 + 15)
  mean23:    ReduceMean over axes 2, 3 of 3x5x9x17 (rows of 153)
  max_last:  ReduceMax over the last axis of 6x100, all negative values
  min_last:  ReduceMin over the last axis of 4x3x64 (no remainder)
  prod_last: ReduceProd over the last axis of 5x80, values near 1
  lse:       ReduceLogSumExp over the last axis of 7x129
  softmax:   Softmax over the last axis of 2x3x257, values up to +-30
  lnorm:     LayerNormalization over the last axis of 3x5x768 (opset 17)
  sum_mid:   ReduceSum over axis 1 of 2x96x40 (not a row: left alone)
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)


def save(out, name, node, x, y, inits=(), opset=13):
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)],
        list(inits))
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, f"{out}/{name}.onnx")
    np.save(f"{out}/{name}.x.npy", x.astype(np.float32))
    np.save(f"{out}/{name}.y.npy", y.astype(np.float32))


def randn(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def main(out):
    mk = helper.make_node
    x = randn(2, 7, 13, 11)
    save(out, "gap", mk("GlobalAveragePool", ["x"], ["y"]), x,
         x.astype(np.float64).mean(axis=(2, 3), keepdims=True))
    x = randn(3, 5, 9, 17)
    save(out, "mean23", mk("ReduceMean", ["x"], ["y"], axes=[2, 3],
                           keepdims=0), x,
         x.astype(np.float64).mean(axis=(2, 3)))
    x = -np.abs(randn(6, 100)) - 1
    save(out, "max_last", mk("ReduceMax", ["x"], ["y"], axes=[-1]), x,
         x.max(axis=-1, keepdims=True))
    x = randn(4, 3, 64)
    save(out, "min_last", mk("ReduceMin", ["x"], ["y"], axes=[2],
                             keepdims=0), x, x.min(axis=2))
    x = (1 + 0.01 * randn(5, 80)).astype(np.float32)
    save(out, "prod_last", mk("ReduceProd", ["x"], ["y"], axes=[1]), x,
         x.astype(np.float64).prod(axis=1, keepdims=True))
    x = 3 * randn(7, 129)
    xd = x.astype(np.float64)
    save(out, "lse", mk("ReduceLogSumExp", ["x"], ["y"], axes=[1]), x,
         np.log(np.exp(xd).sum(axis=1, keepdims=True)))
    x = 10 * randn(2, 3, 257)
    e = np.exp(x.astype(np.float64) - x.max(axis=-1, keepdims=True))
    save(out, "softmax", mk("Softmax", ["x"], ["y"], axis=-1), x,
         e / e.sum(axis=-1, keepdims=True))
    x = randn(3, 5, 768)
    scale, bias = randn(768), randn(768)
    xd = x.astype(np.float64)
    mean = xd.mean(axis=-1, keepdims=True)
    var = ((xd - mean) ** 2).mean(axis=-1, keepdims=True)
    save(out, "lnorm",
         mk("LayerNormalization", ["x", "s", "b"], ["y"], axis=-1), x,
         (xd - mean) / np.sqrt(var + 1e-5) * scale + bias,
         [numpy_helper.from_array(scale, "s"),
          numpy_helper.from_array(bias, "b")], opset=17)
    x = randn(2, 96, 40)
    save(out, "sum_mid", mk("ReduceSum", ["x", "axes"], ["y"]), x,
         x.astype(np.float64).sum(axis=1, keepdims=True),
         [numpy_helper.from_array(np.array([1], np.int64), "axes")])


if __name__ == "__main__":
    main(sys.argv[1])

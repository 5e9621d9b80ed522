"""Writes ONNX models y = OP(x) for kiln-approximate-math's numerical
check, with x = 200003 points spread over OP's interesting range plus
+-0, +-inf, NaN, tiny values and the approximation's edges, and the float64
reference rounded to f32: DIR/OP.onnx, DIR/OP.x.npy, DIR/OP.y.npy for OP
in Erf ([-7, 7]), Exp ([-100, 100]), Tanh ([-12, 12]) and Sigmoid
([-100, 100]; lowered through exp)."""
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper


def sigmoid(v):
    return 1.0 / (1.0 + math.exp(-v)) if v >= 0 else math.exp(v) / (
        1.0 + math.exp(v))


def exp(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


CASES = {
    "Erf": (-7, 7, [3.9999, 4.0, 4.0001], math.erf),
    "Exp": (-100, 100, [88.72, 88.73, 88.5, -87.0, -86.99, -87.01, -103.0,
                        0.3465, -0.3466, 1e-7], exp),
    "Tanh": (-12, 12, [0.6249, 0.625, 0.6251, -0.625, 9.0, 9.5, 1e-4,
                       -3e-3], math.tanh),
    "Sigmoid": (-100, 100, [-87.5, 88.8, 1e-6, 17.0], sigmoid),
}


def write(out, op):
    lo, hi, edges, ref = CASES[op]
    x = np.linspace(lo, hi, 200003).astype(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30]
                       + edges, dtype=np.float32)
    x = np.concatenate([x, special])
    y = np.array([ref(float(v)) if not math.isnan(v) else math.nan
                  for v in x], dtype=np.float32)
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"])], op.lower(),
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    name = op.lower()
    onnx.save(model, f"{out}/{name}.onnx")
    np.save(f"{out}/{name}.x.npy", x)
    np.save(f"{out}/{name}.y.npy", y)


for op in CASES:
    write(sys.argv[1], op)

"""Writes ONNX models y = Exp(x) and y = Tanh(x), each over 400003 points
spread over its interesting range (exp: [-110, 95], through the underflow
to 0 and the overflow to inf; tanh: [-12, 12]) plus +-0, +-inf, NaN and
tiny values, with float64 references rounded to f32: DIR/exp.onnx,
DIR/exp.x.npy, DIR/exp.y.npy and the same for tanh."""
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 1e-7, -1e-7,
           3e-4, 5e-4, -4e-4]
for op, lo, hi, fn in (("Exp", -110, 95, math.exp),
                       ("Tanh", -12, 12, math.tanh)):
    x = np.concatenate([np.linspace(lo, hi, 400003), special,
                        [88.7, 88.72, 88.73, -87.3, -103.9, 7.9, 8.0]])
    x = x.astype(np.float32)

    def ref(v):
        if math.isnan(v):
            return math.nan
        try:
            return fn(v)
        except OverflowError:
            return math.inf
    with np.errstate(over="ignore"):
        y = np.array([ref(float(v)) for v in x], dtype=np.float64).astype(
            np.float32)
    name = op.lower()
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"])], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, f"{out}/{name}.onnx")
    np.save(f"{out}/{name}.x.npy", x)
    np.save(f"{out}/{name}.y.npy", y)

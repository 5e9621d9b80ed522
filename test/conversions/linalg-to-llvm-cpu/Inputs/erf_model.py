"""Writes an ONNX model y = Erf(x) and x = 200003 points spread over
[-7, 7] plus +-0, +-inf, NaN and tiny values, with the float64 reference
erf(x) rounded to f32: DIR/erf.onnx, DIR/erf.x.npy, DIR/erf.y.npy."""
import math
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

out = sys.argv[1]
x = np.linspace(-7, 7, 200003).astype(np.float32)
special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, -1e-30, 1e-7,
                    3.9999, 4.0, 4.0001], dtype=np.float32)
x = np.concatenate([x, special])
y = np.array([math.erf(float(v)) for v in x], dtype=np.float32)
graph = helper.make_graph(
    [helper.make_node("Erf", ["x"], ["y"])], "erf",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, y.shape)])
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.save(model, f"{out}/erf.onnx")
np.save(f"{out}/erf.x.npy", x)
np.save(f"{out}/erf.y.npy", y)

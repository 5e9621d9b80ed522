"""An MLP of 4.5 MB of weights for shard-weight-pages.test: x[8 x 768] ->
MatMul 768 x 768, Relu -> MatMul 768 x 768, as wide.onnx, with x.npy and
y.npy (float64 reference cast to f32). At tp:4 a rank holds 1152 KB of
them, under the 2 MiB its row is padded to."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
rng = np.random.default_rng(7)
d = 768
w1 = (rng.standard_normal((d, d)) / np.sqrt(d)).astype(np.float32)
w2 = (rng.standard_normal((d, d)) / np.sqrt(d)).astype(np.float32)
x = rng.standard_normal((8, d)).astype(np.float32)
y = np.maximum(x.astype(np.float64) @ w1, 0) @ w2
graph = helper.make_graph(
    [helper.make_node("MatMul", ["x", "w1"], ["h"], name="up"),
     helper.make_node("Relu", ["h"], ["r"], name="relu"),
     helper.make_node("MatMul", ["r", "w2"], ["y"], name="down")],
    "wide",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, d])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, d])],
    [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx.save(m, out + "/wide.onnx")
np.save(out + "/x.npy", x)
np.save(out + "/y.npy", y.astype(np.float32))

"""Writes a small CNN for the --threads tests: two convolutions (the second
with 9 KB of weights, enough to take the large-data path of split code
generation), a global average pool and a dense layer, plus an input.

usage: make_threads.py OUT.onnx X.npy   (Debian's /usr/bin/python3)
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
F = TensorProto.FLOAT
inits = [
    numpy_helper.from_array(rng.standard_normal((16, 3, 3, 3), np.float32), "w1"),
    numpy_helper.from_array(rng.standard_normal((16, 16, 3, 3), np.float32), "w2"),
    numpy_helper.from_array(rng.standard_normal((16,), np.float32), "b2"),
    numpy_helper.from_array(rng.standard_normal((16, 10), np.float32), "w3"),
]
nodes = [
    helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c1"], ["r1"]),
    helper.make_node("Conv", ["r1", "w2", "b2"], ["c2"], pads=[1, 1, 1, 1]),
    helper.make_node("Relu", ["c2"], ["r2"]),
    helper.make_node("GlobalAveragePool", ["r2"], ["p"]),
    helper.make_node("Flatten", ["p"], ["f"]),
    helper.make_node("MatMul", ["f", "w3"], ["y"]),
]
g = helper.make_graph(nodes, "cnn",
                      [helper.make_tensor_value_info("x", F, [1, 3, 8, 8])],
                      [helper.make_tensor_value_info("y", F, [1, 10])], inits)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
with open(sys.argv[1], "wb") as f:
    f.write(m.SerializeToString())
np.save(sys.argv[2], rng.standard_normal((1, 3, 8, 8), np.float32))

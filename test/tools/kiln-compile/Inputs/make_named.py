"""Writes a one-node ONNX model (Relu on f32[2x3]) whose input and output
names hold the bytes the model-library metadata escapes: '%', '\\n', '\\r',
and a space.

usage: make_named.py OUT.onnx   (Debian's /usr/bin/python3, python3-onnx)
"""
import sys

from onnx import TensorProto, helper

x, y = "in%put 1", "out\nput\r2"
g = helper.make_graph([helper.make_node("Relu", [x], [y])], "g",
                      [helper.make_tensor_value_info(x, TensorProto.FLOAT,
                                                     [2, 3])],
                      [helper.make_tensor_value_info(y, TensorProto.FLOAT,
                                                     [2, 3])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
with open(sys.argv[1], "wb") as f:
    f.write(m.SerializeToString())

"""Writes a small ONNX model for the importer's lit tests.

usage: make_model.py KIND OUT.onnx   (KIND: see MODELS below)
Runs under Debian's /usr/bin/python3 with python3-onnx.
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, inits=(), opset=17):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, dims, elem=F):
    return helper.make_tensor_value_info(name, elem, dims)


def mlp():
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3), "w")
    # b uses the typed float_data field, w raw_data: both paths are tested.
    b = helper.make_tensor("b", F, [3], [0.5, -1.0, 2.0])
    return model(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="fc"),
         helper.make_node("Add", ["h", "b"], ["hb"], name="bias"),
         helper.make_node("Relu", ["hb"], ["y"])],
        [vi("x", [2, 4])], [vi("y", [2, 3])], [w, b])


def conv():
    w = numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w")
    return model(
        [helper.make_node("Conv", ["x", "w"], ["c"], name="conv1",
                          pads=[1, 1, 1, 1], strides=[2, 2]),
         helper.make_node("Relu", ["c"], ["y"], name="relu1")],
        [vi("x", [1, 3, 16, 16])], [vi("y", [1, 8, 8, 8])], [w])


def unsupported():
    return model(
        [helper.make_node("Relu", ["x"], ["a"], name="ok"),
         helper.make_node("NonMaxSuppression", ["a"], ["b"], name="nms"),
         helper.make_node("Foo", ["b"], ["y"], name="custom",
                          domain="com.example")],
        [vi("x", [2])], [vi("y", [2])])


def dynamic():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", ["batch", 4])], [vi("y", ["batch", 4])])


def undefined():
    return model([helper.make_node("Add", ["x", "missing_w"], ["y"],
                                   name="add0")],
                 [vi("x", [2])], [vi("y", [2])])


MODELS = {"mlp": mlp, "conv": conv, "unsupported": unsupported,
          "dynamic": dynamic, "undefined": undefined}

if __name__ == "__main__":
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())

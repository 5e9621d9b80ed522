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


# Older opsets where an attribute later became an input: the importer turns
# each attribute into a graph.constant operand.
def squeeze11():
    return model(
        [helper.make_node("Unsqueeze", ["x"], ["u"], name="unsq", axes=[0]),
         helper.make_node("Squeeze", ["u"], ["s"], name="sq", axes=[0]),
         helper.make_node("Split", ["s"], ["a", "b"], name="split", axis=1,
                          split=[2, 2]),
         helper.make_node("ReduceSum", ["b"], ["y"], name="rsum", axes=[1],
                          keepdims=0),
         helper.make_node("ReduceMean", ["a"], ["z"], name="rmean", axes=[0])],
        [vi("x", [2, 4])], [vi("y", [2]), vi("z", [1, 2])], opset=11)


def clip7():
    return model(
        [helper.make_node("Clip", ["x"], ["c"], name="clip", min=-1.5,
                          max=2.0),
         helper.make_node("Clip", ["c"], ["y"], name="clipmax", max=1.0)],
        [vi("x", [2, 3])], [vi("y", [2, 3])], opset=7)


def slice9():
    return model(
        [helper.make_node("Slice", ["x"], ["s"], name="slice", starts=[1, 0],
                          ends=[3, 2], axes=[0, 1]),
         helper.make_node("Slice", ["s"], ["y"], name="slice2", starts=[0],
                          ends=[1])],
        [vi("x", [4, 5])], [vi("y", [1, 2])], opset=9)


def pad9():
    return model(
        [helper.make_node("Pad", ["x"], ["y"], name="pad",
                          pads=[0, 1, 0, 2], value=0.5)],
        [vi("x", [2, 3])], [vi("y", [2, 6])], opset=9)


def both11():
    axes = numpy_helper.from_array(np.array([0], np.int64), "axes")
    return model(
        [helper.make_node("Squeeze", ["x", "axes"], ["y"], name="sq",
                          axes=[0])],
        [vi("x", [1, 4])], [vi("y", [4])], [axes], opset=11)


def opset6():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", [2])], [vi("y", [2])], opset=6)


def opset23():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", [2])], [vi("y", [2])], opset=23)


MODELS = {"mlp": mlp, "conv": conv, "unsupported": unsupported,
          "dynamic": dynamic, "undefined": undefined,
          "squeeze11": squeeze11, "clip7": clip7, "slice9": slice9,
          "pad9": pad9, "both11": both11, "opset6": opset6,
          "opset23": opset23}

if __name__ == "__main__":
    with open(sys.argv[2], "wb") as f:
        f.write(MODELS[sys.argv[1]]().SerializeToString())

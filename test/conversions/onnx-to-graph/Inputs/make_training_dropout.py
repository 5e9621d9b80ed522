"""Dropout nodes in training mode with a constant ratio, as torch 1.13
exports F.dropout(x, p) outside a module's eval switch (torchvision's
Swin: p = 0). Writes OUT/zero.onnx (ratio 0: an identity, mask all true)
with x.npy and the expected y.npy and mask.npy, and OUT/half.onnx (ratio
0.1, node "drop_tenth"), which Kiln refuses.

usage: make_training_dropout.py OUT_DIR
"""
import os
import sys

import numpy
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(ratio, name):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 5])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 5])
    mask = helper.make_tensor_value_info("mask", TensorProto.BOOL, [2, 3, 5])
    inits = [numpy_helper.from_array(numpy.array(ratio, numpy.float32), "ratio"),
             numpy_helper.from_array(numpy.array(True), "training")]
    node = helper.make_node("Dropout", ["x", "ratio", "training"], ["y", "mask"],
                            name=name, seed=1)
    graph = helper.make_graph([node], "dropout", [x], [y, mask], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(m)
    return m


def main(out):
    os.makedirs(out, exist_ok=True)
    onnx.save(model(0.0, "drop_zero"), os.path.join(out, "zero.onnx"))
    onnx.save(model(0.1, "drop_tenth"), os.path.join(out, "half.onnx"))
    x = numpy.random.default_rng(0).standard_normal((2, 3, 5)).astype(numpy.float32)
    numpy.save(os.path.join(out, "x.npy"), x)
    numpy.save(os.path.join(out, "y.npy"), x)
    numpy.save(os.path.join(out, "mask.npy"), numpy.ones((2, 3, 5), bool))


if __name__ == "__main__":
    main(sys.argv[1])

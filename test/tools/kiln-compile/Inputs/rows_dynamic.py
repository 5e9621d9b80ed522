"""Writes a model of row-wise ops over a [rows, length] input with both dims
dynamic (softmax, a row maximum and sum, layer norm, acosh: the CPU
schedules' split reductions and vectorized rows with run-time extents) and,
for several shapes, inputs and numpy's outputs, for dynamic.test. The
lengths straddle the vector width: shorter than one vector, whole vectors,
and whole vectors with a remainder.

usage: rows_dynamic.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

SHAPES = [(1, 1), (3, 15), (2, 16), (5, 17), (13, 100), (4, 4100)]


def reference(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return {
        "softmax": e / e.sum(-1, keepdims=True),
        "rmax": x.max(-1, keepdims=True),
        "rsum": x.sum(-1, keepdims=True),
        "norm": (x - mean) / np.sqrt(var + 1e-5),
        "acosh": np.arccosh(np.abs(x) + 1),
    }


def main():
    out_dir = sys.argv[1]
    nodes = [
        helper.make_node("Softmax", ["x"], ["softmax"], name="sm", axis=-1),
        helper.make_node("ReduceMax", ["x"], ["rmax"], name="max", axes=[-1]),
        helper.make_node("ReduceSum", ["x", "axes"], ["rsum"], name="sum"),
        helper.make_node("LayerNormalization", ["x", "scale"], ["norm"],
                         name="ln", axis=-1),
        helper.make_node("Abs", ["x"], ["ax"], name="abs"),
        helper.make_node("Add", ["ax", "one"], ["ax1"], name="add"),
        helper.make_node("Acosh", ["ax1"], ["acosh"], name="acosh"),
    ]
    inits = [
        helper.make_tensor("axes", TensorProto.INT64, [1], [-1]),
        helper.make_tensor("scale", TensorProto.FLOAT, [], [1.0]),
        helper.make_tensor("one", TensorProto.FLOAT, [], [1.0]),
    ]
    outputs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, None)
               for n in ("softmax", "rmax", "rsum", "norm", "acosh")]
    graph = helper.make_graph(
        nodes, "rows",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["rows", "length"])],
        outputs, inits)
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(out_dir, "rows.onnx"))
    rng = np.random.default_rng(5)
    for i, shape in enumerate(SHAPES):
        x = (3 * rng.standard_normal(shape)).astype(np.float32)
        np.save(os.path.join(out_dir, "rx%d.npy" % i), x)
        for name, y in reference(x.astype(np.float64)).items():
            np.save(os.path.join(out_dir, "r%s%d.npy" % (name, i)),
                    y.astype(np.float32))


if __name__ == "__main__":
    main()

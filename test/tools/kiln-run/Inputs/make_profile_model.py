"""A Conv -> Relu -> MatMul model with named nodes, for the profiler tests.

usage: make_profile_model.py OUT_DIR

Writes OUT_DIR/m.onnx (nodes 'stem conv' (a space, escaped in the
library's metadata), 'relu 1' and 'proj'), OUT_DIR/x.npy and the numpy
reference OUT_DIR/y.npy. Big enough (about 110 MFLOP) that a run takes
milliseconds, so the per-op timers' share of the run is measurable.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def conv2d(x, w, b):
    n, c, h, wd = x.shape
    k = w.shape[2]
    xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), np.float64)
    for i in range(k):
        for j in range(k):
            patch = xp[:, :, i:i + h, j:j + wd]
            out += np.einsum("nchw,oc->nohw", patch, w[:, :, i, j])
    return out + b.reshape(1, -1, 1, 1)


def main(out):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 16, 64, 64)).astype(np.float32)
    w = (rng.standard_normal((32, 16, 3, 3)) / 12).astype(np.float32)
    b = rng.standard_normal(32).astype(np.float32)
    m = (rng.standard_normal((64, 48)) / 8).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], name="stem conv",
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"], name="relu 1"),
        helper.make_node("MatMul", ["r", "m"], ["y"], name="proj"),
    ]
    graph = helper.make_graph(
        nodes, "profiled",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       [1, 32, 64, 48])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b"),
         numpy_helper.from_array(m, "m")])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "m.onnx"))
    y = np.maximum(conv2d(x.astype(np.float64), w, b), 0) @ m
    np.save(os.path.join(out, "x.npy"), x)
    np.save(os.path.join(out, "y.npy"), y.astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes a 1-D ConvTranspose model (groups, strides, dilations, pads,
output_padding: every term of ONNX's output size) and, for several input
shapes, inputs and the output of a direct numpy reference (each input
element scattered through the kernel), for dynamic.test.

usage: conv_transpose_dynamic.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper

GROUP, STRIDE, DILATION, PADS, OUT_PAD = 2, 3, 2, (2, 1), 1
CG, FG, K = 2, 3, 3  # channels and filters per group, kernel


def reference(x, w, b):
    n, c, length = x.shape
    dk = (K - 1) * DILATION + 1
    out = STRIDE * (length - 1) + OUT_PAD + dk - PADS[0] - PADS[1]
    y = np.zeros((n, GROUP * FG, max(out, 0)), np.float64)
    for g in range(GROUP):
        for ci in range(CG):
            for f in range(FG):
                for i in range(length):
                    for k in range(K):
                        o = i * STRIDE + k * DILATION - PADS[0]
                        if 0 <= o < out:
                            y[:, g * FG + f, o] += (x[:, g * CG + ci, i] *
                                                    w[g * CG + ci, f, k])
    return (y + b[None, :, None]).astype(np.float32)


def main():
    out_dir = sys.argv[1]
    node = helper.make_node("ConvTranspose", ["x", "w", "b"], ["y"],
                            name="up", group=GROUP, strides=[STRIDE],
                            dilations=[DILATION], pads=list(PADS),
                            output_padding=[OUT_PAD])
    rng = np.random.default_rng(7)
    w = rng.standard_normal((GROUP * CG, FG, K)).astype(np.float32)
    b = rng.standard_normal(GROUP * FG).astype(np.float32)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["n", GROUP * CG, "l"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [helper.make_tensor("w", TensorProto.FLOAT, w.shape, w.flatten()),
         helper.make_tensor("b", TensorProto.FLOAT, b.shape, b.flatten())])
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(out_dir, "convt.onnx"))
    for i, (n, length) in enumerate([(1, 1), (2, 5), (3, 8)]):
        x = rng.standard_normal((n, GROUP * CG, length)).astype(np.float32)
        np.save(os.path.join(out_dir, "ctx%d.npy" % i), x)
        np.save(os.path.join(out_dir, "cty%d.npy" % i), reference(x, w, b))


if __name__ == "__main__":
    main()

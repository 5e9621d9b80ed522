"""Writes ONNX depthwise Conv models (group = channels) for
kiln-depthwise-conv on awkward shapes: strides, dilations, odd sizes,
channels 3/17/40, a batch of two, asymmetric pads, with and without bias,
followed by Relu, plus a 1-D depthwise conv (a 2-D one with one row). For each
NAME: DIR/NAME.onnx, DIR/NAME.input_0.npy and NumPy's float64 reference
DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(23)


def rand(shape):
    return rng.standard_normal(shape).astype(np.float32)


def depthwise_ref(x, w, bias, strides, pads, dilations):
    """Depthwise conv by taps: out[n, c] += w[c, 0, i, j] * strided window."""
    nd = x.ndim - 2
    x = np.pad(x.astype(np.float64),
               ((0, 0), (0, 0)) + tuple((pads[d], pads[d + nd])
                                        for d in range(nd)))
    k = w.shape[2:]
    out = [(x.shape[2 + d] - dilations[d] * (k[d] - 1) - 1) // strides[d] + 1
           for d in range(nd)]
    y = np.zeros(x.shape[:2] + tuple(out))
    for tap in np.ndindex(*k):
        window = tuple(
            slice(tap[d] * dilations[d],
                  tap[d] * dilations[d] + strides[d] * (out[d] - 1) + 1,
                  strides[d]) for d in range(nd))
        coef = w[(slice(None), 0) + tap].astype(np.float64)
        y += x[(slice(None), slice(None)) + window] * coef.reshape(
            (1, -1) + (1,) * nd)
    if bias is not None:
        y += bias.astype(np.float64).reshape((1, -1) + (1,) * nd)
    return y


def depthwise(out_dir, name, x_shape, kernel, bias=True, strides=None,
              pads=None, dilations=None, relu=False):
    nd = len(kernel)
    strides = strides or (1,) * nd
    pads = pads or (0,) * (2 * nd)
    dilations = dilations or (1,) * nd
    c = x_shape[1]
    x, w = rand(x_shape), rand((c, 1) + tuple(kernel)) * 0.3
    b = rand((c,)) if bias else None
    ref = depthwise_ref(x, w, b, strides, pads, dilations)
    inits = [numpy_helper.from_array(w, "w")]
    ins = ["x0", "w"]
    if bias:
        inits.append(numpy_helper.from_array(b, "b"))
        ins.append("b")
    nodes = [helper.make_node("Conv", ins, ["c" if relu else "y"], group=c,
                              strides=list(strides), pads=list(pads),
                              dilations=list(dilations))]
    if relu:
        nodes.append(helper.make_node("Relu", ["c"], ["y"]))
        ref = np.maximum(ref, 0)
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    np.save(f"{out_dir}/{name}.input_0.npy", x)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        # Stride 2 with MobileNetV2's padding; odd, unequal spatial sizes.
        depthwise(out_dir, "dw_s2_pad_relu", (1, 17, 23, 19), (3, 3),
                  strides=(2, 2), pads=(1, 1, 1, 1), relu=True),
        # Dilation 2, three channels, no bias.
        depthwise(out_dir, "dw_dilated", (1, 3, 17, 13), (3, 3), bias=False,
                  dilations=(2, 2), pads=(2, 2, 2, 2)),
        # A batch of two, 40 channels (several parallel tasks), asymmetric
        # pads, remainders of the register tile in rows and columns.
        depthwise(out_dir, "dw_batch_asym_relu", (2, 40, 13, 29), (3, 3),
                  pads=(0, 1, 2, 1), relu=True),
        # 5x5 kernel, stride 2 in rows only, dilation 2 in columns only.
        depthwise(out_dir, "dw_5x5_mixed", (1, 17, 31, 37), (5, 5),
                  strides=(2, 1), dilations=(1, 2), pads=(2, 4, 1, 3)),
        # 1x1 kernel; one output row; one output column.
        depthwise(out_dir, "dw_pointwise", (1, 3, 7, 5), (1, 1)),
        depthwise(out_dir, "dw_one_row", (2, 17, 3, 40), (3, 3), bias=False),
        depthwise(out_dir, "dw_one_col", (1, 17, 33, 2), (3, 2), strides=(1, 2),
                  pads=(1, 0, 1, 0), relu=True),
        # A MobileNetV2-sized layer: several register tiles per row.
        depthwise(out_dir, "dw_mobilenet", (1, 40, 56, 56), (3, 3),
                  pads=(1, 1, 1, 1), relu=True),
        # Stride 2 onto an odd output width (7): the two-read window of an
        # odd length.
        depthwise(out_dir, "dw_s2_odd_relu", (1, 24, 14, 14), (3, 3),
                  strides=(2, 2), pads=(1, 1, 1, 1), relu=True),
        # A late-stage layer: many channels on a 7x7 plane, 5x5 kernel
        # (MobileNetV3/EfficientNet), tiled by channel blocks.
        depthwise(out_dir, "dw_small_plane_relu", (1, 120, 7, 7), (5, 5),
                  pads=(2, 2, 2, 2), relu=True),
        # 5x5, stride 2, odd sizes, a batch of two.
        depthwise(out_dir, "dw_s2_k5_relu", (2, 20, 29, 27), (5, 5),
                  strides=(2, 2), pads=(2, 2, 2, 2), relu=True),
        # 1-D: lowered as a 2-D depthwise conv with one row.
        depthwise(out_dir, "dw_1d", (1, 17, 30), (3,), pads=(1, 2)),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

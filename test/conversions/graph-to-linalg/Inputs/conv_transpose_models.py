"""Writes ONNX ConvTranspose models on awkward shapes: 1-D, 2-D and 3-D,
strides 2, 3 and mixed, kernels 1 to 5 (not divisible by the stride, and
smaller than it: phases with no tap), symmetric and asymmetric pads,
output_padding, groups, batch 2, with and without bias, one followed by a
Relu, and a dilated one (the spread-input fallback). For each NAME:
DIR/NAME.onnx, its input DIR/NAME.input_0.npy and PyTorch's float64
reference DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(19)
mk = helper.make_node


def rand(shape):
    return rng.standard_normal(shape).astype(np.float32)


def reference(x, w, b, groups, strides, pads, out_pad, dilations):
    """torch's conv_transpose in float64 without padding, then ONNX's pads
    cropped (torch only takes symmetric ones)."""
    n = w.ndim - 2
    conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[n - 1]
    y = conv(torch.from_numpy(x.astype(np.float64)),
             torch.from_numpy(w.astype(np.float64)),
             None if b is None else torch.from_numpy(b.astype(np.float64)),
             stride=strides, output_padding=out_pad, dilation=dilations,
             groups=groups).numpy()
    index = [slice(None), slice(None)]
    for i in range(n):
        index.append(slice(pads[i], y.shape[2 + i] - pads[n + i]))
    return y[tuple(index)]


def convt(out_dir, name, x_shape, w_shape, groups=1, strides=None, pads=None,
          out_pad=None, dilations=None, bias=True, relu=False):
    n = len(w_shape) - 2
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    pads = pads or [0] * (2 * n)
    out_pad = out_pad or [0] * n
    x, w = rand(x_shape), rand(w_shape) * 0.3
    b = rand((w_shape[1] * groups,)) if bias else None
    ref = reference(x, w, b, groups, strides, pads, out_pad, dilations)
    inits = {"w": w}
    ins = ["x0", "w"]
    if bias:
        inits["b"] = b
        ins.append("b")
    nodes = [mk("ConvTranspose", ins, ["c"], group=groups, strides=strides,
                pads=pads, output_padding=out_pad, dilations=dilations)]
    last = "c"
    if relu:
        ref = np.maximum(ref, 0)
        nodes.append(mk("Relu", [last], ["r"]))
        last = "r"
    nodes.append(mk("Identity", [last], ["y"]))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    np.save(f"{out_dir}/{name}.input_0.npy", x)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        # 2-D: the decoder shape (k4 s2 p1), odd sizes, pads, output_padding
        convt(out_dir, "t2d_k4_s2_p1", (1, 16, 13, 11), (16, 8, 4, 4),
              strides=[2, 2], pads=[1, 1, 1, 1]),
        convt(out_dir, "t2d_k3_s2_op1_relu", (2, 5, 9, 7), (5, 6, 3, 3),
              strides=[2, 2], pads=[1, 1, 1, 1], out_pad=[1, 1], relu=True),
        convt(out_dir, "t2d_k5_s3_asym", (1, 4, 8, 10), (4, 7, 5, 5),
              strides=[3, 3], pads=[2, 0, 1, 3], out_pad=[2, 1], bias=False),
        convt(out_dir, "t2d_k2_s3_empty_phase", (1, 3, 6, 5), (3, 4, 2, 2),
              strides=[3, 3], pads=[0, 1, 1, 0]),
        convt(out_dir, "t2d_k1_s2", (2, 6, 5, 7), (6, 3, 1, 1),
              strides=[2, 2]),
        convt(out_dir, "t2d_mixed_strides", (1, 5, 7, 9), (5, 3, 4, 3),
              strides=[2, 3], pads=[1, 2, 2, 0]),
        convt(out_dir, "t2d_g2_k4_s2", (2, 6, 7, 9), (6, 5, 4, 4), groups=2,
              strides=[2, 2], pads=[1, 1, 1, 1]),
        convt(out_dir, "t2d_g3_k3_s3", (1, 9, 5, 6), (9, 2, 3, 3), groups=3,
              strides=[3, 3], pads=[1, 0, 0, 1], out_pad=[1, 2]),
        convt(out_dir, "t2d_dw_k4_s2", (1, 8, 9, 9), (8, 1, 4, 4), groups=8,
              strides=[2, 2], pads=[1, 1, 1, 1]),
        convt(out_dir, "t2d_dilated_s2", (1, 4, 7, 6), (4, 3, 3, 3),
              strides=[2, 2], dilations=[2, 2], pads=[1, 1, 1, 1]),
        convt(out_dir, "t2d_k4_s2_p1_large", (1, 64, 28, 28), (64, 32, 4, 4),
              strides=[2, 2], pads=[1, 1, 1, 1]),
        # 1-D and 3-D
        convt(out_dir, "t1d_k5_s3", (2, 4, 23), (4, 6, 5), strides=[3],
              pads=[2, 1], out_pad=[1]),
        convt(out_dir, "t3d_k3_s2", (1, 3, 4, 5, 6), (3, 4, 3, 3, 3),
              strides=[2, 2, 2], pads=[1, 1, 1, 1, 1, 1], out_pad=[1, 0, 1]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes ONNX Conv models on awkward shapes for every conv rank and group
count: 1-D, 2-D and 3-D convs, grouped (groups 2, 3 and 32 with odd channel
counts), depthwise (1-D, 3-D, a channel multiplier, 7x7 and dilated 5x5),
with strides, dilations, asymmetric pads, auto_pad, 1x1 kernels, odd and
non-multiple-of-16 lengths, with and without bias, some followed by a
residual Add and a Relu (the epilogue kiln-fuse-groups fuses), stems (1-4
input channels, strides 2 and 3 on odd image sizes, 1-D to 3-D, some with
over 64 kernel taps, some with an epilogue whose row tiles build their own
rows of the window tensor), two whose window matrix is computed in blocks of
output rows. For each
NAME: DIR/NAME.onnx, its inputs DIR/NAME.input_K.npy and PyTorch's float64
reference output DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(18)
mk = helper.make_node


def rand(shape):
    return rng.standard_normal(shape).astype(np.float32)


def reference(x, w, b, groups, strides, pads, dilations):
    """torch's conv in float64; ONNX pads (begins, then ends) applied first."""
    n = w.ndim - 2
    spec = []
    for i in reversed(range(n)):
        spec += [pads[i], pads[i + n]]
    xt = F.pad(torch.from_numpy(x.astype(np.float64)), spec)
    conv = (F.conv1d, F.conv2d, F.conv3d)[n - 1]
    y = conv(xt, torch.from_numpy(w.astype(np.float64)),
             None if b is None else torch.from_numpy(b.astype(np.float64)),
             stride=strides, dilation=dilations, groups=groups)
    return y.numpy()


def same_pads(in_shape, kernel, strides, dilations, upper):
    begins, ends = [], []
    for d, k, s, dl in zip(in_shape, kernel, strides, dilations):
        out = -(-d // s)
        total = max((out - 1) * s + (k - 1) * dl + 1 - d, 0)
        small = total // 2
        begins.append(small if upper else total - small)
        ends.append(total - small if upper else small)
    return begins + ends


def conv(out_dir, name, x_shape, w_shape, groups=1, strides=None, pads=None,
         dilations=None, bias=True, relu=False, residual=False, auto_pad=None):
    n = len(w_shape) - 2
    strides = strides or [1] * n
    dilations = dilations or [1] * n
    x, w = rand(x_shape), rand(w_shape) * 0.3
    b = rand((w_shape[0],)) if bias else None
    attrs = dict(group=groups, strides=strides, dilations=dilations)
    if auto_pad:
        attrs["auto_pad"] = auto_pad
        pads = same_pads(x_shape[2:], w_shape[2:], strides, dilations,
                         auto_pad == "SAME_UPPER")
    else:
        pads = pads or [0] * (2 * n)
        attrs["pads"] = pads
    ref = reference(x, w, b, groups, strides, pads, dilations)
    inits = {"w": w}
    ins = ["x0", "w"]
    if bias:
        inits["b"] = b
        ins.append("b")
    inputs = [x]
    nodes = [mk("Conv", ins, ["c"], **attrs)]
    last = "c"
    if residual:
        r = rand(ref.shape)
        inputs.append(r)
        ref = ref + r
        nodes.append(mk("Add", [last, "x1"], ["a"]))
        last = "a"
    if relu:
        ref = np.maximum(ref, 0)
        nodes.append(mk("Relu", [last], ["r"]))
        last = "r"
    nodes.append(mk("Identity", [last], ["y"]))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(f"x{k}", TensorProto.FLOAT, a.shape)
         for k, a in enumerate(inputs)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    for k, a in enumerate(inputs):
        np.save(f"{out_dir}/{name}.input_{k}.npy", a)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        # 1-D
        conv(out_dir, "c1d_k3_relu", (1, 5, 37), (7, 5, 3), pads=[1, 1],
             relu=True),
        conv(out_dir, "c1d_s2_d2_asym", (2, 6, 50), (4, 6, 5), strides=[2],
             dilations=[2], pads=[3, 1]),
        conv(out_dir, "c1d_k1", (1, 16, 33), (8, 16, 1), bias=False),
        conv(out_dir, "c1d_long_residual", (1, 8, 1003), (12, 8, 3),
             pads=[1, 1], residual=True, relu=True),
        conv(out_dir, "c1d_same_s2", (1, 3, 45), (5, 3, 4), strides=[2],
             auto_pad="SAME_UPPER"),
        conv(out_dir, "c1d_g3_s2", (1, 9, 41), (6, 3, 3), groups=3,
             strides=[2], pads=[1, 2]),
        conv(out_dir, "c1d_dw_k7_relu", (1, 10, 29), (10, 1, 7), groups=10,
             pads=[3, 3], relu=True),
        conv(out_dir, "c1d_dw_s2_d2", (2, 5, 31), (5, 1, 4), groups=5,
             strides=[2], dilations=[2], pads=[2, 1]),
        # grouped 2-D
        conv(out_dir, "g2d_g3_s2_relu", (1, 9, 13, 11), (15, 3, 3, 3),
             groups=3, strides=[2, 2], pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "g2d_g32_residual", (1, 64, 14, 14), (64, 2, 3, 3),
             groups=32, pads=[1, 1, 1, 1], residual=True, relu=True),
        conv(out_dir, "g2d_g2_d2_asym", (2, 6, 15, 17), (4, 3, 3, 3),
             groups=2, dilations=[2, 2], pads=[2, 1, 0, 3], bias=False),
        conv(out_dir, "g2d_pointwise_g4", (1, 12, 9, 7), (8, 3, 1, 1),
             groups=4),
        conv(out_dir, "dw2d_multiplier", (1, 4, 9, 9), (8, 1, 3, 3),
             groups=4, pads=[1, 1, 1, 1]),
        conv(out_dir, "dw2d_k7_relu", (1, 8, 20, 19), (8, 1, 7, 7), groups=8,
             pads=[3, 3, 3, 3], relu=True),
        conv(out_dir, "dw2d_k5_s2_d2", (1, 6, 23, 21), (6, 1, 5, 5),
             groups=6, strides=[2, 2], dilations=[2, 2], pads=[4, 3, 4, 4]),
        # 3-D
        conv(out_dir, "c3d_k3_relu", (1, 3, 5, 9, 7), (4, 3, 3, 3, 3),
             pads=[1, 1, 1, 1, 1, 1], relu=True),
        conv(out_dir, "c3d_mixed", (1, 4, 7, 10, 9), (6, 4, 3, 3, 2),
             strides=[2, 1, 2], dilations=[1, 2, 1], pads=[1, 0, 2, 0, 1, 1]),
        conv(out_dir, "c3d_k1", (2, 8, 3, 5, 4), (5, 8, 1, 1, 1)),
        conv(out_dir, "c3d_g2", (1, 4, 5, 6, 7), (6, 2, 3, 1, 3), groups=2,
             pads=[1, 0, 1, 1, 0, 1]),
        conv(out_dir, "c3d_dw_residual", (1, 4, 5, 6, 7), (4, 1, 3, 3, 3),
             groups=4, pads=[1, 1, 1, 1, 1, 1], residual=True, relu=True),
        # 17x17 (a prime row count): blocks of all 17 rows, not 1
        conv(out_dir, "c2d_17x17_k1x7_relu", (1, 20, 17, 17), (40, 20, 1, 7),
             pads=[0, 3, 0, 3], relu=True),
        # stems: few input channels, strided, odd image sizes; over 64
        # kernel taps the window tensor is copied by a loop over the taps
        conv(out_dir, "stem_c1_k3_s2_relu", (1, 1, 97, 61), (8, 1, 3, 3),
             strides=[2, 2], pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "stem_c3_k7_s2_relu", (1, 3, 97, 61), (16, 3, 7, 7),
             strides=[2, 2], pads=[3, 3, 3, 3], relu=True),
        conv(out_dir, "stem_c4_k5_s3_asym", (1, 4, 61, 97), (12, 4, 5, 5),
             strides=[3, 3], pads=[2, 1, 2, 2], bias=False),
        conv(out_dir, "stem_c2_k9_s2_loop", (2, 2, 45, 38), (6, 2, 9, 9),
             strides=[2, 2], pads=[4, 3, 4, 5]),
        conv(out_dir, "stem_c3_k9x8_s3_d2_loop", (1, 3, 50, 61),
             (5, 3, 9, 8), strides=[3, 2], dilations=[2, 2],
             pads=[2, 3, 1, 4]),
        conv(out_dir, "stem_c3_k9_s2_gather_relu", (1, 3, 61, 97),
             (8, 3, 9, 9), strides=[2, 2], pads=[4, 4, 3, 4], relu=True),
        conv(out_dir, "stem1d_k67_s3_loop", (1, 2, 301), (4, 2, 67),
             strides=[3], pads=[33, 30], residual=True, relu=True),
        conv(out_dir, "stem3d_k3x7x7_s122_loop", (1, 3, 5, 23, 19),
             (8, 3, 3, 7, 7), strides=[1, 2, 2], pads=[1, 3, 2, 1, 3, 3],
             relu=True),
        # window matrices over 16M elements: computed in blocks of rows
        conv(out_dir, "c2d_blocks", (1, 32, 245, 245), (3, 32, 3, 3),
             pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "c3d_blocks_s2", (1, 8, 20, 90, 90), (4, 8, 3, 3, 3),
             strides=[2, 1, 1], pads=[1, 1, 1, 1, 1, 1]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes ONNX MaxPool/AveragePool models of rank 1, 2 and 3 whose windows
are lowered as one elementwise generic over the kernel taps: strides 1-4,
pads, ceil_mode, dilations, count_include_pad, odd sizes, a batch of two,
and one window too wide for the taps form. For each NAME: DIR/NAME.onnx,
DIR/NAME.input_0.npy and PyTorch's float64 reference DIR/NAME.expected.npy;
DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper
from torch.nn import functional as F

rng = np.random.default_rng(11)


def pool(out_dir, name, op, shape, kernel, strides, pads=None, ceil=0,
         dilations=None, include_pad=0):
    nd = len(kernel)
    pads = pads or [0] * (2 * nd)
    x = rng.standard_normal(shape).astype(np.float32)
    t = torch.from_numpy(x.astype(np.float64))
    # PyTorch pads symmetrically: pad explicitly (with -inf or zeros, or
    # count-excluded zeros via a ones tensor for the average's counts).
    pad_arg = []
    for i in reversed(range(nd)):
        pad_arg += [pads[i], pads[i + nd]]
    attrs = dict(kernel_shape=kernel, strides=strides, pads=pads,
                 ceil_mode=ceil)
    if op == "MaxPool":
        tp = F.pad(t, pad_arg, value=-np.inf)
        fn = [F.max_pool1d, F.max_pool2d, F.max_pool3d][nd - 1]
        dil = dilations or [1] * nd
        attrs["dilations"] = dil
        ref = fn(tp, kernel, strides, 0, dil, ceil_mode=bool(ceil))
    else:
        fn = [F.avg_pool1d, F.avg_pool2d, F.avg_pool3d][nd - 1]
        tp = F.pad(t, pad_arg, value=0.0)
        ones = F.pad(torch.ones_like(t), pad_arg,
                     value=1.0 if include_pad else 0.0)
        s = fn(tp, kernel, strides, 0, ceil_mode=bool(ceil),
               count_include_pad=True)
        c = fn(ones, kernel, strides, 0, ceil_mode=bool(ceil),
               count_include_pad=True)
        ref = s / c
        attrs["count_include_pad"] = include_pad
    ref = ref.numpy()
    node = helper.make_node(op, ["x"], ["y"], **attrs)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    np.save(f"{out_dir}/{name}.input_0.npy", x)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        # M5's: kernel 4, stride 4, over an odd length with a remainder.
        pool(out_dir, "max1d_k4_s4", "MaxPool", (1, 64, 3981), [4], [4]),
        pool(out_dir, "max1d_pads_dil", "MaxPool", (2, 5, 101), [3], [2],
             pads=[1, 2], dilations=[2]),
        pool(out_dir, "avg1d_ceil", "AveragePool", (1, 7, 50), [3], [2],
             pads=[1, 0], ceil=1),
        pool(out_dir, "avg1d_include_pad", "AveragePool", (1, 3, 33), [5],
             [3], pads=[2, 2], include_pad=1),
        pool(out_dir, "max2d_s2_pads", "MaxPool", (1, 16, 57, 55), [3, 3],
             [2, 2], pads=[1, 1, 1, 1]),
        pool(out_dir, "max3d_s2_ceil", "MaxPool", (1, 4, 9, 17, 15),
             [3, 3, 3], [2, 2, 2], pads=[1, 1, 1, 0, 0, 0], ceil=1),
        pool(out_dir, "avg3d_k2", "AveragePool", (2, 6, 8, 13, 11),
             [2, 2, 2], [2, 2, 2]),
        pool(out_dir, "avg3d_pads", "AveragePool", (1, 3, 5, 9, 8),
             [1, 3, 3], [1, 1, 2], pads=[0, 1, 1, 0, 1, 1]),
        # stems' max pools on odd images: ceil_mode, asymmetric pads,
        # stride 3, one input channel
        pool(out_dir, "max2d_stem_odd", "MaxPool", (1, 5, 97, 61), [3, 3],
             [2, 2], pads=[1, 1, 1, 1]),
        pool(out_dir, "max2d_ceil_asym", "MaxPool", (2, 3, 30, 45), [3, 3],
             [2, 2], pads=[0, 1, 1, 0], ceil=1),
        pool(out_dir, "max2d_c1_k5_s3", "MaxPool", (1, 1, 61, 97), [5, 5],
             [3, 3], pads=[2, 1, 2, 2], ceil=1),
        # 32 taps: the named pooling op / window sum.
        pool(out_dir, "max1d_wide", "MaxPool", (1, 4, 200), [32], [16]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

"""Writes PyTorch-exported depthwise conv layers with the epilogues of the
mobile nets (Relu, ReLU6 = Clip, Hardswish = HardSigmoid * x, SiLU =
Sigmoid * x, a folded BatchNorm) on awkward planes: 7x7, 15x9, 1xN, 14x14
and 28x28 rows (remainders of 7, 9, 14 and 12 columns), kernels 3, 5 and 7,
strides 1 and 2 (stride 2 on 113x113, 14x14, 15x9, 29x31 with dilation 2,
and 1xN planes: register tiles of one and of four rows), dilation 2, a batch of two, no bias, and a depthwise conv
whose output a 3x3 conv reads through its padding. For each NAME:
DIR/NAME.onnx, DIR/NAME.input_0.npy and PyTorch's float64 result
DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import torch
from torch import nn

torch.manual_seed(11)

ACTS = {"relu": nn.ReLU, "relu6": nn.ReLU6, "hswish": nn.Hardswish,
        "silu": nn.SiLU, "none": nn.Identity}


def dw(c, k, stride=1, dilation=1, bias=True, act="none", bn=False):
    pad = dilation * (k - 1) // 2
    layers = [nn.Conv2d(c, c, k, stride, pad, dilation, groups=c, bias=bias)]
    if bn:
        layers.append(nn.BatchNorm2d(c))
    layers.append(ACTS[act]())
    return layers


def export(out_dir, name, layers, x_shape):
    model = nn.Sequential(*layers).eval()
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):  # not the identity statistics
            m.running_mean.uniform_(-0.5, 0.5)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    x = torch.randn(x_shape)
    with torch.no_grad():
        ref = model.double()(x.double()).numpy()
        torch.onnx.export(model.float(), x, f"{out_dir}/{name}.onnx",
                          opset_version=13)
    np.save(f"{out_dir}/{name}.input_0.npy", x.numpy())
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        export(out_dir, "dw3_7x7_relu6", dw(24, 3, act="relu6"),
               (1, 24, 7, 7)),
        export(out_dir, "dw5_15x9_hswish", dw(20, 5, act="hswish"),
               (1, 20, 15, 9)),
        export(out_dir, "dw7_1xn_silu", dw(17, 7, act="silu"),
               (1, 17, 1, 37)),
        export(out_dir, "dw3_s2_15x9_relu", dw(40, 3, 2, act="relu"),
               (1, 40, 15, 9)),
        export(out_dir, "dw5_s2_batch_hswish", dw(24, 5, 2, act="hswish"),
               (2, 24, 29, 13)),
        export(out_dir, "dw3_dil2_relu6", dw(19, 3, dilation=2, act="relu6"),
               (1, 19, 14, 14)),
        export(out_dir, "dw7_28_bn_silu", dw(48, 7, bias=False, act="silu",
                                             bn=True), (1, 48, 28, 28)),
        export(out_dir, "dw3_s2_56_relu6", dw(16, 3, 2, act="relu6"),
               (1, 16, 56, 56)),
        export(out_dir, "dw3_14_nobias", dw(33, 3, bias=False),
               (1, 33, 14, 14)),
        export(out_dir, "dw5_s2_7x7_bn_relu", dw(64, 5, 2, bias=False,
                                                 act="relu", bn=True),
               (1, 64, 7, 7)),
        # Strided register tiles of 4 rows (rows of at most one vector:
        # 2-D windows, each row widened) and of one row (113 -> 57).
        export(out_dir, "dw3_s2_113_relu6", dw(16, 3, 2, act="relu6"),
               (1, 16, 113, 113)),
        export(out_dir, "dw3_s2_14_relu6", dw(40, 3, 2, act="relu6"),
               (1, 40, 14, 14)),
        export(out_dir, "dw7_s2_15x9_silu", dw(12, 7, 2, act="silu"),
               (1, 12, 15, 9)),
        export(out_dir, "dw3_s2_dil2_hswish", dw(19, 3, 2, 2, act="hswish"),
               (1, 19, 29, 31)),
        export(out_dir, "dw5_s2_1xn_relu", dw(9, 5, 2, act="relu"),
               (1, 9, 1, 37)),
        export(out_dir, "dw3_then_conv",
               dw(32, 3, act="relu6") + [nn.Conv2d(32, 16, 3, 1, 1)],
               (1, 32, 14, 14)),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

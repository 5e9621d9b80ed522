"""Writes ONNX models whose concats kiln-concat-in-place rewrites: concat
along each axis (0 to 3, and the last axis of a matrix) of conv, Relu,
elementwise and pool producers; a producer with a second user; the same
value concatenated several times; function arguments and constants as
operands; DenseNet-style concats of a growing list (concats of concats
whose results other layers read); an Inception-style block whose concat
feeds a padded max pool and 1x1 convs; sizes large enough for thread
blocks and odd ones. For each NAME: DIR/NAME.onnx, DIR/NAME.input_0.npy
and PyTorch's float64 reference output DIR/NAME.expected.npy; DIR/models.txt
lists the names.
"""
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(18)
out_dir = sys.argv[1]
names = []


class Axis(nn.Module):
    """conv+relu, 1x1 conv, max pool and an elementwise op of x, joined
    along `axis` (the convs keep x's shape but for their channels, so for
    axes other than 1 each producer has x's channels)."""

    def __init__(self, c, axis):
        super().__init__()
        self.axis = axis
        k = c if axis != 1 else 7
        self.a = nn.Conv2d(c, k, 3, padding=1)
        self.b = nn.Conv2d(c, c if axis != 1 else 5, 1)

    def forward(self, x):
        parts = [F.relu(self.a(x)), self.b(x),
                 F.max_pool2d(x, 3, 1, 1), x * 0.5 + 1.0]
        return torch.cat(parts, self.axis)


class SecondUser(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(6, 16, 3, padding=1)
        self.b = nn.Conv2d(6, 9, 1)
        self.c = nn.Conv2d(25, 8, 3, padding=1)
        self.d = nn.Conv2d(16, 8, 1)

    def forward(self, x):
        a = F.relu(self.a(x))
        return self.c(torch.cat([a, self.b(x)], 1)) + self.d(a)


class Repeated(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Conv2d(5, 11, 3, padding=1)
        self.b = nn.Conv2d(5, 3, 1)

    def forward(self, x):
        a = torch.sigmoid(self.a(x))
        b = self.b(x)
        return torch.cat([a, b, a, x, a], 1) * 2.0


class ArgsAndConstants(nn.Module):
    def __init__(self):
        super().__init__()
        self.k = nn.Parameter(torch.randn(1, 3, 17, 19), requires_grad=False)
        self.a = nn.Conv2d(4, 6, 3, padding=1)

    def forward(self, x):
        return torch.cat([x, self.k, F.relu(self.a(x)), x], 1) - 0.25


class Dense(nn.Module):
    """DenseNet's pattern: each layer reads the concat of all previous
    features; bias-free convs, as torchvision's."""

    def __init__(self, c0, growth, layers, pad_input):
        super().__init__()
        self.pad_input = pad_input
        self.bns = nn.ModuleList()
        self.convs = nn.ModuleList()
        for i in range(layers):
            c = c0 + i * growth
            self.bns.append(nn.BatchNorm2d(c))
            self.convs.append(nn.Conv2d(c, growth, 3, padding=1, bias=False))
        for bn in self.bns:
            bn.running_mean.uniform_(-0.5, 0.5)
            bn.running_var.uniform_(0.5, 1.5)

    def forward(self, x):
        feats = [x]
        for bn, conv in zip(self.bns, self.convs):
            feats.append(conv(F.relu(bn(torch.cat(feats, 1)))))
        return torch.cat(feats, 1)


class Inception(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.b1 = nn.Conv2d(c, 16, 1)
        self.b2a = nn.Conv2d(c, 8, 1)
        self.b2b = nn.Conv2d(8, 12, 3, padding=1)
        self.b3 = nn.Conv2d(c, 7, 5, padding=2)
        self.b4 = nn.Conv2d(c, 5, 1)
        self.n1 = nn.Conv2d(40, 9, 1)
        self.n4 = nn.Conv2d(40, 6, 1)

    def block(self, x):
        return torch.cat([F.relu(self.b1(x)), F.relu(self.b2b(self.b2a(x))),
                          F.relu(self.b3(x)),
                          F.relu(self.b4(F.max_pool2d(x, 3, 1, 1)))], 1)

    def forward(self, x):
        y = self.block(x)
        return torch.cat([self.n1(y), self.n4(F.max_pool2d(y, 3, 1, 1)), y],
                         1)


class LastAxis(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(37, 29)
        self.b = nn.Linear(37, 16)

    def forward(self, x):
        return torch.cat([torch.relu(self.a(x)), self.b(x), x], 1)


def export(name, model, shape):
    model = model.eval()
    x = torch.randn(*shape)
    with torch.no_grad():
        expected = model.double()(x.double()).numpy()
        model = model.float()
    torch.onnx.export(model, x, f"{out_dir}/{name}.onnx", opset_version=13)
    np.save(f"{out_dir}/{name}.input_0.npy", x.numpy())
    np.save(f"{out_dir}/{name}.expected.npy", expected.astype(np.float32))
    names.append(name)


export("axis0", Axis(5, 0), (2, 5, 17, 13))
export("axis1", Axis(5, 1), (1, 5, 17, 13))
export("axis1_big", Axis(16, 1), (1, 16, 40, 37))
export("axis2", Axis(6, 2), (1, 6, 19, 21))
export("axis3", Axis(6, 3), (1, 6, 19, 21))
export("axis3_big", Axis(16, 3), (1, 16, 36, 35))
export("second_user", SecondUser(), (1, 6, 31, 29))
export("repeated", Repeated(), (1, 5, 23, 17))
export("args_constants", ArgsAndConstants(), (1, 4, 17, 19))
export("dense", Dense(8, 5, 4, False), (1, 8, 21, 19))
export("dense_big", Dense(16, 8, 5, False), (1, 16, 40, 40))
export("inception", Inception(24), (1, 24, 29, 27))
export("last_axis", LastAxis(), (7, 37))
with open(f"{out_dir}/models.txt", "w") as f:
    f.write("\n".join(names) + "\n")

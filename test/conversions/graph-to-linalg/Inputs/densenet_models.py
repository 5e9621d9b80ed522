"""Writes PyTorch-exported DenseNet-style layers on awkward shapes for the
lone-conv tiles of kiln-fuse-groups (a 3x3 conv with no epilogue written
into its block's concat buffer), the folded standalone BatchNormalization
(+ Relu) and strided grouped convs (RegNetX's first block of a stage):

- dense blocks BN-Relu-Conv1x1-BN-Relu-Conv3x3 -> Concat with odd channel
  counts (17 in, growth 33, bottleneck 40) on 15x9, 56x56-like (52x44)
  and 7x7 planes, batch 2, and a transition (BN-Relu-Conv1x1-AvgPool);
- standalone BatchNormalization + Relu on odd shapes (1x19x15x9, a 1x33x
  56x56-like plane, 2-D N x C, 1-D N x C x L, 3-D), in f32 and f64;
- grouped 3x3 stride-2 convs with groups of 16 and of 3 on odd planes,
  with Relu and a residual Add (a strided 1x1 projection) + Relu.

Each as DIR/NAME.onnx, DIR/NAME.input_0.npy and PyTorch's float64 result
DIR/NAME.expected.npy (in the model's dtype); DIR/models.txt lists them.
"""
import sys

import numpy as np
import torch
from torch import nn


def randomize(model):
    for m in model.modules():
        if isinstance(m, (nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d)):
            m.running_mean.uniform_(-1, 1)
            m.running_var.uniform_(0.3, 2.5)
            m.weight.data.uniform_(0.5, 1.5)
            m.bias.data.uniform_(-0.5, 0.5)
    return model.eval()


class DenseLayer(nn.Module):
    def __init__(self, c, growth, bottleneck):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(c)
        self.conv1 = nn.Conv2d(c, bottleneck, 1, bias=False)
        self.norm2 = nn.BatchNorm2d(bottleneck)
        self.conv2 = nn.Conv2d(bottleneck, growth, 3, padding=1, bias=False)

    def forward(self, x):
        y = self.conv1(torch.relu(self.norm1(x)))
        y = self.conv2(torch.relu(self.norm2(y)))
        return torch.cat([x, y], 1)


def dense_block(c, layers, growth=33, bottleneck=40, transition=False):
    mods = [DenseLayer(c + i * growth, growth, bottleneck)
            for i in range(layers)]
    if transition:
        c_out = c + layers * growth
        mods += [nn.BatchNorm2d(c_out), nn.ReLU(),
                 nn.Conv2d(c_out, c_out // 2, 1, bias=False),
                 nn.AvgPool2d(2, 2)]
    return nn.Sequential(*mods)


class BNRelu(nn.Module):
    def __init__(self, bn):
        super().__init__()
        self.bn = bn

    def forward(self, x):
        return torch.relu(self.bn(x))


class GroupedStride2(nn.Module):
    """RegNetX's first block of a stage: 3x3 stride-2 grouped conv + Relu,
    then (residual) a 1x1 stride-2 projection added, + Relu."""

    def __init__(self, c, width, residual):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, 2, 1, groups=c // width, bias=False)
        self.bn = nn.BatchNorm2d(c)
        self.residual = residual
        if residual:
            self.proj = nn.Conv2d(c, c, 1, 2, bias=False)

    def forward(self, x):
        y = torch.relu(self.bn(self.conv(x)))
        if self.residual:
            y = torch.relu(y + self.proj(x))
        return y


def export(out_dir, name, model, x_shape, dtype=torch.float32):
    torch.manual_seed(len(name))
    model = randomize(model)
    x = torch.randn(*x_shape, dtype=torch.float64)
    with torch.no_grad():
        ref = model.double()(x).numpy()
        xm = x.to(dtype)
        torch.onnx.export(model.to(dtype), xm, f"{out_dir}/{name}.onnx",
                          opset_version=13)
    np.save(f"{out_dir}/{name}.input_0.npy", xm.numpy())
    np.save(f"{out_dir}/{name}.expected.npy",
            ref.astype(xm.numpy().dtype))
    return name


def main(out_dir):
    f64 = torch.float64
    names = [
        export(out_dir, "dense_15x9", dense_block(17, 3), (1, 17, 15, 9)),
        export(out_dir, "dense_52x44", dense_block(17, 2), (1, 17, 52, 44)),
        export(out_dir, "dense_7x7_batch2", dense_block(33, 2),
               (2, 33, 7, 7)),
        export(out_dir, "dense_transition", dense_block(
            16, 2, 32, 64, transition=True), (1, 16, 28, 28)),
        export(out_dir, "bnrelu_15x9", BNRelu(nn.BatchNorm2d(19)),
               (1, 19, 15, 9)),
        export(out_dir, "bnrelu_56_f64", BNRelu(nn.BatchNorm2d(33)),
               (1, 33, 56, 53), f64),
        export(out_dir, "bnrelu_2d", BNRelu(nn.BatchNorm1d(37)), (3, 37)),
        export(out_dir, "bnrelu_1d_f64", BNRelu(nn.BatchNorm1d(17)),
               (2, 17, 29), f64),
        export(out_dir, "bnrelu_3d", BNRelu(nn.BatchNorm3d(9)),
               (1, 9, 5, 7, 11)),
        export(out_dir, "gs2_w16_relu", GroupedStride2(32, 16, False),
               (1, 32, 57, 45)),
        export(out_dir, "gs2_w16_residual", GroupedStride2(48, 16, True),
               (1, 48, 29, 29)),
        export(out_dir, "gs2_w3_residual", GroupedStride2(9, 3, True),
               (2, 9, 15, 9)),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

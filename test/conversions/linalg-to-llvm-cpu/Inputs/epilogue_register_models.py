"""Writes PyTorch-exported conv and matmul layers whose epilogues run on
the register tiles (epilogue_registers.c): 1x1, 3x3 stride 1 and stride 2
convs with Relu, ReLU6 (Clip), Hardswish, SiLU, GELU and a residual Add
(its operand a second input) on 7x7, 15x9, 23x45 and 56x56 planes, 24 and
100 output channels, reductions of 16, 33 and 576 (cache-blocked: the
epilogue stays a pass), a batch of two, float64, and Gemm/MatMul + bias +
GELU + residual. For each NAME: DIR/NAME.onnx, DIR/NAME.input_<i>.npy and
PyTorch's float64 result DIR/NAME.expected.npy; DIR/models.txt lists the
names.
"""
import sys

import numpy as np
import torch
from torch import nn

torch.manual_seed(12)

ACTS = {"relu": torch.relu, "relu6": lambda y: torch.clamp(y, 0, 6),
        "hswish": nn.functional.hardswish, "silu": nn.functional.silu,
        "gelu": nn.functional.gelu, "none": lambda y: y}


class Conv(nn.Module):
    def __init__(self, cin, cout, k, stride, act, residual):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, stride, k // 2)
        self.act, self.residual = ACTS[act], residual

    def forward(self, x, r=None):
        y = self.conv(x)
        return self.act(y + r if self.residual else y)


class Linear(nn.Module):
    def __init__(self, k, n, act, residual):
        super().__init__()
        self.linear = nn.Linear(k, n)
        self.act, self.residual = ACTS[act], residual

    def forward(self, x, r=None):
        y = self.act(self.linear(x))
        return y + r if self.residual else y


def export(out_dir, name, model, inputs, dtype=torch.float32):
    model = model.eval()
    with torch.no_grad():
        ref = model.double()(*[t.double() for t in inputs]).numpy()
        model = model.to(dtype)
        torch.onnx.export(model, tuple(t.to(dtype) for t in inputs),
                          f"{out_dir}/{name}.onnx", opset_version=13)
    for i, t in enumerate(inputs):
        np.save(f"{out_dir}/{name}.input_{i}.npy", t.to(dtype).numpy())
    np.save(f"{out_dir}/{name}.expected.npy",
            ref.astype(np.float64 if dtype == torch.float64 else np.float32))
    return name


def conv(out_dir, name, cin, cout, k, stride, hw, act, residual=False,
         batch=1, dtype=torch.float32):
    x = torch.randn(batch, cin, *hw)
    oh = (hw[0] + 2 * (k // 2) - k) // stride + 1
    ow = (hw[1] + 2 * (k // 2) - k) // stride + 1
    inputs = [x] + ([torch.randn(batch, cout, oh, ow)] if residual else [])
    return export(out_dir, name, Conv(cin, cout, k, stride, act, residual),
                  inputs, dtype)


def main(out_dir):
    names = [
        conv(out_dir, "c1_16x24_56_relu6", 16, 24, 1, 1, (56, 56), "relu6"),
        conv(out_dir, "c1_33x100_15x9_hswish_add", 33, 100, 1, 1, (15, 9),
             "hswish", residual=True),
        conv(out_dir, "c1_16x100_7x7_silu", 16, 100, 1, 1, (7, 7), "silu"),
        conv(out_dir, "c3_16x24_23x45_gelu_add", 16, 24, 3, 1, (23, 45),
             "gelu", residual=True),
        conv(out_dir, "c3_s2_33x100_15x9_relu", 33, 100, 3, 2, (15, 9),
             "relu"),
        conv(out_dir, "c3_64x24_15x9_relu_add", 64, 24, 3, 1, (15, 9),
             "relu", residual=True),
        conv(out_dir, "c1_16x24_batch_relu6", 16, 24, 1, 1, (23, 45),
             "relu6", batch=2),
        conv(out_dir, "c1_16x100_23x45_f64_hswish_add", 16, 100, 1, 1,
             (23, 45), "hswish", residual=True, dtype=torch.float64),
        export(out_dir, "gemm_gelu_add", Linear(33, 100, "gelu", True),
               [torch.randn(37, 33), torch.randn(37, 100)]),
        export(out_dir, "matmul_gelu_add", Linear(64, 100, "gelu", True),
               [torch.randn(2, 19, 64), torch.randn(2, 19, 100)]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

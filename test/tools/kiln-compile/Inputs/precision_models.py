"""Writes two f32 PyTorch models for precision.test, each with an input and
its outputs: in f32 and under PyTorch's CPU autocast to bf16 (its f16
autocast is CUDA-only here, so f16 is checked against f32).

  block: a pre-norm transformer block (LayerNorm, packed QKV projection,
         softmax attention over 17 tokens, GELU MLP, residual adds) and a
         linear head
  cnn:   conv + batch norm + ReLU + max pool, a strided conv, a depthwise
         conv, a scalar add, a global mean and a linear layer

usage: precision_models.py DIR"""
import os
import sys

import numpy as np
import torch


class Block(torch.nn.Module):
    def __init__(self, d=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.proj = torch.nn.Linear(d, d)
        self.ln1 = torch.nn.LayerNorm(d)
        self.ln2 = torch.nn.LayerNorm(d)
        self.up = torch.nn.Linear(d, 4 * d)
        self.down = torch.nn.Linear(4 * d, d)
        self.head = torch.nn.Linear(d, 10)

    def forward(self, x):
        b, t, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, -1)

        def split(z):
            return z.reshape(b, t, self.heads, d // self.heads).transpose(1, 2)

        scores = split(q) @ split(k).transpose(-1, -2) / (d // self.heads) ** 0.5
        a = torch.softmax(scores, -1) @ split(v)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        x = x + self.down(torch.nn.functional.gelu(self.up(self.ln2(x))))
        return self.head(x)


class Cnn(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = torch.nn.Conv2d(3, 16, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(16)
        self.c2 = torch.nn.Conv2d(16, 32, 3, stride=2, padding=1)
        self.dw = torch.nn.Conv2d(32, 32, 3, padding=1, groups=32)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        x = torch.nn.functional.max_pool2d(torch.relu(self.bn(self.c1(x))), 2)
        x = torch.relu(self.dw(torch.relu(self.c2(x)))) + 0.5
        return self.fc(x.mean((2, 3)))


def main():
    out = sys.argv[1]
    torch.manual_seed(0)
    cnn = Cnn()
    with torch.no_grad():
        cnn.bn.running_mean.uniform_(-0.5, 0.5)
        cnn.bn.running_var.uniform_(0.5, 2.0)
    for name, model, x in [("block", Block(), torch.randn(2, 17, 64)),
                           ("cnn", cnn, torch.randn(2, 3, 30, 30))]:
        model.eval()
        torch.onnx.export(model, (x,), os.path.join(out, name + ".onnx"),
                          input_names=["x"], output_names=["y"],
                          opset_version=17)
        np.save(os.path.join(out, name + "_x.npy"), x.numpy())
        with torch.no_grad():
            np.save(os.path.join(out, name + "_f32.npy"), model(x).numpy())
            with torch.autocast("cpu", dtype=torch.bfloat16):
                y = model(x).float().numpy()
            np.save(os.path.join(out, name + "_bf16.npy"), y)


if __name__ == "__main__":
    main()

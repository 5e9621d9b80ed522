"""A small GPT-style decoder for kiln-compile --shard's tests
(shard-transformer.test), exported by PyTorch with its output.

usage: make_transformers.py OUTDIR

Writes OUTDIR/gpt.onnx: 2 decoder blocks (pre-norm, one fused QKV
projection split in three, causal mask by Where, GELU MLP; width 64, 4
heads, 16 tokens, a batch of 2), x_gpt.npy and its output y_gpt.npy."""
import math
import os
import sys

import numpy as np
import torch
from torch import nn

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
torch.manual_seed(7)
D, HEADS, SEQ = 64, 4, 16


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.qkv, self.proj = nn.Linear(D, 3 * D), nn.Linear(D, D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(),
                                 nn.Linear(4 * D, D))
        self.register_buffer("causal",
                             torch.tril(torch.ones(SEQ, SEQ, dtype=torch.bool)))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(b, s, HEADS, d // HEADS).transpose(1, 2)
                   for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // HEADS)
        att = att.masked_fill(~self.causal[:s, :s], float("-inf")).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, s, d))
        return x + self.mlp(self.ln2(x))


def export(name, model, x):
    model.eval()
    with torch.no_grad():
        y = model(x)
    torch.onnx.export(model, (x,), os.path.join(out, name + ".onnx"),
                      input_names=["x"], output_names=["y"], opset_version=17)
    np.save(os.path.join(out, "x_" + name + ".npy"), x.numpy())
    np.save(os.path.join(out, "y_" + name + ".npy"), y.numpy())


export("gpt", nn.Sequential(Block(), Block()), torch.randn(2, SEQ, D))

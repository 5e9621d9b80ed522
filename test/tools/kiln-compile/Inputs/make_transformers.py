"""Small transformers for kiln-compile --shard's tests
(shard-transformer.test), exported by PyTorch with their outputs.

usage: make_transformers.py OUTDIR

Writes, each with x_NAME.npy and its output y_NAME.npy (width 64, 4
heads, 16 tokens, a batch of 2):
- gpt.onnx: 2 decoder blocks (pre-norm, one fused QKV projection split in
  three, causal mask by Where, GELU MLP);
- bert.onnx: 2 nn.TransformerEncoderLayer blocks (post-norm, ReLU;
  PyTorch's own attention export, which reshapes [S, B, E] to
  [S, B*H, D] through 1-D);
- lm.onnx: token embeddings (a Gather, checked at run time) and
  positions, the 2 decoder blocks, a final LayerNorm and an LM head over
  500 tokens; x_lm.npy holds token ids, bad_lm.npy one out of range."""
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


class LM(nn.Module):
    def __init__(self, vocab=500):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, D), nn.Embedding(SEQ, D)
        self.blocks = nn.Sequential(Block(), Block())
        self.ln, self.head = nn.LayerNorm(D), nn.Linear(D, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1])
        return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(pos))))


export("gpt", nn.Sequential(Block(), Block()), torch.randn(2, SEQ, D))
layer = nn.TransformerEncoderLayer(D, HEADS, 4 * D, dropout=0.0,
                                   batch_first=True)
export("bert", nn.TransformerEncoder(layer, 2, enable_nested_tensor=False),
       torch.randn(2, SEQ, D))
ids = torch.randint(0, 500, (2, SEQ))
export("lm", LM(), ids)
bad = ids.numpy().copy()
bad[1, 3] = 777
np.save(os.path.join(out, "bad_lm.npy"), bad)

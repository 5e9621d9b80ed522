"""Small transformers for kiln-compile --shard's tests
(shard-transformer.test), exported by PyTorch with their outputs.

usage: make_transformers.py OUTDIR

Writes, each with x_NAME.npy and its output y_NAME.npy (width 64, 4
heads, 16 tokens, a batch of 2):
- gpt.onnx: 2 decoder blocks (pre-norm, one fused QKV projection split in
  three, causal mask by Where, GELU MLP); gpt4.onnx the same at a batch
  of 4 (for dp:4);
- bert.onnx: 2 nn.TransformerEncoderLayer blocks (post-norm, ReLU;
  PyTorch's own attention export, which reshapes [S, B, E] to
  [S, B*H, D] through 1-D);
- lm.onnx: token embeddings (a Gather, checked at run time) and
  positions, the 2 decoder blocks, a final LayerNorm and an LM head over
  500 tokens; x_lm.npy holds token ids, bad_lm.npy one out of range;
- masked.onnx: 2 BERT-style encoder blocks as Hugging Face writes them
  (separate Q, K, V projections, post-norm, GELU) at batch 1, with a
  second input, the padding mask (int64, the last 5 tokens 0), added to
  the scores as (1 - mask) * -10000; mask_masked.npy holds it;
- causal.onnx: 2 pre-norm GELU nn.TransformerEncoderLayer blocks with a
  float causal mask (generate_square_subsequent_mask) at batch 1."""
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


class MaskedBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.q, self.k = nn.Linear(D, D), nn.Linear(D, D)
        self.v, self.o = nn.Linear(D, D), nn.Linear(D, D)
        self.ln1, self.ln2 = nn.LayerNorm(D), nn.LayerNorm(D)
        self.mlp = nn.Sequential(nn.Linear(D, 4 * D), nn.GELU(),
                                 nn.Linear(4 * D, D))

    def forward(self, x, mask):
        b, s, d = x.shape
        ext = (1.0 - mask[:, None, None, :].float()) * -10000.0

        def heads(t):
            return t.view(b, s, HEADS, d // HEADS).transpose(1, 2)

        q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // HEADS) + ext
        a = (att.softmax(-1) @ v).transpose(1, 2).reshape(b, s, d)
        x = self.ln1(x + self.o(a))
        return self.ln2(x + self.mlp(x))


class Masked(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([MaskedBlock(), MaskedBlock()])

    def forward(self, x, mask):
        for b in self.blocks:
            x = b(x, mask)
        return x


class Causal(nn.Module):
    def __init__(self):
        super().__init__()
        layer = nn.TransformerEncoderLayer(D, HEADS, 4 * D, dropout=0.0,
                                           activation="gelu",
                                           batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2,
                                             enable_nested_tensor=False)
        self.register_buffer(
            "mask", nn.Transformer.generate_square_subsequent_mask(SEQ))

    def forward(self, x):
        return self.encoder(x, mask=self.mask)


class LM(nn.Module):
    def __init__(self, vocab=500):
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, D), nn.Embedding(SEQ, D)
        self.blocks = nn.Sequential(Block(), Block())
        self.ln, self.head = nn.LayerNorm(D), nn.Linear(D, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1])
        return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(pos))))


gpt = nn.Sequential(Block(), Block())
export("gpt", gpt, torch.randn(2, SEQ, D))
export("gpt4", gpt, torch.randn(4, SEQ, D))
layer = nn.TransformerEncoderLayer(D, HEADS, 4 * D, dropout=0.0,
                                   batch_first=True)
export("bert", nn.TransformerEncoder(layer, 2, enable_nested_tensor=False),
       torch.randn(2, SEQ, D))
ids = torch.randint(0, 500, (2, SEQ))
export("lm", LM(), ids)
bad = ids.numpy().copy()
bad[1, 3] = 777
np.save(os.path.join(out, "bad_lm.npy"), bad)

masked, x = Masked().eval(), torch.randn(1, SEQ, D)
mask = torch.ones(1, SEQ, dtype=torch.int64)
mask[0, SEQ - 5:] = 0
with torch.no_grad():
    y = masked(x, mask)
torch.onnx.export(masked, (x, mask), os.path.join(out, "masked.onnx"),
                  input_names=["x", "mask"], output_names=["y"],
                  opset_version=17)
np.save(os.path.join(out, "x_masked.npy"), x.numpy())
np.save(os.path.join(out, "mask_masked.npy"), mask.numpy())
np.save(os.path.join(out, "y_masked.npy"), y.numpy())

export("causal", Causal(), torch.randn(1, SEQ, D))

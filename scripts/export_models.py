#!/usr/bin/python3
"""Exports Kiln's real test models to ONNX, with random weights.

usage: /usr/bin/python3 scripts/export_models.py [--with-data] OUT_DIR [MODEL...]

MODEL is one of resnet18, mobilenet_v2, bert, resnet18_bn (default: the
first three); each is
written to OUT_DIR/MODEL.onnx. With --with-data, the example inputs and
PyTorch's outputs for them are written too, as NumPy files
OUT_DIR/MODEL.input_K.npy and OUT_DIR/MODEL.output_0.npy (reference data for
kiln-run --expected). Needs Debian's python3-torch (1.13) and
python3-torchvision (0.14); run it with /usr/bin/python3, since another
python3 on PATH may lack them.

The output is deterministic: every model is built right after
torch.manual_seed(0), in eval mode, traced with static input shapes at a
fixed opset, so two exports are byte-identical (test/models checks this).
Weights are random, not trained: these models test the compiler, not
accuracy.

  model         input(s)                                     opset
  resnet18      input: f32[1,3,224,224]                      13
  resnet18_bn   the same, BatchNormalization nodes kept, no constant folding
  mobilenet_v2  input: f32[1,3,224,224]                      13
  bert          input_ids: i64[1,32], attention_mask: i64[1,32]  17

bert is a small BERT-style encoder defined here (vocab 1000, hidden 128,
4 heads, 2 layers, feed-forward 512, sequence 32): token and position
embeddings, LayerNorm, multi-head self-attention with an additive mask,
GELU feed-forward. Opset 17 makes torch export LayerNorm as one
LayerNormalization node (older opsets spell it out in ReduceMean/Pow/...).
"""
import io
import math
import os
import sys

import torch
from torch import nn

VOCAB, HIDDEN, HEADS, LAYERS, FFN, SEQ = 1000, 128, 4, 2, 512, 32


class SelfAttention(nn.Module):
    def __init__(self, hidden=HIDDEN, heads=HEADS):
        super().__init__()
        self.hidden, self.nheads = hidden, heads
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, hidden)

    def heads(self, x):
        # [B, S, H*D] -> [B, H, S, D]
        b, s, _ = x.shape
        return x.view(b, s, self.nheads, self.hidden // self.nheads).transpose(1, 2)

    def forward(self, x, mask_bias):
        q, k, v = self.heads(self.q(x)), self.heads(self.k(x)), self.heads(self.v(x))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.hidden // self.nheads)
        probs = torch.softmax(scores + mask_bias, dim=-1)
        ctx = (probs @ v).transpose(1, 2).reshape(x.shape)
        return self.out(ctx)


class EncoderLayer(nn.Module):
    def __init__(self, hidden=HIDDEN, heads=HEADS, ffn=FFN):
        super().__init__()
        self.attn = SelfAttention(hidden, heads)
        self.norm1 = nn.LayerNorm(hidden, eps=1e-12)
        self.ff1 = nn.Linear(hidden, ffn)
        self.act = nn.GELU()
        self.ff2 = nn.Linear(ffn, hidden)
        self.norm2 = nn.LayerNorm(hidden, eps=1e-12)

    def forward(self, x, mask_bias):
        x = self.norm1(x + self.attn(x, mask_bias))
        return self.norm2(x + self.ff2(self.act(self.ff1(x))))


class TinyBert(nn.Module):
    """The BERT-style encoder; the defaults are the `bert` model's dims
    (bench/models.py builds a larger one from these classes)."""

    def __init__(self, vocab=VOCAB, hidden=HIDDEN, heads=HEADS, layers=LAYERS,
                 ffn=FFN, seq=SEQ):
        super().__init__()
        self.tokens = nn.Embedding(vocab, hidden)
        self.positions = nn.Embedding(seq, hidden)
        self.norm = nn.LayerNorm(hidden, eps=1e-12)
        self.layers = nn.ModuleList(
            EncoderLayer(hidden, heads, ffn) for _ in range(layers))
        self.register_buffer("position_ids", torch.arange(seq).unsqueeze(0))

    def forward(self, input_ids, attention_mask):
        x = self.norm(self.tokens(input_ids) + self.positions(self.position_ids))
        # 1 = attend, 0 = padding: padded keys get a large negative bias.
        mask_bias = (1.0 - attention_mask[:, None, None, :].float()) * -10000.0
        for layer in self.layers:
            x = layer(x, mask_bias)
        return x


def resnet18():
    import torchvision
    image = torch.rand(1, 3, 224, 224)
    return torchvision.models.resnet18(weights=None), (image,), ["input"], 13


def mobilenet_v2():
    import torchvision
    image = torch.rand(1, 3, 224, 224)
    return torchvision.models.mobilenet_v2(weights=None), (image,), ["input"], 13


def bert():
    ids = torch.randint(0, VOCAB, (1, SEQ))
    mask = torch.ones(1, SEQ, dtype=torch.int64)
    mask[0, SEQ - 4:] = 0
    return TinyBert(), (ids, mask), ["input_ids", "attention_mask"], 17


MODELS = {"resnet18": resnet18, "mobilenet_v2": mobilenet_v2, "bert": bert,
          "resnet18_bn": resnet18}
# Exported as exporters other than torch's default often write them: every
# BatchNormalization kept as a node (torch folds them into the convolutions
# in eval mode) and no constant folding. Kiln's graph-fold-batchnorm and
# graph-fold-constants do that work instead.
UNFOLDED = {"resnet18_bn"}


def export(name, out_dir, with_data):
    torch.manual_seed(0)
    model, args, input_names, opset = MODELS[name]()
    model.eval()
    buf = io.BytesIO()
    with torch.no_grad():
        unfolded = name in UNFOLDED
        torch.onnx.export(
            model, args, buf, opset_version=opset, input_names=input_names,
            output_names=["output"], do_constant_folding=not unfolded,
            training=(torch.onnx.TrainingMode.PRESERVE if unfolded
                      else torch.onnx.TrainingMode.EVAL))
        expected = model(*args) if with_data else None
    # Written whole at the end so a failed export leaves no partial file.
    with open(os.path.join(out_dir, name + ".onnx"), "wb") as f:
        f.write(buf.getvalue())
    if with_data:
        import numpy
        for k, a in enumerate(args):
            numpy.save(os.path.join(out_dir, "%s.input_%d.npy" % (name, k)),
                       a.numpy())
        numpy.save(os.path.join(out_dir, name + ".output_0.npy"),
                   expected.numpy())


def main(argv):
    with_data = "--with-data" in argv[1:]
    argv = [a for a in argv if a != "--with-data"]
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    names = argv[2:] or ["resnet18", "mobilenet_v2", "bert"]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.stderr.write("export_models.py: unknown model(s): %s (known: %s)\n"
                         % (", ".join(unknown), ", ".join(MODELS)))
        return 2
    os.makedirs(argv[1], exist_ok=True)
    torch.set_num_threads(1)
    for name in names:
        export(name, argv[1], with_data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

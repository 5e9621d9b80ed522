#!/usr/bin/python3
"""Large models for the compile-time figures (docs/performance.md).

usage: /usr/bin/python3 bench/compile_models.py OUT_DIR [MODEL...]

Exports, with models.py's method (torch.manual_seed(0), random weights,
PyTorch's outputs as MODEL.output_0.npy, MODEL.json), the models whose
compile time and peak memory grew faster than their size: ViT-B/16
(86 M parameters), DenseNet-121 and an MLP-Mixer (B/16-like, 12 layers).
Default: all of them. Exporting ViT-B/16 takes a minute and 2 GB.
"""
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402


class MixerBlock(nn.Module):
    def __init__(self, tokens, dim, token_hidden, channel_hidden):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.token_mlp = nn.Sequential(nn.Linear(tokens, token_hidden),
                                       nn.GELU(),
                                       nn.Linear(token_hidden, tokens))
        self.norm2 = nn.LayerNorm(dim)
        self.channel_mlp = nn.Sequential(nn.Linear(dim, channel_hidden),
                                         nn.GELU(),
                                         nn.Linear(channel_hidden, dim))

    def forward(self, x):  # [batch, tokens, dim]
        y = self.norm1(x).transpose(1, 2)
        x = x + self.token_mlp(y).transpose(1, 2)
        return x + self.channel_mlp(self.norm2(x))


class Mixer(nn.Module):
    """MLP-Mixer (Tolstikhin et al. 2021), B/16 dims with 12 blocks."""

    def __init__(self, layers=12, dim=768, patch=16, image=224, classes=1000):
        super().__init__()
        tokens = (image // patch) ** 2
        self.stem = nn.Conv2d(3, dim, patch, stride=patch)
        self.blocks = nn.Sequential(*[
            MixerBlock(tokens, dim, 384, 3072) for _ in range(layers)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.stem(x).flatten(2).transpose(1, 2)
        x = self.norm(self.blocks(x))
        return self.head(x.mean(dim=1))


def vit_b_16():
    import torchvision
    model = torchvision.models.vit_b_16(weights=None)
    # torch 1.13 traces nn.MultiheadAttention's inference fast path
    # (aten::_native_multi_head_attention, which has no ONNX export) unless
    # one of its conditions fails: a nonzero dropout does, and dropout is
    # not applied in eval mode.
    for m in model.modules():
        if isinstance(m, nn.MultiheadAttention):
            m.dropout = 1e-9
    return model, (torch.rand(1, 3, 224, 224),), ["input"], 14


def densenet121():
    import torchvision
    return (torchvision.models.densenet121(weights=None),
            (torch.rand(1, 3, 224, 224),), ["input"], 13)


def mixer_b16():
    return Mixer(), (torch.rand(1, 3, 224, 224),), ["input"], 14


LARGE = {"vit_b_16": vit_b_16, "densenet121": densenet121,
         "mixer_b16": mixer_b16}

if __name__ == "__main__":
    # The compile-time figures need no FLOP count, and onnx 1.12's shape
    # inference leaves the Mixer's token MatMuls without a shape.
    count = models.count_flops

    def count_or_zero(proto):
        try:
            return count(proto)
        except ValueError:
            return 0
    models.count_flops = count_or_zero
    models.MODELS.clear()
    models.MODELS.update(LARGE)
    # models.main's usage default: every model of MODELS, i.e. these.
    sys.exit(models.main(sys.argv))

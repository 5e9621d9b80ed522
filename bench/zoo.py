#!/usr/bin/python3
"""The bench zoo: real architectures beyond the three tuned-on models.

Each entry of ZOO is name -> () -> (module, inputs, input names, opset),
the interface of bench/models.py's MODELS, which registers them; models.py
exports them as it exports its own (torch.manual_seed(0) before each
build, random weights, batch 1, static shapes, constant folding, one
output named "output"). Every family of issue 18 has a member here:
squeeze-and-excitation / hard-swish mobile nets, grouped convs, a 1-D conv
audio net, a 3-D conv video net, an encoder-decoder with transposed convs,
Inception-style concats, dense connectivity, large-kernel depthwise convs,
vision transformers (plain and windowed), a segmentation head with
bilinear upsampling, recurrent nets, a Transformer encoder with a causal
mask and a decoder-only (GPT-style) stack with token embeddings.

The torchvision models are the library's own (0.14); the others are
written here, small but shaped like the real thing. Inputs are uniform
[0, 1) images, Gaussian audio, features or token ids.
"""
import math

import torch
from torch import nn
from torch.nn import functional as F


def _tv(ctor, shape, opset=13, **kwargs):
    """A torchvision classifier on one uniform input of `shape`."""
    def make():
        return ctor()(weights=None, **kwargs), (torch.rand(*shape),), ["input"], opset
    return make


def _vision(name):
    def get():
        import torchvision
        return getattr(torchvision.models, name)
    return get


# --- hand-written members ----------------------------------------------------


class M5(nn.Module):
    """The M5 raw-waveform classifier (Dai et al. 2017): 1-D convs, 16 kHz."""

    def __init__(self, classes=35, width=128):
        super().__init__()
        layers, cin = [], 1
        for cout, k, s in ((width, 80, 4), (width, 3, 1), (2 * width, 3, 1),
                           (4 * width, 3, 1)):
            layers += [nn.Conv1d(cin, cout, k, stride=s), nn.BatchNorm1d(cout),
                       nn.ReLU(), nn.MaxPool1d(4)]
            cin = cout
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(cin, classes)

    def forward(self, x):
        x = self.features(x)
        return self.fc(F.adaptive_avg_pool1d(x, 1).flatten(1))


class UNet(nn.Module):
    """A small U-Net: 3x3 conv pairs, max-pool down, 2x2 transposed convs
    up, skip connections concatenated."""

    def __init__(self, cin=3, classes=2, base=16, depth=4):
        super().__init__()

        def block(a, b):
            return nn.Sequential(nn.Conv2d(a, b, 3, padding=1, bias=False),
                                 nn.BatchNorm2d(b), nn.ReLU(),
                                 nn.Conv2d(b, b, 3, padding=1, bias=False),
                                 nn.BatchNorm2d(b), nn.ReLU())
        widths = [base << i for i in range(depth + 1)]
        self.down = nn.ModuleList()
        c = cin
        for w in widths[:-1]:
            self.down.append(block(c, w))
            c = w
        self.bottom = block(c, widths[-1])
        self.up = nn.ModuleList()
        self.merge = nn.ModuleList()
        for w in reversed(widths[:-1]):
            self.up.append(nn.ConvTranspose2d(2 * w, w, 2, stride=2))
            self.merge.append(block(2 * w, w))
        self.head = nn.Conv2d(base, classes, 1)

    def forward(self, x):
        skips = []
        for d in self.down:
            x = d(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottom(x)
        for up, merge in zip(self.up, self.merge):
            x = merge(torch.cat([up(x), skips.pop()], dim=1))
        return self.head(x)


class Recurrent(nn.Module):
    """An LSTM or GRU stack over [1, seq, features]; the output sequence."""

    def __init__(self, cell, features=128, hidden=256, layers=2):
        super().__init__()
        self.rnn = cell(features, hidden, num_layers=layers, batch_first=True)

    def forward(self, x):
        return self.rnn(x)[0]


class CausalEncoder(nn.Module):
    """nn.TransformerEncoder (pre-norm, GELU) with a causal float mask."""

    def __init__(self, d=256, heads=4, ffn=1024, layers=4, seq=64):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d, heads, ffn, dropout=0.1,
                                           activation="gelu", batch_first=True,
                                           norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.register_buffer("mask", nn.Transformer.generate_square_subsequent_mask(seq))

    def forward(self, x):
        return self.encoder(x, mask=self.mask)


class GPTBlock(nn.Module):
    def __init__(self, d, heads, seq):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.register_buffer("causal", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(b, s, self.heads, d // self.heads).transpose(1, 2)
                   for t in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(d // self.heads)
        att = att.masked_fill(~self.causal[:s, :s], float("-inf")).softmax(-1)
        x = x + self.proj((att @ v).transpose(1, 2).reshape(b, s, d))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    """A decoder-only stack: token and position embeddings, causal
    self-attention blocks, a final LayerNorm and a tied-shape LM head."""

    def __init__(self, vocab=4000, d=256, heads=4, layers=4, seq=64):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.blocks = nn.Sequential(*[GPTBlock(d, heads, seq) for _ in range(layers)])
        self.ln = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, ids):
        pos = torch.arange(ids.shape[1], device=ids.device)
        return self.head(self.ln(self.blocks(self.tok(ids) + self.pos(pos))))


class OutOnly(nn.Module):
    """A torchvision segmentation model's "out" map (it returns a dict)."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


# --- factories ---------------------------------------------------------------


def m5():
    return M5(), (torch.randn(1, 1, 16000),), ["input"], 13


def unet():
    return UNet(), (torch.rand(1, 3, 128, 128),), ["input"], 13


def lstm():
    return Recurrent(nn.LSTM), (torch.randn(1, 64, 128),), ["input"], 13


def gru():
    return Recurrent(nn.GRU), (torch.randn(1, 64, 128),), ["input"], 13


def causal_encoder():
    # Opset 17: LayerNorm exports as one LayerNormalization node.
    return CausalEncoder(), (torch.randn(1, 64, 256),), ["input"], 17


def gpt():
    return GPT(), (torch.randint(0, 4000, (1, 64)),), ["input_ids"], 17


def r3d_18():
    import torchvision
    return (torchvision.models.video.r3d_18(weights=None),
            (torch.rand(1, 3, 8, 112, 112),), ["input"], 13)


def lraspp():
    import torchvision
    seg = torchvision.models.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None)
    return OutOnly(seg), (torch.rand(1, 3, 224, 224),), ["input"], 13


IMAGE = (1, 3, 224, 224)

ZOO = {
    # squeeze-and-excitation, SiLU / hard-swish mobile nets
    "efficientnet_b0": _tv(_vision("efficientnet_b0"), IMAGE),
    "mobilenet_v3_large": _tv(_vision("mobilenet_v3_large"), IMAGE),
    "mobilenet_v3_small": _tv(_vision("mobilenet_v3_small"), IMAGE),
    "mnasnet1_0": _tv(_vision("mnasnet1_0"), IMAGE),
    "regnet_y_400mf": _tv(_vision("regnet_y_400mf"), IMAGE),
    # grouped convs (groups of 8 channels), no SE
    "regnet_x_400mf": _tv(_vision("regnet_x_400mf"), IMAGE),
    # 1-D convs on raw audio; 3-D convs on a video clip
    "m5": m5,
    "r3d_18": r3d_18,
    # encoder-decoder with transposed convs; bilinear segmentation head
    "unet": unet,
    "lraspp_mobilenet_v3": lraspp,
    # concat-heavy (Inception-style), dense connectivity
    "googlenet": _tv(_vision("googlenet"), IMAGE, aux_logits=False, init_weights=True),
    "inception_v3": _tv(_vision("inception_v3"), (1, 3, 299, 299), aux_logits=False,
                        init_weights=True),
    "densenet121": _tv(_vision("densenet121"), IMAGE),
    # large-kernel depthwise; vision transformers, plain and windowed
    "convnext_tiny": _tv(_vision("convnext_tiny"), IMAGE),
    # attention_dropout (inactive in eval) keeps torch 1.13 off its fused
    # attention fast path, which does not export to ONNX.
    "vit_b_16": _tv(_vision("vit_b_16"), IMAGE, opset=17, attention_dropout=0.1),
    "swin_t": _tv(_vision("swin_t"), IMAGE, opset=17),
    # sequence models
    "lstm": lstm,
    "gru": gru,
    "causal_encoder": causal_encoder,
    "gpt": gpt,
}

# Output tolerances (rtol, atol) where the default (1e-3, 1e-4) is too
# tight for a legitimate summation order; filled from bench/zoo-check.sh.
ZOO_TOLERANCE = {}

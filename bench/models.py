#!/usr/bin/python3
"""The benchmark's models: ONNX exports, one input set each, PyTorch's outputs.

usage: /usr/bin/python3 bench/models.py [--batch N] OUT_DIR [MODEL...]

Writes, per MODEL (default: all of MODELS below), into OUT_DIR:
  MODEL.onnx          the ONNX export (static shapes)
  MODEL.input_K.npy   the example inputs, in the graph's input order
  MODEL.output_0.npy  PyTorch's output for them (eager, 1 thread)
  MODEL.json          {"flops", "inputs", "opset", "rtol", "atol", ...}
With --batch N (N > 1) each example input is repeated N times along its
first dim and the files are named MODEL_bN.*; MODEL_bN.json names the
model it was built from ("model"). A model whose MODEL.json is newer than
this file and
scripts/export_models.py (the encoder's classes) is kept as it is. Each
model is built right after torch.manual_seed(0), so the weights (random,
not trained) and inputs are the same on every run and torch_bench.py can
rebuild the very module that was exported (build()).

FLOPs are counted from the ONNX graph after shape inference: 2 x the
multiply-accumulates of Conv, MatMul and Gemm nodes; other ops count 0
(the chain model has no FLOPs by this count). Where ONNX's inference
cannot follow the shapes (computed in the graph), they are counted from
PyTorch's run instead (torch_flops).

Needs Debian's python3-torch (1.13), python3-torchvision (0.14) and
python3-onnx under /usr/bin/python3.
"""
import io
import json
import math
import os
import sys

import numpy
import torch
from torch import nn

# The BERT-style encoder of the test models, with its dims as parameters.
SCRIPTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "scripts")
sys.path.insert(0, SCRIPTS)
from export_models import TinyBert as Encoder  # noqa: E402

# --- small models ----------------------------------------------------------


class MatMul(nn.Module):
    def forward(self, a, b):
        return a @ b


class Chain(nn.Module):
    """Add -> Relu -> Mul by a per-channel constant: memory-bound."""

    def __init__(self, channels):
        super().__init__()
        self.register_buffer("scale", torch.rand(1, channels, 1, 1) + 0.5)

    def forward(self, x, y):
        return torch.relu(x + y) * self.scale


# --- the models: name -> () -> (module, inputs, input names, opset) --------


def resnet18():
    import torchvision
    return (torchvision.models.resnet18(weights=None),
            (torch.rand(1, 3, 224, 224),), ["input"], 13)


def mobilenet_v2():
    import torchvision
    return (torchvision.models.mobilenet_v2(weights=None),
            (torch.rand(1, 3, 224, 224),), ["input"], 13)


def bert4():
    vocab, seq = 1000, 128
    model = Encoder(vocab, hidden=256, heads=4, layers=4, ffn=1024, seq=seq)
    ids = torch.randint(0, vocab, (1, seq))
    mask = torch.ones(1, seq, dtype=torch.int64)
    mask[0, seq - 16:] = 0
    # Opset 17: LayerNorm exports as one LayerNormalization node.
    return model, (ids, mask), ["input_ids", "attention_mask"], 17


def mlp():
    model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(),
                          nn.Linear(4096, 4096), nn.ReLU(),
                          nn.Linear(4096, 1000))
    return model, (torch.randn(1, 1024),), ["input"], 13


def matmul(n):
    return lambda: (MatMul(), (torch.randn(n, n), torch.randn(n, n)),
                    ["a", "b"], 13)


def conv3x3():
    return (nn.Conv2d(64, 64, 3, padding=1, bias=True),
            (torch.randn(1, 64, 56, 56),), ["input"], 13)


def chain():
    model = Chain(64)
    return (model, (torch.randn(1, 64, 112, 112), torch.randn(1, 64, 112, 112)),
            ["x", "y"], 13)


MODELS = {
    "resnet18": resnet18,
    "mobilenet_v2": mobilenet_v2,
    "bert4": bert4,
    "mlp": mlp,
    "matmul512": matmul(512),
    "matmul1024": matmul(1024),
    "conv3x3": conv3x3,
    "chain": chain,
}

# --- recurrent nets: 2-layer LSTM and GRU, batch 1 ------------------------


class Recurrent(nn.Module):
    """An nn.LSTM or nn.GRU returning its output sequence only."""

    def __init__(self, rnn):
        super().__init__()
        self.rnn = rnn

    def forward(self, x):
        return self.rnn(x)[0]


def recurrent(cls):
    """128 steps of 128 features through 2 layers of 256 units."""
    return lambda: (Recurrent(cls(128, 256, num_layers=2)),
                    (torch.randn(128, 1, 128),), ["input"], 14)


MODELS["lstm2"] = recurrent(nn.LSTM)
MODELS["gru2"] = recurrent(nn.GRU)

# Output tolerance against PyTorch (|got - exp| <= atol + rtol * |exp|).
# The 1024-deep sums of the matmuls reach |x| ~ 100 with rounding errors
# of ~1e-4 in any summation order: atol 1e-3 there.
TOLERANCE = {"matmul512": (1e-3, 1e-3), "matmul1024": (1e-3, 1e-3)}
DEFAULT_TOLERANCE = (1e-3, 1e-4)

# The zoo of real architectures (bench/zoo.py), exported the same way.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from zoo import ZOO, ZOO_TOLERANCE  # noqa: E402
MODELS.update(ZOO)
TOLERANCE.update(ZOO_TOLERANCE)


def build(name):
    """The model `name` as exported: (module in eval mode, inputs, names, opset)."""
    torch.manual_seed(0)
    model, args, names, opset = MODELS[name]()
    model.eval()
    return model, args, names, opset


def count_flops(model_proto):
    """2 x the multiply-accumulates of Conv, MatMul and Gemm nodes, and the
    names of those whose output shape ONNX's inference cannot find (not
    counted)."""
    import onnx
    inferred = onnx.shape_inference.infer_shapes(model_proto)
    g = inferred.graph
    shapes = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        dims = v.type.tensor_type.shape.dim
        shapes[v.name] = [d.dim_value for d in dims]
    for t in g.initializer:
        shapes[t.name] = list(t.dims)

    def attr(node, key, default):
        for a in node.attribute:
            if a.name == key:
                return onnx.helper.get_attribute_value(a)
        return default

    macs, unknown = 0, []
    for node in g.node:
        if node.op_type not in ("Conv", "MatMul", "Gemm"):
            continue
        out = shapes.get(node.output[0])
        if not out or any(d <= 0 for d in out):
            # ONNX's inference stops at shapes computed in the graph (a
            # Resize to Shape -> Slice -> Concat sizes): such nodes count 0.
            unknown.append(node.name)
            continue
        if node.op_type == "Conv":
            w = shapes[node.input[1]]  # [Cout, Cin/group, kh, kw]
            macs += math.prod(out) * math.prod(w[1:])
        elif node.op_type == "MatMul":
            a = shapes[node.input[0]]
            macs += math.prod(out) * a[-1]
        else:
            a = shapes[node.input[0]]
            macs += math.prod(out) * (a[0] if attr(node, "transA", 0) else a[1])
    return 2 * macs, unknown


def torch_flops(model, args):
    """count_flops's figure from PyTorch's run instead, for graphs whose
    shapes ONNX's inference cannot follow: 2 x the multiply-accumulates of
    the convolutions, linear layers and matrix products the module calls
    (not those inside other overridable functions, such as
    F.multi_head_attention_forward: a fallback, not a replacement)."""
    from torch.nn import functional as F
    from torch.overrides import TorchFunctionMode
    convs = (F.conv1d, F.conv2d, F.conv3d)
    products = (torch.matmul, torch.Tensor.matmul, torch.Tensor.__matmul__,
                torch.bmm, torch.mm, F.linear)
    macs = [0]

    class Count(TorchFunctionMode):
        def __torch_function__(self, func, types, fargs=(), kwargs=None):
            out = func(*fargs, **(kwargs or {}))
            if func in convs:
                macs[0] += out.numel() * math.prod(fargs[1].shape[1:])
            elif func in products:
                macs[0] += out.numel() * fargs[0].shape[-1]
            return out

    with torch.no_grad(), Count():
        model(*args)
    return 2 * macs[0]


def export(name, out_dir, batch=1):
    import onnx
    model, args, input_names, opset = build(name)
    model_name = name
    if batch > 1:
        args = tuple(a.repeat(batch, *[1] * (a.dim() - 1)) for a in args)
        name = "%s_b%d" % (name, batch)
    buf = io.BytesIO()
    with torch.no_grad():
        torch.onnx.export(model, args, buf, opset_version=opset,
                          input_names=input_names, output_names=["output"],
                          do_constant_folding=True)
    with torch.inference_mode():
        expected = model(*args)
    proto = onnx.load_from_string(buf.getvalue())
    rtol, atol = TOLERANCE.get(name, DEFAULT_TOLERANCE)
    inputs = []
    for k, a in enumerate(args):
        inputs.append("%s.input_%d.npy" % (name, k))
        numpy.save(os.path.join(out_dir, inputs[-1]), a.numpy())
    numpy.save(os.path.join(out_dir, name + ".output_0.npy"), expected.numpy())
    with open(os.path.join(out_dir, name + ".onnx"), "wb") as f:
        f.write(buf.getvalue())
    flops, unknown = count_flops(proto)
    if unknown:  # e.g. torchvision's Swin: shapes computed in the graph
        flops = torch_flops(model, args)
        sys.stderr.write("models.py: %s: %d counted nodes have shapes unknown "
                         "to ONNX (first %s): FLOPs counted in PyTorch\n"
                         % (name, len(unknown), unknown[0]))
    meta = {"name": name, "model": model_name, "batch": batch,
            "flops": flops, "inputs": inputs,
            "input_names": input_names, "output": name + ".output_0.npy",
            "opset": opset, "rtol": rtol, "atol": atol,
            "params": sum(p.numel() for p in model.parameters())}
    # Written last: its presence means the model is complete.
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(meta, f, indent=1)
    return meta


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        sys.stderr.write(__doc__)
        return 2
    batch = 1
    if argv[1].startswith("--batch"):
        try:
            if "=" in argv[1]:
                batch, argv = int(argv[1].split("=", 1)[1]), argv[:1] + argv[2:]
            else:
                batch, argv = int(argv[2]), argv[:1] + argv[3:]
        except (IndexError, ValueError):
            sys.stderr.write("models.py: --batch N: N must be an integer\n")
            return 2
        if batch < 1 or len(argv) < 2:
            sys.stderr.write(__doc__)
            return 2
    out_dir, names = argv[1], argv[2:] or list(MODELS)
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        sys.stderr.write("models.py: unknown model(s): %s (known: %s)\n"
                         % (", ".join(unknown), ", ".join(MODELS)))
        return 2
    os.makedirs(out_dir, exist_ok=True)
    torch.set_num_threads(1)
    # The models are defined here, in zoo.py and in export_models.py (the
    # encoder).
    stamp = max(os.path.getmtime(__file__),
                os.path.getmtime(os.path.join(os.path.dirname(__file__), "zoo.py")),
                os.path.getmtime(os.path.join(SCRIPTS, "export_models.py")))
    for name in names:
        tag = name if batch == 1 else "%s_b%d" % (name, batch)
        meta_path = os.path.join(out_dir, tag + ".json")
        if os.path.exists(meta_path) and os.path.getmtime(meta_path) > stamp:
            continue
        meta = export(name, out_dir, batch)
        print("models.py: %-13s %8.3f GFLOP  %6.1fM parameters"
              % (tag, meta["flops"] / 1e9, meta["params"] / 1e6))
    return 0


# --- single conv layers (issue 18: every conv rank and group count) --------
# Not in bench.py's default list: run them with --models conv1d,conv3d,...


def conv1d():
    """A 1-D conv of an audio/speech net: 64 -> 64 channels, k = 3."""
    return (nn.Conv1d(64, 64, 3, padding=1), (torch.randn(1, 64, 16000),),
            ["input"], 13)


def conv3d():
    """A 3x3x3 conv of a video ResNet stage: 64 -> 64 at 8 x 56 x 56."""
    return (nn.Conv3d(64, 64, 3, padding=1),
            (torch.randn(1, 64, 8, 56, 56),), ["input"], 13)


def gconv():
    """A ResNeXt-style grouped 3x3 conv: 128 channels, 32 groups, 56 x 56."""
    return (nn.Conv2d(128, 128, 3, padding=1, groups=32),
            (torch.randn(1, 128, 56, 56),), ["input"], 13)


def dwconv7():
    """A ConvNeXt-style 7x7 depthwise conv: 128 channels at 56 x 56."""
    return (nn.Conv2d(128, 128, 7, padding=3, groups=128),
            (torch.randn(1, 128, 56, 56),), ["input"], 13)


CONV_LAYERS = {"conv1d": conv1d, "conv3d": conv3d, "gconv": gconv,
               "dwconv7": dwconv7}
MODELS.update(CONV_LAYERS)
TOLERANCE.update({"conv3d": (1e-3, 1e-3)})


# --- decoder layers (issue 18: upsampling without the inserted zeros) ------


def convt2d():
    """A decoder's stride-2 transposed conv: 64 -> 32, k = 4, at 56 x 56."""
    return (nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1),
            (torch.randn(1, 64, 56, 56),), ["input"], 13)


def up_bilinear():
    """A segmentation head's bilinear x2 upsampling of 64 x 56 x 56."""
    return (nn.Upsample(scale_factor=2, mode="bilinear"),
            (torch.randn(1, 64, 56, 56),), ["input"], 13)


def up_nearest():
    """A U-Net / FPN nearest x2 upsampling of 64 x 56 x 56."""
    return (nn.Upsample(scale_factor=2, mode="nearest"),
            (torch.randn(1, 64, 56, 56),), ["input"], 13)


MODELS.update({"convt2d": convt2d, "up_bilinear": up_bilinear,
               "up_nearest": up_nearest})


if __name__ == "__main__":
    sys.exit(main(sys.argv))

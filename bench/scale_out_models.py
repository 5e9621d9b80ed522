"""The models bench/scale-out.sh shards, with their inputs, outputs and
what the plans predict.

usage: scale_out_models.py OUTDIR mlp|gpt D

Writes OUTDIR/model.onnx, x.npy, y.npy and plan.txt, one line:
"WEIGHT_BYTES TP_CALLS TP_BYTES DP_CALLS DP_BYTES TITLE" (the all-reduces
per run and rank each plan makes, and their bytes).

- mlp: x[8 x D] -> MatMul D x D, Relu -> MatMul D x D (tp: one all-reduce
  of the output; dp: the output's blocks assembled by one all-reduce).
- gpt: a GPT-style decoder exported by PyTorch, 2 blocks of width D/4, 8
  heads, 2 x 64 tokens (tp: two all-reduces per block of the [2 x 64 x
  D/4] activations; dp: one of the output)."""
import math
import sys

import numpy as np


def mlp(out, d):
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    rng = np.random.default_rng(0)
    w1 = (rng.standard_normal((d, d)) * 0.02).astype(np.float32)
    w2 = (rng.standard_normal((d, d)) * 0.02).astype(np.float32)
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w1"], ["h"]),
         helper.make_node("Relu", ["h"], ["r"]),
         helper.make_node("MatMul", ["r", "w2"], ["y"])], "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, d])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [8, d])],
        [numpy_helper.from_array(w1, "w1"), numpy_helper.from_array(w2, "w2")])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, out + "/model.onnx")
    x = rng.standard_normal((8, d)).astype(np.float32)
    y = (np.maximum(x.astype(np.float64) @ w1, 0) @ w2).astype(np.float32)
    size = 8 * d * 4
    return x, y, (2 * d * d * 4, 1, size, 1, size,
                  "MLP 8 x %d, two %d x %d products" % (d, d, d))


def gpt(out, d):
    import torch
    from torch import nn
    torch.manual_seed(0)
    e, heads, seq, batch, layers = d // 4, 8, 64, 2, 2

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(e), nn.LayerNorm(e)
            self.qkv, self.proj = nn.Linear(e, 3 * e), nn.Linear(e, e)
            self.mlp = nn.Sequential(nn.Linear(e, 4 * e), nn.GELU(),
                                     nn.Linear(4 * e, e))
            self.register_buffer("causal", torch.tril(
                torch.ones(seq, seq, dtype=torch.bool)))

        def forward(self, x):
            b, s, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).split(e, dim=2)
            q, k, v = (t.view(b, s, heads, e // heads).transpose(1, 2)
                       for t in (q, k, v))
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(e // heads))
            att = att.masked_fill(~self.causal, float("-inf")).softmax(-1)
            x = x + self.proj((att @ v).transpose(1, 2).reshape(b, s, e))
            return x + self.mlp(self.ln2(x))

    net = nn.Sequential(*[Block() for _ in range(layers)]).eval()
    x = torch.randn(batch, seq, e)
    with torch.no_grad():
        y = net(x).numpy()
    torch.onnx.export(net, (x,), out + "/model.onnx", input_names=["x"],
                      output_names=["y"], opset_version=17)
    act = batch * seq * e * 4
    weights = sum(p.numel() for p in net.parameters()) * 4
    return x.numpy(), y, (
        weights, 2 * layers, 2 * layers * act, 1, act,
        "GPT-style decoder, %d blocks of width %d, %d heads, %d x %d tokens"
        % (layers, e, heads, batch, seq))


def main():
    out, model, d = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if model not in ("mlp", "gpt"):
        sys.exit("scale-out: --model: mlp or gpt")
    x, y, plan = (mlp if model == "mlp" else gpt)(out, d)
    np.save(out + "/x.npy", x)
    np.save(out + "/y.npy", y)
    with open(out + "/plan.txt", "w") as f:
        f.write("%d %d %d %d %d %s\n" % plan)


main()

"""Writes ONNX models of matrix-vector contractions (a single output row
or pixel) for matvec-run.test, each with random inputs and NumPy's float64
result: DIR/NAME.onnx, DIR/NAME.input_0.npy, DIR/NAME.expected.npy, and
the names in DIR/models.txt.

  Gemm at batch 1 (the weights read as N x K dot products): K = 1280 with
  N = 1000 and 1001, K = 33 and 40 with N = 17, transB 0 and 1, alpha and
  beta, no bias; with Relu and HardSwish epilogues; f64.
  1x1 and 3x3 convs on 1x1 maps (one output pixel: squeeze-and-excitation
  convs, still im2col contractions) with M = 24, 100, 960, with Clip, Relu, HardSigmoid epilogues, a
  residual Add, batch 2, no bias; f64.
  GlobalAveragePool over 7x7 planes (rows of 49 = 3 x 16 + 1).
  ReduceSum over rows of 64 of a 1001 x 64 input: the split reduction's
  partial sums with no thread level and a peeled last row, whose lanes
  were once combined from the fill's zeros (register_init.c).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(18)
out = sys.argv[1]
names = []


def randn(*shape):
    return rng.standard_normal(shape)


def save(name, nodes, x, y, inits, f64=False, opset=14):
    t = TensorProto.DOUBLE if f64 else TensorProto.FLOAT
    dt = np.float64 if f64 else np.float32
    graph = helper.make_graph(
        nodes, name, [helper.make_tensor_value_info("x", t, x.shape)],
        [helper.make_tensor_value_info("y", t, y.shape)],
        [numpy_helper.from_array(v.astype(dt) if v.dtype.kind == "f" else v, k)
         for k, v in inits.items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", opset)])
    onnx.save(model, f"{out}/{name}.onnx")
    np.save(f"{out}/{name}.input_0.npy", x.astype(dt))
    np.save(f"{out}/{name}.expected.npy", y.astype(dt))
    names.append(name)


def cast(v, f64):
    """The inputs as the model sees them (rounded to f32 unless f64)."""
    return v if f64 else v.astype(np.float32).astype(np.float64)


def hardswish(v):
    return v * np.clip(v + 3, 0, 6) / 6


def gemm(name, k, n, trans_b=1, alpha=1.0, beta=1.0, bias=True, act=None,
         f64=False):
    x = cast(randn(1, k), f64)
    w = cast(randn(n, k) / np.sqrt(k), f64)
    inits = {"w": w if trans_b else w.T}
    ins = ["x", "w"]
    y = alpha * (x @ w.T)
    if bias:
        c = cast(randn(n), f64)
        inits["c"] = c
        ins.append("c")
        y = y + beta * c
    nodes = [helper.make_node("Gemm", ins, ["g" if act else "y"],
                              transB=trans_b, alpha=alpha, beta=beta)]
    if act == "Relu":
        nodes.append(helper.make_node("Relu", ["g"], ["y"]))
        y = np.maximum(y, 0)
    elif act == "HardSwish":
        nodes.append(helper.make_node("HardSwish", ["g"], ["y"]))
        y = hardswish(y)
    save(name, nodes, x, y, inits, f64)


def conv_1x1_map(name, c, m, kernel=1, batch=1, act=None, residual=False,
                 bias=True, f64=False):
    """A conv whose output is one pixel: a 1x1 map, kernel 1 or 3 (pad 1)."""
    x = cast(randn(batch, c, 1, 1), f64)
    w = cast(randn(m, c, kernel, kernel) / np.sqrt(c * kernel), f64)
    inits = {"w": w}
    ins = ["x", "w"]
    # Only the kernel's centre tap meets the 1x1 input (pad 1 elsewhere).
    y = np.einsum("nc,mc->nm", x[:, :, 0, 0], w[:, :, kernel // 2,
                                                 kernel // 2])
    if bias:
        b = cast(randn(m), f64)
        inits["b"] = b
        ins.append("b")
        y = y + b
    y = y[:, :, None, None]
    pads = [kernel // 2] * 4
    cur = "conv"
    nodes = [helper.make_node("Conv", ins, [cur], pads=pads)]
    if residual:
        r = cast(randn(batch, m, 1, 1), f64)
        inits["r"] = r
        nodes.append(helper.make_node("Add", [cur, "r"], ["add"]))
        cur = "add"
        y = y + r
    if act == "Clip":
        inits["lo"], inits["hi"] = np.array(0.0), np.array(6.0)
        nodes.append(helper.make_node("Clip", [cur, "lo", "hi"], ["act"]))
        y = np.clip(y, 0, 6)
    elif act == "Relu":
        nodes.append(helper.make_node("Relu", [cur], ["act"]))
        y = np.maximum(y, 0)
    elif act == "HardSigmoid":
        nodes.append(helper.make_node("HardSigmoid", [cur], ["act"],
                                      alpha=1 / 6, beta=0.5))
        y = np.clip(y / 6 + 0.5, 0, 1)
    nodes[-1].output[0] = "y"
    save(name, nodes, x, y, inits, f64)


gemm("gemv_1280_1000", 1280, 1000)
gemm("gemv_1280_1001_nt", 1280, 1001, trans_b=0)
gemm("gemv_33_17", 33, 17, alpha=0.5, beta=2.0)
gemm("gemv_40_17_nt", 40, 17, trans_b=0, bias=False)
gemm("gemv_960_1280_hswish", 960, 1280, act="HardSwish")
gemm("gemv_100_31_relu", 100, 31, act="Relu")
gemm("gemv_f64", 130, 1001, f64=True)
gemm("gemv_f64_nt", 97, 50, trans_b=0, f64=True)
conv_1x1_map("se_960_240_relu", 960, 240, act="Relu")
conv_1x1_map("se_240_960_hsig", 240, 960, act="HardSigmoid")
conv_1x1_map("p1_100_24_clip_add", 100, 24, act="Clip", residual=True)
conv_1x1_map("p1_33_100_b2", 33, 100, batch=2, bias=False)
conv_1x1_map("p1_3x3_64_100", 64, 100, kernel=3, act="Relu")
conv_1x1_map("p1_f64", 72, 100, act="Clip", residual=True, f64=True)

x = randn(1, 1280, 7, 7).astype(np.float32)
save("gap_7x7", [helper.make_node("GlobalAveragePool", ["x"], ["y"])], x,
     x.astype(np.float64).mean(axis=(2, 3), keepdims=True), {})
x = randn(2, 24, 5, 9).astype(np.float32)
save("gap_5x9", [helper.make_node("GlobalAveragePool", ["x"], ["y"])], x,
     x.astype(np.float64).mean(axis=(2, 3), keepdims=True), {})

x = randn(1001, 64).astype(np.float32)
save("rowsum_1001", [helper.make_node("ReduceSum", ["x", "axes"], ["y"],
                                      keepdims=0)], x,
     x.astype(np.float64).sum(axis=1), {"axes": np.array([1])}, opset=13)

with open(f"{out}/models.txt", "w") as f:
    f.write("\n".join(names) + "\n")

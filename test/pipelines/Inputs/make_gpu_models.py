"""Small ONNX models for the GPU pipeline's tests, with NumPy references.

usage: make_gpu_models.py OUTDIR

Writes OUTDIR/NAME.onnx, NAME.in.npy and NAME.out.npy (float64 reference
cast to float32) for:
  encoder  MatMul + bias, LayerNormalization, softmax (Exp, ReduceSum),
           GELU (Erf), Tanh: the math the GPU kernels take from libdevice
  odd      a conv with stride 2 and padding, max pool, global average pool
           and Gemm on odd sizes (grids with partly idle last blocks)
  scalar   a full reduction to a 0-d tensor used by an elementwise op
           (host code that runs in a one-thread kernel)
  fc, mm_odd, bmm, gemm_tb, gemm_ta
           matrix products of awkward sizes (kiln-gpu-tile-contractions:
           partial blocks and K tiles): Gemm 1x512x1000 with bias, MatMul
           33x65x17, batch 3x31x47x29, Gemm 128x768x3072 with B
           transposed, Gemm with A transposed (an input: a generic
           contraction)
  gemm_relu, mm_gelu, conv_relu, mm_residual
           products with elementwise epilogues (fused into the tiled
           products' store phase): Gemm + bias + Relu, MatMul + bias + a
           tanh GELU chain, a conv with bias + Relu on odd sizes, MatMul +
           a residual Add of its input
  red_softmax, red_layernorm, red_mean, red_gap, red_max
           reductions (kiln-gpu-block-reductions: block reductions through
           shared memory): softmax over 1000, layer norm over 768 with 3
           rows, a full ReduceMean of 3x224x224, global average pool
           1x512x7x7, ReduceMax over the middle axis of 5x300x7
  win_dw, win_dw_s2, win_pool, win_pool1d
           window ops (kiln-gpu-tile-windows: input regions in shared
           memory): depthwise 3x3 convs with bias + Relu on 2x24x37x45
           (stride 1, pad 1) and 2x16x35x70 (stride 2, dilation 2, pad 2),
           MaxPool 3x3 stride 2 pad 1 with ceil_mode then AveragePool 3x3
           stride 1 pad 1 without the padding counted on 2x5x67x41; 1-D
           MaxPool 5 stride 3 on 3x7x101
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT
rng = np.random.default_rng(7)


def save(out, name, nodes, inputs, outputs, inits, x, y):
    graph = helper.make_graph(nodes, name, inputs, outputs,
                              [numpy_helper.from_array(v, k)
                               for k, v in inits.items()])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))
    np.save(os.path.join(out, name + ".in.npy"), x.astype(np.float32))
    np.save(os.path.join(out, name + ".out.npy"), y.astype(np.float32))


def erf(x):
    # Abramowitz-Stegun is not precise enough; use math.erf elementwise.
    import math
    return np.vectorize(math.erf)(x)


def encoder(out):
    t, d = 37, 24
    x = rng.standard_normal((1, t, d)).astype(np.float32)
    w = (rng.standard_normal((d, d)) * 0.2).astype(np.float32)
    b = rng.standard_normal(d).astype(np.float32)
    g = rng.standard_normal(d).astype(np.float32)
    beta = rng.standard_normal(d).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["h0"]),
        helper.make_node("Add", ["h0", "b"], ["h1"]),
        helper.make_node("LayerNormalization", ["h1", "g", "beta"], ["h2"],
                         axis=-1, epsilon=1e-5),
        helper.make_node("Softmax", ["h2"], ["s"], axis=-1),
        helper.make_node("Div", ["h2", "sqrt2"], ["q"]),
        helper.make_node("Erf", ["q"], ["e"]),
        helper.make_node("Add", ["e", "one"], ["e1"]),
        helper.make_node("Mul", ["h2", "e1"], ["g0"]),
        helper.make_node("Mul", ["g0", "half"], ["gelu"]),
        helper.make_node("Tanh", ["gelu"], ["th"]),
        helper.make_node("Add", ["th", "s"], ["y"]),
    ]
    inits = {"w": w, "b": b, "g": g, "beta": beta,
             "sqrt2": np.array(np.sqrt(2.0), np.float32),
             "one": np.array(1.0, np.float32),
             "half": np.array(0.5, np.float32)}
    xd = x.astype(np.float64)
    h1 = xd @ w + b
    mu = h1.mean(-1, keepdims=True)
    var = ((h1 - mu) ** 2).mean(-1, keepdims=True)
    h2 = (h1 - mu) / np.sqrt(var + 1e-5) * g + beta
    ex = np.exp(h2 - h2.max(-1, keepdims=True))
    s = ex / ex.sum(-1, keepdims=True)
    gelu = h2 * (1 + erf(h2 / np.sqrt(2.0))) * 0.5
    y = np.tanh(gelu) + s
    save(out, "encoder", nodes,
         [helper.make_tensor_value_info("x", F, [1, t, d])],
         [helper.make_tensor_value_info("y", F, [1, t, d])], inits, x, y)


def conv2d(x, w, stride, pad):
    n, c, h, wd = x.shape
    f, _, kh, kw = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = np.zeros((n, f, oh, ow))
    for i in range(kh):
        for j in range(kw):
            patch = xp[:, :, i:i + stride * oh:stride, j:j + stride * ow:stride]
            y += np.einsum("nchw,fc->nfhw", patch, w[:, :, i, j])
    return y


def odd(out):
    x = rng.standard_normal((1, 3, 19, 23)).astype(np.float32)
    w = (rng.standard_normal((5, 3, 3, 3)) * 0.3).astype(np.float32)
    cb = rng.standard_normal(5).astype(np.float32)
    gw = rng.standard_normal((7, 5)).astype(np.float32)
    gb = rng.standard_normal(7).astype(np.float32)
    nodes = [
        helper.make_node("Conv", ["x", "w", "cb"], ["c"], strides=[2, 2],
                         pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("MaxPool", ["r"], ["p"], kernel_shape=[3, 3],
                         strides=[1, 1]),
        helper.make_node("GlobalAveragePool", ["p"], ["a"]),
        helper.make_node("Flatten", ["a"], ["fl"]),
        helper.make_node("Gemm", ["fl", "gw", "gb"], ["y"], transB=1),
    ]
    c = conv2d(x.astype(np.float64), w, 2, 1) + cb[None, :, None, None]
    r = np.maximum(c, 0)
    oh, ow = r.shape[2] - 2, r.shape[3] - 2
    p = np.full((1, 5, oh, ow), -np.inf)
    for i in range(3):
        for j in range(3):
            p = np.maximum(p, r[:, :, i:i + oh, j:j + ow])
    a = p.mean(axis=(2, 3))
    y = a @ gw.T + gb
    save(out, "odd", nodes,
         [helper.make_tensor_value_info("x", F, [1, 3, 19, 23])],
         [helper.make_tensor_value_info("y", F, [1, 7])],
         {"w": w, "cb": cb, "gw": gw, "gb": gb}, x, y)


def scalar(out):
    x = rng.standard_normal((5, 11)).astype(np.float32)
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Sub", ["x", "s"], ["y"]),
    ]
    y = x.astype(np.float64) - x.astype(np.float64).sum()
    save(out, "scalar", nodes,
         [helper.make_tensor_value_info("x", F, [5, 11])],
         [helper.make_tensor_value_info("y", F, [5, 11])], {}, x, y)


def matmuls(out):
    def w(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[-2 if len(shape) > 1 else 0])).astype(np.float32)

    def one(name, node, xshape, yshape, inits, ref):
        x = rng.standard_normal(xshape).astype(np.float32)
        y = ref(x.astype(np.float64), {k: v.astype(np.float64)
                                       for k, v in inits.items()})
        save(out, name, [node],
             [helper.make_tensor_value_info("x", F, list(xshape))],
             [helper.make_tensor_value_info("y", F, list(yshape))],
             inits, x, y)

    fw = (rng.standard_normal((1000, 512)) / np.sqrt(512)).astype(np.float32)
    one("fc", helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1),
        (1, 512), (1, 1000), {"w": fw, "b": w(1000)},
        lambda x, i: x @ i["w"].T + i["b"])
    one("mm_odd", helper.make_node("MatMul", ["x", "w"], ["y"]),
        (33, 65), (33, 17), {"w": w(65, 17)}, lambda x, i: x @ i["w"])
    one("bmm", helper.make_node("MatMul", ["x", "w"], ["y"]),
        (3, 31, 47), (3, 31, 29), {"w": w(3, 47, 29)},
        lambda x, i: np.matmul(x, i["w"]))
    tw = (rng.standard_normal((3072, 768)) / np.sqrt(768)).astype(np.float32)
    one("gemm_tb", helper.make_node("Gemm", ["x", "w"], ["y"], transB=1),
        (128, 768), (128, 3072), {"w": tw}, lambda x, i: x @ i["w"].T)
    one("gemm_ta", helper.make_node("Gemm", ["x", "w"], ["y"], transA=1,
                                    alpha=0.5),
        (65, 33), (33, 17), {"w": w(65, 17)},
        lambda x, i: 0.5 * x.T @ i["w"])


def epilogues(out):
    """Products followed by the elementwise ops kiln-gpu-tile-contractions
    fuses into their store phase."""
    def chain(name, nodes, xshape, yshape, inits, ref):
        x = rng.standard_normal(xshape).astype(np.float32)
        y = ref(x.astype(np.float64), {k: v.astype(np.float64)
                                       for k, v in inits.items()})
        save(out, name, nodes,
             [helper.make_tensor_value_info("x", F, list(xshape))],
             [helper.make_tensor_value_info("y", F, list(yshape))],
             inits, x, y)

    def w(*shape):
        return (rng.standard_normal(shape) / np.sqrt(shape[-2])).astype(np.float32)

    def b(n):
        return rng.standard_normal(n).astype(np.float32)

    chain("gemm_relu",
          [helper.make_node("Gemm", ["x", "w", "b"], ["h"]),
           helper.make_node("Relu", ["h"], ["y"])],
          (70, 96), (70, 130), {"w": w(96, 130), "b": b(130)},
          lambda x, i: np.maximum(x @ i["w"] + i["b"], 0))
    # GELU's tanh form: 0.5 h (1 + tanh(0.7978845608 (h + 0.044715 h^3))).
    k0, k1 = 0.7978845608, 0.044715
    chain("mm_gelu",
          [helper.make_node("MatMul", ["x", "w"], ["m"]),
           helper.make_node("Add", ["m", "b"], ["h"]),
           helper.make_node("Mul", ["h", "h"], ["h2"]),
           helper.make_node("Mul", ["h2", "h"], ["h3"]),
           helper.make_node("Mul", ["h3", "k1"], ["t0"]),
           helper.make_node("Add", ["h", "t0"], ["t1"]),
           helper.make_node("Mul", ["t1", "k0"], ["t2"]),
           helper.make_node("Tanh", ["t2"], ["t3"]),
           helper.make_node("Add", ["t3", "one"], ["t4"]),
           helper.make_node("Mul", ["h", "t4"], ["t5"]),
           helper.make_node("Mul", ["t5", "half"], ["y"])],
          (1, 45, 64), (1, 45, 100),
          {"w": w(64, 100), "b": b(100), "k0": np.array(k0, np.float32),
           "k1": np.array(k1, np.float32), "one": np.array(1.0, np.float32),
           "half": np.array(0.5, np.float32)},
          lambda x, i: (lambda h: 0.5 * h * (1 + np.tanh(
              np.float32(k0) * (h + np.float32(k1) * h ** 3))))(
              x @ i["w"] + i["b"]))
    cw = (rng.standard_normal((11, 5, 3, 3)) * 0.3).astype(np.float32)
    chain("conv_relu",
          [helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
           helper.make_node("Relu", ["c"], ["y"])],
          (1, 5, 17, 21), (1, 11, 17, 21), {"w": cw, "b": b(11)},
          lambda x, i: np.maximum(conv2d(x, i["w"], 1, 1)
                                  + i["b"][None, :, None, None], 0))
    chain("mm_residual",
          [helper.make_node("MatMul", ["x", "w"], ["m"]),
           helper.make_node("Add", ["m", "x"], ["y"])],
          (40, 72), (40, 72), {"w": w(72, 72)},
          lambda x, i: x @ i["w"] + x)



def one_input(out, name, nodes, xshape, yshape, inits, ref):
    """A model of one input x (random, of `xshape`) and one output y of
    `yshape`, its reference ref(x) in float64."""
    x = rng.standard_normal(xshape).astype(np.float32)
    y = ref(x.astype(np.float64))
    save(out, name, nodes,
         [helper.make_tensor_value_info("x", F, list(xshape))],
         [helper.make_tensor_value_info("y", F, list(yshape))],
         inits, x, y)


def reductions(out):
    def one(name, nodes, xshape, yshape, inits, ref):
        one_input(out, name, nodes, xshape, yshape, inits, ref)

    def softmax(x):
        e = np.exp(x - x.max(-1, keepdims=True))
        return e / e.sum(-1, keepdims=True)

    one("red_softmax", [helper.make_node("Softmax", ["x"], ["y"], axis=-1)],
        (2, 1000), (2, 1000), {}, softmax)
    g = rng.standard_normal(768).astype(np.float32)
    beta = rng.standard_normal(768).astype(np.float32)

    def layernorm(x):
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        return (x - mu) / np.sqrt(var + 1e-5) * g + beta

    one("red_layernorm",
        [helper.make_node("LayerNormalization", ["x", "g", "beta"], ["y"],
                          axis=-1, epsilon=1e-5)],
        (3, 768), (3, 768), {"g": g, "beta": beta}, layernorm)
    one("red_mean", [helper.make_node("ReduceMean", ["x"], ["y"],
                                      keepdims=0)],
        (3, 224, 224), (), {}, lambda x: np.array(x.mean()))
    one("red_gap", [helper.make_node("GlobalAveragePool", ["x"], ["y"])],
        (1, 512, 7, 7), (1, 512, 1, 1), {},
        lambda x: x.mean(axis=(2, 3), keepdims=True))
    one("red_max", [helper.make_node("ReduceMax", ["x"], ["y"], axes=[1],
                                     keepdims=1)],
        (5, 300, 7), (5, 1, 7), {}, lambda x: x.max(axis=1, keepdims=True))


def window_pool(x, k, stride, pad, dilation, reduce, fill, out_size):
    """A pool over the last len(k) dims: `reduce` over the window
    elements of x padded with `fill` (NaN: left out, for averages without
    the padding), out_size output elements per dim."""
    nd = len(k)
    lead = x.ndim - nd
    extra = [max(0, (o - 1) * s + (kk - 1) * d + 1 - (n + 2 * p))
             for o, s, kk, d, n, p in zip(out_size, stride, k, dilation,
                                          x.shape[lead:], pad)]
    xp = np.pad(x, [(0, 0)] * lead +
                [(p, p + e) for p, e in zip(pad, extra)],
                constant_values=fill)
    parts = []
    for idx in np.ndindex(*k):
        sl = tuple(slice(i * d, i * d + s * (o - 1) + 1, s)
                   for i, d, s, o in zip(idx, dilation, stride, out_size))
        parts.append(xp[(Ellipsis,) + sl])
    return reduce(np.stack(parts))


def windows(out):
    def one(name, nodes, xshape, yshape, inits, ref):
        one_input(out, name, nodes, xshape, yshape, inits, ref)

    def depthwise(name, shape, stride, dilation, pad):
        n, c, h, w = shape
        wt = rng.standard_normal((c, 1, 3, 3)).astype(np.float32)
        b = rng.standard_normal(c).astype(np.float32)
        oh = (h + 2 * pad - 2 * dilation - 1) // stride + 1
        ow = (w + 2 * pad - 2 * dilation - 1) // stride + 1

        def ref(x):
            xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
            y = np.zeros((n, c, oh, ow)) + b.reshape(1, c, 1, 1)
            for i in range(3):
                for j in range(3):
                    patch = xp[:, :, i * dilation:i * dilation + stride * oh:stride,
                               j * dilation:j * dilation + stride * ow:stride]
                    y += patch * wt[:, 0, i, j].reshape(1, c, 1, 1)
            return np.maximum(y, 0)
        one(name,
            [helper.make_node("Conv", ["x", "w", "b"], ["c"], group=c,
                              strides=[stride] * 2, dilations=[dilation] * 2,
                              pads=[pad] * 4),
             helper.make_node("Relu", ["c"], ["y"])],
            shape, (n, c, oh, ow), {"w": wt, "b": b}, ref)

    depthwise("win_dw", (2, 24, 37, 45), 1, 1, 1)
    depthwise("win_dw_s2", (2, 16, 35, 70), 2, 2, 2)
    # MaxPool 3x3/2 pad 1 ceil_mode on 67x41: 34x21 (ceil); AveragePool
    # 3x3/1 pad 1 without the padding counted.
    def pools(x):
        m = window_pool(x, (3, 3), (2, 2), (1, 1), (1, 1),
                        lambda p: p.max(0), -np.inf, (34, 21))
        s = window_pool(m, (3, 3), (1, 1), (1, 1), (1, 1),
                        lambda p: np.nansum(p, 0) / (~np.isnan(p)).sum(0),
                        np.nan, (34, 21))
        return s
    one("win_pool",
        [helper.make_node("MaxPool", ["x"], ["m"], kernel_shape=[3, 3],
                          strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1),
         helper.make_node("AveragePool", ["m"], ["y"], kernel_shape=[3, 3],
                          strides=[1, 1], pads=[1, 1, 1, 1],
                          count_include_pad=0)],
        (2, 5, 67, 41), (2, 5, 34, 21), {}, pools)
    one("win_pool1d",
        [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[5],
                          strides=[3])],
        (3, 7, 101), (3, 7, 33), {},
        lambda x: window_pool(x, (5,), (3,), (0,), (1,), lambda p: p.max(0),
                              -np.inf, (33,)))


if __name__ == "__main__":
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    encoder(out)
    odd(out)
    scalar(out)
    matmuls(out)
    epilogues(out)
    reductions(out)
    windows(out)

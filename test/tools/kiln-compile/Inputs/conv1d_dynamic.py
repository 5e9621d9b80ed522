"""Writes a stack of 1-D convs over x [batch, 6, length] with the batch and
the length dynamic (an audio front end: kernel 3 with SAME-style pads,
stride 2, dilation 2, a 5-wide kernel, a 1-wide one without bias) and, for
several shapes, inputs and a direct numpy reference, for
dynamic-conv1d.test. The lengths leave partial product tiles and reach 1.

usage: conv1d_dynamic.py DIR"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SHAPES = [(1, 1), (2, 7), (3, 40), (1, 101)]
# name, in channels, out channels, kernel, stride, dilation, pads, bias
LAYERS = [("c1", 6, 16, 3, 1, 1, (1, 1), True),
          ("c2", 16, 24, 3, 2, 1, (1, 1), True),
          ("c3", 24, 8, 3, 1, 2, (2, 2), True),
          ("c4", 8, 5, 5, 1, 1, (2, 2), True),
          ("c5", 5, 4, 1, 1, 1, (0, 0), False)]


def conv(x, w, b, stride, dilation, pads):
    n, c, length = x.shape
    m, _, k = w.shape
    xp = np.pad(x, ((0, 0), (0, 0), pads))
    out = (xp.shape[2] - (k - 1) * dilation - 1) // stride + 1
    y = np.zeros((n, m, out))
    for o in range(out):
        win = xp[:, :, [o * stride + j * dilation for j in range(k)]]
        y[:, :, o] = np.einsum("nck,mck->nm", win, w)
    return y + (b[None, :, None] if b is not None else 0)


def main():
    out_dir = sys.argv[1]
    rng = np.random.default_rng(21)
    nodes, inits, params = [], [], []
    prev = "x"
    for name, c, m, k, s, d, pads, bias in LAYERS:
        w = rng.standard_normal((m, c, k)) / np.sqrt(c * k)
        b = rng.standard_normal(m) * 0.1 if bias else None
        inits.append(numpy_helper.from_array(w.astype(np.float32), name + "w"))
        ins = [prev, name + "w"]
        if bias:
            inits.append(numpy_helper.from_array(b.astype(np.float32),
                                                 name + "b"))
            ins.append(name + "b")
        nodes.append(helper.make_node("Conv", ins, [name], name=name,
                                      strides=[s], dilations=[d],
                                      pads=list(pads), kernel_shape=[k]))
        params.append((w, b, s, d, pads))
        prev = name
    graph = helper.make_graph(
        nodes, "conv1d",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                       ["batch", 6, "length"])],
        [helper.make_tensor_value_info(prev, TensorProto.FLOAT, None)],
        inits)
    onnx.save(helper.make_model(graph,
                                opset_imports=[helper.make_opsetid("", 17)]),
              os.path.join(out_dir, "conv1d.onnx"))
    for i, shape in enumerate(SHAPES):
        x = rng.standard_normal((shape[0], 6, shape[1])).astype(np.float32)
        y = x.astype(np.float64)
        for w, b, s, d, pads in params:
            y = conv(y, w, b, s, d, pads)
        np.save(os.path.join(out_dir, "cx%d.npy" % i), x)
        np.save(os.path.join(out_dir, "cy%d.npy" % i), y.astype(np.float32))


if __name__ == "__main__":
    main()

"""Writes the models of graph-layout-run.test, each with a random input
(DIR/NAME.onnx, DIR/NAME.input_0.npy), and the inputs and NumPy reference
of layout-grouped.mlir (DIR/grouped.{x,w,b,y}.npy).

  chain: Conv 3x3 (stride 2x1, dilation 1x2, asymmetric pads, bias) -> Relu
         -> Conv 1x1 -> Clip(0, 6) -> Conv 3x3 + Conv 1x1 (residual
         branch) -> Add -> Relu; batch 2, prime spatial sizes (11 x 13),
         5 input channels.
  mobile: MobileNetV2-like blocks: Conv 1x1 -> Clip -> depthwise 3x3
         (stride 2; then dilation 2x1 with asymmetric pads) -> Clip ->
         Conv 1x1, with a residual add; batch 2, a 9 x 7 plane.
  thin:  Conv 1x3 on a 1 x 9 plane with one output channel -> Sigmoid;
         Conv 1x1 stride 2 -> Mul by a scalar.
  grouped: a channels-last grouped conv (2 groups, stride 2x1, dilation
         1x2, pads) written in the graph dialect: the lowering's fallback
         (the channels-first conv between transposes) against NumPy.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)


def const(name, shape, scale=0.3):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * scale).astype(np.float32), name)


def save(out_dir, name, nodes, inits, in_shape, out_shape):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    x = rng.standard_normal(in_shape).astype(np.float32)
    np.save(f"{out_dir}/{name}.input_0.npy", x)


def conv_nhwc(x, w, b, group, strides, dilations, pads):
    """x N x H x W x C, w KH x KW x C/group x M, pads (top, left, bottom,
    right): the channels-last conv in float64."""
    n, h, wd, c = x.shape
    kh, kw, cg, m = w.shape
    xp = np.zeros((n, h + pads[0] + pads[2], wd + pads[1] + pads[3], c))
    xp[:, pads[0]:pads[0] + h, pads[1]:pads[1] + wd, :] = x
    oh = (xp.shape[1] - (kh - 1) * dilations[0] - 1) // strides[0] + 1
    ow = (xp.shape[2] - (kw - 1) * dilations[1] - 1) // strides[1] + 1
    y = np.zeros((n, oh, ow, m)) + b
    mg = m // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                tap = xp[:, i * dilations[0]:i * dilations[0] + oh * strides[0]:strides[0],
                         j * dilations[1]:j * dilations[1] + ow * strides[1]:strides[1],
                         g * cg:(g + 1) * cg]
                y[..., g * mg:(g + 1) * mg] += tap @ w[i, j, :, g * mg:(g + 1) * mg]
    return y


def main(out_dir):
    mk = helper.make_node
    save(out_dir, "chain", [
        mk("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 0, 2, 1],
           strides=[2, 1], dilations=[1, 2]),
        mk("Relu", ["c1"], ["r1"]),
        mk("Conv", ["r1", "w2"], ["c2"]),
        mk("Clip", ["c2", "lo", "hi"], ["k2"]),
        mk("Conv", ["k2", "w3", "b3"], ["c3"], pads=[1, 1, 1, 1]),
        mk("Conv", ["k2", "w4"], ["c4"]),
        mk("Add", ["c3", "c4"], ["s"]),
        mk("Relu", ["s"], ["y"]),
    ], [const("w1", (24, 5, 3, 3)), const("b1", (24,)),
        const("w2", (24, 24, 1, 1)),
        numpy_helper.from_array(np.array(0, np.float32), "lo"),
        numpy_helper.from_array(np.array(6, np.float32), "hi"),
        const("w3", (17, 24, 3, 3)), const("b3", (17,)),
        const("w4", (17, 24, 1, 1))],
        [2, 5, 11, 13], [2, 17, 6, 10])
    save(out_dir, "thin", [
        mk("Conv", ["x", "w1"], ["c1"], pads=[0, 1, 0, 1]),
        mk("Sigmoid", ["c1"], ["s1"]),
        mk("Conv", ["s1", "w2", "b2"], ["c2"], strides=[2, 2]),
        mk("Mul", ["c2", "k"], ["y"]),
    ], [const("w1", (1, 3, 1, 3)), const("w2", (16, 1, 1, 1)),
        const("b2", (16,)), const("k", (1,))],
        [1, 3, 1, 9], [1, 16, 1, 5])
    lo = numpy_helper.from_array(np.array(0, np.float32), "lo")
    hi = numpy_helper.from_array(np.array(6, np.float32), "hi")
    save(out_dir, "mobile", [
        mk("Conv", ["x", "we", "be"], ["e"]),
        mk("Clip", ["e", "lo", "hi"], ["e6"]),
        mk("Conv", ["e6", "wd", "bd"], ["d"], group=24, pads=[1, 1, 1, 1],
           strides=[2, 2]),
        mk("Clip", ["d", "lo", "hi"], ["d6"]),
        mk("Conv", ["d6", "wp"], ["p"]),
        mk("Conv", ["p", "we2"], ["e2"]),
        mk("Relu", ["e2"], ["r2"]),
        mk("Conv", ["r2", "wd2"], ["d2"], group=24, pads=[2, 0, 2, 2],
           dilations=[2, 1], kernel_shape=[3, 3]),
        mk("Conv", ["d2", "wp2", "bp2"], ["p2"]),
        mk("Add", ["p2", "p"], ["y"]),
    ], [const("we", (24, 16, 1, 1)), const("be", (24,)), lo, hi,
        const("wd", (24, 1, 3, 3)), const("bd", (24,)),
        const("wp", (16, 24, 1, 1)), const("we2", (24, 16, 1, 1)),
        const("wd2", (24, 1, 3, 3)), const("wp2", (16, 24, 1, 1)),
        const("bp2", (16,))],
        [2, 16, 9, 7], [2, 16, 5, 4])
    x = rng.standard_normal((2, 7, 5, 6)).astype(np.float32)
    w = (rng.standard_normal((3, 2, 3, 4)) * 0.3).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    y = conv_nhwc(x.astype(np.float64), w.astype(np.float64), b, 2, (2, 1),
                  (1, 2), (1, 0, 1, 1)).astype(np.float32)
    assert y.shape == (2, 4, 4, 4), y.shape
    for name, a in (("x", x), ("w", w), ("b", b), ("y", y)):
        np.save(f"{out_dir}/grouped.{name}.npy", a)


if __name__ == "__main__":
    main(sys.argv[1])

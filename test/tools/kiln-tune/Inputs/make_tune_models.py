"""Writes the small ONNX models of kiln-tune's tests to OUT_DIR.

usage: /usr/bin/python3 make_tune_models.py OUT_DIR

a.onnx  x: f32[1,8,16,16] -> Conv 8->16 3x3 + Relu -> (Conv 16->16 3x3 +
        Relu) twice, the same layer -> MatMul by a 16x24 constant
b.onnx  x: f32[1,16,16,16] -> Conv 16->16 3x3 + Relu (a's repeated layer,
        its default attributes spelled out)
        -> Conv 16->8 1x1
c.onnx  x: f32[1,8] -> Relu (nothing to tune)
d.onnx  x: f32[N,8,16,16] (a dynamic batch) -> Conv 8->16 3x3 + Relu
e.onnx  x: f32[1,4,32,48] -> Softmax over the last axis (a reduction)
Weights are fixed pseudo-random numbers."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)


def weight(name, *shape):
    return numpy_helper.from_array(
        (rng.standard_normal(shape) * 0.2).astype(np.float32), name)


def conv(x, w, b, y, kernel, spell_defaults=False):
    """spell_defaults: write out dilations, group and strides at their
    defaults, as PyTorch's exporter does (the key must not change)."""
    pad = kernel // 2
    extra = dict(dilations=[1, 1], group=1, strides=[1, 1]) \
        if spell_defaults else {}
    return helper.make_node("Conv", [x, w, b], [y], kernel_shape=[kernel] * 2,
                            pads=[pad] * 4, **extra)


def save(path, nodes, inits, x_shape, y_shape):
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                   x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.save(model, path)


def main():
    out = sys.argv[1]
    nodes = [conv("x", "w0", "b0", "c0", 3), helper.make_node("Relu", ["c0"], ["r0"])]
    inits = [weight("w0", 16, 8, 3, 3), weight("b0", 16)]
    prev = "r0"
    for i in (1, 2):
        nodes += [conv(prev, f"w{i}", f"b{i}", f"c{i}", 3),
                  helper.make_node("Relu", [f"c{i}"], [f"r{i}"])]
        inits += [weight(f"w{i}", 16, 16, 3, 3), weight(f"b{i}", 16)]
        prev = f"r{i}"
    nodes.append(helper.make_node("MatMul", [prev, "m"], ["y"]))
    inits.append(weight("m", 16, 24))
    save(os.path.join(out, "a.onnx"), nodes, inits, [1, 8, 16, 16],
         [1, 16, 16, 24])

    nodes = [conv("x", "w1", "b1", "c1", 3, spell_defaults=True),
             helper.make_node("Relu", ["c1"], ["r1"]),
             conv("r1", "w2", "b2", "y", 1)]
    inits = [weight("w1", 16, 16, 3, 3), weight("b1", 16),
             weight("w2", 8, 16, 1, 1), weight("b2", 8)]
    save(os.path.join(out, "b.onnx"), nodes, inits, [1, 16, 16, 16],
         [1, 8, 16, 16])

    save(os.path.join(out, "c.onnx"), [helper.make_node("Relu", ["x"], ["y"])],
         [], [1, 8], [1, 8])

    save(os.path.join(out, "d.onnx"),
         [conv("x", "w0", "b0", "c0", 3), helper.make_node("Relu", ["c0"], ["y"])],
         [weight("w0", 16, 8, 3, 3), weight("b0", 16)], ["N", 8, 16, 16],
         ["N", 16, 16, 16])

    save(os.path.join(out, "e.onnx"),
         [helper.make_node("Softmax", ["x"], ["y"], axis=-1)], [],
         [1, 4, 32, 48], [1, 4, 32, 48])


if __name__ == "__main__":
    main()

"""Writes ONNX models whose buffers are read with stride 2, for
kiln-widen-strided-reads: a Slice with step 2 along the last axis (even
and odd lengths), stride-2 convs (grouped, plain, onto an odd width) and a
stride-2 depthwise conv. For each NAME: DIR/NAME.onnx,
DIR/NAME.input_0.npy and NumPy's float64 reference DIR/NAME.expected.npy;
DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)


def save(out_dir, name, nodes, x, ref, inits):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    np.save(f"{out_dir}/{name}.input_0.npy", x)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def slice_step2(out_dir, name, shape, start):
    x = rng.standard_normal(shape).astype(np.float32)
    ref = x[..., start::2].astype(np.float64) * 2.0
    consts = {"starts": [start], "ends": [shape[-1]], "axes": [-1],
              "steps": [2]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), k)
             for k, v in consts.items()]
    inits.append(numpy_helper.from_array(np.array(2.0, np.float32), "two"))
    nodes = [helper.make_node("Slice", ["x", "starts", "ends", "axes", "steps"],
                              ["s"]),
             helper.make_node("Mul", ["s", "two"], ["y"])]
    return save(out_dir, name, nodes, x, ref, inits)


def conv_ref(x, w, b, groups, stride, pad):
    x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    n, c, h, wd = x.shape
    m, cg, kh, kw = w.shape
    oh, ow = (h - kh) // stride + 1, (wd - kw) // stride + 1
    y = np.zeros((n, m, oh, ow))
    mg = m // groups
    for o in range(m):
        g = o // mg
        for i in range(cg):
            for a in range(kh):
                for bb in range(kw):
                    y[:, o] += w[o, i, a, bb] * x[:, g * cg + i,
                                                  a:a + stride * oh:stride,
                                                  bb:bb + stride * ow:stride]
        y[:, o] += b[o]
    return y


def conv(out_dir, name, x_shape, m, groups, k=3):
    c = x_shape[1]
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = (rng.standard_normal((m, c // groups, k, k)) * 0.3).astype(np.float32)
    b = rng.standard_normal((m,)).astype(np.float32)
    ref = np.maximum(conv_ref(x, w, b, groups, 2, k // 2), 0)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], group=groups,
                              strides=[2, 2], pads=[k // 2] * 4),
             helper.make_node("Relu", ["c"], ["y"])]
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")]
    return save(out_dir, name, nodes, x, ref, inits)


def main(out_dir):
    names = [
        slice_step2(out_dir, "slice_even", (4, 32, 128), 0),
        slice_step2(out_dir, "slice_odd", (3, 33, 91), 1),
        conv(out_dir, "conv_grouped", (1, 32, 45, 58), 32, groups=2),
        conv(out_dir, "conv_odd_width", (1, 8, 14, 14), 16, groups=1),
        conv(out_dir, "conv_depthwise", (2, 24, 29, 27), 24, groups=24, k=5),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

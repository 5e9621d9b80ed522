"""Writes 3-D convs with epilogues (bias, residual Add, Relu) whose
kiln-fuse-groups tiles build their own window columns, on awkward shapes:
rows of a plane (planes over 256 pixels), whole planes, planes split into
rows for want of depth, kernels 1 / 3 / 3x7x7, strides (1,2,2) and (2,2,2),
dilation 2, asymmetric pads, 3 / 17 / 64 channels, a batch of two, one
float64 conv, a window matrix over 16M elements, a residual block of two
convs (the second reads the first's output through its padding), and two
with too few blocks (the window stays whole). For each NAME:
DIR/NAME.onnx, its inputs DIR/NAME.input_K.npy and PyTorch's float64
reference DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(12)
mk = helper.make_node


def conv_ref(x, w, b, strides, pads, dilations):
    """torch's conv3d in float64; ONNX pads (begins, then ends) first."""
    spec = []
    for i in reversed(range(3)):
        spec += [pads[i], pads[i + 3]]
    xt = F.pad(torch.from_numpy(x.astype(np.float64)), spec)
    y = F.conv3d(xt, torch.from_numpy(w.astype(np.float64)),
                 torch.from_numpy(b.astype(np.float64)), stride=strides,
                 dilation=dilations)
    return y.numpy()


def model(out_dir, name, x_shape, convs, residual=False,
          dtype=np.float32):
    """A chain of Conv + Relu over x0 (each conv: (out channels, kernel,
    strides, pads, dilations)); with `residual`, the last conv's output
    plus x1 (its shape) before the last Relu."""
    elem = TensorProto.DOUBLE if dtype == np.float64 else TensorProto.FLOAT
    x = rng.standard_normal(x_shape).astype(dtype)
    inputs, inits, nodes = [x], [], []
    last, ref, c = "x0", x.astype(np.float64), x_shape[1]
    for i, (m, k, s, p, d) in enumerate(convs):
        w = (rng.standard_normal((m, c) + tuple(k)) *
             (1.0 / np.sqrt(c * np.prod(k)))).astype(dtype)
        b = rng.standard_normal((m,)).astype(dtype)
        inits += [numpy_helper.from_array(w, f"w{i}"),
                  numpy_helper.from_array(b, f"b{i}")]
        nodes.append(mk("Conv", [last, f"w{i}", f"b{i}"], [f"c{i}"],
                        strides=s, pads=p, dilations=d))
        ref, last, c = conv_ref(ref, w, b, s, p, d), f"c{i}", m
        if residual and i == len(convs) - 1:
            r = rng.standard_normal(ref.shape).astype(dtype)
            inputs.append(r)
            nodes.append(mk("Add", [last, "x1"], [f"a{i}"]))
            ref, last = ref + r, f"a{i}"
        nodes.append(mk("Relu", [last], [f"r{i}"]))
        ref, last = np.maximum(ref, 0), f"r{i}"
    nodes.append(mk("Identity", [last], ["y"]))
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(f"x{j}", elem, a.shape)
         for j, a in enumerate(inputs)],
        [helper.make_tensor_value_info("y", elem, ref.shape)], inits)
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(onnx_model)
    onnx.save(onnx_model, f"{out_dir}/{name}.onnx")
    for j, a in enumerate(inputs):
        np.save(f"{out_dir}/{name}.input_{j}.npy", a)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(dtype))
    return name


def k3(m, s=1, p=1, d=1):
    return (m, [3, 3, 3], [s] * 3, [p] * 6, [d] * 3)


def main(out_dir):
    names = [
        # 5 x 21 x 19: planes of 399 pixels, tiles of 7 rows (133 pixels)
        model(out_dir, "rows_k3_c17_relu", (1, 17, 5, 21, 19), [k3(16)]),
        # R3D's stem: 3x7x7 stride (1,2,2), 3 channels, a batch of two,
        # residual; 5 x 21 x 19 out
        model(out_dir, "stem_k377_s122_residual", (2, 3, 5, 41, 37),
              [(17, [3, 7, 7], [1, 2, 2], [1, 3, 3, 1, 3, 3], [1, 1, 1])],
              residual=True),
        # stride 2, dilation 2, 64 channels: whole 13 x 11 planes
        model(out_dir, "planes_s2_d2_c64_relu", (1, 64, 9, 26, 22),
              [k3(32, s=2, p=2, d=2)]),
        # 2 planes of 16 x 14: split into 4 tiles of 8 rows; asymmetric pads
        model(out_dir, "split_asym_residual", (1, 24, 2, 16, 14),
              [(20, [3, 3, 3], [1, 1, 1], [1, 2, 1, 1, 0, 1], [1, 1, 1])],
              residual=True),
        # 1x1x1 stride 2 (a downsample): whole 17 x 15 planes
        model(out_dir, "k1_s2_c17_relu", (2, 17, 9, 34, 30),
              [(8, [1, 1, 1], [2, 2, 2], [0] * 6, [1, 1, 1])]),
        # float64
        model(out_dir, "rows_k3_f64_relu", (1, 5, 3, 20, 18), [k3(7)],
              dtype=np.float64),
        # a window matrix of 23M elements: no longer a loop of blocks
        model(out_dir, "big_window_relu", (1, 32, 8, 58, 58), [k3(32)]),
        # a residual block: conv-relu-conv-add-relu at 3 x 30 x 30
        model(out_dir, "block_residual", (1, 16, 3, 30, 30),
              [k3(16), k3(16)], residual=True),
        # too few blocks (2 planes of 13 x 11, 13 rows of 11 too short):
        # the window tensor stays whole
        model(out_dir, "few_blocks_relu", (1, 8, 2, 13, 11), [k3(6)]),
        model(out_dir, "few_blocks_s2_relu", (1, 8, 3, 25, 21),
              [k3(6, s=2)]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

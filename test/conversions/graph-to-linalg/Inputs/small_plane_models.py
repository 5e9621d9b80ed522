"""Writes ONNX Conv models on small output planes for convert-graph-to-linalg's
conv-channels-inner form (the output channels innermost, the filter transposed
at compile time): 1x1 and 3x3 convs on 7x7, 5x5, 1x1 planes (small: the form
applies) and 5x3, 9x7, 14x14 ones (15, 63 and 196 pixels fill their vectors:
it does not), output channels 24, 100, 960 and 1001 (remainders of 8, 4 and 9 lanes),
reductions of 16, 33 and 1152, with Clip, Relu and HardSwish epilogues,
residual Adds, stride 2 into 7x7, one in float64. For each NAME: DIR/NAME.onnx,
its inputs DIR/NAME.input_K.npy and PyTorch's float64 reference output
DIR/NAME.expected.npy; DIR/models.txt lists the names."""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(12)
mk = helper.make_node


def conv(out_dir, name, c, m, k, plane, stride=1, act=None, residual=False,
         dtype=np.float32):
    h, w = plane
    pad = k // 2
    ih, iw = (h - 1) * stride + 1, (w - 1) * stride + 1
    x = rng.standard_normal((1, c, ih, iw)).astype(dtype)
    wt = (rng.standard_normal((m, c, k, k)) / np.sqrt(c * k * k)).astype(dtype)
    b = rng.standard_normal(m).astype(dtype)
    y = F.conv2d(torch.from_numpy(x.astype(np.float64)),
                 torch.from_numpy(wt.astype(np.float64)),
                 torch.from_numpy(b.astype(np.float64)), stride=stride,
                 padding=pad)
    assert y.shape[2:] == (h, w)
    elem = TensorProto.DOUBLE if dtype == np.float64 else TensorProto.FLOAT
    nodes = [mk("Conv", ["x", "w", "b"], ["y"], kernel_shape=[k, k],
                strides=[stride] * 2, pads=[pad] * 4)]
    inputs = [helper.make_tensor_value_info("x", elem, x.shape)]
    feeds = [x]
    inits = [numpy_helper.from_array(wt, "w"), numpy_helper.from_array(b, "b")]
    last = "y"
    if act == "clip":
        inits += [numpy_helper.from_array(np.array(0, dtype), "lo"),
                  numpy_helper.from_array(np.array(6, dtype), "hi")]
        nodes.append(mk("Clip", [last, "lo", "hi"], ["a"]))
        y = y.clamp(0, 6)
    elif act == "relu":
        nodes.append(mk("Relu", [last], ["a"]))
        y = y.relu()
    elif act == "hardswish":
        nodes.append(mk("HardSwish", [last], ["a"]))
        y = F.hardswish(y)
    if act:
        last = "a"
    if residual:
        r = rng.standard_normal(tuple(y.shape)).astype(dtype)
        inputs.append(helper.make_tensor_value_info("r", elem, r.shape))
        feeds.append(r)
        nodes.append(mk("Add", [last, "r"], ["s"]))
        y = y + torch.from_numpy(r.astype(np.float64))
        last = "s"
    nodes.append(mk("Identity", [last], ["out"]))
    graph = helper.make_graph(
        nodes, name, inputs,
        [helper.make_tensor_value_info("out", elem, tuple(y.shape))], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    onnx.save(model, f"{out_dir}/{name}.onnx")
    for i, f in enumerate(feeds):
        np.save(f"{out_dir}/{name}.input_{i}.npy", f)
    np.save(f"{out_dir}/{name}.expected.npy", y.numpy().astype(dtype))
    return name


def main(out_dir):
    names = [
        conv(out_dir, "p7_1x1_m960_clip", 160, 960, 1, (7, 7), act="clip"),
        conv(out_dir, "p7_1x1_m1001_k1152", 1152, 1001, 1, (7, 7)),
        conv(out_dir, "p7_3x3_m100_relu_res", 33, 100, 3, (7, 7), act="relu",
             residual=True),
        conv(out_dir, "p7_3x3_s2_m24_hswish", 16, 24, 3, (7, 7), stride=2,
             act="hardswish"),
        conv(out_dir, "p5_1x1_m100_res", 33, 100, 1, (5, 5), residual=True),
        conv(out_dir, "p5x3_1x1_m100", 33, 100, 1, (5, 3)),
        conv(out_dir, "p1_1x1_m960_hswish", 24, 960, 1, (1, 1),
             act="hardswish"),
        conv(out_dir, "p1_3x3_m24", 16, 24, 3, (1, 1)),
        conv(out_dir, "p9x7_1x1_m100", 33, 100, 1, (9, 7), act="relu"),
        conv(out_dir, "p14_3x3_m24_res", 16, 24, 3, (14, 14), residual=True),
        conv(out_dir, "p7_1x1_m100_f64_clip", 33, 100, 1, (7, 7), act="clip",
             dtype=np.float64),
        conv(out_dir, "p7_3x3_m24_f64_res", 16, 24, 3, (7, 7), residual=True,
             dtype=np.float64),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

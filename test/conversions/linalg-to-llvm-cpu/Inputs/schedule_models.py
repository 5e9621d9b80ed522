"""Writes ONNX models whose contractions and elementwise ops
kiln-tile-and-vectorize schedules, on awkward shapes: primes, remainders of the register tile, 1-sized dims,
batches, strides, dilations, padding. For each NAME: DIR/NAME.onnx, its
inputs DIR/NAME.input_K.npy and NumPy's float64 reference output
DIR/NAME.expected.npy; DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(11)
mk = helper.make_node


def rand(shape):
    return rng.standard_normal(shape).astype(np.float32)


def save(out_dir, name, nodes, inputs, inits, expected):
    graph = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(f"x{k}", TensorProto.FLOAT, a.shape)
         for k, a in enumerate(inputs)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                       expected.shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    for k, a in enumerate(inputs):
        np.save(f"{out_dir}/{name}.input_{k}.npy", a)
    np.save(f"{out_dir}/{name}.expected.npy", expected.astype(np.float32))
    return name


def matmul(out_dir, name, a_shape, b_shape):
    a, b = rand(a_shape), rand(b_shape)
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    return save(out_dir, name, [mk("MatMul", ["x0", "x1"], ["y"])], [a, b],
                {}, ref)


def gemm_bias_relu(out_dir, name, m, k, n):
    a, w, bias = rand((m, k)), rand((n, k)), rand((n,))
    ref = a.astype(np.float64) @ w.astype(np.float64).T + bias
    ref = np.maximum(ref, 0)
    nodes = [mk("Gemm", ["x0", "w", "b"], ["g"], transB=1),
             mk("Relu", ["g"], ["y"])]
    return save(out_dir, name, nodes, [a], {"w": w, "b": bias}, ref)


def conv_ref(x, w, bias, strides, pads, dilations):
    x = np.pad(x.astype(np.float64),
               ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
    n, _, h, wd = x.shape
    m, _, kh, kw = w.shape
    oh = (h - dilations[0] * (kh - 1) - 1) // strides[0] + 1
    ow = (wd - dilations[1] * (kw - 1) - 1) // strides[1] + 1
    y = np.zeros((n, m, oh, ow))
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            tap = x[:, :, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                    c0:c0 + strides[1] * (ow - 1) + 1:strides[1]]
            y += np.einsum("nchw,mc->nmhw", tap, w[:, :, i, j])
    if bias is not None:
        y += bias.reshape(1, m, 1, 1)
    return y


def conv(out_dir, name, x_shape, w_shape, bias=True, strides=(1, 1),
         pads=(0, 0, 0, 0), dilations=(1, 1), relu=False):
    x, w = rand(x_shape), rand(w_shape) * 0.2
    b = rand((w_shape[0],)) if bias else None
    ref = conv_ref(x, w, b, strides, pads, dilations)
    inits = {"w": w}
    ins = ["x0", "w"]
    if bias:
        inits["b"] = b
        ins.append("b")
    nodes = [mk("Conv", ins, ["c" if relu else "y"], strides=list(strides),
                pads=list(pads), dilations=list(dilations))]
    if relu:
        nodes.append(mk("Relu", ["c"], ["y"]))
        ref = np.maximum(ref, 0)
    return save(out_dir, name, nodes, [x], inits, ref)


def conv_epilogue(out_dir, name, x_shape, w_shape, pads, residual, clip):
    """A conv with bias, then an Add of a second input of the output's shape
    (a residual) and a Relu, or a Clip to [0, 6] (ReLU6): graph-fuse's
    conv_epilogue groups, tiled with the conv in kiln-fuse-groups."""
    x, w, b = rand(x_shape), rand(w_shape) * 0.2, rand((w_shape[0],))
    ref = conv_ref(x, w, b, (1, 1), pads, (1, 1))
    inputs = [x]
    nodes = [mk("Conv", ["x0", "w", "b"], ["c"], pads=list(pads))]
    src = "c"
    if residual:
        r = rand(ref.shape)
        inputs.append(r)
        ref = ref + r
        nodes.append(mk("Add", ["c", "x1"], ["s"]))
        src = "s"
    inits = {"w": w, "b": b}
    if clip:
        inits["lo"] = np.array(0, np.float32)
        inits["hi"] = np.array(6, np.float32)
        nodes.append(mk("Clip", [src, "lo", "hi"], ["y"]))
        ref = np.clip(ref, 0, 6)
    else:
        nodes.append(mk("Relu", [src], ["y"]))
        ref = np.maximum(ref, 0)
    return save(out_dir, name, nodes, inputs, inits, ref)


def elementwise(out_dir, name, shape, transpose):
    """y = x * sigmoid(x) + b (b broadcast along the last dim), or with x
    transposed (last two dims swapped) first."""
    x = rand(shape)
    xt = np.swapaxes(x, -1, -2) if transpose else x
    b = rand((xt.shape[-1],))
    x64 = xt.astype(np.float64)
    ref = x64 / (1 + np.exp(-x64)) + b
    nodes = []
    src = "x0"
    if transpose:
        perm = list(range(len(shape)))
        perm[-1], perm[-2] = perm[-2], perm[-1]
        nodes.append(mk("Transpose", ["x0"], ["t"], perm=perm))
        src = "t"
    nodes += [mk("Sigmoid", [src], ["s"]), mk("Mul", [src, "s"], ["m"]),
              mk("Add", ["m", "b"], ["y"])]
    return save(out_dir, name, nodes, [x], {"b": b}, ref)


def main(out_dir):
    names = [
        matmul(out_dir, "mm_primes", (13, 17), (17, 19)),
        matmul(out_dir, "mm_remainders", (37, 64), (64, 33)),
        matmul(out_dir, "mm_one_row", (1, 300), (300, 40)),
        gemm_bias_relu(out_dir, "gemv_narrow_remainder", 1, 97, 1000),
        matmul(out_dir, "mm_one_col", (70, 90), (90, 1)),
        matmul(out_dir, "mm_threads", (100, 129), (129, 301)),
        matmul(out_dir, "mm_batched", (3, 13, 70), (3, 70, 29)),
        matmul(out_dir, "mm_broadcast", (2, 3, 11, 50), (50, 17)),
        gemm_bias_relu(out_dir, "gemm_transb", 5, 131, 23),
        conv(out_dir, "conv_strided_pad", (1, 3, 17, 13), (5, 3, 3, 3),
             strides=(2, 2), pads=(1, 1, 1, 1)),
        conv(out_dir, "conv_pointwise_batch", (2, 5, 9, 11), (7, 5, 1, 1),
             bias=False),
        conv(out_dir, "conv_pointwise_strided", (1, 16, 20, 20), (12, 16, 1, 1),
             strides=(2, 2)),
        conv(out_dir, "conv_dilated", (1, 7, 12, 10), (9, 7, 3, 2),
             dilations=(2, 3), pads=(2, 0, 1, 3)),
        conv(out_dir, "conv_wide", (1, 32, 15, 23), (40, 32, 3, 3),
             pads=(1, 1, 1, 1), relu=True),
        # More than 64 taps, strided: the window tensor is one gather.
        conv(out_dir, "conv_patches", (1, 3, 37, 46), (10, 3, 9, 9),
             strides=(9, 9)),
        conv(out_dir, "conv_large_kernel", (2, 3, 29, 37), (5, 3, 9, 8),
             strides=(2, 3), pads=(3, 1, 2, 4), dilations=(1, 2)),
        conv_epilogue(out_dir, "conv_residual_relu", (2, 24, 29, 31),
                      (36, 24, 3, 3), (1, 1, 1, 1), residual=True,
                      clip=False),
        conv_epilogue(out_dir, "conv_pointwise_relu6", (1, 64, 7, 7),
                      (160, 64, 1, 1), (0, 0, 0, 0), residual=False,
                      clip=True),
        conv_epilogue(out_dir, "conv_window_fused", (1, 5, 40, 29),
                      (19, 5, 3, 3), (1, 1, 1, 1), residual=True,
                      clip=False),
        conv_epilogue(out_dir, "conv_tall_residual_relu6", (1, 8, 37, 41),
                      (13, 8, 1, 1), (0, 0, 0, 0), residual=True, clip=True),
        elementwise(out_dir, "ew_broadcast", (3, 37, 59), False),
        elementwise(out_dir, "ew_transposed", (2, 45, 61), True),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

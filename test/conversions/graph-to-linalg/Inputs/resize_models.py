"""Writes ONNX Resize models (opset 13) on awkward shapes: linear and
nearest, integer factors 2, 3, 4 and mixed ones per axis (the phase
passes), every coordinate_transformation_mode and nearest_mode, scales and
sizes, batch 2, ranks 3 to 5, and the shapes the phase passes leave to the
gather lowering (align_corners, non-integer factors, downscaling, cubic).
References: ONNX's own reference implementation (NumPy) for the small
ones, PyTorch's F.interpolate in float64 for the larger ones. For each
NAME: DIR/NAME.onnx, DIR/NAME.input_0.npy, DIR/NAME.expected.npy;
DIR/models.txt lists the names.
"""
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import TensorProto, helper, numpy_helper
from onnx.backend.test.case.node import resize as R

rng = np.random.default_rng(20)


def onnx_reference(x, mode, coord, nearest, scales, sizes, cubic_a=-0.75):
    if mode == "nearest":
        coeffs = lambda ratio: R.nearest_coeffs(ratio, mode=nearest)
    elif mode == "linear":
        coeffs = R.linear_coeffs
    else:
        coeffs = lambda ratio: R.cubic_coeffs(ratio, A=cubic_a)
    return R.interpolate_nd(
        x.astype(np.float64), coeffs,
        output_size=None if sizes is None else list(sizes),
        scale_factors=None if scales is None else list(scales),
        coordinate_transformation_mode=coord)


def torch_reference(x, mode, coord, sizes):
    t = torch.from_numpy(x.astype(np.float64))
    if mode == "nearest":  # ONNX asymmetric + floor
        return F.interpolate(t, size=sizes[2:], mode="nearest").numpy()
    n = x.ndim - 2
    tm = ("linear", "bilinear", "trilinear")[n - 1]
    return F.interpolate(t, size=sizes[2:], mode=tm,
                         align_corners=coord == "align_corners").numpy()


def resize(out_dir, name, shape, mode, coord="half_pixel",
           nearest="round_prefer_floor", scales=None, sizes=None,
           use_torch=False):
    x = rng.standard_normal(shape).astype(np.float32)
    if use_torch:
        ref = torch_reference(x, mode, coord, sizes)
    else:
        ref = onnx_reference(x, mode, coord, nearest, scales, sizes)
    inits = [numpy_helper.from_array(np.zeros(0, np.float32), "roi")]
    if scales is not None:
        inits.append(numpy_helper.from_array(
            np.array(scales, np.float32), "scales"))
        ins = ["x0", "roi", "scales"]
    else:
        inits.append(numpy_helper.from_array(
            np.array(sizes, np.int64), "sizes"))
        ins = ["x0", "roi", "", "sizes"]
    node = helper.make_node("Resize", ins, ["y"], mode=mode,
                            coordinate_transformation_mode=coord,
                            nearest_mode=nearest)
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info("x0", TensorProto.FLOAT, x.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ref.shape)],
        inits)
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 13)])
    onnx.checker.check_model(model)
    onnx.save(model, f"{out_dir}/{name}.onnx")
    np.save(f"{out_dir}/{name}.input_0.npy", x)
    np.save(f"{out_dir}/{name}.expected.npy", ref.astype(np.float32))
    return name


def main(out_dir):
    names = [
        # phase passes: linear
        resize(out_dir, "lin_half_s2", (1, 3, 7, 9), "linear",
               scales=[1, 1, 2, 2]),
        resize(out_dir, "lin_pytorch_s2_b2", (2, 4, 5, 6), "linear",
               "pytorch_half_pixel", scales=[1, 1, 2, 2]),
        resize(out_dir, "lin_asym_s3", (1, 2, 5, 7), "linear", "asymmetric",
               scales=[1, 1, 3, 3]),
        resize(out_dir, "lin_half_s2_s3", (1, 2, 6, 5), "linear",
               scales=[1, 1, 2, 3]),
        resize(out_dir, "lin_half_sizes_s4", (1, 2, 3, 5), "linear",
               sizes=[1, 2, 12, 20]),
        resize(out_dir, "lin_half_w_only", (2, 3, 4, 11), "linear",
               scales=[1, 1, 1, 2]),
        resize(out_dir, "lin_1d_s3", (1, 3, 10), "linear",
               scales=[1, 1, 3]),
        resize(out_dir, "lin_big_s2", (1, 16, 28, 30), "linear",
               sizes=[1, 16, 56, 60], use_torch=True),
        resize(out_dir, "lin_3d_s2", (1, 2, 3, 4, 5), "linear",
               sizes=[1, 2, 6, 8, 10], use_torch=True),
        # phase passes: nearest, every nearest_mode
        resize(out_dir, "near_asym_floor_s2", (1, 3, 7, 9), "nearest",
               "asymmetric", "floor", scales=[1, 1, 2, 2]),
        resize(out_dir, "near_half_rpf_s3", (1, 2, 5, 7), "nearest",
               scales=[1, 1, 3, 3]),
        resize(out_dir, "near_half_rpc_s4", (1, 2, 5, 3), "nearest",
               nearest="round_prefer_ceil", scales=[1, 1, 4, 4]),
        resize(out_dir, "near_asym_ceil_s3", (1, 2, 4, 6), "nearest",
               "asymmetric", "ceil", scales=[1, 1, 3, 3]),
        resize(out_dir, "near_half_floor_s2", (1, 2, 5, 6), "nearest",
               nearest="floor", scales=[1, 1, 2, 2]),
        resize(out_dir, "near_pytorch_s2_s3", (2, 3, 5, 4), "nearest",
               "pytorch_half_pixel", "round_prefer_ceil",
               scales=[1, 1, 2, 3]),
        resize(out_dir, "near_big_b2", (2, 8, 15, 31), "nearest",
               "asymmetric", "floor", sizes=[2, 8, 30, 62], use_torch=True),
        resize(out_dir, "near_3d_s2", (1, 2, 3, 4, 5), "nearest",
               "asymmetric", "floor", scales=[1, 1, 2, 2, 2]),
        # left to the gather lowering
        resize(out_dir, "lin_align_s2", (1, 3, 7, 9), "linear",
               "align_corners", scales=[1, 1, 2, 2]),
        resize(out_dir, "near_align_ceil_s2", (1, 2, 5, 6), "nearest",
               "align_corners", "ceil", scales=[1, 1, 2, 2]),
        resize(out_dir, "lin_sizes_7_to_11", (1, 3, 7, 9), "linear",
               sizes=[1, 3, 11, 13]),
        resize(out_dir, "lin_half_s1_5", (1, 2, 6, 8), "linear",
               scales=[1, 1, 1.5, 1.5]),
        resize(out_dir, "lin_down_s0_5", (1, 2, 8, 10), "linear",
               scales=[1, 1, 0.5, 0.5]),
        resize(out_dir, "cubic_s2", (1, 2, 5, 6), "cubic",
               scales=[1, 1, 2, 2]),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

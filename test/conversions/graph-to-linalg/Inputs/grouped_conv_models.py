"""Writes grouped ONNX Conv models (not depthwise) on awkward shapes for the
grouped im2col path and kiln-fuse-groups' grouped tiles: groups 2, 3, 4, 8,
25 and 32 with group widths 1 to 64 (wider than one 32-channel tile too),
3x3, 5x5 and 1x1 kernels, strides 1 and 2, dilation 2, odd planes (7x7,
15x9, 11x13), batch 2, 1-D and 3-D ones, with and without bias, with Relu
and residual Add + Relu epilogues. Files as conv_models.py writes them
(its conv() builds each); DIR/models.txt lists the names.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from conv_models import conv  # noqa: E402


def main(out_dir):
    names = [
        # RegNetX-400MF's stage 4: 25 groups of 16 on a 7x7 plane
        conv(out_dir, "g25_w16_7x7_relu", (1, 400, 7, 7), (400, 16, 3, 3),
             groups=25, pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "g2_w16_7x7_residual", (1, 32, 7, 7), (32, 16, 3, 3),
             groups=2, pads=[1, 1, 1, 1], residual=True, relu=True),
        conv(out_dir, "g3_w5_15x9_residual", (1, 15, 15, 9), (9, 5, 3, 3),
             groups=3, pads=[1, 1, 1, 1], residual=True, relu=True),
        # ResNeXt-style: 32 groups of 4
        conv(out_dir, "g32_w4_residual", (1, 128, 14, 14), (128, 4, 3, 3),
             groups=32, pads=[1, 1, 1, 1], residual=True, relu=True),
        # a channel multiplier (group width 1 in, 2 out), 5x5
        conv(out_dir, "g8_w1_k5_relu", (1, 8, 11, 13), (16, 1, 5, 5),
             groups=8, pads=[2, 2, 2, 2], relu=True),
        # groups wider than a 32-channel tile: one group of 48 per tile
        conv(out_dir, "g2_w48_relu", (1, 8, 9, 9), (96, 4, 3, 3), groups=2,
             pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "g2_w64_s2_relu", (1, 128, 15, 15), (128, 64, 3, 3),
             groups=2, strides=[2, 2], pads=[1, 1, 1, 1], relu=True),
        conv(out_dir, "g4_w8_k5_d2_relu", (1, 32, 15, 9), (32, 8, 5, 5),
             groups=4, dilations=[2, 2], pads=[4, 4, 4, 4], relu=True),
        conv(out_dir, "g8_w6_k1_residual", (1, 48, 9, 7), (24, 6, 1, 1),
             groups=8, residual=True, relu=True, bias=False),
        conv(out_dir, "g3_batch2_asym_relu", (2, 12, 10, 11), (12, 4, 3, 3),
             groups=3, pads=[0, 1, 2, 1], relu=True, bias=False),
        conv(out_dir, "g4_1d_residual", (1, 16, 53), (16, 4, 3), groups=4,
             pads=[1, 1], residual=True, relu=True),
        conv(out_dir, "g4_3d_relu", (1, 8, 5, 7, 6), (8, 2, 3, 3, 3),
             groups=4, pads=[1, 1, 1, 1, 1, 1], relu=True),
    ]
    with open(f"{out_dir}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])

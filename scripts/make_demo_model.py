#!/usr/bin/python3
"""Makes Kiln's bundled demo model: a small CNN that names simple shapes.

usage: /usr/bin/python3 scripts/make_demo_model.py [OUT_DIR]

OUT_DIR defaults to examples/shapes/. It writes

  shapes_cnn.onnx        the model (opset 13; input "image" f32[1,1,32,32],
                         output "probabilities" f32[1,6])
  labels.txt             the six class names, one per line, in output order
  SHAPE.npy              one test image per class (f32[1,1,32,32])
  SHAPE.expected.npy     PyTorch's output for that image (f32[1,6])

The network is a real, trained one: three conv + BatchNorm + ReLU blocks
(16, 32 and 64 channels; max-pooling after the first two), global average
pooling, a linear layer and a softmax, about 24 thousand parameters. It is
trained here, in about a minute on two cores, on images drawn by this
script: white shapes (circle, square, triangle, cross, ring, bar) of random
size, position and brightness on a noisy black background. Every random
number comes from fixed seeds, so the data and the initial weights are
always the same; the committed model is the one this script wrote (float
rounding in PyTorch's threaded kernels can make a rerun's weights differ in
the last bits, which is why the model is committed, not rebuilt).

Needs Debian's python3-torch and python3-onnx, under /usr/bin/python3.
"""
import io
import math
import os
import sys

import numpy as np
import torch
from torch import nn

LABELS = ["circle", "square", "triangle", "cross", "ring", "bar"]
SIZE = 32


def draw(kind, rng):
    """One SIZE x SIZE image of shape `kind` (an index into LABELS)."""
    y, x = np.mgrid[0:SIZE, 0:SIZE].astype(np.float32) + 0.5
    cy, cx = rng.uniform(11, SIZE - 11, size=2)
    r = rng.uniform(5.5, 9.5)
    dy, dx = y - cy, x - cx
    name = LABELS[kind]
    if name == "circle":
        mask = dy * dy + dx * dx <= r * r
    elif name == "square":
        a = rng.uniform(0, math.pi / 2)  # rotated squares too
        u, v = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        mask = (np.abs(u) <= r * 0.8) & (np.abs(v) <= r * 0.8)
    elif name == "triangle":
        a = rng.uniform(0, 2 * math.pi)
        mask = np.ones_like(x, dtype=bool)
        for k in range(3):  # inside all three edges of an equilateral one
            t = a + k * 2 * math.pi / 3
            mask &= dx * math.cos(t) + dy * math.sin(t) <= r * 0.5
    elif name == "cross":
        w = r * rng.uniform(0.25, 0.4)
        mask = ((np.abs(dx) <= w) & (np.abs(dy) <= r)) | ((np.abs(dy) <= w) & (np.abs(dx) <= r))
    elif name == "ring":
        d2 = dy * dy + dx * dx
        mask = (d2 <= r * r) & (d2 >= (r * 0.55) ** 2)
    else:  # bar: a long thin rectangle at any angle
        a = rng.uniform(0, math.pi)
        u, v = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
        mask = (np.abs(u) <= r * 1.2) & (np.abs(v) <= r * 0.25)
    image = mask.astype(np.float32) * rng.uniform(0.6, 1.0)
    image += rng.normal(0, 0.08, size=image.shape).astype(np.float32)
    return image


def batch(rng, n):
    kinds = rng.integers(0, len(LABELS), size=n)
    images = np.stack([draw(k, rng) for k in kinds])[:, None]
    return torch.from_numpy(images), torch.from_numpy(kinds.astype(np.int64))


class ShapesCNN(nn.Module):
    def __init__(self):
        super().__init__()

        def block(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False),
                    nn.BatchNorm2d(cout), nn.ReLU()]

        self.features = nn.Sequential(
            *block(1, 16), nn.MaxPool2d(2),
            *block(16, 32), nn.MaxPool2d(2),
            *block(32, 64), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(64, len(LABELS))

    def forward(self, image):
        logits = self.classifier(torch.flatten(self.features(image), 1))
        return torch.softmax(logits, dim=1)


def train(model, rng):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    loss_fn = nn.NLLLoss()
    steps = 1200
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    model.train()
    for step in range(steps):
        images, kinds = batch(rng, 64)
        loss = loss_fn(torch.log(model(images) + 1e-9), kinds)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        if step % 200 == 0 or step == steps - 1:
            print(f"  step {step:4d}  loss {loss.item():.4f}", flush=True)
    model.eval()


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "examples", "shapes")
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    model = ShapesCNN()
    print("training the demo CNN on drawn shapes (fixed seeds)")
    train(model, rng)

    with torch.no_grad():
        images, kinds = batch(np.random.default_rng(1), 2000)
        accuracy = (model(images).argmax(1) == kinds).float().mean().item()
    print(f"accuracy on 2000 new images: {accuracy * 100:.1f}%")

    buffer = io.BytesIO()
    example = torch.zeros(1, 1, SIZE, SIZE)
    torch.onnx.export(model, (example,), buffer, opset_version=13,
                      input_names=["image"], output_names=["probabilities"],
                      do_constant_folding=False,
                      # Keeps BatchNormalization nodes (as many exporters
                      # do) instead of folding them into the convolutions:
                      # that is Kiln's job (graph-fold-batchnorm).
                      training=torch.onnx.TrainingMode.PRESERVE)
    with open(os.path.join(out, "shapes_cnn.onnx"), "wb") as f:
        f.write(buffer.getvalue())
    with open(os.path.join(out, "labels.txt"), "w") as f:
        f.write("\n".join(LABELS) + "\n")

    samples = np.random.default_rng(2)
    with torch.no_grad():
        for kind, name in enumerate(LABELS):
            image = torch.from_numpy(draw(kind, samples)[None, None])
            np.save(os.path.join(out, f"{name}.npy"), image.numpy())
            np.save(os.path.join(out, f"{name}.expected.npy"), model(image).numpy())
    print(f"wrote {out}/shapes_cnn.onnx ({len(buffer.getvalue())} bytes), "
          f"labels.txt and {len(LABELS)} sample images with PyTorch's outputs")


if __name__ == "__main__":
    main()

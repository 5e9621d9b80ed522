#!/usr/bin/env python3
"""Classifies an image with a model Kiln compiles, from Python: the Python
twin of classify.c. With the build tree's package on the path:

    PYTHONPATH=build/python python3 examples/classify.py \
        examples/shapes/shapes_cnn.onnx examples/shapes/ring.npy \
        --labels examples/shapes/labels.txt

MODEL is an ONNX file (compiled first) or a model library (.so).
"""

import argparse

import numpy as np

import kiln


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model", help="MODEL.onnx or MODEL.so")
    p.add_argument("input", help="the input tensor, a .npy file")
    p.add_argument("--labels", help="class names, one per line")
    p.add_argument("--top", type=int, default=5)
    p.add_argument("--threads", type=int)
    a = p.parse_args()
    if a.model.endswith(".onnx"):
        model = kiln.compile(a.model, threads=a.threads)
    else:
        model = kiln.load(a.model, threads=a.threads)
    scores = model.run(np.load(a.input))[0].reshape(-1)
    labels = (open(a.labels).read().splitlines() if a.labels
              else [str(i) for i in range(scores.size)])
    print("top %d of '%s' (%d scores):" % (min(a.top, scores.size),
                                          model.outputs[0].name, scores.size))
    for rank, i in enumerate(np.argsort(-scores)[:a.top], 1):
        print("  %d. %s (class %d)  score %g" % (rank, labels[i], i,
                                                 scores[i]))


if __name__ == "__main__":
    try:
        main()
    except kiln.KilnError as e:
        raise SystemExit("classify.py: error: %s" % e)

#!/usr/bin/python3
"""Prints the decoded size in bytes of a model's initializers (its weights).

usage: /usr/bin/python3 bench/weight_bytes.py MODEL.onnx

Used by bench/compile.sh and bench/import-memory.sh.
"""
import sys

import onnx
from onnx import numpy_helper

model = onnx.load(sys.argv[1])
print(sum(numpy_helper.to_array(t).nbytes for t in model.graph.initializer))

"""Writes an ONNX model full of what graph-simplify rewrites, an input and
the output numpy computes for it (graph-simplify-run.test).

usage: simplify_model.py DIR   writes DIR/simplify.onnx, simplify.input_0.npy
                               and simplify.output_0.npy
Runs under Debian's /usr/bin/python3 with python3-onnx and numpy.

The graph (x: [4, 16] f32, opset 13):
  LayerNorm decomposed as PyTorch exports it below opset 17 (random gamma,
  beta); GELU from Erf in PyTorch's order; MatMul + Add (a Gemm); inference
  Dropout; Identity; transpose pair; reshape pair; exact cast pair
  (f32 -> f64 -> f32); x * 1 and x + 0 with all-equal dense constants; a
  second GELU in TF's order with x * 0.7071...; neg pair.
"""
import math
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def erf(a):
    return np.vectorize(math.erf)(a.astype(np.float64))


def gelu(a):
    return 0.5 * a * (1.0 + erf(a / math.sqrt(2.0)))


def main(out):
    rng = np.random.default_rng(7)
    gamma = rng.standard_normal(16).astype(np.float32)
    beta = rng.standard_normal(16).astype(np.float32)
    w = (rng.standard_normal((16, 8)) / 4).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    x = rng.standard_normal((4, 16)).astype(np.float32)

    def const(name, value, dtype=np.float32):
        return numpy_helper.from_array(np.asarray(value, dtype), name)

    inits = [
        const("gamma", gamma), const("beta", beta), const("w", w),
        const("b", b), const("two", 2.0), const("eps", 1e-5),
        const("sqrt2", math.sqrt(2.0)), const("rsqrt2", 1 / math.sqrt(2.0)),
        const("one", 1.0), const("half", 0.5), const("ratio", 0.25),
        # Not splats in the file: raw data of equal elements.
        const("ones8", np.ones(8)), const("zeros8", np.zeros(8)),
        const("shape_a", [2, 16], np.int64), const("shape_b", [4, 8], np.int64),
    ]
    N = helper.make_node
    nodes = [
        # LayerNorm over the last axis.
        N("ReduceMean", ["x"], ["m"], axes=[-1]),
        N("Sub", ["x", "m"], ["d"]),
        N("Pow", ["d", "two"], ["d2"]),
        N("ReduceMean", ["d2"], ["v"], axes=[-1]),
        N("Add", ["v", "eps"], ["ve"]),
        N("Sqrt", ["ve"], ["sd"]),
        N("Div", ["d", "sd"], ["n"]),
        N("Mul", ["n", "gamma"], ["ng"]),
        N("Add", ["ng", "beta"], ["ln"]),
        # GELU, PyTorch's order.
        N("Div", ["ln", "sqrt2"], ["g0"]),
        N("Erf", ["g0"], ["g1"]),
        N("Add", ["g1", "one"], ["g2"]),
        N("Mul", ["ln", "g2"], ["g3"]),
        N("Mul", ["g3", "half"], ["g"]),
        # Gemm.
        N("MatMul", ["g", "w"], ["mm"]),
        N("Add", ["mm", "b"], ["fc"]),
        # No-ops and pairs.
        N("Dropout", ["fc", "ratio"], ["dr"]),
        N("Identity", ["dr"], ["id"]),
        N("Transpose", ["id"], ["t1"], perm=[1, 0]),
        N("Transpose", ["t1"], ["t2"], perm=[1, 0]),
        N("Reshape", ["t2", "shape_a"], ["r1"]),
        N("Reshape", ["r1", "shape_b"], ["r2"]),
        N("Cast", ["r2"], ["c1"], to=TensorProto.DOUBLE),
        N("Cast", ["c1"], ["c2"], to=TensorProto.FLOAT),
        N("Mul", ["c2", "ones8"], ["u1"]),
        N("Add", ["zeros8", "u1"], ["u2"]),
        # GELU, TF's order: (0.5 * x) * (1 + erf(x * 0.7071...)).
        N("Mul", ["half", "u2"], ["h0"]),
        N("Mul", ["u2", "rsqrt2"], ["h1"]),
        N("Erf", ["h1"], ["h2"]),
        N("Add", ["one", "h2"], ["h3"]),
        N("Mul", ["h0", "h3"], ["h"]),
        N("Neg", ["h"], ["n1"]),
        N("Neg", ["n1"], ["y"]),
    ]
    g = helper.make_graph(
        nodes, "simplify",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8])],
        inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])

    x64 = x.astype(np.float64)
    mean = x64.mean(-1, keepdims=True)
    var = ((x64 - mean) ** 2).mean(-1, keepdims=True)
    ln = (x64 - mean) / np.sqrt(var + 1e-5) * gamma + beta
    y = gelu(gelu(ln) @ w + b)

    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "simplify.onnx"), "wb") as f:
        f.write(model.SerializeToString())
    np.save(os.path.join(out, "simplify.input_0.npy"), x)
    np.save(os.path.join(out, "simplify.output_0.npy"), y.astype(np.float32))


if __name__ == "__main__":
    main(sys.argv[1])

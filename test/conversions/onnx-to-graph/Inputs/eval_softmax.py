"""Checks the meaning of an imported Softmax, LogSoftmax or Hardmax model.

usage: eval_softmax.py MODEL.onnx IMPORTED.mlir
Runs the graph ops of IMPORTED.mlir (kiln-compile --emit=graph of MODEL, a
single-node model from make_model.py legacy_softmax) with numpy on a random
input, and compares with ONNX's definition of the node at the model's
opset: before 13 the input is coerced to 2-D at `axis` (default 1), from
13 on the op runs along `axis` (default -1). Prints OK or MISMATCH.
Runs under Debian's /usr/bin/python3 with python3-onnx.
"""
import re
import sys

import numpy as np
import onnx


def softmax(x, axis):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def hardmax(x, axis):
    idx = np.expand_dims(x.argmax(axis=axis), axis)
    y = np.zeros_like(x)
    np.put_along_axis(y, idx, 1.0, axis=axis)
    return y


OPS = {"Softmax": softmax, "LogSoftmax": lambda x, a: np.log(softmax(x, a)),
       "Hardmax": hardmax}


def reference(model, x):
    """ONNX's meaning of the model's one node, written from the spec."""
    node = model.graph.node[0]
    opset = [o.version for o in model.opset_import
             if o.domain in ("", "ai.onnx")][0]
    axis = {a.name: a.i for a in node.attribute}.get(
        "axis", 1 if opset < 13 else -1)
    axis = axis + x.ndim if axis < 0 else axis
    if opset >= 13:
        return OPS[node.op_type](x, axis)
    flat = x.reshape(int(np.prod(x.shape[:axis])), -1)
    return OPS[node.op_type](flat, 1).reshape(x.shape)


def run_ir(text, args):
    """Evaluates the generic-form graph ops of @main_graph."""
    env = {"%%arg%d" % i: a for i, a in enumerate(args)}
    graph_ops = {
        "softmax": lambda v, at: softmax(v[0], at.get("axis", -1)),
        "log_softmax": lambda v, at: np.log(softmax(v[0], at.get("axis", -1))),
        "hardmax": lambda v, at: hardmax(v[0], at.get("axis", -1)),
        "flatten": lambda v, at: v[0].reshape(
            int(np.prod(v[0].shape[:at.get("axis", 1)])), -1),
        "reshape": lambda v, at: v[0].reshape([int(d) for d in v[1]]),
        "shape": lambda v, at: np.array(v[0].shape, np.int64),
    }
    for line in text.splitlines():
        m = re.match(r'\s*(%\w+) = "graph\.(\w+)"\(([^)]*)\)\s*(\{[^}]*\})?',
                     line)
        if m:
            res, op, operands, attrs = m.groups()
            at = {k: int(v) for k, v in
                  re.findall(r"(\w+) = (-?\d+) : i64", attrs or "")}
            if op == "constant":
                vals = re.search(r"dense<\[?([-\d, ]*)\]?>", line).group(1)
                env[res] = np.array([int(v) for v in vals.split(",")],
                                    np.int64)
                continue
            ins = [env[o.strip()] for o in operands.split(",") if o.strip()]
            env[res] = graph_ops[op](ins, at)
        m = re.match(r"\s*return (%\w+)", line)
        if m:
            return env[m.group(1)]
    raise SystemExit("no return in the imported IR")


def main():
    model = onnx.load(sys.argv[1])
    dims = [d.dim_value for d in
            model.graph.input[0].type.tensor_type.shape.dim]
    x = np.random.default_rng(0).standard_normal(dims).astype(np.float32)
    with open(sys.argv[2]) as f:
        got = run_ir(f.read(), [x])
    want = reference(model, x)
    diff = float(np.abs(got - want).max())
    print("%s max-abs-diff %.3g" % ("OK" if diff < 1e-5 else "MISMATCH", diff))


if __name__ == "__main__":
    main()

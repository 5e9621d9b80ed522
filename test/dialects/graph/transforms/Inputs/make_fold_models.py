"""Makes the ONNX models, inputs and expected outputs of the numerical
tests of graph-fold-constants and graph-fold-batchnorm.

usage: make_fold_models.py {constants|batchnorm|ops} OUTDIR

Writes OUTDIR/model.onnx, OUTDIR/NAME.npy per input and
OUTDIR/NAME.expected.npy per output (computed with numpy/torch); for
`ops`, OUTDIR/model.mlir (one result per float op graph-fold-constants
evaluates, each added to the zero input x: the elementwise ops, mod,
range and scatter_nd) and OUTDIR/x.npy."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)


def const(name, array):
    return helper.make_node("Constant", [], [name],
                            value=numpy_helper.from_array(array, name))


def constants_model():
    """PyTorch's shape subgraph feeding a Reshape, and float constant
    chains (transpose, elementwise math with broadcasting, casts)."""
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    w = rng.standard_normal((4, 6)).astype(np.float32)
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        const("i0", np.array(0, np.int64)),
        const("i1", np.array(1, np.int64)),
        helper.make_node("Gather", ["s", "i0"], ["d0"], axis=0),
        helper.make_node("Gather", ["s", "i1"], ["d1"], axis=0),
        helper.make_node("Mul", ["d0", "d1"], ["d01"]),
        const("ax", np.array([0], np.int64)),
        helper.make_node("Unsqueeze", ["d01", "ax"], ["u"]),
        const("minus1", np.array([-1], np.int64)),
        helper.make_node("Concat", ["u", "minus1"], ["shape"], axis=0),
        helper.make_node("Reshape", ["x", "shape"], ["r"]),
        # Float chain on the initializer w: [4, 6] -> [6, 4].
        helper.make_node("Transpose", ["w"], ["wt"], perm=[1, 0]),
        helper.make_node("Abs", ["wt"], ["wa"]),
        helper.make_node("Sqrt", ["wa"], ["ws"]),
        const("three", np.array([3.0], np.float32)),
        helper.make_node("Div", ["ws", "three"], ["wd"]),
        const("half", np.array(0.5, np.float32)),
        helper.make_node("Neg", ["half"], ["nh"]),
        helper.make_node("Exp", ["nh"], ["e"]),
        helper.make_node("Add", ["wd", "e"], ["k"]),
        # An integer ConstantOfShape cast to float: [4] of 7 -> 7.0.
        const("cshape", np.array([4], np.int64)),
        helper.make_node("ConstantOfShape", ["cshape"], ["sevens"],
                         value=numpy_helper.from_array(
                             np.array([7], np.int64))),
        helper.make_node("Cast", ["sevens"], ["sevensf"],
                         to=TensorProto.FLOAT),
        helper.make_node("Reciprocal", ["sevensf"], ["inv7"]),
        helper.make_node("Mul", ["r", "k"], ["rk"]),
        helper.make_node("Add", ["rk", "inv7"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes, "fold_constants",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [6, 4])],
        [numpy_helper.from_array(w, "w")])
    wd = np.sqrt(np.abs(w.T)) / np.float32(3)
    k = wd + np.exp(np.float32(-0.5))
    y = x.reshape(6, 4) * k + np.float32(1) / np.float32(7)
    return graph, {"x": x}, {"y": y.astype(np.float32)}


def bn_params(c):
    return (rng.uniform(0.5, 1.5, c).astype(np.float32),
            rng.standard_normal(c).astype(np.float32),
            rng.standard_normal(c).astype(np.float32),
            rng.uniform(0.5, 2.0, c).astype(np.float32))


def batchnorm_model():
    """conv+BN (with and without bias, grouped), gemm+BN (transB, alpha,
    beta, C), 2-D matmul+BN and a BN on a graph input."""
    import torch
    import torch.nn.functional as F
    x = rng.standard_normal((1, 3, 8, 8)).astype(np.float32)
    z = rng.standard_normal((2, 5)).astype(np.float32)
    w1 = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    b1 = rng.standard_normal(4).astype(np.float32)
    w2 = rng.standard_normal((4, 2, 1, 1)).astype(np.float32)
    wg = rng.standard_normal((4, 5)).astype(np.float32)
    cg = rng.standard_normal(4).astype(np.float32)
    wm = rng.standard_normal((5, 3)).astype(np.float32)
    p1, p2, p3, pg, pm = (bn_params(4), bn_params(4), bn_params(3),
                          bn_params(4), bn_params(3))
    inits = [numpy_helper.from_array(a, n) for a, n in [
        (w1, "w1"), (b1, "b1"), (w2, "w2"), (wg, "wg"), (cg, "cg"),
        (wm, "wm")]]
    nodes = []
    for name, p in [("p1", p1), ("p2", p2), ("p3", p3), ("pg", pg),
                    ("pm", pm)]:
        for k, a in zip(["scale", "b", "mean", "var"], p):
            inits.append(numpy_helper.from_array(a, f"{name}_{k}"))

    def bn(inp, out, p, eps=1e-5):
        return helper.make_node(
            "BatchNormalization",
            [inp, f"{p}_scale", f"{p}_b", f"{p}_mean", f"{p}_var"], [out],
            epsilon=eps)

    nodes += [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1] * 4),
        bn("c1", "n1", "p1"),
        helper.make_node("Relu", ["n1"], ["a1"]),
        helper.make_node("Conv", ["a1", "w2"], ["c2"], group=2),
        bn("c2", "y1", "p2", eps=1e-3),
        bn("x", "y2", "p3"),
        helper.make_node("Gemm", ["z", "wg", "cg"], ["g"], transB=1,
                         alpha=0.5, beta=2.0),
        bn("g", "y3", "pg"),
        helper.make_node("MatMul", ["z", "wm"], ["m"]),
        bn("m", "y4", "pm"),
    ]
    graph = helper.make_graph(
        nodes, "fold_batchnorm",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8]),
         helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 5])],
        [helper.make_tensor_value_info("y1", TensorProto.FLOAT, [1, 4, 8, 8]),
         helper.make_tensor_value_info("y2", TensorProto.FLOAT, [1, 3, 8, 8]),
         helper.make_tensor_value_info("y3", TensorProto.FLOAT, [2, 4]),
         helper.make_tensor_value_info("y4", TensorProto.FLOAT, [2, 3])],
        inits)
    t = torch.from_numpy

    def tbn(v, p, eps=1e-5):
        s, b, m, var = map(t, p)
        return F.batch_norm(v, m, var, s, b, False, 0.0, eps)

    with torch.no_grad():
        a1 = F.relu(tbn(F.conv2d(t(x), t(w1), t(b1), padding=1), p1))
        y1 = tbn(F.conv2d(a1, t(w2), groups=2), p2, 1e-3)
        y2 = tbn(t(x), p3)
        y3 = tbn(0.5 * t(z) @ t(wg).T + 2.0 * t(cg), pg)
        y4 = tbn(t(z) @ t(wm), pm)
    outs = {n: v.numpy() for n, v in
            [("y1", y1), ("y2", y2), ("y3", y3), ("y4", y4)]}
    return graph, {"x": x, "z": z}, outs


UNARY = ["sqrt", "exp", "log", "reciprocal", "sigmoid", "neg", "abs", "relu",
         "floor", "ceil"]
BINARY = ["add", "sub", "mul", "div", "pow", "min", "max"]


def ops_model(outdir):
    """Graph IR (the test input) with every float op on constants."""
    a = rng.uniform(0.1, 4, 64).astype(np.float32)
    b = rng.uniform(-2, 2, 64).astype(np.float32)
    t = "tensor<64xf32>"

    def dense(v):
        return "dense<[%s]> : %s" % (", ".join("%.9e" % x for x in v), t)
    lines = ['  %%a = "graph.constant"() {value = %s} : () -> %s' % (dense(a), t),
             '  %%b = "graph.constant"() {value = %s} : () -> %s' % (dense(b), t)]
    ops = [(u, ["%a" if u in ("sqrt", "log", "reciprocal") else "%b"])
           for u in UNARY] + [(o, ["%a", "%b"]) for o in BINARY]
    results = []
    for i, (op, args) in enumerate(ops):
        types = ", ".join([t] * len(args))
        lines.append('  %%v%d = "graph.%s"(%s) : (%s) -> %s'
                     % (i, op, ", ".join(args), types, t))
        lines.append('  %%r%d = "graph.add"(%%x, %%v%d) : (%s, %s) -> %s'
                     % (i, i, t, t, t))
        results.append("%%r%d" % i)
    # mod (floats: fmod = 1), a float range and a scatter_nd into %a.
    idx = [3, 60, 7, 0, 63, 12, 5, 30]
    upd = rng.uniform(-8, 8, len(idx)).astype(np.float32)
    lines += [
        '  %%v%d = "graph.mod"(%%a, %%b) {fmod = 1 : i64} : (%s, %s) -> %s'
        % (len(results), t, t, t),
        '  %rs = "graph.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>',
        '  %rl = "graph.constant"() {value = dense<23.745> : tensor<f32>} : () -> tensor<f32>',
        '  %rd = "graph.constant"() {value = dense<0.37> : tensor<f32>} : () -> tensor<f32>',
        '  %%v%d = "graph.range"(%%rs, %%rl, %%rd) : (tensor<f32>, tensor<f32>, '
        'tensor<f32>) -> %s' % (len(results) + 1, t),
        '  %%si = "graph.constant"() {value = dense<[%s]> : tensor<8x1xi64>} : '
        '() -> tensor<8x1xi64>' % ", ".join("[%d]" % i for i in idx),
        '  %%su = "graph.constant"() {value = dense<[%s]> : tensor<8xf32>} : '
        '() -> tensor<8xf32>' % ", ".join("%.9e" % u for u in upd),
        '  %%v%d = "graph.scatter_nd"(%%a, %%si, %%su) : (%s, tensor<8x1xi64>, '
        'tensor<8xf32>) -> %s' % (len(results) + 2, t, t)]
    for i in range(len(results), len(results) + 3):
        lines.append('  %%r%d = "graph.add"(%%x, %%v%d) : (%s, %s) -> %s'
                     % (i, i, t, t, t))
        results.append("%%r%d" % i)
    all_types = ", ".join([t] * len(results))
    text = ("func.func @main(%%x: %s) -> (%s) {\n%s\n  return %s : %s\n}\n"
            % (t, all_types, "\n".join(lines), ", ".join(results), all_types))
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "model.mlir"), "w") as f:
        f.write(text)
    np.save(os.path.join(outdir, "x.npy"), np.zeros(64, np.float32))


def main():
    kind, outdir = sys.argv[1], sys.argv[2]
    if kind == "ops":
        ops_model(outdir)
        return
    graph, inputs, outputs = {"constants": constants_model,
                              "batchnorm": batchnorm_model}[kind]()
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    os.makedirs(outdir, exist_ok=True)
    onnx.save(model, os.path.join(outdir, "model.onnx"))
    for name, a in inputs.items():
        np.save(os.path.join(outdir, name + ".npy"), a)
    for name, a in outputs.items():
        np.save(os.path.join(outdir, name + ".expected.npy"), a)


if __name__ == "__main__":
    main()

"""A 2-layer MLP for kiln-compile --shard's tests (shard-run.test,
shard-errors.test), with its NumPy reference.

usage: make_mlp.py OUTDIR

Writes OUTDIR/mlp.onnx (x: 4x16 -> MatMul 16x32 + bias, Relu -> MatMul
32x8 + bias -> y: 4x8), gemm.onnx (the same as PyTorch exports Linear:
Gemm with transB and transposed weights, which the lowering stores flat
and reshapes), x.npy, y.npy (float64 reference cast to f32), and
reshape.onnx (the input itself reshaped to 4x2x8: a reshape no linalg op
takes in, which MLIR's sharding has no interface for)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(5)
w1 = (rng.standard_normal((16, 32)) * 0.3).astype(np.float32)
b1 = rng.standard_normal(32).astype(np.float32)
w2 = (rng.standard_normal((32, 8)) * 0.3).astype(np.float32)
b2 = rng.standard_normal(8).astype(np.float32)
inits = [numpy_helper.from_array(a, n)
         for a, n in [(w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2")]]
x_info = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4, 16])


def save(name, nodes, y_info, extra=()):
    g = helper.make_graph(nodes, name, [x_info], [y_info],
                          inits + list(extra))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, os.path.join(out, name + ".onnx"))


save("mlp",
     [helper.make_node("MatMul", ["x", "w1"], ["h"], name="fc1"),
      helper.make_node("Add", ["h", "b1"], ["hb"], name="add1"),
      helper.make_node("Relu", ["hb"], ["r"], name="relu"),
      helper.make_node("MatMul", ["r", "w2"], ["o"], name="fc2"),
      helper.make_node("Add", ["o", "b2"], ["y"], name="add2")],
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8]))
gemm_inits = [numpy_helper.from_array(np.ascontiguousarray(a.T), n)
              for a, n in [(w1, "w1t"), (w2, "w2t")]]
save("gemm",
     [helper.make_node("Gemm", ["x", "w1t", "b1"], ["h"], transB=1,
                       name="fc1"),
      helper.make_node("Relu", ["h"], ["r"], name="relu"),
      helper.make_node("Gemm", ["r", "w2t", "b2"], ["y"], transB=1,
                       name="fc2")],
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 8]),
     gemm_inits)
save("reshape",
     [helper.make_node("Reshape", ["x", "shape"], ["y"], name="heads")],
     helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 2, 8]),
     [numpy_helper.from_array(np.array([4, 2, 8], np.int64), "shape")])
x = rng.standard_normal((4, 16)).astype(np.float32)
xd = x.astype(np.float64)
y = np.maximum(xd @ w1 + b1, 0) @ w2 + b2
np.save(os.path.join(out, "x.npy"), x)
np.save(os.path.join(out, "y.npy"), y.astype(np.float32))

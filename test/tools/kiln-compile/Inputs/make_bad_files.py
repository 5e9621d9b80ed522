"""Writes the files of exit-codes.test and not-a-model.test into DIR:
unsupported.onnx (an op of an unknown domain), invalid.onnx (a MatMul whose
shapes do not agree), x.npy, and files in the formats people give a model
compiler by mistake, each with its real magic bytes: a zip archive (what
torch.save writes), a pickle (older torch.save), HDF5 (Keras), TFLite,
GGUF and safetensors."""
import json
import pickle
import struct
import sys
import zipfile

import numpy as np
import onnx
from onnx import TensorProto, helper

d = sys.argv[1]


def save(nodes, inputs, outputs, name, inits=(), opsets=(("", 17),)):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    m = helper.make_model(
        g, opset_imports=[helper.make_opsetid(dom, v) for dom, v in opsets])
    onnx.save(m, f"{d}/{name}")


x3 = helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])
save([helper.make_node("Relu", ["X"], ["A"], name="relu0"),
      helper.make_node("FooBar", ["A"], ["Y"], name="foo_node",
                       domain="com.acme")],
     [x3], [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])],
     "unsupported.onnx", opsets=(("", 17), ("com.acme", 1)))
save([helper.make_node("MatMul", ["X", "W"], ["Y"], name="mm_bad")],
     [x3], [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])],
     "invalid.onnx",
     [helper.make_tensor("W", TensorProto.FLOAT, [4, 3], [0.0] * 12)])
np.save(f"{d}/x.npy", np.zeros((2, 3), np.float32))
with zipfile.ZipFile(f"{d}/model.pt", "w") as z:
    z.writestr("archive/data.pkl", pickle.dumps({"w": [0.0]}, protocol=2))
with open(f"{d}/old.pth", "wb") as f:
    f.write(pickle.dumps({"w": [0.0]}, protocol=2))
with open(f"{d}/model.h5", "wb") as f:
    f.write(b"\x89HDF\r\n\x1a\n" + bytes(64))
with open(f"{d}/model.tflite", "wb") as f:
    f.write(b"\x1c\x00\x00\x00TFL3" + bytes(64))
with open(f"{d}/model.gguf", "wb") as f:
    f.write(b"GGUF" + struct.pack("<I", 3) + bytes(64))
header = json.dumps({"w": {"dtype": "F32", "shape": [1],
                           "data_offsets": [0, 4]}}).encode()
with open(f"{d}/model.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header + bytes(4))

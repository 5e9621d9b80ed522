"""Writes one small model (MatMul by initializer w, Add initializer b) in
wire layouts that onnx's serializer never produces but protobuf allows, to
test the importer's initializer scan (conversions/onnx-to-graph/wire_scan.c).

usage: make_wire_model.py LAYOUT OUT.onnx

  plain        the model as onnx serializes it
  interleaved  graph fields in two runs, so nodes and outputs follow and
               separate the initializers (protobuf merges the runs)
  two-graphs   the `graph` field twice, w in the first, b in the second
               (merged too; the scan leaves such files to protobuf-c)
  bad-tensor   an extra initializer whose bytes do not decode
"""
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper


def graph(nodes=(), inputs=(), outputs=(), inits=()):
    return helper.make_graph(list(nodes), "g", list(inputs), list(outputs),
                             list(inits))


vi = helper.make_tensor_value_info
x = vi("x", TensorProto.FLOAT, [2, 3])
y = vi("y", TensorProto.FLOAT, [2, 4])
w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4), "w")
b = numpy_helper.from_array(np.full(4, 0.5, dtype=np.float32), "b")
nodes = [helper.make_node("MatMul", ["x", "w"], ["t"]),
         helper.make_node("Add", ["t", "b"], ["y"])]


def model(g):
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def header():
    """The model's fields other than `graph`."""
    m = model(graph())
    m.ClearField("graph")
    return m.SerializeToString()


def graph_field(g_bytes):
    """ModelProto field 7 (graph), length-delimited, around g_bytes."""
    n, out = len(g_bytes), bytearray([7 << 3 | 2])
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out) + g_bytes


layout, path = sys.argv[1], sys.argv[2]
if layout == "plain":
    data = model(graph(nodes, [x], [y], [w, b])).SerializeToString()
elif layout == "interleaved":
    first = graph([], [x], [], [w]).SerializeToString()
    second = graph(nodes, [], [y], [b]).SerializeToString()
    data = header() + graph_field(first + second)
elif layout == "two-graphs":
    first = graph(nodes, [x], [y], [w]).SerializeToString()
    second = graph(inits=[b]).SerializeToString()
    data = (header() + graph_field(first) +
            graph_field(second))
elif layout == "bad-tensor":
    g = graph(nodes, [x], [y], [w, b]).SerializeToString()
    # GraphProto field 5 (initializer) holding a truncated varint.
    data = header() + graph_field(
        g + bytes([5 << 3 | 2, 1, 0xFF]))
else:
    sys.exit("unknown layout " + layout)
with open(path, "wb") as f:
    f.write(data)

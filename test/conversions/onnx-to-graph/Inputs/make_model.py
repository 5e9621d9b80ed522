"""Writes a small ONNX model for the importer's lit tests.

usage: make_model.py KIND OUT.onnx   (KIND: see MODELS below)
Runs under Debian's /usr/bin/python3 with python3-onnx.
"""
import os
import sys

import numpy as np
from onnx import TensorProto, external_data_helper, helper, numpy_helper

F = TensorProto.FLOAT


def model(nodes, inputs, outputs, inits=(), opset=17, value_info=()):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits),
                          value_info=list(value_info))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def vi(name, dims, elem=F):
    return helper.make_tensor_value_info(name, elem, dims)


def mlp():
    w = numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(4, 3), "w")
    # b uses the typed float_data field, w raw_data: both paths are tested.
    b = helper.make_tensor("b", F, [3], [0.5, -1.0, 2.0])
    return model(
        [helper.make_node("MatMul", ["x", "w"], ["h"], name="fc"),
         helper.make_node("Add", ["h", "b"], ["hb"], name="bias"),
         helper.make_node("Relu", ["hb"], ["y"])],
        [vi("x", [2, 4])], [vi("y", [2, 3])], [w, b])


def conv():
    w = numpy_helper.from_array(np.ones((8, 3, 3, 3), np.float32), "w")
    return model(
        [helper.make_node("Conv", ["x", "w"], ["c"], name="conv1",
                          pads=[1, 1, 1, 1], strides=[2, 2]),
         helper.make_node("Relu", ["c"], ["y"], name="relu1")],
        [vi("x", [1, 3, 16, 16])], [vi("y", [1, 8, 8, 8])], [w])


def unsupported():
    return model(
        [helper.make_node("Relu", ["x"], ["a"], name="ok"),
         helper.make_node("NoSuchOp", ["a"], ["b"], name="nms"),
         helper.make_node("Foo", ["b"], ["y"], name="custom",
                          domain="com.example")],
        [vi("x", [2])], [vi("y", [2])])


def dynamic():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", ["batch", 4])], [vi("y", ["batch", 4])])


def shared_dims():
    """Inputs that share the named dims batch and seq."""
    return model([helper.make_node("Add", ["a", "b"], ["s"], name="add"),
                  helper.make_node("Add", ["s", "c"], ["y"], name="bias")],
                 [vi("a", ["batch", "seq"]), vi("b", ["batch", "seq"]),
                  vi("c", ["seq"])],
                 [vi("y", ["batch", "seq"])])


def unnamed_dim():
    """A dynamic dim without a name."""
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", [None, 4])], [vi("y", [None, 4])])


def undefined():
    return model([helper.make_node("Add", ["x", "missing_w"], ["y"],
                                   name="add0")],
                 [vi("x", [2])], [vi("y", [2])])


# Older opsets where an attribute later became an input: the importer turns
# each attribute into a graph.constant operand.
def squeeze11():
    return model(
        [helper.make_node("Unsqueeze", ["x"], ["u"], name="unsq", axes=[0]),
         helper.make_node("Squeeze", ["u"], ["s"], name="sq", axes=[0]),
         helper.make_node("Split", ["s"], ["a", "b"], name="split", axis=1,
                          split=[2, 2]),
         helper.make_node("ReduceSum", ["b"], ["y"], name="rsum", axes=[1],
                          keepdims=0),
         helper.make_node("ReduceMean", ["a"], ["z"], name="rmean", axes=[0])],
        [vi("x", [2, 4])], [vi("y", [2]), vi("z", [1, 2])], opset=11)


def clip7():
    return model(
        [helper.make_node("Clip", ["x"], ["c"], name="clip", min=-1.5,
                          max=2.0),
         helper.make_node("Clip", ["c"], ["y"], name="clipmax", max=1.0)],
        [vi("x", [2, 3])], [vi("y", [2, 3])], opset=7)


def slice9():
    return model(
        [helper.make_node("Slice", ["x"], ["s"], name="slice", starts=[1, 0],
                          ends=[3, 2], axes=[0, 1]),
         helper.make_node("Slice", ["s"], ["y"], name="slice2", starts=[0],
                          ends=[1])],
        [vi("x", [4, 5])], [vi("y", [1, 2])], opset=9)


def pad9():
    return model(
        [helper.make_node("Pad", ["x"], ["y"], name="pad",
                          pads=[0, 1, 0, 2], value=0.5)],
        [vi("x", [2, 3])], [vi("y", [2, 6])], opset=9)


def both11():
    axes = numpy_helper.from_array(np.array([0], np.int64), "axes")
    return model(
        [helper.make_node("Squeeze", ["x", "axes"], ["y"], name="sq",
                          axes=[0])],
        [vi("x", [1, 4])], [vi("y", [4])], [axes], opset=11)


def opset0():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", [2])], [vi("y", [2])], opset=0)


def opset23():
    return model([helper.make_node("Relu", ["x"], ["y"])],
                 [vi("x", [2])], [vi("y", [2])], opset=23)


# ---- opsets 1-6 -----------------------------------------------------------
def legacy6():
    """Legacy broadcasting at an axis, hints to drop, Gemm's broadcast."""
    b = numpy_helper.from_array(np.ones(3, np.float32), "b")
    c = numpy_helper.from_array(np.ones(4, np.float32), "c")
    w = numpy_helper.from_array(np.ones((5, 4), np.float32), "w")
    return model(
        [helper.make_node("Add", ["x", "b"], ["s"], name="add_axis",
                          broadcast=1, axis=1),
         helper.make_node("Mul", ["s", "c"], ["m"], name="mul_suffix",
                          broadcast=1),
         helper.make_node("Relu", ["m"], ["r"], name="relu1",
                          consumed_inputs=[0]),
         helper.make_node("Reshape", ["r"], ["f"], name="flat",
                          shape=[2, 12]),
         helper.make_node("Gemm", ["f", "g"], ["y"], name="gemm",
                          broadcast=1, transB=1)],
        [vi("x", [2, 3, 4]), vi("g", [6, 12])], [vi("y", [2, 6])],
        [b, c, w], opset=4)


def legacy_concat3():
    return model(
        [helper.make_node("Concat", ["x", "z"], ["c"], name="cat"),
         helper.make_node("Cast", ["c"], ["y"], name="cast", to="DOUBLE")],
        [vi("x", [2, 3]), vi("z", [2, 1])], [vi("y", [2, 4], TensorProto.DOUBLE)],
        opset=3)


def legacy_bn6():
    p = [numpy_helper.from_array(np.ones(3, np.float32), n)
         for n in ("s", "bb", "m", "v")]
    return model(
        [helper.make_node("BatchNormalization", ["x", "s", "bb", "m", "v"],
                          ["y"], name="bn", is_test=1, spatial=1,
                          epsilon=1e-3)],
        [vi("x", [1, 3, 4, 4])], [vi("y", [1, 3, 4, 4])], p, opset=6)


def legacy_upsample():
    return model(
        [helper.make_node("Upsample", ["x"], ["u"], name="up7",
                          scales=[1.0, 1.0, 2.0, 3.0]),
         helper.make_node("Upsample", ["u"], ["y"], name="up7lin",
                          mode="linear", scales=[1.0, 1.0, 1.0, 2.0])],
        [vi("x", [1, 1, 2, 2])], [vi("y", [1, 1, 4, 12])], opset=7)


def legacy_upsample1():
    return model(
        [helper.make_node("Upsample", ["x"], ["y"], name="up1",
                          mode="bilinear", height_scale=2.0, width_scale=2.0)],
        [vi("x", [1, 1, 2, 2])], [vi("y", [1, 1, 4, 4])], opset=1)


def legacy_bad():
    """Each node is an error of its own; `KIND` picks one."""
    b = numpy_helper.from_array(np.ones(3, np.float32), "b")
    p = [numpy_helper.from_array(np.ones(3, np.float32), n)
         for n in ("s", "bb", "m", "v")]
    kind = os.environ.get("KIND")
    nodes = {
        "nobroadcast": helper.make_node("Add", ["x", "b"], ["y"], name="add0"),
        "badaxis": helper.make_node("Add", ["x", "b"], ["y"], name="add1",
                                    broadcast=1, axis=2),
        "spatial": helper.make_node("BatchNormalization",
                                    ["x", "s", "bb", "m", "v"], ["y"],
                                    name="bn0", spatial=0),
        "tile": helper.make_node("Tile", ["x", "b", "b"], ["y"], name="tile1"),
    }
    return model([nodes[kind]], [vi("x", [1, 3, 4])], [vi("y", [1, 3, 4])],
                 [b] + p, opset=5)


# ---- element types --------------------------------------------------------
def types():
    I16, U16, U32, U64, BF = (TensorProto.INT16, TensorProto.UINT16,
                              TensorProto.UINT32, TensorProto.UINT64,
                              TensorProto.BFLOAT16)
    inits = [
        numpy_helper.from_array(np.array([-2, 3], np.int16), "i16raw"),
        helper.make_tensor("i16typed", I16, [2], [-4, 5]),
        numpy_helper.from_array(np.array([7, 65535], np.uint16), "u16raw"),
        helper.make_tensor("u16typed", U16, [2], [9, 65534]),
        numpy_helper.from_array(np.array([1, 4294967295], np.uint32), "u32raw"),
        helper.make_tensor("u32typed", U32, [2], [2, 4294967294]),
        numpy_helper.from_array(np.array([1, 2**64 - 1], np.uint64), "u64raw"),
        helper.make_tensor("u64typed", U64, [2], [3, 2**64 - 2]),
        helper.make_tensor("bftyped", BF, [2], [1.0, -2.0]),  # int32_data
        helper.make_tensor("bfraw", BF, [2],
                           np.array([0x3F80, 0x4040], np.uint16).tobytes(),
                           raw=True),  # 1, 3
    ]
    names = [t.name for t in inits]
    return model(
        [helper.make_node("Add", ["a", "i16raw"], ["ya"], name="add_i16"),
         helper.make_node("Cast", ["bf", "bfraw"][:1], ["yc"], name="to_f32",
                          to=TensorProto.FLOAT),
         helper.make_node("Cast", ["yc"], ["yb"], name="to_bf16", to=BF)] +
        [helper.make_node("Identity", [n], ["o_" + n]) for n in names[1:]],
        [vi("a", [2], I16), vi("bf", [2], BF), vi("u", [2], U16),
         vi("v", [2], U32), vi("w", [2], U64)],
        [vi("ya", [2], I16), vi("yb", [2], BF)] +
        [vi("o_" + n, [2], t.data_type) for n, t in zip(names[1:], inits[1:])],
        inits)


def string_init():
    s = helper.make_tensor("s", TensorProto.STRING, [1], [b"hi"])
    return model([helper.make_node("Identity", ["s"], ["y"])], [],
                 [vi("y", [1], TensorProto.STRING)], [s])


def complex_input():
    return model([helper.make_node("Identity", ["x"], ["y"])],
                 [vi("x", [1], TensorProto.COMPLEX64)],
                 [vi("y", [1], TensorProto.COMPLEX64)])


# ---- ops built from other graph ops --------------------------------------
def nary():
    return model(
        [helper.make_node("Sum", ["a", "b", "c"], ["s3"], name="sum3"),
         helper.make_node("Sum", ["s3"], ["s1"], name="sum1"),
         helper.make_node("Mean", ["s1", "b", "c"], ["m3"], name="mean3"),
         helper.make_node("Mean", ["m3", "a"], ["y"], name="mean2")],
        [vi("a", [2, 3]), vi("b", [3]), vi("c", [1, 3])], [vi("y", [2, 3])])


def split_unequal():
    sp = numpy_helper.from_array(np.array([1, 3], np.int64), "sp")
    return model(
        [helper.make_node("Split", ["x", "sp"], ["a", "b"], name="split_in",
                          axis=1),
         helper.make_node("Split", ["x"], ["c", "d", "e"], name="split_n",
                          axis=1, num_outputs=3),
         helper.make_node("Split", ["x"], ["f", "g"], name="split_eq",
                          axis=1, num_outputs=2)],
        [vi("x", [2, 4])],
        [vi("a", [2, 1]), vi("b", [2, 3]), vi("c", [2, 2]), vi("d", [2, 2]),
         vi("e", [2, 0]), vi("f", [2, 2]), vi("g", [2, 2])], [sp], opset=18)


def split11():
    return model(
        [helper.make_node("Split", ["x"], ["a", "b"], name="split_attr",
                          axis=0, split=[3, 1])],
        [vi("x", [4, 2])], [vi("a", [3, 2]), vi("b", [1, 2])], opset=11)


def scatter10():
    return model(
        [helper.make_node("Scatter", ["x", "i", "u"], ["y"], name="sc",
                          axis=1)],
        [vi("x", [2, 3]), vi("i", [2, 1], TensorProto.INT64),
         vi("u", [2, 1])], [vi("y", [2, 3])], opset=10)


# ---- names, order and bad input ------------------------------------------
def names():
    """IR v3 style: the initializer `w` is also listed as an input."""
    w = numpy_helper.from_array(np.ones(3, np.float32), "w")
    m = model([helper.make_node("Add", ["first", "w"], ["out.a"]),
               helper.make_node("Mul", ["out.a", "second"], ["out:b"])],
              [vi("first", [3]), vi("w", [3]), vi("second", [3])],
              [vi("out:b", [3]), vi("out.a", [3])], [w])
    m.ir_version = 3
    return m


def unsorted():
    return model(
        [helper.make_node("Relu", ["h"], ["y"], name="late"),
         helper.make_node("Neg", ["x"], ["h"], name="early")],
        [vi("x", [2])], [vi("y", [2])])


def bad():
    """One broken graph per KIND (see negative_graph.test)."""
    kind = os.environ.get("KIND")
    w = numpy_helper.from_array(np.ones(2, np.float32), "w")
    x, y = [vi("x", [2])], [vi("y", [2])]
    N = helper.make_node
    if kind == "cycle":
        return model([N("Relu", ["x"], ["a"], name="pre"),
                      N("Add", ["a", "c"], ["b"], name="n1"),
                      N("Neg", ["b"], ["c"], name="n2"),
                      N("Relu", ["c"], ["y"], name="post")], x, y)
    if kind == "twoproducers":
        return model([N("Relu", ["x"], ["y"], name="p1"),
                      N("Neg", ["x"], ["y"], name="p2")], x, y)
    if kind == "shadowinput":
        return model([N("Relu", ["x"], ["x"], name="r"),
                      N("Neg", ["x"], ["y"], name="n")], x, y)
    if kind == "shadowinit":
        return model([N("Relu", ["x"], ["w"], name="r"),
                      N("Add", ["x", "w"], ["y"], name="a")], x, y, [w])
    if kind == "dupinput":
        return model([N("Relu", ["x"], ["y"])], x + x, y)
    if kind == "dupinit":
        return model([N("Add", ["x", "w"], ["y"])], x, y, [w, w])
    if kind == "attrtype":
        n = N("Softmax", ["x"], ["y"], name="sm")
        n.attribute.extend([helper.make_attribute("axis", 0.0)])
        return model([n], x, y)
    if kind == "outtype":
        return model([N("Relu", ["x"], ["y"], name="r")], x,
                     [vi("y", [3], TensorProto.FLOAT)])
    if kind == "outelem":
        return model([N("Relu", ["x"], ["y"], name="r")], x,
                     [vi("y", [2], TensorProto.DOUBLE)])
    if kind == "valueinfo":
        return model([N("Relu", ["x"], ["h"]), N("Neg", ["h"], ["y"])], x, y,
                     value_info=[vi("h", [2, 1])])
    if kind == "noop":
        n = N("Relu", ["x"], ["y"])
        n.ClearField("op_type")
        return model([n], x, y)
    raise SystemExit("unknown KIND " + str(kind))


# ---- external data and memory --------------------------------------------
def external():
    """Weights in `OUT.bin` beside OUT; KIND breaks their reference."""
    out = sys.argv[2]
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32), "w")
    v = numpy_helper.from_array(np.array([2, 3], np.int64), "v")
    base = os.path.basename(out) + ".bin"
    with open(out + ".bin", "wb") as f:
        f.write(b"\0" * 8 + v.raw_data + w.raw_data)
    loc = {"": base, "absolute": os.path.abspath(out + ".bin"),
           "escape": "../" + os.path.basename(os.path.dirname(out)) + "/" + base,
           "missing": base + ".gone"}.get(os.environ.get("KIND", ""), base)
    off, length = {"offset": (10**6, 24), "length": (24, 20),
                   "beyond": (40, 24)}.get(os.environ.get("KIND", ""), (24, 24))
    external_data_helper.set_external_data(w, loc, off, length)
    external_data_helper.set_external_data(v, base, 8, 16)
    for t in (w, v):
        t.data_location = TensorProto.EXTERNAL
        t.ClearField("raw_data")
    return model([helper.make_node("Reshape", ["w", "v"], ["r"], name="rs"),
                  helper.make_node("Add", ["r", "x"], ["y"], name="add")],
                 [vi("x", [2, 3])], [vi("y", [2, 3])], [w, v])


def big():
    """About 45 MB of f32 weights in a MatMul chain (memory measurement)."""
    rng = np.random.default_rng(0)
    inits, nodes, prev = [], [], "x"
    for i in range(11):
        w = rng.standard_normal((1024, 1024), dtype=np.float32)
        inits.append(numpy_helper.from_array(w, "w%d" % i))
        nodes.append(helper.make_node("MatMul", [prev, "w%d" % i],
                                      ["h%d" % i]))
        prev = "h%d" % i
    return model(nodes, [vi("x", [1, 1024])], [vi(prev, [1, 1024])], inits)


def resource():
    """A weight above the resource threshold next to a small one."""
    w = numpy_helper.from_array(np.ones((32, 32), np.float32), "big_w")
    s = numpy_helper.from_array(np.array([[2, 512]], np.int64)[0], "shape")
    return model([helper.make_node("Reshape", ["big_w", "shape"], ["r"]),
                  helper.make_node("Add", ["r", "x"], ["y"])],
                 [vi("x", [2, 512])], [vi("y", [2, 512])], [w, s])


# ---- control flow (control-flow*.test) ----

def cf_graph(nodes, inputs, outputs, name="body", inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, list(inits))


def cf_if():
    """If branches of different lengths (joined to ?), reading the outer `x`
    by name; then_branch's own `h` shadows the outer `h` only inside."""
    one = numpy_helper.from_array(np.ones(1, np.float32), "one")
    then_g = cf_graph([helper.make_node("Relu", ["x"], ["h"])],
                      [], [vi("h", [2])], "then_g")
    else_g = cf_graph([helper.make_node("Concat", ["x", "one"], ["e"],
                                        axis=0)],
                      [], [vi("e", [3])], "else_g", [one])
    return model(
        [helper.make_node("Neg", ["x"], ["h"], name="outer_h"),
         helper.make_node("If", ["c"], ["r"], name="if0",
                          then_branch=then_g, else_branch=else_g),
         helper.make_node("ReduceSum", ["r"], ["s"], name="sum", keepdims=1),
         helper.make_node("Add", ["h", "s"], ["y"], name="after")],
        [vi("x", [2]), vi("c", [], TensorProto.BOOL)], [vi("y", [2])],
        opset=13)


def cf_loop_for():
    """A constant trip count and no condition: scf.for with static scan
    outputs; `grow` gets longer each iteration (relaxed to ?)."""
    m = numpy_helper.from_array(np.array(3, np.int64), "m")
    one = numpy_helper.from_array(np.ones(1, np.float32), "one_b")
    body = cf_graph(
        [helper.make_node("Add", ["acc_in", "x"], ["acc_out"]),
         helper.make_node("Concat", ["grow_in", "one_b"], ["grow_out"],
                          axis=0),
         helper.make_node("Identity", ["acc_out"], ["scan"])],
        [vi("i", [], TensorProto.INT64), vi("c_in", [], TensorProto.BOOL),
         vi("acc_in", [2]), vi("grow_in", [None])],
        [vi("c_in", [], TensorProto.BOOL), vi("acc_out", [2]),
         vi("grow_out", [None]), vi("scan", [2])], inits=[one])
    return model(
        [helper.make_node("Loop", ["m", "", "x", "g0"],
                          ["acc", "grow", "stacked"], name="loop0",
                          body=body)],
        [vi("x", [2]), vi("g0", [1])],
        [vi("acc", [2]), vi("grow", [None]), vi("stacked", [3, 2])], [m],
        opset=13)


def cf_scan():
    """Scan-11 along axis 1, input and output reversed, output axis -1."""
    body = cf_graph(
        [helper.make_node("Add", ["s_in", "col"], ["s_out"]),
         helper.make_node("Identity", ["s_out"], ["o"])],
        [vi("s_in", [2]), vi("col", [2])], [vi("s_out", [2]), vi("o", [2])])
    return model(
        [helper.make_node("Scan", ["s0", "x"], ["s", "ys"], name="scan0",
                          body=body, num_scan_inputs=1,
                          scan_input_axes=[1], scan_input_directions=[1],
                          scan_output_axes=[-1], scan_output_directions=[1])],
        [vi("s0", [2]), vi("x", [2, 4])], [vi("s", [2]), vi("ys", [2, 4])],
        opset=11)


def cf_bad():
    """One broken control-flow node per KIND (negative_control-flow.test)."""
    kind = os.environ.get("KIND")
    B = TensorProto.BOOL
    cond = vi("c", [], B)
    if kind in ("if_mismatch", "if_no_else", "if_undefined"):
        then_g = cf_graph([helper.make_node("Relu", ["x"], ["t"])], [],
                          [vi("t", [2])], "then_g")
        src = "nowhere" if kind == "if_undefined" else "x"
        else_g = cf_graph(
            [helper.make_node("Cast", [src], ["e"], to=TensorProto.INT64)],
            [], [vi("e", [2], TensorProto.INT64)], "else_g")
        if kind == "if_no_else":
            node = helper.make_node("If", ["c"], ["y"], name="if0",
                                    then_branch=then_g)
        elif kind == "if_undefined":
            node = helper.make_node("If", ["c"], ["y"], name="if0",
                                    then_branch=else_g, else_branch=else_g)
        else:
            node = helper.make_node("If", ["c"], ["y"], name="if0",
                                    then_branch=then_g, else_branch=else_g)
        return model([node], [vi("x", [2]), cond], [vi("y", [2])], opset=13)
    m = vi("m", [], TensorProto.INT64)
    seq = helper.make_tensor_sequence_value_info("v_in", F, [2])
    body_in = [vi("i", [], TensorProto.INT64), vi("c_in", [], B)]
    if kind == "loop_seq":
        body = cf_graph([helper.make_node("Identity", ["v_in"], ["v_out"])],
                        body_in + [seq],
                        [vi("c_in", [], B), vi("v_out", [2])])
        inputs = ["m", "c", "x"]
    else:  # loop_forever, loop_scan_no_m: a scan output, no trip count
        body = cf_graph([helper.make_node("Relu", ["v_in"], ["v_out"])],
                        body_in + [vi("v_in", [2])],
                        [vi("c_in", [], B), vi("v_out", [2]),
                         vi("v_out", [2])])
        inputs = ["", "" if kind == "loop_forever" else "c", "x"]
    outs = ["y"] if kind == "loop_seq" else ["y", "z"]
    return model(
        [helper.make_node("Loop", inputs, outs, name="loop0", body=body)],
        [m, cond, vi("x", [2])], [vi(o, None) for o in outs], opset=13)


# ---- importer fixes: legacy softmax, Constant forms, STRINGS, untyped
# attributes, Resize-10 (onnx-legacy-softmax.test, onnx-constant-forms.test,
# onnx-strings-attr.test, onnx-untyped-attrs.test, onnx-resize-forms.test)


def legacy_softmax():
    """Softmax-11 and friends: `KIND` picks op, axis (or "none") and shape."""
    op, axis, opset = os.environ.get("KIND", "Softmax:1:11").split(":")
    attrs = {} if axis == "none" else {"axis": int(axis)}
    return model([helper.make_node(op, ["x"], ["y"], name="sm", **attrs)],
                 [vi("x", [2, 3, 4])], [vi("y", [2, 3, 4])], opset=int(opset))


def legacy_softmax_dynamic():
    """Hardmax-11 at axis 1 of a tensor whose dims are only known at run
    time (a Reshape to a shape input)."""
    return model(
        [helper.make_node("Reshape", ["x", "s"], ["r"], name="rs"),
         helper.make_node("Hardmax", ["r"], ["y"], name="hm", axis=1)],
        [vi("x", [2, 3, 4]), vi("s", [3], TensorProto.INT64)],
        [vi("y", None)], opset=11)


def constant_forms():
    """Every supported Constant form, summed into int and float outputs."""
    t = numpy_helper.from_array(np.array([1.5, 2.5], np.float32))
    return model(
        [helper.make_node("Constant", [], ["cf"], name="cf", value_float=0.5),
         helper.make_node("Constant", [], ["cfs"], name="cfs",
                          value_floats=[1.0, 2.0]),
         helper.make_node("Constant", [], ["ci"], name="ci", value_int=7),
         helper.make_node("Constant", [], ["cis"], name="cis",
                          value_ints=[3, 4]),
         helper.make_node("Constant", [], ["ct"], name="ct", value=t),
         helper.make_node("Add", ["cfs", "cf"], ["f1"]),
         helper.make_node("Add", ["f1", "ct"], ["yf"]),
         helper.make_node("Add", ["cis", "ci"], ["yi"])],
        [], [vi("yf", [2]), vi("yi", [2], TensorProto.INT64)], opset=13)


def constant_bad():
    """One broken Constant per `KIND`."""
    kind = os.environ.get("KIND")
    s = helper.make_sparse_tensor(
        helper.make_tensor("v", F, [1], [1.0]),
        helper.make_tensor("i", TensorProto.INT64, [1], [0]), [2])
    attrs = {"none": {}, "two": {"value_int": 1, "value_float": 2.0},
             "string": {"value_string": "a"},
             "strings": {"value_strings": ["a", "b"]},
             "sparse": {"sparse_value": s},
             "kind": {"value_int": 1.5}}[kind]
    return model([helper.make_node("Constant", [], ["y"], name="c", **attrs)],
                 [], [vi("y", None)], opset=13)


def lstm_activations():
    """Bidirectional LSTM with 6 activation names (3 per direction);
    `KIND` breaks them: count, name, or a STRING instead of STRINGS."""
    kind = os.environ.get("KIND", "ok")
    acts = {"ok": ["Sigmoid", "Tanh", "Relu", "sigmoid", "HardSigmoid",
                   "Softsign"],
            "count": ["Sigmoid", "Tanh", "Tanh"],
            "name": ["Sigmoid", "Tanh", "Tanh", "Sigmoid", "Gelu", "Tanh"],
            "string": "Sigmoid,Tanh,Tanh,Sigmoid,Tanh,Tanh"}[kind]
    w = numpy_helper.from_array(np.ones((2, 20, 3), np.float32), "w")
    r = numpy_helper.from_array(np.ones((2, 20, 5), np.float32), "r")
    return model(
        [helper.make_node("LSTM", ["x", "w", "r"], ["y"], name="lstm",
                          direction="bidirectional", hidden_size=5,
                          activations=acts, activation_alpha=[0.2])],
        [vi("x", [7, 2, 3])], [vi("y", [7, 2, 2, 5])], [w, r], opset=14)


def untyped_attrs():
    """IR version 1 style: attributes without a `type` field. `KIND`
    "empty" or "ambiguous" breaks one."""
    kind = os.environ.get("KIND", "ok")
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv",
                              pads=[1, 1, 1, 1], strides=[2, 2]),
             helper.make_node("LeakyRelu", ["c"], ["l"], name="lrelu",
                              alpha=0.25),
             helper.make_node("Pad", ["l"], ["p"], name="pad",
                              pads=[0, 0, 1, 1, 0, 0, 1, 1]),
             helper.make_node("Cast", ["p"], ["y"], name="cast",
                              to=TensorProto.DOUBLE)]
    if kind == "empty":
        nodes[1].attribute[0].ClearField("f")
    elif kind == "ambiguous":
        nodes[1].attribute[0].i = 3
    for n in nodes:
        for a in n.attribute:
            a.ClearField("type")
    m = model(nodes, [vi("x", [1, 3, 8, 8])],
              [vi("y", [1, 4, 6, 6], TensorProto.DOUBLE)], [w], opset=6)
    m.ir_version = 3
    return m


def resize10():
    """Resize-10: inputs X and scales; `KIND` "linear" or "nearest", or
    "badattr" (an attribute Resize-10 does not have)."""
    kind = os.environ.get("KIND", "nearest")
    s = numpy_helper.from_array(np.array([1, 1, 2, 1.5], np.float32), "s")
    attrs = ({"mode": "nearest", "coordinate_transformation_mode":
              "half_pixel"} if kind == "badattr" else {"mode": kind})
    return model([helper.make_node("Resize", ["x", "s"], ["y"], name="rs",
                                   **attrs)],
                 [vi("x", [1, 1, 2, 4])], [vi("y", [1, 1, 4, 6])], [s],
                 opset=10)


# ---- inputs no machine can run, and names no terminal should print -------
def huge_plan():
    """A 1 x 1 input expanded to 10^6 x 10^6 (4 TB of f32) before a sum: the
    model is small, its working memory (memory plan) is not."""
    shape = numpy_helper.from_array(np.array([10**6, 10**6], np.int64), "s")
    N = helper.make_node
    return model([N("Expand", ["x", "s"], ["e"], name="expand"),
                  N("Exp", ["e"], ["f"], name="exp"),
                  N("ReduceSum", ["f"], ["y"], keepdims=0, name="sum")],
                 [vi("x", [1, 1])], [vi("y", [])], [shape], opset=13)


def giant_dims():
    """An input of 2^40 x 2^40 f32: more bytes than a 64-bit size counts."""
    return model([helper.make_node("Relu", ["x"], ["y"], name="relu")],
                 [vi("x", [2**40, 2**40])], [vi("y", [2**40, 2**40])])


def control_names():
    """An unsupported op whose node name holds a terminal escape, a control
    byte and a byte that is not UTF-8 (0xFF, written over a placeholder of
    the same length)."""
    m = model([helper.make_node("NoSuchOp", ["x"], ["y"],
                                name="\x1b[31mred\x01?")],
              [vi("x", [2])], [vi("y", [2])])
    return m.SerializeToString().replace(b"\x01?", b"\x01\xff")


MODELS = {name: f for name, f in list(globals().items())
          if callable(f) and f.__module__ == "__main__"
          and name not in ("model", "vi", "cf_graph")}

if __name__ == "__main__":
    m = MODELS[sys.argv[1]]()
    with open(sys.argv[2], "wb") as f:
        f.write(m if isinstance(m, bytes) else m.SerializeToString())

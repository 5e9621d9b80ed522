"""Tests of the Python package `kiln` (python/kiln), run by pytest.test
with PYTHONPATH at the build tree's copy of the package."""

import os
import shutil

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

import kiln

SRC = os.path.join(os.path.dirname(__file__), "..", "..")
SHAPES = os.path.join(SRC, "examples", "shapes")
SAMPLES = ["circle", "square", "triangle", "cross", "ring", "bar"]


def sample(name):
    return (np.load(os.path.join(SHAPES, name + ".npy")),
            np.load(os.path.join(SHAPES, name + ".expected.npy")))


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    path = tmp_path_factory.mktemp("lib") / "shapes.so"
    assert kiln.compile(os.path.join(SHAPES, "shapes_cnn.onnx"),
                        output=path) == str(path)
    return str(path)


@pytest.fixture
def model(library):
    with kiln.load(library, threads=2) as m:
        yield m


def test_signature(model):
    assert [(i.name, i.shape, i.dtype) for i in model.inputs] == [
        ("image", (1, 1, 32, 32), np.dtype(np.float32))]
    assert [(o.name, o.shape, o.element_type) for o in model.outputs] == [
        ("probabilities", (1, 6), "f32")]
    meta = model.metadata()
    assert meta["kiln_version"] == kiln.__version__
    assert meta["gpu"] is None and meta["memory_plan"] > 0


@pytest.mark.parametrize("name", SAMPLES)
def test_matches_pytorch(model, name):
    x, expected = sample(name)
    (p,) = model.run(x)
    np.testing.assert_allclose(p, expected, rtol=1e-3, atol=1e-5)
    (q,) = model(image=x)
    np.testing.assert_array_equal(p, q)
    assert int(p.argmax()) == SAMPLES.index(name)


def test_non_contiguous_input(model):
    x, expected = sample("ring")
    transposed = np.ascontiguousarray(x.transpose(0, 1, 3, 2)).transpose(
        0, 1, 3, 2)
    assert not transposed.flags.c_contiguous
    np.testing.assert_allclose(model.run(transposed)[0], expected,
                               rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("args,named,message", [
    ((np.zeros((1, 1, 32, 32), np.float64),), {},
     "input 'image' is float64, the model takes f32[1, 1, 32, 32]"),
    (([[0.0]],), {}, "input 'image' is float64"),
    ((np.zeros((1, 1, 32, 31), np.float32),), {},
     "input 'image' has shape [1, 1, 32, 31], the model takes [1, 1, 32, 32]"),
    ((), {}, "input 'image' is missing"),
    ((), {"img": np.zeros((1, 1, 32, 32), np.float32)},
     "the model has no input 'img' (inputs: image)"),
    ((np.zeros((1, 1, 32, 32), np.float32),) * 2, {},
     "2 inputs given, the model takes 1"),
    ((np.zeros((1, 1, 32, 32), np.float32),),
     {"image": np.zeros((1, 1, 32, 32), np.float32)},
     "input 'image' given twice"),
])
def test_bad_inputs(model, args, named, message):
    with pytest.raises(kiln.KilnError) as e:
        model.run(*args, **named)
    assert message in str(e.value)


def test_threads(model):
    with pytest.raises(kiln.KilnError, match="must be at least 1"):
        model.set_threads(0)
    with pytest.raises(TypeError):
        model.set_threads("2")
    model.set_threads(1)
    x, expected = sample("bar")
    np.testing.assert_allclose(model.run(x)[0], expected, rtol=1e-3,
                               atol=1e-5)


def test_closed(library):
    m = kiln.load(library)
    m.close()
    with pytest.raises(kiln.KilnError, match="closed"):
        m.run(sample("bar")[0])


def test_load_errors(tmp_path):
    with pytest.raises(kiln.KilnError, match="missing.so"):
        kiln.load(str(tmp_path / "missing.so"))
    bad = tmp_path / "bad.so"
    bad.write_bytes(b"not a library")
    with pytest.raises(kiln.KilnError, match="bad.so"):
        kiln.load(str(bad))


def add_model(op="Add"):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 3])
    node = helper.make_node(op, ["x", "x"], ["y"], name="twice")
    return helper.make_model(helper.make_graph([node], "g", [x], [y]),
                             opset_imports=[helper.make_opsetid("", 17)])


def test_compile_model_proto():
    m = kiln.compile(add_model(), input_shapes={"x": (2, 3)}, opt_level=1)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(m.run(x)[0], x + x)


def test_compile_dims():
    # The input's dim "n" sized by name; a misspelt name is an error that
    # suggests the model's.
    m = kiln.compile(add_model(), dims={"n": 4}, opt_level=1)
    assert m.inputs[0].shape == (4, 3)
    # The library records which dims the model names.
    assert m.inputs[0].dim_names == ("n", None)
    assert m.outputs[0].dim_names == ("n", None)
    assert repr(m.inputs[0]) == "TensorInfo('x', f32[n=4, 3])"
    x = np.ones((4, 3), dtype=np.float32)
    np.testing.assert_array_equal(m.run(x)[0], x + x)
    with pytest.raises(kiln.CompileError, match="did you mean 'n'"):
        kiln.compile(add_model(), dims={"m": 4})
    # Bindings the command line cannot spell, through the C API.
    with pytest.raises(kiln.CompileError, match="has no name"):
        kiln.compile(add_model(), dims={"": 4})
    with pytest.raises(kiln.CompileError,
                       match="'n' is bound to the negative size -1"):
        kiln.compile(add_model(), dims={"n": -1})


def encoder_block_model():
    # An attention-score-like block over dynamic batch and sequence:
    # softmax(x * scale + mask) summed over the sequence, and a ReduceMean
    # with keepdims; "mask" shares "batch" and "seq" with "x".
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                      ["batch", "seq", 8])
    mask = helper.make_tensor_value_info("mask", TensorProto.FLOAT,
                                         ["batch", "seq", 1])
    p = helper.make_tensor_value_info("p", TensorProto.FLOAT,
                                      ["batch", "seq", 8])
    mean = helper.make_tensor_value_info("mean", TensorProto.FLOAT,
                                         ["batch", 1, 8])
    scale = helper.make_tensor("scale", TensorProto.FLOAT, [8],
                               [0.5, 1, 1.5, 2, -1, -0.5, 0.25, 3])
    nodes = [
        helper.make_node("Mul", ["x", "scale"], ["xs"], name="scaled"),
        helper.make_node("Add", ["xs", "mask"], ["xm"], name="masked"),
        helper.make_node("Softmax", ["xm"], ["p"], axis=1, name="softmax"),
        helper.make_node("ReduceMean", ["p"], ["mean"], axes=[1],
                         keepdims=1, name="mean"),
    ]
    graph = helper.make_graph(nodes, "g", [x, mask], [p, mean],
                              initializer=[scale])
    return helper.make_model(graph,
                             opset_imports=[helper.make_opsetid("", 17)])


def test_compile_dynamic():
    # One library for every batch and sequence length: the outputs' dims
    # come from its shape function, each run matches NumPy.
    m = kiln.compile(encoder_block_model(), dynamic=True)
    assert m.inputs[0].shape == (None, None, 8)
    assert m.inputs[0].dim_names == ("batch", "seq", None)
    assert m.outputs[1].shape == (None, 1, 8)
    scale = np.array([0.5, 1, 1.5, 2, -1, -0.5, 0.25, 3], np.float32)
    rng = np.random.default_rng(7)
    for batch, seq in ((1, 1), (2, 5), (3, 17)):
        x = rng.standard_normal((batch, seq, 8)).astype(np.float32)
        mask = rng.standard_normal((batch, seq, 1)).astype(np.float32)
        p, mean = m.run(x, mask)
        z = x * scale + mask
        e = np.exp(z - z.max(axis=1, keepdims=True))
        want = e / e.sum(axis=1, keepdims=True)
        np.testing.assert_allclose(p, want, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(mean, want.mean(axis=1, keepdims=True),
                                   rtol=1e-5, atol=1e-6)
    # Inputs that share a dim name must agree on its size.
    with pytest.raises(kiln.KilnError, match="share its size"):
        m.run(np.zeros((2, 5, 8), np.float32), np.zeros((2, 4, 1), np.float32))
    # --dynamic=all: even the model's fixed dims; a dim the code reads
    # without broadcasting must equal the others (a run-time check that
    # names the ONNX node, before the run).
    m = kiln.compile(add_model("Mul"), dynamic="all")
    assert m.inputs[0].shape == (None, None)
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    np.testing.assert_array_equal(m.run(x)[0], x * x)
    m = kiln.compile(encoder_block_model(), dynamic="all")
    with pytest.raises(kiln.KilnError, match=r"masked \(Add\): inputs that "
                       "broadcast together"):
        m.run(np.zeros((2, 5, 8), np.float32), np.zeros((2, 5, 4), np.float32))
    with pytest.raises(ValueError, match="dynamic must be"):
        kiln.compile(add_model(), dynamic="some")


def test_compile_specialized():
    # Static fast paths for seq 4 at batch 1 and 3 beside the generic code:
    # the library reports them, and every shape (on a fast path or not)
    # matches NumPy.
    m = kiln.compile(encoder_block_model(), dynamic=True,
                     specialize={"batch": [1, 3], "seq": 4})
    assert m.metadata()["specializations"] == ["batch=1 seq=4",
                                               "batch=3 seq=4"]
    assert m.inputs[0].shape == (None, None, 8)
    scale = np.array([0.5, 1, 1.5, 2, -1, -0.5, 0.25, 3], np.float32)
    rng = np.random.default_rng(8)
    for batch, seq in ((1, 4), (3, 4), (2, 4), (1, 5)):
        x = rng.standard_normal((batch, seq, 8)).astype(np.float32)
        mask = rng.standard_normal((batch, seq, 1)).astype(np.float32)
        p, _ = m.run(x, mask)
        z = x * scale + mask
        e = np.exp(z - z.max(axis=1, keepdims=True))
        np.testing.assert_allclose(p, e / e.sum(axis=1, keepdims=True),
                                   rtol=1e-5, atol=1e-6)
    with pytest.raises(kiln.CompileError, match="add --dynamic"):
        kiln.compile(encoder_block_model(), specialize={"batch": 1},
                     dims={"seq": 4})
    with pytest.raises(kiln.CompileError, match="a size given twice"):
        kiln.compile(encoder_block_model(), dynamic=True,
                     specialize={"batch": [2, 2]})
    with pytest.raises(kiln.CompileError, match="a negative size"):
        kiln.compile(encoder_block_model(), dynamic=True,
                     specialize={"batch": -1})
    with pytest.raises(kiln.CompileError, match="no sizes given"):
        kiln.compile(encoder_block_model(), dynamic=True,
                     specialize={"batch": []})
    with pytest.raises(kiln.CompileError, match="more than 16 fast paths"):
        kiln.compile(encoder_block_model(), dynamic=True,
                     specialize={"batch": range(1, 6), "seq": range(1, 5)})


def test_compile_errors():
    with pytest.raises(kiln.CompileError, match="twice"):
        kiln.compile(add_model("NoSuchOp"), input_shapes={"x": (2, 3)})
    with pytest.raises(kiln.CompileError, match="cpu"):
        kiln.compile(add_model(), input_shapes={"x": (2, 3)},
                     cpu="no-such-cpu")
    with pytest.raises(ValueError):
        kiln.compile(add_model(), opt_level=7)
    with pytest.raises(TypeError):
        kiln.compile(42)


def test_compile_torch_module():
    torch = pytest.importorskip("torch")
    torchvision = pytest.importorskip("torchvision")
    torch.manual_seed(0)
    net = torchvision.models.resnet18(weights=None, num_classes=10).eval()
    x = torch.rand(1, 3, 64, 64)
    m = kiln.compile(net, example_inputs=(x,), threads=2)
    with torch.no_grad():
        expected = net(x).numpy()
    assert np.abs(expected).max() > 0.1  # outputs large enough to compare
    np.testing.assert_allclose(m.run(x.numpy())[0], expected, rtol=1e-3,
                               atol=1e-5)


def test_compile_precision():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(),
                              torch.nn.Linear(64, 8)).eval()
    x = torch.randn(4, 32)
    m = kiln.compile(net, example_inputs=(x,), precision="bf16")
    assert m.outputs[0].element_type == "f32"
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        expected = net(x).float().numpy()
    got = m.run(x.numpy())[0]
    np.testing.assert_allclose(got, expected, rtol=1e-2, atol=1e-2)
    with torch.no_grad():
        assert np.abs(got - net(x).numpy()).max() > 1e-4  # rounded
    with pytest.raises(kiln.CompileError, match="precision 'fp8'"):
        kiln.compile(net, example_inputs=(x,), precision="fp8")


def test_compile_shard(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(),
                              torch.nn.Linear(32, 8)).eval()
    x = torch.randn(4, 16)
    # A plan the weights do not divide, and a bad plan, are compile errors.
    with pytest.raises(kiln.CompileError, match="not divisible by 3"):
        kiln.compile(net, example_inputs=(x,), shard="tp:3",
                     output=str(tmp_path / "m.so"))
    with pytest.raises(kiln.CompileError, match="shard plan 'xp:2'"):
        kiln.compile(net, example_inputs=(x,), shard="xp:2",
                     output=str(tmp_path / "m.so"))
    if not shutil.which("mpirun"):
        pytest.skip("Open MPI is not installed (the library links it)")
    path = kiln.compile(net, example_inputs=(x,), shard="tp:2",
                        output=str(tmp_path / "m.so"))
    assert "--shard=tp:2" in open(path, "rb").read().decode("latin-1")
    # A hand-written plan: the first product by rows. Its file's errors
    # name the line.
    plan = tmp_path / "mlp.plan"
    plan.write_text("plan tp:2\n/0/Gemm rows\n")
    path = kiln.compile(net, example_inputs=(x,), shard_plan=str(plan),
                        output=str(tmp_path / "p.so"))
    assert "--shard-plan=" in open(path, "rb").read().decode("latin-1")
    plan.write_text("plan tp:2\n/0/Gemm sideways\n")
    with pytest.raises(kiln.CompileError, match="mlp.plan:2: 'sideways'"):
        kiln.compile(net, example_inputs=(x,), shard_plan=str(plan),
                     output=str(tmp_path / "p.so"))


# ---- kiln.ir and kiln.passes: scripting the compiler in process ---------

KILN_BIN = os.environ.get("KILN_BIN", os.path.join(SRC, "build", "bin"))
MLP = os.path.join(SRC, "examples", "mlp.mlir")
PIPELINE = ("builtin.module(func.func(graph-verify,graph-cse,canonicalize),"
            "graph-dce)")


def test_pipeline_equals_kiln_opt():
    import subprocess
    expected = subprocess.run(
        [os.path.join(KILN_BIN, "kiln-opt"), MLP,
         "--pass-pipeline=" + PIPELINE],
        check=True, stdout=subprocess.PIPE, text=True).stdout
    m = kiln.ir.Module.parse(open(MLP).read())
    assert m.stage == "import"
    assert str(m.run(PIPELINE)) + "\n" == expected
    assert str(kiln.ir.Module.load(MLP).run(PIPELINE)) + "\n" == expected


def test_passes():
    names = kiln.passes.list()
    for name in ("graph-cse", "graph-O3", "cpu", "canonicalize",
                 "convert-linalg-to-loops"):
        assert name in names
    assert names.index("graph-cse") < names.index("canonicalize")
    assert all(summary for _, summary in kiln.passes.kiln())


def test_stages():
    m = kiln.ir.Module.from_onnx(add_model(), input_shapes={"x": (2, 3)})
    assert "graph.add" in str(m) and m.stage == "import"
    assert "linalg." in str(m.lower("linalg")) and m.stage == "linalg"
    assert "llvm.func" in str(m.lower("llvm"))
    with pytest.raises(kiln.CompileError, match="at the llvm stage, past graph"):
        m.lower("graph")
    with pytest.raises(kiln.CompileError, match="needs --target=cuda"):
        kiln.ir.Module.from_onnx(add_model(),
                                 input_shapes={"x": (2, 3)}).lower("gpu")
    with pytest.raises(ValueError):
        m.lower("bogus")


def test_emit_and_library(tmp_path):
    def fresh():
        return kiln.ir.Module.from_onnx(add_model(),
                                        input_shapes={"x": (2, 3)})
    assert "kiln_model_run" in fresh().emit("llvm-ir")
    assert "kiln_model_run" in fresh().emit("asm")
    assert fresh().emit("obj")[:4] == b"\x7fELF"
    with pytest.raises(ValueError):
        fresh().emit("ptx")
    path = fresh().write_library(tmp_path / "add.so")
    x = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(kiln.load(path).run(x)[0], x + x)
    assert [p.name for p in tmp_path.iterdir()] == ["add.so"]


def test_ir_errors():
    with pytest.raises(kiln.CompileError,
                       match="expects exactly 2 operands, but got 0"):
        kiln.ir.Module.parse('func.func @f() {\n  %0 = "graph.add"() : '
                             '() -> tensor<f32>\n  return\n}')
    m = kiln.ir.Module.parse(open(MLP).read())
    with pytest.raises(kiln.CompileError,
                       match="unknown pass or pipeline 'no-such-pass'"):
        m.run("no-such-pass")
    with pytest.raises(kiln.CompileError, match="not a valid ONNX model"):
        kiln.ir.Module.from_onnx(b"\x08\x07garbage")
    with pytest.raises(kiln.CompileError, match="riscv64"):
        kiln.ir.Module(target="riscv64-linux-gnu")


def test_metadata_round_trip(tmp_path):
    """What the compiler writes into a library's metadata (names, element
    types, shapes) the runtime reads back field for field, names with the
    ABI's escaped bytes included."""
    specs = [("plain", TensorProto.FLOAT, (2, 3), np.float32),
             ("100% sure", TensorProto.DOUBLE, (1,), np.float64),
             ("two\nlines\r", TensorProto.INT8, (4, 1, 2), np.int8),
             ("%0A literal", TensorProto.UINT16, (3,), np.uint16),
             ("big", TensorProto.INT64, (2, 2), np.int64),
             ("flags", TensorProto.BOOL, (5,), np.bool_),
             ("half", TensorProto.FLOAT16, (2,), np.float16),
             ("scalar", TensorProto.INT32, (), np.int32)]
    graph = helper.make_graph(
        [helper.make_node("Identity", [n], ["out " + n], name="id%d" % i)
         for i, (n, _, _, _) in enumerate(specs)], "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s, _ in specs],
        [helper.make_tensor_value_info("out " + n, t, s)
         for n, t, s, _ in specs])
    model = helper.make_model(graph,
                              opset_imports=[helper.make_opsetid("", 17)])
    m = kiln.load(kiln.compile(model, output=tmp_path / "m.so"))
    assert [(i.name, i.shape, i.dtype) for i in m.inputs] == [
        (n, s, np.dtype(d)) for n, _, s, d in specs]
    assert [(o.name, o.shape, o.dtype) for o in m.outputs] == [
        ("out " + n, s, np.dtype(d)) for n, _, s, d in specs]
    rng = np.random.default_rng(0)
    values = [(rng.random(s) * 100).astype(d) for _, _, s, d in specs]
    for got, want in zip(m.run(*values), values):
        np.testing.assert_array_equal(got, want)


def test_profile(library):
    with kiln.load(library) as plain:
        assert not plain.profiled
        with pytest.raises(kiln.KilnError, match="--profile"):
            plain.profile()
    m = kiln.compile(os.path.join(SHAPES, "shapes_cnn.onnx"), profile=True)
    assert m.profiled
    x, expected = sample("cross")
    for _ in range(3):
        np.testing.assert_allclose(m.run(x)[0], expected, rtol=1e-3,
                                   atol=1e-5)
    records = m.profile()
    ops = {op for r in records for _, op in r["nodes"]}
    assert "Conv" in ops and all(r["runs"] == 3 for r in records)
    assert any(r["flops"] > 0 for r in records)
    whole = records[-1]
    assert whole["nodes"] == [] and whole["total_ms"] > 0
    assert sum(r["total_ms"] for r in records[:-1]) <= whole["total_ms"] * 1.5
    m.reset_profile()
    assert all(r["runs"] == 0 for r in m.profile())


def test_dynamic_library():
    # A library whose batch dim is dynamic (the runtime tests' hand-written
    # one): any batch runs, the outputs are sized by the model's shape
    # function, inputs that share 'batch' must agree on it.
    path = os.path.join(KILN_BIN, "..", "lib", "kiln-fake-model-dynamic.so")
    with kiln.load(path) as m:
        assert m.inputs[0].shape == (None, 4)
        assert m.inputs[0].dim_names == ("batch", None)
        assert repr(m.outputs[0]) == "TensorInfo('y', f32[batch=?, 4])"
        for batch in (1, 3, 6):
            x = np.arange(4 * batch, dtype=np.float32).reshape(batch, 4)
            scale = np.arange(1, batch + 1, dtype=np.float32)
            (y,) = m.run(x, scale)
            np.testing.assert_array_equal(y, x * scale[:, None])
        with pytest.raises(kiln.KilnError, match="share its size"):
            m.run(np.zeros((3, 4), np.float32), np.zeros(2, np.float32))
        with pytest.raises(kiln.KilnError, match=r"the model takes \[\?, 4\]"):
            m.run(np.zeros((3, 5), np.float32), np.zeros(3, np.float32))


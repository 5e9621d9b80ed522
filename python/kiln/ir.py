"""Scripting Kiln's compiler: modules, pass pipelines and stages, in
process, through the compiler session API (include/kiln/session.h).

    m = kiln.ir.Module.parse(open("model.mlir").read())
    m.run("builtin.module(func.func(graph-cse,canonicalize),graph-dce)")
    print(m)                                   # as kiln-opt would print it
    m = kiln.ir.Module.from_onnx("model.onnx").lower("linalg")
"""

import ctypes
import os
import warnings

from . import _compiler as kc
from ._runtime import CompileError


class Session:
    """The options of a compilation (target, CPU, -O level, input shapes,
    tuning log, GPU architecture) and an MLIR context. Messages go to
    `messages` (severity, location or None, text) until taken.
    `specialize` maps dim names to sizes (an int or a list) to add static
    fast paths for, every combination, as kiln-compile --specialize;
    `precision` ("fp32", "fp16" or "bf16") as kiln-compile --precision;
    `shard` a sharding plan ("tp:2", "dp:4") as kiln-compile --shard,
    `shard_plan` a hand-written plan's file as kiln-compile --shard-plan."""

    def __init__(self, *, target="host", cpu=None, opt_level=3,
                 input_shapes=None, dims=None, dynamic=False, tuning_log=None,
                 gpu_arch=None, runtime_checks=True, profile=False, jobs=0,
                 specialize=None, precision="fp32", shard=None,
                 shard_plan=None):
        if opt_level not in (0, 1, 2, 3):
            raise ValueError("opt_level must be 0..3, not %r" % (opt_level,))
        if dynamic not in (False, True, "all"):
            raise ValueError("dynamic must be False, True or 'all', not %r"
                             % (dynamic,))
        lib = kc.lib()
        self.messages = []
        self._keep = []  # ctypes objects the session points at

        def on_message(severity, location, text, _):
            self.messages.append((severity.decode(),
                                  location.decode("utf-8", "replace")
                                  if location else None,
                                  text.decode("utf-8", "replace")))

        shapes = list((input_shapes or {}).items())
        shape_array = (kc.InputShape * max(len(shapes), 1))()
        for i, (name, shape) in enumerate(shapes):
            arr = (ctypes.c_int64 * max(len(shape), 1))(
                *[int(d) for d in shape])
            self._keep += [arr, name.encode()]
            shape_array[i] = kc.InputShape(self._keep[-1], arr, len(shape), 0)
        bindings = list((dims or {}).items())
        dim_array = (kc.DimBinding * max(len(bindings), 1))()
        for i, (name, size) in enumerate(bindings):
            self._keep.append(name.encode())
            dim_array[i] = kc.DimBinding(self._keep[-1], int(size))
        specs = list((specialize or {}).items())
        spec_array = (kc.SpecializedSizes * max(len(specs), 1))()
        for i, (name, sizes) in enumerate(specs):
            sizes = [sizes] if isinstance(sizes, int) else list(sizes)
            arr = (ctypes.c_int64 * max(len(sizes), 1))(
                *[int(n) for n in sizes])
            self._keep += [arr, name.encode()]
            spec_array[i] = kc.SpecializedSizes(self._keep[-1], arr,
                                                len(sizes))
        self._on_message = kc.MessageFn(on_message)
        options = kc.SessionOptions(
            target=kc.TargetOptions(
                target.encode() if target else None,
                cpu.encode() if cpu else None, opt_level,
                gpu_arch.encode() if gpu_arch else None),
            inputShapes=shape_array, numInputShapes=len(shapes),
            dims=dim_array, numDims=len(bindings),
            dynamicDims=2 if dynamic == "all" else int(dynamic),
            specialize=spec_array, numSpecialize=len(specs),
            tuningLog=os.fsencode(tuning_log) if tuning_log else None,
            precision=str(precision).encode(),
            shard=str(shard).encode() if shard else None,
            shardPlanFile=os.fsencode(shard_plan) if shard_plan else None,
            noRuntimeChecks=not runtime_checks, profile=profile, jobs=jobs,
            onMessage=self._on_message, onStage=kc.StageFn())
        self._keep += [shape_array, dim_array, spec_array]
        self._handle = lib.kilnSessionCreate(ctypes.byref(options))
        if not self._handle:
            raise CompileError(self.take_messages() or
                               "cannot create a session")

    def take_messages(self):
        """The messages so far as text (diagnostics "LOC: SEVERITY: TEXT"),
        cleared; warnings are also given to Python's warnings module."""
        lines = []
        for severity, location, text in self.messages:
            if location:
                lines.append("%s: %s: %s" % (location, severity, text))
            elif severity == "warning":
                warnings.warn(text, stacklevel=3)
            elif severity != "remark":
                lines.append(text)
        self.messages = []
        return "\n".join(lines)

    def close(self):
        if getattr(self, "_handle", None):
            kc.lib().kilnSessionDestroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()


def _collect(call, *args):
    """Runs a printing call with a string callback; returns the bytes."""
    chunks = []
    cb = kc.StringFn(lambda data, n, _: chunks.append(ctypes.string_at(data, n)))
    result = call(*args, cb, None)
    return result, b"".join(chunks)


class Module:
    """A module in one invocation of a Session: made by parse, from_onnx or
    load; transformed by run (a pass pipeline) and lower (a named stage);
    printed by str(); compiled by emit and write_library."""

    def __init__(self, session=None, **session_options):
        self.session = session or Session(**session_options)
        self._inv = kc.lib().kilnInvocationCreate(self.session._handle)

    def __del__(self):
        if getattr(self, "_inv", None):
            kc.lib().kilnInvocationDestroy(self._inv)
            self._inv = None

    def _check(self, ok, what):
        messages = self.session.take_messages()
        if not ok:
            raise CompileError(messages or "%s failed" % what)
        return self

    @classmethod
    def parse(cls, text, *, name="<string>", **session_options):
        """Parses MLIR text (graph dialect or any upstream dialect)."""
        m = cls(**session_options)
        data = text.encode() if isinstance(text, str) else bytes(text)
        return m._check(kc.lib().kilnInvocationParseText(
            m._inv, data, len(data), name.encode()), "parsing")

    @classmethod
    def load(cls, path, **session_options):
        """Reads a .mlir file (parsed) or an ONNX model (imported)."""
        m = cls(**session_options)
        return m._check(kc.lib().kilnInvocationParseSource(
            m._inv, os.fsencode(path)), "loading %s" % path)

    @classmethod
    def from_onnx(cls, model, **session_options):
        """Imports an ONNX model: a path, bytes or an onnx.ModelProto."""
        if isinstance(model, (str, os.PathLike)):
            return cls.load(model, **session_options)
        data = (model.SerializeToString()
                if hasattr(model, "SerializeToString") else bytes(model))
        m = cls(**session_options)
        return m._check(kc.lib().kilnInvocationImportOnnx(
            m._inv, data, len(data), b"<onnx>"), "importing")

    def run(self, pipeline):
        """Runs a textual pass pipeline (kiln-opt's syntax: Kiln's and
        upstream passes and Kiln's named pipelines); returns the module."""
        return self._check(kc.lib().kilnInvocationRunPipeline(
            self._inv, pipeline.encode()), "the pipeline")

    def lower(self, stage):
        """Runs the compilation's stages up to `stage` ("graph", "linalg",
        "gpu" with target="cuda", "llvm"); returns the module."""
        if stage not in kc.STAGES[1:]:
            raise ValueError("stage must be one of %s, not %r"
                             % (", ".join(kc.STAGES[1:]), stage))
        return self._check(kc.lib().kilnInvocationRunUntil(
            self._inv, kc.STAGES.index(stage)), "lowering to %s" % stage)

    @property
    def stage(self):
        """The stage the module is at ("import", "graph", ...)."""
        return kc.STAGES[kc.lib().kilnInvocationGetStage(self._inv)]

    def print(self, debug_info=False):
        """The module as MLIR text (with locations when `debug_info`)."""
        _, text = _collect(kc.lib().kilnInvocationPrintModule, self._inv,
                           debug_info)
        return text.decode("utf-8", "replace")

    def __str__(self):
        return self.print()

    def emit(self, kind):
        """Compiles to "llvm-ir", "asm" (text) or "obj" (bytes) for the
        model library ABI (from the graph stage or before)."""
        if kind not in kc.EMIT:
            raise ValueError("kind must be llvm-ir, asm or obj, not %r"
                             % (kind,))
        ok, data = _collect(kc.lib().kilnInvocationEmitCode, self._inv,
                            kc.EMIT[kind])
        self._check(ok, "code generation")
        return data if kind == "obj" else data.decode()

    def write_library(self, path):
        """Compiles the model library to `path` (replaced only when done);
        returns the path."""
        path = os.fspath(path)
        tmp = "%s.kiln-%d.tmp" % (path, os.getpid())
        self._check(kc.lib().kilnInvocationWriteLibrary(
            self._inv, os.fsencode(tmp)), "compiling %s" % path)
        os.replace(tmp, path)
        return path

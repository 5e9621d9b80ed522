"""Loaded model libraries: kiln.load(path) -> Model."""

import ctypes
import os

import numpy as np

from . import _runtime as rt
from ._runtime import KilnError


class TensorInfo:
    """An input or output of a model: name, shape (a tuple; None for a dim
    of dynamic size), NumPy dtype (None for bf16, which NumPy lacks), Kiln's
    element type name, and the model's name for each dim (its ONNX
    dim_param, such as "batch"; None for a dim without one)."""

    def __init__(self, name, shape, dtype, element_type, dim_names=None):
        self.name = name
        self.shape = shape
        self.dtype = dtype
        self.element_type = element_type
        self.dim_names = dim_names or (None,) * len(shape)

    def __repr__(self):
        dims = ", ".join(("%s=%s" % (n, "?" if d is None else d)) if n
                         else "?" if d is None else str(d)
                         for n, d in zip(self.dim_names, self.shape))
        return "TensorInfo(%r, %s[%s])" % (self.name, self.element_type,
                                           dims)


def _infos(handle, side):
    get = lambda what: getattr(rt.lib, "kilnModelGet%s%s" % (side, what))
    infos = []
    for i in range(getattr(rt.lib, "kilnModelGetNum%ss" % side)(handle)):
        rank = get("Rank")(handle, i)
        dims = get("Dims")(handle, i)
        kind = get("ElementType")(handle, i)
        names = tuple(get("DimName")(handle, i, d) for d in range(rank))
        infos.append(TensorInfo(get("Name")(handle, i).decode(),
                                tuple(None if dims[d] < 0 else dims[d]
                                      for d in range(rank)),
                                rt.ELEMENT_DTYPES[kind],
                                rt.ELEMENT_NAMES[kind],
                                tuple(n.decode() if n is not None else None
                                      for n in names)))
    return infos


def _tensor_over(array, info):
    """A KilnTensor over `array`'s buffer (no copy)."""
    dims = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    out = ctypes.c_void_p()
    kind = rt.ELEMENT_NAMES.index(info.element_type)
    rt.check(rt.kilnTensorCreateWithBuffer(
        kind, array.ndim, dims, array.ctypes.data_as(ctypes.c_void_p),
        max(array.nbytes, 1), ctypes.byref(out)))
    return out


class Model:
    """A model library loaded by libkiln_runtime.

    `inputs` and `outputs` list TensorInfo; `run(*arrays, **named)` returns
    the outputs as a list of NumPy arrays, in order. Arrays must have the
    model's dtype and shape exactly (no silent conversion); a C-contiguous
    array is passed without a copy, and outputs are written in place into
    fresh arrays."""

    def __init__(self, path, threads=None, _keep=None):
        self.path = os.fspath(path)
        handle = ctypes.c_void_p()
        rt.check(rt.kilnModelLoad(self.path.encode(), ctypes.byref(handle)))
        self._handle = handle
        self._keep = _keep  # a temporary directory holding the library
        self.inputs = _infos(handle, "Input")
        self.outputs = _infos(handle, "Output")
        if threads is not None:
            self.set_threads(threads)

    def close(self):
        """Unloads the library (also done when the Model is collected)."""
        if getattr(self, "_handle", None):
            rt.kilnModelDestroy(self._handle)
            self._handle = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _live(self):
        if not self._handle:
            raise KilnError("%s: the model is closed" % self.path)
        return self._handle

    def set_threads(self, n):
        """Runs use `n` OpenMP threads (the default: OMP_NUM_THREADS, else
        all cores)."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise TypeError("threads must be an int, not %s"
                            % type(n).__name__)
        rt.check(rt.kilnModelSetThreadCount(self._live(), n))

    def metadata(self):
        """What the library records: Kiln version, target, CPU, features,
        options, GPU (None for a CPU model), memory plan in bytes and the
        static fast paths' dims ("batch=1 seq=128", kiln-compile
        --specialize)."""
        h = self._live()
        text = lambda name: (getattr(rt.lib, "kilnModelGet" + name)(h) or b"")
        gpu = rt.lib.kilnModelGetGpu(h)
        return {"kiln_version": text("KilnVersion").decode(),
                "target": text("Target").decode(),
                "cpu": text("Cpu").decode(),
                "features": text("Features").decode(),
                "options": text("Options").decode(),
                "gpu": gpu.decode() if gpu else None,
                "memory_plan": rt.lib.kilnModelGetMemoryPlan(h),
                "specializations": [
                    rt.lib.kilnModelGetSpecialization(h, i).decode()
                    for i in range(rt.lib.kilnModelGetNumSpecializations(h))]}

    @property
    def profiled(self):
        """Whether the library was compiled with profiling (kiln-compile
        --profile, kiln.compile(..., profile=True))."""
        return bool(rt.lib.kilnModelIsProfiled(self._live()))

    def profile(self):
        """The per-op profile of the runs so far: a list of dicts, one per
        record (a fused group or an ONNX node, in program order) with its
        "nodes" ((name, op type) pairs), output "shape", "flops" per run,
        "runs", "total_ms", "mean_ms" and "last_ms"; then one for the whole
        run (nodes empty). Raises KilnError for an unprofiled library."""
        h = self._live()
        lib = rt.lib
        records = []
        n = lib.kilnModelGetNumProfileRecords(h)
        for i in range(n + 1):
            times = rt.ProfileTimes()
            rt.check(lib.kilnModelGetProfileTimes(h, i, ctypes.byref(times)))
            record = {"nodes": [], "shape": None, "flops": 0}
            if i < n:
                record["nodes"] = [
                    (lib.kilnModelGetProfileRecordNodeName(h, i, j).decode(),
                     lib.kilnModelGetProfileRecordNodeOpType(h, i, j)
                     .decode())
                    for j in range(lib.kilnModelGetProfileRecordNumNodes(h, i))]
                rank = lib.kilnModelGetProfileRecordRank(h, i)
                if rank >= 0:
                    dims = lib.kilnModelGetProfileRecordDims(h, i)
                    record["shape"] = tuple(dims[d] for d in range(rank))
                record["flops"] = lib.kilnModelGetProfileRecordFlops(h, i)
            record.update(runs=times.runs, total_ms=times.totalNs / 1e6,
                          mean_ms=times.totalNs / 1e6 / max(times.runs, 1),
                          last_ms=times.lastNs / 1e6)
            records.append(record)
        return records

    def reset_profile(self):
        """Zeroes the profile's counters."""
        rt.check(rt.lib.kilnModelResetProfile(self._live()))

    def _arrays(self, args, named):
        if len(args) > len(self.inputs):
            raise KilnError("%s: %d inputs given, the model takes %d"
                            % (self.path, len(args), len(self.inputs)))
        by_name = {info.name: i for i, info in enumerate(self.inputs)}
        arrays = list(args) + [None] * (len(self.inputs) - len(args))
        for name, value in named.items():
            if name not in by_name:
                raise KilnError("%s: the model has no input '%s' (inputs: %s)"
                                % (self.path, name,
                                   ", ".join(i.name for i in self.inputs)))
            if arrays[by_name[name]] is not None:
                raise KilnError("%s: input '%s' given twice"
                                % (self.path, name))
            arrays[by_name[name]] = value
        checked = []
        for info, a in zip(self.inputs, arrays):
            if a is None:
                raise KilnError("%s: input '%s' is missing"
                                % (self.path, info.name))
            checked.append(self._checked(info, a))
        return checked

    def _checked(self, info, a):
        if info.dtype is None:
            raise KilnError("%s: input '%s' is %s, which NumPy cannot hold"
                            % (self.path, info.name, info.element_type))
        if not isinstance(a, np.ndarray):
            a = np.asarray(a)
        if a.dtype != info.dtype:
            raise KilnError(
                "%s: input '%s' is %s, the model takes %s%s (convert it "
                "with .astype(numpy.%s))" % (self.path, info.name, a.dtype,
                                             info.element_type,
                                             list(info.shape), info.dtype))
        if len(a.shape) != len(info.shape) or any(
                want is not None and got != want
                for got, want in zip(a.shape, info.shape)):
            raise KilnError("%s: input '%s' has shape %s, the model takes %s"
                            % (self.path, info.name, list(a.shape),
                               "[%s]" % ", ".join("?" if d is None else str(d)
                                                  for d in info.shape)))
        # (ascontiguousarray would turn a 0-d array into a 1-d one.)
        return np.ascontiguousarray(a).reshape(a.shape)

    def run(self, *args, **named):
        """Runs the model on the inputs (positional, in order, or by name)
        and returns its outputs, a list of NumPy arrays."""
        handle = self._live()
        inputs = self._arrays(args, named)
        for info in self.outputs:
            if info.dtype is None:
                raise KilnError("%s: output '%s' is %s, which NumPy cannot "
                                "hold" % (self.path, info.name,
                                          info.element_type))
        tensors = []
        try:
            for array, info in zip(inputs, self.inputs):
                tensors.append(_tensor_over(array, info))
            ins = (ctypes.c_void_p * max(len(inputs), 1))(*tensors)
            # Query, then run: the outputs' dims follow from the inputs'.
            dims = [(ctypes.c_int64 * max(len(info.shape), 1))()
                    for info in self.outputs]
            rows = (ctypes.POINTER(ctypes.c_int64) * max(len(dims), 1))(
                *[ctypes.cast(d, ctypes.POINTER(ctypes.c_int64))
                  for d in dims])
            rt.check(rt.kilnModelGetOutputDimsFor(handle, ins, len(inputs),
                                                  rows))
            outputs = []
            for d, info in zip(dims, self.outputs):
                outputs.append(np.empty(tuple(d[:len(info.shape)]),
                                        info.dtype))
                tensors.append(_tensor_over(outputs[-1], info))
            outs = (ctypes.c_void_p * max(len(outputs), 1))(
                *tensors[len(inputs):])
            rt.check(rt.kilnModelRun(handle, ins, len(inputs), outs,
                                     len(outputs)))
        finally:
            for t in tensors:
                rt.kilnTensorDestroy(t)
        return outputs

    def __call__(self, *args, **named):
        return self.run(*args, **named)

    def __repr__(self):
        return "kiln.Model(%r, inputs=%s, outputs=%s)" % (
            self.path, self.inputs, self.outputs)


def load(path, *, threads=None):
    """Loads a model library compiled by kiln-compile (or kiln.compile)."""
    return Model(path, threads=threads)

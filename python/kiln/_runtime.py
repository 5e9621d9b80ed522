"""ctypes bindings of libkiln_runtime (include/kiln/kiln_runtime.h), found
as $KILN_RUNTIME_LIBRARY or beside the package (_library.py)."""

import ctypes

import numpy as np

from . import _library

lib = _library.load("libkiln_runtime.so.0", "KILN_RUNTIME_LIBRARY",
                    "libkiln_runtime (the runtime)")

_status = ctypes.c_void_p
_model = ctypes.c_void_p
_tensor = ctypes.c_void_p
_i64p = ctypes.POINTER(ctypes.c_int64)


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


kilnStatusGetMessage = _fn("kilnStatusGetMessage", ctypes.c_char_p, _status)
kilnStatusDestroy = _fn("kilnStatusDestroy", None, _status)
kilnRuntimeGetVersion = _fn("kilnRuntimeGetVersion", ctypes.c_char_p)
kilnTensorCreateWithBuffer = _fn(
    "kilnTensorCreateWithBuffer", _status, ctypes.c_int, ctypes.c_int64,
    _i64p, ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(_tensor))
kilnTensorDestroy = _fn("kilnTensorDestroy", None, _tensor)
kilnModelLoad = _fn("kilnModelLoad", _status, ctypes.c_char_p,
                    ctypes.POINTER(_model))
kilnModelDestroy = _fn("kilnModelDestroy", None, _model)
kilnModelSetThreadCount = _fn("kilnModelSetThreadCount", _status, _model,
                              ctypes.c_int)
kilnModelRun = _fn("kilnModelRun", _status, _model,
                   ctypes.POINTER(_tensor), ctypes.c_size_t,
                   ctypes.POINTER(_tensor), ctypes.c_size_t)
kilnModelGetOutputDimsFor = _fn(
    "kilnModelGetOutputDimsFor", _status, _model, ctypes.POINTER(_tensor),
    ctypes.c_size_t, ctypes.POINTER(_i64p))
for _side in ("Input", "Output"):
    _fn("kilnModelGetNum%ss" % _side, ctypes.c_int64, _model)
    _fn("kilnModelGet%sName" % _side, ctypes.c_char_p, _model, ctypes.c_int64)
    _fn("kilnModelGet%sElementType" % _side, ctypes.c_int, _model,
        ctypes.c_int64)
    _fn("kilnModelGet%sRank" % _side, ctypes.c_int64, _model, ctypes.c_int64)
    _fn("kilnModelGet%sDims" % _side, _i64p, _model, ctypes.c_int64)
    _fn("kilnModelGet%sDimName" % _side, ctypes.c_char_p, _model,
        ctypes.c_int64, ctypes.c_int64)
for _name in ("KilnVersion", "Target", "Cpu", "Features", "Options", "Gpu"):
    _fn("kilnModelGet" + _name, ctypes.c_char_p, _model)
_fn("kilnModelGetMemoryPlan", ctypes.c_int64, _model)
_fn("kilnModelGetNumSpecializations", ctypes.c_int64, _model)
_fn("kilnModelGetSpecialization", ctypes.c_char_p, _model, ctypes.c_int64)
_fn("kilnModelIsProfiled", ctypes.c_bool, _model)
_fn("kilnModelGetNumProfileRecords", ctypes.c_int64, _model)
_fn("kilnModelGetProfileRecordNumNodes", ctypes.c_int64, _model,
    ctypes.c_int64)
_fn("kilnModelGetProfileRecordNodeName", ctypes.c_char_p, _model,
    ctypes.c_int64, ctypes.c_int64)
_fn("kilnModelGetProfileRecordNodeOpType", ctypes.c_char_p, _model,
    ctypes.c_int64, ctypes.c_int64)
_fn("kilnModelGetProfileRecordRank", ctypes.c_int64, _model, ctypes.c_int64)
_fn("kilnModelGetProfileRecordDims", _i64p, _model, ctypes.c_int64)
_fn("kilnModelGetProfileRecordFlops", ctypes.c_int64, _model, ctypes.c_int64)


class ProfileTimes(ctypes.Structure):
    _fields_ = [("runs", ctypes.c_int64), ("totalNs", ctypes.c_int64),
                ("lastNs", ctypes.c_int64), ("lastStartNs", ctypes.c_int64)]


_fn("kilnModelGetProfileTimes", _status, _model, ctypes.c_int64,
    ctypes.POINTER(ProfileTimes))
_fn("kilnModelResetProfile", _status, _model)

# KilnElementType, in the enum's order, as NumPy dtypes (bf16 has none).
ELEMENT_DTYPES = [np.dtype(np.float16), None, np.dtype(np.float32),
                  np.dtype(np.float64), np.dtype(np.int8), np.dtype(np.int16),
                  np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint8),
                  np.dtype(np.uint16), np.dtype(np.uint32),
                  np.dtype(np.uint64), np.dtype(np.bool_)]
ELEMENT_NAMES = ["f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64", "u8",
                 "u16", "u32", "u64", "bool"]


class KilnError(RuntimeError):
    """An error reported by Kiln: its message is Kiln's diagnostic."""


class CompileError(KilnError):
    """The compiler failed; the message holds its diagnostics, one per line
    ("LOCATION: error: TEXT", the location naming the ONNX node)."""


def check(status):
    """Raises KilnError with the status' message; releases it."""
    if status:
        message = kilnStatusGetMessage(status).decode("utf-8", "replace")
        kilnStatusDestroy(status)
        raise KilnError(message)

"""ctypes bindings of libkiln (the compiler's C API, include/kiln/session.h),
found as $KILN_LIBRARY or beside the package (_library.py) and loaded on
first use: kiln.load and Model.run need only the runtime.
"""

import ctypes

from . import _library

_lib = None

STAGES = ["none", "import", "graph", "linalg", "gpu", "llvm"]
EMIT = {"llvm-ir": 0, "asm": 1, "obj": 2}


class TargetOptions(ctypes.Structure):
    _fields_ = [("target", ctypes.c_char_p), ("cpu", ctypes.c_char_p),
                ("optLevel", ctypes.c_int), ("gpuArch", ctypes.c_char_p)]


class InputShape(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p),
                ("dims", ctypes.POINTER(ctypes.c_int64)),
                ("rank", ctypes.c_ssize_t), ("position", ctypes.c_ssize_t)]


class DimBinding(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("size", ctypes.c_int64)]


class SpecializedSizes(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p),
                ("sizes", ctypes.POINTER(ctypes.c_int64)),
                ("numSizes", ctypes.c_ssize_t)]


MessageFn = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_char_p,
                             ctypes.c_char_p, ctypes.c_void_p)
StageFn = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_void_p)
StringFn = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_size_t,
                            ctypes.c_void_p)


class SessionOptions(ctypes.Structure):
    _fields_ = [("target", TargetOptions),
                ("inputShapes", ctypes.POINTER(InputShape)),
                ("numInputShapes", ctypes.c_ssize_t),
                ("dims", ctypes.POINTER(DimBinding)),
                ("numDims", ctypes.c_ssize_t),
                ("dynamicDims", ctypes.c_int),
                ("specialize", ctypes.POINTER(SpecializedSizes)),
                ("numSpecialize", ctypes.c_ssize_t),
                ("tuningLog", ctypes.c_char_p),
                ("precision", ctypes.c_char_p),
                ("shard", ctypes.c_char_p),
                ("shardPlanFile", ctypes.c_char_p),
                ("noRuntimeChecks", ctypes.c_bool),
                ("profile", ctypes.c_bool), ("timePasses", ctypes.c_bool),
                ("cubin", ctypes.c_bool), ("gpuTf32", ctypes.c_bool),
                ("jobs", ctypes.c_uint),
                ("onMessage", MessageFn), ("onStage", StageFn),
                ("userData", ctypes.c_void_p)]


class PassInfo(ctypes.Structure):
    """The leading fields of KilnPassInfo and KilnUpstreamPassInfo."""
    _fields_ = [("argument", ctypes.c_char_p), ("summary", ctypes.c_char_p)]


def lib():
    """libkiln, loaded and its functions typed on first use."""
    global _lib
    if _lib is not None:
        return _lib
    loaded = _library.load("libkiln.so.0", "KILN_LIBRARY",
                           "libkiln (the compiler)")
    p = ctypes.c_void_p

    def fn(name, restype, *argtypes):
        f = getattr(loaded, name)
        f.restype = restype
        f.argtypes = list(argtypes)

    fn("kilnSessionOptionsGetSize", ctypes.c_size_t)
    if loaded.kilnSessionOptionsGetSize() != ctypes.sizeof(SessionOptions):
        raise ImportError(
            "kiln: libkiln's KilnSessionOptions is %d bytes, this package's "
            "mirror of it %d: the package and the library come from "
            "different builds" % (loaded.kilnSessionOptionsGetSize(),
                                  ctypes.sizeof(SessionOptions)))
    fn("kilnSessionCreate", p, ctypes.POINTER(SessionOptions))
    fn("kilnSessionDestroy", None, p)
    fn("kilnInvocationCreate", p, p)
    fn("kilnInvocationDestroy", None, p)
    fn("kilnInvocationGetError", ctypes.c_int, p)
    fn("kilnInvocationParseSource", ctypes.c_bool, p, ctypes.c_char_p)
    fn("kilnInvocationParseText", ctypes.c_bool, p, ctypes.c_char_p,
       ctypes.c_size_t, ctypes.c_char_p)
    fn("kilnInvocationImportOnnx", ctypes.c_bool, p, ctypes.c_char_p,
       ctypes.c_size_t, ctypes.c_char_p)
    fn("kilnInvocationRunUntil", ctypes.c_bool, p, ctypes.c_int)
    fn("kilnInvocationRunPipeline", ctypes.c_bool, p, ctypes.c_char_p)
    fn("kilnInvocationGetStage", ctypes.c_int, p)
    fn("kilnInvocationPrintModule", None, p, ctypes.c_bool, StringFn, p)
    fn("kilnInvocationEmitCode", ctypes.c_bool, p, ctypes.c_int, StringFn, p)
    fn("kilnInvocationWriteLibrary", ctypes.c_bool, p, ctypes.c_char_p)
    fn("kilnInvocationEmitKernels", ctypes.c_bool, p, StringFn, p)
    fn("kilnPassRegistryGetCount", ctypes.c_ssize_t)
    fn("kilnPassRegistryGetAt", ctypes.POINTER(PassInfo), ctypes.c_ssize_t)
    fn("kilnUpstreamPassGetCount", ctypes.c_ssize_t)
    fn("kilnUpstreamPassGetAt", ctypes.POINTER(PassInfo), ctypes.c_ssize_t)
    fn("kilnGetVersion", ctypes.c_char_p)
    _lib = loaded
    return _lib

"""Kiln, a deep-learning compiler, from Python.

    import kiln, numpy as np
    model = kiln.compile("model.onnx")          # or kiln.load("model.so")
    (probabilities,) = model.run(np.zeros((1, 3, 224, 224), np.float32))

kiln.load opens a model library through libkiln_runtime (ctypes); NumPy
arrays go in and come out without copies; dtypes and shapes are checked
before the call and errors raise kiln.KilnError with Kiln's message.
kiln.compile compiles a path, an onnx.ModelProto or a torch.nn.Module in
process; kiln.ir scripts pass pipelines and stages; kiln.passes lists the
passes. See docs/python.md.
"""

from . import ir, passes
from ._runtime import CompileError, KilnError
from ._runtime import kilnRuntimeGetVersion as _version
from .compiler import compile
from .model import Model, TensorInfo, load

__version__ = _version().decode()
__all__ = ["CompileError", "KilnError", "Model", "TensorInfo", "compile",
           "ir", "load", "passes", "__version__"]

"""kiln.compile: a model (a path, an onnx.ModelProto or a torch.nn.Module)
to a model library, through kiln-compile.

kiln-compile is found, in order: $KILN_COMPILE; beside the package in a
build tree (BUILD/python/kiln -> BUILD/bin) or an installed one
(PREFIX/lib/python3/dist-packages/kiln -> PREFIX/bin); PATH.
"""

import os
import shutil
import subprocess
import tempfile

from ._runtime import KilnError
from .model import Model

_HERE = os.path.dirname(os.path.abspath(__file__))


class CompileError(KilnError):
    """kiln-compile failed; the message holds its diagnostics."""


def _tool(name):
    env = os.environ.get("KILN_" + name.split("-")[1].upper())
    if env:
        return env
    for up in (("..", "..", "bin"), ("..", "..", "..", "..", "bin")):
        path = os.path.normpath(os.path.join(_HERE, *up, name))
        if os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if not found:
        raise KilnError("cannot find %s (set KILN_COMPILE, or put it on "
                        "PATH)" % name)
    return found


def _onnx_file(model, example_inputs, workdir):
    """The path of an ONNX file for `model`."""
    if isinstance(model, (str, os.PathLike)):
        return os.fspath(model)
    if hasattr(model, "SerializeToString"):  # onnx.ModelProto
        path = os.path.join(workdir, "model.onnx")
        with open(path, "wb") as f:
            f.write(model.SerializeToString())
        return path
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and isinstance(model, torch.nn.Module):
        if example_inputs is None:
            raise KilnError("compiling a torch.nn.Module needs "
                            "example_inputs (a tensor or a tuple of them)")
        if not isinstance(example_inputs, tuple):
            example_inputs = (example_inputs,)
        path = os.path.join(workdir, "model.onnx")
        model.eval()
        with torch.no_grad():
            torch.onnx.export(model, example_inputs, path, opset_version=17)
        return path
    raise TypeError("kiln.compile: model must be a path, an onnx.ModelProto "
                    "or a torch.nn.Module, not %s" % type(model).__name__)


def compile(model, *, target="host", cpu=None, opt_level=3,
            input_shapes=None, output=None, example_inputs=None,
            tuning_log=None, threads=None):
    """Compiles `model` ahead of time.

    With `output`, writes the library there and returns its path; without,
    returns the loaded kiln.Model. `input_shapes` maps input names to
    shapes for dims the model leaves symbolic; `example_inputs` is needed
    for a torch.nn.Module (exported with torch.onnx); `tuning_log` is a
    kiln-tune log. Raises CompileError carrying kiln-compile's diagnostics.
    """
    if opt_level not in (0, 1, 2, 3):
        raise ValueError("opt_level must be 0..3, not %r" % (opt_level,))
    workdir = tempfile.TemporaryDirectory(prefix="kiln-")
    try:
        args = [_tool("kiln-compile"),
                _onnx_file(model, example_inputs, workdir.name), "-q",
                "-O%d" % opt_level, "--target=" + target]
        if cpu:
            args.append("--cpu=" + cpu)
        for name, shape in (input_shapes or {}).items():
            args.append("--input-shape=%s=%s"
                        % (name, "x".join(str(int(d)) for d in shape)))
        if tuning_log:
            args.append("--tuning-log=" + os.fspath(tuning_log))
        library = (os.fspath(output) if output is not None
                   else os.path.join(workdir.name, "model.so"))
        args += ["-o", library]
        done = subprocess.run(args, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            raise CompileError(done.stderr.strip() or
                               "kiln-compile exited with %d"
                               % done.returncode)
        if output is not None:
            return library
        return Model(library, threads=threads, _keep=workdir)
    finally:
        if output is not None:
            workdir.cleanup()

"""kiln.compile: a model (a path, an onnx.ModelProto or a torch.nn.Module)
to a model library, in process, through the compiler session API
(kiln.ir, include/kiln/session.h)."""

import os
import tempfile

from . import ir
from ._runtime import KilnError
from .model import Model


def _onnx_source(model, example_inputs, workdir):
    """A path or an onnx.ModelProto for `model`."""
    if isinstance(model, (str, os.PathLike)) or hasattr(
            model, "SerializeToString"):
        return model
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
            input_shapes=None, dims=None, dynamic=False, output=None,
            example_inputs=None, tuning_log=None, threads=None,
            profile=False, specialize=None, precision="fp32", shard=None,
            shard_plan=None):
    """Compiles `model` ahead of time.

    With `output`, writes the library there and returns its path; without,
    returns the loaded kiln.Model. `input_shapes` maps input names to
    shapes for dims the model leaves symbolic, `dims` dim names (ONNX
    dim_params, such as "batch") to sizes for every input that has them;
    with `dynamic`, the dims neither gives stay dynamic (the library takes
    any size there; "all": every input dim not given); `specialize` maps
    dim names to sizes ({"batch": [1, 8]}) to add static fast paths for,
    run when the inputs have them (every combination, with `dynamic`);
    `example_inputs`
    is needed
    for a torch.nn.Module (exported with torch.onnx); `tuning_log` is a
    kiln-tune log; `profile` times every op group at run time
    (Model.profile()); `precision` "fp16" or "bf16" computes an f32 model
    in that type as PyTorch's autocast does (kiln-compile --precision);
    `shard` ("tp:N", "dp:N") makes a library that runs as N MPI processes
    (kiln-compile --shard; docs/scale-out.md), `shard_plan` a hand-written
    plan's file splitting named nodes' products (kiln-compile --shard-plan).
    Raises kiln.CompileError carrying the diagnostics.
    """
    workdir = tempfile.TemporaryDirectory(prefix="kiln-")
    try:
        module = ir.Module.from_onnx(
            _onnx_source(model, example_inputs, workdir.name),
            target=target, cpu=cpu, opt_level=opt_level,
            input_shapes=input_shapes, dims=dims, dynamic=dynamic,
            tuning_log=tuning_log, profile=profile, specialize=specialize,
            precision=precision, shard=shard, shard_plan=shard_plan)
        if output is not None:
            return module.write_library(output)
        library = module.write_library(os.path.join(workdir.name,
                                                    "model.so"))
        return Model(library, threads=threads, _keep=workdir)
    finally:
        if output is not None:
            workdir.cleanup()

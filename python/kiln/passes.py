"""The passes pipelines can name (kiln.ir.Module.run): Kiln's passes and
named pipelines, then every upstream MLIR pass, as kiln-opt --list-passes
lists them."""

import builtins

from . import _compiler as kc


def _entries(count, at):
    lib = kc.lib()
    for i in range(getattr(lib, count)()):
        info = getattr(lib, at)(i).contents
        yield info.argument.decode(), (info.summary or b"").decode()


def kiln():
    """Kiln's passes and named pipelines: (name, summary) pairs."""
    return builtins.list(_entries("kilnPassRegistryGetCount",
                                  "kilnPassRegistryGetAt"))


def upstream():
    """Upstream MLIR passes: (name, summary) pairs."""
    return builtins.list(_entries("kilnUpstreamPassGetCount",
                                  "kilnUpstreamPassGetAt"))


def list():  # noqa: A001 (the issue's name: kiln.passes.list())
    """Every pass name a pipeline can use, Kiln's first."""
    return [name for name, _ in kiln() + upstream()]

"""Finding Kiln's shared libraries from the package.

A library is found, in order: the environment variable naming it; beside
the package in a build tree (BUILD/python/kiln -> BUILD/lib) or an
installed one (PREFIX/lib/python3/dist-packages/kiln -> PREFIX/lib); the
loader's search path (the Debian packages install to /usr/lib).
"""

import ctypes
import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def load(soname, env_var, what):
    """The library `soname` (e.g. "libkiln.so.0") as a ctypes.CDLL."""
    candidates = [os.environ[env_var]] if os.environ.get(env_var) else []
    for up in (("..", "..", "lib"), ("..", "..", "..")):
        path = os.path.normpath(os.path.join(_HERE, *up, soname))
        if os.path.exists(path):
            candidates.append(path)
    candidates.append(soname)
    errors = []
    for path in candidates:
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            errors.append(str(e))
    raise ImportError("kiln: cannot load %s: %s" % (what, "; ".join(errors)))

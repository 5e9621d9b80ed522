# Lit configuration for Kiln's tests.
import os
import lit.formats

config.name = "Kiln"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
# Inputs/, fuzz corpora and regression inputs are data, not tests.
config.excludes = ["Inputs", "CMakeLists.txt", "corpus", "regressions"]
config.test_source_root = os.path.join(os.path.dirname(__file__), "test")
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

# Tools: Kiln's own, then LLVM's FileCheck/not/count.
config.environment["PATH"] = os.pathsep.join(
    [config.kiln_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%kiln_src", os.path.dirname(__file__)))
config.substitutions.append(("%kiln_bin", config.kiln_tools_dir))
# LLVM's libraries (libmlir_c_runner_utils for programs lowered by upstream
# passes alone).
config.substitutions.append(
    ("%llvm_lib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))
if config.kiln_sanitize:
    config.available_features.add("asan")
# Valgrind (a package scripts/setup.sh installs) runs the runtime's
# memory-error tests in the release build.
import shutil
if shutil.which("valgrind"):
    config.available_features.add("valgrind")

# Debian's AArch64 cross toolchain (gcc-aarch64-linux-gnu, which
# scripts/setup.sh installs): the runtime's cross build.
if shutil.which("aarch64-linux-gnu-gcc"):
    config.available_features.add("aarch64-cross")

# Open MPI (libopenmpi-dev and openmpi-bin, which scripts/setup.sh
# installs): the scale-out tests run sharded programs over several
# processes with mpirun; they are unsupported (skipped) without it. As root
# (CI), Open MPI refuses to start unless told it may.
if shutil.which("mpirun") and shutil.which("mpicc"):
    config.available_features.add("mpi")
    config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
    config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"

# The CUDA toolkit's ptxas (not a Debian package Kiln installs): tests that
# assemble the PTX Kiln emits need it, and are unsupported (skipped, with
# lit's message) without it.
_ptxas = shutil.which("ptxas")
for _root in (os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
              "/usr/local/cuda"):
    if not _ptxas and _root and os.access(os.path.join(_root, "bin", "ptxas"),
                                          os.X_OK):
        _ptxas = os.path.join(_root, "bin", "ptxas")
if _ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))

#!/usr/bin/env bash
# Installs every Debian package Kiln needs (as root; Debian 12 "bookworm"
# with bookworm-security, which carries LLVM/MLIR 22) and builds Kiln.
#
#   scripts/setup.sh            packages + release build in build/
#   scripts/setup.sh --asan     also the sanitizer build in build-asan/
#   KILN_SKIP_APT=1 ...         skip the package step (already installed)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  cmake ninja-build python3
  clang-22 libclang-rt-22-dev         # compiler, sanitizer and fuzzer runtimes
  clang-format-22                     # formatting check (scripts/check-format.sh)
  llvm-22-dev llvm-22-tools           # LLVM C API, FileCheck, not, lit
  libmlir-22-dev mlir-22-tools        # MLIR C API archives, mlir-opt-22
  libomp-22-dev                       # OpenMP runtime for generated code
  lld-22                              # links model libraries (kiln-compile)
  protobuf-c-compiler libprotobuf-c-dev libonnx-dev libonnx-testdata
  libjansson-dev                      # tuning logs (JSON lines)
  python3-onnx                        # makes ONNX models in lit tests
  python3-torch python3-torchvision   # real models (scripts/export_models.py)
  gcc pkgconf                         # the runtime-only build and pkg-config (test/install)
  gcc-aarch64-linux-gnu libc6-dev-arm64-cross  # the runtime's AArch64 cross build
  python3-numpy python3-pytest        # the Python package and its tests
  time                                # GNU time: bench/*.sh
  valgrind                            # runtime memory checks (test/runtime)
  libopenmpi-dev openmpi-bin          # scale-out: sharded runs over MPI (docs/scale-out.md)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${KILN_SKIP_APT:-0}" != 1 ] && [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "== installing: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

build() { # build DIR [cmake args...]
  local dir=$1; shift
  cmake -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 "$@" >/dev/null
  ninja -C "$dir"
}

echo "== building build/"
build build
if [ "${1:-}" = "--asan" ]; then
  echo "== building build-asan/ (AddressSanitizer + UBSan)"
  build build-asan -DKILN_SANITIZE=ON
fi

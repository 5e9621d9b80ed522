#!/usr/bin/env bash
# The side-by-side CPU benchmark: Kiln against ONNX Runtime, PyTorch and
# OpenBLAS, measured alternately over several rounds in one run. See
# docs/performance.md for what it measures and how to read the table.
#
#   bench/run.sh [--quick] [--rounds N] [--models a,b,...] [--threads 1,2]
#                [--budget S] [--notes TEXT] [--no-doc] [--no-install]
#                [--tuning-dir DIR] [-b BUILD_DIR]
#
# It installs what is missing (Debian: libopenblas-dev, gnuplot-nox, nodejs
# and npm; the rest of Kiln's packages through scripts/setup.sh, which also
# builds Kiln when BUILD_DIR has no kiln-compile; npm: onnxruntime-node,
# pinned, into bench/.peers with --ignore-scripts), builds its two C timing
# programs into bench/.work/bin, generates the models (bench/models.py),
# runs bench/bench.py, prints the table and writes the table section of
# docs/performance.md and docs/performance.png. --quick: 2 short rounds of
# the small models, for a smoke check; it writes its chart to
# bench/.work/performance.png and leaves docs/ alone (so does --no-doc).
# Models: resnet18 mobilenet_v2 bert4 mlp matmul512 matmul1024 conv3x3 chain;
# `--models zoo` runs the 20 real architectures of bench/zoo.py instead.
# --tuning-dir DIR (bench/tune.sh): each model with a kiln-tune log
# DIR/MODEL.tune is also compiled with it and timed as "Kiln tuned"; the
# report is the tuning table (docs/performance.md, "Tuning").
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
ORT_VERSION=1.31.1
build=$src/build
install=1
doc=1
quick=0
args=()
while [ $# -gt 0 ]; do
  case $1 in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    --quick) quick=1; args+=(--quick); shift ;;
    --no-doc) doc=0; shift ;;
    --no-install) install=0; shift ;;
    --rounds|--models|--threads|--budget|--notes|--tuning-dir)
      [ $# -ge 2 ] || { echo "run.sh: $1 needs a value" >&2; exit 2; }
      args+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
work=$src/bench/.work
peers=$src/bench/.peers
py=/usr/bin/python3

apt_install() { # PACKAGE...
  local sudo=""
  [ "$(id -u)" = 0 ] || sudo=sudo
  if [ -n "$sudo" ] && ! command -v sudo >/dev/null; then
    echo "run.sh: needs Debian packages $*: run as root or install them" >&2
    exit 2
  fi
  echo "== installing: $*"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    --no-install-recommends "$@" >/dev/null
}

if [ $install = 1 ]; then
  missing=()
  for p in libopenblas-dev gnuplot-nox; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
      grep -q "install ok installed" || missing+=("$p")
  done
  node -v >/dev/null 2>&1 || missing+=(nodejs)
  npm -v >/dev/null 2>&1 || missing+=(npm)
  [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

  # Kiln and its packages (python3-torch, python3-torchvision, python3-onnx).
  if [ ! -x "$build/bin/kiln-compile" ] ||
     ! "$py" -c 'import torch, torchvision, onnx' 2>/dev/null; then
    [ "$build" = "$src/build" ] || {
      echo "run.sh: $build has no Kiln build; build it or drop -b" >&2; exit 2; }
    "$src/scripts/setup.sh"
  else
    ninja -C "$build" >/dev/null || {
      echo "run.sh: rebuilding Kiln in $build failed" >&2; exit 2; }
  fi

  # ONNX Runtime, pinned. --ignore-scripts: its install script only fetches
  # optional GPU pieces; the CPU library ships inside the package.
  have=$(node -p "require('$peers/node_modules/onnxruntime-node/package.json').version" 2>/dev/null || true)
  if [ "$have" != "$ORT_VERSION" ]; then
    echo "== installing onnxruntime-node@$ORT_VERSION into bench/.peers"
    mkdir -p "$peers"
    npm install --prefix "$peers" --ignore-scripts --no-audit --no-fund \
      --loglevel=error "onnxruntime-node@$ORT_VERSION" >/dev/null
  fi
fi
if [ ! -f "$peers/node_modules/onnxruntime-node/package.json" ]; then
  echo "run.sh: ONNX Runtime (npm onnxruntime-node) is not installed in" >&2
  echo "  bench/.peers: run without --no-install" >&2
  exit 2
fi
node -e "require(process.argv[1])" "$peers/node_modules/onnxruntime-node" 2>/dev/null || {
  echo "run.sh: onnxruntime-node in bench/.peers does not load (its prebuilt" >&2
  echo "  linux-x64 binary); delete bench/.peers and run again" >&2
  exit 2
}
[ -x "$build/bin/kiln-compile" ] && [ -f "$build/lib/libkiln_runtime.so" ] || {
  echo "run.sh: no Kiln build in $build (scripts/setup.sh builds one)" >&2; exit 2; }

# The two C timing programs, with the system compiler.
mkdir -p "$work/bin"
cc=${CC:-cc}
if [ ! -x "$work/bin/kiln_bench" ] || [ "$src/bench/kiln_bench.c" -nt "$work/bin/kiln_bench" ] ||
   [ "$src/bench/bench_util.h" -nt "$work/bin/kiln_bench" ] ||
   [ "$build/lib/libkiln_runtime.so" -nt "$work/bin/kiln_bench" ]; then
  $cc -O2 -std=c11 -Wall -Wextra -I"$src/include" "$src/bench/kiln_bench.c" \
    -o "$work/bin/kiln_bench" -L"$build/lib" -lkiln_runtime \
    -Wl,-rpath,"$build/lib"
fi
if [ ! -x "$work/bin/sgemm" ] || [ "$src/bench/sgemm.c" -nt "$work/bin/sgemm" ] ||
   [ "$src/bench/bench_util.h" -nt "$work/bin/sgemm" ]; then
  $cc -O2 -std=c11 -Wall -Wextra "$src/bench/sgemm.c" -o "$work/bin/sgemm" \
    -lopenblas -lm || {
    echo "run.sh: cannot build bench/sgemm.c (needs libopenblas-dev)" >&2; exit 2; }
fi

if [ $doc = 1 ] && [ $quick = 0 ]; then
  args+=(--doc "$src/docs/performance.md" --chart "$src/docs/performance.png")
fi
exec "$py" "$src/bench/bench.py" --build "$build" --work "$work" "${args[@]}"

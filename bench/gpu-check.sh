#!/usr/bin/env bash
# Kiln on an NVIDIA GPU (docs/gpu-codegen.md). Two halves, which can run on
# two machines:
#
#   prepare (needs Kiln's build, no GPU): compiles into a bundle folder
#     - every expected-pass ONNX conformance test with kiln-compile
#       --target=cuda (test/onnx-backend/run.py --cuda --compile-only; a
#       model that does not compile for the GPU is recorded as outside the
#       GPU subset), with its test data;
#     - ResNet-18, MobileNetV2 and the BERT-style encoder (bench/models.py)
#       with their inputs and PyTorch's CPU outputs;
#     - kiln-run-module (libkiln_runtime only, no MLIR) and libomp (which
#       the model libraries load).
#   run (needs an NVIDIA driver, no compiler; PyTorch with CUDA for the
#     model comparison):
#     1. runs the conformance GPU subset on the GPU (run.py --cuda with the
#        bundle's libraries and kiln-run-module);
#     2. runs each model on the GPU against PyTorch's CUDA output (TF32 off:
#        fp32 as Kiln computes) and against the CPU reference, and prints
#        Kiln's latency (kiln-run-module --benchmark, median) beside
#        PyTorch eager's (batch 1, bench/torch_bench.py --device cuda), both
#        ending each run with a device synchronization.
#
#   bench/gpu-check.sh [--no-build] [--gpu-arch sm_NN] [--out DIR]
#                      [--models a,b,...] [--runs N] [--filter REGEX]
#                      [--prepare | --bundle] [-j N]
#   (default) prepare then run, on this machine (it builds Kiln first
#             unless --no-build)
#   --prepare only prepare DIR (default build/gpu-check); carry DIR to the
#             GPU machine with this checkout
#   --bundle  only run, from DIR prepared elsewhere
#   --filter  limits the conformance tests to those matching REGEX;
#   --no-conformance skips them (run: the models only).
#   --profile also times each model's kernels with Nsight Compute (ncu,
#             when installed): kernel time against wall time, top kernels.
#   PYTHON    the Python with PyTorch (default /usr/bin/python3)
#
# Exit status: 0 when every model matches PyTorch and the conformance
# subset has no wrong result or crash; 1 otherwise; 2 without a GPU (run).
set -uo pipefail
cd "$(dirname "$0")/.."

build=1 arch="" out=build/gpu-check models="resnet18,mobilenet_v2,bert4"
runs=50 filter="" mode=both jobs="" profile=0 conformance=1
py=${PYTHON:-/usr/bin/python3}
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --gpu-arch) arch=$2; shift ;;
    --gpu-arch=*) arch=${1#*=} ;;
    --out) out=$2; shift ;;
    --out=*) out=${1#*=} ;;
    --models) models=$2; shift ;;
    --models=*) models=${1#*=} ;;
    --runs) runs=$2; shift ;;
    --runs=*) runs=${1#*=} ;;
    --filter) filter=$2; shift ;;
    --filter=*) filter=${1#*=} ;;
    -j) jobs=$2; shift ;;
    --prepare) mode=prepare ;;
    --profile) profile=1 ;;
    --no-conformance) conformance=0 ;;
    --bundle) mode=run ;;
    -h|--help) sed -n '2,38p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
IFS=, read -ra names <<<"$models"
out=$(realpath -m "$out")
jobs=${jobs:-$(nproc)}

prepare() {
  arch=${arch:-sm_90}
  if [ "$build" = 1 ]; then
    scripts/setup.sh || return 1
  fi
  echo "== gpu-check: preparing $out (kernels for $arch)"
  mkdir -p "$out/bin" "$out/lib" "$out/data" "$out/models"
  cp build/bin/kiln-run-module "$out/bin/" || return 1
  # The model libraries' OpenMP runtime (libkiln_runtime links none).
  cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$out/lib/" || return 1
  echo "$arch" > "$out/gpu-arch"
  /usr/bin/python3 test/onnx-backend/run.py --kiln-run build/bin/kiln-run \
    --cuda --gpu-arch "$arch" --library-dir "$out/libs" --compile-only \
    --check test/onnx-backend/expected-pass.txt --only-listed --quiet \
    -j "$jobs" ${filter:+--filter "$filter"} > "$out/compile.txt" 2>&1
  grep '^all ' "$out/compile.txt" | awk '{print "gpu-check: " $3 " of " $2 " conformance models compiled for the GPU"}'
  # The test data of every test that compiled (its model.onnx too: run.py
  # lists tests by it).
  (cd "$out/libs" && find . -name model.so -printf '%h\n') | while read -r t; do
    mkdir -p "$out/data/$t"
    cp -r /usr/share/libonnx-testdata/data/"$t"/. "$out/data/$t/"
  done
  /usr/bin/python3 bench/models.py "$out/models" "${names[@]}" || return 1
  for m in "${names[@]}"; do
    build/bin/kiln-compile "$out/models/$m.onnx" --target=cuda --gpu-arch="$arch" \
      -q -o "$out/models/$m.cuda.so" || return 1
    rm -f "$out/models/$m.onnx"
  done
  du -sh "$out" | sed 's/^/gpu-check: bundle size /'
}

run() {
  if ! "$py" -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
    echo "gpu-check: no NVIDIA driver (libcuda.so.1 cannot be loaded): run this on a machine with an NVIDIA GPU" >&2
    return 2
  fi
  command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
  export LD_LIBRARY_PATH="$out/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  local runner=$out/bin/kiln-run-module status=0
  echo "== gpu-check: kernels for $(cat "$out/gpu-arch")"

  echo "== models: Kiln (CUDA) vs PyTorch eager (CUDA, fp32), batch 1"
  local d=$out/models
  printf '%-14s %10s %10s %8s  %s\n' model "kiln ms" "torch ms" ratio check
  for m in "${names[@]}"; do
    read -r rtol atol < <("$py" -c "import json;j=json.load(open('$d/$m.json'));print(j.get('rtol',1e-3),j.get('atol',1e-4))")
    local ins=()
    for f in $("$py" -c "import json;print(' '.join(json.load(open('$d/$m.json'))['inputs']))"); do
      ins+=(--input "$d/$f")
    done
    local torch_ms kiln_ms check ratio
    # The median of PyTorch's timed runs, as kiln-run-module reports.
    timeout 150 "$py" bench/torch_bench.py "$d" "$m" --threads 1 --device cuda \
      --output "$d/$m.torch_cuda.npy" --max-iters "$runs" --min-iters "$runs" \
      > "$d/$m.torch.txt" 2>"$d/$m.torch.err"
    torch_ms=$("$py" -c "import json,statistics,sys
ms = [json.loads(l)['ms'] for l in open(sys.argv[1]) if l.startswith('{\"iter')]
print('%.4g' % statistics.median(ms))" "$d/$m.torch.txt" 2>/dev/null || echo "-")
    [ "$torch_ms" = - ] && echo "gpu-check: $m: PyTorch failed: $(tail -1 "$d/$m.torch.err")"
    # Against PyTorch's CUDA output when it ran, else the CPU reference.
    local expected=$d/$m.torch_cuda.npy
    [ -f "$expected" ] || expected=$d/$m.output_0.npy
    if timeout 120 "$runner" "$d/$m.cuda.so" "${ins[@]}" --expected "$expected" \
         --rtol "$rtol" --atol "$atol" --output-dir "$d" > "$d/$m.run.txt" 2>&1; then
      check="match"
    else
      check="MISMATCH: $(head -2 "$d/$m.run.txt" | tr '\n' ' ')"; status=1
    fi
    [ "$expected" = "$d/$m.output_0.npy" ] && check="$check (CPU reference)"
    # Timed separately, so that a mismatch still shows the latency.
    timeout 120 "$runner" "$d/$m.cuda.so" "${ins[@]}" --benchmark "$runs" \
      > "$d/$m.bench.txt" 2>&1
    kiln_ms=$(sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$d/$m.bench.txt")
    ratio=$("$py" -c "import sys;k,t=sys.argv[1:];print('%.2fx'%(float(k)/float(t)))" "${kiln_ms:-nan}" "$torch_ms" 2>/dev/null || echo -)
    printf '%-14s %10s %10s %8s  %s\n' "$m" "${kiln_ms:--}" "$torch_ms" "$ratio" "$check"
    # How far each output is from the CPU reference (the weights PyTorch
    # rebuilt here may differ from the compiled ones across versions).
    "$py" - "$d" "$m" <<'EOF'
import glob, os, sys
import numpy as np
d, m = sys.argv[1:]
ref = np.load(os.path.join(d, m + ".output_0.npy")).astype(np.float64)
for label, path in (("kiln", os.path.join(d, "output.npy")),
                    ("torch-cuda", os.path.join(d, m + ".torch_cuda.npy"))):
    if os.path.exists(path):
        x = np.load(path).astype(np.float64)
        if x.shape == ref.shape:
            print("  %s vs CPU reference: max |diff| %.3g (max |ref| %.3g)"
                  % (label, np.abs(x - ref).max(), np.abs(ref).max()))
EOF
    rm -f "$d/output.npy"
    [ "$profile" = 1 ] && profile_model "$d" "$m" "${ins[@]}"
  done
  if [ "$conformance" = 1 ]; then
  echo "== ONNX conformance, GPU subset (run.py --cuda)"
  "$py" test/onnx-backend/run.py --kiln-run "$runner" --data-dir "$out/data" \
    --cuda --library-dir "$out/libs" --check test/onnx-backend/expected-pass.txt \
    --only-listed --quiet -j "$jobs" --timeout 30 ${filter:+--filter "$filter"} \
    --report "$out/conformance-gpu.json" > "$out/conformance-gpu.txt" 2>&1
  grep -v 'REGRESSION: .*unsupported' "$out/conformance-gpu.txt" | tail -25
  "$py" - "$out/conformance-gpu.json" <<'EOF' || status=1
import collections, json, sys
r = json.load(open(sys.argv[1]))
tests = r["tests"] if isinstance(r, dict) and "tests" in r else r
c = collections.Counter(t["status"] for t in tests)
print("gpu-check: conformance GPU subset: %d of %d compiled tests pass "
      "(%d not on the GPU path)" % (c["pass"], sum(c.values()) - c["unsupported"],
                                    c["unsupported"]))
for t in tests:
    if t["status"] not in ("pass", "unsupported"):
        print("  %s %s/%s: %s" % (t["status"], t["suite"], t["test"], t["error"][:160]))
sys.exit(1 if c["wrong"] or c["crash"] or c["timeout"] or c["compile-error"] else 0)
EOF
  fi
  return $status
}

# One run of the model under Nsight Compute: each kernel's GPU time.
profile_model() {
  local d=$1 m=$2; shift 2
  command -v ncu >/dev/null || { echo "  (no ncu: not profiled)"; return 0; }
  timeout 90 ncu --clock-control none --metrics gpu__time_duration.sum --csv \
    "$out/bin/kiln-run-module" "$d/$m.cuda.so" "$@" > "$d/$m.ncu.csv" 2>"$d/$m.ncu.err" ||
    { echo "  ncu failed: $(tail -2 "$d/$m.ncu.err" | tr '\n' ' ')"; return 0; }
  "$py" - "$d/$m.ncu.csv" <<'EOF'
import collections, csv, io, sys
text = open(sys.argv[1], errors="replace").read()
rows = list(csv.DictReader(io.StringIO(text[text.find('"ID"'):])))
t, n = collections.Counter(), collections.Counter()
scale = {"nsecond": 1e-3, "ns": 1e-3, "usecond": 1, "us": 1,
         "msecond": 1e3, "ms": 1e3}
for r in rows:
    if r.get("Metric Name") == "gpu__time_duration.sum":
        v = float(r["Metric Value"].replace(",", ""))
        v *= scale.get(r.get("Metric Unit", "ns"), 1e-3)
        t[r["Kernel Name"]] += v
        n[r["Kernel Name"]] += 1
total = sum(t.values())
print("  ncu: %d launches of %d kernels, %.1f us of kernel time"
      % (sum(n.values()), len(t), total))
for k, v in t.most_common(8):
    print("    %8.1f us %5.1f%%  %s" % (v, 100 * v / max(total, 1e-9), k[:90]))
EOF
}

case $mode in
  prepare) prepare ;;
  run) run ;;
  both) prepare && run ;;
esac

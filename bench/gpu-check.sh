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
#       at each batch (--batches, default 1,32) with their inputs and
#       PyTorch's CPU outputs, compiled at each precision (--precisions,
#       default fp32,bf16: kiln-compile --precision);
#     - an N x N x N matrix product (--matmul N, default 8192; 0: none)
#       compiled in bf16;
#     - kiln-run-module (libkiln_runtime only, no MLIR) and libomp (which
#       the model libraries load).
#   run (needs an NVIDIA driver, no compiler; PyTorch with CUDA for the
#     model comparison):
#     1. runs the conformance GPU subset on the GPU (run.py --cuda with the
#        bundle's libraries and kiln-run-module);
#     2. runs each model, batch and precision on the GPU against PyTorch's
#        CUDA output (fp32: TF32 off, as Kiln computes; bf16/fp16:
#        torch.autocast to that type) and prints Kiln's latency
#        (kiln-run-module --benchmark, median; runs replayed as CUDA
#        graphs, and with KILN_CUDA_GRAPHS=0) beside PyTorch eager's and
#        torch.compile's where this PyTorch has it (bench/torch_bench.py
#        --device cuda [--dtype] [--compile]), each run ending with a
#        device synchronization;
#     3. times the bf16 matrix product: Kiln's TFLOP/s beside
#        torch.matmul's on bf16 tensors, outputs compared (Kiln's run
#        includes copying the f32 operands to the device and the result
#        back; with --profile its kernel time under ncu too, the figure
#        to set against torch.matmul's).
#
#   bench/gpu-check.sh [--no-build] [--gpu-arch sm_NN] [--out DIR]
#                      [--models a,b,...] [--runs N] [--filter REGEX]
#                      [--precisions fp32,bf16] [--batches 1,32]
#                      [--matmul N] [--no-compile]
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
#   --no-compile  skips torch.compile (its compilation takes minutes).
#   PYTHON    the Python with PyTorch (default /usr/bin/python3)
#   KILN_BUILD_DIR  the build whose tools prepare uses (default build)
#
# Exit status: 0 when every model matches PyTorch and the conformance
# subset has no wrong result or crash; 1 otherwise; 2 without a GPU (run).
set -uo pipefail
cd "$(dirname "$0")/.."

build=1 arch="" out=build/gpu-check models="resnet18,mobilenet_v2,bert4"
runs=50 filter="" mode=both jobs="" profile=0 conformance=1
precisions=fp32,bf16 batches=1,32 matmul=8192 tcompile=1
py=${PYTHON:-/usr/bin/python3}
kb=${KILN_BUILD_DIR:-build}
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
    --precisions) precisions=$2; shift ;;
    --precisions=*) precisions=${1#*=} ;;
    --batches) batches=$2; shift ;;
    --batches=*) batches=${1#*=} ;;
    --matmul) matmul=$2; shift ;;
    --matmul=*) matmul=${1#*=} ;;
    --no-compile) tcompile=0 ;;
    -h|--help) sed -n '2,51p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
IFS=, read -ra names <<<"$models"
IFS=, read -ra precs <<<"$precisions"
IFS=, read -ra bsizes <<<"$batches"
for p in "${precs[@]}"; do
  case $p in fp32|bf16|fp16) ;; *) echo "gpu-check: --precisions: '$p' is not fp32, bf16 or fp16" >&2; exit 2 ;; esac
done
for b in "${bsizes[@]}" "$matmul"; do
  case $b in ''|*[!0-9]*) echo "gpu-check: --batches/--matmul: '$b' is not a number" >&2; exit 2 ;; esac
done
out=$(realpath -m "$out")
jobs=${jobs:-$(nproc)}

prepare() {
  arch=${arch:-sm_90}
  if [ "$build" = 1 ]; then
    scripts/setup.sh || return 1
  fi
  echo "== gpu-check: preparing $out (kernels for $arch)"
  mkdir -p "$out/bin" "$out/lib" "$out/data" "$out/models"
  cp "$kb"/bin/kiln-run-module "$out/bin/" || return 1
  # The model libraries' OpenMP runtime (libkiln_runtime links none).
  cp -L /usr/lib/llvm-22/lib/libomp.so.5 "$out/lib/" || return 1
  echo "$arch" > "$out/gpu-arch"
  /usr/bin/python3 test/onnx-backend/run.py --kiln-run "$kb"/bin/kiln-run \
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
  for b in "${bsizes[@]}"; do
    /usr/bin/python3 bench/models.py --batch "$b" "$out/models" "${names[@]}" || return 1
    for m in "${names[@]}"; do
      local tag=$m
      [ "$b" = 1 ] || tag=${m}_b$b
      for p in "${precs[@]}"; do
        "$kb"/bin/kiln-compile "$out/models/$tag.onnx" --target=cuda --gpu-arch="$arch" \
          --precision="$p" -q -o "$out/models/$tag.$p.cuda.so" || return 1
      done
      rm -f "$out/models/$tag.onnx"
    done
  done
  if [ "$matmul" != 0 ]; then
    /usr/bin/python3 - "$out/models/matmul.onnx" "$matmul" <<'EOF' || return 1
import sys
import onnx
from onnx import TensorProto, helper
path, n = sys.argv[1], int(sys.argv[2])
g = helper.make_graph(
    [helper.make_node("MatMul", ["a", "b"], ["c"])], "matmul",
    [helper.make_tensor_value_info(x, TensorProto.FLOAT, [n, n]) for x in "ab"],
    [helper.make_tensor_value_info("c", TensorProto.FLOAT, [n, n])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
m.ir_version = 8
onnx.save(m, path)
EOF
    "$kb"/bin/kiln-compile "$out/models/matmul.onnx" --target=cuda --gpu-arch="$arch" \
      --precision=bf16 -q -o "$out/models/matmul.bf16.cuda.so" || return 1
    echo "$matmul" > "$out/models/matmul.n"
  fi
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

  echo "== models: Kiln (CUDA) vs PyTorch eager and torch.compile (CUDA)"
  local d=$out/models
  printf '%-16s %-5s %9s %9s %9s %9s %7s %7s  %s\n' model prec "kiln ms" \
    "no-graph" "eager ms" "compile" "k/eager" "k/comp" check
  for b in "${bsizes[@]}"; do
    for m in "${names[@]}"; do
      local tag=$m
      [ "$b" = 1 ] || tag=${m}_b$b
      for p in "${precs[@]}"; do
        [ -f "$d/$tag.$p.cuda.so" ] || continue
        model_row "$d" "$tag" "$p" || status=1
      done
    done
  done
  if [ -f "$d/matmul.n" ]; then
    matmul_row "$d" || status=1
  fi
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

# The median of torch_bench.py's timed runs in FILE, or "-".
torch_median() {
  "$py" -c "import json,statistics,sys
ms = [json.loads(l)['ms'] for l in open(sys.argv[1]) if l.startswith('{\"iter')]
print('%.4g' % statistics.median(ms))" "$1" 2>/dev/null || echo "-"
}

# KILN_MS / OTHER_MS as "N.NNx", or "-".
ratio() {
  "$py" -c "import sys;k,t=sys.argv[1:];print('%.2fx'%(float(k)/float(t)))" "${1:-nan}" "$2" 2>/dev/null || echo -
}

# One table row: model TAG at precision P, Kiln against PyTorch (eager,
# and torch.compile unless --no-compile or this PyTorch lacks it); returns
# 1 on a mismatch.
model_row() {
  local d=$1 tag=$2 p=$3 rc=0
  local lib=$d/$tag.$p.cuda.so rtol atol
  read -r rtol atol < <("$py" -c "import json;j=json.load(open('$d/$tag.json'));print(j.get('rtol',1e-3),j.get('atol',1e-4))")
  # Low precision: against PyTorch's autocast output, within a few
  # roundings of the outputs.
  case $p in bf16) rtol=5e-2 atol=5e-2 ;; fp16) rtol=1e-2 atol=1e-2 ;; esac
  local ins=() f
  for f in $("$py" -c "import json;print(' '.join(json.load(open('$d/$tag.json'))['inputs']))"); do
    ins+=(--input "$d/$f")
  done
  local eager=- comp=- check kiln_ms
  timeout 300 "$py" bench/torch_bench.py "$d" "$tag" --threads 1 --device cuda \
    --dtype "$p" --output "$d/$tag.$p.torch_cuda.npy" --max-iters "$runs" \
    --min-iters "$runs" > "$d/$tag.$p.torch.txt" 2>"$d/$tag.$p.torch.err" &&
    eager=$(torch_median "$d/$tag.$p.torch.txt")
  [ "$eager" = - ] && echo "gpu-check: $tag $p: PyTorch failed: $(tail -1 "$d/$tag.$p.torch.err")"
  if [ "$tcompile" = 1 ]; then
    timeout 600 "$py" bench/torch_bench.py "$d" "$tag" --threads 1 --device cuda \
      --dtype "$p" --compile --max-iters "$runs" --min-iters "$runs" \
      > "$d/$tag.$p.compile.txt" 2>"$d/$tag.$p.compile.err" &&
      comp=$(torch_median "$d/$tag.$p.compile.txt")
  fi
  # Against PyTorch's CUDA output when it ran, else the CPU reference (f32).
  local expected=$d/$tag.$p.torch_cuda.npy
  [ -f "$expected" ] || expected=$d/$tag.output_0.npy
  # The third run's outputs: a CUDA graph's replay (docs/runtime.md).
  if timeout 120 "$runner" "$lib" "${ins[@]}" --expected "$expected" \
       --rtol "$rtol" --atol "$atol" --repeat 3 > "$d/$tag.$p.run.txt" 2>&1; then
    check="match"
  else
    check="MISMATCH: $(head -2 "$d/$tag.$p.run.txt" | tr '\n' ' ')"; rc=1
  fi
  [ "$expected" = "$d/$tag.output_0.npy" ] && check="$check (CPU reference)"
  # Timed separately, so that a mismatch still shows the latency.
  timeout 120 "$runner" "$lib" "${ins[@]}" --benchmark "$runs" \
    > "$d/$tag.$p.bench.txt" 2>&1
  kiln_ms=$(sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$d/$tag.$p.bench.txt")
  # Every run eager: what CUDA graphs save in launch overhead.
  KILN_CUDA_GRAPHS=0 timeout 120 "$runner" "$lib" "${ins[@]}" --benchmark "$runs" \
    > "$d/$tag.$p.nograph.txt" 2>&1
  local nograph_ms
  nograph_ms=$(sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$d/$tag.$p.nograph.txt")
  printf '%-16s %-5s %9s %9s %9s %9s %7s %7s  %s\n' "$tag" "$p" "${kiln_ms:--}" \
    "${nograph_ms:--}" "$eager" "$comp" "$(ratio "$kiln_ms" "$eager")" "$(ratio "$kiln_ms" "$comp")" "$check"
  [ "$profile" = 1 ] && profile_model "$d" "$tag.$p" "${ins[@]}"
  return $rc
}

# The bf16 N x N x N product: Kiln's library against torch.matmul on bf16
# CUDA tensors (the same f32 inputs, each rounding them to bf16), in
# TFLOP/s; returns 1 on a mismatch.
matmul_row() {
  local d=$1 n rc=0
  n=$(cat "$d/matmul.n")
  "$py" - "$d" "$n" "$runs" > "$d/matmul.torch.txt" 2>&1 <<'EOF' ||
import sys, time
import numpy as np
d, n, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(0)
for x in "ab":
    np.save("%s/matmul.%s.npy" % (d, x),
            rng.standard_normal((n, n), dtype=np.float32))
import torch
a, b = (torch.from_numpy(np.load("%s/matmul.%s.npy" % (d, x))).cuda().bfloat16()
        for x in "ab")
for _ in range(3):
    c = a @ b
torch.cuda.synchronize()
ms = []
for _ in range(runs):
    t = time.perf_counter()
    c = a @ b
    torch.cuda.synchronize()
    ms.append(1e3 * (time.perf_counter() - t))
np.save("%s/matmul.torch.npy" % d, c.float().cpu().numpy())
print("torch_ms %.4g" % sorted(ms)[len(ms) // 2])
EOF
    echo "gpu-check: matmul: PyTorch failed: $(tail -1 "$d/matmul.torch.txt")"
  [ -f "$d/matmul.a.npy" ] || { echo "gpu-check: matmul: no inputs"; return 1; }
  local torch_ms kiln_ms check="not compared"
  torch_ms=$(sed -n 's/^torch_ms //p' "$d/matmul.torch.txt")
  local ins=(--input "$d/matmul.a.npy" --input "$d/matmul.b.npy")
  if [ -f "$d/matmul.torch.npy" ]; then
    # Sums of n bf16 products in f32, in another order: outputs of size
    # about sqrt(n) agree to 1e-2 of it.
    if timeout 300 "$runner" "$d/matmul.bf16.cuda.so" "${ins[@]}" \
         --expected "$d/matmul.torch.npy" --rtol 1e-2 --atol 1 > "$d/matmul.run.txt" 2>&1; then
      check=match
    else
      check="MISMATCH: $(head -2 "$d/matmul.run.txt" | tr '\n' ' ')"; rc=1
    fi
  fi
  timeout 300 "$runner" "$d/matmul.bf16.cuda.so" "${ins[@]}" --benchmark "$runs" \
    > "$d/matmul.bench.txt" 2>&1
  kiln_ms=$(sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$d/matmul.bench.txt")
  "$py" -c "import sys
n, k, t, check = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
tf = lambda ms: '%.1f' % (2 * n**3 / (float(ms) * 1e-3) / 1e12) if ms else '-'
print('== bf16 matmul %dx%dx%d: Kiln %s TFLOP/s (%s ms), torch.matmul %s TFLOP/s (%s ms): %s'
      % (n, n, n, tf(k), k or '-', tf(t), t or '-', check))" "$n" "${kiln_ms:-}" "${torch_ms:-}" "$check"
  if [ "$profile" = 1 ]; then
    local prof us
    prof=$(profile_model "$d" matmul.bf16 "${ins[@]}")
    echo "$prof"
    us=$(sed -n 's/.*, \([0-9.]*\) us of kernel time/\1/p' <<< "$prof")
    [ -n "$us" ] && "$py" -c "import sys
n, us = int(sys.argv[1]), float(sys.argv[2])
print('  kernel time alone: %.1f TFLOP/s' % (2 * n**3 / (us * 1e-6) / 1e12))" "$n" "$us"
  fi
  return $rc
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

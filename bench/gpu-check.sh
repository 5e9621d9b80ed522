#!/usr/bin/env bash
# Kiln on an NVIDIA GPU (docs/gpu-codegen.md): run on a machine with a GPU,
# its driver and Kiln's Debian packages (PyTorch with CUDA for the model
# comparison). Builds Kiln, then
#   1. runs the ONNX conformance suite's GPU subset: every expected-pass test
#      compiled with kiln-compile --target=cuda and run on the GPU
#      (test/onnx-backend/run.py --cuda; tests that do not compile for the
#      GPU are counted as unsupported, not failed);
#   2. compiles ResNet-18, MobileNetV2 and the BERT-style encoder
#      (bench/models.py) for the GPU, runs each with kiln-run against
#      PyTorch's CUDA output for the same input, and prints Kiln's latency
#      (kiln-run --benchmark, median) beside PyTorch eager's (batch 1,
#      bench/torch_bench.py --device cuda), both ending each run with a
#      device synchronization.
#
#   bench/gpu-check.sh [--no-build] [--gpu-arch sm_NN] [--out DIR]
#                      [--models a,b,...] [--runs N] [--filter REGEX]
#   --filter limits the conformance run to tests matching REGEX.
#
# Exit status: 0 when every model matches PyTorch and the conformance
# subset has no wrong result or crash; 1 otherwise; 2 without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."

build=1 arch="" out=build/gpu-check models="resnet18,mobilenet_v2,bert4"
runs=50 filter=""
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
    -h|--help) sed -n '2,25p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

# The driver first: without it nothing below can run.
if ! /usr/bin/python3 -c 'import ctypes; ctypes.CDLL("libcuda.so.1")' 2>/dev/null; then
  echo "gpu-check: no NVIDIA driver (libcuda.so.1 cannot be loaded): run this on a machine with an NVIDIA GPU" >&2
  exit 2
fi
if [ -z "$arch" ] && command -v nvidia-smi >/dev/null; then
  cap=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1)
  [ -n "$cap" ] && arch="sm_${cap/./}"
fi
arch=${arch:-sm_90}
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv,noheader
echo "== gpu-check: kernels for $arch"

if [ "$build" = 1 ]; then
  scripts/setup.sh || exit 1
fi
mkdir -p "$out"
status=0

echo "== ONNX conformance, GPU subset (run.py --cuda)"
/usr/bin/python3 test/onnx-backend/run.py --kiln-run build/bin/kiln-run \
  --cuda --gpu-arch "$arch" --check test/onnx-backend/expected-pass.txt \
  --only-listed --quiet -j 4 ${filter:+--filter "$filter"} \
  --report "$out/conformance-gpu.json" > "$out/conformance-gpu.txt" 2>&1
grep -v 'REGRESSION: .*unsupported' "$out/conformance-gpu.txt" | tail -20
/usr/bin/python3 - "$out/conformance-gpu.json" <<'EOF' || status=1
import collections, json, sys
r = json.load(open(sys.argv[1]))
tests = r["tests"] if isinstance(r, dict) and "tests" in r else r
c = collections.Counter(t["status"] for t in tests)
print("gpu-check: conformance GPU subset: %d of %d compiled tests pass "
      "(%d not on the GPU path)" % (c["pass"], sum(c.values()) - c["unsupported"],
                                    c["unsupported"]))
sys.exit(1 if c["wrong"] or c["crash"] or c["timeout"] or c["compile-error"] else 0)
EOF

echo "== models: Kiln (CUDA) vs PyTorch eager (CUDA), batch 1"
IFS=, read -ra names <<<"$models"
/usr/bin/python3 bench/models.py "$out" "${names[@]}" || exit 1
printf '%-14s %12s %12s %8s  %s\n' model "kiln ms" "torch ms" ratio check
for m in "${names[@]}"; do
  tol=$(/usr/bin/python3 -c "import json;j=json.load(open('$out/$m.json'));print(j.get('rtol',1e-3),j.get('atol',1e-4))")
  read -r rtol atol <<<"$tol"
  ins=()
  for f in $(/usr/bin/python3 -c "import json;print(' '.join(json.load(open('$out/$m.json'))['inputs']))"); do
    ins+=(--input "$out/$f")
  done
  torch_json=$(/usr/bin/python3 bench/torch_bench.py "$out" "$m" --threads 1 \
    --device cuda --output "$out/$m.torch_cuda.npy" --max-iters "$runs" | tail -1)
  torch_ms=$(/usr/bin/python3 -c "import json,sys;j=json.loads(sys.argv[1]);print('%.3f'%(1e3*j['total_s']/max(j['iters'],1)))" "$torch_json" 2>/dev/null || echo "-")
  if ! build/bin/kiln-compile "$out/$m.onnx" --target=cuda --gpu-arch="$arch" \
       -q -o "$out/$m.cuda.so" 2>"$out/$m.compile.txt"; then
    printf '%-14s %12s %12s %8s  %s\n' "$m" - "$torch_ms" - "compile failed: $(head -1 "$out/$m.compile.txt")"
    status=1; continue
  fi
  if build/bin/kiln-run "$out/$m.cuda.so" "${ins[@]}" \
       --expected "$out/$m.torch_cuda.npy" --rtol "$rtol" --atol "$atol" \
       --benchmark "$runs" > "$out/$m.run.txt" 2>&1; then
    check=match
  else
    check="MISMATCH: $(grep -m1 -v '^benchmark' "$out/$m.run.txt")"; status=1
  fi
  kiln_ms=$(sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$out/$m.run.txt")
  ratio=$(/usr/bin/python3 -c "import sys;k,t=sys.argv[1:];print('%.2fx'%(float(k)/float(t)))" "${kiln_ms:-nan}" "$torch_ms" 2>/dev/null || echo -)
  printf '%-14s %12s %12s %8s  %s\n' "$m" "${kiln_ms:--}" "$torch_ms" "$ratio" "$check"
done
exit $status

#!/usr/bin/env bash
# Kiln's test command: installs what is missing, builds the release and the
# sanitizer builds, and runs the lit suite (lit tests + C unit tests) in both.
# Ends with one summary line: "tests: N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --asan || exit 1

LIT=/usr/lib/llvm-22/bin/lit
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

echo "== format"
format=pass
scripts/check-format.sh || { format=fail; status=1; }
echo "== lit: release build"
"$LIT" -s build/test 2>&1 | tee -a "$log" || status=1
echo "== lit: sanitizer build (ASan + UBSan + LeakSanitizer)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
  "$LIT" -s build-asan/test 2>&1 | tee -a "$log" || status=1

echo "== ONNX import coverage (scripts/onnx-coverage.py; docs/onnx-coverage.md)"
coverage=pass
/usr/bin/python3 scripts/onnx-coverage.py --kiln-compile build/bin/kiln-compile \
  --check test/conversions/onnx-to-graph/import-expected-pass.txt \
  --markdown build/onnx-coverage.md || { coverage=fail; status=1; }

echo "== ONNX execution conformance with dynamic shapes (each test compiled once with every input dim dynamic, run on its data; docs/dynamic-shapes.md)"
conformance_dynamic=pass
/usr/bin/python3 test/onnx-backend/run.py --dynamic --quiet --strict \
  --kiln-run build/bin/kiln-run --report build/onnx-conformance-dynamic.json \
  --check test/onnx-backend/expected-pass-dynamic.txt ||
  { conformance_dynamic=fail; status=1; }
echo "== ONNX execution conformance (test/onnx-backend/run.py)"
conformance=pass
/usr/bin/python3 test/onnx-backend/run.py --kiln-run build/bin/kiln-run \
  --check test/onnx-backend/expected-pass.txt --strict \
  --report build/onnx-conformance.json --quiet \
  --markdown build/onnx-coverage.md \
  --dynamic-report build/onnx-conformance-dynamic.json ||
  { conformance=fail; status=1; }
echo "== ONNX execution conformance at -O0 (expected-pass tests only; the run above is the default -O3)"
conformance_o0=pass
/usr/bin/python3 test/onnx-backend/run.py -O0 --only-listed --quiet \
  --kiln-run build/bin/kiln-run --strict \
  --check test/onnx-backend/expected-pass.txt ||
  { conformance_o0=fail; status=1; }
echo "== ONNX execution conformance with the GPU schedules run on the CPU (--pipeline=gpu-on-cpu, expected-pass tests only)"
conformance_gpu=pass
/usr/bin/python3 test/onnx-backend/run.py --pipeline=gpu-on-cpu --only-listed \
  --quiet --kiln-run build/bin/kiln-run \
  --check test/onnx-backend/expected-pass.txt ||
  { conformance_gpu=fail; status=1; }
echo "== ONNX execution conformance in bf16 (--precision=bf16) through the GPU schedules on the CPU (tensor cores emulated; rtol/atol 5e-2)"
conformance_bf16=pass
/usr/bin/python3 test/onnx-backend/run.py --pipeline=gpu-on-cpu --precision=bf16 \
  --only-listed --quiet --kiln-run build/bin/kiln-run --rtol 5e-2 --atol 5e-2 \
  --check test/onnx-backend/expected-pass.txt ||
  { conformance_bf16=fail; status=1; }
echo "== GPU host path: every expected-pass test compiled with --target=cuda, run over the fake CUDA driver with device memory unreadable from the host (FAKE_CUDA_GUARD)"
# The kernels do nothing there, so outputs are not compared: this checks
# that the host code of every GPU model only copies device memory (a host
# access crashes here as on a real GPU) and that the run goes through.
gpu_host=pass
rm -rf build/gpu-host-check
/usr/bin/python3 test/onnx-backend/run.py --cuda --compile-only --only-listed \
  --quiet --kiln-run build/bin/kiln-run --library-dir build/gpu-host-check \
  --check test/onnx-backend/expected-pass.txt > build/gpu-host-compile.txt 2>&1
LD_LIBRARY_PATH=$PWD/build/lib/fake-cuda FAKE_CUDA_GUARD=1 \
FAKE_CUDA_ANY_KERNEL=1 FAKE_CUDA_LOG=/dev/null \
  /usr/bin/python3 test/onnx-backend/run.py --cuda --no-compare --only-listed \
  --quiet --kiln-run build/bin/kiln-run-module --library-dir build/gpu-host-check \
  --check test/onnx-backend/expected-pass.txt --report build/gpu-host-check.json \
  > build/gpu-host-check.txt 2>&1
/usr/bin/python3 - build/gpu-host-check.json <<'EOF' || { gpu_host=fail; status=1; }
import collections, json, sys
r = json.load(open(sys.argv[1]))
c = collections.Counter(t["status"] for t in r["tests"])
bad = [t for t in r["tests"] if t["status"] not in ("pass", "unsupported")]
for t in bad:
    print("  %s %s/%s: %s" % (t["status"], t["suite"], t["test"], t["error"][:200]))
print("gpu host path: %d of %d compiled tests ran (%d not on the GPU path)"
      % (c["pass"], len(r["tests"]) - c["unsupported"], c["unsupported"]))
sys.exit(1 if bad else 0)
EOF
echo "== ONNX execution conformance under ASan (expected-pass tests only)"
conformance_asan=pass
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
  /usr/bin/python3 test/onnx-backend/run.py --asan --only-listed --quiet \
  --kiln-run build-asan/bin/kiln-run \
  --check test/onnx-backend/expected-pass.txt ||
  { conformance_asan=fail; status=1; }

echo "== ONNX execution conformance with dynamic shapes under ASan (expected-pass tests only)"
conformance_dynamic_asan=pass
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
  /usr/bin/python3 test/onnx-backend/run.py --dynamic --asan --only-listed \
  --quiet --kiln-run build-asan/bin/kiln-run \
  --check test/onnx-backend/expected-pass-dynamic.txt ||
  { conformance_dynamic_asan=fail; status=1; }

# lit prints "  Passed     : N (…)", "  Failed     : N (…)", "  Timed Out  : N"
# and so on, once per run.
count() {
  awk -F: -v k="$1" '{ label = $1; gsub(/^ +| +$/, "", label) }
    label == k { split($2, f, " "); sum += f[1] } END { print sum + 0 }' "$log"
}
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count "Timed Out") ))
# The format check, the coverage check, the seven conformance checks and
# the GPU host-path check count as one test each.
for check in "$format" "$coverage" "$conformance" "$conformance_o0" \
  "$conformance_dynamic" "$conformance_gpu" "$conformance_bf16" "$gpu_host" \
  "$conformance_asan" "$conformance_dynamic_asan"; do
  if [ "$check" = pass ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
[ "$failed" -eq 0 ] || status=1
echo "tests: $passed passed, $failed failed"
exit $status

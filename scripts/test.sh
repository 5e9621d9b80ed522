#!/usr/bin/env bash
# Kiln's test command: installs what is missing, builds the release and the
# sanitizer builds, and runs the lit suite (lit tests + C unit tests) in both.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --asan

LIT=/usr/lib/llvm-22/bin/lit
status=0
echo "== lit: release build"
"$LIT" -q --succinct build/test || status=1
echo "== lit: sanitizer build (ASan + UBSan + LeakSanitizer)"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$PWD/test/lsan.supp:print_suppressions=0 \
  "$LIT" -q --succinct build-asan/test || status=1
exit $status

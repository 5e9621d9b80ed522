#!/usr/bin/env bash
# Checks that every tracked C file is clang-format clean (LLVM style, see
# .clang-format). Prints the offending files and exits 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
CF=$(command -v clang-format-22 || true)
if [ -z "$CF" ]; then
  echo "check-format: clang-format-22 not installed (scripts/setup.sh installs it)" >&2
  exit 1
fi
bad=$(git ls-files '*.c' '*.h' | while read -r f; do
  "$CF" --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$bad" ]; then
  echo "check-format: not clang-format clean (run: clang-format-22 -i FILE):"
  echo "$bad"
  exit 1
fi
echo "check-format: all C files clean"

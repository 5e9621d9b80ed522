#!/usr/bin/env bash
# Kiln's main job: set up, build, and run the bundled example through
# kiln-opt (a later milestone compiles and runs a bundled ONNX model).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
PIPELINE='builtin.module(func.func(graph-verify,graph-cse,canonicalize),graph-dce)'
echo "== kiln-opt examples/mlp.mlir --pass-pipeline='$PIPELINE'"
build/bin/kiln-opt examples/mlp.mlir --pass-pipeline="$PIPELINE"

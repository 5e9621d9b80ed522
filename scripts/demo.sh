#!/usr/bin/env bash
# Kiln's main job: set up, build, run the bundled graph example through
# kiln-opt, then compile and run a real model (torchvision ResNet-18,
# exported with random weights by scripts/export_models.py) with kiln-run,
# comparing its output with PyTorch's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
PIPELINE='builtin.module(func.func(graph-verify,graph-cse,canonicalize),graph-dce)'
echo "== kiln-opt examples/mlp.mlir --pass-pipeline='$PIPELINE'"
build/bin/kiln-opt examples/mlp.mlir --pass-pipeline="$PIPELINE"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo
echo "== scripts/export_models.py: ResNet-18 (random weights, seed 0)"
/usr/bin/python3 scripts/export_models.py --with-data "$work" resnet18
echo "== kiln-compile resnet18.onnx --emit=graph -o resnet18.mlir"
build/bin/kiln-compile "$work/resnet18.onnx" --emit=graph -o "$work/resnet18.mlir"
grep -m1 'func.func @main_graph' "$work/resnet18.mlir" | cut -c1-160
echo "graph ops in the imported model:"
grep -o '"graph\.[a-z_]*"' "$work/resnet18.mlir" | sort | uniq -c | sort -rn
echo
echo "== kiln-run resnet18.onnx: compile for this CPU, run, compare with PyTorch"
time build/bin/kiln-run "$work/resnet18.onnx" \
  --input "$work/resnet18.input_0.npy" \
  --expected "$work/resnet18.output_0.npy" --rtol 1e-3 --atol 1e-5 \
  --output-dir "$work" --verbose
echo "kiln-run: output matches PyTorch (rtol 1e-3, atol 1e-5)"

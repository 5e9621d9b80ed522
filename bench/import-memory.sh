#!/usr/bin/env bash
# Peak memory of importing a real model: kiln-compile MODEL --emit=graph
# -o /dev/null under GNU time, against the model's weight bytes (the sum of
# its initializers' sizes). The goal is a peak under 3x the weights. The
# same run on a tiny model shows the fixed cost (libMLIR, the context).
# See bench/README.md. Not a test: it prints figures and judges nothing.
#
#   bench/import-memory.sh [-b BUILD_DIR] [MODEL...]
#
# MODEL: resnet18 (default), mobilenet_v2, bert (scripts/export_models.py).
# Needs /usr/bin/python3 with python3-torch, python3-torchvision and
# python3-onnx, and GNU time (/usr/bin/time).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
if [ "${1:-}" = -b ]; then
  build=$(cd "$2" && pwd)
  shift 2
fi
[ $# -gt 0 ] || set -- resnet18
kc=$build/bin/kiln-compile
py=/usr/bin/python3
[ -x "$kc" ] || { echo "import-memory: no $kc (build first)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "import-memory: needs GNU time" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# peak_kb MODEL: kiln-compile's peak RSS in KiB (and its wall time in s,
# second word); fails if the import fails.
peak_kb() {
  if ! /usr/bin/time -f '%M %e' -o "$tmp/time" "$kc" "$1" --emit=graph \
      -o /dev/null 2>"$tmp/err"; then
    echo "import-memory: kiln-compile failed on $1:" >&2
    head -20 "$tmp/err" >&2
    exit 1
  fi
  cat "$tmp/time"
}

# A tiny model (one Relu on 4 floats) for the fixed cost.
"$py" - "$tmp/tiny.onnx" <<'PY'
import sys
from onnx import TensorProto, helper
vi = lambda n: helper.make_tensor_value_info(n, TensorProto.FLOAT, [4])
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "tiny",
                      [vi("x")], [vi("y")])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PY
read -r base_kb base_s < <(peak_kb "$tmp/tiny.onnx")
printf '%-14s %12s %12s %12s %7s %7s %7s\n' model weights_MB file_MB \
  peak_RSS_MB ratio net 'time_s'
awk -v kb="$base_kb" -v s="$base_s" 'BEGIN {
  printf "%-14s %12s %12s %12.1f %7s %7s %7s\n", "tiny", "-", "-", kb / 1024,
    "-", "-", s }'

"$py" "$src/scripts/export_models.py" "$tmp" "$@"
for m in "$@"; do
  f=$tmp/$m.onnx
  # Sum of the initializers' decoded sizes (raw_data or typed fields).
  weights=$("$py" "$src/bench/weight_bytes.py" "$f")
  read -r kb s < <(peak_kb "$f")
  # ratio: peak / weights; net: (peak - tiny model's peak) / weights.
  awk -v m="$m" -v w="$weights" -v fb="$(stat -c %s "$f")" -v kb="$kb" \
      -v base="$base_kb" -v s="$s" 'BEGIN {
    printf "%-14s %12.1f %12.1f %12.1f %7.2f %7.2f %7s\n", m, w / 1048576,
      fb / 1048576, kb / 1024, kb * 1024 / w, (kb - base) * 1024 / w, s }'
done

#!/usr/bin/env bash
# What the graph optimizations do to each model: the graph ops left after
# `kiln-compile --emit=graph` at -O0 (the imported graph) and at each other
# level, per op kind and in total (graph ops, constants included), and the
# fusion groups graph-fuse formed, per kind. Not a test: it prints a table. The
# figures are kept in docs/optimization-levels.md.
#
#   bench/graph-ops.sh [-b BUILD_DIR] [-l "0 1 2 3"] [MODEL...]
#
# MODEL: shapes (the bundled examples/shapes/shapes_cnn.onnx), resnet18,
# mobilenet_v2, bert (scripts/export_models.py); default all four. Needs
# /usr/bin/python3 with python3-torch and python3-torchvision for the
# exported models.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
levels="0 1 2 3"
while [ $# -gt 0 ]; do
  case $1 in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -l) levels=$2; shift 2 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- shapes resnet18 mobilenet_v2 bert
kc=$build/bin/kiln-compile
[ -x "$kc" ] || { echo "graph-ops: build first ($kc)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
exported=()
for m in "$@"; do [ "$m" = shapes ] || exported+=("$m"); done
[ ${#exported[@]} -eq 0 ] || /usr/bin/python3 "$src/scripts/export_models.py" "$tmp" "${exported[@]}"
cp "$src/examples/shapes/shapes_cnn.onnx" "$tmp/shapes.onnx"

for m in "$@"; do
  for l in $levels; do
    "$kc" -q -O"$l" --emit=graph "$tmp/$m.onnx" -o "$tmp/$m.O$l.mlir"
    # One "level op count" line per graph op kind, and the fusion groups
    # (scf.execute_region ops marked graph.fusion) as "fusion-groups".
    { grep -oE '"graph\.[a-z_]+"\(' "$tmp/$m.O$l.mlir" | tr -d '"(' || true
      grep -oE 'graph\.fusion = "[a-z_]+"' "$tmp/$m.O$l.mlir" |
        sed 's/.*"\(.*\)"/fusion-group:\1/' || true
    } | sort | uniq -c | awk -v l="$l" '{ print l, $2, $1 }' >"$tmp/$m.O$l.count"
  done
  echo "== $m: graph ops after kiln-compile --emit=graph -ON"
  # Rows: op, then its count at each level; sorted by op name.
  table() { # table ROWS|TOTAL
    cat "$tmp/$m".O*.count | awk -v levels="$levels" -v what="$1" '
      { n[$2, $1] = $3; ops[$2] = 1; if ($2 ~ /^graph\./) total[$1] += $3 }
      END {
        nl = split(levels, L, " ")
        if (what == "TOTAL") ops2["total"] = 1; else for (op in ops) ops2[op] = 1
        for (op in ops2) {
          printf "%-28s", op
          for (i = 1; i <= nl; ++i)
            printf " %6d", op == "total" ? total[L[i]] : n[op, L[i]]
          print ""
        }
      }'
  }
  printf '%-28s' op; for l in $levels; do printf ' %6s' "-O$l"; done; echo
  table ROWS | sort
  table TOTAL
  echo
done

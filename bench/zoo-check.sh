#!/usr/bin/env bash
# Does every zoo model compile as exported and match PyTorch? For each
# model of bench/zoo.py (or those named): export it (bench/models.py, into
# bench/.work/models, shared with bench/run.sh and kept while up to date),
# kiln-compile it under GNU time (wall seconds, peak RSS), run the library
# with kiln-run --expected against PyTorch's output at the model's
# tolerance, and print one row: compiles, matches, compile s, peak MB and
# the first line of what went wrong. Not a test and not a timing: it
# judges only compiling and matching, and exits 1 if any model failed.
#
#   bench/zoo-check.sh [-b BUILD_DIR] [-t SECONDS] [--threads N]
#                      [-- KILN-COMPILE-FLAGS] [MODEL...]
#
# -t: the limit per kiln-compile (default 900 s; past it the row says
# "timeout"). --threads: kiln-run's thread count (default 2). Needs
# /usr/bin/python3 with Debian's python3-torch, python3-torchvision and
# python3-onnx, and GNU time (/usr/bin/time). Libraries and logs go to
# bench/.work/zoo-check/.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
limit=900
threads=2
flags=()
while [ $# -gt 0 ]; do
  case $1 in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -t) limit=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --) shift; while [ $# -gt 0 ] && [[ $1 == -* ]]; do flags+=("$1"); shift; done ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "zoo-check: unknown option '$1' (see --help)" >&2; exit 2 ;;
    *) break ;;
  esac
done
py=/usr/bin/python3
kc=$build/bin/kiln-compile
kr=$build/bin/kiln-run
if [ ! -x "$kc" ] || [ ! -x "$kr" ]; then
  echo "zoo-check: build first ($kc)" >&2; exit 2
fi
[ -x /usr/bin/time ] || { echo "zoo-check: needs GNU time (/usr/bin/time)" >&2; exit 2; }
if [ $# -eq 0 ]; then
  mapfile -t names < <(cd "$src/bench" && "$py" -c 'import zoo; print("\n".join(zoo.ZOO))')
  set -- "${names[@]}"
fi

models=$src/bench/.work/models
out=$src/bench/.work/zoo-check
mkdir -p "$models" "$out"
"$py" "$src/bench/models.py" "$models" "$@" >&2

printf '%-20s %-8s %-8s %9s %8s  %s\n' model compiles matches compile_s peak_MB note
failed=0
for m in "$@"; do
  json=$models/$m.json
  so=$out/$m.so
  rm -f "$so"
  compiles=no matches=- s=- mb=- note=""
  if timeout "$limit" /usr/bin/time -f '%e %M' -o "$out/$m.time" \
      "$kc" -q "${flags[@]}" "$models/$m.onnx" -o "$so" 2>"$out/$m.compile.log"; then
    compiles=yes
    read -r s kb <"$out/$m.time"
    mb=$(awk -v kb="$kb" 'BEGIN { printf "%.0f", kb / 1024 }')
    mapfile -t inputs < <("$py" -c 'import json, sys
for f in json.load(open(sys.argv[1]))["inputs"]: print("--input=" + f)' "$json")
    read -r rtol atol < <("$py" -c 'import json, sys
j = json.load(open(sys.argv[1])); print(j["rtol"], j["atol"])' "$json")
    if (cd "$models" && "$kr" "$so" "${inputs[@]}" --expected "$m.output_0.npy" \
        --rtol "$rtol" --atol "$atol" --threads "$threads") >"$out/$m.run.log" 2>&1; then
      matches=yes
    else
      matches=no
      note=$(grep -m1 -iE 'error|mismatch|differ' "$out/$m.run.log" || tail -1 "$out/$m.run.log")
    fi
  else
    rc=$?
    [ $rc = 124 ] && note="timeout after ${limit} s" ||
      note=$(grep -m1 -i 'error' "$out/$m.compile.log" || head -1 "$out/$m.compile.log")
  fi
  [ "$matches" = yes ] || failed=1
  printf '%-20s %-8s %-8s %9s %8s  %s\n' "$m" "$compiles" "$matches" "$s" "$mb" "${note:0:160}"
done
exit $failed

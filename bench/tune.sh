#!/usr/bin/env bash
# Tunes bench models with kiln-tune, then times each model default, tuned
# and under ONNX Runtime side by side (bench/run.sh --tuning-dir) and writes
# the "Tuning" table of docs/performance.md.
#
#   bench/tune.sh [--models resnet18,mobilenet_v2,...] [--threads 2]
#                 [--time-budget 4m] [--trials 40] [--rounds 3] [--notes TEXT]
#                 [--no-doc]
#
# Logs go to bench/.work/tune/MODEL.tune; a second run resumes them
# (kiln-tune --resume), so tuning can be spread over several runs.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
models=resnet18,mobilenet_v2
threads=2
budget=4m
trials=40
rounds=3
notes=()
doc=()
while [ $# -gt 0 ]; do
  case $1 in
    --models) models=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --time-budget) budget=$2; shift 2 ;;
    --trials) trials=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --notes) notes=(--notes "$2"); shift 2 ;;
    --no-doc) doc=(--no-doc); shift ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "tune.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $threads in *,*) echo "tune.sh: one thread count (schedules are tuned for it)" >&2; exit 2 ;; esac
work=$src/bench/.work
build=$src/build
[ -x "$build/bin/kiln-tune" ] || { echo "tune.sh: no kiln-tune in $build (scripts/setup.sh builds it)" >&2; exit 2; }
mkdir -p "$work/models" "$work/tune"
/usr/bin/python3 "$src/bench/models.py" "$work/models" ${models//,/ } >&2
for m in ${models//,/ }; do
  log=$work/tune/$m.tune
  resume=()
  [ -e "$log" ] && resume=(--resume)
  echo "== kiln-tune $m ($budget, $trials trials per workload, $threads threads)" >&2
  "$build/bin/kiln-tune" "$work/models/$m.onnx" -o "$log" "${resume[@]}" \
    --threads "$threads" --trials "$trials" --time-budget "$budget" >&2
done
exec "$src/bench/run.sh" --models "$models" --threads "$threads" --rounds "$rounds" \
  --tuning-dir "$work/tune" "${notes[@]}" "${doc[@]}"

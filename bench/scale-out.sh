#!/usr/bin/env bash
# Sharded models on this machine (docs/scale-out.md, "Measured"): an MLP
# x[8 x D] -> MatMul D x D, Relu -> MatMul D x D (D = 2048 by default: 32 MB
# of f32 weights), or with --model gpt a GPT-style decoder
# (bench/scale_out_models.py), compiled whole and with --shard=tp:N /
# dp:N, run with kiln-run --benchmark. Prints, per configuration:
#   - the median latency (kiln-run's) and its ratio to the whole model on
#     as many threads as the sharded run has processes (1 thread a rank),
#     timed alternately three times (the median of the rounds' ratios);
#   - the resident bytes of the model library in each process while it
#     runs (/proc/PID/smaps) and, of them, the weights' pages
#     (bench/resident_weights.py: the library's large data objects' pages
#     present in /proc/PID/pagemap), next to the weights a process should
#     hold (1/N of them for tp, all for dp);
#   - the bytes each rank's collectives move per run, counted (all-reduce
#     calls and bytes, by bench/mpi_count.c preloaded) next to what the
#     plan predicts (scale_out_models.py: the MLP's tp one all-reduce of
#     the output, the decoder's two per block; dp the output's blocks
#     assembled by one all-reduce of the whole output).
# The processes share this machine's cores: with 4 ranks on 2 cores they
# are oversubscribed (an upper bound, not a measurement of 4 hosts).
#
#   bench/scale-out.sh [--model mlp|gpt] [--dim D] [--runs N] [--ranks 2,4]
#                      [--no-build]
set -uo pipefail
cd "$(dirname "$0")/.."

model=mlp dim=2048 runs=200 ranks=2,4 build=1
while [ $# -gt 0 ]; do
  case $1 in
    --model) model=$2; shift ;;
    --dim) dim=$2; shift ;;
    --runs) runs=$2; shift ;;
    --ranks) ranks=$2; shift ;;
    --no-build) build=0 ;;
    *) echo "usage: bench/scale-out.sh [--model mlp|gpt] [--dim D] [--runs N] [--ranks 2,4] [--no-build]" >&2; exit 2 ;;
  esac
  shift
done
command -v mpirun > /dev/null || { echo "scale-out: Open MPI is not installed (scripts/setup.sh)" >&2; exit 2; }
[ "$build" = 1 ] && { cmake --build build > /dev/null || exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

/usr/bin/python3 bench/scale_out_models.py "$out" "$model" "$dim" || exit 1
read -r weights tp_calls tp_bytes dp_calls dp_bytes title < "$out/plan.txt"
mpicc -shared -fPIC -O2 bench/mpi_count.c -o "$out/mpi_count.so" || exit 1
# The counted runs: kiln-run --benchmark 20 runs the model 1 + 2 + 20 times.
total_runs=23

median() { sed -n 's/.*median \([0-9.e+-]*\) ms.*/\1/p' "$1" | head -1; }

# Resident KB of the library `lib` in each running kiln-run on it.
library_rss() {
  local lib=$1 pid
  for pid in $(pgrep -f "kiln-run $lib"); do
    awk -v lib="$lib" '$0 ~ lib {f = 1; next} f && /^Rss:/ {s += $2; f = 0}
      END {if (s) print s}' "/proc/$pid/smaps" 2>/dev/null
  done | sort -n | tr '\n' ' '
}

# Resident KB of the library's weights (bench/resident_weights.py) in each
# running kiln-run on it.
weights_rss() {
  local lib=$1 pid
  for pid in $(pgrep -f "^build/bin/kiln-run $lib"); do
    /usr/bin/python3 bench/resident_weights.py "$pid" "$lib" 2>/dev/null
  done | sort -n | tr '\n' ' '
}

# run NAME PROCESSES THREADS: median ms (stdout) and the library's RSS per
# process (file NAME.rss), measured while a longer run goes on.
run() {
  local name=$1 np=$2 threads=$3 lib=$out/$1.so
  local cmd=(build/bin/kiln-run "$lib" --input "$out/x.npy" --expected "$out/y.npy"
             --rtol 1e-4 --atol 1e-5
             --threads "$threads" --benchmark "$runs")
  if [ "$np" = 0 ]; then
    "${cmd[@]}" > "$out/$name.txt" 2>&1 || { echo "scale-out: $name failed: $(tail -1 "$out/$name.txt")" >&2; return 1; }
    build/bin/kiln-run "$lib" --input "$out/x.npy" --threads "$threads" --benchmark 100000 > /dev/null 2>&1 &
  else
    # --oversubscribe only past the cores: with it Open MPI's ranks yield
    # the CPU while they wait in a collective, which costs an all-reduce
    # its latency (the MLP's tp:2 ratio measured 1.29-1.49x with it,
    # 1.21-1.26x without).
    local over=()
    [ "$np" -gt "$(nproc)" ] && over=(--oversubscribe)
    timeout 600 mpirun -np "$np" "${over[@]}" --bind-to none "${cmd[@]}" > "$out/$name.txt" 2>&1 ||
      { echo "scale-out: $name failed: $(tail -1 "$out/$name.txt")" >&2; return 1; }
    # Counted apart (the preload stays out of the timing): 1 + 2 + 20 runs.
    timeout 600 mpirun -np "$np" "${over[@]}" --bind-to none \
      -x LD_PRELOAD="$out/mpi_count.so" -x KILN_MPI_COUNT="$out/$name.count" \
      build/bin/kiln-run "$lib" --input "$out/x.npy" --threads 1 --benchmark 20 > /dev/null 2>&1
    timeout 600 mpirun -np "$np" "${over[@]}" --bind-to none build/bin/kiln-run "$lib" \
      --input "$out/x.npy" --threads 1 --benchmark 100000 > /dev/null 2>&1 &
  fi
  local bg=$!
  sleep 3
  library_rss "$lib" > "$out/$name.rss"
  weights_rss "$lib" > "$out/$name.wrss"
  kill "$bg" 2>/dev/null; pkill -f "kiln-run $lib" 2>/dev/null; wait "$bg" 2>/dev/null
  median "$out/$name.txt"
}

build/bin/kiln-compile "$out/model.onnx" -q -o "$out/whole.so" || exit 1
echo "== scale-out: $title ($((weights / 1048576)) MB of weights), $runs runs"
printf '%-8s %5s %8s %10s %8s  %-22s %-22s %10s  %s\n' plan procs threads "median ms" ratio \
  "library RSS/process KB" "of it weights KB" "weights KB" "all-reduces/run/rank (plan)"
IFS=, read -ra counts <<< "$ranks"
# This machine's timings swing (up to 2x): each sharded configuration is
# timed alternately with the whole model, `rounds` times, and the median of
# the per-round ratios is reported.
rounds=3
for n in "${counts[@]}"; do
  base=$(run whole 0 "$n") || exit 1
  printf '%-8s %5s %8s %10s %8s  %-22s %-22s %10s  %s\n' whole 1 "$n" "$base" 1.00x \
    "$(cat "$out/whole.rss")" "$(cat "$out/whole.wrss")" $((weights / 1024)) -
  for kind in tp dp; do
    build/bin/kiln-compile "$out/model.onnx" --shard=$kind:$n -q -o "$out/$kind$n.so" || exit 1
    ratios=() mss=()
    for ((r = 0; r < rounds; ++r)); do
      b=$(run whole 0 "$n") || exit 1
      ms=$(run "$kind$n" "$n" 1) || exit 1
      mss+=("$ms")
      ratios+=("$(/usr/bin/python3 -c "print($ms / $b)")")
    done
    read -r ms ratio < <(/usr/bin/python3 -c "
import statistics, sys
m = [float(x) for x in sys.argv[1].split()]; r = [float(x) for x in sys.argv[2].split()]
print('%.3f %.2fx' % (statistics.median(m), statistics.median(r)))" "${mss[*]}" "${ratios[*]}")
    share=$weights calls=$dp_calls bytes=$dp_bytes
    [ $kind = tp ] && share=$((weights / n)) calls=$tp_calls bytes=$tp_bytes
    printf '%-8s %5s %8s %10s %8s  %-22s %-22s %10s  %s\n' "$kind:$n" "$n" 1 "$ms" "$ratio" \
      "$(cat "$out/$kind$n.rss")" "$(cat "$out/$kind$n.wrss")" $((share / 1024)) \
      "$(awk -v r=$total_runs '{c += $1; b += $2; n++} END {printf "%g calls, %d bytes", c / n / r, b / n / r}' "$out/$kind$n.count") (plan: $calls, $bytes)"
  done
done

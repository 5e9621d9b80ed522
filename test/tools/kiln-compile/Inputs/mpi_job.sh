# Sourced by the scripts that watch a sharded run from outside
# (kill_one_rank.sh, rank_weight_pages.sh): start_ranks LIB INPUT N [ARGS]
# runs LIB under `mpirun -np N` (ARGS before the program: -x VAR) with a
# long benchmark in the background, and returns once every rank runs
# (waiting up to 30 s), with `job` the mpirun's pid and `ranks` the
# kiln-run pids, one a line.
start_ranks() {
  local lib=$1 input=$2 n=$3
  shift 3
  timeout 120 mpirun -np "$n" --oversubscribe "$@" kiln-run "$lib" \
    --input "$input" --threads 1 --benchmark 1000000 > "${LOG:-/dev/null}" 2>&1 &
  job=$!
  ranks=""
  for _ in $(seq 1 300); do
    ranks=$(pgrep -f "^kiln-run $lib --input" | sort -n)
    [ "$(echo "$ranks" | grep -c .)" -ge "$n" ] && break
    sleep 0.1
  done
}

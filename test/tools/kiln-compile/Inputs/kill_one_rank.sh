#!/usr/bin/env bash
# A rank of a sharded run dies or hangs mid-run (shard-run.test): runs LIB
# under `mpirun -np N` with a long benchmark, sends the last rank SIGNAL
# (KILL: it dies; STOP: it hangs, alive) once every rank runs, and reports
# how the job ended: "job ended: exit STATUS after S s" (within a time
# limit, or "job hung"), then "left running: none" or the processes still
# there. KILN_SHARD_TIMEOUT, when set, is passed to every rank.
#
#   kill_one_rank.sh LIB INPUT N [SIGNAL]
set -u
lib=$1 input=$2 n=$3 signal=${4:-KILL}
forward=()
[ -n "${KILN_SHARD_TIMEOUT:-}" ] && forward=(-x KILN_SHARD_TIMEOUT)
. "$(dirname "$0")/mpi_job.sh"
start_ranks "$lib" "$input" "$n" "${forward[@]}"
sleep 1 # into the runs
kill -s "$signal" $(echo "$ranks" | tail -1)
start=$(date +%s)
for _ in $(seq 1 300); do
  kill -0 "$job" 2> /dev/null || break
  sleep 0.1
done
if kill -0 "$job" 2> /dev/null; then
  echo "job hung"
  kill -9 "$job"
  pkill -9 -f "^kiln-run $lib --input"
else
  wait "$job"
  echo "job ended: exit $? after $(($(date +%s) - start)) s"
fi
left=$(pgrep -f "^kiln-run $lib --input")
echo "left running: ${left:-none}"

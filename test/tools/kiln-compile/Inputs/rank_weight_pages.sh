#!/usr/bin/env bash
# The weight pages each rank of a sharded run holds (shard-weight-pages.
# test): runs LIB under `mpirun -np N` with a long benchmark, and once
# every rank runs, prints for each "rank weight pages: N KB", the KiB of
# the library's weight objects present in the rank's page tables
# (resident_weights.py, the bench's), then "within 5% of EXPECTED KB" or
# "off". The job is ended after.
#
#   rank_weight_pages.sh LIB INPUT N EXPECTED_KB RESIDENT_WEIGHTS_PY
set -u
lib=$1 input=$2 n=$3 expected=$4 measure=$5
. "$(dirname "$0")/mpi_job.sh"
start_ranks "$lib" "$input" "$n"
sleep 2 # into the runs
for pid in $ranks; do
  kb=$(/usr/bin/python3 "$measure" "$pid" "$lib")
  if [ "${kb:-0}" -ge $((expected * 95 / 100)) ] && [ "$kb" -le $((expected * 105 / 100)) ]; then
    echo "rank weight pages: $kb KB, within 5% of $expected KB"
  else
    echo "rank weight pages: ${kb:-?} KB, off (expected $expected KB)"
  fi
done
kill "$job" 2> /dev/null
pkill -f "^kiln-run $lib --input"
wait "$job" 2> /dev/null
true

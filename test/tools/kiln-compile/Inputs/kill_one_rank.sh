#!/usr/bin/env bash
# A rank of a sharded run dies mid-run (shard-run.test): runs LIB under
# `mpirun -np N` with a long benchmark, kills the last rank with SIGKILL
# once every rank runs, and reports how the job ended: "job ended: exit
# STATUS after S s" (within a time limit, or "job hung"), then "left
# running: none" or the processes still there.
#
#   kill_one_rank.sh LIB INPUT N
set -u
lib=$1 input=$2 n=$3
timeout 120 mpirun -np "$n" --oversubscribe kiln-run "$lib" --input "$input" \
  --threads 1 --benchmark 100000000 > /dev/null 2>&1 &
job=$!
ranks=""
for _ in $(seq 1 300); do
  ranks=$(pgrep -f "kiln-run $lib --input" | sort -n)
  [ "$(echo "$ranks" | grep -c .)" -ge "$n" ] && break
  sleep 0.1
done
sleep 1 # into the runs
kill -9 $(echo "$ranks" | tail -1)
start=$(date +%s)
for _ in $(seq 1 300); do
  kill -0 "$job" 2> /dev/null || break
  sleep 0.1
done
if kill -0 "$job" 2> /dev/null; then
  echo "job hung"
  kill -9 "$job"
else
  wait "$job"
  echo "job ended: exit $? after $(($(date +%s) - start)) s"
fi
left=$(pgrep -f "kiln-run $lib --input")
echo "left running: ${left:-none}"

"""Which knob values win: reads kiln-tune logs and counts, for each knob
value, the workloads whose best schedule sets it (docs/kiln-tune.md, "What
the default rules learned"). A value that wins across models and kinds is
a candidate for a new default rule; one that wins only here and there is
left to tuning.

usage: /usr/bin/python3 bench/tune_knobs.py LOG.tune [LOG.tune ...]

The best schedule of a workload is kiln-compile's choice: the least median
of all its measurements, never one that failed once. Workloads whose best
is within 5% of the default (noise on this machine) count as "default"."""
import collections
import json
import statistics
import sys

MIN_GAIN = 1.05


def best_schedules(path):
    """{key: (workload, default s, best s, best schedule)} of one log."""
    times = collections.defaultdict(list)
    failed = set()
    names = {}
    for line in open(path):
        try:
            r = json.loads(line)
        except ValueError:
            continue
        s = json.dumps(r.get("schedule", {}), sort_keys=True)
        key = (r["key"], s)
        names[r["key"]] = r.get("workload", "")
        if r.get("seconds") is None:
            failed.add(key)
        else:
            times[key].append(r["seconds"])
    out = {}
    for k in names:
        med = {s: statistics.median(v) for (kk, s), v in times.items()
               if kk == k and (kk, s) not in failed}
        if "{}" not in med:
            continue
        best = min(med, key=med.get)
        out[k] = (names[k], med["{}"], med[best], json.loads(best))
    return out


def main():
    wins = collections.Counter()
    kinds = collections.defaultdict(set)
    total = tuned = 0
    for path in sys.argv[1:]:
        for name, default, best, sched in best_schedules(path).values():
            total += 1
            if default / best < MIN_GAIN:
                continue
            tuned += 1
            kind = name.split(" ")[0].rstrip(":")
            for p, opts in sched.items():
                for o, v in opts.items():
                    wins[(p, o, json.dumps(v))] += 1
                    kinds[(p, o, json.dumps(v))].add(kind)
    print("%d workloads, %d of them at least %.0f%% faster tuned\n" %
          (total, tuned, (MIN_GAIN - 1) * 100))
    print("| pass | option | value | workloads whose best sets it | kinds |")
    print("|---|---|---|--:|---|")
    for (p, o, v), n in sorted(wins.items(), key=lambda x: (-x[1], x[0])):
        print("| %s | %s | %s | %d | %s |" % (p, o, v, n,
                                             ", ".join(sorted(kinds[(p, o, v)]))))


if __name__ == "__main__":
    main()

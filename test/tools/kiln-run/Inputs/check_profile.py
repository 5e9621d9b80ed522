"""Checks kiln-run --profile's report and trace.

usage: check_profile.py REPORT.txt TRACE.json

The records must add up to the run (through kilnModelRun) within 10%:
the median over the runs of each run's records over that run (the sum of
the records' medians against the median run drifts when other processes
delay some runs, as lit's other workers do); the trace must be Chrome trace JSON with one
complete ('X') event per record, in time order, named by the nodes the
report names, their durations adding up to the run within 10%.
"""
import json
import re
import sys


def main(report_path, trace_path):
    report = open(report_path).read()
    records = int(re.search(r"^profile: (\d+) records", report, re.M)[1])
    share = float(re.search(r"within each run they cover ([0-9.]+)% of it",
                            report)[1])
    assert 90 <= share <= 110, f"records cover {share}% of the run"
    trace = json.load(open(trace_path))
    events = trace["traceEvents"]
    assert len(events) == records, f"{len(events)} events, {records} records"
    starts = [e["ts"] for e in events]
    assert starts == sorted(starts), "events not in time order"
    for e in events:
        assert e["ph"] == "X" and e["pid"] == 1 and e["tid"] == 1, e
        assert e["dur"] >= 0 and e["name"] in report, e
    total = sum(e["dur"] for e in events)
    run = trace["otherData"]["run_us"]
    assert 0.9 * run <= total <= 1.1 * run, f"events {total} us, run {run} us"
    print(f"check_profile: ok, {records} records, {share}% of the run")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

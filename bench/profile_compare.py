#!/usr/bin/env python3
"""Kiln's per-op profile beside ONNX Runtime's, node by node.

    kiln-compile M.onnx --profile -o M.so
    kiln-run M.so --input M.input_0.npy --threads 1 --profile --benchmark 20 \\
        --profile-json kiln.json
    node bench/ort_bench.js M.onnx --threads 1 --profile ort M.input_0.npy
    python3 bench/profile_compare.py kiln.json ort_*.json [--top 25]

Each Kiln record (a fused group) is matched with the ONNX Runtime nodes
that computed the same ONNX nodes: an ORT node is named after the ONNX
node it ran, or, when ORT rewrote it (its NCHWc convs, fusions), after
that node's output tensor, which PyTorch names "<node>_output_0": the
longest Kiln node name that the ORT name equals or starts with followed by
"_" wins. ORT nodes that match nothing (its layout reorders) are listed on
their own. Times are medians over the runs in each file (ORT's include its
warm-up runs, whose median is the same on a long enough run). The table is
sorted by how much longer Kiln takes than ORT on the record: the top rows
are where the time is lost.
"""
import argparse
import json
import statistics
import sys
from collections import defaultdict


def load_events(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"profile_compare: {path}: {e}")
    events = data["traceEvents"] if isinstance(data, dict) else data
    return [e for e in events if e.get("ph") == "X" and "dur" in e]


def kiln_records(path):
    """Kiln's trace: one event per record per run; name lists its nodes."""
    durs, info = defaultdict(list), {}
    for e in load_events(path):
        durs[e["name"]].append(e["dur"] / 1e3)
        info[e["name"]] = e.get("args", {})
    return {name: (statistics.median(d), info[name]) for name, d in durs.items()}


def ort_nodes(path):
    durs, ops = defaultdict(list), {}
    for e in load_events(path):
        if e.get("cat") != "Node":
            continue
        name = e["name"].removesuffix("_kernel_time")
        durs[name].append(e["dur"] / 1e3)
        ops[name] = e.get("args", {}).get("op_name", "?")
    return {name: (statistics.median(d), ops[name]) for name, d in durs.items()}


def match(ort_name, kiln_nodes):
    best = None
    for node in kiln_nodes:
        if ort_name == node or ort_name.startswith(node + "_"):
            if best is None or len(node) > len(best):
                best = node
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kiln", help="kiln-run --profile-json output")
    ap.add_argument("ort", help="ONNX Runtime profile (ort_bench.js --profile)")
    ap.add_argument("--top", type=int, default=25, help="rows to print")
    a = ap.parse_args()

    records = kiln_records(a.kiln)
    node_record = {}
    for name in records:
        for node in name.split(", "):
            node_record[node] = name
    ort_ms = defaultdict(float)
    unmatched = defaultdict(float)
    for name, (ms, op) in ort_nodes(a.ort).items():
        node = match(name, node_record)
        if node is None:
            unmatched[op] += ms
        else:
            ort_ms[node_record[node]] += ms

    rows = []
    for name, (ms, args) in records.items():
        ort = ort_ms.get(name, 0.0)
        rows.append((ms - ort, ms, ort, args.get("op_types", "?"),
                     args.get("output", "?"), name))
    rows.sort(reverse=True)
    kiln_total = sum(r[1] for r in rows)
    ort_total = sum(ort_ms.values()) + sum(unmatched.values())
    print(f"Kiln {kiln_total:.3f} ms in {len(rows)} records; ONNX Runtime "
          f"{ort_total:.3f} ms ({sum(unmatched.values()):.3f} ms in nodes "
          f"matching no Kiln record: "
          + ", ".join(f"{op} {ms:.3f}" for op, ms in sorted(unmatched.items()))
          + ")")
    print(f"{'excess':>8} {'kiln':>8} {'ort':>8} {'ratio':>6}  "
          f"{'output':<16} {'ops':<20} nodes")
    for excess, ms, ort, ops, out, name in rows[:a.top]:
        ratio = f"{ms / ort:6.2f}" if ort > 0 else "     -"
        print(f"{excess:8.3f} {ms:8.3f} {ort:8.3f} {ratio}  {out:<16} "
              f"{ops:<20} {name[:90]}")
    by_ops = defaultdict(lambda: [0.0, 0.0])
    for excess, ms, ort, ops, *_ in rows:
        by_ops[ops][0] += ms
        by_ops[ops][1] += ort
    print("by op types (kiln ms / ort ms):",
          "; ".join(f"{ops} {k:.2f}/{o:.2f}" for ops, (k, o) in
                    sorted(by_ops.items(), key=lambda kv: kv[1][1] - kv[1][0])))


if __name__ == "__main__":
    main()

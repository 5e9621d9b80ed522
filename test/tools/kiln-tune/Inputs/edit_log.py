"""Prints a tuning-log record made from the first record of LOG for KEY,
with fields replaced: the tests' hand edits of a log.

usage: /usr/bin/python3 edit_log.py LOG KEY [FIELD=JSON]...

e.g. schedule='{"kiln-tile-and-vectorize": {"vector-size": 8}}' seconds=1e-9
cpu='"other-cpu"'. KEY may be "first" (the log's first record)."""
import json
import sys


def main():
    path, key = sys.argv[1], sys.argv[2]
    with open(path) as f:
        records = [json.loads(line) for line in f if line.strip()]
    record = next(r for r in records if key in ("first", r["key"]))
    for edit in sys.argv[3:]:
        field, value = edit.split("=", 1)
        record[field] = json.loads(value)
    print(json.dumps(record, separators=(",", ":")))


if __name__ == "__main__":
    main()

"""The resident bytes of a model library's weights in a running process.

usage: resident_weights.py PID LIBRARY

Prints the KiB of the library's weight constants (its data objects of at
least 64 KiB, as `readelf -s` lists them) whose pages are present in
process PID (/proc/PID/pagemap's present bit), so that what a process
holds of the weights can be told apart from the rest of the library's
resident pages (its code, headers, and what the loader reads around
them). bench/scale-out.sh runs it on each rank of a sharded model.
"""
import os
import struct
import subprocess
import sys

PAGE = os.sysconf("SC_PAGE_SIZE")
MIN_WEIGHT = 64 << 10


def weight_ranges(lib):
    """(address, size) of the library's large data objects."""
    out = subprocess.run(["readelf", "-sW", lib], capture_output=True,
                         text=True, check=True).stdout
    seen = set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 8 or f[3] != "OBJECT":
            continue
        size = int(f[2], 0)
        if size >= MIN_WEIGHT:
            seen.add((int(f[1], 16), size))
    return sorted(seen)


def load_base(pid, lib):
    """Where the library's first page (file offset 0) is mapped."""
    real = os.path.realpath(lib)
    with open("/proc/%d/maps" % pid) as maps:
        for line in maps:
            f = line.split()
            if len(f) >= 6 and f[2] == "00000000" and os.path.realpath(f[5]) == real:
                return int(f[0].split("-")[0], 16)
    return None


def main():
    pid, lib = int(sys.argv[1]), sys.argv[2]
    base = load_base(pid, lib)
    if base is None:
        sys.exit("resident_weights.py: %s is not mapped in process %d" % (lib, pid))
    resident = 0
    with open("/proc/%d/pagemap" % pid, "rb") as pagemap:
        for addr, size in weight_ranges(lib):
            first = (base + addr) // PAGE
            last = (base + addr + size - 1) // PAGE
            pagemap.seek(first * 8)
            data = pagemap.read((last - first + 1) * 8)
            for i in range(last - first + 1):
                if struct.unpack_from("<Q", data, i * 8)[0] >> 63:
                    resident += PAGE
    print(resident // 1024)


if __name__ == "__main__":
    main()

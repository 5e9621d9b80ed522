"""damage_library.py LIB DIR N RUNNER INPUT: writes N copies of LIB with 1
to 4 random bytes changed (seeded) into DIR, runs RUNNER COPY --input INPUT
on each and counts how they ended: refused (exit 2 or 4 with an error
line), crashed (a signal, or an exit code a tool never uses), or ran
(exit 0). Prints the counts and the first few that were not refused."""
import random
import subprocess
import sys

lib, out, n, runner, inp = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], sys.argv[5]
data = open(lib, "rb").read()
rng = random.Random(20261205)
refused = crashed = ran = 0
notes = []
for k in range(n):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(b))
        b[pos] ^= rng.randint(1, 255)
    path = f"{out}/damaged{k}.so"
    open(path, "wb").write(b)
    p = subprocess.run([runner, path, "--input", inp], capture_output=True,
                       text=True, timeout=60)
    if p.returncode in (2, 4) and "error:" in p.stderr:
        refused += 1
    elif p.returncode == 0:
        ran += 1
        notes.append(f"ran: {path}")
    else:
        crashed += 1
        notes.append(f"crashed ({p.returncode}): {path}: {p.stderr[-200:]}")
print(f"{n} damaged copies: {refused} refused with a message, "
      f"{crashed} crashed, {ran} ran")
for line in notes[:5]:
    print(line)

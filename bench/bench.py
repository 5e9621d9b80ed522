#!/usr/bin/python3
"""Kiln against ONNX Runtime, PyTorch and OpenBLAS, side by side in one run.

bench/run.sh sets up the peers and the binaries, then runs this; see
docs/performance.md. Each round measures every model at every thread
count with each runtime in turn (the order rotates per round), so that the
machine's drift hits all runtimes alike. A measurement is one process that
times runs in-process (bench/kiln_bench.c, ort_bench.js, torch_bench.py,
sgemm.c) and prints per-run times; its median is the round's figure. The
table gives the median over rounds and the spread (min-max of the rounds'
medians). Every runtime's output is checked against PyTorch's saved output
(bench/models.py); a mismatch shows as WRONG, never as a time.
"""
import argparse
import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PY = "/usr/bin/python3"
ALL_MODELS = ["resnet18", "mobilenet_v2", "bert4", "mlp", "matmul512",
              "matmul1024", "conv3x3", "chain"]
ALL_MODELS += ["lstm2", "gru2"]  # recurrent (bench/models.py)
QUICK_MODELS = ["mlp", "conv3x3", "chain"]
# The zoo of real architectures (bench/zoo.py): `--models zoo` names them
# all; they are not in the default run.
sys.path.insert(0, HERE)
from zoo import ZOO  # noqa: E402
ZOO_MODELS = list(ZOO)
# Single conv layers (bench/models.py's last block), only when named.
CONV_LAYERS = ["conv1d", "conv3d", "gconv", "dwconv7"]
SGEMM_SIZES = {"matmul512": 512, "matmul1024": 1024}
PEERS = ["ort", "torch"]
LABEL = {"kiln": "Kiln", "kiln-tuned": "Kiln tuned", "ort": "ORT", "torch": "PyTorch",
         "openblas": "OpenBLAS"}
BEGIN = "<!-- BEGIN bench/run.sh output -->"
END = "<!-- END bench/run.sh output -->"
# The section bench/tune.sh writes (--tuning-dir runs).
TUNING_BEGIN = "<!-- BEGIN bench/tune.sh output -->"
TUNING_END = "<!-- END bench/tune.sh output -->"


class Failure(Exception):
    pass


def log(msg):
    sys.stderr.write(msg + "\n")
    sys.stderr.flush()


def fmt_ms(x):
    if x is None:
        return "-"
    for limit, digits in ((100, 0), (10, 1), (1, 2)):
        if x >= limit:
            return "%.*f" % (digits, x)
    return "%.3f" % x


def check_output(got_path, exp_path, rtol, atol):
    """None if |got - exp| <= atol + rtol |exp| everywhere, else why not."""
    import numpy
    try:
        got = numpy.load(got_path)
    except (OSError, ValueError) as e:
        return "no output (%s)" % e
    exp = numpy.load(exp_path)
    if got.shape != exp.shape:
        return "shape %s, expected %s" % (got.shape, exp.shape)
    g, e = got.astype(numpy.float64), exp.astype(numpy.float64)
    ok = (numpy.abs(g - e) <= atol + rtol * numpy.abs(e)) | (
        numpy.isnan(g) & numpy.isnan(e))
    if ok.all():
        return None
    worst = int(numpy.argmax(numpy.where(ok, 0, numpy.abs(g - e))))
    return "%d of %d elements differ (rtol %g, atol %g); worst got %.6g, " \
        "expected %.6g" % ((~ok).sum(), ok.size, rtol, atol, g.flat[worst],
                           e.flat[worst])


class Bench:
    def __init__(self, o):
        self.o = o
        self.work = os.path.abspath(o.work)
        self.models_dir = os.path.join(self.work, "models")
        self.out_dir = os.path.join(self.work, "out")
        self.kiln_compile = os.path.join(o.build, "bin", "kiln-compile")
        self.kiln_bench = os.path.join(self.work, "bin", "kiln_bench")
        self.sgemm = os.path.join(self.work, "bin", "sgemm")
        self.meta = {}
        self.compiled = {}  # model -> {"s", "bytes"} or {"error"}
        # (model, threads, runtime) -> {"medians": [...], "runs": [[...]],
        #                               "error": str or None}
        self.results = {}

    # --- setup ------------------------------------------------------------

    def check_tools(self):
        missing = []
        for path, what in ((self.kiln_compile, "Kiln (build it: scripts/setup.sh)"),
                           (self.kiln_bench, "bench/kiln_bench.c's binary"),
                           (self.sgemm, "bench/sgemm.c's binary (needs libopenblas-dev)")):
            if not os.access(path, os.X_OK):
                missing.append("%s: %s" % (what, path))
        if not shutil.which("node"):
            missing.append("node (Debian's nodejs)")
        else:
            probe = subprocess.run(
                ["node", "-e", "require(process.argv[1])",
                 os.path.join(HERE, ".peers", "node_modules", "onnxruntime-node")],
                capture_output=True, text=True)
            if probe.returncode:
                missing.append("ONNX Runtime (npm onnxruntime-node in bench/.peers): "
                               + (probe.stderr.strip().splitlines() or ["?"])[-1])
        probe = subprocess.run([PY, "-c", "import torch, torchvision, onnx"],
                               capture_output=True, text=True)
        if probe.returncode:
            missing.append("PyTorch (Debian's python3-torch, python3-torchvision, "
                           "python3-onnx): " + probe.stderr.strip().splitlines()[-1])
        if missing:
            raise Failure("missing peers or tools (bench/run.sh installs and "
                          "builds them):\n  " + "\n  ".join(missing))

    def generate(self):
        os.makedirs(self.models_dir, exist_ok=True)
        os.makedirs(self.out_dir, exist_ok=True)
        r = subprocess.run([PY, os.path.join(HERE, "models.py"), self.models_dir]
                           + self.o.models, stdout=sys.stderr, stderr=subprocess.PIPE,
                           text=True)
        if r.returncode:
            raise Failure("models.py failed:\n" + r.stderr[-3000:])
        for m in self.o.models:
            with open(os.path.join(self.models_dir, m + ".json")) as f:
                self.meta[m] = json.load(f)

    def tuning_log(self, m):
        """The model's kiln-tune log under --tuning-dir, or None."""
        if not self.o.tuning_dir:
            return None
        path = os.path.join(self.o.tuning_dir, m + ".tune")
        return path if os.path.exists(path) else None

    def compile(self, m, tuned=False):
        key = m + ".tuned" if tuned else m
        so = os.path.join(self.out_dir, key + ".so")
        flags = ["--tuning-log", self.tuning_log(m)] if tuned else []
        t = time.perf_counter()
        r = subprocess.run([self.kiln_compile, "-q", os.path.join(self.models_dir, m + ".onnx"),
                            "-o", so] + flags, capture_output=True, text=True)
        s = time.perf_counter() - t
        if r.returncode:
            err = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[0]
            self.compiled[key] = {"error": "compile: " + err}
            log("  kiln-compile %s FAILED: %s" % (key, err))
        else:
            self.compiled[key] = {"s": s, "bytes": os.path.getsize(so)}
            log("  kiln-compile %-13s %6.2f s  %6.1f MB" % (key, s, os.path.getsize(so) / 1e6))

    # --- one measurement ----------------------------------------------------

    def command(self, runtime, m, threads, output):
        meta = self.meta[m]
        inputs = [os.path.join(self.models_dir, f) for f in meta["inputs"]]
        timing = ["--threads", str(threads), "--budget", str(self.o.budget),
                  "--min-iters", str(self.o.min_iters),
                  "--max-seconds", str(self.o.max_seconds)]
        if runtime in ("kiln", "kiln-tuned"):
            so = m + (".tuned.so" if runtime == "kiln-tuned" else ".so")
            return [self.kiln_bench, os.path.join(self.out_dir, so)] + timing + \
                ["--output", output] + inputs
        if runtime == "ort":  # checks its output itself too
            return ["node", os.path.join(HERE, "ort_bench.js"),
                    os.path.join(self.models_dir, m + ".onnx")] + timing + \
                ["--expected", os.path.join(self.models_dir, meta["output"]),
                 "--rtol", str(meta["rtol"]), "--atol", str(meta["atol"]),
                 "--output", output] + inputs
        if runtime == "torch":
            return [PY, os.path.join(HERE, "torch_bench.py"), self.models_dir, m] + \
                timing + ["--output", output]
        return [self.sgemm, str(SGEMM_SIZES[m])] + timing

    def measure(self, runtime, m, threads):
        key = (m, threads, runtime)
        entry = self.results.setdefault(key, {"medians": [], "runs": [], "error": None})
        if entry["error"]:
            return  # WRONG or FAIL once: not timed again
        built = m + ".tuned" if runtime == "kiln-tuned" else m
        if runtime.startswith("kiln") and "error" in self.compiled[built]:
            entry["error"] = "FAIL"
            entry["why"] = self.compiled[built]["error"]
            return
        output = os.path.join(self.out_dir, "%s.%s.%d.npy" % (m, runtime, threads))
        if os.path.exists(output):
            os.remove(output)
        env = dict(os.environ, OMP_NUM_THREADS=str(threads),
                   OPENBLAS_NUM_THREADS=str(threads))
        try:
            r = subprocess.run(self.command(runtime, m, threads, output),
                               capture_output=True, text=True, env=env,
                               timeout=self.o.timeout)
        except subprocess.TimeoutExpired:
            entry["error"], entry["why"] = "FAIL", "timed out after %d s" % self.o.timeout
            log("  %-13s T=%d %-8s FAIL (timeout)" % (m, threads, runtime))
            return
        times, summary = [], {}
        for line in r.stdout.splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue
            if "iter" in rec:
                times.append(rec["ms"])
            else:
                summary = rec
        why = None
        if str(summary.get("check", "")).startswith("wrong"):
            entry["error"], why = "WRONG", summary["check"]
        elif r.returncode or not times:
            err = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
            entry["error"], why = "FAIL", err
        elif runtime == "openblas":
            if summary.get("check") != "ok":
                entry["error"], why = "WRONG", r.stderr.strip()
        else:
            meta = self.meta[m]
            why = check_output(output, os.path.join(self.models_dir, meta["output"]),
                               meta["rtol"], meta["atol"])
            if why:
                entry["error"] = "WRONG"
        if entry["error"]:
            entry["why"] = why
            log("  %-13s T=%d %-8s %s: %s" % (m, threads, runtime, entry["error"], why))
            return
        med = statistics.median(times)
        entry["medians"].append(med)
        entry["runs"].append(times)
        log("  %-13s T=%d %-8s %10s ms  (%d runs)" % (m, threads, runtime, fmt_ms(med),
                                                       len(times)))

    def run(self):
        start = time.time()
        self.load_before = os.getloadavg()
        log("== compiling with kiln-compile (default -O level)")
        for m in self.o.models:
            self.compile(m)
            if self.tuning_log(m):
                self.compile(m, tuned=True)
        for rnd in range(self.o.rounds):
            log("== round %d/%d" % (rnd + 1, self.o.rounds))
            for m in self.o.models:
                runtimes = ["kiln"] + (["kiln-tuned"] if self.tuning_log(m) else []) + \
                    PEERS + (["openblas"] if m in SGEMM_SIZES else [])
                shift = rnd % len(runtimes)
                order = runtimes[shift:] + runtimes[:shift]
                for t in self.o.threads:
                    for runtime in order:
                        self.measure(runtime, m, t)
        self.load_after = os.getloadavg()
        self.wall_s = time.time() - start

    # --- reporting ----------------------------------------------------------

    def stat(self, m, t, runtime):
        """(median of the rounds' medians, min, max) or (error, why)."""
        e = self.results.get((m, t, runtime))
        if not e:
            return None
        if e["error"]:
            return e["error"]
        v = e["medians"]
        return (statistics.median(v), min(v), max(v))

    @staticmethod
    def cell(s):
        if s is None:
            return "-"
        if isinstance(s, str):
            return "**%s**" % s
        med, lo, hi = s
        return "%s (%s–%s)" % (fmt_ms(med), fmt_ms(lo), fmt_ms(hi))

    def target(self, m, t):
        """The target for row (m, t) as (text, met or None), or None."""
        if t != 2:
            return None
        k = self.stat(m, t, "kiln")
        if m in ("resnet18", "mobilenet_v2", "bert4", "chain"):
            peer, bound = ("torch", 1.0) if m == "chain" else ("ort", 1.5)
            p = self.stat(m, t, peer)
            text = "≤ %g× %s" % (bound, LABEL[peer])
            if not isinstance(k, tuple) or not isinstance(p, tuple):
                return text + ": no figure", None
            ratio = k[0] / p[0]
            met = ratio <= bound
            return "%s: %s (%.2f×)" % (text, "met" if met else "not met", ratio), met
        if m == "matmul1024":
            p = self.stat(m, t, "openblas")
            text = "≥ 0.8× OpenBLAS GFLOP/s"
            if not isinstance(k, tuple) or not isinstance(p, tuple):
                return text + ": no figure", None
            ratio = p[0] / k[0]
            met = ratio >= 0.8
            return "%s: %s (%.3f×)" % (text, "met" if met else "not met", ratio), met
        if m in ("lstm2", "gru2"):  # recurrent nets: ≤ 1.3× ONNX Runtime
            p = self.stat(m, t, "ort")
            if not isinstance(k, tuple) or not isinstance(p, tuple):
                return "≤ 1.3× ORT: no figure", None
            ratio = k[0] / p[0]
            met = ratio <= 1.3
            return "≤ 1.3× ORT: %s (%.2f×)" % ("met" if met else "not met", ratio), met
        return None

    def table(self):
        rows = ["| model | GFLOP | threads | Kiln ms | ORT ms | PyTorch ms | "
                "Kiln / best peer | Kiln GFLOP/s | compile s | .so MB | target (2 threads) |",
                "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"]
        for m in self.o.models:
            flops = self.meta[m]["flops"]
            c = self.compiled.get(m, {})
            for t in self.o.threads:
                k = self.stat(m, t, "kiln")
                peers = [(self.stat(m, t, p), p) for p in PEERS]
                peers = [(s[0], p) for s, p in peers if isinstance(s, tuple)]
                ratio = "-"
                if isinstance(k, tuple) and peers:
                    best, who = min(peers)
                    ratio = "%.2f× %s" % (k[0] / best, LABEL[who])
                gflops = "%.2f" % (flops / k[0] / 1e6) if isinstance(k, tuple) and flops else "-"
                tgt = self.target(m, t)
                rows.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    m, "%.3f" % (flops / 1e9) if flops else "-", t, self.cell(k),
                    self.cell(self.stat(m, t, "ort")), self.cell(self.stat(m, t, "torch")),
                    ratio, gflops, "%.2f" % c["s"] if "s" in c else "FAIL",
                    "%.1f" % (c["bytes"] / 1e6) if "bytes" in c else "-",
                    tgt[0] if tgt else ""))
        return rows

    def sgemm_table(self):
        ms = [m for m in self.o.models if m in SGEMM_SIZES]
        if not ms:
            return []
        rows = ["| SGEMM n | threads | OpenBLAS ms | OpenBLAS GFLOP/s (best call) | "
                "Kiln MatMul ms | Kiln GFLOP/s | Kiln / OpenBLAS throughput |",
                "|--:|--:|--:|--:|--:|--:|--:|"]
        for m in ms:
            flops = self.meta[m]["flops"]
            for t in self.o.threads:
                b = self.stat(m, t, "openblas")
                k = self.stat(m, t, "kiln")
                e = self.results.get((m, t, "openblas"))
                bg = best = "-"
                if isinstance(b, tuple):
                    bg = "%.1f" % (flops / b[0] / 1e6)
                    best = "%.1f" % (flops / min(min(r) for r in e["runs"]) / 1e6)
                kg = "%.2f" % (flops / k[0] / 1e6) if isinstance(k, tuple) else "-"
                ratio = "%.4f×" % (b[0] / k[0]) if isinstance(b, tuple) and \
                    isinstance(k, tuple) else "-"
                rows.append("| %d | %d | %s | %s (%s) | %s | %s | %s |" % (
                    SGEMM_SIZES[m], t, self.cell(b), bg, best, self.cell(k), kg, ratio))
        return rows

    def targets(self):
        lines = []
        for m in ("matmul1024", "resnet18", "mobilenet_v2", "bert4", "chain"):
            if m in self.o.models and 2 in self.o.threads:
                tgt = self.target(m, 2)
                if tgt:
                    lines.append("- %s, 2 threads: %s" % (m, tgt[0]))
        if "resnet18" in self.compiled:
            c = self.compiled["resnet18"]
            if "s" in c:
                lines.append("- resnet18 compile time < 10 s: %s (%.2f s)" % (
                    "met" if c["s"] < 10 else "not met", c["s"]))
            else:
                lines.append("- resnet18 compile time < 10 s: compile failed")
        return lines

    def failures(self):
        out = []
        for (m, t, rt), e in sorted(self.results.items()):
            if e["error"]:
                out.append("- %s, %d thread(s), %s: %s — %s" % (
                    m, t, LABEL[rt], e["error"], e.get("why") or ""))
        return out

    def environment(self):
        def cmd(args):
            try:
                return subprocess.run(args, capture_output=True, text=True,
                                      cwd=ROOT).stdout.strip()
            except OSError:
                return "?"
        cpu = "?"
        flags = set()
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name") and cpu == "?":
                    cpu = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
        isa = "AVX-512" if "avx512f" in flags else "AVX2+FMA" if "fma" in flags else "?"
        commit = cmd(["git", "describe", "--always", "--dirty"])
        blas = cmd(["dpkg-query", "-W", "-f=${Version}", "libopenblas0-pthread"])
        torch_v = cmd([PY, "-c", "import torch; print(torch.__version__)"])
        ort_v = cmd(["node", "-p", "require(process.argv[1]).version",
                     os.path.join(HERE, ".peers", "node_modules", "onnxruntime-node",
                                  "package.json")])
        return [
            "- when: %s, Kiln %s (`%s`, default -O level, host CPU)" % (
                datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), commit,
                os.path.relpath(self.o.build, ROOT)),
            "- machine: %s, %d cores, %s; load average %.2f before, %.2f after" % (
                cpu, os.cpu_count(), isa, self.load_before[0], self.load_after[0]),
            "- peers: ONNX Runtime %s (npm onnxruntime-node), PyTorch %s eager "
            "(Debian), OpenBLAS %s (Debian, pthreads)" % (ort_v, torch_v, blas),
            "- %d rounds, threads %s, per measurement: warm-up, then runs for %g s "
            "(at least %d, none started past %g s); run took %.1f min" % (
                self.o.rounds, ",".join(map(str, self.o.threads)), self.o.budget,
                self.o.min_iters, self.o.max_seconds, self.wall_s / 60),
        ]

    def report(self):
        env = self.environment()
        notes = ["- notes: " + n for n in self.o.notes]
        lines = ["### Latest run", ""] + env + notes + [""] + self.table() + [""]
        sg = self.sgemm_table()
        if sg:
            lines += sg + [""]
        tg = self.targets()
        if tg:
            lines += ["Targets (ratios measured side by side in this run):", ""] + tg + [""]
        fl = self.failures()
        if fl:
            lines += ["Not timed (WRONG: output differs from PyTorch's; FAIL: did not "
                      "run):", ""] + fl + [""]
        return lines

    def tuning_report(self):
        """bench/tune.sh's table: each model default, tuned and ORT."""
        rows = ["| model | threads | Kiln ms | Kiln tuned ms | ORT ms | tuned / default | "
                "tuned / ORT | default / ORT |", "|---|--:|--:|--:|--:|--:|--:|--:|"]
        ratios = {"td": [], "to": [], "do": []}
        for m in self.o.models:
            for t in self.o.threads:
                k, kt, o = (self.stat(m, t, rt) for rt in ("kiln", "kiln-tuned", "ort"))

                def ratio(a, b, name):
                    if not isinstance(a, tuple) or not isinstance(b, tuple):
                        return "-"
                    ratios[name].append(a[0] / b[0])
                    return "%.2f×" % (a[0] / b[0])
                rows.append("| %s | %d | %s | %s | %s | %s | %s | %s |" % (
                    m, t, self.cell(k), self.cell(kt), self.cell(o), ratio(kt, k, "td"),
                    ratio(kt, o, "to"), ratio(k, o, "do")))

        def geo(v):
            return "%.2f×" % math.exp(sum(map(math.log, v)) / len(v)) if v else "-"
        rows.append("| geometric mean | | | | | %s | %s | %s |" % (
            geo(ratios["td"]), geo(ratios["to"]), geo(ratios["do"])))
        env = self.environment()
        notes = ["- notes: " + n for n in self.o.notes]
        logs = ["- tuning logs: %s" % ", ".join(
            "%s (%d records)" % (os.path.basename(self.tuning_log(m)),
                                 sum(1 for _ in open(self.tuning_log(m))))
            for m in self.o.models if self.tuning_log(m))]
        fl = self.failures()
        return ["### Latest tuning run", ""] + env + logs + notes + [""] + rows + [""] + \
            (["Not timed:", ""] + fl + [""] if fl else [])

    def chart(self, path):
        t = 2 if 2 in self.o.threads else max(self.o.threads)
        data = os.path.join(self.work, "chart.dat")
        lowest = 1.0
        with open(data, "w") as f:
            f.write("model Kiln ORT PyTorch\n")
            for m in self.o.models:
                vals = []
                for rt in ["kiln"] + PEERS:
                    s = self.stat(m, t, rt)
                    vals.append("%.6g" % s[0] if isinstance(s, tuple) else "?")
                    if isinstance(s, tuple):
                        lowest = min(lowest, s[0])
                f.write("%s %s\n" % (m, " ".join(vals)))
        ymin = 10 ** math.floor(math.log10(lowest))
        if not shutil.which("gnuplot"):
            log("bench: gnuplot not found (Debian's gnuplot-nox): no chart")
            return False
        title = "Latency, batch 1, %d thread%s (log scale; lower is better)" % (
            t, "" if t == 1 else "s")
        r = subprocess.run(["gnuplot", "-e", "datafile='%s'; outfile='%s'; charttitle='%s'; ymin=%g"
                            % (data, path, title, ymin), os.path.join(HERE, "chart.gp")],
                           capture_output=True, text=True)
        if r.returncode:
            log("bench: gnuplot failed: " + r.stderr.strip())
            return False
        return True

    def write_doc(self, path, lines, chart_name, begin=BEGIN, end=END):
        with open(path) as f:
            text = f.read()
        if begin not in text or end not in text:
            raise Failure("%s has no %s ... %s section" % (path, begin, end))
        body = "\n".join(lines)
        if chart_name:
            body += "\n![Latency per model at 2 threads](%s)\n" % chart_name
        head, rest = text.split(begin, 1)
        tail = rest.split(end, 1)[1]
        with open(path, "w") as f:
            f.write(head + begin + "\n" + body + "\n" + end + tail)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=4)
    p.add_argument("--models", default=",".join(ALL_MODELS),
                   help="comma-separated, from: " + ",".join(ALL_MODELS + ZOO_MODELS)
                   + " (zoo: all of bench/zoo.py's)")
    p.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    p.add_argument("--budget", type=float, default=1.0,
                   help="seconds of timed runs per measurement")
    p.add_argument("--min-iters", type=int, default=3)
    p.add_argument("--max-seconds", type=float, default=4.0,
                   help="no run starts past this many seconds of a measurement")
    p.add_argument("--timeout", type=int, default=600, help="per measurement process")
    p.add_argument("--quick", action="store_true",
                   help="2 rounds of the small models, 0.3 s per measurement")
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--work", default=os.path.join(HERE, ".work"))
    p.add_argument("--doc", help="write the table section of this file "
                   "(docs/performance.md)")
    p.add_argument("--chart", help="write the chart (PNG) here")
    p.add_argument("--notes", action="append", default=[],
                   help="a note for the report (repeatable)")
    p.add_argument("--tuning-dir", help="also time each model compiled with "
                   "DIR/MODEL.tune (kiln-tune's log) and report default vs "
                   "tuned vs ORT (bench/tune.sh)")
    o = p.parse_args()
    if o.quick:
        o.rounds, o.budget, o.max_seconds = 2, 0.3, 2.0
        if o.models == ",".join(ALL_MODELS):
            o.models = ",".join(QUICK_MODELS)
    o.models = [z for m in o.models.split(",") if m
                for z in (ZOO_MODELS if m == "zoo" else [m])]
    known = ALL_MODELS + ZOO_MODELS + CONV_LAYERS
    unknown = [m for m in o.models if m not in known]
    if unknown:
        p.error("unknown model(s) %s (known: %s, zoo)" % (
            ",".join(unknown), ",".join(known)))
    try:
        o.threads = [int(t) for t in o.threads.split(",")]
    except ValueError:
        p.error("--threads: comma-separated integers")
    if o.rounds < 1 or not o.threads or min(o.threads) < 1:
        p.error("--rounds and --threads must be positive")
    o.build = os.path.abspath(o.build)

    b = Bench(o)
    try:
        b.check_tools()
        log("== models (bench/models.py -> %s)" % b.models_dir)
        b.generate()
        b.run()
    except Failure as e:
        log("bench: " + str(e))
        return 2
    except KeyboardInterrupt:
        log("bench: interrupted")
        return 130
    if o.tuning_dir:
        lines = b.tuning_report()
        print("\n".join(lines))
        if o.doc:
            try:
                b.write_doc(o.doc, lines, None, TUNING_BEGIN, TUNING_END)
            except Failure as e:
                log("bench: " + str(e))
                return 2
            log("bench: tuning table written to %s" % o.doc)
        return 0
    lines = b.report()
    print("\n".join(lines))
    chart = o.chart or os.path.join(b.work, "performance.png")
    drawn = b.chart(chart)
    if drawn:
        log("bench: chart written to %s" % chart)
    with open(os.path.join(b.work, "results.json"), "w") as f:
        json.dump({"%s/%d/%s" % k: v for k, v in b.results.items()}, f)
    if o.doc:
        try:
            b.write_doc(o.doc, lines, os.path.relpath(chart, os.path.dirname(
                os.path.abspath(o.doc))) if drawn else None)
        except Failure as e:
            log("bench: " + str(e))
            return 2
        log("bench: table written to %s" % o.doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Differential test: kiln-opt against mlir-opt-22 with identical arguments.

usage: compat.py KILN_OPT MLIR_OPT PAIRS [-v]

PAIRS lists one case a line, `FILE ARGS...` (shell words; FILE relative to
the corpus/ directory beside PAIRS, `-` for none). Both tools run in corpus/
with the same arguments. A case passes when:
  - the exit statuses are equal;
  - stdout is byte for byte equal (text or bytecode);
  - the diagnostics with a source location (`FILE:LINE:COL: SEVERITY: MSG`)
    are the same list (file, line, severity and message; columns too);
  - the pipelines printed by --dump-pass-pipeline are equal;
  - command-line and pipeline errors (no source location, `<unknown>:0:` or
    `PROG:` lines) are reported by both, and each name mlir-opt quotes in
    them ('...') appears in kiln-opt's report too (kiln-opt words these its
    own way, with "did you mean" hints; docs/kiln-opt.md).
Cases whose line ends in `# excluded: REASON` are skipped and counted; the
reasons are the known differences listed in docs/kiln-opt.md.
"""
import os
import re
import shlex
import subprocess
import sys

LOC_DIAG = re.compile(
    r"^(?!<unknown>)([^\s:]+):(\d+):(\d+): (error|warning|note|remark): (.*)$")
TOOL_ERROR = re.compile(
    r"^(<unknown>:0: error: |kiln-opt: |mlir-opt-22: |mlir-opt: |)"
    r"((?<=: ).*|cannot open input file .*)$")


def run(tool, file, args, cwd):
    argv = [tool] + args + ([file] if file != "-" else [])
    p = subprocess.run(argv, cwd=cwd, stdin=subprocess.DEVNULL,
                       capture_output=True, timeout=120)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def loc_diags(stderr):
    return [m.groups() for m in map(LOC_DIAG.match, stderr.splitlines()) if m]


def dumped_pipelines(stderr):
    out, cur = [], None
    for line in stderr.splitlines():
        if line.startswith("Pass Manager with "):
            cur = [line]
            out.append(cur)
        elif cur is not None:
            if line == "" and cur[-1].startswith(")"):
                cur = None
            else:
                cur.append(line)
    return ["\n".join(c) for c in out]


def tool_errors(stderr):
    return [m.group(2) for m in map(TOOL_ERROR.match, stderr.splitlines())
            if m and not m.group(2).startswith("Did you mean")]


def compare(kiln, mlir):
    (krc, kout, kerr), (mrc, mout, merr) = kiln, mlir
    if krc != mrc:
        return "exit status %d, mlir-opt %d" % (krc, mrc)
    if kout != mout:
        return "stdout differs (%d vs %d bytes)" % (len(kout), len(mout))
    if loc_diags(kerr) != loc_diags(merr):
        return "diagnostics differ:\n  kiln: %s\n  mlir: %s" % (
            loc_diags(kerr), loc_diags(merr))
    if dumped_pipelines(kerr) != dumped_pipelines(merr):
        return "dumped pipelines differ:\n%s\n---\n%s" % (
            dumped_pipelines(kerr), dumped_pipelines(merr))
    merrs, kerrs = tool_errors(merr), tool_errors(kerr)
    if bool(merrs) != bool(kerrs):
        return "tool errors differ:\n  kiln: %s\n  mlir: %s" % (kerrs, merrs)
    for name in re.findall(r"'([^']+)'", " ".join(merrs[:1])):
        if name.startswith("mlir-opt") or name.endswith("--help"):
            continue
        if name.lstrip("-") not in kerr:
            return "kiln-opt's error does not name %r:\n  kiln: %s\n  mlir: %s" % (
                name, kerrs, merrs)
    return None


def main():
    kiln, mlir, pairs = [os.path.abspath(a) if os.sep in a else a
                         for a in sys.argv[1:4]]
    verbose = "-v" in sys.argv[4:]
    corpus = os.path.join(os.path.dirname(os.path.abspath(pairs)), "corpus")
    passed = failed = excluded = 0
    files = set()
    with open(pairs) as f:
        lines = [l.rstrip("\n") for l in f]
    for number, line in enumerate(lines, 1):
        text = line.split(" # ", 1)[0].strip() if not line.startswith("#") else ""
        if not text:
            continue
        if "# excluded:" in line:
            excluded += 1
            continue
        words = shlex.split(text)
        file, args = words[0], words[1:]
        if file != "-":
            files.add(file)
        result = compare(run(kiln, file, args, corpus),
                         run(mlir, file, args, corpus))
        if result:
            failed += 1
            print("FAIL %s:%d: %s\n  %s" % (os.path.basename(pairs), number,
                                           text, result))
        else:
            passed += 1
            if verbose:
                print("ok   %s" % text)
    print("compat: %d pairs over %d files: %d identical, %d different, "
          "%d excluded" % (passed + failed, len(files), passed, failed,
                           excluded))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

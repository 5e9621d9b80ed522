"""Assembles each PTX module of a `kiln-compile --emit=ptx` file with ptxas.

usage: ptxas_each.py PTXAS ARCH FILE.ptx

--emit=ptx writes one module per gpu.binary, each after a line
"// ---- gpu.binary @NAME"; ptxas takes one module at a time. Prints how
many modules and kernels assembled; exits 1 naming the first module ptxas rejects.
"""
import os
import subprocess
import sys
import tempfile


def main():
    ptxas, arch, path = sys.argv[1:4]
    modules, name, lines = [], None, []
    with open(path) as f:
        for line in f:
            if line.startswith("// ---- gpu.binary @"):
                if name:
                    modules.append((name, "".join(lines)))
                name, lines = line.split("@", 1)[1].strip(), []
            else:
                lines.append(line)
    if name:
        modules.append((name, "".join(lines)))
    if not modules:
        sys.exit("ptxas_each: no PTX module in %s" % path)
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in modules:
            src = os.path.join(tmp, name + ".ptx")
            with open(src, "w") as f:
                f.write(text)
            r = subprocess.run([ptxas, "-arch=" + arch, src, "-o",
                                os.path.join(tmp, name + ".cubin")],
                               capture_output=True, text=True)
            if r.returncode:
                sys.stderr.write(r.stderr)
                sys.exit("ptxas_each: ptxas -arch=%s rejected %s" % (arch, name))
    kernels = sum(text.count(".entry ") for _, text in modules)
    print("ptxas_each: %d module(s), %d kernels assembled for %s"
          % (len(modules), kernels, arch))


if __name__ == "__main__":
    main()

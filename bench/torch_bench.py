#!/usr/bin/python3
"""Times a benchmark model in PyTorch eager mode, in process.

usage: /usr/bin/python3 bench/torch_bench.py MODEL_DIR NAME --threads T
       [--budget S] [--min-iters N] [--max-iters N] [--max-seconds S]
       [--output OUT.npy] [--device cpu|cuda] [--dtype fp32|bf16|fp16]
       [--compile]

Rebuilds the module that bench/models.py exported (same seed, so the same
weights), reads MODEL_DIR/NAME.input_K.npy, and runs it under
torch.inference_mode() with torch.set_num_threads(T) and one inter-op
thread: plain eager, no TorchScript. Warm-up and iteration counts as
bench/kiln_bench.c. Prints {"iter": i, "ms": t} per timed run, then a
summary line; --output writes the output as .npy (bench.py checks it).
--device cuda runs the module and its inputs on the GPU (bench/gpu-check.sh):
each timed run ends with torch.cuda.synchronize(), so it measures the whole
forward pass, as kiln-run --benchmark does for a CUDA model library; TF32
is off, so PyTorch computes in fp32 as Kiln does. --dtype bf16 or fp16
runs the f32 module under torch.autocast to that type (what kiln-compile
--precision matches); --compile runs it through torch.compile (compiled
during the warm-up). NAME may be a batched export (MODEL_bN, from
bench/models.py --batch): the module is the one its .json names.
"""
import argparse
import json
import os
import sys
import time


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model_dir")
    p.add_argument("name")
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--budget", type=float, default=1.0)
    p.add_argument("--min-iters", type=int, default=3)
    p.add_argument("--max-iters", type=int, default=200)
    p.add_argument("--max-seconds", type=float, default=4.0)
    p.add_argument("--output")
    p.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    p.add_argument("--dtype", default="fp32", choices=["fp32", "bf16", "fp16"])
    p.add_argument("--compile", action="store_true")
    o = p.parse_args()
    try:
        import numpy
        import torch
    except ImportError as e:
        sys.exit("torch_bench: %s (install Debian's python3-torch and run "
                 "with /usr/bin/python3)" % e)
    torch.set_num_threads(o.threads)
    torch.set_num_interop_threads(1)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import models

    with open(os.path.join(o.model_dir, o.name + ".json")) as f:
        meta = json.load(f)
    model, _, _, _ = models.build(meta.get("model", o.name))
    inputs = [torch.from_numpy(numpy.load(os.path.join(o.model_dir, f)))
              for f in meta["inputs"]]
    if o.device == "cuda":
        if not torch.cuda.is_available():
            sys.exit("torch_bench: --device cuda: PyTorch sees no CUDA device")
        # fp32 arithmetic as Kiln's kernels do it: no TF32 tensor cores in
        # convolutions (cuDNN's default) or matrix products.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        model = model.to("cuda")
        inputs = [t.to("cuda") for t in inputs]

    if o.compile:
        if not hasattr(torch, "compile"):
            sys.exit("torch_bench: --compile: PyTorch %s has no torch.compile"
                     % torch.__version__)
        model = torch.compile(model)
    if o.dtype != "fp32":
        dtype = torch.bfloat16 if o.dtype == "bf16" else torch.float16
        autocast = torch.autocast(o.device, dtype=dtype)
    else:
        import contextlib
        autocast = contextlib.nullcontext()

    def sync():
        if o.device == "cuda":
            torch.cuda.synchronize()

    with torch.inference_mode(), autocast:
        t0 = time.perf_counter()
        warmup = 0
        while True:
            out = model(*inputs)
            sync()
            warmup += 1
            if warmup >= 20 or time.perf_counter() - t0 >= 0.1 * o.budget:
                break
        start, iters, total, last = time.perf_counter(), 0, 0.0, 0.0
        lines = []
        while iters < o.max_iters and (
                iters < o.min_iters or time.perf_counter() - start < o.budget):
            if iters > 0 and time.perf_counter() - start + last > o.max_seconds:
                break
            t = time.perf_counter()
            out = model(*inputs)
            sync()
            last = time.perf_counter() - t
            total += last
            lines.append(json.dumps({"iter": iters, "ms": 1e3 * last}))
            iters += 1
    print("\n".join(lines))
    if o.output:
        numpy.save(o.output, out.float().cpu().numpy())
    print(json.dumps({"runtime": "torch", "version": torch.__version__,
                      "device": o.device, "dtype": o.dtype,
                      "compile": o.compile, "threads": o.threads, "iters": iters, "warmup": warmup,
                      "total_s": total}))


if __name__ == "__main__":
    main()

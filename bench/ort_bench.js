// Times an ONNX model with ONNX Runtime (npm onnxruntime-node, CPU), in
// process, and prints one JSON line per timed run.
//
//   node bench/ort_bench.js MODEL.onnx --threads T [--budget S]
//        [--min-iters N] [--max-iters N] [--max-seconds S]
//        [--expected OUT.npy --rtol R --atol A] [--output OUT.npy]
//        [--profile PREFIX] INPUT.npy...
//
// The session: intra_op_num_threads = T, inter_op_num_threads = 1,
// sequential execution, all graph optimizations. Inputs bind to the graph's
// inputs in order. Warm-up and iteration counts as bench/kiln_bench.c.
// With --expected, the first output is checked against it (|got - exp| <=
// atol + rtol |exp|) and a mismatch is reported in the summary line
// ("check": "wrong: ...") and by exit code 1. --output writes the first
// output as .npy. --profile turns on ONNX Runtime's per-node profiler and
// writes its Chrome-trace JSON to PREFIX_<date>.json (warm-up runs
// included; bench/profile_compare.py reads it). Looks for onnxruntime-node
// in bench/.peers (bench/run.sh installs it there), then on node's usual
// paths.
'use strict';
const fs = require('fs');
const path = require('path');

function die(msg, code) {
  process.stderr.write('ort_bench: ' + msg + '\n');
  process.exit(code);
}

function loadOrt() {
  const local = path.join(__dirname, '.peers', 'node_modules', 'onnxruntime-node');
  for (const p of [local, 'onnxruntime-node']) {
    try {
      return require(p);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND') die('cannot load ' + p + ': ' + e.message, 3);
    }
  }
  die('onnxruntime-node is not installed (bench/run.sh installs it into bench/.peers)', 3);
}

// --- .npy files (format versions 1-3, little-endian, C order) -------------
// Hand-written because no npm package is a dependency here beyond the peer.
const DTYPES = {
  '<f4': ['float32', Float32Array],
  '<f8': ['float64', Float64Array],
  '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array],
  '|b1': ['bool', Uint8Array],
  '|u1': ['uint8', Uint8Array],
};

function readNpy(file) {
  const buf = fs.readFileSync(file);
  if (buf.length < 10 || buf.toString('latin1', 0, 6) !== '\x93NUMPY')
    die(file + ': not a .npy file', 2);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.toString('latin1', start, start + headerLen);
  const descr = /'descr':\s*'([^']+)'/.exec(header);
  const fortran = /'fortran_order':\s*(True|False)/.exec(header);
  const shape = /'shape':\s*\(([^)]*)\)/.exec(header);
  if (!descr || !fortran || !shape) die(file + ': malformed .npy header', 2);
  if (fortran[1] === 'True') die(file + ': Fortran order is not supported', 2);
  const dtype = DTYPES[descr[1]];
  if (!dtype) die(file + ': unsupported dtype ' + descr[1], 2);
  const dims = shape[1].split(',').map((s) => s.trim()).filter((s) => s).map(Number);
  const count = dims.reduce((a, b) => a * b, 1);
  const offset = start + headerLen;
  const bytes = buf.subarray(offset, offset + count * dtype[1].BYTES_PER_ELEMENT);
  if (bytes.length !== count * dtype[1].BYTES_PER_ELEMENT) die(file + ': truncated data', 2);
  // Copy into an aligned buffer: typed arrays need element alignment.
  const data = new dtype[1](count);
  new Uint8Array(data.buffer).set(bytes);
  return { type: dtype[0], data, dims };
}

function writeNpy(file, tensor) {
  const descr = Object.keys(DTYPES).find((k) => DTYPES[k][0] === tensor.type);
  if (!descr) die('cannot write a ' + tensor.type + ' output', 2);
  const shape = tensor.dims.length === 1 ? tensor.dims[0] + ',' : tensor.dims.join(', ');
  let header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + shape + '), }';
  header += ' '.repeat(63 - ((header.length + 10) % 64)) + '\n';
  const pre = Buffer.alloc(10);
  pre.write('\x93NUMPY', 0, 'latin1');
  pre[6] = 1;
  pre[7] = 0;
  pre.writeUInt16LE(header.length, 8);
  const data = tensor.data;
  fs.writeFileSync(file, Buffer.concat([pre, Buffer.from(header, 'latin1'),
    Buffer.from(data.buffer, data.byteOffset, data.byteLength)]));
}

function compare(got, exp, rtol, atol) {
  if (got.dims.join('x') !== exp.dims.join('x'))
    return 'shape ' + got.dims.join('x') + ' vs expected ' + exp.dims.join('x');
  let bad = 0, worst = -1, worstExcess = 0;
  for (let i = 0; i < exp.data.length; ++i) {
    const g = Number(got.data[i]), e = Number(exp.data[i]);
    if (Number.isNaN(g) && Number.isNaN(e)) continue;
    const excess = Math.abs(g - e) - (atol + rtol * Math.abs(e));
    if (!(excess <= 0)) {
      ++bad;
      if (worst < 0 || excess > worstExcess) { worst = i; worstExcess = excess; }
    }
  }
  if (!bad) return null;
  return bad + ' of ' + exp.data.length + ' differ, worst at ' + worst + ': got ' +
    Number(got.data[worst]) + ', expected ' + Number(exp.data[worst]);
}

function parseArgs(argv) {
  const o = { threads: 0, budget: 1, minIters: 3, maxIters: 200, maxSeconds: 4,
    rtol: 1e-3, atol: 1e-4, inputs: [] };
  const flags = { '--threads': 'threads', '--budget': 'budget', '--min-iters': 'minIters',
    '--max-iters': 'maxIters', '--max-seconds': 'maxSeconds', '--rtol': 'rtol', '--atol': 'atol' };
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (flags[a] && i + 1 < argv.length) o[flags[a]] = Number(argv[++i]);
    else if ((a === '--expected' || a === '--output' || a === '--profile') && i + 1 < argv.length)
      o[a.slice(2)] = argv[++i];
    else if (a.startsWith('-')) die('unknown option ' + a, 2);
    else if (!o.model) o.model = a;
    else o.inputs.push(a);
  }
  if (!o.model || !(o.threads >= 1))
    die('usage: node ort_bench.js MODEL.onnx --threads T [--budget S] [--min-iters N] ' +
        '[--max-iters N] [--max-seconds S] [--expected OUT.npy] [--output OUT.npy] ' +
        '[--profile PREFIX] INPUT.npy...', 2);
  return o;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const ort = loadOrt();
  ort.env.logLevel = 'error';
  const session = await ort.InferenceSession.create(o.model, {
    intraOpNumThreads: o.threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableProfiling: !!o.profile,
    profileFilePrefix: o.profile,
  });
  if (session.inputNames.length !== o.inputs.length)
    die(o.model + ' takes ' + session.inputNames.length + ' inputs (' + o.inputs.length + ' given)', 2);
  const feeds = {};
  session.inputNames.forEach((name, k) => {
    const t = readNpy(o.inputs[k]);
    feeds[name] = new ort.Tensor(t.type, t.data, t.dims);
  });
  const now = () => Number(process.hrtime.bigint()) / 1e9;

  let out;
  const t0 = now();
  let warmup = 0;
  do {
    out = await session.run(feeds);
    ++warmup;
  } while (warmup < 20 && now() - t0 < 0.1 * o.budget);

  const start = now();
  let iters = 0, total = 0, last = 0;
  const lines = [];
  while (iters < o.maxIters && (iters < o.minIters || now() - start < o.budget)) {
    if (iters > 0 && now() - start + last > o.maxSeconds) break;
    const t = now();
    out = await session.run(feeds);
    last = now() - t;
    total += last;
    lines.push(JSON.stringify({ iter: iters++, ms: 1e3 * last }));
  }
  process.stdout.write(lines.join('\n') + '\n');

  const first = out[session.outputNames[0]];
  const got = { type: first.type, data: first.data, dims: Array.from(first.dims) };
  let check = 'unchecked';
  if (o.expected) {
    const why = compare(got, readNpy(o.expected), o.rtol, o.atol);
    check = why ? 'wrong: ' + why : 'ok';
  }
  if (o.output) writeNpy(o.output, got);
  if (o.profile) session.endProfiling();
  process.stdout.write(JSON.stringify({ runtime: 'ort', version: ort.env.versions
    ? ort.env.versions.common : undefined, threads: o.threads, iters, warmup,
  total_s: total, check }) + '\n');
  process.exit(check.startsWith('wrong') ? 1 : 0);
}

main().catch((e) => die(e && e.message ? e.message : String(e), 4));

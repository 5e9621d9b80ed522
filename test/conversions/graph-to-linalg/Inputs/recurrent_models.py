"""Writes ONNX RNN/GRU/LSTM models on awkward shapes (hidden 33, input 17,
batch 3, sequence 7) with float64 references, for the numerical test of the
recurrent lowering (convert-graph-to-linalg's scf.for over time steps and
the schedule its step runs through).

Two kinds of model:
- torch_*: PyTorch modules (2 layers, bidirectional, batch_first, initial
  states as inputs, relu cells; GRUs export linear_before_reset = 1),
  exported with torch.onnx.export; the reference is the same module run in
  float64.
- onnx_*: single nodes built with onnx.helper for what PyTorch does not
  export (GRU with linear_before_reset = 0, peepholes, clip, reverse,
  sequence_lens masking, layout = 1, other activations, weights that are
  graph inputs rather than constants, f64); the reference is ref() below,
  ONNX's definition in NumPy float64 (checked against PyTorch by the
  onnx_ref_* models, whose reference is PyTorch's module on the same
  weights).

For each NAME: DIR/NAME.onnx, DIR/NAME.in_K.npy (inputs, as NAME=FILE
arguments in DIR/NAME.args) and DIR/NAME.out_K.npy (references, as --expected
arguments in the same file). DIR/models.txt lists the names.
"""
import io
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(7)
SEQ, BATCH, INPUT, HIDDEN = 7, 3, 17, 33
GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


def rand(shape, scale=1.0, dtype=np.float32):
    return (rng.standard_normal(shape) * scale).astype(dtype)


# --- ONNX's recurrent ops in NumPy float64 ---------------------------------

def sigmoid(x):
    return 1 / (1 + np.exp(-x))


ACTS = {
    "Tanh": lambda x, a, b: np.tanh(x),
    "Sigmoid": lambda x, a, b: sigmoid(x),
    "Relu": lambda x, a, b: np.maximum(x, 0),
    "HardSigmoid": lambda x, a, b: np.clip(a * x + b, 0, 1),
    "LeakyRelu": lambda x, a, b: np.where(x < 0, a * x, x),
    "Softsign": lambda x, a, b: x / (1 + np.abs(x)),
    "ScaledTanh": lambda x, a, b: a * np.tanh(b * x),
}
DEFAULT_ACTS = {"RNN": ["Tanh"], "GRU": ["Sigmoid", "Tanh"],
                "LSTM": ["Sigmoid", "Tanh", "Tanh"]}


def ref(op, x, w, r, b=None, lens=None, h0=None, c0=None, p=None,
        direction="forward", acts=None, alphas=(), betas=(), clip=None,
        lbr=0, layout=0):
    """Y, Y_h (and Y_c) of ONNX's op with these operands and attributes."""
    x, w, r = (np.asarray(v, np.float64) for v in (x, w, r))
    if layout:
        x = x.transpose(1, 0, 2)
        h0 = None if h0 is None else h0.transpose(1, 0, 2)
        c0 = None if c0 is None else c0.transpose(1, 0, 2)
    seq, batch, _ = x.shape
    dirs, hid = r.shape[0], r.shape[2]
    g = GATES[op]
    names = acts or DEFAULT_ACTS[op] * dirs
    fns, ai, bi = [], 0, 0
    for n in names:
        a, bb = {"HardSigmoid": (0.2, 0.5), "LeakyRelu": (0.01, 0),
                 "ScaledTanh": (1.0, 1.0)}.get(n, (0, 0))
        if n in ("HardSigmoid", "LeakyRelu", "ScaledTanh") and ai < len(alphas):
            a = alphas[ai]
            ai += 1
        if n in ("HardSigmoid", "ScaledTanh") and bi < len(betas):
            bb = betas[bi]
            bi += 1
        fns.append(lambda v, f=ACTS[n], a=a, bb=bb: f(v, a, bb))
    per = len(DEFAULT_ACTS[op])
    lens = np.full(batch, seq) if lens is None else lens
    y = np.zeros((seq, dirs, batch, hid))
    yh = np.zeros((dirs, batch, hid))
    yc = np.zeros((dirs, batch, hid))
    for d in range(dirs):
        f = fns[d * per:(d + 1) * per]
        pre = (lambda v: np.clip(v, -clip, clip)) if clip else (lambda v: v)
        wb = np.zeros(g * hid) if b is None else b[d, :g * hid]
        rb = np.zeros(g * hid) if b is None else b[d, g * hid:]
        h = np.zeros((batch, hid)) if h0 is None else h0[d].astype(np.float64)
        c = np.zeros((batch, hid)) if c0 is None else c0[d].astype(np.float64)
        rev = direction == "reverse" or d == 1
        for t in range(seq):
            tt = seq - 1 - t if rev else t
            xw = x[tt] @ w[d].T + wb
            hr = h @ r[d].T + rb
            gate = [slice(k * hid, (k + 1) * hid) for k in range(g)]
            if op == "RNN":
                hn, cn = f[0](pre(xw + hr)), c
            elif op == "GRU":
                z = f[0](pre(xw[:, gate[0]] + hr[:, gate[0]]))
                rt = f[0](pre(xw[:, gate[1]] + hr[:, gate[1]]))
                if lbr:
                    rec = rt * hr[:, gate[2]]
                else:
                    rec = (rt * h) @ r[d][gate[2]].T + rb[gate[2]]
                hh = f[1](pre(xw[:, gate[2]] + rec))
                hn, cn = (1 - z) * hh + z * h, c
            else:
                s = xw + hr
                pi, po, pf = ((np.zeros(hid),) * 3 if p is None else
                              (p[d, :hid], p[d, hid:2 * hid], p[d, 2 * hid:]))
                it = f[0](pre(s[:, gate[0]] + pi * c))
                ft = f[0](pre(s[:, gate[2]] + pf * c))
                ct = f[1](pre(s[:, gate[3]]))
                cn = ft * c + it * ct
                ot = f[0](pre(s[:, gate[1]] + po * cn))
                hn = ot * f[2](cn)
            valid = (tt < lens)[:, None]
            h = np.where(valid, hn, h)
            c = np.where(valid, cn, c)
            y[tt, d] = np.where(valid, hn, 0)
        yh[d], yc[d] = h, c
    if layout:
        return y.transpose(2, 0, 1, 3), yh.transpose(1, 0, 2), yc.transpose(1, 0, 2)
    return y, yh, yc


# --- Model files -------------------------------------------------------------

def save(out, name, model_bytes, inputs, outputs):
    """inputs/outputs: lists of (onnx name, array)."""
    with open(f"{out}/{name}.onnx", "wb") as f:
        f.write(model_bytes)
    args = []
    for k, (n, a) in enumerate(inputs):
        np.save(f"{out}/{name}.in_{k}.npy", a)
        args.append(f"--input {n}={out}/{name}.in_{k}.npy")
    for k, (n, a) in enumerate(outputs):
        np.save(f"{out}/{name}.out_{k}.npy", a)
        args.append(f"--expected {n}={out}/{name}.out_{k}.npy")
    with open(f"{out}/{name}.args", "w") as f:
        f.write(" ".join(args) + "\n")
    return name


def torch_model(out, name, module, x, states=()):
    import torch
    module.eval()
    in_names = ["x"] + ["s%d" % k for k in range(len(states))]
    n_out = 3 if isinstance(module, torch.nn.LSTM) else 2
    out_names = ["y", "yh", "yc"][:n_out]
    buf = io.BytesIO()
    args = (x,) + ((tuple(states) if len(states) > 1 else states[0],)
                   if states else ())
    with torch.no_grad():
        torch.onnx.export(module, args, buf, opset_version=14,
                          input_names=in_names, output_names=out_names)
        res = module.double()(*[a.double() if not isinstance(a, tuple) else
                                tuple(s.double() for s in a) for a in args])
    flat = [res[0]] + (list(res[1]) if isinstance(res[1], tuple) else [res[1]])
    ins = [(n, a.numpy()) for n, a in zip(in_names, (x,) + tuple(states))]
    outs = [(n, v.numpy().astype(np.float32)) for n, v in zip(out_names, flat)]
    return save(out, name, buf.getvalue(), ins, outs)


def onnx_model(out, name, op, operands, attrs, graph_inputs=("x",),
               dtype=np.float32):
    """operands: ONNX operand name -> array (None: absent); those named in
    graph_inputs are inputs, the others initializers."""
    order = ["x", "w", "r", "b", "lens", "h0", "c0", "p"][:8 if op == "LSTM" else 6]
    elt = TensorProto.DOUBLE if dtype == np.float64 else TensorProto.FLOAT
    args = {k: operands.get(k) for k in ["x", "w", "r", "b", "lens", "h0", "c0", "p"]}
    ins, inits, node_ins = [], [], []
    for k in order:
        v = args[k]
        if v is None:
            node_ins.append("")
            continue
        node_ins.append(k)
        v = v.astype(np.int32 if k == "lens" else dtype)
        args[k] = v
        if k in graph_inputs:
            ins.append((k, v))
        else:
            inits.append(numpy_helper.from_array(v, k))
    while node_ins and not node_ins[-1]:
        node_ins.pop()
    y, yh, yc = ref(op, args["x"], args["w"], args["r"], args["b"],
                    args["lens"], args["h0"], args["c0"], args.get("p"),
                    **attrs)
    hidden = args["r"].shape[2]
    out_names = ["y", "yh", "yc"][:3 if op == "LSTM" else 2]
    node = helper.make_node(op, node_ins, out_names, hidden_size=hidden,
                            **{k: v for k, v in attrs.items()
                               if k not in ("acts", "alphas", "betas", "lbr")},
                            **({"activations": attrs["acts"]}
                               if "acts" in attrs else {}),
                            **({"activation_alpha": list(attrs["alphas"])}
                               if "alphas" in attrs else {}),
                            **({"activation_beta": list(attrs["betas"])}
                               if "betas" in attrs else {}),
                            **({"linear_before_reset": attrs["lbr"]}
                               if "lbr" in attrs else {}))
    refs = [y, yh, yc][:len(out_names)]
    graph = helper.make_graph(
        [node], name,
        [helper.make_tensor_value_info(k, TensorProto.INT32 if k == "lens"
                                       else elt, v.shape) for k, v in ins],
        [helper.make_tensor_value_info(n, elt, v.shape)
         for n, v in zip(out_names, refs)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)])
    return save(out, name, model.SerializeToString(), ins,
                [(n, v.astype(dtype)) for n, v in zip(out_names, refs)])


def operands(op, dirs=1, bias=True, states=False, peep=False, seq=SEQ,
             batch=BATCH, inp=INPUT, hid=HIDDEN, layout=0):
    g = GATES[op]
    s = 1 / np.sqrt(hid)
    o = {"x": rand((batch, seq, inp) if layout else (seq, batch, inp)),
         "w": rand((dirs, g * hid, inp), s), "r": rand((dirs, g * hid, hid), s)}
    if bias:
        o["b"] = rand((dirs, 2 * g * hid), s)
    if states:
        shape = (batch, dirs, hid) if layout else (dirs, batch, hid)
        o["h0"] = rand(shape, 0.5)
        if op == "LSTM":
            o["c0"] = rand(shape, 0.5)
    if peep:
        o["p"] = rand((dirs, 3 * hid), s)
    return o


def torch_models(out):
    import torch
    from torch import nn
    torch.manual_seed(0)
    x = torch.randn(SEQ, BATCH, INPUT)
    xb = torch.randn(BATCH, SEQ, INPUT)
    h0 = torch.randn(4, BATCH, HIDDEN) * 0.5
    c0 = torch.randn(4, BATCH, HIDDEN) * 0.5
    names = [
        torch_model(out, "torch_lstm_bi2", nn.LSTM(INPUT, HIDDEN, 2,
                                                    bidirectional=True), x),
        torch_model(out, "torch_gru_bi2", nn.GRU(INPUT, HIDDEN, 2,
                                                  bidirectional=True), x),
        torch_model(out, "torch_rnn_bi2", nn.RNN(INPUT, HIDDEN, 2,
                                                  bidirectional=True), x),
        torch_model(out, "torch_rnn_relu_bf", nn.RNN(
            INPUT, HIDDEN, 2, nonlinearity="relu", batch_first=True), xb),
        torch_model(out, "torch_lstm_states", nn.LSTM(
            INPUT, HIDDEN, 2, bidirectional=True), x, (h0, c0)),
        torch_model(out, "torch_gru_bf_states", nn.GRU(
            INPUT, HIDDEN, 2, batch_first=True, bidirectional=True), xb,
            (h0,)),
        # Vector-sized dims (no register-tile remainder), batch 1, one step.
        torch_model(out, "torch_lstm_b1", nn.LSTM(32, 64, 2),
                    torch.randn(5, 1, 32)),
        torch_model(out, "torch_gru_seq1", nn.GRU(INPUT, HIDDEN, 1),
                    torch.randn(1, BATCH, INPUT)),
    ]
    # ref() against PyTorch: the same weights through both.
    for op, mod in (("LSTM", nn.LSTM(INPUT, HIDDEN)),
                    ("GRU", nn.GRU(INPUT, HIDDEN))):
        with torch.no_grad():
            want = mod.double()(x.double())[0].numpy()
        w = mod.weight_ih_l0.detach().numpy()[None]
        r = mod.weight_hh_l0.detach().numpy()[None]
        b = np.concatenate([mod.bias_ih_l0.detach().numpy(),
                            mod.bias_hh_l0.detach().numpy()])[None]
        if op == "LSTM":  # PyTorch's gate order i, f, g, o; ONNX's i, o, f, c
            perm = lambda a: np.concatenate(  # noqa: E731
                [np.split(a, 4, axis=1)[k] for k in (0, 3, 1, 2)], axis=1)
            w, r = perm(w), perm(r)
            b = np.concatenate([perm(b[:, :4 * HIDDEN]),
                                perm(b[:, 4 * HIDDEN:])], axis=1)
        else:  # PyTorch's r, z, n; ONNX's z, r, h
            perm = lambda a: np.concatenate(  # noqa: E731
                [np.split(a, 3, axis=1)[k] for k in (1, 0, 2)], axis=1)
            w, r = perm(w), perm(r)
            b = np.concatenate([perm(b[:, :3 * HIDDEN]),
                                perm(b[:, 3 * HIDDEN:])], axis=1)
        got = ref(op, x.numpy(), w, r, b, lbr=1 if op == "GRU" else 0)[0][:, 0]
        err = np.abs(got - want).max()
        if err > 1e-9:
            sys.exit("recurrent_models.py: ref() differs from PyTorch's %s "
                     "by %g" % (op, err))
    return names


def onnx_models(out):
    m = []
    m.append(onnx_model(out, "onnx_gru_lbr0_bi", "GRU", operands(
        "GRU", 2, states=True), {"direction": "bidirectional"},
        ("x", "h0")))
    m.append(onnx_model(out, "onnx_lstm_peep_clip_rev", "LSTM", operands(
        "LSTM", 1, states=True, peep=True),
        {"direction": "reverse", "clip": 0.7}))
    m.append(onnx_model(out, "onnx_lstm_peep_bi", "LSTM", operands(
        "LSTM", 2, peep=True), {"direction": "bidirectional"}))
    o = operands("GRU")
    o["lens"] = np.array([7, 4, 1])
    m.append(onnx_model(out, "onnx_gru_lens", "GRU", o, {}, ("x", "lens")))
    o = operands("LSTM", states=True)
    o["lens"] = np.array([2, 7, 5])
    m.append(onnx_model(out, "onnx_lstm_lens_const", "LSTM", o, {}))
    o = operands("RNN", layout=1, states=True)
    o["lens"] = np.array([6, 3, 7])
    m.append(onnx_model(out, "onnx_rnn_lens_layout", "RNN", o,
                        {"layout": 1}, ("x", "lens", "h0")))
    m.append(onnx_model(out, "onnx_lstm_layout_bi", "LSTM", operands(
        "LSTM", 2, states=True, layout=1),
        {"layout": 1, "direction": "bidirectional"}, ("x", "h0", "c0")))
    m.append(onnx_model(out, "onnx_gru_lbr1_acts", "GRU", operands(
        "GRU", 2), {"direction": "bidirectional", "lbr": 1,
                    "acts": ["HardSigmoid", "Softsign", "Sigmoid",
                             "ScaledTanh"],
                    "alphas": [0.3, 0.8], "betas": [0.4, 1.2]}))
    m.append(onnx_model(out, "onnx_lstm_acts", "LSTM", operands("LSTM"), {
        "acts": ["HardSigmoid", "LeakyRelu", "Softsign"],
        "alphas": [0.25, 0.1], "betas": [0.45]}))
    # Weights as graph inputs: transposed at run time, not compile time.
    m.append(onnx_model(out, "onnx_gru_dyn_weights", "GRU", operands(
        "GRU", 2), {"direction": "bidirectional"}, ("x", "w", "r", "b")))
    m.append(onnx_model(out, "onnx_lstm_dyn_weights", "LSTM", operands(
        "LSTM", 1, states=True), {}, ("x", "w", "r", "h0", "c0")))
    m.append(onnx_model(out, "onnx_rnn_nobias", "RNN", operands(
        "RNN", 2, bias=False), {"direction": "bidirectional"}))
    o = {k: v.astype(np.float64) for k, v in operands("GRU", 2).items()}
    m.append(onnx_model(out, "onnx_gru_f64", "GRU", o,
                        {"direction": "bidirectional"}, dtype=np.float64))
    o = {k: v.astype(np.float64) for k, v in operands("LSTM").items()}
    m.append(onnx_model(out, "onnx_lstm_f64", "LSTM", o, {},
                        dtype=np.float64))
    return m


def main(out, which):
    names = torch_models(out) if which in ("all", "torch") else []
    if which in ("all", "onnx"):
        names += onnx_models(out)
    with open(f"{out}/models.txt", "w") as f:
        f.write("\n".join(names) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "all")

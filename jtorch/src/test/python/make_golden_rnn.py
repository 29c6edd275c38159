"""Writes ../resources/golden/rnn.json: nn.RNN/LSTM/GRU, their cells and nn.utils.rnn, against which RnnGoldenTest
checks JTorch.

    python jtorch/src/test/python/make_golden_rnn.py

"modules": a module built under manual_seed(seed) (its state dict recorded, so both the initialisation and a state
dict loaded by name are compared) runs on a recorded input, padded or packed, with or without initial states; the
scalar loss sum(out * w_out) + sum(h_n * w_h) (+ sum(c_n * w_c)) with recorded random weights is differentiated, and
the outputs and the gradients w.r.t. the input, the initial states and every parameter are recorded. Packed cases pack
the input with pack_padded_sequence(lengths, batch_first, enforce_sorted) and compare pad_packed_sequence's output.
"cells": the same for RNNCell/LSTMCell/GRUCell steps. "utils": pad_sequence, pack_padded_sequence,
pad_packed_sequence (total_length), pack_sequence results. "errors": PyTorch's messages for refused arguments.
Deterministic (fixed seeds, one thread, sorted keys).
"""
import os

import torch
from torch import nn
from torch.nn.utils import rnn as rnn_utils

from golden_json import enc, write

torch.set_num_threads(1)
OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "golden", "rnn.json")
DTYPES = {"float32": torch.float32, "float64": torch.float64}


def build(kind, input_size, hidden, opts, seed, dtype):
    torch.manual_seed(seed)
    common = dict(num_layers=opts.get("num_layers", 1), bias=opts.get("bias", True),
                  batch_first=opts.get("batch_first", False), bidirectional=opts.get("bidirectional", False))
    if kind == "LSTM":
        m = nn.LSTM(input_size, hidden, proj_size=opts.get("proj_size", 0), **common)
    elif kind == "GRU":
        m = nn.GRU(input_size, hidden, **common)
    else:
        m = nn.RNN(input_size, hidden, nonlinearity=opts.get("nonlinearity", "tanh"), **common)
    return m.to(dtype)


def leaf(t):
    return t.detach().clone().requires_grad_(True)


def module_case(cid, kind, input_size, hidden, opts, seed=0, dtype="float32", steps=5, batch=3, state=False,
                unbatched=False, lengths=None, enforce_sorted=True):
    dt = DTYPES[dtype]
    m = build(kind, input_size, hidden, opts, seed, dt)
    init_state = {k: enc(v) for k, v in m.state_dict().items()}
    g = torch.Generator().manual_seed(1000 + seed)
    bf = opts.get("batch_first", False)
    shape = [steps, input_size] if unbatched else ([batch, steps, input_size] if bf else [steps, batch, input_size])
    x = leaf(torch.randn(shape, generator=g, dtype=dt))
    dirs = 2 if opts.get("bidirectional", False) else 1
    layers = opts.get("num_layers", 1)
    real = opts.get("proj_size", 0) or hidden
    hshape = [layers * dirs] + ([] if unbatched else [batch]) + [real]
    cshape = [layers * dirs] + ([] if unbatched else [batch]) + [hidden]
    case = {"id": cid, "kind": kind, "input_size": input_size, "hidden_size": hidden, "dtype": dtype,
            "options": opts, "seed": seed, "state_dict": init_state, "keys": list(m.state_dict().keys()),
            "input": enc(x), "repr": repr(m)}
    h0 = c0 = None
    if state:
        h0 = leaf(torch.randn(hshape, generator=g, dtype=dt))
        case["h0"] = enc(h0)
        if kind == "LSTM":
            c0 = leaf(torch.randn(cshape, generator=g, dtype=dt))
            case["c0"] = enc(c0)
    hx = None if h0 is None else ((h0, c0) if kind == "LSTM" else h0)
    if lengths is not None:
        case["lengths"] = lengths
        case["enforce_sorted"] = enforce_sorted
        packed = rnn_utils.pack_padded_sequence(x, torch.tensor(lengths), batch_first=bf,
                                                enforce_sorted=enforce_sorted)
        out, hidden_out = m(packed, hx)
        case["packed_data"] = enc(out.data)
        out, out_lengths = rnn_utils.pad_packed_sequence(out, batch_first=bf)
        case["out_lengths"] = enc(out_lengths)
    else:
        out, hidden_out = m(x, hx)
    h_n, c_n = hidden_out if kind == "LSTM" else (hidden_out, None)
    w_out = torch.randn(out.shape, generator=g, dtype=dt)
    w_h = torch.randn(h_n.shape, generator=g, dtype=dt)
    loss = (out * w_out).sum() + (h_n * w_h).sum()
    case.update({"output": enc(out), "h_n": enc(h_n), "w_out": enc(w_out), "w_h": enc(w_h)})
    if c_n is not None:
        w_c = torch.randn(c_n.shape, generator=g, dtype=dt)
        loss = loss + (c_n * w_c).sum()
        case.update({"c_n": enc(c_n), "w_c": enc(w_c)})
    loss.backward()
    grads = {"input": enc(x.grad)}
    if h0 is not None:
        grads["h0"] = enc(h0.grad)
    if c0 is not None:
        grads["c0"] = enc(c0.grad)
    for k, p in m.named_parameters():
        grads[k] = enc(p.grad)
    case["grads"] = grads
    return case


def modules():
    cases = []
    for kind in ["RNN_TANH", "RNN_RELU", "LSTM", "GRU"]:
        k = "RNN" if kind.startswith("RNN") else kind
        base = {"nonlinearity": "relu"} if kind == "RNN_RELU" else {}
        name = kind.lower()
        cases.append(module_case(name + "_basic", k, 4, 6, dict(base)))
        cases.append(module_case(name + "_state", k, 4, 6, dict(base), seed=1, state=True))
        cases.append(module_case(name + "_2layer_bidir", k, 3, 5, dict(base, num_layers=2, bidirectional=True),
                                 seed=2, state=True))
        cases.append(module_case(name + "_batch_first_nobias", k, 3, 4,
                                 dict(base, batch_first=True, bias=False), seed=3, state=True))
        cases.append(module_case(name + "_unbatched", k, 3, 4, dict(base, bidirectional=True), seed=4,
                                 state=True, unbatched=True))
        cases.append(module_case(name + "_float64", k, 3, 4, dict(base, num_layers=2), seed=5, dtype="float64",
                                 state=True))
        cases.append(module_case(name + "_packed_sorted", k, 3, 4, dict(base, bidirectional=True), seed=6,
                                 batch=4, steps=5, lengths=[5, 4, 4, 2], state=True))
        cases.append(module_case(name + "_packed_unsorted", k, 3, 4,
                                 dict(base, num_layers=2, bidirectional=True, batch_first=True), seed=7, batch=4,
                                 steps=5, lengths=[2, 5, 3, 5], enforce_sorted=False, state=True))
    cases.append(module_case("lstm_proj", "LSTM", 4, 6, {"proj_size": 3}, seed=8, state=True))
    cases.append(module_case("lstm_proj_2layer_bidir", "LSTM", 3, 5,
                             {"proj_size": 2, "num_layers": 2, "bidirectional": True}, seed=9, state=True))
    cases.append(module_case("lstm_proj_packed_unsorted", "LSTM", 3, 5, {"proj_size": 2, "bidirectional": True},
                             seed=10, batch=3, steps=4, lengths=[1, 4, 3], enforce_sorted=False))
    cases.append(module_case("lstm_proj_float64_unbatched", "LSTM", 3, 4, {"proj_size": 2}, seed=11,
                             dtype="float64", unbatched=True, state=True))
    return cases


def cell_case(cid, kind, input_size, hidden, seed, bias=True, nonlinearity="tanh", state=True, unbatched=False,
              dtype="float32"):
    dt = DTYPES[dtype]
    torch.manual_seed(seed)
    if kind == "LSTMCell":
        m = nn.LSTMCell(input_size, hidden, bias=bias)
    elif kind == "GRUCell":
        m = nn.GRUCell(input_size, hidden, bias=bias)
    else:
        m = nn.RNNCell(input_size, hidden, bias=bias, nonlinearity=nonlinearity)
    m = m.to(dt)
    g = torch.Generator().manual_seed(2000 + seed)
    lead = [] if unbatched else [3]
    x = leaf(torch.randn(lead + [input_size], generator=g, dtype=dt))
    case = {"id": cid, "kind": kind, "input_size": input_size, "hidden_size": hidden, "bias": bias,
            "nonlinearity": nonlinearity, "dtype": dtype, "seed": seed, "repr": repr(m),
            "state_dict": {k: enc(v) for k, v in m.state_dict().items()}, "keys": list(m.state_dict().keys()),
            "input": enc(x)}
    h = c = None
    if state:
        h = leaf(torch.randn(lead + [hidden], generator=g, dtype=dt))
        case["h"] = enc(h)
        if kind == "LSTMCell":
            c = leaf(torch.randn(lead + [hidden], generator=g, dtype=dt))
            case["c"] = enc(c)
    if kind == "LSTMCell":
        h1, c1 = m(x, None if h is None else (h, c))
    else:
        h1, c1 = m(x, h), None
    w_h = torch.randn(h1.shape, generator=g, dtype=dt)
    loss = (h1 * w_h).sum()
    case.update({"h1": enc(h1), "w_h": enc(w_h)})
    if c1 is not None:
        w_c = torch.randn(c1.shape, generator=g, dtype=dt)
        loss = loss + (c1 * w_c).sum()
        case.update({"c1": enc(c1), "w_c": enc(w_c)})
    loss.backward()
    grads = {"input": enc(x.grad)}
    if h is not None:
        grads["h"] = enc(h.grad)
    if c is not None:
        grads["c"] = enc(c.grad)
    for k, p in m.named_parameters():
        grads[k] = enc(p.grad)
    case["grads"] = grads
    return case


def cells():
    return [
        cell_case("rnncell_tanh", "RNNCell", 4, 5, 20),
        cell_case("rnncell_relu_nobias", "RNNCell", 4, 5, 21, bias=False, nonlinearity="relu"),
        cell_case("lstmcell", "LSTMCell", 4, 5, 22),
        cell_case("lstmcell_zero_state", "LSTMCell", 4, 5, 23, state=False),
        cell_case("lstmcell_unbatched_float64", "LSTMCell", 3, 4, 24, unbatched=True, dtype="float64"),
        cell_case("grucell", "GRUCell", 4, 5, 25),
        cell_case("grucell_nobias_unbatched", "GRUCell", 4, 5, 26, bias=False, unbatched=True),
    ]


def utils():
    g = torch.Generator().manual_seed(3000)
    seqs = [torch.randn(n, 2, generator=g) for n in (3, 5, 1)]
    cases = []
    for bf in (False, True):
        for side in ("right", "left"):
            cases.append({"id": "pad_sequence_%s_%s" % (bf, side), "op": "pad_sequence",
                          "sequences": [enc(s) for s in seqs], "batch_first": bf, "padding_value": -1.5,
                          "padding_side": side,
                          "out": enc(rnn_utils.pad_sequence(seqs, batch_first=bf, padding_value=-1.5,
                                                            padding_side=side))})
    padded = rnn_utils.pad_sequence(seqs, batch_first=True)
    for enforce in (False,):
        p = rnn_utils.pack_padded_sequence(padded, torch.tensor([3, 5, 1]), batch_first=True,
                                           enforce_sorted=enforce)
        back, lengths = rnn_utils.pad_packed_sequence(p, batch_first=False, padding_value=7.0, total_length=6)
        cases.append({"id": "pack_unsorted", "op": "pack_padded_sequence", "input": enc(padded),
                      "lengths": [3, 5, 1], "batch_first": True, "enforce_sorted": enforce,
                      "data": enc(p.data), "batch_sizes": enc(p.batch_sizes), "sorted_indices": enc(p.sorted_indices),
                      "unsorted_indices": enc(p.unsorted_indices), "padded": enc(back), "padded_lengths": enc(lengths)})
    srt = [seqs[1], seqs[0], seqs[2]]
    p = rnn_utils.pack_sequence(srt)
    cases.append({"id": "pack_sequence_sorted", "op": "pack_sequence", "sequences": [enc(s) for s in srt],
                  "data": enc(p.data), "batch_sizes": enc(p.batch_sizes)})
    return cases


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the message is what is recorded
        return {"type": type(e).__name__, "message": str(e)}
    raise AssertionError("no error")


def errors():
    x = torch.randn(5, 3, 4)
    return {
        "lstm_4d": error(lambda: nn.LSTM(4, 6)(torch.randn(1, 5, 3, 4))),
        "rnn_4d": error(lambda: nn.RNN(4, 6)(torch.randn(1, 5, 3, 4))),
        "gru_4d": error(lambda: nn.GRU(4, 6)(torch.randn(1, 5, 3, 4))),
        "input_size": error(lambda: nn.LSTM(5, 6)(x)),
        "dtype": error(lambda: nn.GRU(4, 6)(x.double())),
        "hidden_size": error(lambda: nn.GRU(4, 6, num_layers=2)(x, torch.zeros(1, 3, 6))),
        "lstm_hidden0": error(lambda: nn.LSTM(4, 6, proj_size=2)(x, (torch.zeros(1, 3, 6), torch.zeros(1, 3, 6)))),
        "lstm_hidden1": error(lambda: nn.LSTM(4, 6)(x, (torch.zeros(1, 3, 6), torch.zeros(1, 3, 5)))),
        "hx_rank": error(lambda: nn.RNN(4, 6)(x, torch.zeros(3, 6))),
        "lstm_hx_rank": error(lambda: nn.LSTM(4, 6)(x[0], (torch.zeros(1, 3, 6), torch.zeros(1, 3, 6)))),
        "proj_too_big": error(lambda: nn.LSTM(4, 6, proj_size=6)),
        "dropout_range": error(lambda: nn.LSTM(4, 6, dropout=1.5)),
        "hidden_zero": error(lambda: nn.GRU(4, 0)),
        "nonlinearity": error(lambda: nn.RNN(4, 6, nonlinearity="sigmoid")),
        "cell_3d": error(lambda: nn.LSTMCell(4, 6)(x)),
        "cell_input_size": error(lambda: nn.GRUCell(5, 6)(x[0])),
        "cell_batch": error(lambda: nn.RNNCell(4, 6)(x[0], torch.zeros(2, 6))),
        "cell_hidden_size": error(lambda: nn.RNNCell(4, 6)(x[0], torch.zeros(3, 5))),
        "pack_unsorted": error(lambda: rnn_utils.pack_padded_sequence(x, torch.tensor([1, 3, 2]))),
        "pack_zero_length": error(lambda: rnn_utils.pack_padded_sequence(x, torch.tensor([3, 2, 0]))),
        "pack_lengths_count": error(lambda: rnn_utils.pack_padded_sequence(x, torch.tensor([3, 2]))),
        "total_length": error(lambda: rnn_utils.pad_packed_sequence(
            rnn_utils.pack_padded_sequence(x, torch.tensor([5, 2, 1])), total_length=3)),
    }


def main():
    cases = {"modules": modules(), "cells": cells(), "utils": utils(), "errors": errors()}
    write(OUT, [cases], os.path.basename(__file__))


if __name__ == "__main__":
    main()

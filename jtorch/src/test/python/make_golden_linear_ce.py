#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden fixtures for F.linear_cross_entropy (org.jtorch.nn.functional.F.linearCrossEntropy).

Run from the repository root with PyTorch 2.13 (CPU):
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_linear_ce.py
Writes jtorch/src/test/resources/golden/linear_cross_entropy.json in the format of make_golden_core.py.

Every output is PyTorch 2.13's own F.linear_cross_entropy, in float64 (its reference path: the spec's nn-optim section
2.2 definition, cross_entropy of the linear projection). Nothing these cases touch changed in 2.14 or 2.15.
"out" is [loss, dL/dx, dL/dW, dL/db or null], where L = sum(loss * grad_out) (grad_out is a kwarg tensor of the
loss's shape).  Every (reduction, class weight, ignore_index, label smoothing, target kind, bias) combination is a case;
a few shapes cover N = 0, a single row and the K-dimensional weight.
"""
import itertools
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_golden_core import enc_kwarg, enc_tensor  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "linear_cross_entropy.json"))
CASES = []


def gen(cid):
    g = torch.Generator()
    g.manual_seed(sum(ord(ch) * (i + 1) for i, ch in enumerate(cid)) % (2 ** 31))
    return g


def reference(x, w, y, b, weight, reduction, ignore_index, ls):
    return F.linear_cross_entropy(x, w, y, linear_bias=b, weight=weight, reduction=reduction,
                                  ignore_index=ignore_index, label_smoothing=ls)


def add(cid, x, w, y, b, weight, reduction, ignore_index, ls):
    g = gen(cid)
    x = x.clone().requires_grad_(True)
    w = w.clone().requires_grad_(True)
    b = None if b is None else b.clone().requires_grad_(True)
    loss = reference(x, w, y, b, weight, reduction, ignore_index, ls)
    grad_out = torch.randn(loss.shape, generator=g, dtype=torch.float64)
    grads = torch.autograd.grad((loss * grad_out).sum(), [t for t in (x, w, b) if t is not None])
    kwargs = {"linear_bias": b, "weight": weight, "reduction": reduction, "ignore_index": ignore_index,
              "label_smoothing": ls, "grad_out": grad_out}
    CASES.append({"id": cid, "op": "linear_cross_entropy",
                  "args": [enc_tensor(x.detach()), enc_tensor(w.detach()), enc_tensor(y)],
                  "kwargs": {k: (None if v is None else enc_kwarg(v.detach() if torch.is_tensor(v) else v))
                             for k, v in kwargs.items()},
                  "out": [enc_tensor(loss.detach()), enc_tensor(grads[0]), enc_tensor(grads[1]),
                          enc_tensor(grads[2]) if b is not None else None]})


def main():
    torch.manual_seed(0)
    n, f, c = 7, 5, 6
    g = gen("data")
    x = torch.randn(n, f, generator=g, dtype=torch.float64)
    w = torch.randn(c, f, generator=g, dtype=torch.float64)
    b = torch.randn(c, generator=g, dtype=torch.float64)
    cw = torch.rand(c, generator=g, dtype=torch.float64) + 0.5
    y = torch.tensor([2, 0, 5, 2, 1, 3, 2])
    probs = torch.softmax(torch.randn(n, c, generator=g, dtype=torch.float64), 1)
    for reduction, use_w, ignore, ls, soft, bias in itertools.product(
            ["none", "mean", "sum"], [False, True], [None, 2], [0.0, 0.1], [False, True], [False, True]):
        if soft and ignore is not None:
            continue  # ignore_index has no effect on probability targets
        cid = "lce/%s/w%d/ign%s/ls%s/%s/b%d" % (reduction, use_w, ignore, ls, "soft" if soft else "hard", bias)
        add(cid, x, w, probs if soft else y, b if bias else None, cw if use_w else None, reduction, ignore, ls)
    # every row ignored: 'mean' is 0/0 = NaN
    add("lce/all_ignored/mean", x[:3], w, torch.tensor([2, 2, 2]), None, None, "mean", 2, 0.0)
    add("lce/all_ignored/sum", x[:3], w, torch.tensor([2, 2, 2]), None, None, "sum", 2, 0.0)
    # a single row, large logits (the max shift matters)
    add("lce/large_logits", x[:2] * 40, w, y[:2], b, None, "mean", None, 0.0)
    # K-dimensional weight (C=3, d1=2, F=5): the chunked path falls back
    wk = torch.randn(3, 2, f, generator=g, dtype=torch.float64)
    add("lce/kdim/none", x[:4], wk, torch.tensor([[0, 2], [1, 1], [2, 0], [0, 0]]), None, None, "none", None, 0.0)
    add("lce/kdim/mean_bias", x[:4], wk, torch.tensor([[0, 2], [1, 1], [2, 0], [0, 0]]),
        torch.randn(3, 2, generator=g, dtype=torch.float64), None, "mean", None, 0.0)
    with open(OUT, "w") as fh:
        json.dump({"cases": CASES, "generator": "make_golden_linear_ce.py", "torch": torch.__version__}, fh,
                  sort_keys=True, separators=(",", ":"))
        fh.write("\n")
    print("wrote %d cases to %s" % (len(CASES), OUT))


if __name__ == "__main__":
    main()

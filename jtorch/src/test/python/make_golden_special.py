#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.lgamma, torch.digamma and torch.polygamma.

What it makes
    jtorch/src/test/resources/golden/special.json: values and first-order gradients (of sum(W * out), W fixed)
    at the poles (0, -0, negative integers), negative arguments, tiny, large, infinite and NaN arguments and
    random ones, in float64, float32, float16 and bfloat16; integer and bool inputs (promoted to float32);
    polygamma of orders 0 to 10; and the errors for complex input and a negative order.

    case: {"id", "op", "args": [x, W], "kwargs": {"n": order}, "out": [result, x.grad]}   (kwargs for polygamma)
          {"id", "op", "args": [x], "out": [result]}                                      (no gradient)
          {"id", "op", "args": [x], "out": {"error": message}}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_special.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs are fixed or come from a seeded generator.
"""
import math
import os

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
INF, NAN = math.inf, math.nan

EDGE = [0.0, -0.0, -1.0, -2.0, -0.5, -2.5, -3.7, -100.25, -1e-300, -1e-8, 5e-324, 1e-300, 1e-8, 0.25, 0.5, 0.75,
        1.0, 1.25, 1.4616321449683622, 1.5, 2.0, 2.5, 3.0, 7.5, 10.0, 19.5, 20.0, 100.0, 1e8, 1e17, 1e300, INF,
        -INF, NAN]


def call(op, n, x):
    return torch.polygamma(n, x) if op == "polygamma" else getattr(torch, op)(x)


def kwargs(op, n):
    return {"n": n} if op == "polygamma" else None


def add(case, op, n):
    if op == "polygamma":
        case["kwargs"] = kwargs(op, n)
    CASES.append(case)


def value_case(id_, op, x, n=None, grad=True):
    if not grad or not x.dtype.is_floating_point:
        add({"id": id_, "op": op, "args": [enc(x)], "out": [enc(call(op, n, x))]}, op, n)
        return
    x = x.detach().clone().requires_grad_(True)
    out = call(op, n, x)
    gen = torch.Generator().manual_seed(len(CASES))
    w = torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype)
    (gx,) = torch.autograd.grad((w * out).sum(), [x])
    add({"id": id_, "op": op, "args": [enc(x), enc(w)], "out": [enc(out), enc(gx)]}, op, n)


def error_case(id_, op, x, n=None):
    try:
        call(op, n, x)
    except Exception as e:  # the message is what JTorch must raise
        add({"id": id_, "op": op, "args": [enc(x)], "out": {"error": str(e).splitlines()[0]}}, op, n)
        return
    raise AssertionError(id_ + " did not raise")


def main():
    g = torch.Generator().manual_seed(0)
    edge = torch.tensor(EDGE, dtype=torch.float64)
    wide = torch.rand(4, 6, generator=g, dtype=torch.float64) * 40 - 20
    positive = torch.rand(50, generator=g, dtype=torch.float64) * 6
    large = torch.exp(torch.rand(20, generator=g, dtype=torch.float64) * 60)
    ops = [("lgamma", None), ("digamma", None)] + [("polygamma", n) for n in (0, 1, 2, 3, 4, 10)]
    for op, n in ops:
        name = op if n is None else "%s/n=%d" % (op, n)
        value_case(name + "/edge/float64", op, edge, n)
        value_case(name + "/wide/float64", op, wide, n)
        value_case(name + "/positive/float64", op, positive, n)
        value_case(name + "/large/float64", op, large, n)
        value_case(name + "/edge/float32", op, edge.float(), n)
        value_case(name + "/wide/float32", op, wide.float(), n)
        value_case(name + "/float16", op, torch.tensor([0.5, 1.0, 2.5, -1.5, 7.0, 30.0, 0.0, -2.0], dtype=torch.float16),
                   n, grad=False)
        value_case(name + "/bfloat16", op, torch.tensor([0.5, 1.0, 2.5, -1.5, 7.0, 30.0], dtype=torch.bfloat16),
                   n, grad=False)
        value_case(name + "/int64", op, torch.tensor([-2, -1, 0, 1, 2, 3, 10, 1000]), n)
        value_case(name + "/uint8", op, torch.tensor([0, 1, 5, 255], dtype=torch.uint8), n)
        value_case(name + "/bool", op, torch.tensor([True, False]), n)
        value_case(name + "/zero-dim", op, torch.tensor(3.25, dtype=torch.float64), n)
        value_case(name + "/empty", op, torch.empty(0, 3), n)
        error_case(name + "/complex64", op, torch.tensor([1 + 1j, 2.0], dtype=torch.complex64), n)
    value_case("polygamma/n=2/transposed", "polygamma", wide.t(), 2)
    error_case("polygamma/negative-n", "polygamma", torch.tensor([1.0, 2.0]), -1)
    error_case("polygamma/negative-n/complex", "polygamma", torch.tensor([1j]), -1)
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "special.json"), CASES, "make_golden_special.py")


if __name__ == "__main__":
    main()

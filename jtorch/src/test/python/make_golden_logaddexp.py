#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.logaddexp and torch.logaddexp2.

What it makes
    jtorch/src/test/resources/golden/logaddexp.json: values and first-order gradients
    (of sum(Re(conj(W) * out)), W fixed) at ordinary, large, infinite and NaN arguments,
    with broadcasting and type promotion, in float32, float64, float16 and complex64;
    and the error for dtypes the CPU kernel refuses (integers, bool, complex logaddexp2).

    case: {"id", "op", "args": [a, b, W], "out": [result, a.grad, b.grad]} or
          {"id", "op", "args": [a, b], "out": {"error": message}}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_logaddexp.py

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


def value_case(id_, op, a, b):
    fn = getattr(torch, op)
    a = a.detach().clone().requires_grad_(a.dtype.is_floating_point or a.dtype.is_complex)
    b = b.detach().clone().requires_grad_(b.dtype.is_floating_point or b.dtype.is_complex)
    out = fn(a, b)
    gen = torch.Generator().manual_seed(len(CASES))
    w = torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype)
    loss = (w.conj() * out).real.sum() if out.dtype.is_complex else (w * out).sum()
    ga, gb = torch.autograd.grad(loss, [a, b])
    CASES.append({"id": id_, "op": op, "args": [enc(a), enc(b), enc(w)], "out": [enc(out), enc(ga), enc(gb)]})


def error_case(id_, op, a, b):
    try:
        getattr(torch, op)(a, b)
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": id_, "op": op, "args": [enc(a), enc(b)], "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def main():
    g = torch.Generator().manual_seed(0)
    edge = torch.tensor([0.5, -3.0, 1e30, -1e30, 80.0, INF, -INF, INF, NAN, 2.0], dtype=torch.float64)
    other = torch.tensor([0.25, 4.0, 1e30, 3.0, -80.0, INF, -INF, -INF, 1.0, NAN], dtype=torch.float64)
    for op in ("logaddexp", "logaddexp2"):
        value_case(op + "/edge/float64", op, edge, other)
        value_case(op + "/edge/float32", op, edge.float(), other.float())
        value_case(op + "/random/float32", op, torch.randn(3, 4, generator=g) * 10, torch.randn(3, 4, generator=g) * 10)
        value_case(op + "/broadcast/float64", op, torch.randn(2, 1, 3, generator=g, dtype=torch.float64),
                   torch.randn(4, 1, generator=g, dtype=torch.float64))
        value_case(op + "/promote/float32+float64", op, torch.randn(5, generator=g),
                   torch.randn(5, generator=g, dtype=torch.float64))
        value_case(op + "/float16", op, torch.tensor([1.0, 2.0, -7.5, 30.0], dtype=torch.float16),
                   torch.tensor([3.0, 4.0, -7.5, -2.0], dtype=torch.float16))
        value_case(op + "/zero-dim", op, torch.tensor(1.5, dtype=torch.float64), torch.randn(3, generator=g, dtype=torch.float64))
        value_case(op + "/empty", op, torch.empty(0, 3), torch.empty(1, 3))
        error_case(op + "/int64", op, torch.tensor([1, 2]), torch.tensor([3, 4]))
        error_case(op + "/bool", op, torch.tensor([True]), torch.tensor([False]))
    z = torch.complex(torch.randn(6, generator=g, dtype=torch.float64), torch.randn(6, generator=g, dtype=torch.float64))
    y = torch.complex(torch.randn(6, generator=g, dtype=torch.float64), torch.randn(6, generator=g, dtype=torch.float64))
    value_case("logaddexp/complex128", "logaddexp", z, y)
    value_case("logaddexp/complex64", "logaddexp", z.to(torch.complex64), y.to(torch.complex64))
    special = torch.tensor([complex(-INF, 1.0), complex(INF, 0.5), complex(NAN, 0.0), complex(1.0, 2.0)], dtype=torch.complex128)
    special_other = torch.tensor([complex(-INF, 2.0), complex(INF, -0.5), complex(1.0, 1.0), complex(1e-20, 3.0)],
                                 dtype=torch.complex128)
    CASES.append({"id": "logaddexp/complex-special", "op": "logaddexp", "args": [enc(special), enc(special_other)],
                  "out": [enc(torch.logaddexp(special, special_other))]})
    error_case("logaddexp2/complex64", "logaddexp2", z.to(torch.complex64), y.to(torch.complex64))
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "logaddexp.json"), CASES, "make_golden_logaddexp.py")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the regularized incomplete gamma functions torch.igamma / torch.igammac
(torch.special.gammainc / gammaincc) and for torch.distributions.Gamma.cdf, which is gammainc(concentration,
rate * value).

What it makes
    jtorch/src/test/resources/golden/igamma.json, in the format of golden_json.py:
    - {"op": "igamma" | "igammac", "args": [a, x], "out": result or {"error"}}: a grid over every region of the
      algorithm (the power series, the series for Q at small x, the continued fraction, Temme's expansion for
      20 < a < 200 and for a up to 1e10 near x, underflowing prefactors), the boundary values (0, inf, NaN, negative
      arguments), float32/float16/bfloat16, broadcasting, promotion against a 0-d tensor, and the dtypes PyTorch refuses;
    - {"op": "igamma_grad" | "igammac_grad", "args": [a, x, W], "out": [result, d(sum(W * out))/dx]} in float64;
    - {"op": "gamma_cdf", "args": [concentration, rate, value, W], "out": [cdf, d/d rate, d/d value]} or {"error"}.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_igamma.py
    with a Python that has PyTorch 2.13 (CPU).

Requirements
    PyTorch 2.13 (CPU); igamma and Gamma.cdf did not change in 2.14 or 2.15. Deterministic: inputs come from a
    seeded generator, and the output is byte-identical on a re-run.
"""
import os

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(0)
INF, NAN = float("inf"), float("nan")


def call(id_, op, fn, *args):
    try:
        out = {"error": None}
        result = fn(*args)
        out = enc(result)
    except (RuntimeError, TypeError, NotImplementedError) as e:
        out = {"error": str(e)}
    CASES.append({"id": id_, "op": op, "args": [enc(t) for t in args], "out": out})


def both(id_, a, x):
    call("igamma/" + id_, "igamma", torch.igamma, a, x)
    call("igammac/" + id_, "igammac", torch.igammac, a, x)


def grid(a_values, x_values, dtype=torch.float64):
    a = torch.tensor(a_values, dtype=torch.float64)
    x = torch.tensor(x_values, dtype=torch.float64)
    return a[:, None].expand(len(a_values), len(x_values)).to(dtype), x[None, :].to(dtype)


def near(a_values, spreads):
    """x = a (1 + s) for every a and spread s: the band where Temme's expansion is used."""
    a = torch.tensor(a_values, dtype=torch.float64)[:, None]
    s = torch.tensor(spreads, dtype=torch.float64)[None, :]
    return a.expand(len(a_values), len(spreads)).contiguous(), a * (1 + s)


def main():
    small = [1e-3, 0.1, 0.5, 1.0, 2.5, 7.0, 15.0]
    both("series-and-fraction", *grid(small, [1e-4, 0.05, 0.3, 0.5, 0.7, 1.0, 1.1, 1.5, 4.0, 12.0, 30.0, 90.0]))
    both("temme-20-200", *near([20.5, 45.0, 120.0, 199.0], [-0.29, -0.1, -0.01, 0.0, 0.02, 0.15, 0.29]))
    both("temme-large", *near([250.0, 1e3, 1e5, 1e8, 1e10], [-0.2, -1e-2, -1e-3, 0.0, 1e-3, 1e-2, 0.2]))
    both("large-a-far", *grid([60.0, 500.0, 1e4], [1.0, 20.0, 300.0, 2e4, 1e5]))
    both("underflow", *grid([1e-2, 3.0, 800.0], [1e-300, 700.0, 1e4]))
    both("boundaries", *grid([0.0, 1.0, INF, -1.0, NAN], [0.0, 0.5, INF, -1.0, NAN]))
    a = torch.rand(3, 1, 4, generator=GEN, dtype=torch.float64) * 40
    x = torch.rand(5, 1, generator=GEN, dtype=torch.float64) * 50
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        both("broadcast/" + str(dtype).replace("torch.", ""), a.to(dtype), x.to(dtype))
    both("mixed-float32-float64", a.float(), x)
    both("int-with-0-d-float", torch.tensor([1, 2, 5]), torch.tensor(2.5))
    both("refused-int64", torch.tensor([1, 2]), torch.tensor([3, 4]))
    both("refused-complex", torch.tensor([1 + 1j]), torch.tensor([2 + 0j]))
    for op, fn in (("igamma_grad", torch.igamma), ("igammac_grad", torch.igammac)):
        a = torch.rand(4, 3, generator=GEN, dtype=torch.float64) * 8 + 0.2
        x = (torch.rand(4, 3, generator=GEN, dtype=torch.float64) * 10 + 0.05).requires_grad_()
        w = torch.randn(4, 3, generator=GEN, dtype=torch.float64)
        y = fn(a, x)
        (dx,) = torch.autograd.grad((w * y).sum(), x)
        CASES.append({"id": op, "op": op, "args": [enc(a), enc(x), enc(w)], "out": [enc(y), enc(dx)]})
    conc = torch.tensor([0.5, 1.0, 3.0, 30.0], dtype=torch.float64)
    rate = torch.tensor([[2.0], [0.25]], dtype=torch.float64)
    value = torch.tensor([0.0, 0.3, 1.5, 40.0], dtype=torch.float64)
    for id_, v in (("grid", value), ("negative-value", torch.tensor([-1.0], dtype=torch.float64))):
        r = rate.clone().requires_grad_()
        v = v.clone().requires_grad_()
        d = torch.distributions.Gamma(conc, r)
        try:
            cdf = d.cdf(v)
        except ValueError as e:
            CASES.append({"id": "gamma_cdf/" + id_, "op": "gamma_cdf", "args": [enc(conc), enc(rate), enc(v)],
                          "out": {"error": str(e).split(", but found")[0]}})
            continue
        w = torch.randn(cdf.shape, generator=GEN, dtype=torch.float64)
        dr, dv = torch.autograd.grad((w * cdf).sum(), [r, v])
        CASES.append({"id": "gamma_cdf/" + id_, "op": "gamma_cdf", "args": [enc(conc), enc(rate), enc(v), enc(w)],
                      "out": [enc(cdf), enc(dr), enc(dv)]})
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "igamma.json"), CASES, "make_golden_igamma.py")


if __name__ == "__main__":
    main()

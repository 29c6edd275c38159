#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the derivatives of JTorch's linalg.pinv and linalg.lstsq.

What it makes
    jtorch/src/test/resources/golden/linalg_grad.json: for rank-deficient (and
    full-rank) inputs, PyTorch's reverse-mode gradients of the real loss
    sum(Re(conj(W) * out)) and its forward-mode tangents (torch.autograd.forward_ad)
    of linalg.pinv (hermitian=False/True) and of linalg.lstsq's solution.
    Rank-deficient inputs are where differentiating through the SVD breaks down
    and PyTorch's dedicated pinv_backward / pinv_jvp (which lstsq's rules reuse)
    do not.

    pinv case:  args [A, W, T], kwargs {"hermitian"}, out [A.grad, tangent of pinv(A) along T]
    lstsq case: args [A, B, W, TA, TB], kwargs {"driver"}, out [A.grad, B.grad, tangent of X along (TA, TB)]

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_linalg_grad.py

Requirements
    PyTorch 2.13 (CPU wheel) plus numpy. Deterministic:
    inputs come from a seeded numpy generator; re-running gives the same file.

2.15 changes newer than this reference (PyTorch 2.13)
    None for what is recorded: pinv_backward, pinv_jvp and lstsq's solution
    derivative (through pinv) are unchanged between 2.13 and 2.15. These
    fixtures cover lstsq's solution only, and B is always a matrix (PyTorch
    1.x's lstsq backward failed for a vector B).

File format: as make_golden_core.py ({"cases": [...]}, tensors as
    {"dtype", "shape", "data"}, complex data flattened [re, im, ...]).
"""
import os

import numpy as np
import torch
import torch.autograd.forward_ad as fwAD

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
f64, c128 = torch.float64, torch.complex128


def case(id_, op, args, out, kwargs):
    CASES.append({"id": id_, "op": op, "args": [enc(a) for a in args], "kwargs": kwargs, "out": [enc(o) for o in out]})


def randn(g, shape, cplx):
    x = g.standard_normal(shape)
    if cplx:
        x = x + 1j * g.standard_normal(shape)
    return torch.tensor(x)


def low_rank(g, m, n, r, cplx, batch=()):
    """An exactly rank-r product of an m x r and an r x n factor."""
    return randn(g, batch + (m, r), cplx) @ randn(g, batch + (r, n), cplx)


def loss(out, w):
    return (w.conj() * out).real.sum() if out.is_complex() else (w * out).sum()


def pinv_case(name, a, hermitian):
    g = np.random.default_rng(len(CASES) + 100)
    cplx = a.is_complex()
    w = randn(g, a.shape[:-2] + (a.shape[-1], a.shape[-2]), cplx)
    t = randn(g, a.shape, cplx)
    if hermitian:
        t = t + t.mH  # a Hermitian direction: pinv(hermitian=True) reads one triangle
    x = a.clone().requires_grad_(True)
    loss(torch.linalg.pinv(x, hermitian=hermitian), w).backward()
    with fwAD.dual_level():
        tangent = fwAD.unpack_dual(torch.linalg.pinv(fwAD.make_dual(a, t), hermitian=hermitian)).tangent
    dt = "complex128" if cplx else "float64"
    case("pinv/%s/%s" % (name, dt), "pinv", [a, w, t], [x.grad, tangent], {"hermitian": hermitian})


def lstsq_case(name, a, b, driver):
    g = np.random.default_rng(len(CASES) + 200)
    cplx = a.is_complex()
    x = torch.linalg.lstsq(a, b, driver=driver).solution
    w = randn(g, x.shape, cplx)
    ta, tb = randn(g, a.shape, cplx), randn(g, b.shape, cplx)
    xa, xb = a.clone().requires_grad_(True), b.clone().requires_grad_(True)
    loss(torch.linalg.lstsq(xa, xb, driver=driver).solution, w).backward()
    with fwAD.dual_level():
        sol = torch.linalg.lstsq(fwAD.make_dual(a, ta), fwAD.make_dual(b, tb), driver=driver).solution
        tangent = fwAD.unpack_dual(sol).tangent
    dt = "complex128" if cplx else "float64"
    case("lstsq/%s/%s/%s" % (name, driver, dt), "lstsq", [a, b, w, ta, tb], [xa.grad, xb.grad, tangent], {"driver": driver})


def main():
    g = np.random.default_rng(5)
    for cplx in (False, True):
        pinv_case("tall-rank2", low_rank(g, 5, 3, 2, cplx), False)
        pinv_case("wide-rank1", low_rank(g, 2, 4, 1, cplx), False)
        pinv_case("square-full", randn(g, (3, 3), cplx), False)
        pinv_case("batched-rank2", low_rank(g, 4, 4, 2, cplx, (2,)), False)
        f = randn(g, (4, 2), cplx)
        pinv_case("hermitian-rank2", f @ f.mH, True)
        h = randn(g, (3, 3), cplx)
        pinv_case("hermitian-full", h + h.mH, True)
    for cplx in (False, True):
        deficient = low_rank(g, 5, 3, 2, cplx)
        for driver in ("gelsy", "gelsd", "gelss"):
            lstsq_case("tall-rank2", deficient, randn(g, (5, 2), cplx), driver)
        lstsq_case("wide-rank1", low_rank(g, 2, 4, 1, cplx), randn(g, (2, 3), cplx), "gelsd")
        lstsq_case("tall-full", randn(g, (4, 2), cplx), randn(g, (4, 1), cplx), "gels")
        lstsq_case("wide-full", randn(g, (2, 3), cplx), randn(g, (2, 2), cplx), "gelsy")
    lstsq_case("batched-rank1", low_rank(g, 4, 3, 1, False, (2,)), randn(g, (2, 4, 2), False), "gelsd")


if __name__ == "__main__":
    main()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "linalg_grad.json"), CASES, "make_golden_linalg_grad.py")
    print("%d cases" % len(CASES))

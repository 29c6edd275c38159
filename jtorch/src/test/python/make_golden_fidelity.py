#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for divergences from PyTorch found by a differential run (issue 26).

What it makes
    jtorch/src/test/resources/golden/fidelity.json, one case per line (the format of make_golden_core.py):
    - scaled_dot_product_attention with fully masked rows (all-False bool mask, all -inf float mask, a padding mask
      that hides every key of one batch element): output, and the gradients of sum(W * out) w.r.t. q, k, v;
    - binary_cross_entropy at x = 0, 1 and 1e-20 (value, input and target gradients), and with weights;
    - linalg.matrix_power(A, 0): the identity, with A's gradient (zeros);
    - float16/bfloat16 add/sub with an inexact Python scalar, a 0-d tensor of another dtype, or alpha (bitwise);
    - huber_loss with float32 input and float64 target (and the reverse): value and dtype (PyTorch 2.13's backward
      refuses mixed dtypes with "Found dtype Double but expected Float", so no gradients are recorded);
    - errors ATen's CPU kernels raise (abs/floor/ceil/trunc/round on bool, round(decimals) on integers,
      leaky_relu/elu on integers, hypot on integers and bool) and integer pow to negative integer exponents;
    - linalg: det/slogdet gradients at singular matrices, eigenvalue/singular-value-only gradients at repeated values,
      the complex cholesky backward;
    - linspace bit for bit (float64, float32, integers; one range longer than ATen's parallel grain), and
      float-to-integer casts of NaN, infinities and out-of-range values.

    case: {"id", "op", "args", "kwargs", "out"}; out is a list of tensors (result, then gradients of the inputs
    that require grad, in argument order) or {"error": message}.

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_fidelity.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from seeded generators. The add/sub tensor-tensor cases with alpha
    use 64 elements, a multiple of every x86 vector width, so ATen computes each element in its vectorised loop.
"""
import math
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
INF = math.inf


def add(id_, op, args, out, kwargs=None):
    CASES.append({"id": id_, "op": op, "args": args, "kwargs": kwargs or {}, "out": out})


def weights_like(out):
    gen = torch.Generator().manual_seed(len(CASES))
    return torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype)


def sdpa_case(id_, q, k, v, mask):
    q, k, v = (t.detach().clone().requires_grad_() for t in (q, k, v))
    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
    w = weights_like(out)
    gq, gk, gv = torch.autograd.grad((w * out).sum(), [q, k, v])
    add(id_, "scaled_dot_product_attention", [enc(q), enc(k), enc(v), enc(mask), enc(w)],
        [enc(out), enc(gq), enc(gk), enc(gv)])


def sdpa_cases(g):
    def qkv(dtype, b=1):
        return (torch.randn(b, 2, 3, 4, generator=g, dtype=torch.float64).to(dtype),
                torch.randn(b, 2, 5, 4, generator=g, dtype=torch.float64).to(dtype),
                torch.randn(b, 2, 5, 4, generator=g, dtype=torch.float64).to(dtype))

    bool_mask = torch.rand(3, 5, generator=g) > 0.3
    bool_mask[:, 0] = True
    bool_mask[1] = False
    sdpa_case("sdpa/bool-mask-row/float64", *qkv(torch.float64), bool_mask)
    float_mask = torch.randn(3, 5, generator=g)
    float_mask[2] = -INF
    float_mask[0, 1] = -INF
    sdpa_case("sdpa/float-mask-row/float32", *qkv(torch.float32), float_mask)
    padding = torch.ones(2, 1, 1, 5, dtype=torch.bool)
    padding[0, ..., 3:] = False
    padding[1] = False
    sdpa_case("sdpa/padding-mask-batch/float64", *qkv(torch.float64, b=2), padding)


def bce_case(id_, x, t, weight, reduction, target_grad):
    x = x.detach().clone().requires_grad_()
    t = t.detach().clone().requires_grad_(target_grad)
    loss = F.binary_cross_entropy(x, t, weight=weight, reduction=reduction)
    w = weights_like(loss)
    grads = torch.autograd.grad((w * loss).sum(), [x, t] if target_grad else [x])
    args = [enc(x), enc(t), enc(w)] + ([enc(weight)] if weight is not None else [])
    add(id_, "binary_cross_entropy", args, [enc(loss)] + [enc(gr) for gr in grads],
        {"reduction": reduction, "target_grad": target_grad})


def bce_cases(g):
    x = torch.tensor([0.0, 1.0, 1e-20, 1.0 - 1e-16, 0.3, 0.5, 0.0, 1.0], dtype=torch.float64)
    t = torch.tensor([0.0, 1.0, 1.0, 0.0, 0.2, 1.0, 1.0, 0.0], dtype=torch.float64)
    bce_case("bce/edges/float64", x, t, None, "none", False)
    bce_case("bce/edges-sum/float32", x.float(), t.float(), None, "sum", False)
    inner = torch.rand(3, 4, generator=g, dtype=torch.float64) * 0.98 + 0.01
    bce_case("bce/target-grad/float64", inner, torch.rand(3, 4, generator=g, dtype=torch.float64), None, "mean", True)
    bce_case("bce/weight-mean/float32", inner.float(), torch.rand(3, 4, generator=g),
             torch.rand(3, 4, generator=g), "mean", False)


def matrix_power_cases(g):
    for n, dtype in ((0, torch.float64), (0, torch.float32), (3, torch.float64)):
        a = torch.randn(2, 3, 3, generator=g, dtype=torch.float64).to(dtype).requires_grad_()
        p = torch.linalg.matrix_power(a, n)
        assert p.requires_grad
        w = weights_like(p)
        (ga,) = torch.autograd.grad((w * p).sum(), [a])
        add("matrix_power/%d/%s" % (n, str(dtype)[6:]), "matrix_power", [enc(a), enc(w)], [enc(p), enc(ga)], {"n": n})


def half_add_cases(g):
    for dtype in (torch.bfloat16, torch.float16):
        name = str(dtype)[6:]
        x = (torch.randn(64, generator=g) * 4).to(dtype)
        y = (torch.randn(64, generator=g) * 4).to(dtype)
        for op in ("add", "sub"):
            fn = getattr(torch, op)
            for s in (1.7, 0.1, -3.3):
                add("%s/%s/scalar-%s" % (op, name, s), op, [enc(x), {"scalar": s}], enc(fn(x, s)))
            for zd in (torch.float32, torch.float64):
                z = torch.tensor(1.7, dtype=zd)
                add("%s/%s/0d-%s" % (op, name, str(zd)[6:]), op, [enc(x), enc(z)], enc(fn(x, z)))
                add("%s/%s/0d-%s-self" % (op, name, str(zd)[6:]), op, [enc(z), enc(x)], enc(fn(z, x)))
            for alpha in (0.3, 1.7):
                add("%s/%s/alpha-%s" % (op, name, alpha), op, [enc(x), enc(y)], enc(fn(x, y, alpha=alpha)),
                    {"alpha": alpha})
            add("%s/%s/scalar-alpha" % (op, name), op, [enc(x), {"scalar": 1.7}], enc(fn(x, 1.7, alpha=0.3)),
                {"alpha": 0.3})


def huber_cases(g):
    for a, b in ((torch.float32, torch.float64), (torch.float64, torch.float32)):
        for reduction in ("mean", "none"):
            x = (torch.randn(6, generator=g, dtype=torch.float64) * 2).to(a)
            t = torch.randn(6, generator=g, dtype=torch.float64).to(b)
            loss = F.huber_loss(x, t, reduction=reduction, delta=0.7)
            add("huber/%s-%s/%s" % (str(a)[6:], str(b)[6:], reduction), "huber_loss", [enc(x), enc(t)],
                [enc(loss)], {"reduction": reduction, "delta": 0.7})


def error_case(id_, op, fn, args, kwargs=None):
    try:
        fn()
    except Exception as e:  # the message is what JTorch must raise
        add(id_, op, [a if isinstance(a, dict) else enc(a) for a in args], {"error": str(e).splitlines()[0]}, kwargs)
        return
    raise AssertionError(id_ + " did not raise")


def error_cases():
    b = torch.tensor([True, False])
    i = torch.tensor([3, -2])
    for op in ("abs", "floor", "ceil", "trunc", "round"):
        error_case("%s/bool" % op, op, lambda: getattr(torch, op)(b), [b])
    error_case("round/decimals/bool", "round", lambda: torch.round(b, decimals=1), [b], {"decimals": 1})
    error_case("round/decimals/int64", "round", lambda: torch.round(i, decimals=1), [i], {"decimals": 1})
    for dt in (torch.int64, torch.int32, torch.bool):
        t = i.to(dt)
        error_case("leaky_relu/%s" % str(dt)[6:], "leaky_relu", lambda: F.leaky_relu(t), [t])
        error_case("elu/%s" % str(dt)[6:], "elu", lambda: F.elu(t), [t])
    for dt in (torch.int64, torch.int8, torch.bool):
        t = i.to(dt)
        error_case("hypot/%s" % str(dt)[6:], "hypot", lambda: torch.hypot(t, t), [t, t])
    error_case("pow/int64-negative-scalar", "pow", lambda: torch.pow(i, -2), [i, {"scalar": -2}])


def pow_cases():
    base = torch.tensor([1, -1, -1, 2, -2, 0, 3, 5, 7])
    exp = torch.tensor([-1, -3, -2, -1, -2, -1, 0, 2, -5])
    add("pow/int64-negative-tensor", "pow", [enc(base), enc(exp)], enc(torch.pow(base, exp)))
    add("pow/int8-negative-tensor", "pow", [enc(base.to(torch.int8)), enc(exp.to(torch.int8))],
        enc(torch.pow(base.to(torch.int8), exp.to(torch.int8))))
    zero_d = torch.tensor(-2)
    add("pow/int64-negative-0d", "pow", [enc(base), enc(zero_d)], enc(torch.pow(base, zero_d)))
    add("pow/0d-base-negative-tensor", "pow", [enc(torch.tensor(2)), enc(exp)], enc(torch.pow(torch.tensor(2), exp)))


def linalg_grad_cases(g):
    """det/slogdet gradients at singular and near-singular matrices (PyTorch: zeros for det, infinities for slogdet,
    never an inverse), eigenvalue- and singular-value-only gradients at repeated values (finite), and the complex
    cholesky backward (not symmetrised: the diagonal keeps its imaginary part)."""
    singular = torch.tensor([[1.0, 2, 3], [4, 5, 6], [7, 8, 9]], dtype=torch.float64)
    near = singular + torch.diag(torch.tensor([1e-3, 0, 0], dtype=torch.float64))
    rank1 = torch.tensor([[1.0, 2], [2, 4]], dtype=torch.float64)
    batch = torch.randn(2, 3, 3, generator=g, dtype=torch.float64)
    for name, a in (("singular", singular), ("near-singular", near), ("rank1", rank1), ("batch", batch),
                    ("singular-float32", singular.float())):
        for op in ("det", "slogdet"):
            x = a.clone().requires_grad_()
            out = torch.linalg.det(x) if op == "det" else torch.linalg.slogdet(x).logabsdet
            w = weights_like(out)
            (gx,) = torch.autograd.grad((w * out).sum(), [x])
            add("linalg_%s/%s" % (op, name), "linalg_" + op, [enc(a), enc(w)], [enc(out.detach()), enc(gx)])
    repeated = torch.diag(torch.tensor([2.0, 2.0, 5.0], dtype=torch.float64))
    for name, a in (("identity", torch.eye(3, dtype=torch.float64)), ("repeated", repeated)):
        for op in ("eigh", "svd"):
            x = a.clone().requires_grad_()
            values = torch.linalg.eigh(x).eigenvalues if op == "eigh" else torch.linalg.svd(x).S
            w = weights_like(values)
            (gx,) = torch.autograd.grad((w * values).sum(), [x])
            add("linalg_%s/values-only/%s" % (op, name), "linalg_%s_values" % op, [enc(a), enc(w)],
                [enc(values.detach()), enc(gx)])
    m = torch.randn(3, 3, generator=g, dtype=torch.complex128)
    hpd = m @ m.mH + 3 * torch.eye(3, dtype=torch.complex128)
    x = hpd.clone().requires_grad_()
    factor = torch.linalg.cholesky(x)
    w = torch.randn(3, 3, generator=g, dtype=torch.complex128)
    (gx,) = torch.autograd.grad((w * factor).real.sum(), [x])
    add("linalg_cholesky/complex128", "linalg_cholesky", [enc(hpd), enc(w)], [enc(factor.detach()), enc(gx)])


def linspace_cases():
    """linspace bit for bit: ATen's kernel evaluates each element as one fused multiply-add (the long case runs with
    two threads, as the test does, to show the split among threads changes nothing)."""
    for start, end, steps in ((-3, 7, 37), (-1, 1, 100), (0.1, 9.7, 1000), (-2, 2, 10), (3, -500, 77)):
        for dtype in (torch.float64, torch.float32, torch.int64, torch.int32, torch.int8):
            if dtype == torch.int8 and end < -128:
                continue
            out = torch.linspace(start, end, steps, dtype=dtype)
            add("linspace/%s,%s,%s/%s" % (start, end, steps, str(dtype)[6:]), "linspace", [],
                enc(out), {"start": float(start), "end": float(end), "steps": steps, "dtype": str(dtype)[6:]})
    torch.set_num_threads(2)
    for dtype in (torch.float64, torch.float32):
        out = torch.linspace(-1.3, 2.9, 100003, dtype=dtype)
        add("linspace/long/%s" % str(dtype)[6:], "linspace", [], enc(out),
            {"start": -1.3, "end": 2.9, "steps": 100003, "dtype": str(dtype)[6:], "threads": 2})
    torch.set_num_threads(1)


def cast_cases():
    """Float to integer casts outside the integer's range (x86: via int32 for 32 bits and narrower)."""
    v = [math.nan, INF, -INF, 3e10, 70000.0, -1.0, 4e9, -3e9, 2.5e9, -7.9, 300.0]
    for src in (torch.float32, torch.float64):
        x = torch.tensor(v, dtype=src)
        for dtype in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
            add("to/%s-%s" % (str(src)[6:], str(dtype)[6:]), "to", [enc(x)], enc(x.to(dtype)),
                {"dtype": str(dtype)[6:]})


def main():
    g = torch.Generator().manual_seed(26)
    sdpa_cases(g)
    bce_cases(g)
    matrix_power_cases(g)
    half_add_cases(g)
    huber_cases(g)
    error_cases()
    pow_cases()
    linalg_grad_cases(g)
    linspace_cases()
    cast_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "fidelity.json"), CASES, "make_golden_fidelity.py")


if __name__ == "__main__":
    main()

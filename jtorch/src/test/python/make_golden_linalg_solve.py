#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's linalg solvers, factorizations and matrix functions.

What it makes
    jtorch/src/test/resources/golden/linalg_solve.json: inputs and reference
    outputs for linalg.matrix_exp (against scipy.linalg.expm, computed in
    float64 / complex128 from the exact input values), linalg.eigvals,
    linalg.lu / lu_factor, linalg.solve_triangular, linalg.matrix_power,
    linalg.householder_product, linalg.lstsq (every driver),
    linalg.cross, linalg.vecdot and linalg.multi_dot (against PyTorch); and
    the dtype and shape gaps of issue 26 (LinalgDtypeGapsTest): matrix_norm
    and norm in float16/bfloat16 ("matrix_norm_half", "norm_half", PyTorch's
    values or errors, compared bit for bit), matrix_exp in float16/bfloat16
    ("matrix_exp_half": scipy's expm of the rounded input, rounded to the
    dtype, because PyTorch 2.13's own result is wrong there; kwargs
    torch_finite / torch_equal record what PyTorch gave), solve_triangular
    with A and B of different dtypes ("solve_triangular_mixed": out
    [X, dA, dB] of sum(W * X), W the third arg; where PyTorch's autograd
    refuses a real B's complex gradient (kwarg torch_refuses_grad_b), dB is
    the real part of the gradient with respect to B converted beforehand;
    errors for the dtypes of A it refuses) and solve_ex ("solve_ex": out [result, info], info of A's batch
    shape).

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_linalg_solve.py

Requirements
    PyTorch 2.13 (CPU wheel) plus numpy/scipy.
    Deterministic: inputs come from numpy generators seeded per case, keys are
    sorted; re-running gives a byte-identical file, except the last bits of the
    three lstsq gelsy cases, which vary between runs of the system LAPACK.

2.15 changes newer than this reference (PyTorch 2.13)
    matrix_exp: before 2.15 PyTorch had the wrong degree-8 coefficient, so the
    references come from scipy, independent of PyTorch's matrix_exp.
    Everything else is unchanged between 2.13 and 2.15.

File format: as make_golden_core.py ({"cases": [...]}, tensors as
    {"dtype", "shape", "data"}, complex data flattened [re, im, ...]).
    matrix_exp cases carry kwarg "tol": the absolute-plus-relative tolerance the
    Java test applies (round-off of the dtype times a small factor, scaled by
    the size of the result).
"""
import math
import os
import warnings

import numpy as np
import scipy.linalg
import torch

from golden_json import enc, enc_float, write

torch.set_num_threads(1)
CASES = []
f32, f64, c64, c128 = torch.float32, torch.float64, torch.complex64, torch.complex128


def dname(dt):
    return str(dt).replace("torch.", "")


def case(id_, op, args, out, kwargs=None):
    CASES.append({"id": id_, "op": op, "args": [enc(a) if isinstance(a, torch.Tensor) else a for a in args],
                  "kwargs": kwargs or {}, "out": out})


def rng(seed):
    return np.random.default_rng(seed)


def scaled(a, norm):
    """a rescaled to the given 1-norm."""
    return a * (norm / np.abs(a).sum(axis=-2).max())


# ---------------------------------------------------------------- matrix_exp

def expm_case(name, a, dtype):
    """a: numpy array (..., n, n); the reference is scipy's expm of the dtype-rounded input, per matrix."""
    t = torch.tensor(a).to(dtype)
    exact = t.to(c128 if dtype.is_complex else f64).numpy()
    ref = np.empty_like(exact)
    for idx in np.ndindex(exact.shape[:-2]):
        ref[idx] = scipy.linalg.expm(exact[idx])
    eps = torch.finfo(dtype).eps
    scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
    # 64 ulps of the largest entry, or twice PyTorch's own distance from scipy where its algorithm (a Taylor
    # polynomial, not scipy's Pade approximant) lands further away on ill-conditioned inputs
    own = float(np.abs(torch.linalg.matrix_exp(t).to(torch.tensor(ref).dtype).numpy() - ref).max()) if ref.size else 0
    case("matrix_exp/%s/%s" % (name, dname(dtype)), "matrix_exp", [t],
         enc(torch.tensor(ref)), {"tol": enc_float(max(64 * eps * scale, 2 * own))})


def matrix_exp_cases():
    for dtype in (f32, f64):
        g = rng(1)
        base = g.standard_normal((4, 4))
        # one matrix per Taylor degree region (float64 thresholds) and beyond
        for norm in (1e-20, 1e-9, 1e-5, 0.04, 0.2, 0.8, 3.0, 40.0):
            expm_case("norm%g" % norm, scaled(base, norm), dtype)
        expm_case("zero", np.zeros((3, 3)), dtype)
        expm_case("nilpotent", np.triu(rng(2).standard_normal((4, 4)), 1), dtype)
        expm_case("jordan", np.array([[2.0, 1, 0], [0, 2, 1], [0, 0, 2]]), dtype)
        expm_case("near-singular", np.array([[1.0, 1], [1, 1 + 1e-10]]), dtype)
        expm_case("negative-definite", -60 * np.eye(3) + 0.1 * rng(3).standard_normal((3, 3)), dtype)
        expm_case("rotation", np.array([[0.0, -0.5], [0.5, 0]]), dtype)
        expm_case("1x1", np.array([[-1.5]]), dtype)
        # a batch mixing norms: PyTorch takes the degree-18 path for all of them
        expm_case("batch", np.stack([scaled(base, 1e-3), scaled(base, 0.3), scaled(base, 7.0)]), dtype)
    expm_case("rotation-theta0.04", np.array([[0.0, -0.04], [0.04, 0]]), f64)
    expm_case("spec-example", np.array([[1.0, 2], [-1, 3]]), f64)
    expm_case("half-turn", np.array([[0.0, -math.pi], [math.pi, 0]]), f64)
    expm_case("large", scaled(rng(4).standard_normal((5, 5)), 300.0) - 300 * np.eye(5), f64)
    for dtype in (c64, c128):
        g = rng(5)
        z = g.standard_normal((3, 3)) + 1j * g.standard_normal((3, 3))
        for norm in (1e-6, 0.03, 0.5, 9.0):
            expm_case("complex-norm%g" % norm, scaled(z, norm), dtype)
        expm_case("complex-1x1", np.array([[0.5 + 2.0j]]), dtype)
        expm_case("complex-batch", np.stack([scaled(z, 0.01), scaled(z, 5.0)]), dtype)


# ---------------------------------------------------------------- decompositions and solvers

def eigvals_cases():
    mats = {
        "2x2": [[1.0, 2], [3, 4]],
        "rotation": [[0.0, -1], [1, 0]],
        "diag": [[2.0, 0], [0, 3]],
        "random4": rng(6).standard_normal((4, 4)).tolist(),
    }
    for name, m in mats.items():
        for dtype in (f64, c128):
            t = torch.tensor(m, dtype=f64).to(dtype)
            case("eigvals/%s/%s" % (name, dname(dtype)), "eigvals", [t], enc(torch.linalg.eigvals(t)))
    g = rng(7)
    z = torch.tensor(g.standard_normal((2, 3, 3)) + 1j * g.standard_normal((2, 3, 3)))
    case("eigvals/complex-batch/complex128", "eigvals", [z], enc(torch.linalg.eigvals(z)))


def lu_cases():
    g = rng(8)
    for shape in ((4, 4), (3, 5), (5, 3), (2, 3, 3)):
        a = torch.tensor(g.standard_normal(shape))
        P, L, U = torch.linalg.lu(a)
        case("lu/%s/float64" % "x".join(map(str, shape)), "lu", [a], [enc(P), enc(L), enc(U)])
        LU, piv = torch.linalg.lu_factor(a)
        case("lu_factor/%s/float64" % "x".join(map(str, shape)), "lu_factor", [a], [enc(LU), enc(piv)])
    z = torch.tensor(g.standard_normal((3, 3)) + 1j * g.standard_normal((3, 3)))
    P, L, U = torch.linalg.lu(z)
    case("lu/3x3/complex128", "lu", [z], [enc(P), enc(L), enc(U)])
    sing = torch.tensor([[1.0, 2], [2, 4]], dtype=f64)
    LU, piv, info = torch.linalg.lu_factor_ex(sing)
    case("lu_factor_ex/singular/float64", "lu_factor_ex", [sing], [enc(LU), enc(piv), enc(info)])


def solve_triangular_cases():
    g = rng(9)
    a = torch.tensor(g.standard_normal((4, 4))) + 4 * torch.eye(4, dtype=f64)
    b = torch.tensor(g.standard_normal((4, 2)))
    for upper in (True, False):
        for unit in (False, True):
            A = a.triu() if upper else a.tril()
            x = torch.linalg.solve_triangular(A, b, upper=upper, unitriangular=unit)
            case("solve_triangular/upper=%s/unit=%s/float64" % (upper, unit), "solve_triangular", [A, b], enc(x),
                 {"upper": upper, "left": True, "unitriangular": unit})
    bt = b.mT.contiguous()
    x = torch.linalg.solve_triangular(a.triu(), bt, upper=True, left=False)
    case("solve_triangular/right/float64", "solve_triangular", [a.triu(), bt], enc(x),
         {"upper": True, "left": False, "unitriangular": False})
    z = torch.tensor(g.standard_normal((3, 3)) + 1j * g.standard_normal((3, 3))) + 3 * torch.eye(3)
    zb = torch.tensor(g.standard_normal((3, 2)) + 1j * g.standard_normal((3, 2)))
    x = torch.linalg.solve_triangular(z.tril(), zb, upper=False)
    case("solve_triangular/lower/complex128", "solve_triangular", [z.tril(), zb], enc(x),
         {"upper": False, "left": True, "unitriangular": False})


def misc_cases():
    g = rng(10)
    a = torch.tensor(g.standard_normal((3, 3))) + 2 * torch.eye(3, dtype=f64)
    for n in (0, 1, 2, 3, 5, -1, -3):
        case("matrix_power/%d/float64" % n, "matrix_power", [a], enc(torch.linalg.matrix_power(a, n)), {"n": n})
    x, y = torch.tensor(g.standard_normal((2, 3))), torch.tensor(g.standard_normal((1, 3)))
    case("cross/broadcast/float64", "cross", [x, y], enc(torch.linalg.cross(x, y)), {"dim": -1})
    x0, y0 = torch.tensor(g.standard_normal((3, 2))), torch.tensor(g.standard_normal((3, 2)))
    case("cross/dim0/float64", "cross", [x0, y0], enc(torch.linalg.cross(x0, y0, dim=0)), {"dim": 0})
    zx = torch.tensor(g.standard_normal((2, 4)) + 1j * g.standard_normal((2, 4)))
    zy = torch.tensor(g.standard_normal((4,)) + 1j * g.standard_normal((4,)))
    case("vecdot/complex128", "vecdot", [zx, zy], enc(torch.linalg.vecdot(zx, zy)), {"dim": -1})
    ms = [torch.tensor(g.standard_normal(s)) for s in ((5,), (5, 2), (2, 7), (7, 3))]
    case("multi_dot/vector-first/float64", "multi_dot", ms, enc(torch.linalg.multi_dot(ms)))
    ms = [torch.tensor(g.standard_normal(s)) for s in ((10, 30), (30, 5), (5, 60), (60,))]
    case("multi_dot/vector-last/float64", "multi_dot", ms, enc(torch.linalg.multi_dot(ms)))


def householder_lstsq_cases():
    g = rng(11)
    for shape, cplx in (((4, 3), False), ((2, 5, 2), False), ((3, 3), True)):
        a = torch.tensor(g.standard_normal(shape) + (1j * g.standard_normal(shape) if cplx else 0))
        qr, tau = torch.geqrf(a)
        name = "x".join(map(str, shape))
        case("householder_product/%s/%s" % (name, dname(a.dtype)), "householder_product", [qr, tau],
             enc(torch.linalg.householder_product(qr, tau)))
    # k < n reflectors
    qr, tau = torch.geqrf(torch.tensor(g.standard_normal((4, 3))))
    case("householder_product/k1/float64", "householder_product", [qr, tau[:1].contiguous()],
         enc(torch.linalg.householder_product(qr, tau[:1])))
    tall = torch.tensor(g.standard_normal((5, 3)))
    wide = torch.tensor(g.standard_normal((2, 4)))
    b5, b2 = torch.tensor(g.standard_normal((5, 2))), torch.tensor(g.standard_normal((2, 2)))
    deficient = torch.tensor([[1.0, 2, 3], [2, 4, 6], [1, 0, 1], [0, 1, 1]], dtype=f64)
    bd = torch.tensor(g.standard_normal((4, 1)))
    problems = [("tall", tall, b5), ("wide", wide, b2), ("tall-vector", tall, b5[:, 0].contiguous()),
                ("rank-deficient", deficient, bd)]
    for name, a, b in problems:
        for driver in ("gels", "gelsy", "gelsd", "gelss"):
            if driver == "gels" and name in ("wide", "rank-deficient"):
                continue  # gels needs full rank; wide gels gives the minimum-norm solution too but keep it simple
            r = torch.linalg.lstsq(a, b, driver=driver)
            case("lstsq/%s/%s/float64" % (name, driver), "lstsq", [a, b],
                 [enc(r.solution), enc(r.residuals), enc(r.rank), enc(r.singular_values)], {"driver": driver})
    za = torch.tensor(g.standard_normal((4, 2)) + 1j * g.standard_normal((4, 2)))
    zb = torch.tensor(g.standard_normal((4, 1)) + 1j * g.standard_normal((4, 1)))
    r = torch.linalg.lstsq(za, zb, driver="gelsd")
    case("lstsq/complex/gelsd/complex128", "lstsq", [za, zb],
         [enc(r.solution), enc(r.residuals), enc(r.rank), enc(r.singular_values)], {"driver": "gelsd"})


# ---------------------------------------------------------------- low precision and mixed dtypes (issue 26)

f16, bf16 = torch.float16, torch.bfloat16


def half_matrix_exp_cases():
    """matrix_exp in float16/bfloat16: the reference is scipy's expm of the rounded input, rounded to the dtype.

    PyTorch 2.13 takes these dtypes but reads its float64 Taylor coefficients as half-precision bytes (at::from_blob
    with the input's dtype), so its own results are wrong for every norm past the degree-2 range; each case records
    whether PyTorch's result was finite and whether it equals the reference ("torch_finite", "torch_equal").
    """
    g = rng(11)
    base = g.standard_normal((4, 4))
    for dtype in (f16, bf16):
        mats = {"norm%g" % n: scaled(base, n) for n in (1e-3, 0.04, 0.2, 0.8, 3.0, 12.0)}
        mats["zero"] = np.zeros((3, 3))
        mats["rotation"] = np.array([[0.0, -0.5], [0.5, 0]])
        mats["1x1"] = np.array([[-1.5]])
        mats["batch"] = np.stack([scaled(base, 0.01), scaled(base, 0.3), scaled(base, 5.0)])
        for name, a in mats.items():
            t = torch.tensor(a).to(dtype)
            exact = t.to(f64).numpy()
            ref = np.empty_like(exact)
            for idx in np.ndindex(exact.shape[:-2]):
                ref[idx] = scipy.linalg.expm(exact[idx])
            expected = torch.tensor(ref).to(dtype)
            own = torch.linalg.matrix_exp(t)
            case("matrix_exp_half/%s/%s" % (name, dname(dtype)), "matrix_exp_half", [t], enc(expected),
                 {"torch_finite": bool(torch.isfinite(own).all()), "torch_equal": bool(torch.equal(own, expected))})


def mixed_solve_triangular_cases():
    """solve_triangular with A and B of different dtypes: PyTorch 2.13 converts B to A's dtype (the result has A's);
    out = [X, dA, dB] with the gradients of sum(W * X), each in its input's dtype (dB absent for an integer B)."""
    g = rng(12)
    a = g.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    b = g.standard_normal((3, 2))
    pairs = [(f32, f64), (f64, f32), (f32, f16), (c64, f64), (c128, f32), (f64, c128), (f32, torch.int64)]
    for da, db in pairs:
        for upper, left in ((True, True), (False, False)):
            A = torch.tensor(a).to(da)
            A = (A.triu() if upper else A.tril()).requires_grad_()
            B = torch.tensor(b if left else b.T.copy())
            B = (B * 3).round().to(db) if not db.is_floating_point and not db.is_complex else B.to(db)
            if db.is_floating_point or db.is_complex:
                B.requires_grad_()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a complex B for a real A loses its imaginary part
                X = torch.linalg.solve_triangular(A, B, upper=upper, left=left)
            W = torch.tensor(g.standard_normal(tuple(X.shape))).to(X.dtype)
            loss = (W * X).sum().real if X.is_complex() else (W * X).sum()
            kwargs = {"upper": upper, "left": left}
            wrt = [A] + ([B] if B.requires_grad else [])
            try:
                grads = torch.autograd.grad(loss, wrt, retain_graph=True)
            except RuntimeError as e:
                # a real B of a complex A: its gradient is complex, which PyTorch's autograd engine refuses; the
                # reference is the real part of the gradient with respect to B converted to A's dtype beforehand
                kwargs["torch_refuses_grad_b"] = str(e).split("  (")[0]
                A2, B2 = A.detach().requires_grad_(), B.detach().to(da).requires_grad_()
                X2 = torch.linalg.solve_triangular(A2, B2, upper=upper, left=left)
                dA, dB = torch.autograd.grad((W * X2).sum().real, [A2, B2])
                grads = (dA, dB.real.to(db))
            case("solve_triangular_mixed/%s-%s/upper=%s/left=%s" % (dname(da), dname(db), upper, left),
                 "solve_triangular_mixed", [A.detach(), B.detach(), W], [enc(X)] + [enc(t) for t in grads], kwargs)
    for da in (torch.int64, f16, bf16):
        A = torch.eye(3).to(da)
        try:
            torch.linalg.solve_triangular(A, torch.ones(3, 1), upper=True)
            raise AssertionError("expected an error for A of " + dname(da))
        except (RuntimeError, NotImplementedError) as e:
            case("solve_triangular_mixed/error/%s" % dname(da), "solve_triangular_mixed",
                 [A, torch.ones(3, 1), torch.ones(3, 1)], {"error": str(e)}, {"upper": True, "left": True})


def solve_ex_info_cases():
    """linalg.solve_ex: info has A's batch shape however B broadcasts it; out = [result, info]."""
    g = rng(13)
    sing = np.array([[2.0, 4, 6], [1, 2, 3], [1, 1, 1]])  # exactly singular in floating point too
    good = g.standard_normal((3, 3)) + 3 * np.eye(3)
    inputs = {
        "batch-broadcast": (np.stack([good, sing]).reshape(2, 1, 3, 3), g.standard_normal((4, 3, 2)), True),
        "unbatched-A": (good, g.standard_normal((5, 3, 2)), True),
        "vector": (np.stack([sing, good]), g.standard_normal((2, 3)), True),
        "right": (good, g.standard_normal((4, 2, 3)), False),
        "empty-B-batch": (np.stack([good, sing]), np.zeros((0, 2, 3, 1)), True),
    }
    for name, (a, b, left) in inputs.items():
        A, B = torch.tensor(a), torch.tensor(b)
        r = torch.linalg.solve_ex(A, B, left=left)
        case("solve_ex/%s/float64" % name, "solve_ex", [A, B], [enc(r.result), enc(r.info)], {"left": left})


def half_matrix_norm_cases():
    """matrix_norm / norm in float16 and bfloat16: PyTorch reduces in float32 and rounds once for the ords that need
    no SVD; 2, -2 and nuc refuse these dtypes (the error is recorded)."""
    g = rng(14)
    for dtype in (f16, bf16):
        a = torch.tensor(g.standard_normal((3, 4)) * 3).to(dtype)
        batch = torch.tensor(g.standard_normal((2, 3, 5)) * 40).to(dtype)
        for ord_ in (1, -1, math.inf, -math.inf, "fro", 2, -2, "nuc"):
            key = str(ord_)
            for name, t, kw in (("3x4", a, {}), ("dims-keepdim", batch, {"dim": [2, 0], "keepdim": True}),
                                ("batch", batch, {})):
                try:
                    out = enc(torch.linalg.matrix_norm(t, ord=ord_, **kw))
                except RuntimeError as e:
                    out = {"error": str(e)}
                case("matrix_norm_half/%s/%s/%s" % (name, key, dname(dtype)), "matrix_norm_half", [t], out,
                     dict(kw, ord=key))
        case("norm_half/default/%s" % dname(dtype), "norm_half", [a], enc(torch.linalg.norm(a)), {"ord": None})
        case("norm_half/inf/%s" % dname(dtype), "norm_half", [a], enc(torch.linalg.norm(a, math.inf)),
             {"ord": "inf"})


if __name__ == "__main__":
    matrix_exp_cases()
    eigvals_cases()
    lu_cases()
    solve_triangular_cases()
    misc_cases()
    householder_lstsq_cases()
    half_matrix_exp_cases()
    mixed_solve_triangular_cases()
    solve_ex_info_cases()
    half_matrix_norm_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "linalg_solve.json"), CASES, "make_golden_linalg_solve.py")
    print("%d cases" % len(CASES))

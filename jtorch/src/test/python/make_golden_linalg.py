#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's linalg decompositions.

What it makes
    jtorch/src/test/resources/golden/linalg.json: inputs and reference outputs for
    cholesky / inv / det / slogdet / solve on complex input, eigvalsh, svdvals, qr (all
    modes), polar and matrix_sqrth, in float64 and complex128.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_linalg.py

Requirements
    PyTorch 2.13 (CPU wheel) plus numpy/scipy.
    Deterministic: inputs come from a torch.Generator seeded per case, keys are sorted.

2.15 changes newer than this reference (PyTorch 2.13)
    torch 2.13 has neither linalg.polar nor linalg.matrix_sqrth (both new in 2.14): their
    references come from scipy.linalg.polar and scipy.linalg.sqrtm, which compute the same
    unique factors (A = U H with H positive semi-definite; the principal square root).
    Eigen and singular vectors are unique only up to phase, so only eigenvalues and singular
    values are stored; QR follows LAPACK's Householder signs in both PyTorch and JTorch, so Q
    and R are stored as they are.

File format: as make_golden_core.py ({"cases": [{"id", "op", "args": [T...], "out": T | [T...]}]}).
"""
import json
import os

import numpy as np
import scipy.linalg
import torch

torch.set_num_threads(1)


def t(x):
    x = torch.as_tensor(x).contiguous()
    dtype = str(x.dtype).replace("torch.", "")
    if x.is_complex():
        data = torch.view_as_real(x).reshape(-1).tolist()
    else:
        data = x.reshape(-1).tolist()
    data = [v if np.isfinite(v) else ("nan" if np.isnan(v) else ("inf" if v > 0 else "-inf")) for v in data]
    return {"dtype": dtype, "shape": list(x.shape), "data": data}


def rand(seed, shape, dtype):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_complex:
        re = torch.randn(shape, generator=g, dtype=torch.float64)
        im = torch.randn(shape, generator=g, dtype=torch.float64)
        return torch.complex(re, im).to(dtype)
    return torch.randn(shape, generator=g, dtype=torch.float64).to(dtype)


def hpd(seed, shape, dtype):
    x = rand(seed, shape, dtype)
    n = shape[-1]
    return x @ x.mH + n * torch.eye(n, dtype=dtype)


cases = []


def case(cid, op, args, out, **kwargs):
    cases.append({"id": cid, "op": op, "args": [t(a) for a in args], "kwargs": kwargs,
                  "out": [t(o) for o in out] if isinstance(out, (list, tuple)) else t(out)})


seed = 0
for dtype in (torch.float64, torch.complex128):
    name = str(dtype).replace("torch.", "")
    for shape in ((3, 3), (2, 4, 4)):
        seed += 1
        a = hpd(seed, shape, dtype)
        sid = name + "/" + "x".join(map(str, shape))
        case("cholesky/" + sid, "cholesky", [a], torch.linalg.cholesky(a))
        case("cholesky_upper/" + sid, "cholesky_upper", [a], torch.linalg.cholesky(a, upper=True))
        case("eigvalsh/" + sid, "eigvalsh", [a], torch.linalg.eigvalsh(a))
        case("matrix_sqrth/" + sid, "matrix_sqrth", [a],
             torch.tensor(np.stack([np.asarray(scipy.linalg.sqrtm(m), dtype=m.dtype) for m in a.reshape(-1, shape[-1], shape[-1]).numpy()])
                          ).reshape(shape).to(dtype))
        g = rand(seed + 100, shape, dtype) + shape[-1] * torch.eye(shape[-1], dtype=dtype)
        case("inv/" + sid, "inv", [g], torch.linalg.inv(g))
        case("det/" + sid, "det", [g], torch.linalg.det(g))
        sl = torch.linalg.slogdet(g)
        case("slogdet/" + sid, "slogdet", [g], [sl.sign, sl.logabsdet])
        b = rand(seed + 200, shape[:-1] + (2,), dtype)
        case("solve/" + sid, "solve", [g, b], torch.linalg.solve(g, b))
    for shape in ((4, 3), (3, 5), (2, 3, 3)):
        seed += 1
        a = rand(seed, shape, dtype)
        sid = name + "/" + "x".join(map(str, shape))
        case("svdvals/" + sid, "svdvals", [a], torch.linalg.svdvals(a))
        for mode in ("reduced", "complete", "r"):
            q, r = torch.linalg.qr(a, mode=mode)
            case("qr_" + mode + "/" + sid, "qr_" + mode, [a], [q, r])
        if shape[-2] >= shape[-1]:
            flat = a.reshape(-1, shape[-2], shape[-1]).numpy()
            us, hs = zip(*[scipy.linalg.polar(m, side="right") for m in flat])
            case("polar/" + sid, "polar", [a],
                 [torch.tensor(np.stack(us)).reshape(shape).to(dtype),
                  torch.tensor(np.stack(hs)).reshape(shape[:-2] + (shape[-1], shape[-1])).to(dtype)])

# norms, condition numbers, rank and pseudo-inverse; ord names as strings ("inf" for float('inf'))
ORDS = {"fro": "fro", "nuc": "nuc", "2": 2, "-2": -2, "1": 1, "-1": -1, "inf": float("inf"), "-inf": float("-inf")}
for dtype in (torch.float64, torch.complex128):
    name = str(dtype).replace("torch.", "")
    seed += 1
    a = rand(seed, (2, 3, 4), dtype)
    sq = rand(seed + 1, (2, 3, 3), dtype) + 3 * torch.eye(3, dtype=dtype)
    for key, ord in ORDS.items():
        case("matrix_norm/" + name + "/" + key, "matrix_norm", [a], torch.linalg.matrix_norm(a, ord=ord), ord=key)
        case("matrix_norm_dims/" + name + "/" + key, "matrix_norm_dims", [a],
             torch.linalg.matrix_norm(a, ord=ord, dim=(0, 2), keepdim=True), ord=key)
        case("cond/" + name + "/" + key, "cond", [sq], torch.linalg.cond(sq, p=ord), ord=key)
    case("norm/" + name + "/flat", "norm", [a], torch.linalg.norm(a))
    case("norm_vector/" + name + "/3", "norm_vector", [a], torch.linalg.norm(a, ord=3, dim=(1,)), ord=3.0)
    case("cond/" + name + "/None", "cond", [a], torch.linalg.cond(a), ord=None)
    low = rand(seed + 2, (2, 4, 2), dtype) @ rand(seed + 3, (2, 2, 3), dtype)
    case("pinv/" + name, "pinv", [low], torch.linalg.pinv(low))
    case("matrix_rank/" + name, "matrix_rank", [low], torch.linalg.matrix_rank(low))
    herm = low @ low.mH
    case("pinv_hermitian/" + name, "pinv_hermitian", [herm], torch.linalg.pinv(herm, hermitian=True))
    case("matrix_rank_hermitian/" + name, "matrix_rank_hermitian", [herm], torch.linalg.matrix_rank(herm, hermitian=True))
    case("matrix_rank_atol/" + name, "matrix_rank_atol", [low], torch.linalg.matrix_rank(low, atol=1.0, rtol=0.0))

root = {"cases": cases, "generator": "make_golden_linalg.py", "torch": torch.__version__}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "linalg.json")
with open(path, "w") as f:
    json.dump(root, f, sort_keys=True)
print("wrote", len(cases), "cases to", os.path.normpath(path))

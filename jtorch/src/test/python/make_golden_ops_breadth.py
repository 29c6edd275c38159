#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the ops that a PyTorch user reaches for and that JTorch added together: special
pointwise functions, activations and similarities, reductions and statistics, shape and creation helpers, and the
indexing family's options (OpsBreadthGoldenTest reads the file).

What it makes
    jtorch/src/test/resources/golden/ops_breadth.json, one case per call:
      {"id", "op", "args": [...], "kwargs": {..., "_grad": [i...]}, "out": [output..., grad of each args[i]...]}
      {"id", "op", "args": [...], "kwargs": {...}, "out": {"error": first line of PyTorch's message}}
    Gradients (for the args listed in "_grad") are those of sum(W * output[0]) for a fixed W drawn from a seeded
    generator, appended as the last arg (sum(Re(conj(W) * output)) for complex outputs), so the backward formulas
    are checked against PyTorch's own, not only against finite differences.

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_ops_breadth.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs are fixed or come from seeded generators. None of these ops changed
    between 2.13 and 2.15, so no case is pinned by the 2.15 spec instead.
"""
import math
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
INF, NAN = math.inf, math.nan


def _enc_arg(a):
    if isinstance(a, torch.Tensor):
        return enc(a)
    if isinstance(a, torch.dtype):
        return str(a).replace("torch.", "")
    if isinstance(a, (list, tuple)):
        return [_enc_arg(x) for x in a]
    if isinstance(a, float) and not math.isfinite(a):
        return "nan" if math.isnan(a) else ("inf" if a > 0 else "-inf")
    return a


def _outputs(out):
    if isinstance(out, torch.Tensor):
        return [out]
    return [o for o in out]


def value(id_, op, fn, args, kwargs=None, grad=()):
    """Records fn(*args, **kwargs); for each index in grad, the gradient of sum(W * out[0]) w.r.t. args[index]."""
    kwargs = kwargs or {}
    recorded_only = {k: v for k, v in kwargs.items() if k.startswith("_")}
    kwargs = {k: v for k, v in kwargs.items() if not k.startswith("_")}
    args = [a.detach().clone().requires_grad_(i in grad) if isinstance(a, torch.Tensor) else a
            for i, a in enumerate(args)]
    out = _outputs(fn(*args, **kwargs))
    encoded = [_enc_arg(a) for a in args]
    results = [enc(o) for o in out]
    if grad:
        gen = torch.Generator().manual_seed(len(CASES))
        w = torch.randn(out[0].shape, generator=gen, dtype=torch.float64).to(out[0].dtype)
        gs = torch.autograd.grad((w * out[0]).sum(), [args[i] for i in grad])
        encoded.append(enc(w))
        results += [enc(g) for g in gs]
    recorded = {k: _enc_arg(v) for k, v in list(kwargs.items()) + list(recorded_only.items())}
    if grad:
        recorded["_grad"] = list(grad)
    CASES.append({"id": id_, "op": op, "args": encoded, "kwargs": recorded, "out": results})


def error(id_, op, fn, args, kwargs=None):
    kwargs = kwargs or {}
    try:
        fn(*args, **kwargs)
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": id_, "op": op, "args": [_enc_arg(a) for a in args],
                      "kwargs": {k: _enc_arg(v) for k, v in kwargs.items()}, "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def rnd(*shape, gen, dtype=torch.float64, scale=1.0):
    return torch.randn(*shape, generator=gen, dtype=torch.float64).mul(scale).to(dtype)


def special_pointwise(g):
    edge = torch.tensor([0.0, -0.0, 0.5, -1.0, 1e-9, 2.25, -7.5, 9.0, 40.0, -40.0, INF, NAN], dtype=torch.float64)
    for dt in (torch.float64, torch.float32):
        name = str(dt).replace("torch.", "")
        value("sinc/edge/" + name, "sinc", torch.sinc, [edge.to(dt)])
        value("i0/edge/" + name, "i0", torch.i0, [edge.to(dt)])
        value("i1/edge/" + name, "special_i1", torch.special.i1, [edge.to(dt)])
    value("sinc/grad", "sinc", torch.sinc, [rnd(3, 4, gen=g, scale=2)], grad=(0,))
    value("sinc/grad-at-zero", "sinc", torch.sinc, [torch.tensor([0.0, 1.0, -0.5], dtype=torch.float64)], grad=(0,))
    value("sinc/int64", "sinc", torch.sinc, [torch.tensor([0, 1, 2, -3])])
    value("sinc/complex128", "sinc", torch.sinc, [torch.tensor([0.5 + 1j, 0j, -2 + 0.25j], dtype=torch.complex128)])
    value("i0/grad", "i0", torch.i0, [rnd(5, gen=g, scale=5)], grad=(0,))
    value("i0/int64", "i0", torch.i0, [torch.tensor([0, 1, 2, -3])])
    value("i0/float16", "i0", torch.i0, [torch.tensor([0.5, -2.0, 3.0], dtype=torch.float16)])
    value("i1/grad", "special_i1", torch.special.i1, [torch.tensor([0.0, 1e-20, 0.5, -3.0, 12.0], dtype=torch.float64)],
          grad=(0,))
    error("i0/complex64", "i0", torch.i0, [torch.tensor([1 + 1j], dtype=torch.complex64)])
    x = torch.tensor([-2.0, -0.0, 0.0, 3.0, NAN, INF, -INF], dtype=torch.float64)
    value("heaviside/float64", "heaviside", torch.heaviside, [x, torch.tensor([0.5], dtype=torch.float64)])
    value("heaviside/int64-broadcast", "heaviside", torch.heaviside,
          [torch.tensor([[1, 0, -2], [0, 5, 0]]), torch.tensor([7, 8, 9])])
    value("heaviside/bool", "heaviside", torch.heaviside, [torch.tensor([True, False]), torch.tensor([True])])
    error("heaviside/mixed-dtypes", "heaviside", torch.heaviside, [torch.tensor([1, 2]), torch.tensor([0.5])])
    error("heaviside/complex", "heaviside", torch.heaviside,
          [torch.tensor([1 + 1j]), torch.tensor([1 + 1j])])
    z = torch.tensor([1e-10 + 1e-10j, 1 + 2j, -0.3 + 0.2j, 0j, -1 + 0j, 50 - 3j, 2e-8 - 1e-9j], dtype=torch.complex128)
    for dt in (torch.complex64, torch.complex128):
        name = str(dt).replace("torch.", "")
        value("expm1/" + name, "expm1", torch.expm1, [z.to(dt)])
        value("log1p/" + name, "log1p", torch.log1p, [z.to(dt)])
    zg = torch.complex(rnd(4, gen=g), rnd(4, gen=g))
    for op in ("expm1", "log1p"):
        CASES.append(_complex_grad_case(op + "/complex-grad", op, getattr(torch, op), zg, g))


def _complex_grad_case(id_, op, fn, z, g):
    """The gradient of sum(Re(conj(W) * fn(z))) w.r.t. z, in PyTorch's convention for complex inputs."""
    z = z.detach().clone().requires_grad_(True)
    out = fn(z)
    w = torch.complex(rnd(*out.shape, gen=g), rnd(*out.shape, gen=g))
    (gz,) = torch.autograd.grad((w.conj() * out).real.sum(), [z])
    return {"id": id_, "op": op, "args": [enc(z), enc(w)], "kwargs": {"_grad": [0]},
            "out": [enc(out), enc(gz)]}


def activations(g):
    x = torch.tensor([-5.0, -3.0, -1.5, -0.0, 0.0, 0.75, 3.0, 4.5, -800.0, 800.0], dtype=torch.float64)
    for name, fn in (("hardswish", F.hardswish), ("log_sigmoid", F.logsigmoid), ("relu6", F.relu6),
                     ("selu", F.selu), ("softsign", F.softsign), ("softplus", F.softplus)):
        value(name + "/edge/float64", name, fn, [x])
        value(name + "/edge/float32", name, fn, [x.float()])
        value(name + "/grad", name, fn, [rnd(3, 4, gen=g, scale=3)], grad=(0,))
    value("relu6/int64", "relu6", F.relu6, [torch.tensor([-3, 2, 9])])
    value("softsign/int64", "softsign", F.softsign, [torch.tensor([-3, 2, 9])])
    value("softplus/beta-threshold", "softplus", F.softplus, [rnd(6, gen=g, scale=4)], {"beta": 2.0, "threshold": 3.0},
          grad=(0,))
    for name, fn in (("hardswish", F.hardswish), ("log_sigmoid", F.logsigmoid), ("selu", F.selu)):
        error(name + "/int64", name, fn, [torch.tensor([1, 2])])
    error("relu6/bool", "relu6", F.relu6, [torch.tensor([True])])
    value("glu/last", "glu", F.glu, [rnd(3, 4, gen=g)], grad=(0,))
    value("glu/dim0", "glu", F.glu, [rnd(4, 3, gen=g)], {"dim": 0}, grad=(0,))
    value("glu/float32", "glu", F.glu, [rnd(2, 6, gen=g, dtype=torch.float32)], {"dim": -1})
    error("glu/odd", "glu", F.glu, [rnd(2, 3, gen=g)])
    error("glu/0-d", "glu", F.glu, [torch.tensor(1.0)])
    error("glu/int64", "glu", F.glu, [torch.ones(4, dtype=torch.int64)])
    a, b = rnd(3, 5, gen=g), rnd(3, 5, gen=g)
    value("cosine_similarity/rows", "cosine_similarity", F.cosine_similarity, [a, b], grad=(0, 1))
    value("cosine_similarity/dim0-eps", "cosine_similarity", F.cosine_similarity,
          [rnd(4, 2, gen=g), rnd(4, 1, gen=g)], {"dim": 0, "eps": 0.5}, grad=(0, 1))
    value("cosine_similarity/zero-row", "cosine_similarity", F.cosine_similarity,
          [torch.zeros(2, 3, dtype=torch.float64), rnd(2, 3, gen=g)], grad=(0, 1))
    value("cosine_similarity/broadcast-float32", "cosine_similarity", F.cosine_similarity,
          [rnd(2, 1, 4, gen=g, dtype=torch.float32), rnd(3, 4, gen=g, dtype=torch.float32)], {"dim": -1})
    value("cosine_similarity/int-and-float", "cosine_similarity", F.cosine_similarity,
          [torch.tensor([1, 2, 3]), torch.tensor([1.0, 0.0, 2.0])], {"dim": 0})
    error("cosine_similarity/int-pair", "cosine_similarity", F.cosine_similarity,
          [torch.tensor([1, 2]), torch.tensor([3, 4])], {"dim": 0})
    value("pairwise_distance/p2", "pairwise_distance", F.pairwise_distance, [a, b], grad=(0, 1))
    value("pairwise_distance/p1-keepdim", "pairwise_distance", F.pairwise_distance,
          [rnd(3, 4, gen=g), rnd(4, gen=g)], {"p": 1.0, "keepdim": True}, grad=(0, 1))
    value("pairwise_distance/p-inf", "pairwise_distance", F.pairwise_distance,
          [rnd(3, 4, gen=g), rnd(3, 4, gen=g)], {"p": INF}, grad=(0,))
    value("pairwise_distance/1-d", "pairwise_distance", F.pairwise_distance,
          [rnd(4, gen=g), rnd(4, gen=g)], {"p": 3.0, "eps": 0.0})
    value("pairwise_distance/int64", "pairwise_distance", F.pairwise_distance,
          [torch.tensor([[1, 2], [3, 4]]), torch.tensor([[0, 2], [1, 1]])])


def statistics(g):
    t = torch.tensor([[1.0, 3.0, 3.0, 0.0], [0.0, -2.0, 5.0, 5.0]], dtype=torch.float64)
    value("aminmax/all-ties", "aminmax", torch.aminmax, [t], grad=(0,))
    value("aminmax/dim-keepdim", "aminmax", torch.aminmax, [t], {"dim": 1, "keepdim": True}, grad=(0,))
    value("aminmax/bool", "aminmax", torch.aminmax, [torch.tensor([True, False])])
    value("aminmax/int64-dim0", "aminmax", torch.aminmax, [torch.tensor([[4, -1], [2, 7]])], {"dim": 0})
    value("aminmax/empty-other-dim", "aminmax", torch.aminmax, [torch.empty(0, 3)], {"dim": 1})
    error("aminmax/empty", "aminmax", torch.aminmax, [torch.empty(0)])
    error("aminmax/empty-dim", "aminmax", torch.aminmax, [torch.empty(2, 0)], {"dim": 1})
    error("aminmax/complex", "aminmax", torch.aminmax, [torch.tensor([1 + 1j])])
    x = rnd(3, 4, gen=g)
    for name, fn in (("std_mean", torch.std_mean), ("var_mean", torch.var_mean)):
        value(name + "/all", name, fn, [x], grad=(0,))
        value(name + "/dim-correction", name, fn, [x], {"dim": [1], "correction": 0, "keepdim": True}, grad=(0,))
        value(name + "/complex", name, fn, [torch.tensor([1 + 1j, 2 - 1j, 0.5j], dtype=torch.complex128)])
        error(name + "/int64", name, fn, [torch.tensor([1, 2])])
    m = torch.tensor([[1.0, NAN, 2.0, NAN], [3.0, 1.0, 1.0, 2.0], [4.0, 2.0, 2.0, 1.0]], dtype=torch.float64)
    value("median/dim-nan-ties", "median", torch.median, [m], {"dim": 1})
    value("nanmedian/dim-nan-ties", "nanmedian", torch.nanmedian, [m], {"dim": 1})
    value("median/all-nan", "median", torch.median, [m])
    value("nanmedian/all", "nanmedian", torch.nanmedian, [m])
    value("nanmedian/only-nans", "nanmedian", torch.nanmedian, [torch.full((2, 3), NAN)], {"dim": 1})
    value("median/all-ties-grad", "median", torch.median, [torch.tensor([1.0, 2.0, 2.0, 3.0], dtype=torch.float64)],
          grad=(0,))
    value("median/dim-grad", "median", torch.median, [rnd(3, 5, gen=g)], {"dim": 0, "keepdim": True}, grad=(0,))
    value("nanmedian/all-grad", "nanmedian", torch.nanmedian, [torch.tensor([NAN, 2.0, 5.0, 2.0, 1.0],
                                                                           dtype=torch.float64)], grad=(0,))
    value("median/int64", "median", torch.median, [torch.tensor([3, 1, 2, 2])])
    value("median/int64-dim", "median", torch.median, [torch.tensor([[3, 1, 2, 2], [9, 8, 7, 7]])], {"dim": -1})
    value("median/empty", "median", torch.median, [torch.empty(0)])
    value("median/empty-other-dim", "median", torch.median, [torch.empty(0, 3)], {"dim": 1})
    error("median/empty-dim", "median", torch.median, [torch.empty(2, 0)], {"dim": 1})
    error("median/complex", "median", torch.median, [torch.tensor([1 + 1j])])
    error("median/bool-dim", "median", torch.median, [torch.tensor([True])], {"dim": 0})
    q = torch.tensor([0.0, 0.25, 0.5, 0.9, 1.0], dtype=torch.float64)
    y = rnd(3, 5, gen=g)
    for mode in ("linear", "lower", "higher", "midpoint", "nearest"):
        value("quantile/" + mode, "quantile", torch.quantile, [y, q], {"interpolation": mode}, grad=(0,))
        value("quantile/dim/" + mode, "quantile", torch.quantile, [y, q], {"dim": 1, "keepdim": True,
                                                                         "interpolation": mode}, grad=(0,))
        value("nanquantile/" + mode, "nanquantile", torch.nanquantile, [m, q], {"dim": 1, "interpolation": mode})
    value("quantile/scalar", "quantile", torch.quantile, [y, 0.3], {"dim": 0}, grad=(0,))
    value("quantile/nearest-half", "quantile", torch.quantile,
          [torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0], dtype=torch.float64), torch.tensor([0.125, 0.375, 0.625])
           .double()], {"interpolation": "nearest"})
    value("quantile/nan-line", "quantile", torch.quantile, [m, q], {"dim": 1})
    value("quantile/float32-0d-q", "quantile", torch.quantile, [y.float(), torch.tensor(0.75)], {"dim": 0})
    value("quantile/0-d", "quantile", torch.quantile, [torch.tensor(3.0), torch.tensor([0.2, 0.5])],
          {"dim": 0, "keepdim": True})
    value("quantile/q-grad", "quantile", torch.quantile, [y, torch.tensor([0.3, 0.6], dtype=torch.float64)],
          grad=(1,))
    value("nanquantile/only-nans", "nanquantile", torch.nanquantile, [torch.full((3,), NAN), 0.5])
    error("quantile/q-range", "quantile", torch.quantile, [y, 1.5])
    error("quantile/q-tensor-range", "quantile", torch.quantile, [y, torch.tensor([0.5, 2.0], dtype=torch.float64)])
    error("quantile/interpolation", "quantile", torch.quantile, [y, 0.5], {"interpolation": "cubic"})
    error("quantile/empty", "quantile", torch.quantile, [torch.empty(0), 0.5])
    error("quantile/int64", "quantile", torch.quantile, [torch.tensor([1, 2]), 0.5])
    error("quantile/q-dtype", "quantile", torch.quantile, [y.float(), torch.tensor([0.5], dtype=torch.float64)])
    error("quantile/q-2-d", "quantile", torch.quantile, [y, torch.full((2, 2), 0.5, dtype=torch.float64)])
    c = rnd(3, 6, gen=g)
    value("cov/default", "cov", torch.cov, [c], grad=(0,))
    value("cov/weights", "cov", torch.cov, [c], {"correction": 2, "fweights": torch.tensor([1, 2, 1, 3, 1, 1]),
                                                 "aweights": torch.tensor([0.5, 1, 2, 1, 0.25, 1],
                                                                          dtype=torch.float64)}, grad=(0,))
    value("cov/fweights-only", "cov", torch.cov, [c], {"fweights": torch.tensor([1, 0, 2, 1, 1, 4])})
    value("cov/1-d-int", "cov", torch.cov, [torch.tensor([1, 2, 4])])
    value("cov/complex", "cov", torch.cov, [torch.tensor([[1 + 1j, 2, 4], [0, 1j, 3]], dtype=torch.complex128)])
    value("cov/no-dof", "cov", torch.cov, [c], {"correction": 6})
    error("cov/3-d", "cov", torch.cov, [torch.ones(2, 2, 2)])
    error("cov/bool", "cov", torch.cov, [torch.tensor([True])])
    error("cov/fweights-float", "cov", torch.cov, [c], {"fweights": torch.ones(6)})
    error("cov/fweights-negative", "cov", torch.cov, [c], {"fweights": torch.tensor([1, -2, 1, 1, 1, 1])})
    error("cov/aweights-int", "cov", torch.cov, [c], {"aweights": torch.ones(6, dtype=torch.int64)})
    error("cov/aweights-numel", "cov", torch.cov, [c], {"aweights": torch.ones(5, dtype=torch.float64)})
    error("cov/zero-weights", "cov", torch.cov, [c], {"aweights": torch.zeros(6, dtype=torch.float64)})
    value("corrcoef/default", "corrcoef", torch.corrcoef, [c], grad=(0,))
    value("corrcoef/1-d", "corrcoef", torch.corrcoef, [torch.tensor([1.0, 2.0, 4.0])])
    value("corrcoef/complex", "corrcoef", torch.corrcoef,
          [torch.tensor([[1 + 1j, 2, 4], [0, 1j, 3]], dtype=torch.complex128)])
    error("corrcoef/3-d", "corrcoef", torch.corrcoef, [torch.ones(2, 2, 2)])
    lse = torch.tensor([-INF, -INF, 1.0, INF, NAN, 1.0], dtype=torch.float64)
    value("logcumsumexp/edge", "logcumsumexp", torch.logcumsumexp, [lse], {"dim": 0})
    value("logcumsumexp/wide-range", "logcumsumexp", torch.logcumsumexp,
          [torch.tensor([-1000.0, -999.0, 0.0, 1000.0, 3.0], dtype=torch.float64)], {"dim": 0})
    value("logcumsumexp/grad", "logcumsumexp", torch.logcumsumexp, [rnd(3, 4, gen=g, scale=3)], {"dim": 1},
          grad=(0,))
    value("logcumsumexp/float32-dim0", "logcumsumexp", torch.logcumsumexp, [rnd(3, 4, gen=g, dtype=torch.float32)],
          {"dim": 0})
    value("logcumsumexp/complex", "logcumsumexp", torch.logcumsumexp,
          [torch.tensor([1 + 1j, 2 - 1j, -0.5j], dtype=torch.complex128)], {"dim": 0})
    value("logcumsumexp/0-d", "logcumsumexp", torch.logcumsumexp, [torch.tensor(2.0)], {"dim": 0})
    error("logcumsumexp/int64", "logcumsumexp", torch.logcumsumexp, [torch.tensor([1, 2])], {"dim": 0})
    zc = torch.complex(rnd(5, gen=g), rnd(5, gen=g))
    CASES.append(_complex_grad_case("logcumsumexp/complex-grad", "logcumsumexp",
                                    lambda z: torch.logcumsumexp(z, 0), zc, g))
    value("trace/grad", "trace", torch.trace, [rnd(3, 4, gen=g)], grad=(0,))
    value("trace/int8", "trace", torch.trace, [torch.tensor([[1, 2], [3, 100]], dtype=torch.int8)])
    value("trace/float16", "trace", torch.trace, [torch.ones(3, 2, dtype=torch.float16)])
    error("trace/3-d", "trace", torch.trace, [torch.ones(2, 2, 2)])
    error("trace/bool", "trace", torch.trace, [torch.ones(2, 2, dtype=torch.bool)])
    a = torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [0.0, 3.0]], [[1.0, 2.0], [2.0, 4.0]]],
                     dtype=torch.float64)
    value("logdet/signs", "logdet", torch.logdet, [a])
    value("logdet/grad", "logdet", torch.logdet, [rnd(3, 3, gen=g) + 3 * torch.eye(3, dtype=torch.float64)],
          grad=(0,))
    value("logdet/complex", "logdet", torch.logdet, [torch.tensor([[1 + 1j, 2], [0.5j, 3]], dtype=torch.complex128)])
    error("logdet/int64", "logdet", torch.logdet, [torch.ones(2, 2, dtype=torch.int64)])
    error("logdet/non-square", "logdet", torch.logdet, [torch.ones(2, 3)])
    n = rnd(2, 3, gen=g)
    value("norm/default", "norm", torch.norm, [n], grad=(0,))
    value("norm/p1-dim", "norm", torch.norm, [n], {"p": 1.0, "dim": [1], "keepdim": True}, grad=(0,))
    value("norm/p-inf", "norm", torch.norm, [n], {"p": INF})
    value("norm/fro-dims", "norm", torch.norm, [rnd(2, 3, 4, gen=g)], {"p": "fro", "dim": [1, 2]})
    value("norm/nuc", "norm", torch.norm, [rnd(3, 3, gen=g)], {"p": "nuc"})
    value("norm/dtype", "norm", torch.norm, [n.float()], {"p": 2.0, "dim": [0], "dtype": torch.float64})


def MESHGRID(*tensors, **kwargs):
    return torch.meshgrid(*tensors, **kwargs)


def grids(g):
    x = rnd(2, 3, gen=g)
    value("tile/fewer-dims", "tile", torch.tile, [x, [2]], grad=(0,))
    value("tile/more-dims", "tile", torch.tile, [torch.tensor([1, 2, 3]), [2, 2]])
    value("tile/0-d", "tile", torch.tile, [torch.tensor(5.0), [3]])
    error("tile/negative", "tile", torch.tile, [torch.ones(2), [-1]])
    a, b, c = torch.tensor([1, 2]), torch.tensor([3, 4, 5]), torch.tensor([6, 7, 8, 9])
    for indexing in ("ij", "xy"):
        value("meshgrid/" + indexing, "meshgrid", MESHGRID,
              [a, b, c], {"indexing": indexing})
        value("meshgrid/" + indexing + "-0-d", "meshgrid",
              MESHGRID, [torch.tensor(1.5, dtype=torch.float64), b.double()],
              {"indexing": indexing})
    value("meshgrid/grad", "meshgrid", lambda *t, **kw: torch.meshgrid(*t, **kw)[0] * 2,
          [rnd(2, gen=g), rnd(3, gen=g)], {"indexing": "xy", "_first_times_two": True}, grad=(0,))
    error("meshgrid/dtypes", "meshgrid", MESHGRID, [a, b.double()],
          {"indexing": "ij"})
    error("meshgrid/indexing", "meshgrid", MESHGRID, [a], {"indexing": "ji"})
    value("kron/matrices", "kron", torch.kron, [rnd(2, 2, gen=g), rnd(2, 3, gen=g)], grad=(0, 1))
    value("kron/ranks-differ-int", "kron", torch.kron, [torch.tensor([1, 2, 3]), torch.tensor([[1, -1], [2, 0]])])
    value("kron/promote", "kron", torch.kron, [torch.tensor([1, 2]), torch.tensor([0.5, 1.5])])
    value("cartesian_prod/three", "cartesian_prod", lambda *t: torch.cartesian_prod(*t), [a, b, c])
    value("cartesian_prod/grad", "cartesian_prod", lambda *t: torch.cartesian_prod(*t),
          [rnd(2, gen=g), rnd(3, gen=g)], grad=(0, 1))
    value("cartesian_prod/one", "cartesian_prod", lambda *t: torch.cartesian_prod(*t), [b])
    error("cartesian_prod/2-d", "cartesian_prod", lambda *t: torch.cartesian_prod(*t), [torch.ones(2, 2)])
    for name, fn in (("tril_indices", torch.tril_indices), ("triu_indices", torch.triu_indices)):
        for row, col, off in ((3, 4, 0), (3, 4, -1), (4, 3, 1), (4, 3, -5), (3, 3, 7), (0, 4, 0)):
            value("%s/%dx%d/%d" % (name, row, col, off), name, fn, [row, col, off])
        value(name + "/int32", name, fn, [3, 3, 0], {"dtype": torch.int32})
        error(name + "/negative-row", name, fn, [-1, 3])
        error(name + "/float", name, fn, [3, 3], {"dtype": torch.float32})


def accepted_options(g):
    f = torch.tensor([[1.5, NAN, 2.7], [-3.9, 4.2, NAN]])
    value("nansum/float-to-int64", "nansum", torch.nansum, [f], {"dtype": torch.int64})
    value("nansum/float-to-int32-dim", "nansum", torch.nansum, [f], {"dim": [1], "dtype": torch.int32})
    value("nansum/int-to-int32", "nansum", torch.nansum, [torch.tensor([1, 2, 3])], {"dtype": torch.int32})
    x = rnd(3, 4, gen=g)
    i32 = torch.tensor([[0, 2, 1, 2], [2, 0, 0, 1]], dtype=torch.int32)
    value("gather/int32", "gather", torch.gather, [x, 0, i32], grad=(0,))
    value("scatter/int32", "scatter", lambda s, d, i, v: torch.scatter(s, d, i, v), [x, 0, i32, 5.0])
    value("scatter_add/int32", "scatter_add", torch.scatter_add, [x, 0, i32, torch.ones(2, 4, dtype=torch.float64)])
    error("gather/int16", "gather", torch.gather, [x, 0, i32.to(torch.int16)])
    for name, t in (("int64", torch.tensor([1, 2])), ("float32", torch.tensor([1.5])), ("bool", torch.tensor([True, False])),
                    ("uint8", torch.tensor([255], dtype=torch.uint8))):
        value("add-bool/" + name, "add_bool", lambda t: t + True, [t])
    expm1 = torch.tensor([1e-10 + 1e-10j, 1 + 2j], dtype=torch.complex64)
    value("expm1/complex64-small", "expm1", torch.expm1, [expm1])


def main():
    g = torch.Generator().manual_seed(0)
    special_pointwise(g)
    activations(g)
    statistics(g)
    grids(g)
    accepted_options(g)
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "ops_breadth.json"), CASES, "make_golden_ops_breadth.py")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.distributions.

What it makes
    jtorch/src/test/resources/golden/distributions.json: for Normal, Uniform, Bernoulli, Categorical,
    OneHotCategorical, Exponential, Laplace, LogNormal, Independent and TransformedDistribution (with Exp, Affine,
    Sigmoid, Tanh and Compose transforms): log_prob, cdf, icdf, entropy, mean, variance and the gradients of
    log_prob / entropy in the parameters; same-seed samples (sample and rsample) and the gradients of rsample;
    kl_divergence for the registered pairs among these families; the errors of invalid parameters and values.

    case: {"id", "op": family, "args": [parameter tensors...], "kwargs": {"method", "param": "probs"|"logits",
           "value", "seed", "shape", "w", "other": {...}}, "out": [result, grads...] | {"error": message}}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_distributions.py      (a Python with PyTorch 2.13 CPU)

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs are fixed or come from seeded generators.
"""
import math
import os

import torch
import torch.distributions as D
import torch.distributions.transforms as T

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
f64 = torch.float64


def t(v, dtype=f64):
    return torch.tensor(v, dtype=dtype)


def make(family, params, kw):
    """The distribution of a case, as the Java test builds it from the same fields."""
    p = params
    if family == "Normal":
        return D.Normal(p[0], p[1])
    if family == "Uniform":
        return D.Uniform(p[0], p[1])
    if family == "Exponential":
        return D.Exponential(p[0])
    if family == "Laplace":
        return D.Laplace(p[0], p[1])
    if family == "LogNormal":
        return D.LogNormal(p[0], p[1])
    if family in ("Bernoulli", "Categorical", "OneHotCategorical"):
        cls = getattr(D, family)
        return cls(probs=p[0]) if kw["param"] == "probs" else cls(logits=p[0])
    if family == "MVN":
        kind = kw["param"]
        return D.MultivariateNormal(p[0], **{kind: p[1]})
    if family == "IndependentNormal":
        return D.Independent(D.Normal(p[0], p[1]), 1)
    if family == "SigmoidAffineNormal":
        return D.TransformedDistribution(D.Normal(p[0], p[1]), [T.AffineTransform(0.5, -2.0), T.SigmoidTransform()])
    if family == "Gamma":
        return D.Gamma(p[0], p[1])
    if family == "Beta":
        return D.Beta(p[0], p[1])
    if family == "Dirichlet":
        return D.Dirichlet(p[0])
    if family == "Poisson":
        return D.Poisson(p[0])
    if family == "Binomial":
        return D.Binomial(p[0], probs=p[1]) if kw["param"] == "probs" else D.Binomial(p[0], logits=p[1])
    if family == "TanhNormal":
        return D.TransformedDistribution(D.Normal(p[0], p[1]), [T.ComposeTransform([T.TanhTransform()])])
    raise ValueError(family)


# the families whose mode JTorch defines (every one PyTorch defines but the transformed ones)
WITH_MODE = ("Gamma", "Beta", "Dirichlet", "Poisson", "Binomial", "Normal", "Uniform", "Bernoulli", "Categorical",
             "OneHotCategorical", "Exponential", "Laplace", "LogNormal", "IndependentNormal", "MVN")


def leaves(params):
    return [x.detach().clone().requires_grad_(x.dtype.is_floating_point) for x in params]


def grads(out, params):
    wanted = [x for x in params if x.requires_grad]
    gs = torch.autograd.grad(out.sum(), wanted, allow_unused=True, retain_graph=True)
    return [enc(torch.zeros_like(x) if g is None else g) for x, g in zip(wanted, gs)]


def add(id_, family, params, kw, out):
    CASES.append({"id": id_, "op": family, "args": [enc(x) for x in params], "kwargs": kw, "out": out})


def evaluate(id_, family, params, kw, value=None, q=None, skip=()):
    """log_prob (and its gradients), entropy, mean, variance, cdf and icdf where the family defines them."""
    ps = leaves(params)
    d = make(family, ps, kw)
    if value is not None:
        lp = d.log_prob(value)
        add(id_ + "/log_prob", family, params, dict(kw, method="log_prob", value=enc(value)), [enc(lp)] + grads(lp, ps))
    methods = ("entropy", "mean", "variance", "cdf", "icdf") + (("mode",) if family in WITH_MODE else ())
    for method in (m for m in methods if m not in skip):
        try:
            if method == "cdf":
                if value is None:
                    continue
                r = d.cdf(value)
                extra = {"value": enc(value)}
            elif method == "icdf":
                if q is None:
                    continue
                r = d.icdf(q)
                extra = {"value": enc(q)}
            else:
                r = getattr(d, method)
                r = r() if callable(r) else r
                extra = {}
        except NotImplementedError:
            continue
        out = [enc(r)] + (grads(r, ps) if r.requires_grad else [])
        add(id_ + "/" + method, family, params, dict(kw, method=method, **extra), out)


def sampling(id_, family, params, kw, shape, seed):
    """Same-seed sample() and, where defined, rsample() with the gradients of sum(w * rsample)."""
    d = make(family, params, kw)
    torch.manual_seed(seed)
    s = d.sample(shape)
    add(id_ + "/sample", family, params, dict(kw, method="sample", seed=seed, shape=list(shape)), [enc(s)])
    ps = leaves(params)
    d = make(family, ps, kw)
    if not d.has_rsample:
        return
    torch.manual_seed(seed)
    r = d.rsample(shape)
    w = torch.randn(r.shape, generator=torch.Generator().manual_seed(seed), dtype=r.dtype)
    add(id_ + "/rsample", family, params, dict(kw, method="rsample", seed=seed, shape=list(shape), w=enc(w)),
        [enc(r)] + grads(r * w, ps))


def error(id_, family, params, kw, value=None):
    try:
        d = make(family, params, kw)
        if value is not None:
            d.log_prob(value)
    except Exception as e:  # the message is what JTorch must raise
        add(id_, family, params, dict(kw, method="log_prob" if value is not None else "init",
                                      **({"value": enc(value)} if value is not None else {})),
            {"error": str(e).splitlines()[0]})
        return
    raise AssertionError(id_ + " did not raise")


def kl_case(pf, pp, qf, qp, kw):
    ps = leaves(pp)
    kl = D.kl_divergence(make(pf, ps, kw), make(qf, qp, kw.get("q_kw", kw)))
    other = {"op": qf, "args": [enc(a) for a in qp]}
    add("kl/%s-%s" % (pf, qf), pf, pp, dict(kw, method="kl", other=other),
        [enc(kl)] + (grads(kl, ps) if kl.requires_grad else []))


def gamma_beta_dirichlet_poisson_binomial(loc, scale, low, high, rate, probs):
    """Gamma, Beta, Dirichlet, Poisson and Binomial: values, same-seed samples, reparameterised gradients, KL pairs,
    the implicit-gradient primitives on a grid that reaches each of their approximation branches, and errors."""
    conc, grate = t([0.3, 1.4, 2.5, 12.0]), t([1.0, 0.5, 2.0, 3.0])
    gx = t([[0.2, 1.5, 0.7, 3.0], [2.0, 0.05, 1.2, 4.5]])
    # Gamma.cdf (torch.special.gammainc) is not in JTorch yet
    evaluate("Gamma", "Gamma", [conc, grate], {}, gx, skip=("cdf",))
    sampling("Gamma", "Gamma", [conc, grate], {}, (3,), 21)
    sampling("Gamma/float32", "Gamma", [conc.float(), grate.float()], {}, (2,), 22)
    c1, c0 = t([0.5, 2.0, 3.0, 9.0]), t([0.7, 1.3, 8.0, 7.5])
    bx = t([[0.2, 0.9, 0.3, 0.55], [0.6, 0.01, 0.25, 0.5]])
    evaluate("Beta", "Beta", [c1, c0], {}, bx)
    sampling("Beta", "Beta", [c1, c0], {}, (3,), 23)
    dc = t([[0.4, 1.0, 2.5], [3.0, 7.0, 0.8]])
    dx = t([[[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]], [[0.7, 0.2, 0.1], [0.3, 0.3, 0.4]]])
    evaluate("Dirichlet", "Dirichlet", [dc], {}, dx)
    evaluate("Dirichlet/mode-below-one", "Dirichlet", [t([[0.5, 0.7, 0.2], [0.9, 1.5, 3.0]])], {})
    sampling("Dirichlet", "Dirichlet", [dc], {}, (2,), 24)
    prate = t([0.0, 0.7, 4.0, 25.0])
    evaluate("Poisson", "Poisson", [prate], {}, t([[0.0, 1.0, 3.0, 20.0], [0.0, 0.0, 7.0, 31.0]]))
    sampling("Poisson", "Poisson", [t([0.7, 4.0, 25.0, 150.0])], {}, (3,), 25)
    count = t([5.0, 10.0, 40.0, 100.0])
    # (n + 1) p below n: no tie between the mode's floor and its clamp at n, whose gradient changed in 2.14
    bprobs = t([0.3, 0.85, 0.5, 0.2])
    for param, v in (("probs", bprobs), ("logits", t([-1.0, 1.6, 0.0, -1.4]))):
        evaluate("Binomial/" + param, "Binomial", [count, v], {"param": param},
                 t([[0.0, 10.0, 17.0, 22.0], [5.0, 9.0, 40.0, 0.0]]))
        sampling("Binomial/" + param, "Binomial", [count, v], {"param": param}, (3,), 26)
    evaluate("Binomial/homogeneous", "Binomial", [t([6.0, 6.0]), t([0.3, 0.8])], {"param": "probs"})

    kl_pairs = [
        ("Gamma", [conc, grate], "Gamma", [t([1.0, 2.0, 0.5, 10.0]), t([2.0, 0.7, 1.0, 2.5])], {}),
        ("Beta", [c1, c0], "Beta", [t([1.0, 2.0, 0.5, 10.0]), t([2.0, 0.7, 1.0, 2.5])], {}),
        ("Dirichlet", [dc], "Dirichlet", [t([[1.0, 2.0, 0.5], [0.3, 4.0, 1.0]])], {}),
        ("Poisson", [t([0.5, 2.0, 7.0])], "Poisson", [t([1.0, 2.5, 3.0])], {}),
        ("Binomial", [t([5.0, 10.0, 8.0]), t([0.3, 0.6, 0.9])], "Binomial", [t([5.0, 7.0, 8.0]), t([0.5, 0.2, 0.4])],
         {"param": "probs"}),
        ("Bernoulli", [probs], "Poisson", [t([1.0, 2.5, 3.0])], {"param": "probs", "q_kw": {}}),
        ("Beta", [c1, c0], "Exponential", [t([1.0, 2.0, 0.5, 3.0])], {}),
        ("Beta", [c1, c0], "Gamma", [t([1.0, 2.0, 0.5, 10.0]), t([2.0, 0.7, 1.0, 2.5])], {}),
        ("Beta", [c1, c0], "Normal", [t([0.0, 0.5, 1.0, -1.0]), t([1.0, 0.3, 2.0, 0.5])], {}),
        ("Beta", [c1, c0], "Uniform", [t([0.0, -1.0, 0.1, 0.0]), t([1.0, 2.0, 1.0, 0.9])], {}),
        ("Exponential", [rate], "Gamma", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])], {}),
        ("Gamma", [conc, grate], "Exponential", [t([1.0, 2.0, 0.5, 3.0])], {}),
        ("Gamma", [conc, grate], "Normal", [t([0.0, 0.5, 1.0, -1.0]), t([1.0, 0.3, 2.0, 0.5])], {}),
        ("Uniform", [t([0.1, 0.0, 0.5]), t([0.9, 0.4, 1.5])], "Beta", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])], {}),
        ("Uniform", [t([0.1, -1.0, 0.5]), t([0.9, 0.4, 1.5])], "Gamma", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])],
         {}),
        ("Gamma", [conc, grate], "Beta", [t([1.0, 2.0, 0.5, 1.0]), t([2.0, 0.7, 1.0, 1.0])], {}),
        ("Gamma", [conc, grate], "Uniform", [t([0.0, 0.0, 0.0, 0.0]), t([1.0, 2.0, 3.0, 4.0])], {}),
        ("Exponential", [rate], "Beta", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])], {}),
        ("Exponential", [rate], "Uniform", [t([0.0, 0.0, 0.0]), t([1.0, 2.0, 3.0])], {}),
        ("Normal", [loc, scale], "Gamma", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])], {}),
        ("Normal", [loc, scale], "Exponential", [rate], {}),
        ("Laplace", [loc, scale], "Beta", [t([1.0, 2.0, 0.5]), t([2.0, 0.7, 1.0])], {}),
        ("Laplace", [loc, scale], "Uniform", [low, high], {}),
        ("Poisson", [t([0.5, 2.0, 7.0])], "Binomial", [t([5.0, 7.0, 8.0]), t([0.5, 0.2, 0.4])],
         {"q_kw": {"param": "probs"}}),
        ("Poisson", [t([0.5, 2.0, 7.0])], "Bernoulli", [t([0.5, 0.2, 0.4])], {"q_kw": {"param": "probs"}}),
    ]
    for pf, pp, qf, qp, kw in kl_pairs:
        kl_case(pf, pp, qf, qp, kw)

    # the implicit gradients on grids reaching every branch: small x, large alpha near and away from the mode,
    # the rational fit; and for the Dirichlet the small-x, near-1, large-parameter and rational branches
    alphas = t([0.2, 0.9, 2.0, 5.0, 9.0, 30.0, 100.0])
    xs = t([0.01, 0.3, 0.79, 1.0, 2.5, 8.5, 9.5, 28.0, 31.0, 60.0, 100.0, 140.0])
    a_grid, x_grid = torch.meshgrid(alphas, xs, indexing="ij")
    add("op/_standard_gamma_grad", "_standard_gamma_grad", [a_grid, x_grid], {"method": "op"},
        [enc(torch._standard_gamma_grad(a_grid, x_grid))])
    dx_vals = t([0.001, 0.05, 0.3, 0.5, 0.62, 0.9, 0.999])
    d_alpha = t([0.3, 1.5, 4.0, 8.0, 20.0])
    d_total = t([1.0, 3.0, 10.0, 16.0, 45.0])
    gx3, ga3, gt3 = torch.meshgrid(dx_vals, d_alpha, d_total, indexing="ij")
    keep = gt3 > ga3
    gx3, ga3, gt3 = gx3[keep], ga3[keep], gt3[keep]
    add("op/_dirichlet_grad", "_dirichlet_grad", [gx3, ga3, gt3], {"method": "op"},
        [enc(torch._dirichlet_grad(gx3, ga3, gt3))])

    error("error/Gamma/concentration", "Gamma", [t([1.0, -1.0]), t([1.0, 1.0])], {})
    error("error/Gamma/value", "Gamma", [t([1.0, 2.0]), t([1.0, 1.0])], {}, t([-0.5, 0.6]))
    error("error/Beta/concentration", "Beta", [t([1.0, 0.0]), t([1.0, 1.0])], {})
    error("error/Beta/value", "Beta", [t([1.0, 4.0]), t([1.0, 4.0])], {}, t([1.5, 0.2]))
    error("error/Dirichlet/0-d", "Dirichlet", [t(1.0)], {})
    error("error/Dirichlet/concentration", "Dirichlet", [t([1.0, -1.0])], {})
    error("error/Dirichlet/value", "Dirichlet", [t([1.0, 2.0])], {}, t([0.5, 0.6]))
    error("error/Poisson/rate", "Poisson", [t([-1.0, 4.0])], {})
    error("error/Poisson/value", "Poisson", [t([1.0, 4.0])], {}, t([1.5, 2.0]))
    error("error/Binomial/count", "Binomial", [t([3.5, 4.0]), t([0.5, 0.2])], {"param": "probs"})
    error("error/Binomial/probs", "Binomial", [t([3.0, 4.0]), t([0.5, 1.2])], {"param": "probs"})
    error("error/Binomial/value", "Binomial", [t([3.0, 4.0]), t([0.5, 0.2])], {"param": "probs"}, t([4.0, 2.0]))


def main():
    loc, scale = t([0.5, -1.0, 2.0]), t([1.0, 0.5, 2.5])
    x = t([[0.3, -2.0, 4.0], [1.0, 0.0, -1.5]])
    q = t([0.1, 0.5, 0.9])
    evaluate("Normal", "Normal", [loc, scale], {}, x, q)
    sampling("Normal", "Normal", [loc, scale], {}, (4,), 0)
    sampling("Normal/float32", "Normal", [loc.float(), scale.float()], {}, (2, 3), 7)
    low, high = t([0.0, -1.0, 2.0]), t([1.0, 3.0, 2.5])
    # no value on a bound: there clamp's gradient is 0 since 2.14 (the 2.15 rule), g in this 2.13 reference
    evaluate("Uniform", "Uniform", [low, high], {}, t([[0.5, 0.1, 2.2], [0.9, 2.9, 2.1]]), q)
    sampling("Uniform", "Uniform", [low, high], {}, (5,), 1)
    probs = t([0.2, 0.5, 0.9])
    for param, v in (("probs", probs), ("logits", t([-1.0, 0.0, 2.5]))):
        evaluate("Bernoulli/" + param, "Bernoulli", [v], {"param": param}, t([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]]))
        sampling("Bernoulli/" + param, "Bernoulli", [v], {"param": param}, (6,), 2)
    cat_probs = t([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]])
    cat_logits = t([[0.0, 1.0, -1.0, 2.0], [0.5, 0.5, 0.5, 0.5]])
    for param, v in (("probs", cat_probs), ("logits", cat_logits)):
        k = v.shape[-1]
        evaluate("Categorical/" + param, "Categorical", [v], {"param": param}, t([[0.0, 2.0], [1.0, float(k - 1)]]))
        sampling("Categorical/" + param, "Categorical", [v], {"param": param}, (7,), 3)
        sampling("Categorical/" + param + "/no-shape", "Categorical", [v], {"param": param}, (), 4)
        onehot = torch.nn.functional.one_hot(torch.tensor([[1, 0], [k - 1, 2]]), k).to(f64)
        evaluate("OneHotCategorical/" + param, "OneHotCategorical", [v], {"param": param}, onehot)
        sampling("OneHotCategorical/" + param, "OneHotCategorical", [v], {"param": param}, (3,), 5)
    rate = t([0.5, 1.0, 3.0])
    evaluate("Exponential", "Exponential", [rate], {}, t([[0.0, 1.5, 0.2], [3.0, 0.1, 1.0]]), q)
    sampling("Exponential", "Exponential", [rate], {}, (4,), 6)
    evaluate("Laplace", "Laplace", [loc, scale], {}, x, q)
    sampling("Laplace", "Laplace", [loc, scale], {}, (4,), 8)
    evaluate("LogNormal", "LogNormal", [loc, scale], {}, t([[0.3, 2.0, 4.0], [1.0, 0.1, 1.5]]), q)
    sampling("LogNormal", "LogNormal", [loc, scale], {}, (3,), 9)
    evaluate("IndependentNormal", "IndependentNormal", [loc, scale], {}, x)
    sampling("IndependentNormal", "IndependentNormal", [loc, scale], {}, (2,), 10)
    evaluate("SigmoidAffineNormal", "SigmoidAffineNormal", [loc, scale], {}, t([[0.3, 0.01, 0.9], [0.5, 0.2, 0.7]]), q)
    sampling("SigmoidAffineNormal", "SigmoidAffineNormal", [loc, scale], {}, (3,), 11)
    evaluate("TanhNormal", "TanhNormal", [loc, scale], {}, t([[0.3, -0.9, 0.5], [0.0, 0.2, -0.7]]), q)

    mloc = t([[0.5, -1.0, 2.0], [0.0, 0.3, -0.2]])
    a = t([[1.0, 0.2, -0.3], [0.1, 0.8, 0.4], [-0.5, 0.3, 1.2]])
    cov = a @ a.T + 0.5 * torch.eye(3, dtype=f64)
    mx = t([[0.3, -2.0, 4.0], [1.0, 0.0, -1.5]])
    for kind, m in (("covariance_matrix", cov), ("scale_tril", torch.linalg.cholesky(cov)),
                    ("precision_matrix", torch.linalg.inv(cov))):
        evaluate("MVN/" + kind, "MVN", [mloc, m], {"param": kind}, mx)
        sampling("MVN/" + kind, "MVN", [mloc, m], {"param": kind}, (2,), 12)
    error("error/MVN/not-positive-definite", "MVN", [mloc, -cov], {"param": "covariance_matrix"})

    # kl_divergence: "other" holds q's family and parameters
    pairs = [
        ("Normal", [loc, scale], "Normal", [t([0.0, 1.0, 2.5]), t([2.0, 0.7, 1.0])], {}),
        ("Uniform", [low, high], "Uniform", [t([-1.0, -2.0, 2.2]), t([2.0, 4.0, 3.0])], {}),
        ("Uniform", [low, high], "Normal", [loc, scale], {}),
        ("Uniform", [t([0.0, 1.0, 2.0]), t([1.0, 3.0, 2.5])], "Exponential", [rate], {}),
        ("Exponential", [rate], "Exponential", [t([1.0, 2.0, 0.5])], {}),
        ("Exponential", [rate], "Normal", [loc, scale], {}),
        ("Laplace", [loc, scale], "Laplace", [t([0.0, 1.0, 2.5]), t([2.0, 0.7, 1.0])], {}),
        ("LogNormal", [loc, scale], "LogNormal", [t([0.0, 1.0, 2.5]), t([2.0, 0.7, 1.0])], {}),
        ("IndependentNormal", [loc, scale], "IndependentNormal", [t([0.0, 1.0, 2.5]), t([2.0, 0.7, 1.0])], {}),
        ("Bernoulli", [probs], "Bernoulli", [t([0.4, 0.5, 0.1])], {"param": "probs"}),
        ("Categorical", [cat_probs], "Categorical", [t([[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]])], {"param": "probs"}),
        ("OneHotCategorical", [cat_probs], "OneHotCategorical", [t([[0.3, 0.3, 0.4], [0.1, 0.1, 0.8]])],
         {"param": "probs"}),
    ]
    pairs.append(("MVN", [mloc, cov], "MVN", [t([0.1, 0.2, 0.3]), 2.0 * torch.eye(3, dtype=f64) + 0.1],
                  {"param": "covariance_matrix"}))
    for pf, pp, qf, qp, kw in pairs:
        ps = leaves(pp)
        kl = D.kl_divergence(make(pf, ps, kw), make(qf, qp, kw))
        other = {"op": qf, "args": [enc(a) for a in qp]}
        add("kl/%s-%s" % (pf, qf), pf, pp, dict(kw, method="kl", other=other), [enc(kl)] + grads(kl, ps))
    # a point of p outside q's support: infinite
    ps = leaves([t([0.0]), t([2.0])])
    kl = D.kl_divergence(D.Uniform(*ps), D.Uniform(t([0.5]), t([3.0])))
    add("kl/Uniform-Uniform/outside", "Uniform", [t([0.0]), t([2.0])],
        {"method": "kl", "other": {"op": "Uniform", "args": [enc(t([0.5])), enc(t([3.0]))]}}, [enc(kl)] + grads(kl, ps))

    error("error/Normal/scale", "Normal", [loc, t([1.0, -0.5, 2.0])], {})
    error("error/Uniform/low-high", "Uniform", [high, low], {})
    error("error/Bernoulli/probs", "Bernoulli", [t([0.5, 1.5])], {"param": "probs"})
    error("error/Exponential/rate", "Exponential", [t([0.0, 1.0])], {})
    error("error/Normal/value-nan", "Normal", [loc, scale], {}, t([0.0, float("nan"), 1.0]))
    error("error/Exponential/value-negative", "Exponential", [rate], {}, t([1.0, -1.0, 1.0]))
    error("error/Bernoulli/value", "Bernoulli", [probs], {"param": "probs"}, t([0.5, 1.0, 0.0]))
    error("error/LogNormal/value", "LogNormal", [loc, scale], {}, t([1.0, 0.0, 2.0]))
    gamma_beta_dirichlet_poisson_binomial(loc, scale, low, high, rate, probs)
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "distributions.json"), CASES, "make_golden_distributions.py")


if __name__ == "__main__":
    main()

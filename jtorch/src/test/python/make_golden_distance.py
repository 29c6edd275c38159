#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's pairwise distances (cdist, pdist).

What it makes
    jtorch/src/test/resources/golden/distance.json: values of torch.cdist
    (p = 0, 0.5, 1, 1.5, 2, 3, inf; the three compute modes; batch dims that
    broadcast; non-contiguous, empty and zero-column inputs; identical points)
    and torch.pdist, their first-order gradients, second-order gradients, the
    errors for bad input, and float16/bfloat16 cdist and aten::_cdist_forward
    on the matrix-product route (the only one PyTorch's CPU build has for
    them; the Java test compares those bit for bit).  DistanceOpsTest reads
    the committed JSON.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_distance.py
    with PyTorch 2.13 (CPU wheel) in that python.

Format
    That of make_golden_core.py (see its header), plus these ops:
    "_cdist_forward" args [x1, x2], kwargs {p, compute_mode?} (compute_mode
                  as aten's integer code): torch.ops.aten._cdist_forward.
    "cdist_grad"  args [x1, x2, w], kwargs {p, compute_mode}: the gradients
                  [d/dx1, d/dx2] of sum(w * cdist(x1, x2, p, compute_mode)).
    "pdist_grad"  args [x, w], kwargs {p}: [d/dx] of sum(w * pdist(x, p)).
    "cdist_gradgrad" args [x1, x2, w, v1, v2], kwargs {p, compute_mode}: the
                  gradients [d/dx1, d/dx2] of sum(v1 * g1) + sum(v2 * g2) where
                  (g1, g2) is the "cdist_grad" of (x1, x2, w).
    "pdist_gradgrad" args [x, w, v], kwargs {p}: [d/dx] of sum(v * g), g the
                  "pdist_grad" of (x, w).

2.13 versus 2.15
    PyTorch 2.13 cannot differentiate _cdist_backward / _pdist_backward
    (second order arrived in 2.14), so the second-order references of the
    direct path are computed from the plain formula
    (sum_k |x1_ik - x2_jk|^p)^(1/p) written with differentiable ops (max of
    |d| for p = inf), on inputs away from ties and zero differences, where
    both are the same function; those cases carry a note.  The
    matrix-product path (_euclidean_dist) is twice differentiable in 2.13 and
    is recorded as is.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_golden_core as g  # noqa: E402  (sets seeds, thread count, encoders)
import torch  # noqa: E402

OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "distance.json"))

f32, f64 = torch.float32, torch.float64
INF = float("inf")
NC = g.NC
PS = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, INF]
MODES = ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"]
NOTE_PLAIN = "2.13 has no double backward of _cdist_backward/_pdist_backward: reference from the plain differentiable formula"


def case(cid, op, args, kwargs=None, fn=None, note=None, error=None):
    return g.add_case(cid, op, args, kwargs or {}, fn=fn, note=note, error=error)


def spread(key, shape, dt=f64):
    """Values in [-2, 2] with distinct components, so no difference is 0 and no max ties."""
    return ((torch.rand(shape, generator=g.gen(key), dtype=f64) * 4 - 2)).to(dt)


def leaf(t):
    return t.detach().clone().requires_grad_(True)


def cdist_grad(x1, x2, w, p=2.0, compute_mode=MODES[0]):
    a, b = leaf(x1), leaf(x2)
    d = torch.cdist(a, b, p=p, compute_mode=compute_mode)
    return list(torch.autograd.grad((d * w).sum(), [a, b]))


def pdist_grad(x, w, p=2.0):
    a = leaf(x)
    return list(torch.autograd.grad((torch.pdist(a, p) * w).sum(), [a]))


def plain_cdist(a, b, p):
    diff = (a.unsqueeze(-2) - b.unsqueeze(-3)).abs()
    if p == INF:
        return diff.amax(-1)
    return diff.pow(p).sum(-1).pow(1.0 / p)


def plain_pdist(x, p):
    n = x.shape[0]
    i, j = torch.triu_indices(n, n, 1)
    diff = (x[i] - x[j]).abs()
    if p == INF:
        return diff.amax(-1)
    return diff.pow(p).sum(-1).pow(1.0 / p)


def cdist_gradgrad(x1, x2, w, v1, v2, p=2.0, compute_mode=MODES[0]):
    a, b = leaf(x1), leaf(x2)
    mm = p == 2.0 and (compute_mode == MODES[1] or compute_mode == MODES[0] and max(a.shape[-2], b.shape[-2]) > 25)
    d = torch.cdist(a, b, p=p, compute_mode=compute_mode) if mm else plain_cdist(a, b, p)
    g1, g2 = torch.autograd.grad((d * w).sum(), [a, b], create_graph=True)
    return list(torch.autograd.grad((g1 * v1).sum() + (g2 * v2).sum(), [a, b]))


def pdist_gradgrad(x, w, v, p=2.0):
    a = leaf(x)
    (gx,) = torch.autograd.grad((plain_pdist(a, p) * w).sum(), [a], create_graph=True)
    return list(torch.autograd.grad((gx * v).sum(), [a]))


# ---------------------------------------------------------------- values

def cdist_values():
    g.family("cdist")
    for dt in [f32, f64]:
        d = g.dname(dt)
        x1, x2 = spread("c1/" + d, (4, 3), dt), spread("c2/" + d, (5, 3), dt)
        for p in PS:
            case("cdist/%s/p%s" % (d, p), "cdist", [x1, x2], {"p": p})
        # the matrix-product path: forced, by size (> 25 rows), and refused
        big1, big2 = spread("cb1/" + d, (30, 4), dt), spread("cb2/" + d, (7, 4), dt)
        for mode in MODES:
            case("cdist/%s/%s" % (d, mode), "cdist", [x1, x2], {"compute_mode": mode})
            case("cdist/%s/big-%s" % (d, mode), "cdist", [big1, big2], {"compute_mode": mode})
        case("cdist/%s/big-p1" % d, "cdist", [big1, big2], {"p": 1.0})
    # batches that broadcast, non-contiguous inputs
    b1, b2 = spread("cbatch1", (2, 1, 3, 2)), spread("cbatch2", (4, 5, 2))
    for p in [1.0, 2.0, INF]:
        case("cdist/float64/batch-broadcast-p%s" % p, "cdist", [b1, b2], {"p": p})
    case("cdist/float64/batch-broadcast-mm", "cdist", [b1, b2], {"compute_mode": MODES[1]})
    case("cdist/float32/transposed", "cdist", [NC(spread("cnc1", (3, 4), f32)), NC(spread("cnc2", (3, 5), f32))], {"p": 3.0})
    case("cdist/float32/transposed-mm", "cdist", [NC(spread("cnc1", (3, 4), f32)), NC(spread("cnc2", (3, 5), f32))],
         {"compute_mode": MODES[1]})
    # shapes at the edges
    case("cdist/float32/empty-rows", "cdist", [torch.empty(0, 3), spread("ce", (4, 3), f32)])
    case("cdist/float32/empty-batch", "cdist", [torch.empty(0, 2, 3), spread("ce", (4, 3), f32)])
    case("cdist/float32/zero-columns", "cdist", [torch.empty(3, 0), torch.empty(4, 0)])
    # identical points: exactly 0 on the direct path
    same = torch.tensor([[1.0, 1.0], [0.0, 0.0], [3.0, 4.0]])
    for p in PS:
        case("cdist/float32/identical-p%s" % p, "cdist", [same, same], {"p": p, "compute_mode": MODES[2]})
    # spec worked example
    x1 = torch.tensor([[0.0, 0.0], [3.0, 4.0]], dtype=f64)
    x2 = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=f64)
    for p in [0.0, 1.0, 2.0, 3.0, INF]:
        case("cdist/float64/spec-p%s" % p, "cdist", [x1, x2], {"p": p})


def cdist_errors():
    g.family("cdist-errors")
    a, b = torch.ones(3, 2), torch.ones(4, 2)
    case("cdist/error/1d-x1", "cdist", [torch.ones(2), b], error="cdist only supports at least 2D tensors, X1 got: 1D")
    case("cdist/error/1d-x2", "cdist", [a, torch.ones(2)], error="cdist only supports at least 2D tensors, X2 got: 1D")
    case("cdist/error/columns", "cdist", [a, torch.ones(4, 3)], error="X1 and X2 must have the same number of columns. X1: 2 X2: 3")
    case("cdist/error/int-x1", "cdist", [a.long(), b], error="cdist only supports floating-point dtypes, X1 got: Long")
    case("cdist/error/int-x2", "cdist", [a, b.int()], error="cdist only supports floating-point dtypes, X2 got: Int")
    case("cdist/error/complex", "cdist", [a.cfloat(), b.cfloat()], error="cdist only supports floating-point dtypes, X1 got: ComplexFloat")
    case("cdist/error/half", "cdist", [a.half(), b.half()], error="\"cdist\" not implemented for 'Half'")
    case("cdist/error/mixed", "cdist", [a, b.double()], error="expected scalar type Float but found Double")
    case("cdist/error/negative-p", "cdist", [a, b], {"p": -1.0}, error="cdist only supports non-negative p values")
    case("cdist/error/nan-p", "cdist", [a, b], {"p": float("nan")}, error="cdist only supports non-negative p values")
    case("cdist/error/batch", "cdist", [torch.ones(2, 3, 2), torch.ones(3, 4, 2)],
         error="The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
    case("cdist/error/mode", "cdist", [a, b], {"compute_mode": "fast"}, error="fast is not a valid value for compute_mode")


def pdist_values():
    g.family("pdist")
    for dt in [f32, f64]:
        d = g.dname(dt)
        x = spread("p/" + d, (6, 3), dt)
        for p in PS:
            case("pdist/%s/p%s" % (d, p), "pdist", [x], {"p": p})
    case("pdist/float32/transposed", "pdist", [NC(spread("pnc", (3, 5), f32))], {"p": 1.5})
    case("pdist/float64/long-rows", "pdist", [spread("plong", (40, 2))])
    case("pdist/float32/one-row", "pdist", [torch.ones(1, 3)])
    case("pdist/float32/no-rows", "pdist", [torch.empty(0, 3)])
    case("pdist/float32/zero-columns", "pdist", [torch.empty(3, 0)])
    case("pdist/float32/spec", "pdist", [torch.tensor([[0.0, 0.0], [1.0, 2.0], [2.0, 0.0], [3.0, 3.0]])])
    same = torch.tensor([[1.0, 1.0], [1.0, 1.0], [3.0, 4.0]])
    for p in PS:
        case("pdist/float32/identical-p%s" % p, "pdist", [same], {"p": p})
    g.family("pdist-errors")
    case("pdist/error/3d", "pdist", [torch.ones(2, 3, 2)], error="pdist only supports 2D tensors, got: 3D")
    case("pdist/error/1d", "pdist", [torch.ones(3)], error="pdist only supports 2D tensors, got: 1D")
    case("pdist/error/int", "pdist", [torch.ones(3, 2).long()], error="pdist only supports floating-point dtypes")
    case("pdist/error/negative-p", "pdist", [torch.ones(3, 2)], {"p": -0.5}, error="pdist only supports non-negative p values")
    case("pdist/error/half", "pdist", [torch.ones(3, 2).half()], error="\"pdist\" not implemented for 'Half'")


# ---------------------------------------------------------------- gradients

def gradients():
    g.family("grad")
    x1, x2 = spread("g1", (4, 3)), spread("g2", (5, 3))
    w = spread("gw", (4, 5))
    for p in PS:
        case("cdist_grad/float64/p%s" % p, "cdist_grad", [x1, x2, w], {"p": p}, fn=cdist_grad)
    big1, big2, bigw = spread("gb1", (27, 3)), spread("gb2", (4, 3)), spread("gbw", (27, 4))
    for mode in MODES:
        case("cdist_grad/float64/big-%s" % mode, "cdist_grad", [big1, big2, bigw], {"compute_mode": mode}, fn=cdist_grad)
    b1, b2, bw = spread("gbb1", (2, 1, 3, 2)), spread("gbb2", (4, 5, 2)), spread("gbbw", (2, 4, 3, 5))
    case("cdist_grad/float64/batch-broadcast-p3", "cdist_grad", [b1, b2, bw], {"p": 3.0}, fn=cdist_grad)
    case("cdist_grad/float64/batch-broadcast-mm", "cdist_grad", [b1, b2, bw], {"compute_mode": MODES[1]}, fn=cdist_grad)
    # zero distances and zero differences: the conventions of the spec
    same = torch.tensor([[1.0, 1.0], [0.0, 2.0], [3.0, 4.0]], dtype=f64)
    other = torch.tensor([[1.0, 1.0], [0.0, 5.0]], dtype=f64)
    ones = torch.ones(3, 2, dtype=f64)
    for p in PS:
        case("cdist_grad/float64/zero-p%s" % p, "cdist_grad", [same, other, ones], {"p": p, "compute_mode": MODES[2]},
             fn=cdist_grad)
    case("cdist_grad/float64/zero-mm", "cdist_grad", [same, other, ones], {"compute_mode": MODES[1]}, fn=cdist_grad)
    x, pw = spread("gp", (5, 3)), spread("gpw", (10,))
    for p in PS:
        case("pdist_grad/float64/p%s" % p, "pdist_grad", [x, pw], {"p": p}, fn=pdist_grad)
    dup = torch.tensor([[1.0, 1.0], [1.0, 1.0], [1.0, 4.0]], dtype=f64)
    for p in PS:
        case("pdist_grad/float64/zero-p%s" % p, "pdist_grad", [dup, torch.ones(3, dtype=f64)], {"p": p}, fn=pdist_grad)

    g.family("gradgrad")
    v1, v2 = spread("gv1", (4, 3)), spread("gv2", (5, 3))
    for p in [0.5, 1.5, 2.0, 3.0]:
        case("cdist_gradgrad/float64/p%s" % p, "cdist_gradgrad", [x1, x2, w, v1, v2], {"p": p, "compute_mode": MODES[2]},
             fn=cdist_gradgrad, note=NOTE_PLAIN)
    bv1, bv2 = spread("gbv1", (27, 3)), spread("gbv2", (4, 3))
    case("cdist_gradgrad/float64/mm", "cdist_gradgrad", [big1, big2, bigw, bv1, bv2], {"compute_mode": MODES[1]},
         fn=cdist_gradgrad)
    pv = spread("gpv", (5, 3))
    for p in [0.5, 1.5, 2.0, 3.0]:
        case("pdist_gradgrad/float64/p%s" % p, "pdist_gradgrad", [x, pw, pv], {"p": p}, fn=pdist_gradgrad, note=NOTE_PLAIN)


# ---------------------------------------------------------------- float16 / bfloat16

def forward_op(x1, x2, p=2.0, compute_mode=None):
    """aten::_cdist_forward itself (torch.cdist picks _euclidean_dist or it; the internal op routes again)."""
    return torch.ops.aten._cdist_forward(x1, x2, p, compute_mode)


def half_precision_values():
    """cdist on the matrix-product route, the only one with float16/bfloat16 kernels in PyTorch's CPU build.

    ATen composes _euclidean_dist from ops of the input's dtype (pow, sum, cat, matmul, clamp_min_, sqrt_), so these
    values carry its roundings; the Java test compares them bit for bit.
    """
    g.family("cdist-half")
    for dt in [torch.float16, torch.bfloat16]:
        d = g.dname(dt)
        x1, x2 = spread("h1/" + d, (4, 3), dt), spread("h2/" + d, (5, 3), dt)
        case("cdist/%s/mm" % d, "cdist", [x1, x2], {"compute_mode": MODES[1]})
        big1, big2 = spread("hb1/" + d, (30, 8), dt), spread("hb2/" + d, (7, 8), dt)
        case("cdist/%s/big" % d, "cdist", [big1, big2])
        wide1 = (torch.randn((27, 200), generator=g.gen("hw1/" + d), dtype=f64) * 3).to(dt)
        wide2 = (torch.randn((26, 200), generator=g.gen("hw2/" + d), dtype=f64) * 3).to(dt)
        case("cdist/%s/wide" % d, "cdist", [wide1, wide2])
        case("cdist/%s/batch-broadcast-mm" % d, "cdist",
             [spread("hbb1/" + d, (2, 1, 3, 5), dt), spread("hbb2/" + d, (4, 5, 5), dt)], {"compute_mode": MODES[1]})
        case("cdist/%s/transposed-mm" % d, "cdist", [NC(spread("hnc1/" + d, (3, 4), dt)), NC(spread("hnc2/" + d, (3, 5), dt))],
             {"compute_mode": MODES[1]})
        same = spread("hsame/" + d, (3, 4), dt)
        case("cdist/%s/identical-mm" % d, "cdist", [same, same], {"compute_mode": MODES[1]})
        # squared norms past float16's range: inf - inf in the cross term gives NaN, as in PyTorch
        large = (spread("hl/" + d, (4, 3), f64) * 100 + 250).to(dt)
        case("cdist/%s/large-values-mm" % d, "cdist", [large, -large], {"compute_mode": MODES[1]})
        case("cdist/%s/zero-columns-mm" % d, "cdist", [torch.empty(3, 0, dtype=dt), torch.empty(4, 0, dtype=dt)],
             {"compute_mode": MODES[1]})
        case("cdist/%s/empty-rows" % d, "cdist", [torch.empty(0, 3, dtype=dt), spread("he/" + d, (4, 3), dt)])
        case("_cdist_forward/%s/mm" % d, "_cdist_forward", [x1, x2], {"p": 2.0, "compute_mode": 1}, fn=forward_op)
        case("_cdist_forward/%s/big" % d, "_cdist_forward", [big1, big2], {"p": 2.0}, fn=forward_op)
        name = "Half" if dt == torch.float16 else "BFloat16"
        message = "\"cdist\" not implemented for '%s'" % name
        case("cdist/error/%s-p1" % d, "cdist", [x1, x2], {"p": 1.0}, error=message)
        case("cdist/error/%s-no-mm" % d, "cdist", [big1, big2], {"compute_mode": MODES[2]}, error=message)
        case("_cdist_forward/error/%s-direct" % d, "_cdist_forward", [x1, x2], {"p": 2.0, "compute_mode": 2},
             fn=forward_op, error=message)


# ================================================================ main

def write(path):
    import json
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in g.CASES]
    head = '{"cases":[\n'
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_distance.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(head + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)
    return os.path.getsize(path)


def main():
    cdist_values()
    cdist_errors()
    pdist_values()
    gradients()
    half_precision_values()
    size = write(OUT)
    err = sys.stderr
    err.write("wrote %s: %d cases, %d bytes\n" % (os.path.relpath(OUT), len(g.CASES), size))
    for fam in sorted(g.FAMILY_COUNT):
        err.write("  %-14s %5d\n" % (fam, g.FAMILY_COUNT[fam]))
    for w in g.WARNINGS:
        err.write("WARNING %s\n" % w)
    if g.WARNINGS:
        sys.exit(1)


if __name__ == "__main__":
    main()

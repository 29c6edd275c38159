#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's order and bucketing ops.

What it makes
    jtorch/src/test/resources/golden/sort.json: reference inputs and outputs
    computed by real PyTorch for sort, argsort, msort, topk, kthvalue,
    cummax, cummin, searchsorted, bucketize, unique, unique_consecutive,
    histc and bincount: several dims, descending/stable, NaN placement, ties,
    empty and 0-d inputs, non-contiguous (transposed) inputs, bool, integer,
    float16/bfloat16 dtypes, long rows (the radix and selection paths), and
    error cases.  SortOpsTest reads the committed JSON, so CI needs no Python.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_sort.py

Format
    Exactly that of make_golden_core.py (see its header); this script reuses
    its encoders and case store.  Multi-output results (torch.return_types,
    unique's tuple) are lists of tensors in PyTorch's order.  Ops are called
    as torch.<op>(*args, **kwargs).

Determinism
    Inputs come from fixed values or generators seeded from the case id;
    one intra-op thread; the output is byte-identical between runs.

Ties
    PyTorch only fixes the order of equal elements for stable=True.  A case
    that sorts ties with stable=False is refused here (the script fails), so
    every recorded order is the stable one, which JTorch always gives.
    topk/kthvalue cases use distinct values where the choice among equal
    elements would show; SortOpsTest checks tie behaviour by itself.

2.13 versus 2.15
    The script runs on PyTorch 2.13 (CPU wheel), the version sort.json comes
    from.  Cases whose recorded outcome is the 2.15 contract rather than what
    2.13 gives carry a "note" and are listed as deviations in SortOpsTest:
    ordering complex numbers raises TypeError in 2.15 (RuntimeError in 2.13),
    and some dtype refusals are NotImplementedError.  The notes on unique's
    NaNs, the sorter's range check and histc (NaN dropped, a float16 kernel)
    record how PyTorch 1.13, an earlier reference, differed; 2.13 already
    behaves as 2.15 there.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_golden_core as g  # noqa: E402  (sets seeds, thread count, encoders)
import torch  # noqa: E402

OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "sort.json"))

f32, f64, f16, bf16 = torch.float32, torch.float64, torch.float16, torch.bfloat16
i64, i32, i16, i8, u8 = torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8
NAN, INF = float("nan"), float("inf")
NC = g.NC
NOTE_TYPEERROR = "2.15: ordering complex numbers is a TypeError (1.13: RuntimeError)"

INT_DTYPES = [u8, i8, i16, i32, i64]
REAL_DTYPES = INT_DTYPES + [f16, bf16, f32, f64]


def dn(dt):
    return g.dname(dt)


def gen(key):
    return g.gen(key)


def ints(key, shape, lo, hi, dt=i64):
    return torch.randint(lo, hi, shape, generator=gen(key)).to(dt)


def distinct(key, shape, dt=f32, scale=1.0):
    """A random permutation of 0..n-1 (distinct values), scaled, in dtype dt."""
    n = 1
    for s in shape:
        n *= s
    p = torch.randperm(n, generator=gen(key)).to(f64) * scale
    return p.reshape(shape).to(dt)


def with_ties(key, shape, dt):
    """Few distinct values, so that ties are everywhere."""
    v = torch.randint(-3, 4, shape, generator=gen(key))
    if dt == torch.bool:
        return v > 0
    if dt == u8:
        v = v + 3
    if dt.is_floating_point:
        return (v.to(f64) / 2).to(dt)
    return v.to(dt)


def special_floats(dt):
    return torch.tensor([3.0, NAN, -1.5, 0.0, -INF, 2.0, -0.0, INF, NAN, -1.5, 0.0], dtype=dt)


def case(cid, op, args, kwargs=None, note=None, error=None):
    return g.add_case(cid, op, args, kwargs or {}, note=note, error=error)


def stable_checked(cid, op, args, kwargs):
    """sort/argsort without stable=True: refuse inputs whose ties PyTorch may order unstably."""
    kw = dict(kwargs)
    if not kw.get("stable", False):
        fn = getattr(torch, op)
        a = g.materialize(list(args))
        r = fn(*a, **kw)
        kw2 = dict(kw)
        kw2["stable"] = True
        s = fn(*a, **kw2)
        ri = r[1] if op == "sort" else r
        si = s[1] if op == "sort" else s
        if not torch.equal(ri, si):
            raise SystemExit("%s: stable=False orders ties differently; use stable=True or distinct values" % cid)
    case(cid, op, args, kwargs)


# ---------------------------------------------------------------- sort, argsort, msort

def sort_block():
    g.family("sort")
    for dt in REAL_DTYPES + [torch.bool]:
        d = dn(dt)
        x = with_ties("sort/" + d, (3, 6), dt)
        case("sort/%s/ties-stable" % d, "sort", [x], {"stable": True})
        case("sort/%s/ties-stable-desc" % d, "sort", [x], {"stable": True, "descending": True})
        case("sort/%s/ties-stable-dim0" % d, "sort", [x], {"stable": True, "dim": 0})
        case("sort/%s/ties-stable-nc" % d, "sort", [NC(with_ties("sortnc/" + d, (6, 3), dt))], {"stable": True})
        if dt != torch.bool:
            y = distinct("sortd/" + d, (4, 5), dt)
            stable_checked("sort/%s/distinct" % d, "sort", [y], {})
            stable_checked("sort/%s/distinct-desc-dim0" % d, "sort", [y], {"dim": 0, "descending": True})
        case("argsort/%s/ties-stable-desc" % d, "argsort", [x], {"stable": True, "descending": True, "dim": 1})
        case("msort/%s/ties" % d, "msort", [x])
    for dt in [f16, bf16, f32, f64]:
        d = dn(dt)
        s = special_floats(dt)
        case("sort/%s/nan-inf-zeros" % d, "sort", [s], {"stable": True})
        case("sort/%s/nan-inf-zeros-desc" % d, "sort", [s], {"stable": True, "descending": True})
        case("argsort/%s/nan-inf-zeros" % d, "argsort", [s], {"stable": True})
        case("msort/%s/nan" % d, "msort", [torch.stack([s, s.flip(0)], 1)])
    # shapes
    case("sort/float32/0d", "sort", [torch.tensor(2.5)])
    case("sort/float32/0d-dim0", "sort", [torch.tensor(2.5)], {"dim": 0})
    case("sort/float32/empty", "sort", [torch.empty(0)])
    case("sort/float32/empty-2x0-dim0", "sort", [torch.empty(2, 0)], {"dim": 0})
    case("sort/float32/3d-dim1", "sort", [distinct("sort3d", (2, 3, 4))], {"dim": 1, "stable": True})
    case("sort/float32/3d-nc-dim-1", "sort", [NC(distinct("sort3dnc", (2, 4, 3)), 1, 2)], {"stable": True, "descending": True})
    case("msort/float32/0d", "msort", [torch.tensor(1.5)])
    case("argsort/int64/0d", "argsort", [torch.tensor(7)])
    # long rows: the radix paths (narrow and wide keys) and the merge sort of wide keys
    for dt in [f32, f64, i64, i32, i16]:
        d = dn(dt)
        x = with_ties("sortlong/" + d, (2, 1500), dt)
        case("sort/%s/long-ties-stable" % d, "sort", [x], {"stable": True})
        case("argsort/%s/long-ties-stable-desc" % d, "argsort", [x], {"stable": True, "descending": True})
    z = torch.round(torch.randn(1200, generator=gen("sortlongnan")) * 8) / 8
    z[::7] = NAN
    z[::11] = 0.0
    z[::13] = -0.0
    case("sort/float32/long-nan-zeros", "sort", [z], {"stable": True})
    case("sort/float64/long-nan-zeros-desc", "sort", [z.to(f64)], {"stable": True, "descending": True})
    case("sort/int64/long-negative-extremes", "sort",
         [torch.tensor([2 ** 62, -2 ** 63, 5, -1, 2 ** 63 - 1, 0] * 250, dtype=i64)], {"stable": True})
    case("sort/int32/extremes", "sort", [torch.tensor([2 ** 31 - 1, -2 ** 31, 0, -1, 1], dtype=i32)])
    # errors
    case("sort/error/dim", "sort", [torch.ones(3)], {"dim": 1}, error="Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    case("sort/error/complex", "sort", [torch.ones(3, dtype=torch.complex64)], note=NOTE_TYPEERROR)
    case("argsort/error/complex", "argsort", [torch.ones(3, dtype=torch.complex64)], note=NOTE_TYPEERROR)
    case("msort/error/complex", "msort", [torch.ones(3, dtype=torch.complex64)], note=NOTE_TYPEERROR)


# ---------------------------------------------------------------- topk, kthvalue

def selection_block():
    g.family("selection")
    for dt in [u8, i8, i16, i32, i64, bf16, f32, f64]:
        d = dn(dt)
        x = distinct("topk/" + d, (3, 7), dt)
        case("topk/%s/k3" % d, "topk", [x, 3])
        case("topk/%s/k3-smallest" % d, "topk", [x, 3], {"largest": False})
        case("topk/%s/k2-dim0" % d, "topk", [x, 2], {"dim": 0})
        case("topk/%s/k-all" % d, "topk", [x, 7])
        case("topk/%s/nc" % d, "topk", [NC(distinct("topknc/" + d, (7, 3), dt)), 4], {"largest": False})
        case("kthvalue/%s/k1" % d, "kthvalue", [x, 1])
        case("kthvalue/%s/k4-keepdim" % d, "kthvalue", [x, 4], {"keepdim": True})
        case("kthvalue/%s/k2-dim0" % d, "kthvalue", [x, 2], {"dim": 0})
        case("kthvalue/%s/nc" % d, "kthvalue", [NC(distinct("kthnc/" + d, (7, 3), dt)), 7])
    for dt in [f32, f64]:
        d = dn(dt)
        s = torch.tensor([3.0, NAN, -1.5, 0.5, -INF, 2.0, INF], dtype=dt)
        case("topk/%s/nan-largest" % d, "topk", [s, 3])
        case("topk/%s/nan-smallest" % d, "topk", [s, 7], {"largest": False})
        case("kthvalue/%s/nan-is-largest" % d, "kthvalue", [s, 7])
        case("kthvalue/%s/inf" % d, "kthvalue", [s, 6])
    # long rows: heap selection (k <= 1024), radix selection (k <= n/4), full sort (larger k)
    big = distinct("topkbig", (2, 5000), i32)
    case("topk/int32/long-k7", "topk", [big, 7])
    case("topk/int32/long-k1300", "topk", [big, 1300])
    case("topk/int16/long-k1100-smallest", "topk", [distinct("topkhuge", (5000,), i16) - 2500, 1100], {"largest": False})
    bigf = distinct("topkbigf", (5000,), f64, 0.5) - 1000
    case("topk/float64/long-k40", "topk", [bigf, 40])
    case("topk/float64/long-k1200", "topk", [bigf, 1200])
    case("topk/float64/long-k2000-smallest", "topk", [bigf, 2000], {"largest": False})
    case("kthvalue/int32/long-median", "kthvalue", [big, 10000])
    case("kthvalue/float64/long-k1", "kthvalue", [bigf, 1])
    case("kthvalue/float64/long-k4321", "kthvalue", [bigf, 4321])
    # shapes
    case("topk/float32/0d-k1", "topk", [torch.tensor(4.0), 1])
    case("topk/float32/k0", "topk", [distinct("topk0", (2, 3)), 0])
    case("topk/float32/empty-rows", "topk", [torch.empty(0, 3), 2])
    case("kthvalue/float32/0d", "kthvalue", [torch.tensor(4.0), 1])
    case("kthvalue/float32/empty-rows", "kthvalue", [torch.empty(0, 3), 2])
    case("kthvalue/float32/3d-dim1", "kthvalue", [distinct("kth3d", (2, 5, 3)), 3], {"dim": 1})
    # errors
    case("topk/error/k-too-big", "topk", [torch.ones(5), 6], error="selected index k out of range")
    case("topk/error/k-negative", "topk", [torch.ones(5), -1], error="selected index k out of range")
    case("topk/error/0d-k2", "topk", [torch.tensor(1.0), 2], error="selected index k out of range")
    case("topk/error/dim", "topk", [torch.ones(5), 1], {"dim": 1}, error="Dimension out of range")
    case("topk/error/complex", "topk", [torch.ones(3, dtype=torch.complex64), 1], note=NOTE_TYPEERROR)
    case("topk/error/bool", "topk", [torch.ones(3, dtype=torch.bool), 1], error="topk does not support bool dtypes on CPU",
         note="2.15: NotImplementedError")
    case("kthvalue/error/k0", "kthvalue", [torch.ones(5), 0], error="kthvalue(): selected number k out of range for dimension 0")
    case("kthvalue/error/k6", "kthvalue", [torch.ones(2, 5), 6], error="kthvalue(): selected number k out of range for dimension 1")
    case("kthvalue/error/empty-dim", "kthvalue", [torch.empty(0), 1], error="kthvalue(): Expected reduction dim 0 to have non-zero size.")
    case("kthvalue/error/bool", "kthvalue", [torch.ones(3, dtype=torch.bool), 1], error="\"kthvalue_cpu\" not implemented for 'Bool'",
         note="2.15: NotImplementedError")
    case("kthvalue/error/complex", "kthvalue", [torch.ones(3, dtype=torch.complex64), 1], note=NOTE_TYPEERROR)


# ---------------------------------------------------------------- cummax, cummin

def scan_block():
    g.family("cummax")
    for op in ["cummax", "cummin"]:
        for dt in [torch.bool, u8, i8, i16, i32, i64, bf16, f32, f64]:
            d = dn(dt)
            x = with_ties("%s/%s" % (op, d), (3, 6), dt)
            case("%s/%s/dim1" % (op, d), op, [x, 1])
            case("%s/%s/dim0" % (op, d), op, [x, 0])
            case("%s/%s/nc" % (op, d), op, [NC(with_ties("%snc/%s" % (op, d), (6, 3), dt)), -1])
        for dt in [f32, f64]:
            d = dn(dt)
            case("%s/%s/nan" % (op, d), op, [torch.tensor([1.0, 3.0, NAN, 2.0, NAN, 5.0, -0.0, 0.0], dtype=dt), 0])
            case("%s/%s/zeros" % (op, d), op, [torch.tensor([0.0, -0.0, 0.0, -INF, INF, -0.0], dtype=dt), 0])
        case("%s/float32/0d" % op, op, [torch.tensor(2.0), 0])
        case("%s/float32/empty" % op, op, [torch.empty(0, 3), 0])
        case("%s/float32/long" % op, op, [with_ties("%slong" % op, (2500,), f32), 0])
        case("%s/error/dim" % op, op, [torch.ones(3), 1], error="Dimension out of range")
        case("%s/error/complex" % op, op, [torch.ones(3, dtype=torch.complex64), 0], note=NOTE_TYPEERROR)


# ---------------------------------------------------------------- searchsorted, bucketize

def sorter_range_2_15(sorted_sequence, values, sorter):
    """2.15's searchsorted_pre_check on the sorter's range (2.13 has it too; 1.13 lacked it)."""
    if sorter.numel() > 0 and (sorter.min() < 0 or sorter.max() >= sorted_sequence.shape[-1]):
        raise RuntimeError("torch.searchsorted(): sorter index out of range")
    return torch.searchsorted(sorted_sequence, values, sorter=sorter)


def search_block():
    g.family("searchsorted")
    b = torch.tensor([1, 3, 3, 5, 7], dtype=i64)
    v = torch.tensor([[0, 1, 3], [4, 7, 9]], dtype=i64)
    for dt in [u8, i8, i16, i32, i64, f16, bf16, f32, f64]:
        d = dn(dt)
        case("searchsorted/%s/left" % d, "searchsorted", [b.to(dt), v.to(dt)])
        case("searchsorted/%s/right" % d, "searchsorted", [b.to(dt), v.to(dt)], {"right": True})
        case("bucketize/%s/left" % d, "bucketize", [v.to(dt), b.to(dt)])
        case("bucketize/%s/right" % d, "bucketize", [v.to(dt), b.to(dt)], {"right": True})
    case("searchsorted/int64/side-right", "searchsorted", [b, v], {"side": "right"})
    case("searchsorted/int64/side-left", "searchsorted", [b, v], {"side": "left"})
    case("searchsorted/int64/side-right-and-right", "searchsorted", [b, v], {"side": "right", "right": True})
    case("searchsorted/int64/out-int32", "searchsorted", [b, v], {"out_int32": True})
    case("searchsorted/int64/nd", "searchsorted",
         [torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]]), torch.tensor([[3, 6, 9], [3, 6, 9]])])
    case("searchsorted/int64/nd-right", "searchsorted",
         [torch.tensor([[1, 3, 5, 7], [2, 4, 6, 8]]), torch.tensor([[3, 6, 9], [3, 6, 9]])], {"right": True})
    case("searchsorted/float32/nd-3d", "searchsorted",
         [torch.tensor([[[0.0, 1.0, 2.0]], [[-1.0, 0.0, 1.0]]]), torch.tensor([[[0.5, -2.0]], [[0.5, 1.0]]])])
    case("searchsorted/float32/values-nc", "searchsorted", [torch.tensor([1.0, 3.0, 5.0]), NC(torch.tensor([[3.0, 4.0], [1.0, 7.0]]))])
    case("searchsorted/float32/boundaries-nc", "searchsorted",
         [NC(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])), torch.tensor([[2.0, 5.0], [0.0, 9.0]])])
    case("searchsorted/int64/sorter", "searchsorted", [torch.tensor([7, 3, 5, 1]), torch.tensor([3, 6, 9, 0])],
         {"sorter": torch.tensor([3, 1, 2, 0])})
    case("searchsorted/int64/sorter-right", "searchsorted", [torch.tensor([7, 3, 5, 1]), torch.tensor([3, 6, 9, 0])],
         {"sorter": torch.tensor([3, 1, 2, 0]), "right": True})
    case("searchsorted/float32/sorter-nd", "searchsorted", [torch.tensor([[3.0, 1.0, 2.0], [9.0, 8.0, 7.0]]),
                                                            torch.tensor([[2.5], [7.5]])],
         {"sorter": torch.tensor([[1, 2, 0], [2, 1, 0]])})
    case("searchsorted/float32/nan", "searchsorted", [torch.tensor([1.0, 2.0, NAN]), torch.tensor([NAN, 2.0, 3.0, -INF])])
    case("searchsorted/float32/nan-right", "searchsorted", [torch.tensor([1.0, 2.0, NAN]), torch.tensor([NAN, 2.0, 3.0])],
         {"right": True})
    case("searchsorted/mixed/int-boundaries-float-values", "searchsorted", [b, torch.tensor([2.5, 3.0, 7.5])])
    case("searchsorted/mixed/float-boundaries-int-values", "searchsorted", [torch.tensor([0.5, 1.5, 2.5], dtype=f64), torch.tensor([1, 2, 3])])
    case("searchsorted/int64/scalar-int", "searchsorted", [b, 3])
    case("searchsorted/int64/scalar-float", "searchsorted", [b, 4.5])
    case("searchsorted/int64/scalar-right", "searchsorted", [b, 3], {"right": True})
    case("searchsorted/float64/scalar", "searchsorted", [torch.tensor([0.1, 0.2, 0.3], dtype=f64), 0.2])
    case("searchsorted/int64/value-0d", "searchsorted", [b, torch.tensor(5)])
    case("searchsorted/float32/empty-values", "searchsorted", [torch.tensor([1.0, 2.0]), torch.empty(0)])
    case("searchsorted/float32/empty-boundaries", "searchsorted", [torch.empty(0), torch.tensor([1.0, 2.0])])
    case("searchsorted/int64/long", "searchsorted", [torch.arange(0, 3000, 3), ints("sslong", (500,), -10, 3010)])
    case("bucketize/float32/2d", "bucketize", [torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([2.0, 3.0])])
    case("bucketize/float32/0d", "bucketize", [torch.tensor(2.5), torch.tensor([2.0, 3.0])])
    case("bucketize/float32/nc-out-int32", "bucketize", [NC(torch.tensor([[1.0, 2.0], [3.0, 4.0]])), torch.tensor([2.0, 3.0])],
         {"out_int32": True})
    case("bucketize/int64/scalar", "bucketize", [3, torch.tensor([1, 3, 5, 7])])
    case("bucketize/int64/scalar-right", "bucketize", [3, torch.tensor([1, 3, 5, 7])], {"right": True})
    # errors
    case("searchsorted/error/side", "searchsorted", [b, v], {"side": "foo"},
         error="torch.searchsorted(): side can only be 'left' or 'right' but got foo")
    case("searchsorted/error/side-right-opposite", "searchsorted", [b, v], {"side": "left", "right": True},
         error="torch.searchsorted(): side and right can't be set to opposites, got side of left while right was True")
    case("searchsorted/error/dims", "searchsorted", [torch.tensor([[1, 3, 5, 7]]), torch.tensor([3, 6, 9])],
         error="torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions of boundaries tensor "
               "and input value tensor must match, but we got boundaries tensor [1, 4] and input value tensor [3]")
    case("searchsorted/error/leading-dims", "searchsorted", [torch.tensor([[1, 3], [2, 4]]), torch.tensor([[3], [6], [9]])],
         error="must match, but we got boundaries tensor [2, 2] and input value tensor [3, 1]")
    case("searchsorted/error/0d-boundaries", "searchsorted", [torch.tensor(1.0), torch.tensor([3.0])],
         error="torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
    case("searchsorted/error/scalar-value-nd", "searchsorted", [torch.tensor([[1, 3, 5]]), torch.tensor(3)],
         error="torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is 1, but we got "
               "boundaries tensor dim(2) and input value's dim(0) numel(1)")
    case("searchsorted/error/sorter-size", "searchsorted", [torch.tensor([7, 3, 5, 1]), torch.tensor([3])],
         {"sorter": torch.tensor([3, 1, 2])},
         error="torch.searchsorted(): boundary and sorter must have the same size, but got boundary tensor [4]and got sorter tensor [3]")
    case("searchsorted/error/sorter-dtype", "searchsorted", [torch.tensor([7, 3, 5, 1]), torch.tensor([3])],
         {"sorter": torch.tensor([3.0, 1, 2, 0])}, error="torch.searchsorted(): sorter must be a tensor of long dtype but got dtype Float")
    # 1.13 reads out of bounds here (its result changes from run to run); the outcome recorded is 2.15's error.
    g.add_case("searchsorted/error/sorter-range", "searchsorted", [torch.tensor([7, 3, 5, 1]), torch.tensor([3, 6, 9])],
               {"sorter": torch.tensor([3, 1, 2, 4])}, fn=sorter_range_2_15,
               note="2.15 error (searchsorted_pre_check); 1.13 read out of bounds", error="torch.searchsorted(): sorter index out of range")
    case("searchsorted/error/bool", "searchsorted", [torch.tensor([False, True]), torch.tensor([True])],
         error="\"searchsorted_out_cpu\" not implemented for 'Bool'", note="2.15: NotImplementedError")
    case("searchsorted/error/complex", "searchsorted", [torch.ones(2, dtype=torch.complex64), torch.ones(1, dtype=torch.complex64)],
         note=NOTE_TYPEERROR)
    case("bucketize/error/2d-boundaries", "bucketize", [torch.tensor([3, 6, 9]), torch.tensor([[1, 3, 5, 7]])],
         error="boundaries tensor must be 1 dimension, but got dim(2)")
    case("bucketize/error/0d-boundaries", "bucketize", [torch.tensor([3, 6, 9]), torch.tensor(1)],
         error="boundaries tensor must be 1 dimension, but got dim(0)")


# ---------------------------------------------------------------- unique, unique_consecutive

def unique_block():
    g.family("unique")
    for dt in [torch.bool, u8, i8, i16, i32, i64, bf16, f32, f64]:
        d = dn(dt)
        x = with_ties("unique/" + d, (3, 5), dt)
        case("unique/%s/plain" % d, "unique", [x])
        case("unique/%s/inverse-counts" % d, "unique", [x], {"return_inverse": True, "return_counts": True})
        case("unique/%s/counts" % d, "unique", [x], {"return_counts": True})
        case("unique/%s/nc-inverse" % d, "unique", [NC(with_ties("uniquenc/" + d, (5, 3), dt))], {"return_inverse": True})
        case("unique/%s/dim0" % d, "unique", [with_ties("unique0/" + d, (6, 2), dt).clamp(max=1) if dt != torch.bool
                                              else with_ties("unique0/" + d, (6, 2), dt)],
             {"dim": 0, "return_inverse": True, "return_counts": True})
        case("unique/%s/dim1" % d, "unique", [with_ties("unique1/" + d, (2, 6), dt).clamp(max=1) if dt != torch.bool
                                              else with_ties("unique1/" + d, (2, 6), dt)],
             {"dim": 1, "return_inverse": True, "return_counts": True})
        y = with_ties("uc/" + d, (12,), dt).sort(stable=True).values.repeat_interleave(2)[:12] if dt != torch.bool else \
            torch.tensor([True, True, False, True, False, False, False, True])
        case("unique_consecutive/%s/inverse-counts" % d, "unique_consecutive", [y], {"return_inverse": True, "return_counts": True})
        case("unique_consecutive/%s/plain-2d" % d, "unique_consecutive", [with_ties("uc2/" + d, (3, 4), dt)])
    case("unique/float32/zeros", "unique", [torch.tensor([0.0, -0.0, 1.0, -0.0])], {"return_inverse": True, "return_counts": True})
    case("unique/float32/nan", "unique", [torch.tensor([3.0, NAN, 1.0, NAN, 1.0])], {"return_inverse": True, "return_counts": True},
         note="2.15: each NaN is its own value, sorted last (1.13 left NaNs among the numbers)")
    case("unique/float32/0d", "unique", [torch.tensor(3.0)], {"return_inverse": True, "return_counts": True})
    case("unique/float32/empty", "unique", [torch.empty(0)], {"return_inverse": True, "return_counts": True})
    case("unique/float32/empty-2x0", "unique", [torch.empty(2, 0)], {"return_inverse": True, "return_counts": True})
    case("unique/float32/dim-empty-selected", "unique", [torch.empty(2, 0)], {"dim": 1, "return_inverse": True, "return_counts": True})
    case("unique/float32/sorted-false", "unique", [torch.tensor([3.0, 1.0, 2.0, 3.0])], {"sorted": False},
         note="2.15: CPU unique always sorts (1.13 used hash order)")
    case("unique/int64/long", "unique", [ints("uniquelong", (5000,), -300, 300)], {"return_inverse": True, "return_counts": True})
    case("unique/float64/3d-dim1-nc", "unique", [NC(with_ties("unique3d", (2, 3, 4), f64).clamp(-1, 0), 0, 2)],
         {"dim": 1, "return_inverse": True, "return_counts": True})
    case("unique_consecutive/float32/nan", "unique_consecutive", [torch.tensor([NAN, NAN, 1.0, 1.0, -0.0, 0.0])],
         {"return_counts": True})
    case("unique_consecutive/float32/0d", "unique_consecutive", [torch.tensor(5.0)], {"return_inverse": True, "return_counts": True})
    case("unique_consecutive/float32/empty", "unique_consecutive", [torch.empty(0)], {"return_inverse": True, "return_counts": True})
    case("unique_consecutive/int64/dim0", "unique_consecutive", [torch.tensor([[1, 1], [1, 1], [2, 3], [1, 1]])],
         {"dim": 0, "return_inverse": True, "return_counts": True})
    case("unique_consecutive/int64/dim1", "unique_consecutive", [torch.tensor([[1, 1, 2], [1, 1, 3]])],
         {"dim": 1, "return_inverse": True, "return_counts": True})
    case("unique_consecutive/int64/dim0-1d", "unique_consecutive", [torch.tensor([1, 1, 2])], {"dim": 0, "return_counts": True})
    case("unique/error/dim", "unique", [torch.tensor([[1, 2], [1, 2]])], {"dim": 2},
         error="Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    case("unique/error/dim-0d", "unique", [torch.tensor(5)], {"dim": 0}, error="Dimension specified as 0 but tensor has no dimensions")
    case("unique/error/dim-other-zero", "unique", [torch.empty(2, 0)], {"dim": 0},
         error="There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    case("unique/error/complex", "unique", [torch.ones(2, dtype=torch.complex64)], error="not implemented for 'ComplexFloat'",
         note="2.15: NotImplementedError")


# ---------------------------------------------------------------- histc, bincount

def count_block():
    g.family("histc")
    case("histc/float32/spec-range", "histc", [torch.tensor([1.0, 2, 1])], {"bins": 4, "min": 0, "max": 3})
    case("histc/float32/spec-auto", "histc", [torch.tensor([0.0, 1, 2, 3])], {"bins": 3})
    case("histc/float32/spec-equal", "histc", [torch.tensor([5.0, 5])], {"bins": 2})
    case("histc/float32/spec-outside", "histc", [torch.tensor([1.0, 7, -1])], {"bins": 2, "min": 0, "max": 4})
    case("histc/float32/0d", "histc", [torch.tensor(5.0)], {"bins": 2})
    case("histc/float32/min-eq-max-given", "histc", [torch.tensor([1.0, 2, 3])], {"bins": 3, "min": 2, "max": 2})
    case("histc/float32/nan-ignored", "histc", [torch.tensor([0.5, NAN, 1.5, INF])], {"bins": 2, "min": 0, "max": 2},
         note="2.15 drops NaN (its test is !(x >= lo && x <= hi)); 1.13 counted it in bin 0")
    case("histc/float32/edges", "histc", [torch.tensor([0.1, 0.2, 0.3, 0.7, 1.0, 0.0])], {"bins": 10, "min": 0.0, "max": 1.0})
    case("histc/float32/default-bins", "histc", [torch.randn(300, generator=gen("histc100"))])
    case("histc/float32/nc", "histc", [NC(torch.tensor([[1.0, 2], [3, 4], [5, 6]]))], {"bins": 4})
    case("histc/float32/empty", "histc", [torch.empty(0)], {"bins": 3})
    case("histc/float32/fractional", "histc", [torch.randn(1000, generator=gen("histcfrac")) * 3], {"bins": 7, "min": -2.5, "max": 3.1})
    case("histc/float64/fractional", "histc", [torch.randn(1000, generator=gen("histcfrac64"), dtype=f64) * 3],
         {"bins": 7, "min": -2.5, "max": 3.1})
    case("histc/bfloat16/auto", "histc", [torch.tensor([0.0, 1.0, 2.5, 3.0], dtype=bf16)], {"bins": 3})
    case("histc/float16/auto", "histc", [torch.tensor([0.0, 1.0, 2.5, 3.0], dtype=f16)], {"bins": 3},
         note="2.15: float16 histc has a CPU kernel (1.13: aminmax not implemented for Half)")
    case("histc/error/bins-0", "histc", [torch.tensor([1.0, 2])], {"bins": 0}, error="bins must be > 0, but got 0")
    case("histc/error/bins-negative", "histc", [torch.tensor([1.0, 2])], {"bins": -1}, error="bins must be > 0, but got -1")
    case("histc/error/min-gt-max", "histc", [torch.tensor([1.0, 2])], {"min": 3, "max": 1}, error="torch.histc: max must be larger than min")
    case("histc/error/inf-data", "histc", [torch.tensor([1.0, INF])], error="torch.histc: range of [1, inf] is not finite")
    case("histc/error/inf-max", "histc", [torch.tensor([1.0, 2])], {"min": 0, "max": INF}, error="torch.histc: range of [0, inf] is not finite")
    case("histc/error/nan-data", "histc", [torch.tensor([1.0, NAN])], error="is not finite")
    case("histc/error/int", "histc", [torch.tensor([1, 2])], error="\"histogram_cpu\" not implemented for 'Long'",
         note="2.15: NotImplementedError")
    g.family("bincount")
    x = torch.tensor([1, 1, 3, 0, 5, 1])
    for dt in INT_DTYPES:
        case("bincount/%s/plain" % dn(dt), "bincount", [x.to(dt)])
    case("bincount/int64/minlength", "bincount", [x], {"minlength": 9})
    case("bincount/int64/minlength-small", "bincount", [x], {"minlength": 2})
    case("bincount/int64/weights-float32", "bincount", [x], {"weights": torch.tensor([0.5, 0.25, 1.0, 2.0, -1.0, 0.125])})
    case("bincount/int64/weights-float64", "bincount", [x], {"weights": torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], dtype=f64)})
    case("bincount/int64/weights-int", "bincount", [x], {"weights": torch.tensor([1, 2, 3, 4, 5, 6])})
    case("bincount/int64/weights-float16", "bincount", [x], {"weights": torch.tensor([1, 2, 3, 4, 5, 6], dtype=f16)})
    case("bincount/int64/weights-minlength", "bincount", [x], {"weights": torch.ones(6), "minlength": 8})
    case("bincount/int64/empty", "bincount", [torch.empty(0, dtype=i64)])
    case("bincount/int64/empty-minlength-weights", "bincount", [torch.empty(0, dtype=i64)], {"minlength": 3, "weights": torch.empty(0)})
    case("bincount/int64/long", "bincount", [ints("bincountlong", (4000,), 0, 50)])
    case("bincount/error/negative", "bincount", [torch.tensor([1, -1, 3])], error="bincount only supports 1-d non-negative integral inputs.")
    case("bincount/error/2d", "bincount", [torch.tensor([[1, 1, 3]])], error="bincount only supports 1-d non-negative integral inputs.")
    case("bincount/error/0d", "bincount", [torch.tensor(2)], error="bincount only supports 1-d non-negative integral inputs.")
    case("bincount/error/minlength", "bincount", [x], {"minlength": -1}, error="minlength should be >= 0")
    case("bincount/error/weights-length", "bincount", [x], {"weights": torch.ones(2)},
         error="weights should be 1-d and have the same length as input")
    case("bincount/error/float", "bincount", [torch.tensor([1.0, 2.0])], error="\"bincount_cpu\" not implemented for 'Float'",
         note="2.15: NotImplementedError")
    case("bincount/error/bool", "bincount", [torch.tensor([True, False])], error="\"bincount_cpu\" not implemented for 'Bool'",
         note="2.15: NotImplementedError")


# ================================================================ main

def write(path):
    import json
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in g.CASES]
    head = '{"cases":[\n'
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_sort.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(head + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)
    return os.path.getsize(path)


def main():
    sort_block()
    selection_block()
    scan_block()
    search_block()
    unique_block()
    count_block()
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

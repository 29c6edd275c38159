#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's indexing family.

What it makes
    jtorch/src/test/resources/golden/indexing.json: inputs and PyTorch 2.13
    results for tensor indexing (x[spec] and x[spec] = v with ints, slices,
    None, Ellipsis, bools, bool/uint8 masks and integer index tensors),
    index_put, gather, scatter, scatter_add, scatter_reduce, index_select,
    index_add, index_copy, index_fill, masked_select, masked_scatter, take,
    take_along_dim, nonzero and single-argument where, plus their errors.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_indexing.py
    with a Python whose `import torch` is PyTorch 2.13 (CPU wheel) plus numpy.

    Deterministic: fixed inputs, one thread, sorted keys. It reuses the tensor
    encoding of make_golden_core.py (same directory).

File format
    As core.json (see make_golden_core.py), with these additions:
    - op "getitem": args [T, {"spec": [item, ...]}]; op "setitem": args
      [T, {"spec": [...]}, value] with kwarg "accumulate". An item is
      {"int": n}, {"slice": [start, stop, step]} (null = omitted),
      {"none": true}, {"ellipsis": true}, {"bool": b} or a tensor T. A
      one-item spec is indexed as x[item] (Python's non-tuple form).
      setitem with accumulate=False is Python's x[spec] = value; with
      accumulate=True it is index_put_(..., accumulate=True) for pure
      tensor specs and numpy.add.at (the same indexing rules) otherwise.
    - non-tensor arguments of the other ops are kwargs with PyTorch's names
      (dim, reduce, include_self, alpha, value, as_tuple, accumulate); the
      args are the tensors in schema order. index_put's indices are a list
      of T or null.
    - errors are {"error": first line of the message, "type": Python
      exception class}, so tests check both the wording and the class.
    - "note" marks a case whose 2.13 outcome is not the JTorch contract; the
      Java test lists each with its reason.

2.15 changes newer than this reference
    None of the cases here: 2.13 already accepts int32 indices for gather,
    scatter and indexing, refuses non-bool masks, and says "no larger than" in
    the scatter/gather shape checks.  The noted cases are take_along_dim with
    an out-of-range index: 2.13 wraps it modulo the size; JTorch raises
    gather's out-of-bounds error instead of a silently wrong element.
"""

import json
import os
import sys
import warnings

try:
    import torch
except ImportError:
    sys.exit("make_golden_indexing.py needs a Python with PyTorch 2.13 (see the header)")
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_golden_core import NC, enc_float, enc_tensor, enc_scalar_value, dname  # noqa: E402

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "indexing.json"))
NOTE_OOB_WRAP = ("2.13 wraps an out-of-range index modulo the size (a side effect of its negative-index support); "
                 "JTorch raises gather's error rather than return an element nobody asked for")

f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
i32, i64, u8, c64, b = torch.int32, torch.int64, torch.uint8, torch.complex64, torch.bool
NAN = float("nan")

CASES = []
IDS = set()
WARNINGS = []


# ---------------------------------------------------------------- encoding

class Spec(object):
    """An index spec (a tuple of Python index items)."""

    def __init__(self, *items):
        self.items = items

    def value(self):
        # one item is indexed as x[item], not x[(item,)], as a one-element Java varargs reads
        items = tuple(materialize(i) for i in self.items)
        return items[0] if len(items) == 1 else items


def enc_item(i):
    if i is None:
        return {"none": True}
    if i is Ellipsis:
        return {"ellipsis": True}
    if isinstance(i, bool):
        return {"bool": i}
    if isinstance(i, int):
        return {"int": i}
    if isinstance(i, slice):
        return {"slice": [i.start, i.stop, i.step]}
    return enc_arg(i)


def enc_arg(a):
    if isinstance(a, Spec):
        return {"spec": [enc_item(i) for i in a.items]}
    if isinstance(a, NC):
        return enc_tensor(a.base, (a.d0, a.d1))
    if isinstance(a, torch.Tensor):
        return enc_tensor(a)
    if isinstance(a, (bool, int, float, complex)):
        return {"scalar": enc_scalar_value(a)}
    if isinstance(a, (list, tuple)):
        return [enc_arg(x) for x in a]
    if a is None:
        return None
    raise TypeError(type(a))


def enc_kwarg(v):
    if isinstance(v, torch.Tensor):
        return enc_tensor(v)
    if isinstance(v, complex):
        return {"scalar": enc_scalar_value(v)}
    if isinstance(v, float):
        return enc_float(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    raise TypeError(type(v))


def enc_out(r):
    if isinstance(r, torch.Tensor):
        return enc_tensor(r)
    if isinstance(r, (tuple, list)):
        return [enc_out(x) for x in r]
    raise TypeError(type(r))


def materialize(a):
    if isinstance(a, NC):
        return a.value()
    if isinstance(a, Spec):
        return a.value()
    if isinstance(a, list):
        return [materialize(x) for x in a]
    return a


def add_case(cid, op, args, kwargs=None, fn=None, note=None, error=None):
    """Runs fn(*args, **kwargs) and records the outcome; error: expected message substring."""
    kwargs = dict(kwargs or {})
    if cid in IDS:
        raise ValueError("duplicate id " + cid)
    fn = fn or OPS[op]
    try:
        r = fn(*[materialize(a) for a in args], **kwargs)
        out = enc_out(r)
        if error is not None and note is None:
            WARNINGS.append("%s: expected error %r but got a result" % (cid, error))
    except Exception as e:  # noqa: BLE001
        msg = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        if error is not None and error not in str(e):
            WARNINGS.append("%s: expected %r, message was %r" % (cid, error, msg))
        out = {"error": msg[:240], "type": type(e).__name__}
    IDS.add(cid)
    case = {"id": cid, "op": op, "args": [enc_arg(a) for a in args],
            "kwargs": {k: enc_kwarg(v) for k, v in kwargs.items()}, "out": out}
    if note:
        case["note"] = note
    CASES.append(case)


def err_case(cid, op, args, kwargs, error, note=None):
    add_case(cid, op, args, kwargs, error=error, note=note)


# ---------------------------------------------------------------- ops

def getitem(x, spec):
    return x[spec].contiguous()


def setitem(x, spec, value, accumulate=False):
    x = x.clone()
    if not accumulate:
        x[spec] = value
        return x
    spec = spec if isinstance(spec, tuple) else (spec,)
    if all(isinstance(i, torch.Tensor) for i in spec):
        return x.index_put_(spec, value, accumulate=True)
    # numpy's ufunc.at applies the same basic/advanced indexing rules, unbuffered
    a = x.numpy()
    np.add.at(a, tuple(i.numpy() if isinstance(i, torch.Tensor) else i for i in spec),
              value.numpy() if isinstance(value, torch.Tensor) else value)
    return torch.from_numpy(a)


def index_put(x, indices, values, accumulate=False):
    return torch.index_put(x, tuple(indices), values, accumulate=accumulate)


def nonzero(x, as_tuple=False):
    r = torch.nonzero(x, as_tuple=as_tuple)
    return [t.contiguous() for t in r] if as_tuple else r


def contiguous(fn):
    return lambda *a, **k: fn(*a, **k).contiguous()


OPS = {
    "getitem": getitem,
    "setitem": setitem,
    "index_put": index_put,
    "gather": lambda x, index, dim: torch.gather(x, dim, index),
    "scatter": lambda x, index, src=None, dim=0, value=None: (
        torch.scatter(x, dim, index, src) if src is not None else torch.scatter(x, dim, index, value)),
    "scatter_add": lambda x, index, src, dim: torch.scatter_add(x, dim, index, src),
    "scatter_reduce": lambda x, index, src, dim, reduce, include_self=True: torch.scatter_reduce(
        x, dim, index, src, reduce, include_self=include_self),
    "index_select": lambda x, index, dim: torch.index_select(x, dim, index),
    "index_add": lambda x, index, source, dim, alpha=1: torch.index_add(x, dim, index, source, alpha=alpha),
    "index_copy": lambda x, index, source, dim: torch.index_copy(x, dim, index, source),
    "index_fill": lambda x, index, dim, value: torch.index_fill(x, dim, index, value),
    "index_fill_tensor": lambda x, index, value, dim: torch.index_fill(x, dim, index, value),
    "masked_select": torch.masked_select,
    "masked_scatter": lambda x, mask, source: x.masked_scatter(mask, source),
    "take": torch.take,
    "take_along_dim": lambda x, indices, dim=None: torch.take_along_dim(x, indices, dim),
    "nonzero": nonzero,
    "where": lambda c: [t.contiguous() for t in torch.where(c)],
}


def ar(*shape, dtype=f32):
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n, dtype=f64).reshape(shape).to(dtype)


def L(*v):
    return torch.tensor(v, dtype=i64)


# ---------------------------------------------------------------- getitem

def getitem_block():
    x = ar(2, 3, 4)
    basic = {
        "int": (1,), "neg-int": (-1,), "int-int": (1, -2), "int-int-int": (0, 2, 3),
        "slice": (slice(1, None),), "slice-step": (slice(None), slice(None, None, 2)),
        "slice-neg": (slice(None), slice(-2, None), slice(None, -1)),
        "slice-clamped": (slice(-10, 10), slice(5, 7)), "slice-empty": (slice(None), slice(2, 1)),
        "slice-step3": (Ellipsis, slice(1, None, 3)),
        "none": (None,), "none-mid": (slice(None), None, 1), "none-end": (Ellipsis, None),
        "ellipsis": (Ellipsis,), "ellipsis-int": (Ellipsis, 2), "int-ellipsis": (1, Ellipsis),
        "int-ellipsis-int": (1, Ellipsis, 0), "two-ellipses": (Ellipsis, Ellipsis),
        "mixed": (None, 1, Ellipsis, slice(1, 3), None), "empty-spec": (),
        "0d-int-tensor": (torch.tensor(1),), "0d-int-tensor-2": (slice(None), torch.tensor(-1)),
    }
    for name, spec in basic.items():
        add_case("getitem/float32/" + name, "getitem", [x, Spec(*spec)])
    add_case("getitem/float32/noncontig-basic", "getitem", [NC(ar(4, 3), 0, 1), Spec(slice(1, None), 2)])
    add_case("getitem/int64/basic", "getitem", [ar(3, 4, dtype=i64), Spec(-1, slice(None, None, 2))])
    add_case("getitem/bool/basic", "getitem", [ar(3, 4, dtype=i64) % 3 == 0, Spec(slice(1, None))])
    add_case("getitem/complex64/basic", "getitem", [torch.complex(ar(2, 3), -ar(2, 3)), Spec(Ellipsis, 1)])

    adv = {
        "tensor": (L(1, 0, 1, 0),), "tensor-neg": (L(-1, -2),), "tensor-2d": (torch.tensor([[0, 1], [1, 0]]),),
        "tensor-empty": (torch.zeros(0, dtype=i64),),
        "two-adjacent": (slice(None), L(0, 2, 1), L(3, 0, 1)),
        "two-separated": (L(0, 1), slice(None), L(3, 2)),
        "separated-bcast": (L(1, 0).view(2, 1), slice(1, 3), L(0, 1, 3)),
        "adjacent-bcast": (L(0, 1).view(2, 1), L(2, 1, 0)),
        "slice-tensor": (slice(None), L(2, 2)), "tensor-slice": (L(1), slice(0, 2)),
        "int-tensor": (1, L(0, 2)), "tensor-int": (L(0, 1), 2),
        "int-slice-tensor": (0, slice(None), L(3, 0)),
        "tensor-int-tensor": (L(0, 1), 1, L(2, 3)),
        "none-tensor": (None, L(1, 0)), "tensor-none": (L(1, 0), None),
        "none-between": (L(1, 0), None, L(2, 1)),
        "ellipsis-tensor": (Ellipsis, L(3, 1)), "tensor-ellipsis-tensor": (L(1, 0), Ellipsis, L(0, 3)),
        "mask-full": (ar(2, 3, 4) % 5 > 1,), "mask-first": (torch.tensor([True, False]),),
        "mask-2d": (torch.tensor([[True, False, True], [False, False, True]]),),
        "slice-mask": (slice(None), torch.tensor([False, True, True])),
        "mask-tensor": (torch.tensor([True, True]), slice(None), L(1, 3)),
        "mask-none": (torch.tensor([False, False]),), "mask-uint8": (torch.tensor([1, 0], dtype=u8),),
        "bool-true": (True,), "bool-false": (False,), "bool-true-tensor": (True, L(1, 0)),
        "0d-bool-tensor": (torch.tensor(True),), "0d-bool-false": (slice(None), torch.tensor(False)),
        "int32": (torch.tensor([1, 0], dtype=i32),),
    }
    for name, spec in adv.items():
        add_case("getitem/float32/" + name, "getitem", [x, Spec(*spec)])
    add_case("getitem/float32/noncontig-adv", "getitem", [NC(ar(4, 3), 0, 1), Spec(L(2, 0), L(1, 3))])
    add_case("getitem/float32/noncontig-index", "getitem", [ar(4, 3), Spec(NC(torch.tensor([[0, 1], [3, 2]]), 0, 1))])
    add_case("getitem/int64/adv", "getitem", [ar(3, 4, dtype=i64), Spec(slice(None), L(3, 0))])
    add_case("getitem/float16/adv", "getitem", [ar(3, 4, dtype=f16) / 3, Spec(L(2, 1), L(3, 0))])
    add_case("getitem/bool/mask", "getitem", [ar(3, 4, dtype=i64) % 2 == 0, Spec(ar(3, 4, dtype=i64) % 3 == 0)])
    add_case("getitem/complex64/adv", "getitem", [torch.complex(ar(2, 3), -ar(2, 3)), Spec(L(1, 1, 0))])
    add_case("getitem/float64/0d-true", "getitem", [torch.tensor(2.5, dtype=f64), Spec(True)])
    add_case("getitem/float64/0d-mask", "getitem", [torch.tensor(2.5, dtype=f64), Spec(torch.tensor(False))])
    add_case("getitem/float32/empty-self", "getitem", [torch.zeros(0, 3), Spec(L(), slice(None))])

    errors = [
        ("too-many", (0, 0, 0, 0), "too many indices for tensor of dimension 3"),
        ("too-many-mask", (ar(2, 3, 4) > 0, 0), "too many indices for tensor of dimension 3"),
        ("int-oob", (2,), "index 2 is out of bounds for dimension 0 with size 2"),
        ("int-oob-neg", (slice(None), -4), "index -4 is out of bounds for dimension 1 with size 3"),
        ("int-oob-after-none", (None, 5), "index 5 is out of bounds for dimension 1 with size 2"),
        ("tensor-oob", (L(0, 2),), "index 2 is out of bounds for dimension 0 with size 2"),
        ("tensor-oob-second", (slice(None), L(0), L(4)), "index 4 is out of bounds for dimension 1 with size 4"),
        ("tensor-oob-neg", (L(-3),), "index -3 is out of bounds for dimension 0 with size 2"),
        ("mask-shape", (torch.tensor([True, False, True]),),
         "The shape of the mask [3] at index 0 does not match the shape of the indexed tensor [2, 3, 4] at index 0"),
        ("mask-shape-inner", (slice(None), torch.ones(3, 3, dtype=b)),
         "The shape of the mask [3, 3] at index 1 does not match the shape of the indexed tensor [2, 3, 4] at index 2"),
        ("bcast", (L(0, 1), L(0, 1, 2)),
         "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
        ("float-index", (torch.tensor([0.0]),), "tensors used as indices must be long, int, byte or bool tensors"),
    ]
    for name, spec, msg in errors:
        err_case("getitem/error/" + name, "getitem", [x, Spec(*spec)], {}, msg)
    err_case("getitem/error/0d-int", "getitem", [torch.tensor(1.0), Spec(0)], {}, "invalid index of a 0-dim tensor")
    err_case("getitem/error/0d-slice", "getitem", [torch.tensor(1.0), Spec(slice(None))], {}, "slice() cannot be applied to a 0-dim tensor")
    err_case("getitem/error/0d-tuple", "getitem", [torch.tensor(1.0), Spec(0, None)], {}, "too many indices for tensor of dimension 0")
    err_case("getitem/error/size0", "getitem", [torch.zeros(0, 3), Spec(L(0))], {},
             "index is out of bounds for dimension with size 0")


# ---------------------------------------------------------------- setitem / index_put

def setitem_block():
    x = ar(2, 3, 4)
    cases = [
        ("int-scalar", (1,), 7.0), ("slice-bcast", (slice(None), slice(1, None)), torch.tensor([1.0, 2, 3, 4])),
        ("prefix-ones", (0, slice(None), 1), torch.tensor([[[5.0, 6, 7]]])),
        ("ellipsis-0d", (Ellipsis,), torch.tensor(-1.0)), ("none-slice", (None, 1, 2), torch.tensor([9.0, 8, 7, 6])),
        ("slice-step", (Ellipsis, slice(None, None, 2)), torch.tensor([[10.0, 20]])),
        ("basic-long-value", (0, 0), torch.tensor([1, 2, 3, 4])),
        ("tensor", (L(1, 0),), torch.tensor(3.5)),
        ("tensor-values", (slice(None), L(2, 0)), ar(2, 2, 4) * -1),
        ("two-separated", (L(0, 1), slice(None), L(3, 2)), torch.tensor([[1.0, 2, 3], [4, 5, 6]])),
        ("mask-scalar", (ar(2, 3, 4) % 3 == 0,), 0.5), ("mask-0d-long", (ar(2, 3, 4) % 3 == 0,), torch.tensor(4)),
        ("mask-values", (torch.tensor([[True, False, True], [False, True, False]]),), ar(3, 4) + 100),
        ("mask-inner", (slice(None), torch.tensor([True, False, True])), torch.tensor(-2.0)),
        ("bool-true", (True, 1), torch.tensor([1.0, 1, 1, 1])), ("0d-int-tensor", (torch.tensor(1), 0), 5.0),
        ("noncontig-values", (L(0, 1), 0), NC(ar(4, 2), 0, 1)),
    ]
    for name, spec, v in cases:
        add_case("setitem/float32/" + name, "setitem", [x, Spec(*spec), v], {"accumulate": False})
    add_case("setitem/int64/mask", "setitem", [ar(3, 4, dtype=i64), Spec(ar(3, 4, dtype=i64) > 6), 0],
             {"accumulate": False})
    add_case("setitem/float32/noncontig-self", "setitem", [NC(ar(4, 3), 0, 1), Spec(slice(None), L(1)), 9.0],
             {"accumulate": False})
    acc = [
        ("dup", (L(0, 0, 1, 0),), torch.tensor(1.0)),
        ("dup-values", (L(1, 1), L(2, 2)), ar(2, 4)),
        ("dup-2d", (L(0, 1, 0), L(2, 2, 2), L(1, 1, 1)), torch.tensor([1.0, 2, 4])),
        ("mixed-slice", (slice(None), L(1, 1, 0)), torch.tensor(2.0)),
        ("mixed-separated", (L(0, 0), slice(None), L(1, 1)), torch.tensor([1.0, 2, 3])),
        ("basic-only", (slice(None), 1), torch.tensor([1.0, 2, 3, 4])),
    ]
    for name, spec, v in acc:
        add_case("setitem/float32/accumulate-" + name, "setitem", [x, Spec(*spec), v], {"accumulate": True})
    add_case("setitem/int64/accumulate-dup", "setitem", [ar(3, 4, dtype=i64), Spec(L(2, 2, 2)), torch.tensor([1, 2, 3, 4])],
             {"accumulate": True})
    add_case("setitem/float64/accumulate-dup", "setitem", [ar(5, dtype=f64), Spec(L(4, 0, 4, 4)), torch.tensor(0.25, dtype=f64)],
             {"accumulate": True})
    err_case("setitem/error/dtype", "setitem", [x, Spec(L(0)), torch.ones(3, 4, dtype=i64)], {"accumulate": False},
             "Index put requires the source and destination dtypes match, got Float for the destination and Long for the source.")
    err_case("setitem/error/shape", "setitem", [x, Spec(L(0, 1)), torch.ones(2)], {"accumulate": False},
             "shape mismatch: value tensor of shape [2] cannot be broadcast to indexing result of shape [2, 3, 4]")
    err_case("setitem/error/basic-shape", "setitem", [x, Spec(0, 1), torch.ones(3)], {"accumulate": False},
             "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 0")
    err_case("setitem/error/oob", "setitem", [x, Spec(slice(None), L(3)), 1.0], {"accumulate": False},
             "index 3 is out of bounds for dimension 0 with size 3")

    add_case("index_put/float32/simple", "index_put", [ar(3, 4), [L(0, 2), L(1, 3)], torch.tensor([10.0, 20])])
    add_case("index_put/float32/one-index", "index_put", [ar(3, 4), [L(2, 0)], torch.tensor([-1.0, -2, -3, -4])])
    add_case("index_put/float32/accumulate", "index_put", [ar(3, 4), [L(0, 0, 2), L(1, 1, 1)], torch.tensor([1.0, 2, 3])],
             {"accumulate": True})
    add_case("index_put/int64/accumulate", "index_put", [ar(4, dtype=i64), [L(3, 3, 3, 0)], torch.tensor(5)],
             {"accumulate": True})
    add_case("index_put/float32/mask", "index_put", [ar(3, 4), [ar(3, 4) > 5], torch.tensor(0.0)])
    add_case("index_put/float32/mask-values", "index_put", [ar(3, 4), [ar(3, 4) > 7], torch.tensor([1.0, 2, 3, 4])])
    add_case("index_put/bool/accumulate", "index_put", [torch.zeros(3, dtype=b), [L(0, 0, 2)], torch.tensor([True, True, False])],
             {"accumulate": True})
    add_case("index_put/int8/accumulate-wrap", "index_put", [torch.zeros(2, dtype=torch.int8), [L(0, 0)],
                                                             torch.tensor([100, 100], dtype=torch.int8)], {"accumulate": True})
    add_case("index_put/float16/accumulate", "index_put", [torch.zeros(2, dtype=f16), [L(0, 0, 0)],
                                                           torch.tensor([0.1, 0.2, 0.3], dtype=f16)], {"accumulate": True})
    add_case("index_put/complex64/simple", "index_put", [torch.zeros(3, dtype=c64), [L(2)], torch.tensor([1 - 2j], dtype=c64)])
    err_case("index_put/error/mask-accumulate-dtype", "index_put", [ar(3, 4), [ar(3, 4) > 5], torch.tensor(1)],
             {"accumulate": True}, "Index put requires the source and destination dtypes match")


# ---------------------------------------------------------------- gather / scatter

def gather_scatter_block():
    x = ar(3, 4)
    idx = torch.tensor([[0, 2, 1, 2], [2, 0, 0, 1]])
    for dt in (f32, f64, i64, i32, f16, b, c64):
        src = (ar(3, 4, dtype=f64) % 3 == 1) if dt == b else (ar(3, 4, dtype=f64) - 5).to(dt)
        name = dname(dt)
        add_case("gather/%s/dim0" % name, "gather", [src, idx], {"dim": 0})
        add_case("gather/%s/dim1" % name, "gather", [src, torch.tensor([[3, 0], [1, 1], [0, 2]])], {"dim": -1})
        s2 = src[:2]
        add_case("scatter/%s/dim0" % name, "scatter", [src, torch.tensor([[0, 1, 2, 0]]), s2], {"dim": 0})
        add_case("scatter_add/%s/dup" % name, "scatter_add", [src, idx, s2], {"dim": 0})
    add_case("gather/float32/noncontig", "gather", [NC(ar(4, 3), 0, 1), NC(torch.tensor([[0, 1, 2], [3, 3, 0]]), 0, 1)],
             {"dim": 1})
    add_case("gather/float32/smaller-index", "gather", [ar(3, 4), torch.tensor([[1], [0]])], {"dim": 1})
    add_case("gather/float32/3d", "gather", [ar(2, 3, 4), torch.tensor([[[0, 1], [2, 2]], [[1, 1], [0, 0]]])], {"dim": 1})
    add_case("gather/float32/empty-index", "gather", [x, torch.zeros(0, 4, dtype=i64)], {"dim": 0})
    add_case("gather/float32/0d", "gather", [torch.tensor(5.0), torch.tensor(0)], {"dim": 0})
    add_case("gather/float32/0d-1d-index", "gather", [torch.tensor(5.0), L(0, 0)], {"dim": 0})
    add_case("scatter/float32/value", "scatter", [x, idx], {"dim": 1, "value": -1.5})
    add_case("scatter/int64/value-float", "scatter", [ar(3, 4, dtype=i64), idx], {"dim": 0, "value": 2.7})
    add_case("scatter/float32/noncontig", "scatter", [NC(ar(4, 3), 0, 1), torch.tensor([[0, 2], [1, 0]]), NC(ar(2, 2) + 50, 0, 1)],
             {"dim": 1})
    add_case("scatter/float32/empty-index", "scatter", [x, torch.zeros(0, dtype=i64), torch.zeros(0)], {"dim": 0})
    add_case("scatter_add/float32/3d-dim2", "scatter_add", [torch.zeros(2, 2, 3), torch.tensor([[[0, 0, 2, 2]], [[1, 1, 1, 0]]]),
                                                           ar(2, 1, 4) + 1], {"dim": 2})
    add_case("scatter_add/float32/noncontig", "scatter_add", [NC(ar(4, 3), 0, 1), NC(torch.tensor([[0, 0], [2, 0]]), 0, 1),
                                                             ar(2, 2)], {"dim": 0})
    add_case("scatter_add/int8/wrap", "scatter_add", [torch.tensor([100], dtype=torch.int8), L(0, 0),
                                                      torch.tensor([100, 100], dtype=torch.int8)], {"dim": 0})
    add_case("scatter_add/float16/round", "scatter_add", [torch.zeros(1, dtype=f16), L(0, 0, 0),
                                                          torch.tensor([0.1, 0.2, 0.3], dtype=f16)], {"dim": 0})

    s = torch.tensor([10.0, 20, 30, -7])
    ri = L(0, 0, 1, 1, 3, 3, 3)
    rs = torch.tensor([1.0, 2, 3, 4, -5, 6, 9])
    for dt in (f32, f64, i64, i32, f16, u8):
        for red in ("sum", "prod", "mean", "amax", "amin"):
            for inc in (True, False):
                ss, rr = (s.abs(), rs.abs()) if dt == u8 else (s, rs)
                add_case("scatter_reduce/%s/%s-%s" % (dname(dt), red, "self" if inc else "noself"), "scatter_reduce",
                         [ss.to(dt), ri, rr.to(dt)], {"dim": 0, "reduce": red, "include_self": inc})
    add_case("scatter_reduce/float32/mean-neg-int", "scatter_reduce", [L(-1, 2), L(0, 0), L(-3, -4)],
             {"dim": 0, "reduce": "mean", "include_self": True})
    add_case("scatter_reduce/float32/amax-nan", "scatter_reduce", [torch.tensor([1.0, 2]), L(0, 0, 1), torch.tensor([NAN, 5, NAN])],
             {"dim": 0, "reduce": "amax", "include_self": True})
    add_case("scatter_reduce/float32/amin-self-nan", "scatter_reduce", [torch.tensor([NAN, 2]), L(0, 0, 1), torch.tensor([3.0, 5, 1])],
             {"dim": 0, "reduce": "amin", "include_self": True})
    add_case("scatter_reduce/float32/2d-dim1", "scatter_reduce", [ar(2, 3), torch.tensor([[0, 0, 2, 2], [1, 1, 1, 0]]),
                                                                ar(2, 4) - 3], {"dim": 1, "reduce": "prod", "include_self": False})
    for red in ("sum", "prod", "amax", "amin"):
        add_case("scatter_reduce/bool/" + red, "scatter_reduce", [torch.tensor([True, False]), L(0, 1, 1),
                                                                 torch.tensor([False, True, True])],
                 {"dim": 0, "reduce": red, "include_self": True})
    for red in ("sum", "prod", "mean"):
        add_case("scatter_reduce/complex64/" + red, "scatter_reduce", [torch.tensor([1 + 1j, 2j], dtype=c64), L(0, 0, 1),
                                                                      torch.tensor([1j, 2 - 1j, 3], dtype=c64)],
                 {"dim": 0, "reduce": red, "include_self": True})

    add_case("gather/float32/int32-index", "gather", [x, torch.tensor([[2, 0, 1, 0]], dtype=i32)], {"dim": 0})
    err_case("gather/error/ndim", "gather", [x, L(0)], {"dim": 0},
             "Index tensor must have the same number of dimensions as input tensor")
    err_case("gather/error/size", "gather", [x, torch.zeros(1, 5, dtype=i64)], {"dim": 0},
             "Size does not match at dimension 1 expected index [1, 5] to be no larger than self [3, 4] apart from dimension 0")
    err_case("gather/error/oob", "gather", [x, torch.tensor([[0, 4]])], {"dim": 1},
             "index 4 is out of bounds for dimension 1 with size 4")
    err_case("gather/error/negative", "gather", [x, torch.tensor([[-1]])], {"dim": 0},
             "index -1 is out of bounds for dimension 0 with size 3")
    err_case("gather/error/dim", "gather", [x, idx], {"dim": 2}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    err_case("scatter/error/src-dtype", "scatter", [x, idx, torch.ones(3, 4, dtype=f64)], {"dim": 0},
             "scatter(): Expected self.dtype to be equal to src.dtype")
    add_case("scatter/float32/int32-index", "scatter", [x, idx.int(), torch.ones(3, 4)], {"dim": 0})
    err_case("scatter/error/src-small", "scatter", [x, torch.zeros(1, 4, dtype=i64), torch.ones(1, 3)], {"dim": 0},
             "Expected index [1, 4] to be no larger than self [3, 4] apart from dimension 0 and to be no larger size than src [1, 3]")
    err_case("scatter/error/index-big", "scatter", [x, torch.zeros(1, 5, dtype=i64)], {"dim": 0, "value": 1.0},
             "Expected index [1, 5] to be no larger than self [3, 4] apart from dimension 0")
    err_case("scatter/error/ndim", "scatter", [x, L(0), torch.ones(1)], {"dim": 0},
             "Index tensor must have the same number of dimensions as self tensor")
    err_case("scatter/error/src-ndim", "scatter", [x, torch.zeros(1, 1, dtype=i64), torch.ones(1, 1, 1)], {"dim": 0},
             "Index tensor must have the same number of dimensions as src tensor")
    err_case("scatter/error/oob", "scatter", [x, torch.tensor([[3]]), torch.ones(1, 1)], {"dim": 0},
             "index 3 is out of bounds for dimension 0 with size 3")
    err_case("scatter_add/error/oob", "scatter_add", [x, torch.tensor([[0, -1]]), torch.ones(1, 2)], {"dim": 1},
             "index -1 is out of bounds for dimension 1 with size 4")
    err_case("scatter_reduce/error/reduce", "scatter_reduce", [x, idx, torch.ones(3, 4)], {"dim": 0, "reduce": "add"},
             "reduce argument must be either sum, prod, mean, amax or amin, got add")
    # "max" and "min" are accepted as aliases of amax and amin (ATen's get_reduction_enum)
    for red in ("max", "min"):
        add_case("scatter_reduce/float32/alias-" + red, "scatter_reduce", [x, idx, torch.ones(2, 4) * 5],
                 {"dim": 0, "reduce": red, "include_self": False})
    err_case("scatter_reduce/error/bool-mean", "scatter_reduce", [torch.tensor([True]), L(0), torch.tensor([True])],
             {"dim": 0, "reduce": "mean"}, "not implemented for 'Bool'")
    err_case("scatter_reduce/error/complex-amax", "scatter_reduce", [torch.ones(1, dtype=c64), L(0), torch.ones(1, dtype=c64)],
             {"dim": 0, "reduce": "amax"}, "not implemented for 'ComplexFloat'")


# ---------------------------------------------------------------- index_* family

def index_block():
    x = ar(3, 4)
    for dt in (f32, i64, f16, b, c64):
        src = (ar(3, 4, dtype=f64) % 3 == 1) if dt == b else (ar(3, 4, dtype=f64) - 5).to(dt)
        name = dname(dt)
        add_case("index_select/%s/dim0" % name, "index_select", [src, L(2, 0, 2)], {"dim": 0})
        add_case("index_select/%s/dim1" % name, "index_select", [src, L(3, 1)], {"dim": 1})
        add_case("index_add/%s/dup" % name, "index_add", [src, L(0, 0, 2), src[:, :3].t().contiguous()], {"dim": 1})
        add_case("index_copy/%s/dim0" % name, "index_copy", [src, L(2, 0), src[:2] * 0 if dt != b else ~src[:2]],
                 {"dim": 0})
        add_case("index_fill/%s/dim1" % name, "index_fill", [src, L(1, -1)], {"dim": 1, "value": True if dt == b else 2})
    add_case("index_select/float32/int32", "index_select", [x, torch.tensor([1, 1], dtype=i32)], {"dim": 1})
    add_case("index_select/float32/0d-index", "index_select", [x, torch.tensor(2)], {"dim": 0})
    add_case("index_select/float32/noncontig", "index_select", [NC(ar(4, 3), 0, 1), L(2, 0, 1)], {"dim": 1})
    add_case("index_select/float32/empty", "index_select", [x, L()], {"dim": 0})
    add_case("index_select/float32/0d-self", "index_select", [torch.tensor(5.0), L(0)], {"dim": 0})
    add_case("index_select/float32/3d", "index_select", [ar(2, 3, 4), L(1, 1, 0)], {"dim": 1})
    add_case("index_add/float32/alpha", "index_add", [x, L(1, 1), torch.ones(2, 4)], {"dim": 0, "alpha": 0.5})
    add_case("index_add/int64/alpha", "index_add", [ar(3, 4, dtype=i64), L(0), torch.ones(1, 4, dtype=i64)], {"dim": 0, "alpha": 3})
    add_case("index_add/float32/int32-index", "index_add", [x, torch.tensor([2, 2], dtype=i32), torch.ones(2, 4)], {"dim": 0})
    add_case("index_add/float32/noncontig", "index_add", [NC(ar(4, 3), 0, 1), L(0, 0), NC(ar(2, 3), 0, 1)], {"dim": 1})
    add_case("index_add/float32/3d", "index_add", [torch.zeros(2, 3, 2), L(2, 2, 0, 2), ar(2, 4, 2)], {"dim": 1})
    add_case("index_add/float32/1d", "index_add", [torch.zeros(4), L(3, 3, 1), torch.tensor([1.0, 2, 3])], {"dim": 0})
    add_case("index_copy/float32/3d", "index_copy", [torch.zeros(2, 3, 2), L(2, 0), ar(2, 2, 2) + 1], {"dim": 1})
    add_case("index_copy/float32/noncontig", "index_copy", [NC(ar(4, 3), 0, 1), L(3, 0), NC(ar(2, 3), 0, 1)], {"dim": 1})
    add_case("index_fill/float32/tensor-value", "index_fill_tensor", [x, L(0), torch.tensor(-3.0)], {"dim": 0})
    add_case("index_fill/int64/float-value", "index_fill", [ar(3, 4, dtype=i64), L(2)], {"dim": 0, "value": 1.5})
    add_case("index_fill/float32/0d-self", "index_fill", [torch.tensor(5.0), L(0)], {"dim": 0, "value": 1.0})
    add_case("index_fill/float32/noncontig", "index_fill", [NC(ar(4, 3), 0, 1), L(3)], {"dim": 1, "value": 0.0})

    err_case("index_select/error/2d-index", "index_select", [x, torch.zeros(1, 1, dtype=i64)], {"dim": 0},
             "index_select(): Index is supposed to be a vector")
    err_case("index_select/error/dtype", "index_select", [x, torch.zeros(1)], {"dim": 0},
             "index_select(): Expected dtype int32 or int64 for index")
    err_case("index_select/error/oob", "index_select", [x, L(3)], {"dim": 0}, "index out of range in self")
    err_case("index_select/error/negative", "index_select", [x, L(-1)], {"dim": 0}, "index out of range in self")
    err_case("index_add/error/2d-index", "index_add", [x, torch.zeros(1, 1, dtype=i64), torch.ones(1, 4)], {"dim": 0},
             "index_add_(): Index is supposed to be a vector, but got dim: 2 with type: Long and size: [1, 1]")
    err_case("index_add/error/dtype", "index_add", [x, torch.zeros(1), torch.ones(1, 4)], {"dim": 0},
             "index_add_(): Expected dtype int32/int64 for index but got: Float")
    err_case("index_add/error/source-dtype", "index_add", [x, L(0), torch.ones(1, 4, dtype=f64)], {"dim": 0},
             "index_add_(): self (Float) and source (Double) must have the same scalar type")
    err_case("index_add/error/count", "index_add", [x, L(0, 1), torch.ones(1, 4)], {"dim": 0},
             "index_add_(): Number of indices (2) should be equal to source.size(dim): (1), for dim: 0")
    err_case("index_add/error/slice-shape", "index_add", [x, L(0), torch.ones(1, 3)], {"dim": 0},
             "source tensor shape must match self tensor shape, excluding the specified dimension. "
             "Got self.shape = [3, 4] source.shape = [1, 3]")
    err_case("index_add/error/slice-broadcast", "index_add", [x, L(0), torch.ones(1, 1)], {"dim": 0},
             "source tensor shape must match self tensor shape, excluding the specified dimension. "
             "Got self.shape = [3, 4] source.shape = [1, 1]")
    # dim 0 or last, int64 index, alpha 1: ATen runs index_add as scatter_add (its error, its float accumulation)
    err_case("index_add/error/oob", "index_add", [x, L(3), torch.ones(1, 4)], {"dim": 0},
             "index 3 is out of bounds for dimension 0 with size 3")
    err_case("index_add/error/oob-int32", "index_add", [x, torch.tensor([3], dtype=i32), torch.ones(1, 4)], {"dim": 0},
             "index out of range in self")
    err_case("index_add/error/oob-alpha", "index_add", [x, L(3), torch.ones(1, 4)], {"dim": 0, "alpha": 2},
             "index out of range in self")
    err_case("index_add/error/oob-1d", "index_add", [torch.zeros(3), L(5), torch.ones(1)], {"dim": 0},
             "index out of range in self")
    big = torch.tensor([[2048.0, 2048.0], [1.0, 1.0], [1.0, 1.0]])
    for dt in (f16, bf16):
        add_case("index_add/%s/rows-accumulate" % dname(dt), "index_add",
                 [torch.zeros(1, 2, dtype=dt), L(0, 0, 0), big.to(dt)], {"dim": 0})
        add_case("index_add/%s/rows-accumulate-int32" % dname(dt), "index_add",
                 [torch.zeros(1, 2, dtype=dt), torch.tensor([0, 0, 0], dtype=i32), big.to(dt)], {"dim": 0})
        add_case("index_add/%s/middle-dim-accumulate" % dname(dt), "index_add",
                 [torch.zeros(2, 1, 2, dtype=dt), L(0, 0, 0), big.t().unsqueeze(2).expand(2, 3, 2).contiguous().to(dt)],
                 {"dim": 1})
        add_case("scatter_reduce/%s/sum-accumulate" % dname(dt), "scatter_reduce",
                 [torch.zeros(1, dtype=dt), L(0, 0, 0), torch.tensor([2048.0, 1.0, 1.0], dtype=dt)],
                 {"dim": 0, "reduce": "sum"})
        add_case("scatter_reduce/%s/prod-accumulate" % dname(dt), "scatter_reduce",
                 [torch.ones(1, dtype=dt), L(0, 0, 0, 0), torch.tensor([1.5, 1.25, 1.125, 1.0625], dtype=dt)],
                 {"dim": 0, "reduce": "prod"})
    err_case("index_copy/error/2d-index", "index_copy", [x, torch.zeros(1, 1, dtype=i64), torch.ones(1, 4)], {"dim": 0},
             "index_copy_(): Index should have dimension 1 or 0 (got 2)")
    err_case("index_copy/error/dtype", "index_copy", [x, torch.tensor([0], dtype=i32), torch.ones(1, 4)], {"dim": 0},
             "index_copy_(): Expected a long tensor for index, but got Int")
    err_case("index_copy/error/source-dtype", "index_copy", [x, L(0), torch.ones(1, 4, dtype=f64)], {"dim": 0},
             "index_copy_(): self and source expected to have the same dtype, but got (self) Float and (source) Double")
    err_case("index_copy/error/ndim", "index_copy", [x, L(0), torch.ones(4)], {"dim": 0},
             "index_copy_(): When source and destination are not scalars, their dimensionality must match. Source dimensionality (1), "
             "destination dimensionality (2)")
    err_case("index_copy/error/slice-shape", "index_copy", [x, L(0), torch.ones(1, 3)], {"dim": 0},
             "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: 4 at dimension 0 and "
             "source slice shape: 3 at dimension 0.")
    err_case("index_copy/error/slice-shape-3d", "index_copy", [torch.zeros(2, 3, 4), L(0), torch.ones(2, 1, 5)], {"dim": 1},
             "index_copy_(): Source/destination tensor must have same slice shapes.")
    err_case("index_copy/error/count", "index_copy", [x, L(0, 1), torch.ones(1, 4)], {"dim": 0},
             "index_copy_(): Number of indices (2) should be equal to source.size(dim) (1)")
    err_case("index_copy/error/oob", "index_copy", [x, L(3), torch.ones(1, 4)], {"dim": 0},
             "index_copy_(): index 3 is out of bounds for dimension 0 with size 3")
    err_case("index_fill/error/dtype", "index_fill", [x, torch.tensor([0], dtype=i32)], {"dim": 0, "value": 1.0},
             "index_fill_(): Expected dtype int64 for index.")
    err_case("index_fill/error/2d-index", "index_fill", [x, torch.zeros(1, 1, dtype=i64)], {"dim": 0, "value": 1.0},
             "Index has to be a vector/scalar")
    err_case("index_fill/error/1d-value", "index_fill_tensor", [x, L(0), torch.ones(1)], {"dim": 0},
             "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).")
    err_case("index_fill/error/oob", "index_fill", [x, L(-4)], {"dim": 0, "value": 1.0},
             "index -4 is out of bounds for dimension 0 with size 3")
    err_case("index_fill/error/complex-value", "index_fill", [x, L(0)], {"dim": 0, "value": 1j},
             "index_fill_(): Converting complex Scalar to non-complex type is not supported")


# ---------------------------------------------------------------- masks, take, nonzero

def mask_block():
    x = ar(3, 4)
    m = ar(3, 4, dtype=i64) % 3 == 0
    for dt in (f32, i64, b, c64, f16):
        src = (ar(3, 4, dtype=f64) % 2 == 1) if dt == b else (ar(3, 4, dtype=f64) - 5).to(dt)
        name = dname(dt)
        add_case("masked_select/%s/same" % name, "masked_select", [src, m])
        add_case("masked_scatter/%s/same" % name, "masked_scatter", [src, m, (ar(5, dtype=f64) + 100).to(dt) if dt != b
                                                                    else torch.ones(5, dtype=b)])
        add_case("take/%s/2d" % name, "take", [src, torch.tensor([[0, -1], [5, 11]])])
        add_case("nonzero/%s/2d" % name, "nonzero", [src])
    add_case("masked_select/float32/bcast-mask", "masked_select", [x, torch.tensor([True, False, False, True])])
    add_case("masked_select/float32/bcast-self", "masked_select", [torch.arange(3.0), torch.tensor([[True, False, True], [False] * 3])])
    add_case("masked_select/float32/noncontig", "masked_select", [NC(ar(4, 3), 0, 1), NC(ar(4, 3, dtype=i64) % 2 == 0, 0, 1)])
    add_case("masked_select/float32/0d-mask", "masked_select", [x, torch.tensor(True)])
    add_case("masked_select/float32/empty", "masked_select", [torch.zeros(0, 3), torch.zeros(0, 3, dtype=b)])
    add_case("masked_scatter/float32/bcast-mask", "masked_scatter", [x, torch.tensor([False, True, True, False]), ar(7) + 1])
    add_case("masked_scatter/float32/bcast-self", "masked_scatter", [torch.zeros(3), torch.tensor([[True, False, True], [False, True, False]]),
                                                                    ar(2, 2) + 1])
    add_case("masked_scatter/float32/noncontig", "masked_scatter", [NC(ar(4, 3), 0, 1), NC(ar(4, 3, dtype=i64) % 2 == 0, 0, 1),
                                                                   NC(ar(3, 3), 0, 1)])
    add_case("take/float32/noncontig", "take", [NC(ar(4, 3), 0, 1), L(0, 1, 4)])
    add_case("take/float32/0d-index", "take", [x, torch.tensor(7)])
    add_case("take/float32/empty", "take", [torch.zeros(0), L()])
    add_case("take_along_dim/float32/none", "take_along_dim", [x, L(11, 0, 5)])
    add_case("take_along_dim/float32/dim1", "take_along_dim", [x, torch.tensor([[0], [3], [1]])], {"dim": 1})
    add_case("take_along_dim/float32/bcast", "take_along_dim", [ar(1, 3, 4), torch.tensor([[[0]], [[1]]])], {"dim": 2})
    add_case("take_along_dim/float32/bcast-index", "take_along_dim", [ar(2, 3, 4), torch.tensor([[[2, 0]]])], {"dim": -1})
    add_case("take_along_dim/int64/dim0", "take_along_dim", [ar(3, 4, dtype=i64), torch.tensor([[2, 1, 0, 2]])], {"dim": 0})
    add_case("take_along_dim/float32/none-noncontig", "take_along_dim", [NC(ar(4, 3), 0, 1), L(0, 1)])
    add_case("nonzero/float32/special", "nonzero", [torch.tensor([0.0, -0.0, NAN, 1e-40, -2.0])])
    add_case("nonzero/float32/0d", "nonzero", [torch.tensor(3.0)])
    add_case("nonzero/float32/0d-zero", "nonzero", [torch.tensor(0.0)])
    add_case("nonzero/float32/empty", "nonzero", [torch.zeros(2, 0, 3)])
    add_case("nonzero/float32/3d", "nonzero", [ar(2, 3, 4) % 5 == 0])
    add_case("nonzero/float32/noncontig", "nonzero", [NC(ar(4, 3) % 4, 0, 1)])
    add_case("nonzero/complex64/imag", "nonzero", [torch.tensor([0j, 1j, 1 + 0j, 0j], dtype=c64)])
    add_case("nonzero/bfloat16/negzero", "nonzero", [torch.tensor([-0.0, 0.5, 0.0], dtype=bf16)])
    add_case("nonzero/float32/as_tuple", "nonzero", [ar(2, 3, 4) % 7 == 1], {"as_tuple": True})
    add_case("nonzero/float32/as_tuple-0d", "nonzero", [torch.tensor(1.0)], {"as_tuple": True})
    add_case("nonzero/float32/as_tuple-0d-zero", "nonzero", [torch.tensor(0.0)], {"as_tuple": True})
    add_case("where/bool/2d", "where", [ar(3, 4, dtype=i64) % 4 == 1])
    add_case("where/int64/1d", "where", [L(0, 3, 0, -1)])

    err_case("masked_select/error/mask-dtype", "masked_select", [x, torch.ones(4)], {}, "masked_select: expected BoolTensor")
    err_case("masked_select/error/mask-uint8", "masked_select", [x, torch.ones(4, dtype=u8)], {},
             "masked_select: expected BoolTensor for mask")
    err_case("masked_select/error/shape", "masked_select", [x, torch.ones(5, dtype=b)], {},
             "The size of tensor a (5) must match the size of tensor b (4) at non-singleton dimension 1")
    err_case("masked_scatter/error/source-dtype", "masked_scatter", [x, m, torch.ones(12, dtype=f64)], {},
             "expected self and source to have same dtypes but got")
    err_case("masked_scatter/error/short", "masked_scatter", [x, m, torch.ones(2)], {},
             "Number of elements of source < number of ones in mask")
    err_case("masked_scatter/error/mask-dtype", "masked_scatter", [x, torch.ones(4), torch.ones(12)], {},
             "masked_scatter_ only supports boolean masks")
    err_case("take/error/oob", "take", [x, L(12)], {}, "out of range: tried to access index 12 on a tensor of 12 elements.")
    err_case("take/error/oob-neg", "take", [x, L(-13)], {}, "out of range: tried to access index -13 on a tensor of 12 elements.")
    err_case("take/error/dtype", "take", [x, torch.tensor([0], dtype=i32)], {}, "take(): Expected a long tensor for index, but got Int")
    err_case("take/error/empty-self", "take", [torch.zeros(0), L(0)], {}, "take(): tried to take from an empty tensor")
    err_case("take_along_dim/error/ndim", "take_along_dim", [x, L(0)], {"dim": 1},
             "torch.take_along_dim(): input and indices should have the same number of dimensions, but got 2 dimensions for input, "
             "and 1 dimensions for indices")
    err_case("take_along_dim/error/dtype", "take_along_dim", [x, torch.tensor([[0]], dtype=i32)], {"dim": 1},
             "torch.take_along_dim(): dtype of indices should be Long but got Int")
    err_case("take_along_dim/error/oob", "take_along_dim", [x, torch.tensor([[4]])], {"dim": 1},
             "index 4 is out of bounds for dimension 1 with size 4", note=NOTE_OOB_WRAP)
    err_case("take_along_dim/error/oob-full", "take_along_dim", [x, torch.tensor([[4], [0], [1]])], {"dim": 1},
             "index 4 is out of bounds for dimension 1 with size 4", note=NOTE_OOB_WRAP)


# ================================================================ main

def write(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in CASES]
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_indexing.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"cases":[\n' + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)
    return os.path.getsize(path)


def main():
    getitem_block()
    setitem_block()
    gather_scatter_block()
    index_block()
    mask_block()
    size = write(OUT)
    sys.stderr.write("wrote %s: %d cases, %d bytes\n" % (os.path.relpath(OUT), len(CASES), size))
    for w in WARNINGS:
        sys.stderr.write("WARNING %s\n" % w)


if __name__ == "__main__":
    main()

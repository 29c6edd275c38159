#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's core tensor ops.

What it makes
    jtorch/src/test/resources/golden/core.json: reference inputs and outputs
    computed by real PyTorch for JTorch's core ops (binary/unary pointwise,
    type promotion, float16/bfloat16 rounding, reductions, shape/view ops,
    creation ops, matrix products, tensor printing).  The Java tests read the
    committed JSON, so CI needs no Python.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_core.py
    with a Python whose `import torch` is PyTorch 2.13 (CPU wheel) plus numpy/scipy:
        python -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy scipy

Requirements
    PyTorch 2.13 (CPU).
    The output is deterministic: every input is built from fixed values or a
    torch.Generator seeded from the case id, torch.manual_seed(0) is set,
    one intra-op thread is used, keys are sorted and nothing time-dependent is
    written.  Re-running with the same torch build gives a byte-identical file.

2.13 versus 2.15
    The reference results come from PyTorch 2.13.  JTorch follows the PyTorch
    2.15 contract; where 2.13 semantics differ from it, the case carries a
    "note" (e.g. "2.13 semantics; 2.15 differs") and the Java tests follow the
    2.15 spec for those cases and say so (skip or override).  Ops/dtypes that
    2.13 cannot run on CPU are simply skipped; the script prints the list of
    skips on stderr.

    2.15 changes newer than this reference (pinned by the spec and the Java
    tests, not by these fixtures):
    - float16/bfloat16 linspace computes in float and rounds once (NOTE_213);
    - ordering complex numbers (max/min/argmax/sort/lt/...) is a TypeError;
    - nansum/argmax refusals are NotImplementedError (same messages);
    - bfloat16 with a 0-d/scalar complex operand promotes to bcomplex32.

File format (kept simple for a tiny JSON reader)
    {"cases": [case, ...], "generator": "make_golden_core.py", "torch": "<version>"}
    case = {"id": "add/float32/bcast", "op": "add", "args": [...],
            "kwargs": {...}, "out": ..., ["note": "..."]}
    Tensor T = {"dtype": "float32", "shape": [2, 3], "data": [row-major values]}
        - non-finite floats are the strings "nan", "inf", "-inf"
        - bool data is true/false, integer dtypes are JSON integers
        - complex data is flattened [re0, im0, re1, im1, ...]
        - float16/bfloat16/float32 values are written exactly (Python repr of
          the value widened to float64)
        - optional "transpose": [d0, d1]: data/shape describe the tensor
          BEFORE transposing; the op input is t.transpose(d0, d1)
          (a non-contiguous view).
    args: tensors are T; Python scalars are {"scalar": v} with v a number
        (JSON 3 = int, 3.0 = float), true/false, "nan"/"inf"/"-inf", or
        [re, im] for a complex scalar; a list of tensors (cat, stack) is a JSON
        list of T.
    kwargs: PyTorch keyword names.  Plain numbers/bools/strings/ints-lists are
        raw JSON (3 = int, 3.0 = float, non-finite floats as strings), a
        "dtype" value is a dtype name string, tensors are T, complex scalars
        are {"scalar": [re, im]}, None is null.
    out: T, a list of T (max/min with dim -> [values, indices]; chunk, split),
        {"error": "substring of the exception message"} or, for op "repr",
        {"string": repr(tensor)}.
    Special ops: "slice" is t[..., start:end:step] along kwarg dim; "to" is
        t.to(dtype); "conj" is t.conj().resolve_conj(); "gelu", "silu",
        "softplus", "hardtanh" are torch.nn.functional ops; "vector_norm" is
        torch.linalg.vector_norm; "repr" is repr(t).  All view results are
        materialised (.contiguous()).
"""

import json
import math
import os
import re
import sys
import warnings
import zlib

try:
    import torch
except ImportError:
    sys.exit("make_golden_core.py needs a Python with PyTorch 2.13 (see the header)")
import torch.nn.functional as F

warnings.filterwarnings("ignore")
torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_printoptions(profile="default")

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "core.json"))

NOTE_213 = "2.13 semantics; 2.15 differs"

ALL_DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32,
              torch.int64, torch.float16, torch.bfloat16, torch.float32,
              torch.float64, torch.complex64, torch.complex128]
INT_DTYPES = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
FLOAT_DTYPES = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
COMPLEX_DTYPES = [torch.complex64, torch.complex128]

f32, f64, i64, i32 = torch.float32, torch.float64, torch.int64, torch.int32
c64, c128, f16, bf16 = torch.complex64, torch.complex128, torch.float16, torch.bfloat16

NAN, INF = float("nan"), float("inf")


def dname(dt):
    return str(dt).replace("torch.", "")


# ---------------------------------------------------------------- encoding

class NC(object):
    """A non-contiguous input: base tensor, used as base.transpose(d0, d1)."""

    def __init__(self, base, d0=0, d1=1):
        self.base, self.d0, self.d1 = base, d0, d1

    def value(self):
        return self.base.transpose(self.d0, self.d1)


def enc_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def enc_tensor(t, transpose=None):
    t = t.detach().contiguous()
    flat = t.reshape(-1)
    if t.dtype == torch.bool:
        data = [bool(v) for v in flat.tolist()]
    elif t.dtype.is_complex:
        data = [enc_float(v) for v in torch.view_as_real(flat.to(c128)).reshape(-1).tolist()]
    elif t.dtype.is_floating_point:
        data = [enc_float(v) for v in flat.to(f64).tolist()]
    else:
        data = [int(v) for v in flat.tolist()]
    d = {"dtype": dname(t.dtype), "shape": list(t.shape), "data": data}
    if transpose is not None:
        d["transpose"] = list(transpose)
    return d


def enc_scalar_value(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return enc_float(v)
    if isinstance(v, complex):
        return [enc_float(v.real), enc_float(v.imag)]
    raise TypeError(v)


def enc_arg(a):
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
    if isinstance(v, torch.dtype):
        return dname(v)
    if isinstance(v, NC):
        return enc_tensor(v.base, (v.d0, v.d1))
    if isinstance(v, torch.Tensor):
        return enc_tensor(v)
    if isinstance(v, complex):
        return {"scalar": enc_scalar_value(v)}
    if isinstance(v, float):
        return enc_float(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, (list, tuple)):
        return [enc_kwarg(x) for x in v]
    raise TypeError(type(v))


def enc_out(r):
    if isinstance(r, torch.Tensor):
        return enc_tensor(r)
    if isinstance(r, str):
        return {"string": r}
    if isinstance(r, (tuple, list)):
        return [enc_out(x) for x in r]
    raise TypeError(type(r))


def materialize(a):
    if isinstance(a, NC):
        return a.value()
    if isinstance(a, (list, tuple)):
        return [materialize(x) for x in a]
    return a


def clean_msg(e):
    msg = str(e).strip()
    if isinstance(e, ZeroDivisionError):
        msg = "ZeroDivisionError" if not msg else msg
    msg = msg.splitlines()[0] if msg else type(e).__name__
    msg = re.sub(r"0x[0-9a-fA-F]+", "", msg)
    return msg[:60].rstrip()


# ---------------------------------------------------------------- ops

def _slice(t, dim, start, end, step):
    idx = [slice(None)] * t.dim()
    idx[dim] = slice(start, end, step)
    return t[tuple(idx)]


SPECIAL_FN = {
    "gelu": F.gelu,
    "silu": F.silu,
    "softplus": F.softplus,
    "hardtanh": F.hardtanh,
    "relu": torch.relu,
    "vector_norm": torch.linalg.vector_norm,
    "conj": lambda t: t.conj().resolve_conj(),
    "to": lambda t, dtype: t.to(dtype),
    "slice": _slice,
    "repr": repr,
    "view": lambda t, size: t.view(size),
    "expand": lambda t, size: t.expand(size),
    "repeat": lambda t, repeats: t.repeat(repeats),
    "unflatten": lambda t, dim, sizes: t.unflatten(dim, sizes),
}


def op_fn(op):
    if op in SPECIAL_FN:
        return SPECIAL_FN[op]
    return getattr(torch, op)


# ---------------------------------------------------------------- case store

CASES = []
IDS = set()
SKIPPED = []          # (id, message) for ops/dtypes 2.13 cannot run on CPU
SKIPPED_BINDING = []  # (id, message) for argument forms the Python API rejects
FAMILY_COUNT = {}
WARNINGS = []         # expected-error cases whose outcome differed
_family = ["?"]


def family(name):
    _family[0] = name


def unsupported(msg):
    # kernel-dispatch failures look like: "exp_vml_cpu" not implemented for 'Half'
    return re.search(r"\" not implemented for '", msg) is not None


def binding_error(msg):
    # the Python signature does not accept these arguments (e.g. maximum(t, 2.0),
    # prod(t, dim=[0, 2])): an API-surface matter, not tensor semantics
    return (re.search(r"argument '\w+' (\(position \d+\) )?must be \w+, not \w+", msg) is not None
            or "received an invalid combination of arguments" in msg)


def _post(r):
    if isinstance(r, torch.Tensor):
        return r.contiguous()
    if isinstance(r, (tuple, list)):
        return [_post(x) for x in r]
    return r


def add_case(cid, op, args, kwargs=None, fn=None, note=None, error=None,
             sweep=False):
    """Run op(*args, **kwargs) and record the case.

    error: expected message substring (the case must raise, and the recorded
    error is that substring).  sweep: an exception meaning "2.13 cannot do
    this" skips the case instead of recording it.
    """
    kwargs = dict(kwargs or {})
    if cid in IDS:
        raise ValueError("duplicate id " + cid)
    fn = fn or op_fn(op)
    try:
        r = fn(*materialize(list(args)),
               **{k: materialize(v) for k, v in kwargs.items()})
        out = enc_out(_post(r))
        if error is not None:
            WARNINGS.append("%s: expected error %r but got a result" % (cid, error))
    except Exception as e:  # noqa: BLE001
        msg = clean_msg(e)
        full = str(e)
        if error is not None:
            if error in full:
                out = {"error": error}
            else:
                WARNINGS.append("%s: expected %r, message was %r" % (cid, error, full[:200]))
                out = {"error": msg}
        elif sweep and unsupported(full):
            SKIPPED.append((cid, msg))
            return None
        elif sweep and binding_error(full):
            SKIPPED_BINDING.append((cid, msg))
            return None
        else:
            out = {"error": msg}
    IDS.add(cid)
    case = {"id": cid, "op": op, "args": [enc_arg(a) for a in args],
            "kwargs": {k: enc_kwarg(v) for k, v in kwargs.items()}, "out": out}
    if note:
        case["note"] = note
    CASES.append(case)
    FAMILY_COUNT[_family[0]] = FAMILY_COUNT.get(_family[0], 0) + 1
    return case


def err_case(cid, op, args, kwargs, error, fn=None, note=None):
    return add_case(cid, op, args, kwargs, fn=fn, note=note, error=error)


# ---------------------------------------------------------------- inputs

def gen(key):
    return torch.Generator().manual_seed(zlib.crc32(key.encode("utf-8")))


def _q(x, step=32.0):
    return torch.round(x * step) / step


def rand_real(shape, g, dom):
    """float64 values in a domain, quantised so they print compactly."""
    n = shape
    if dom == "any":
        return _q(torch.randn(n, generator=g, dtype=f64) * 2.0)
    if dom == "pos":
        return torch.clamp(_q(torch.rand(n, generator=g, dtype=f64) * 4.0 + 0.05, 64.0), min=1.0 / 64)
    if dom == "unit":
        return _q(torch.rand(n, generator=g, dtype=f64) * 1.9 - 0.95, 64.0)
    if dom == "ge1":
        return _q(torch.rand(n, generator=g, dtype=f64) * 4.0 + 1.0, 32.0)
    if dom == "prob":
        return _q(torch.rand(n, generator=g, dtype=f64) * 0.96 + 0.02, 64.0)
    if dom == "exp":
        return _q(torch.rand(n, generator=g, dtype=f64) * 6.0 - 3.0, 4.0)
    if dom == "few":
        return torch.randint(-2, 3, n, generator=g).to(f64)
    if dom == "shift":
        return torch.randint(0, 8, n, generator=g).to(f64)
    if dom == "nonzero":
        v = _q(torch.randn(n, generator=g, dtype=f64) * 2.0, 8.0)
        return torch.where(v == 0, torch.full_like(v, 0.5), v)
    raise ValueError(dom)


INT_RANGE = {torch.uint8: (0, 16), torch.int8: (-8, 8), torch.int16: (-50, 50),
             torch.int32: (-100, 100), torch.int64: (-100, 100)}


def rand_int(shape, g, dom, dt):
    lo, hi = INT_RANGE[dt]
    if dom in ("pos", "ge1"):
        lo, hi = 1, 10
    elif dom in ("unit", "few"):
        lo, hi = (-1, 2) if dom == "unit" else (-2, 3)
    elif dom == "prob":
        lo, hi = 0, 2
    elif dom in ("exp",):
        lo, hi = 0, 4
    elif dom == "shift":
        lo, hi = 0, 8
    if dt == torch.uint8:
        lo = max(lo, 0)
    v = torch.randint(lo, hi, shape, generator=g)
    if dom == "nonzero":
        v = torch.where(v == 0, torch.ones_like(v), v)
    return v.to(dt)


def mk(key, shape, dt, dom="any"):
    """A deterministic random tensor for case `key`."""
    g = gen(key)
    shape = tuple(shape)
    if dt == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dt in INT_DTYPES:
        return rand_int(shape, g, dom, dt)
    if dt.is_complex:
        re_ = rand_real(shape, g, dom)
        im_ = rand_real(shape, g, "any" if dom in ("pos", "ge1", "prob") else dom)
        return torch.complex(re_, im_).to(dt)
    return rand_real(shape, g, dom).to(dt)


SPECIAL_BIN = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, NAN, INF, -INF]
SPECIAL_UN = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.5, -2.5, 10.0,
              -10.0, 100.0, 1e-8, -1e-8, 88.5, -88.5, NAN, INF, -INF]


def special_pair(dt):
    s = torch.tensor(SPECIAL_BIN, dtype=f64)
    n = len(SPECIAL_BIN)
    a = s.repeat_interleave(n).reshape(n, n).to(dt)
    b = s.repeat(n).reshape(n, n).to(dt)
    return a, b


INT_SPECIAL_A = [-7, -3, -1, 0, 1, 3, 7]
INT_SPECIAL_B = [-3, -2, -1, 1, 2, 3]


def int_special_pair(dt):
    a = torch.tensor(INT_SPECIAL_A).repeat_interleave(len(INT_SPECIAL_B))
    b = torch.tensor(INT_SPECIAL_B).repeat(len(INT_SPECIAL_A))
    return a.reshape(len(INT_SPECIAL_A), -1).to(dt), b.reshape(len(INT_SPECIAL_A), -1).to(dt)


# ================================================================ binary

BINARY = [
    # op, (domA, domB), kwargs variants, special grids
    ("add", ("any", "any"), [{"alpha": 2}, {"alpha": 0.5}, {"alpha": -1}], True),
    ("sub", ("any", "any"), [{"alpha": 2}, {"alpha": 0.5}], True),
    ("mul", ("any", "any"), [], True),
    ("div", ("any", "nonzero"), [{"rounding_mode": "trunc"}, {"rounding_mode": "floor"}], True),
    ("remainder", ("any", "nonzero"), [], True),
    ("fmod", ("any", "nonzero"), [], True),
    ("pow", ("pos", "exp"), [], True),
    ("maximum", ("few", "few"), [], True),
    ("minimum", ("few", "few"), [], True),
    ("fmax", ("few", "few"), [], True),
    ("fmin", ("few", "few"), [], True),
    ("atan2", ("any", "any"), [], True),
    ("eq", ("few", "few"), [], True),
    ("ne", ("few", "few"), [], True),
    ("lt", ("few", "few"), [], True),
    ("le", ("few", "few"), [], True),
    ("gt", ("few", "few"), [], True),
    ("ge", ("few", "few"), [], True),
    ("logical_and", ("few", "few"), [], True),
    ("logical_or", ("few", "few"), [], True),
    ("logical_xor", ("few", "few"), [], True),
    ("bitwise_and", ("any", "any"), [], False),
    ("bitwise_or", ("any", "any"), [], False),
    ("bitwise_xor", ("any", "any"), [], False),
    ("bitwise_left_shift", ("any", "shift"), [], False),
    ("bitwise_right_shift", ("any", "shift"), [], False),
    ("hypot", ("any", "any"), [], True),
    ("copysign", ("any", "any"), [], True),
    ("xlogy", ("any", "pos"), [], True),
]

INT_GRID_OPS = {"div", "remainder", "fmod", "bitwise_and", "bitwise_or",
                "bitwise_xor", "add", "sub", "mul", "maximum", "minimum"}


def binary_block():
    family("binary")
    for op, (da, db), variants, specials in BINARY:
        # every dtype, same shape
        for dt in ALL_DTYPES:
            k = "%s/%s/same" % (op, dname(dt))
            add_case(k, op, [mk(k + "a", [2, 3], dt, da), mk(k + "b", [2, 3], dt, db)], sweep=True)
        for dt in (f32, i64):
            k = "%s/%s/bcast" % (op, dname(dt))
            add_case(k, op, [mk(k + "a", [2, 1, 3], dt, da), mk(k + "b", [4, 3], dt, db)], sweep=True)
        k = "%s/float32/bcast-row" % op
        add_case(k, op, [mk(k + "a", [3, 1], f32, da), mk(k + "b", [1, 4], f32, db)], sweep=True)
        k = "%s/float32/dim-0d" % op
        add_case(k, op, [mk(k + "a", [2, 3], f32, da), mk(k + "b", [], f32, db)], sweep=True)
        k = "%s/float32/0d-dim" % op
        add_case(k, op, [mk(k + "a", [], f32, da), mk(k + "b", [3], f32, db)], sweep=True)
        k = "%s/float32/0d-0d" % op
        add_case(k, op, [mk(k + "a", [], f32, da), mk(k + "b", [], f32, db)], sweep=True)
        k = "%s/float32/empty" % op
        add_case(k, op, [mk(k + "a", [0, 3], f32, da), mk(k + "b", [0, 3], f32, db)], sweep=True)
        k = "%s/float32/empty-bcast" % op
        add_case(k, op, [mk(k + "a", [0, 3], f32, da), mk(k + "b", [3], f32, db)], sweep=True)
        for dt in (f32, i64):
            k = "%s/%s/noncontig" % (op, dname(dt))
            add_case(k, op, [NC(mk(k + "a", [3, 2], dt, da)), mk(k + "b", [2, 3], dt, db)], sweep=True)
        k = "%s/float32/noncontig-both" % op
        add_case(k, op, [NC(mk(k + "a", [4, 2], f32, da)), NC(mk(k + "b", [4, 2], f32, db))], sweep=True)
        # python scalars
        sv = {"any": 1.5, "nonzero": -1.5, "pos": 2.25, "exp": 2.0, "few": 1.0,
              "shift": 2.0}[db]
        si = {"any": 3, "nonzero": -3, "pos": 2, "exp": 2, "few": 1, "shift": 2}[db]
        k = "%s/float32/scalar-float" % op
        add_case(k, op, [mk(k + "a", [2, 3], f32, da), sv], sweep=True)
        k = "%s/float32/scalar-int" % op
        add_case(k, op, [mk(k + "a", [2, 3], f32, da), si], sweep=True)
        k = "%s/int64/scalar-int" % op
        add_case(k, op, [mk(k + "a", [2, 3], i64, da), si], sweep=True)
        k = "%s/int64/scalar-float" % op
        add_case(k, op, [mk(k + "a", [2, 3], i64, da), sv], sweep=True)
        k = "%s/bool/scalar-bool" % op
        add_case(k, op, [mk(k + "a", [2, 3], torch.bool, da), True], sweep=True)
        if op == "pow":
            k = "pow/float32/scalar-base"
            add_case(k, op, [2.0, mk(k + "b", [2, 3], f32, "exp")])
            k = "pow/int64/scalar-base"
            add_case(k, op, [2, mk(k + "b", [2, 3], i64, "exp")])
            for e in (0, 1, 2, 3, -1, 0.5, -0.5, 2.5, -2.0):
                k = "pow/float32/exp%s" % e
                add_case(k, op, [mk("pow/exp-base", [2, 4], f32, "any"), e])
        # kwarg variants
        for i, kw in enumerate(variants):
            for dt in (f32, i64, f64):
                k = "%s/%s/kw%d" % (op, dname(dt), i)
                add_case(k, op, [mk(k + "a", [2, 3], dt, da), mk(k + "b", [2, 3], dt, db)], kw, sweep=True)
            k = "%s/float32/kw%d-special" % (op, i)
            if specials:
                a, b = special_pair(f32)
                add_case(k, op, [a, b], kw, sweep=True)
            if op in INT_GRID_OPS:
                a, b = int_special_pair(i64)
                add_case("%s/int64/kw%d-grid" % (op, i), op, [a, b], kw, sweep=True)
        # special value grids
        if specials:
            for dt in (f32, f64):
                a, b = special_pair(dt)
                add_case("%s/%s/special" % (op, dname(dt)), op, [a, b], sweep=True)
        if op in INT_GRID_OPS:
            for dt in (i64, i32, torch.int8):
                a, b = int_special_pair(dt)
                add_case("%s/%s/grid" % (op, dname(dt)), op, [a, b], sweep=True)
    # overflow / wrap-around of small integer types
    family("binary")
    a = torch.tensor([250, 200, 255, 0], dtype=torch.uint8)
    b = torch.tensor([10, 100, 1, 1], dtype=torch.uint8)
    add_case("add/uint8/wrap", "add", [a, b])
    add_case("sub/uint8/wrap", "sub", [b, a])
    add_case("mul/uint8/wrap", "mul", [a, b])
    a8 = torch.tensor([127, -128, 100, -100], dtype=torch.int8)
    add_case("add/int8/wrap", "add", [a8, torch.tensor([1, -1, 100, -100], dtype=torch.int8)])
    add_case("mul/int8/wrap", "mul", [a8, torch.tensor([2, 2, 3, 3], dtype=torch.int8)])
    add_case("bitwise_left_shift/int8/overflow", "bitwise_left_shift",
             [torch.tensor([1, 3, -1, 64], dtype=torch.int8), torch.tensor([7, 6, 7, 1], dtype=torch.int8)])
    add_case("bitwise_right_shift/int64/negative", "bitwise_right_shift",
             [torch.tensor([-1, -8, -9, 1 << 40]), torch.tensor([1, 2, 3, 20])])
    # integer division by zero
    z = torch.tensor([1, 0, -1])
    for op, kw in (("div", {"rounding_mode": "trunc"}), ("div", {"rounding_mode": "floor"}),
                   ("remainder", {}), ("fmod", {})):
        add_case("%s/int64/divzero%s" % (op, kw.get("rounding_mode", "")), op,
                 [torch.tensor([5, 3, -7]), z], kw)
    add_case("div/int64/divzero-true", "div", [torch.tensor([5, 0, -7]), torch.tensor([0, 0, 0])])
    # ternary ops
    family("ternary")
    for dt in ALL_DTYPES:
        k = "lerp/%s/scalar-weight" % dname(dt)
        add_case(k, "lerp", [mk(k + "a", [2, 3], dt), mk(k + "b", [2, 3], dt), 0.25], sweep=True)
        k = "lerp/%s/tensor-weight" % dname(dt)
        add_case(k, "lerp", [mk(k + "a", [2, 3], dt), mk(k + "b", [2, 3], dt), mk(k + "w", [2, 3], dt, "prob")], sweep=True)
    for w in (0.0, 0.5, 0.75, 1.0, 1.5, -0.5):
        k = "lerp/float32/w%s" % w
        add_case(k, "lerp", [mk("lerp/w-a", [4], f32), mk("lerp/w-b", [4], f32), w])
    k = "lerp/float32/bcast"
    add_case(k, "lerp", [mk(k + "a", [2, 1, 3], f32), mk(k + "b", [4, 3], f32), mk(k + "w", [3], f32, "prob")])
    k = "lerp/float32/noncontig"
    add_case(k, "lerp", [NC(mk(k + "a", [3, 2], f32)), mk(k + "b", [2, 3], f32), 0.3])
    add_case("lerp/float32/special", "lerp", [torch.tensor([0.0, 1.0, INF, NAN, -INF, 1e30]),
                                              torch.tensor([1.0, INF, INF, 1.0, INF, -1e30]), 0.5])
    k = "lerp/float32/empty"
    add_case(k, "lerp", [mk(k + "a", [0, 3], f32), mk(k + "b", [0, 3], f32), 0.5])
    for op in ("addcmul", "addcdiv"):
        for dt in ALL_DTYPES:
            k = "%s/%s/same" % (op, dname(dt))
            add_case(k, op, [mk(k + "a", [2, 3], dt), mk(k + "b", [2, 3], dt),
                             mk(k + "c", [2, 3], dt, "nonzero")], sweep=True)
            k = "%s/%s/value" % (op, dname(dt))
            add_case(k, op, [mk(k + "a", [2, 3], dt), mk(k + "b", [2, 3], dt),
                             mk(k + "c", [2, 3], dt, "nonzero")], {"value": 0.5 if dt.is_floating_point or dt.is_complex else 2}, sweep=True)
        k = "%s/float32/bcast" % op
        add_case(k, op, [mk(k + "a", [3], f32), mk(k + "b", [2, 1, 3], f32), mk(k + "c", [4, 1], f32, "nonzero")], {"value": -2.0})
        k = "%s/float32/0d" % op
        add_case(k, op, [mk(k + "a", [], f32), mk(k + "b", [], f32), mk(k + "c", [], f32, "nonzero")])
        k = "%s/float32/noncontig" % op
        add_case(k, op, [mk(k + "a", [2, 3], f32), NC(mk(k + "b", [3, 2], f32)), mk(k + "c", [2, 3], f32, "nonzero")], {"value": 3})
        k = "%s/float32/empty" % op
        add_case(k, op, [mk(k + "a", [0, 3], f32), mk(k + "b", [0, 3], f32), mk(k + "c", [0, 3], f32)])
        k = "%s/float32/special" % op
        add_case(k, op, [torch.tensor([1.0, 0.0, INF, NAN, 1.0, -1.0]),
                         torch.tensor([0.0, INF, 1.0, 1.0, -0.0, 2.0]),
                         torch.tensor([INF, 0.0, 0.0, 1.0, 0.0, -0.0])])
    for dt in ALL_DTYPES:
        k = "where/%s/same" % dname(dt)
        add_case(k, "where", [mk(k + "c", [2, 3], torch.bool), mk(k + "a", [2, 3], dt), mk(k + "b", [2, 3], dt)], sweep=True)
    k = "where/float32/bcast"
    add_case(k, "where", [mk(k + "c", [4, 1], torch.bool), mk(k + "a", [2, 1, 3], f32), mk(k + "b", [3], f32)])
    k = "where/float32/0d"
    add_case(k, "where", [mk(k + "c", [], torch.bool), mk(k + "a", [2, 3], f32), mk(k + "b", [], f32)])
    k = "where/float32/noncontig"
    add_case(k, "where", [NC(mk(k + "c", [3, 2], torch.bool)), mk(k + "a", [2, 3], f32), NC(mk(k + "b", [3, 2], f32))])
    k = "where/float32/empty"
    add_case(k, "where", [mk(k + "c", [0, 3], torch.bool), mk(k + "a", [0, 3], f32), mk(k + "b", [3], f32)])
    k = "where/mixed/float32-float64"
    add_case(k, "where", [mk(k + "c", [2, 3], torch.bool), mk(k + "a", [2, 3], f32), mk(k + "b", [2, 3], f64)], sweep=True)
    k = "where/mixed/int64-float32"
    add_case(k, "where", [mk(k + "c", [2, 3], torch.bool), mk(k + "a", [2, 3], i64), mk(k + "b", [2, 3], f32)], sweep=True)
    k = "where/float32/scalar-other"
    add_case(k, "where", [mk(k + "c", [2, 3], torch.bool), mk(k + "a", [2, 3], f32), 0.0], sweep=True)
    k = "where/scalar/scalar-both"
    add_case(k, "where", [mk(k + "c", [2, 3], torch.bool), 1.0, 0.0], sweep=True)


def binary_errors():
    family("binary-errors")
    fa, fb = torch.ones(2, 3), torch.ones(4, 3)
    err_case("add/error/shape", "add", [fa, fb], {}, "The size of tensor a (2) must match the size of tensor b (4) at non-singleton dimension 0")
    err_case("mul/error/shape3", "mul", [torch.ones(2, 3, 4), torch.ones(3, 5)], {}, "The size of tensor a (4) must match the size of tensor b (5) at non-singleton dimension 2")
    err_case("add/error/int-float-alpha", "add", [torch.ones(3, dtype=i64), torch.ones(3, dtype=i64)], {"alpha": 2.5}, "For integral input tensors, argument alpha must not be a floating point number.")
    add_case("add/bool/int-alpha", "add", [torch.tensor([True, False, False]), torch.tensor([True, True, False])], {"alpha": 2})
    err_case("add/error/bool-float-alpha", "add", [torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool)], {"alpha": 0.5}, "For integral input tensors, argument alpha must not be a floating point number.")
    err_case("sub/error/bool", "sub", [torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.bool)], {}, "Subtraction, the `-` operator, with two bool tensors is not supported.")
    err_case("sub/error/bool-scalar", "sub", [torch.ones(3, dtype=torch.bool), True], {}, "Subtraction, the `-` operator, with")
    for op in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift"):
        err_case("%s/error/float" % op, op, [torch.ones(3), torch.ones(3)], {}, "not implemented for 'Float'")
    err_case("bitwise_and/error/float-scalar", "bitwise_and", [torch.ones(3, dtype=i64), 1.5], {}, "not implemented for 'Float'")
    err_case("pow/error/int-negative-int", "pow", [torch.tensor([1, 2, 3]), -1], {}, "Integers to negative integer powers are not allowed.")
    for op in ("maximum", "minimum"):
        err_case("%s/error/complex" % op, op, [torch.ones(3, dtype=c64), torch.ones(3, dtype=c64)], {}, "%s not implemented for complex tensors." % op)
    for op in ("lt", "ge"):
        err_case("%s/error/complex" % op, op, [torch.ones(3, dtype=c64), torch.ones(3, dtype=c64)], {}, "not implemented for 'ComplexFloat'")
    err_case("div/error/bad-rounding", "div", [torch.ones(3), torch.ones(3)], {"rounding_mode": "round"}, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'")
    err_case("addcdiv/error/int", "addcdiv", [torch.ones(3, dtype=i64), torch.ones(3, dtype=i64), torch.ones(3, dtype=i64)], {}, "Integer division with addcdiv is no longer supported")
    err_case("where/error/cond-float", "where", [torch.ones(3), torch.ones(3), torch.zeros(3)], {}, "where expected condition to be a boolean tensor, but got a tensor with dtype Float")
    err_case("where/error/shape", "where", [torch.ones(2, dtype=torch.bool), torch.ones(3), torch.zeros(3)], {}, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
    err_case("lerp/error/int", "lerp", [torch.ones(3, dtype=i64), torch.ones(3, dtype=i64), 0.5], {}, "not implemented for 'Long'")
    err_case("atan2/error/complex", "atan2", [torch.ones(3, dtype=c64), torch.ones(3, dtype=c64)], {}, "not implemented for 'ComplexFloat'")


# ================================================================ promotion

SCALARS = [("int", 3), ("float", 2.5), ("bool", True), ("complex", complex(1.0, -2.0)),
           ("negint", -1), ("bigfloat", 1e10)]


def promotion_block():
    family("promotion")
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            pa, pb = dname(a), dname(b)
            k = "promotion/add/%s+%s/dim-dim" % (pa, pb)
            add_case(k, "add", [mk(k + "a", [3], a, "few"), mk(k + "b", [3], b, "few")], sweep=True)
            k = "promotion/add/%s+%s/dim-0d" % (pa, pb)
            add_case(k, "add", [mk(k + "a", [3], a, "few"), mk(k + "b", [], b, "few")], sweep=True)
            k = "promotion/add/%s+%s/0d-0d" % (pa, pb)
            add_case(k, "add", [mk(k + "a", [], a, "few"), mk(k + "b", [], b, "few")], sweep=True)
        for sname, sv in SCALARS:
            k = "promotion/add/%s+%s-scalar" % (dname(a), sname)
            add_case(k, "add", [mk(k + "a", [3], a, "few"), sv], sweep=True)
            k = "promotion/add/%s-0d+%s-scalar" % (dname(a), sname)
            add_case(k, "add", [mk(k + "a", [], a, "few"), sv], sweep=True)
    # true division / mul / comparisons / where across categories
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            if a.is_complex or b.is_complex:
                continue
            k = "promotion/div/%s+%s/dim-dim" % (dname(a), dname(b))
            add_case(k, "div", [mk(k + "a", [3], a, "few"), mk(k + "b", [3], b, "pos")], sweep=True)
    for a, b in ((torch.bool, torch.uint8), (torch.uint8, torch.int8), (torch.int16, f16),
                 (f16, bf16), (bf16, f32), (f32, c64), (f64, c64), (i64, f16), (torch.int8, bf16)):
        for op in ("mul", "eq", "lt", "maximum", "where"):
            k = "promotion/%s/%s+%s" % (op, dname(a), dname(b))
            if op == "where":
                add_case(k, op, [mk(k + "c", [3], torch.bool), mk(k + "a", [3], a, "few"), mk(k + "b", [3], b, "few")], sweep=True)
            else:
                add_case(k, op, [mk(k + "a", [3], a, "few"), mk(k + "b", [3], b, "few")], sweep=True)
    # uint8 with a negative python int stays uint8 (wraps)
    add_case("promotion/add/uint8-negint-wrap", "add", [torch.tensor([0, 1, 5], dtype=torch.uint8), -3])
    add_case("promotion/mul/int32-scalar-float-0d", "mul", [torch.tensor([1, 2, 3], dtype=i32), torch.tensor(1.5, dtype=f64)])
    add_case("promotion/mul/float16-0d-float64", "mul", [torch.tensor([1.0, 2.0], dtype=f16), torch.tensor(3.0, dtype=f64)])
    add_case("promotion/mul/int8-0d-int64", "mul", [torch.tensor([100, 50], dtype=torch.int8), torch.tensor(3, dtype=i64)])
    add_case("promotion/mul/int8-1d-int64", "mul", [torch.tensor([100, 50], dtype=torch.int8), torch.tensor([3], dtype=i64)])
    add_case("promotion/add/float32-complex128-0d", "add", [torch.tensor([1.0, 2.0]), torch.tensor(1 + 1j, dtype=c128)])
    add_case("promotion/add/float64-complex64", "add", [torch.tensor([1.0, 2.0], dtype=f64), torch.tensor([1 + 1j, 2j], dtype=c64)])
    add_case("promotion/add/bfloat16-float16", "add", [torch.tensor([1.0, 2.0], dtype=bf16), torch.tensor([0.5, 0.25], dtype=f16)])
    add_case("promotion/add/bool-bool", "add", [torch.tensor([True, True, False]), torch.tensor([True, False, False])])


# ================================================================ unary

UNARY = [
    # op, domain, kwargs variants
    ("neg", "any", []), ("abs", "any", []), ("sign", "any", []), ("sgn", "any", []),
    ("reciprocal", "nonzero", []), ("exp", "any", []), ("exp2", "any", []),
    ("expm1", "any", []), ("log", "pos", []), ("log2", "pos", []),
    ("log10", "pos", []), ("log1p", "pos", []), ("sqrt", "pos", []),
    ("rsqrt", "pos", []), ("sin", "any", []), ("cos", "any", []),
    ("tan", "any", []), ("asin", "unit", []), ("acos", "unit", []),
    ("atan", "any", []), ("sinh", "any", []), ("cosh", "any", []),
    ("tanh", "any", []), ("asinh", "any", []), ("acosh", "ge1", []),
    ("atanh", "unit", []), ("sigmoid", "any", []), ("relu", "any", []),
    ("gelu", "any", [{"approximate": "none"}, {"approximate": "tanh"}]),
    ("silu", "any", []),
    ("softplus", "any", [{"beta": 2.0}, {"beta": 0.5, "threshold": 1.0}, {"threshold": 2}]),
    ("erf", "any", []), ("erfc", "any", []), ("erfinv", "unit", []),
    ("floor", "any", []), ("ceil", "any", []),
    ("round", "any", [{"decimals": 1}, {"decimals": 2}, {"decimals": -1}, {"decimals": 0}]),
    ("trunc", "any", []), ("frac", "any", []), ("square", "any", []),
    ("isnan", "any", []), ("isinf", "any", []), ("isfinite", "any", []),
    ("isposinf", "any", []), ("isneginf", "any", []), ("signbit", "any", []),
    ("nan_to_num", "any", [{"nan": 0.5}, {"posinf": 100.0}, {"neginf": -7.0},
                           {"nan": -1.0, "posinf": 1e6, "neginf": -1e6}]),
    ("logical_not", "few", []), ("bitwise_not", "any", []),
    ("hardtanh", "any", [{"min_val": -0.5, "max_val": 0.5}, {"min_val": 0.0, "max_val": 6.0}]),
    ("clamp", "any", [{"min": -0.5}, {"max": 0.5}, {"min": -1.0, "max": 1.0},
                      {"min": 1.0, "max": -1.0}, {"min": 0}, {"min": -2, "max": 2}]),
    ("clamp_min", "any", []), ("clamp_max", "any", []),
    ("real", "any", []), ("imag", "any", []), ("conj", "any", []),
    ("angle", "any", []),
    ("logit", "prob", [{"eps": 0.1}, {"eps": 1e-6}]),
    ("deg2rad", "any", []), ("rad2deg", "any", []),
]

UNARY_EXTRA_ARGS = {"clamp_min": [0.25], "clamp_max": [0.25]}
UNARY_DEFAULT_KW = {"clamp": {"min": -1.0, "max": 1.0}}


def unary_block():
    family("unary")
    for op, dom, variants in UNARY:
        extra = UNARY_EXTRA_ARGS.get(op, [])
        kw0 = UNARY_DEFAULT_KW.get(op, {})
        for dt in ALL_DTYPES:
            k = "%s/%s/rand" % (op, dname(dt))
            add_case(k, op, [mk(k, [2, 3], dt, dom)] + extra, kw0, sweep=True)
        k = "%s/float32/0d" % op
        add_case(k, op, [mk(k, [], f32, dom)] + extra, kw0, sweep=True)
        k = "%s/float32/empty" % op
        add_case(k, op, [mk(k, [0, 3], f32, dom)] + extra, kw0, sweep=True)
        k = "%s/float32/noncontig" % op
        add_case(k, op, [NC(mk(k, [3, 4], f32, dom))] + extra, kw0, sweep=True)
        k = "%s/float32/3d" % op
        add_case(k, op, [mk(k, [2, 2, 3], f32, dom)] + extra, kw0, sweep=True)
        for dt in (f32, f64, bf16, f16):
            add_case("%s/%s/special" % (op, dname(dt)), op,
                     [torch.tensor(SPECIAL_UN, dtype=dt)] + extra, kw0, sweep=True)
        if op in ("abs", "neg", "sign", "bitwise_not", "square", "relu", "clamp", "clamp_min", "clamp_max"):
            for dt in (torch.int8, torch.uint8, i64):
                info = torch.iinfo(dt)
                v = torch.tensor([info.min, info.min + 1, -1, 0, 1, info.max], dtype=i64)
                if dt == torch.uint8:
                    v = torch.tensor([0, 1, 2, 127, 128, 255])
                add_case("%s/%s/limits" % (op, dname(dt)), op, [v.to(dt)] + extra, kw0, sweep=True)
        for i, kw in enumerate(variants):
            for dt in (f32, f64, i64):
                k = "%s/%s/kw%d" % (op, dname(dt), i)
                add_case(k, op, [mk(k, [2, 3], dt, dom)] + extra, kw, sweep=True)
            add_case("%s/float32/kw%d-special" % (op, i), op,
                     [torch.tensor(SPECIAL_UN, dtype=f32)] + extra, kw, sweep=True)
    # round with decimals on values that are hard to round
    family("unary")
    v = torch.tensor([0.125, 0.135, 1.005, 2.675, -0.125, 1234.5678, 0.05, -0.15], dtype=f64)
    for dec in (1, 2, 3, -2):
        add_case("round/float64/decimals%d-hard" % dec, "round", [v], {"decimals": dec})
        add_case("round/float32/decimals%d-hard" % dec, "round", [v.to(f32)], {"decimals": dec})
    # clamp with tensor bounds and mixed types
    x = mk("clamp/tensor-x", [2, 3], f32)
    lo = mk("clamp/tensor-lo", [3], f32, "unit") - 0.5
    hi = mk("clamp/tensor-hi", [3], f32, "unit") + 0.5
    add_case("clamp/float32/tensor-min", "clamp", [x], {"min": lo})
    add_case("clamp/float32/tensor-max", "clamp", [x], {"max": hi})
    add_case("clamp/float32/tensor-both", "clamp", [x], {"min": lo, "max": hi})
    add_case("clamp/float32/tensor-both-noncontig", "clamp", [NC(mk("clamp/nc", [3, 2], f32))], {"min": lo, "max": hi})
    add_case("clamp/float32/tensor-min-gt-max", "clamp", [x], {"min": hi, "max": lo})
    add_case("clamp/float32/tensor-nan-bound", "clamp", [torch.tensor([1.0, 2.0, NAN])], {"min": torch.tensor([NAN, 0.0, 0.0]), "max": torch.tensor([5.0, 1.0, 1.0])})
    add_case("clamp/float32/scalar-nan-input", "clamp", [torch.tensor([NAN, -INF, INF, -0.0])], {"min": -1.0, "max": 1.0})
    add_case("clamp/int64/float-bound", "clamp", [mk("clamp/intf", [2, 3], i64)], {"min": -10.5, "max": 20.5}, sweep=True)
    add_case("clamp/int64/int-bound", "clamp", [mk("clamp/inti", [2, 3], i64)], {"min": -10, "max": 20})
    add_case("clamp/int32/tensor-int64-bound", "clamp", [mk("clamp/int32t", [2, 3], i32)], {"min": torch.tensor([-5, 0, 5]), "max": torch.tensor(50)}, sweep=True)
    add_case("clamp/float16/scalar", "clamp", [mk("clamp/f16", [2, 3], f16)], {"min": -0.5, "max": 0.5}, sweep=True)
    add_case("clamp_min/float32/tensor", "clamp_min", [x, lo])
    add_case("clamp_max/float32/tensor", "clamp_max", [x, hi])
    add_case("clamp_min/int64/float-scalar", "clamp_min", [mk("clamp_min/if", [2, 3], i64), 0.5], sweep=True)
    # nan_to_num on float16/bfloat16 (default posinf = dtype max)
    family("unary")
    sp = torch.tensor([NAN, INF, -INF, 1.0, -0.0], dtype=f32)
    for dt in (f16, bf16, f64):
        add_case("nan_to_num/%s/defaults" % dname(dt), "nan_to_num", [sp.to(dt)], sweep=True)
    add_case("nan_to_num/int64/ident", "nan_to_num", [torch.tensor([1, -2, 3])])
    add_case("nan_to_num/complex64/defaults", "nan_to_num", [torch.tensor([complex(NAN, INF), complex(-INF, 1)], dtype=c64)], sweep=True)
    # complex special values for a few ops
    cs = torch.tensor([complex(0, 0), complex(-0.0, 0), complex(1, 1), complex(-1, 2), complex(3, -4),
                       complex(0, -1.5), complex(INF, 0), complex(NAN, 1)], dtype=c64)
    for op in ("abs", "sgn", "angle", "neg", "conj", "real", "imag", "isnan", "isinf", "isfinite",
               "reciprocal", "exp", "square", "sqrt", "log"):
        add_case("%s/complex64/special" % op, op, [cs], sweep=True)


def unary_errors():
    family("unary-errors")
    err_case("neg/error/bool", "neg", [torch.tensor([True, False])], {}, "Negation, the `-` operator, on a bool tensor is not supported.")
    err_case("imag/error/real", "imag", [torch.ones(3)], {}, "imag is not implemented for tensors with non-complex dtypes.")
    err_case("bitwise_not/error/float", "bitwise_not", [torch.ones(3)], {}, "not implemented for 'Float'")
    err_case("clamp/error/no-bounds", "clamp", [torch.ones(3)], {}, "At least one of 'min' or 'max' must not be None")
    err_case("clamp/error/complex", "clamp", [torch.ones(3, dtype=c64)], {"min": 0.0}, "clamp is not supported for complex types")
    err_case("sign/error/complex", "sign", [torch.ones(3, dtype=c64)], {}, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.")
    err_case("floor/error/complex", "floor", [torch.ones(3, dtype=c64)], {}, "floor is not supported for complex inputs")
    err_case("signbit/error/complex", "signbit", [torch.ones(3, dtype=c64)], {}, "signbit is not implemented for complex tensors.")
    err_case("isposinf/error/complex", "isposinf", [torch.ones(3, dtype=c64)], {}, "isposinf does not support complex inputs.")
    err_case("hardtanh/error/bool", "hardtanh", [torch.ones(3, dtype=torch.bool)], {}, "Bool inputs not supported for hardtanh")


# ================================================================ fp16/bf16 rounding

def fp16_values():
    vals = [0.0, -0.0, 1.0, -1.0, NAN, INF, -INF, 0.1, 1.0 / 3.0, 2.0 / 3.0, 1e-3, 100.5, 1000.1]
    # float16 subnormals and underflow
    vals += [5.96e-8, 2.0 ** -24, 2.0 ** -25, 1.5 * 2.0 ** -25, 3e-8, 2.0 ** -26,
             6.1e-5, 2.0 ** -14, 2.0 ** -15 + 2.0 ** -24, 1e-6, -1e-6, 1e-7]
    # float16 ties (halfway between neighbours: round half to even)
    for m in (1.0, 2.0, 1024.0, 0.5):
        ulp = m * 2.0 ** -10
        vals += [m + ulp / 2, m + 1.5 * ulp, m + 2.5 * ulp, -(m + ulp / 2), m + ulp / 2 * 1.0001]
    # bfloat16 ties (7 explicit mantissa bits)
    for m in (1.0, 3.0, 256.0, 2.0 ** -100):
        ulp = m * 2.0 ** -7 if m != 3.0 else 2.0 ** -6
        vals += [m + ulp / 2, m + 1.5 * ulp, -(m + ulp / 2), m + ulp / 2 + ulp / 64]
    # overflow
    vals += [65504.0, 65519.0, 65519.99, 65520.0, 65536.0, 1e5, -1e5, -65520.0,
             3.38e38, 3.3895314e38, 3.39e38, float(torch.finfo(f32).max), -float(torch.finfo(f32).max)]
    # float32 subnormals (bfloat16 subnormals)
    vals += [1e-40, -1e-40, 1.4e-45, 9.2e-41, 1.17549435e-38, 1e-38]
    # integers near float16/bfloat16 precision limits
    vals += [2049.0, 2051.0, 4097.0, 257.0, 259.0, 513.0, 12345.0, -2049.0]
    g = gen("fp16-values")
    n = 200 - len(vals)
    mant = torch.rand(n, generator=g, dtype=f64) + 1.0
    ex = torch.randint(-30, 20, (n,), generator=g).to(f64)
    sg = torch.where(torch.rand(n, generator=g) < 0.3, -1.0, 1.0).to(f64)
    vals += (sg * mant * torch.pow(2.0, ex)).tolist()
    return torch.tensor(vals, dtype=f64).to(f32)


def fp16_block():
    family("fp16-bf16")
    v = fp16_values()
    for dt in (f16, bf16):
        n = dname(dt)
        add_case("to/float32->%s/sweep" % n, "to", [v], {"dtype": dt})
        add_case("to/float64->%s/sweep" % n, "to", [v.to(f64)], {"dtype": dt},
                 note="PyTorch converts float64 to half types via float32 (double rounding)")
        add_case("to/%s->float32/sweep" % n, "to", [v.to(dt)], {"dtype": f32})
        add_case("to/%s->float64/sweep" % n, "to", [v.to(dt)], {"dtype": f64})
        inr = torch.tensor([0.0, -0.0, 0.4, 0.5, 0.6, 1.5, 2.5, -1.5, -2.5, 100.7, -100.7, 126.9, -127.9])
        for it in (torch.int8, i32, i64, torch.bool):
            add_case("to/%s->%s/trunc" % (n, dname(it)), "to", [inr.to(dt)], {"dtype": it})
        add_case("to/%s->uint8/trunc" % n, "to", [inr.abs().to(dt)], {"dtype": torch.uint8})
        add_case("to/int64->%s/big" % n, "to", [torch.tensor([2049, 2051, 4097, 65519, 65520, 100000, 257, 259, -2051, 12345])], {"dtype": dt})
        add_case("to/%s->%s/cross" % (n, dname(bf16 if dt == f16 else f16)), "to", [v.to(dt)], {"dtype": bf16 if dt == f16 else f16})
        add_case("to/complex64->%s/drop-imag" % n, "to", [torch.tensor([1 + 2j, 1.0009765625 + 0j], dtype=c64)], {"dtype": dt})
        # compute in float, round at store
        a = v[:100].to(dt)
        b = v[100:].to(dt)
        for op in ("add", "mul", "div", "sub", "maximum"):
            add_case("%s/%s/rounding" % (op, n), op, [a, b], sweep=True)
        add_case("add/%s/rounding-alpha" % n, "add", [a, b], {"alpha": 3}, sweep=True)
        add_case("add/%s/scalar-rounding" % n, "add", [a, 1.0 / 3.0], sweep=True)
        add_case("mul/%s/scalar-rounding" % n, "mul", [a, 0.1], sweep=True)
        small = torch.clamp(v[:100], -10.0, 10.0).to(dt)
        for op in ("exp", "sqrt", "sigmoid", "tanh", "log", "reciprocal", "neg", "abs"):
            add_case("%s/%s/rounding" % (op, n), op, [small], sweep=True)
        ones = torch.full((4096,), 1.0, dtype=dt)
        add_case("sum/%s/accumulate-4096-ones" % n, "sum", [ones], sweep=True)
        add_case("sum/%s/rounding" % n, "sum", [torch.clamp(v, -100.0, 100.0).to(dt)], sweep=True)
        tenth = torch.full((1000,), 0.1, dtype=dt)
        add_case("sum/%s/accumulate-1000-tenths" % n, "sum", [tenth], sweep=True)
        add_case("cumsum/%s/accumulate-tenths" % n, "cumsum", [tenth[:40]], {"dim": 0}, sweep=True)
        add_case("mean/%s/rounding" % n, "mean", [torch.clamp(v, -100.0, 100.0).to(dt)], sweep=True)
        add_case("sum/%s/dim-rounding" % n, "sum", [torch.clamp(v, -100.0, 100.0).to(dt).reshape(20, 10)], {"dim": 1}, sweep=True)
        add_case("sum/%s/to-float32" % n, "sum", [tenth], {"dtype": f32}, sweep=True)
        add_case("prod/%s/rounding" % n, "prod", [torch.tensor([1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9, 2.1]).to(dt)], sweep=True)
    dr = torch.tensor([1 + 2.0 ** -11 + 2.0 ** -40, 1 + 2.0 ** -8 + 2.0 ** -40, 1 + 3 * 2.0 ** -11 - 2.0 ** -40,
                       2049 + 2.0 ** -30, 65519.99999999], dtype=f64)
    for dt in (f16, bf16):
        add_case("to/float64->%s/double-rounding" % dname(dt), "to", [dr], {"dtype": dt},
                 note="PyTorch converts float64 to half types via float32 (double rounding)")
    add_case("to/float32->float64/sweep", "to", [v], {"dtype": f64})
    add_case("to/float64->float32/rounding", "to", [torch.tensor([0.1, 1.0 / 3.0, 1e-46, 3.5e38, 1 + 2.0 ** -24, 1 + 3 * 2.0 ** -24, -1e-300], dtype=f64)], {"dtype": f32})
    add_case("to/float32->int64/trunc", "to", [torch.tensor([0.5, -0.5, 1.9, -1.9, 1e10, -1e10])], {"dtype": i64})
    add_case("to/float32->bool", "to", [torch.tensor([0.0, -0.0, NAN, 1e-40, -1.0])], {"dtype": torch.bool})
    add_case("to/int64->int8/wrap", "to", [torch.tensor([127, 128, 255, 256, -129, 1000])], {"dtype": torch.int8})
    add_case("to/int64->uint8/wrap", "to", [torch.tensor([-1, 255, 256, -256, 1000])], {"dtype": torch.uint8})
    add_case("to/int64->bool", "to", [torch.tensor([0, 1, -1, 256])], {"dtype": torch.bool})
    add_case("to/bool->float32", "to", [torch.tensor([True, False])], {"dtype": f32})
    add_case("to/int64->float32/big", "to", [torch.tensor([16777217, 16777219, (1 << 40) + 1, -(1 << 53) - 1])], {"dtype": f32})
    add_case("to/complex128->complex64", "to", [torch.tensor([complex(0.1, 1.0 / 3.0), complex(1e40, -1e-50)], dtype=c128)], {"dtype": c64})
    add_case("to/float32->complex64", "to", [torch.tensor([1.5, NAN, -INF])], {"dtype": c64})


# ================================================================ reductions

def red_input(key, dt=f32, shape=(2, 3, 4), dom="any"):
    return mk(key, list(shape), dt, dom)


DIM_VARIANTS = [
    ("all", {}), ("dim0", {"dim": 0}), ("dim1", {"dim": 1}), ("dim-1", {"dim": -1}),
    ("dim1-keep", {"dim": 1, "keepdim": True}), ("dims02", {"dim": [0, 2]}),
    ("dims02-keep", {"dim": [0, 2], "keepdim": True}), ("dims-neg", {"dim": [-1, -2]}),
]


def reductions_block():
    family("reductions")
    # sum / prod / mean / nansum / nanmean / amax / amin
    for op in ("sum", "prod", "mean", "nansum", "nanmean", "amax", "amin", "logsumexp"):
        for vname, kw in DIM_VARIANTS:
            if op in ("amax", "amin", "logsumexp") and vname == "all":
                if op == "logsumexp":
                    continue
            k = "%s/float32/%s" % (op, vname)
            add_case(k, op, [red_input(k)], kw, sweep=True)
        k = "%s/float32/dim-empty-list" % op
        if op != "logsumexp":  # logsumexp(dim=[]) is its own case family below
            add_case(k, op, [red_input(k)], {"dim": []}, sweep=True)
        for dt in ALL_DTYPES:
            k = "%s/%s/2d-all" % (op, dname(dt))
            kw = {"dim": [0, 1]} if op == "logsumexp" else {}
            add_case(k, op, [red_input(k, dt, (3, 4), "few" if op == "prod" else "any")], kw, sweep=True)
            k = "%s/%s/2d-dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few" if op == "prod" else "any")], {"dim": 1}, sweep=True)
        k = "%s/float32/noncontig" % op
        add_case(k, op, [NC(red_input(k, f32, (4, 3)))], {"dim": 1}, sweep=True)
        k = "%s/float32/0d" % op
        add_case(k, op, [red_input(k, f32, ())], {"dim": 0} if op == "logsumexp" else {}, sweep=True)
        k = "%s/float32/0d-dim0" % op
        add_case(k, op, [red_input(k, f32, ())], {"dim": 0}, sweep=True)
        for kname, kw in (("empty-all", {} if op != "logsumexp" else {"dim": [0, 1]}),
                          ("empty-dim0", {"dim": 0}), ("empty-dim1", {"dim": 1})):
            k = "%s/float32/%s" % (op, kname)
            add_case(k, op, [torch.zeros(0, 3)], kw, sweep=True)
        sp = torch.tensor([[1.0, NAN, 2.0], [INF, -INF, 0.0], [NAN, NAN, NAN], [-0.0, -0.0, -0.0]])
        k = "%s/float32/special-dim1" % op
        add_case(k, op, [sp], {"dim": 1}, sweep=True)
        k = "%s/float32/special-all" % op
        add_case(k, op, [sp], {"dim": [0, 1]} if op == "logsumexp" else {}, sweep=True)
    for op in ("sum", "prod", "mean", "nansum", "cumsum", "cumprod"):
        for dt in (f64, f32, i64):
            k = "%s/int32/dtype-%s" % (op, dname(dt))
            kw = {"dtype": dt}
            if op in ("cumsum", "cumprod"):
                kw["dim"] = 1
            add_case(k, op, [red_input(k, i32, (3, 4), "few")], kw, sweep=True)
        k = "%s/float32/dtype-float64" % op
        kw = {"dtype": f64}
        if op in ("cumsum", "cumprod"):
            kw["dim"] = 0
        add_case(k, op, [red_input(k, f32, (3, 4))], kw, sweep=True)
    add_case("sum/float32/dim-dtype", "sum", [red_input("sum/dd", i32, (3, 4), "few")], {"dim": 0, "dtype": f32})
    add_case("sum/int8/overflow-to-int64", "sum", [torch.full((10,), 100, dtype=torch.int8)])
    add_case("sum/uint8/overflow-to-int64", "sum", [torch.full((10,), 200, dtype=torch.uint8)])
    add_case("logsumexp/float32/large", "logsumexp", [torch.tensor([[1000.0, 1000.0, -1000.0], [-INF, -INF, -INF]])], {"dim": 1})
    add_case("logsumexp/float32/inf", "logsumexp", [torch.tensor([[INF, 1.0], [INF, -INF], [-INF, NAN]])], {"dim": 1})
    add_case("mean/int64/dtype-float32", "mean", [torch.tensor([1, 2, 4])], {"dtype": f32}, sweep=True)
    # max / min / argmax / argmin
    for op in ("max", "min", "argmax", "argmin"):
        for dt in ALL_DTYPES:
            k = "%s/%s/all" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few")], sweep=True)
            k = "%s/%s/dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few")], {"dim": 1}, sweep=True)
        for vname, kw in (("dim0", {"dim": 0}), ("dim-1", {"dim": -1}), ("dim1-keep", {"dim": 1, "keepdim": True}),
                          ("dim2", {"dim": 2})):
            k = "%s/float32/%s" % (op, vname)
            add_case(k, op, [red_input(k)], kw, sweep=True)
        k = "%s/float32/ties" % op
        add_case(k, op, [torch.tensor([[1.0, 3.0, 3.0, 0.0], [2.0, 2.0, 2.0, 2.0], [-1.0, -5.0, -5.0, 7.0]])], {"dim": 1})
        add_case(k + "-all", op, [torch.tensor([[1.0, 3.0, 3.0], [3.0, -5.0, -5.0]])])
        k = "%s/float32/nan" % op
        sp = torch.tensor([[1.0, NAN, 2.0], [INF, -INF, 0.0], [NAN, 5.0, NAN], [-0.0, 0.0, -0.0]])
        add_case(k, op, [sp], {"dim": 1})
        add_case(k + "-all", op, [sp])
        k = "%s/float32/noncontig" % op
        add_case(k, op, [NC(red_input(k, f32, (4, 3), "few"))], {"dim": 1})
        k = "%s/float32/0d" % op
        add_case(k, op, [red_input(k, f32, ())])
        add_case(k + "-dim0", op, [red_input(k, f32, ())], {"dim": 0})
        k = "%s/float32/empty-dim1" % op
        add_case(k, op, [torch.zeros(0, 3)], {"dim": 1})
        k = "%s/float32/empty-all" % op
        add_case(k, op, [torch.zeros(0, 3)])
        k = "%s/float32/empty-dim0" % op
        add_case(k, op, [torch.zeros(0, 3)], {"dim": 0})
    # var / std
    for op in ("var", "std"):
        for vname, kw in DIM_VARIANTS:
            k = "%s/float32/%s" % (op, vname)
            add_case(k, op, [red_input(k)], kw, sweep=True)
        for vname, kw in (("unbiased-false", {"unbiased": False}), ("unbiased-true", {"unbiased": True}),
                          ("corr0", {"dim": None, "correction": 0}), ("corr1", {"dim": None, "correction": 1}),
                          ("corr2", {"dim": None, "correction": 2}),
                          ("dim1-corr0", {"dim": 1, "correction": 0}), ("dim1-corr0-keep", {"dim": 1, "correction": 0, "keepdim": True}),
                          ("dim1-unbiased-false", {"dim": 1, "unbiased": False}), ("dims02-corr1", {"dim": [0, 2], "correction": 1})):
            k = "%s/float32/%s" % (op, vname)
            add_case(k, op, [red_input(k)], kw, sweep=True)
        for dt in ALL_DTYPES:
            k = "%s/%s/2d-all" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4))], sweep=True)
            k = "%s/%s/2d-dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4))], {"dim": 1}, sweep=True)
        add_case("%s/float32/single" % op, op, [torch.tensor([3.0])])
        add_case("%s/float32/single-corr0" % op, op, [torch.tensor([3.0])], {"dim": None, "correction": 0})
        add_case("%s/float32/dof-negative" % op, op, [torch.ones(2, 3)], {"dim": 1, "correction": 4}, sweep=True)
        add_case("%s/float32/0d" % op, op, [torch.tensor(2.0)])
        add_case("%s/float32/empty" % op, op, [torch.zeros(0, 3)])
        add_case("%s/float32/empty-dim0" % op, op, [torch.zeros(0, 3)], {"dim": 0})
        add_case("%s/float32/noncontig" % op, op, [NC(red_input(op + "nc", f32, (4, 3)))], {"dim": 1})
        add_case("%s/float32/special" % op, op, [torch.tensor([[1.0, NAN, 2.0], [INF, 1.0, 0.0], [1e20, 1.0, -1e20]])], {"dim": 1})
        add_case("%s/float32/large-offset" % op, op, [torch.tensor([1e8 + 1, 1e8 + 2, 1e8 + 3, 1e8 + 4], dtype=f64).to(f32)])
    # softmax / log_softmax
    for op in ("softmax", "log_softmax"):
        for d in (0, 1, 2, -1):
            k = "%s/float32/dim%d" % (op, d)
            add_case(k, op, [red_input(k)], {"dim": d})
        for dt in ALL_DTYPES:
            k = "%s/%s/2d-dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4))], {"dim": 1}, sweep=True)
        add_case("%s/float32/dtype-float64" % op, op, [red_input(op + "dt", f32, (3, 4))], {"dim": 1, "dtype": f64})
        add_case("%s/int64/dtype-float32" % op, op, [red_input(op + "dti", i64, (3, 4))], {"dim": 1, "dtype": f32}, sweep=True)
        add_case("%s/float32/special" % op, op, [torch.tensor([[1000.0, 1000.0, -1000.0], [-INF, -INF, -INF], [-INF, 0.0, 1.0], [NAN, 1.0, 2.0], [INF, 1.0, 2.0]])], {"dim": 1})
        add_case("%s/float32/noncontig" % op, op, [NC(red_input(op + "nc", f32, (4, 3)))], {"dim": 1})
        add_case("%s/float32/0d" % op, op, [torch.tensor(2.0)], {"dim": 0})
        add_case("%s/float32/empty" % op, op, [torch.zeros(0, 3)], {"dim": 1})
    # cumsum / cumprod
    for op in ("cumsum", "cumprod"):
        for d in (0, 1, 2, -1):
            k = "%s/float32/dim%d" % (op, d)
            add_case(k, op, [red_input(k, f32, (2, 3, 4), "few" if op == "cumprod" else "any")], {"dim": d})
        for dt in ALL_DTYPES:
            k = "%s/%s/2d-dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few")], {"dim": 1}, sweep=True)
        add_case("%s/float32/special" % op, op, [torch.tensor([1.0, 2.0, NAN, 3.0, INF, -INF, 0.0, 1.0])], {"dim": 0})
        add_case("%s/float32/noncontig" % op, op, [NC(red_input(op + "nc", f32, (4, 3), "few"))], {"dim": 1})
        add_case("%s/float32/0d" % op, op, [torch.tensor(2.0)], {"dim": 0})
        add_case("%s/float32/empty" % op, op, [torch.zeros(0, 3)], {"dim": 1})
        add_case("%s/int8/overflow" % op, op, [torch.full((6,), 100, dtype=torch.int8)], {"dim": 0})
    # all / any
    for op in ("all", "any"):
        for dt in ALL_DTYPES:
            k = "%s/%s/all" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few")], sweep=True)
            k = "%s/%s/dim1" % (op, dname(dt))
            add_case(k, op, [red_input(k, dt, (3, 4), "few")], {"dim": 1}, sweep=True)
        b = torch.tensor([[True, True, True], [True, False, True], [False, False, False]])
        add_case("%s/bool/dim0" % op, op, [b], {"dim": 0})
        add_case("%s/bool/dim1-keep" % op, op, [b], {"dim": 1, "keepdim": True})
        add_case("%s/bool/noncontig" % op, op, [NC(b)], {"dim": 1})
        add_case("%s/float32/nan-inf" % op, op, [torch.tensor([[NAN, 1.0], [0.0, -0.0], [INF, 0.0]])], {"dim": 1})
        add_case("%s/bool/empty" % op, op, [torch.zeros(0, 3, dtype=torch.bool)])
        add_case("%s/bool/empty-dim0" % op, op, [torch.zeros(0, 3, dtype=torch.bool)], {"dim": 0})
        add_case("%s/bool/0d" % op, op, [torch.tensor(True)])
    # vector_norm
    x = red_input("vector_norm/x")
    for o in (2, 1, INF, -INF, 0, 3, 0.5, -1):
        on = str(o)
        add_case("vector_norm/float32/ord%s-all" % on, "vector_norm", [x], {"ord": o})
        add_case("vector_norm/float32/ord%s-dim1" % on, "vector_norm", [x], {"ord": o, "dim": 1})
        add_case("vector_norm/float32/ord%s-dims02-keep" % on, "vector_norm", [x], {"ord": o, "dim": [0, 2], "keepdim": True})
        add_case("vector_norm/float32/ord%s-special" % on, "vector_norm",
                 [torch.tensor([[0.0, 0.0, 0.0], [1.0, -2.0, 0.0], [INF, 1.0, 0.0], [NAN, 1.0, INF], [-0.0, 3.0, 4.0]])], {"ord": o, "dim": 1})
        add_case("vector_norm/float32/ord%s-empty" % on, "vector_norm", [torch.zeros(0, 3)], {"ord": o}, sweep=True)
        add_case("vector_norm/float32/ord%s-empty-dim1" % on, "vector_norm", [torch.zeros(0, 3)], {"ord": o, "dim": 1}, sweep=True)
    for dt in ALL_DTYPES:
        k = "vector_norm/%s/2d-ord2" % dname(dt)
        add_case(k, "vector_norm", [red_input(k, dt, (3, 4))], sweep=True)
        k = "vector_norm/%s/2d-ord1-dim1" % dname(dt)
        add_case(k, "vector_norm", [red_input(k, dt, (3, 4))], {"ord": 1, "dim": 1}, sweep=True)
        k = "vector_norm/%s/2d-ordinf-dim0" % dname(dt)
        add_case(k, "vector_norm", [red_input(k, dt, (3, 4))], {"ord": INF, "dim": 0}, sweep=True)
    add_case("vector_norm/float32/dtype-float64", "vector_norm", [x], {"dtype": f64})
    add_case("vector_norm/float32/noncontig", "vector_norm", [NC(red_input("vn-nc", f32, (4, 3)))], {"dim": 1})
    add_case("vector_norm/float32/0d", "vector_norm", [torch.tensor(-3.0)])
    add_case("vector_norm/float32/overflow-safe", "vector_norm", [torch.tensor([3e30, 4e30])])
    add_case("vector_norm/float32/underflow-safe", "vector_norm", [torch.tensor([3e-30, 4e-30])])


def reduction_errors():
    family("reduction-errors")
    err_case("mean/error/int", "mean", [torch.tensor([1, 2, 3])], {}, "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: Long")
    err_case("max/error/empty-all", "max", [torch.zeros(0, 3)], {}, "max(): Expected reduction dim to be specified for input.numel() == 0.")
    err_case("max/error/empty-dim", "max", [torch.zeros(0, 3)], {"dim": 0}, "max(): Expected reduction dim 0 to have non-zero size.")
    err_case("amax/error/empty-dim", "amax", [torch.zeros(0, 3)], {"dim": 0}, "Expected reduction dim 0 to have non-zero size.")
    err_case("argmax/error/empty", "argmax", [torch.zeros(0, 3)], {}, "argmax(): Expected reduction dim to be specified for input.numel() == 0.")
    err_case("sum/error/dim-range", "sum", [torch.ones(2, 3)], {"dim": 2}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)")
    err_case("sum/error/dim-repeat", "sum", [torch.ones(2, 3)], {"dim": [0, 0]}, "dim 0 appears multiple times in the list of dims")
    err_case("vector_norm/error/int", "vector_norm", [torch.tensor([1, 2])], {}, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long")
    err_case("vector_norm/error/empty-inf", "vector_norm", [torch.zeros(0, 3)], {"ord": INF}, "linalg.vector_norm cannot compute the inf norm on an empty tensor because the operation does not have an identity")
    err_case("var/error/int", "var", [torch.tensor([1, 2, 3])], {}, "std and var only support floating point and complex dtypes")
    err_case("softmax/error/dim", "softmax", [torch.ones(2, 3)], {"dim": 2}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)")


# ================================================================ shape ops

def arange_t(shape, dt=f32):
    n = 1
    for s in shape:
        n *= s
    return torch.arange(n).reshape(shape).to(dt)


def shape_block():
    family("shape")
    x = arange_t((2, 3, 4))
    xi = arange_t((2, 3, 4), i64)
    xb = mk("shape/bool", [2, 3, 4], torch.bool)
    xc = mk("shape/complex", [2, 3, 4], c64)
    xh = mk("shape/bf16", [2, 3, 4], bf16)
    samples = [("float32", x), ("int64", xi), ("bool", xb), ("complex64", xc), ("bfloat16", xh)]
    xt = NC(arange_t((4, 3, 2)), 0, 2)   # [2, 3, 4] non-contiguous view
    e = torch.zeros(0, 3)
    s0 = torch.tensor(7.0)

    def run_all(op, variants, inputs=None, fn=None):
        for vname, args, kw in variants:
            for iname, inp in (inputs or [("float32", x)]):
                add_case("%s/%s/%s" % (op, iname, vname), op, [inp] + args, kw, fn=fn)

    # reshape / view
    rv = [("24", [], {"shape": [24]}), ("4x6", [], {"shape": [4, 6]}), ("infer", [], {"shape": [-1, 2]}),
          ("3d", [], {"shape": [2, 2, 6]}), ("unit-dims", [], {"shape": [1, 24, 1]})]
    run_all("reshape", rv, samples[:4] + [("noncontig", xt)])
    add_case("reshape/float32/0d-to-1", "reshape", [s0], {"shape": [1]})
    add_case("reshape/float32/0d-to-1x1", "reshape", [s0], {"shape": [1, 1]})
    add_case("reshape/float32/1-to-0d", "reshape", [torch.tensor([3.0])], {"shape": []})
    add_case("reshape/float32/empty", "reshape", [e], {"shape": [3, 0, 5]})
    add_case("reshape/float32/empty-infer", "reshape", [e], {"shape": [-1, 6]}, sweep=True)
    for vname, args, kw in rv:
        add_case("view/float32/%s" % vname, "view", [x], {"size": kw["shape"]})
    add_case("view/int64/infer", "view", [xi], {"size": [6, -1]})
    add_case("view/float32/noncontig-compatible", "view", [NC(arange_t((4, 3)), 0, 1)], {"size": [3, 4, 1]})
    add_case("view/float32/empty", "view", [e], {"size": [0, 3, 1]})
    # permute / transpose / t / movedim
    for p in ([2, 0, 1], [1, 0, 2], [0, 2, 1], [-1, -2, -3]):
        for iname, inp in samples + [("noncontig", xt)]:
            add_case("permute/%s/%s" % (iname, "".join(str(v) for v in p)), "permute", [inp], {"dims": p})
    for d0, d1 in ((0, 1), (1, 2), (0, 2), (-1, 0), (1, 1)):
        for iname, inp in samples[:2] + [("noncontig", xt)]:
            add_case("transpose/%s/%d,%d" % (iname, d0, d1), "transpose", [inp], {"dim0": d0, "dim1": d1})
    add_case("transpose/float32/empty", "transpose", [e], {"dim0": 0, "dim1": 1})
    add_case("t/float32/2d", "t", [arange_t((2, 3))])
    add_case("t/float32/1d", "t", [arange_t((3,))])
    add_case("t/float32/0d", "t", [s0])
    add_case("t/complex64/2d", "t", [mk("t/c", [2, 3], c64)])
    add_case("t/float32/noncontig", "t", [NC(arange_t((2, 3)))])
    for src, dst in ((0, 2), (2, 0), ([0, 1], [2, 0]), (-1, 0), ([1], [-1])):
        add_case("movedim/float32/%s-%s" % (src, dst), "movedim", [x], {"source": src, "destination": dst})
    add_case("movedim/noncontig/0-1", "movedim", [xt], {"source": 0, "destination": 1})
    # flatten / unflatten
    for sd, ed in ((0, -1), (1, 2), (0, 1), (2, 2), (-2, -1)):
        for iname, inp in (("float32", x), ("noncontig", xt), ("int64", xi)):
            add_case("flatten/%s/%d,%d" % (iname, sd, ed), "flatten", [inp], {"start_dim": sd, "end_dim": ed})
    add_case("flatten/float32/0d", "flatten", [s0])
    add_case("flatten/float32/empty", "flatten", [e])
    for dim, sizes in ((2, [2, 2]), (1, [3, 1]), (-1, [2, -1]), (0, [1, 2]), (2, [4])):
        add_case("unflatten/float32/%d-%s" % (dim, "x".join(str(s) for s in sizes)), "unflatten", [x], {"dim": dim, "sizes": sizes})
    add_case("unflatten/noncontig/2-2x2", "unflatten", [xt], {"dim": 2, "sizes": [2, 2]})
    # squeeze / unsqueeze
    y = arange_t((1, 3, 1, 2))
    add_case("squeeze/float32/all", "squeeze", [y])
    for d in (0, 1, 2, -1, -4):
        add_case("squeeze/float32/dim%d" % d, "squeeze", [y], {"dim": d})
    add_case("squeeze/float32/0d", "squeeze", [s0])
    add_case("squeeze/float32/0d-dim0", "squeeze", [s0], {"dim": 0})
    add_case("squeeze/float32/1elem", "squeeze", [torch.tensor([[5.0]])])
    add_case("squeeze/float32/empty", "squeeze", [torch.zeros(1, 0, 3)])
    add_case("squeeze/float32/noncontig", "squeeze", [NC(arange_t((3, 1)))], {"dim": 0})
    for d in (0, 1, 3, -1, -4):
        add_case("unsqueeze/float32/dim%d" % d, "unsqueeze", [x], {"dim": d})
    add_case("unsqueeze/float32/0d", "unsqueeze", [s0], {"dim": 0})
    add_case("unsqueeze/float32/0d-neg", "unsqueeze", [s0], {"dim": -1})
    add_case("unsqueeze/noncontig/dim1", "unsqueeze", [xt], {"dim": 1})
    # narrow / select / slice
    for dim, start, length in ((0, 0, 1), (1, 1, 2), (2, 1, 3), (-1, -3, 2), (2, 4, 0), (1, -1, 1)):
        for iname, inp in (("float32", x), ("noncontig", xt)):
            add_case("narrow/%s/%d,%d,%d" % (iname, dim, start, length), "narrow", [inp], {"dim": dim, "start": start, "length": length})
    for dim, idx in ((0, 1), (1, 2), (2, -1), (-1, 0), (1, -3)):
        for iname, inp in (("float32", x), ("noncontig", xt), ("complex64", xc)):
            add_case("select/%s/%d,%d" % (iname, dim, idx), "select", [inp], {"dim": dim, "index": idx})
    add_case("select/float32/1d-to-0d", "select", [arange_t((3,))], {"dim": 0, "index": 1})
    for dim, st, en, sp in ((0, 0, 1, 1), (1, 0, 3, 2), (2, 1, None, 2), (2, -3, -1, 1), (2, None, None, 3),
                            (1, 5, 10, 1), (2, -10, 2, 1), (1, 2, 1, 1), (2, 0, 100, 3), (-1, 1, 3, 1)):
        for iname, inp in (("float32", x), ("noncontig", xt), ("int64", xi)):
            add_case("slice/%s/d%d,%s:%s:%s" % (iname, dim, st, en, sp), "slice", [inp],
                     {"dim": dim, "start": st, "end": en, "step": sp})
    add_case("slice/float32/empty", "slice", [e], {"dim": 1, "start": 1, "end": 3, "step": 1})
    # chunk / split
    z = arange_t((5, 2))
    for chunks, dim in ((2, 0), (3, 0), (5, 0), (6, 0), (4, 0), (2, 1), (3, 1), (1, 0)):
        add_case("chunk/float32/%d,%d" % (chunks, dim), "chunk", [z], {"chunks": chunks, "dim": dim})
    add_case("chunk/float32/6into4", "chunk", [arange_t((6,))], {"chunks": 4, "dim": 0})
    add_case("chunk/noncontig/2,1", "chunk", [xt], {"chunks": 2, "dim": 1})
    add_case("chunk/float32/empty", "chunk", [e], {"chunks": 2, "dim": 0})
    for ss, dim in ((2, 0), (3, 0), (1, 1), (5, 0), (10, 0), ([1, 4], 0), ([2, 0, 3], 0), ([1, 1], 1), ([5], 0)):
        add_case("split/float32/%s,%d" % ("[%s]" % "-".join(str(v) for v in ss) if isinstance(ss, list) else ss, dim),
                 "split", [z], {"split_size_or_sections": ss, "dim": dim})
    add_case("split/noncontig/2,2", "split", [xt], {"split_size_or_sections": 2, "dim": 2})
    add_case("split/float32/empty", "split", [e], {"split_size_or_sections": 2, "dim": 1})
    # cat / stack
    a, b, c = arange_t((2, 3)), arange_t((2, 3)) + 10, arange_t((1, 3)) + 100
    add_case("cat/float32/dim0", "cat", [[a, b, c]], {"dim": 0})
    add_case("cat/float32/dim1", "cat", [[a, b]], {"dim": 1})
    add_case("cat/float32/dim-1", "cat", [[a, arange_t((2, 1))]], {"dim": -1})
    add_case("cat/float32/single", "cat", [[a]], {"dim": 0})
    add_case("cat/float32/with-empty", "cat", [[a, torch.zeros(0, 3)]], {"dim": 0})
    add_case("cat/float32/noncontig", "cat", [[NC(arange_t((3, 2))), b]], {"dim": 1})
    add_case("cat/mixed/float32-int64", "cat", [[a, arange_t((2, 3), i64)]], {"dim": 0}, sweep=True)
    add_case("cat/mixed/int32-float64", "cat", [[arange_t((2, 3), i32), arange_t((1, 3), f64)]], {"dim": 0}, sweep=True)
    add_case("cat/mixed/bool-uint8", "cat", [[torch.tensor([True, False]), torch.tensor([3], dtype=torch.uint8)]], {"dim": 0}, sweep=True)
    add_case("cat/complex64/dim0", "cat", [[mk("cat/c1", [1, 2], c64), mk("cat/c2", [2, 2], c64)]], {"dim": 0})
    add_case("cat/float32/3d-dim1", "cat", [[x, x]], {"dim": 1})
    for d in (0, 1, 2, -1):
        add_case("stack/float32/dim%d" % d, "stack", [[a, b]], {"dim": d})
    add_case("stack/float32/0d", "stack", [[s0, s0 + 1, s0 + 2]], {"dim": 0})
    add_case("stack/float32/noncontig", "stack", [[NC(arange_t((3, 2))), b]], {"dim": 1})
    add_case("stack/float32/empty", "stack", [[e, e]], {"dim": 1})
    add_case("stack/mixed/int64-float32", "stack", [[arange_t((3,), i64), arange_t((3,))]], {"dim": 0}, sweep=True)
    # diagonal / tril / triu
    m = arange_t((3, 4))
    for off in (0, 1, -1, 3, -3, 5):
        add_case("diagonal/float32/2d-off%d" % off, "diagonal", [m], {"offset": off})
    for off, d1, d2 in ((0, 0, 1), (1, 1, 2), (0, 2, 0), (-1, 0, 2), (0, -1, -2)):
        add_case("diagonal/float32/3d-%d,%d,%d" % (off, d1, d2), "diagonal", [x], {"offset": off, "dim1": d1, "dim2": d2})
    add_case("diagonal/noncontig/0", "diagonal", [NC(m)], {"offset": 1})
    for op in ("tril", "triu"):
        for dg in (0, 1, -1, 2, -2, 10, -10):
            add_case("%s/float32/2d-d%d" % (op, dg), op, [m], {"diagonal": dg})
        add_case("%s/float32/3d" % op, op, [x], {"diagonal": 0})
        add_case("%s/int64/3d-d1" % op, op, [xi], {"diagonal": 1})
        add_case("%s/bool/2d" % op, op, [mk(op + "b", [3, 3], torch.bool)], {"diagonal": 0})
        add_case("%s/complex64/2d" % op, op, [mk(op + "c", [3, 3], c64)], {"diagonal": -1})
        add_case("%s/noncontig/2d" % op, op, [NC(m)], {"diagonal": 0})
        add_case("%s/float32/empty" % op, op, [torch.zeros(0, 3)], {"diagonal": 0})
    # flip / roll
    for dims in ([0], [1], [2], [0, 2], [-1], [0, 1, 2]):
        for iname, inp in (("float32", x), ("noncontig", xt)):
            add_case("flip/%s/%s" % (iname, ",".join(str(d) for d in dims)), "flip", [inp], {"dims": dims})
    add_case("flip/float32/0d", "flip", [s0], {"dims": []}, sweep=True)
    for shifts, dims in ((1, 0), (2, 2), (-1, 1), (5, 2), ([1, -2], [0, 2]), (3, None), (-7, None), (0, 1)):
        for iname, inp in (("float32", x), ("noncontig", xt)):
            kw = {"shifts": shifts}
            if dims is not None:
                kw["dims"] = dims
            add_case("roll/%s/%s,%s" % (iname, shifts, dims), "roll", [inp], kw)
    add_case("roll/float32/empty", "roll", [e], {"shifts": 1, "dims": 0})
    # repeat / expand / broadcast_to
    r = arange_t((2, 3))
    for reps in ([1, 1], [2, 1], [1, 3], [2, 2], [2, 1, 1], [3, 2, 1, 1], [0, 2]):
        add_case("repeat/float32/%s" % "x".join(str(v) for v in reps), "repeat", [r], {"repeats": reps})
    add_case("repeat/noncontig/2x2", "repeat", [NC(arange_t((3, 2)))], {"repeats": [2, 2]})
    add_case("repeat/float32/0d", "repeat", [s0], {"repeats": [3]})
    add_case("repeat/bool/2x1", "repeat", [mk("rep/b", [2, 3], torch.bool)], {"repeats": [2, 1]})
    col = arange_t((3, 1))
    for size in ([3, 4], [2, 3, 4], [-1, 5], [3, 1], [2, -1, 2]):
        add_case("expand/float32/%s" % "x".join(str(v) for v in size), "expand", [col], {"size": size})
        add_case("broadcast_to/float32/%s" % "x".join(str(v) for v in size), "broadcast_to", [col], {"size": size})
    add_case("expand/float32/0d", "expand", [s0], {"size": [2, 3]})
    add_case("expand/noncontig/2x3x2", "expand", [NC(arange_t((2, 1)))], {"size": [2, 3, 2]})
    add_case("broadcast_to/float32/empty", "broadcast_to", [torch.zeros(1, 3)], {"size": [0, 3]})


def shape_errors():
    family("shape-errors")
    x = arange_t((2, 3, 4))
    err_case("reshape/error/size", "reshape", [arange_t((2, 3))], {"shape": [4, 2]}, "shape '[4, 2]' is invalid for input of size 6")
    err_case("reshape/error/two-infer", "reshape", [arange_t((2, 3))], {"shape": [-1, -1]}, "only one dimension can be inferred")
    err_case("view/error/noncontig", "view", [NC(arange_t((3, 4)))], {"size": [12]}, "view size is not compatible with input tensor's size and stride")
    err_case("transpose/error/dim", "transpose", [x], {"dim0": 0, "dim1": 3}, "Dimension out of range (expected to be in range of [-3, 2], but got 3)")
    err_case("t/error/3d", "t", [x], {}, "t() expects a tensor with <= 2 dimensions, but self is 3D")
    err_case("permute/error/repeat", "permute", [x], {"dims": [0, 0, 1]}, "duplicate dims are not allowed")
    err_case("permute/error/count", "permute", [x], {"dims": [0, 1]}, "does not match the length of the desired ordering of dimensions")
    err_case("select/error/range", "select", [x], {"dim": 0, "index": 5}, "select(): index 5 out of range for tensor of size [2, 3, 4] at dimension 0")
    err_case("narrow/error/range", "narrow", [x], {"dim": 2, "start": 3, "length": 2}, "start (3) + length (2) exceeds dimension size (4).")
    err_case("squeeze/error/dim", "squeeze", [x], {"dim": 3}, "Dimension out of range (expected to be in range of [-3, 2], but got 3)")
    err_case("unsqueeze/error/dim", "unsqueeze", [x], {"dim": 4}, "Dimension out of range (expected to be in range of [-4, 3], but got 4)")
    err_case("cat/error/shape", "cat", [[arange_t((2, 3)), arange_t((3, 2))]], {"dim": 1}, "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor number 1 in the list.")
    err_case("cat/error/empty-list", "cat", [[]], {"dim": 0}, "expected a non-empty list of Tensors")
    err_case("stack/error/shape", "stack", [[arange_t((2, 3)), arange_t((3, 2))]], {"dim": 0}, "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 2] at entry 1")
    err_case("expand/error/size", "expand", [arange_t((2, 3))], {"size": [2, 4]}, "The expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1.")
    err_case("expand/error/fewer-dims", "expand", [arange_t((2, 3))], {"size": [3]}, "the number of sizes provided (1) must be greater or equal to the number of dimensions in the tensor (2)")
    err_case("slice/error/step", "slice", [x], {"dim": 1, "start": 0, "end": 3, "step": -1}, "step must be greater than zero")
    err_case("chunk/error/zero", "chunk", [x], {"chunks": 0, "dim": 0}, "chunk expects `chunks` to be greater than 0, got: 0")
    err_case("split/error/sum", "split", [arange_t((5, 2))], {"split_size_or_sections": [2, 2], "dim": 0}, "split_with_sizes expects split_sizes to sum exactly to 5")
    err_case("repeat/error/fewer-dims", "repeat", [arange_t((2, 3))], {"repeats": [2]}, "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    err_case("flatten/error/order", "flatten", [x], {"start_dim": 2, "end_dim": 1}, "flatten() has invalid args: start_dim cannot come after end_dim")
    err_case("diagonal/error/same-dim", "diagonal", [x], {"offset": 0, "dim1": 1, "dim2": 1}, "diagonal dimensions cannot be identical 1, 1")
    err_case("tril/error/1d", "tril", [arange_t((3,))], {}, "tril: input tensor must have at least 2 dimensions")
    err_case("movedim/error/repeat", "movedim", [x], {"source": [0, 0], "destination": [1, 2]}, "movedim: repeated dim in `source` ([0, 0])")


# ================================================================ creation

def creation_block():
    family("creation")
    ar = [
        ("5", {"end": 5}), ("0", {"end": 0}), ("1,5", {"start": 1, "end": 5}),
        ("1,10,3", {"start": 1, "end": 10, "step": 3}), ("10,0,-3", {"start": 10, "end": 0, "step": -3}),
        ("-5,5,2", {"start": -5, "end": 5, "step": 2}), ("0,1,0.1", {"start": 0, "end": 1, "step": 0.1}),
        ("0,-1,-0.25", {"start": 0, "end": -1, "step": -0.25}), ("0.5,5", {"start": 0.5, "end": 5}),
        ("5.0", {"end": 5.0}), ("1,2.5,0.5", {"start": 1, "end": 2.5, "step": 0.5}),
        ("0,1,0.3", {"start": 0.0, "end": 1.0, "step": 0.3}), ("-1,1,0.4", {"start": -1.0, "end": 1.0, "step": 0.4}),
        ("3,3", {"start": 3, "end": 3}), ("0,10,2.5", {"start": 0, "end": 10, "step": 2.5}),
        ("5,1,-1", {"start": 5, "end": 1, "step": -1}),
    ]
    for name, kw in ar:
        add_case("arange/default/%s" % name, "arange", [], kw)
        for dt in (i64, i32, f32, f64):
            k2 = dict(kw)
            k2["dtype"] = dt
            add_case("arange/%s/%s" % (dname(dt), name), "arange", [], k2, sweep=True)
    for dt in (torch.uint8, torch.int8, torch.int16, f16, bf16):
        add_case("arange/%s/0,10,3" % dname(dt), "arange", [], {"start": 0, "end": 10, "step": 3, "dtype": dt}, sweep=True)
    add_case("arange/float32/0,1,1/30", "arange", [], {"start": 0.0, "end": 1.0, "step": 1.0 / 30, "dtype": f32})
    for steps in (0, 1, 2, 5, 10):
        for (s, e) in ((0.0, 1.0), (-2.0, 3.0), (3, 10), (10.0, -10.0)):
            add_case("linspace/default/%s,%s,%d" % (s, e, steps), "linspace", [], {"start": s, "end": e, "steps": steps})
            for dt in (f32, f64, i64, i32, torch.int8, torch.uint8, c64):
                if dt == torch.uint8 and (s < 0 or e < 0):
                    continue
                add_case("linspace/%s/%s,%s,%d" % (dname(dt), s, e, steps), "linspace", [],
                         {"start": s, "end": e, "steps": steps, "dtype": dt}, sweep=True)
            for dt in (f16, bf16):
                add_case("linspace/%s/%s,%s,%d" % (dname(dt), s, e, steps), "linspace", [],
                         {"start": s, "end": e, "steps": steps, "dtype": dt}, note=NOTE_213, sweep=True)
    add_case("linspace/float32/0,1,7", "linspace", [], {"start": 0.0, "end": 1.0, "steps": 7})
    add_case("linspace/float32/0,1,100", "linspace", [], {"start": 0.0, "end": 1.0, "steps": 100})
    add_case("linspace/float64/-1,1,51", "linspace", [], {"start": -1.0, "end": 1.0, "steps": 51, "dtype": f64})
    add_case("linspace/int64/0,10,4", "linspace", [], {"start": 0, "end": 10, "steps": 4, "dtype": i64})
    add_case("linspace/int64/-7,7,6", "linspace", [], {"start": -7, "end": 7, "steps": 6, "dtype": i64})
    add_case("linspace/float32/complex-range", "linspace", [], {"start": complex(0, 0), "end": complex(1, 2), "steps": 5}, sweep=True)
    for steps in (0, 1, 2, 5):
        for (s, e, base) in ((0.0, 2.0, None), (-1.0, 1.0, 2.0), (0.0, 3.0, 0.5), (1.0, 0.0, 10.0), (0, 4, 2)):
            kw = {"start": s, "end": e, "steps": steps}
            if base is not None:
                kw["base"] = base
            add_case("logspace/default/%s,%s,%d,b%s" % (s, e, steps, base), "logspace", [], kw)
            kw2 = dict(kw)
            kw2["dtype"] = f64
            add_case("logspace/float64/%s,%s,%d,b%s" % (s, e, steps, base), "logspace", [], kw2)
            kw3 = dict(kw)
            kw3["dtype"] = i64
            add_case("logspace/int64/%s,%s,%d,b%s" % (s, e, steps, base), "logspace", [], kw3, sweep=True)
    for n, m in ((0, None), (1, None), (3, None), (2, 4), (4, 2), (3, 0), (0, 3)):
        kw = {"n": n}
        if m is not None:
            kw["m"] = m
        add_case("eye/default/%s,%s" % (n, m), "eye", [], kw)
    for dt in ALL_DTYPES:
        add_case("eye/%s/3,2" % dname(dt), "eye", [], {"n": 3, "m": 2, "dtype": dt}, sweep=True)
        add_case("zeros/%s/2x3" % dname(dt), "zeros", [], {"size": [2, 3], "dtype": dt}, sweep=True)
        add_case("ones/%s/2x3" % dname(dt), "ones", [], {"size": [2, 3], "dtype": dt}, sweep=True)
        add_case("full/%s/2x2-int" % dname(dt), "full", [], {"size": [2, 2], "fill_value": 3, "dtype": dt}, sweep=True)
    for fv in (1.5, 3, True, complex(1, -2), NAN, -INF, -0.0):
        add_case("full/default/%s" % fv, "full", [], {"size": [2, 3], "fill_value": fv}, sweep=True)
    add_case("full/float16/overflow", "full", [], {"size": [2], "fill_value": 1e5, "dtype": f16}, sweep=True)
    add_case("full/bfloat16/rounding", "full", [], {"size": [2], "fill_value": 1.0 / 3.0, "dtype": bf16}, sweep=True)
    add_case("full/int64/float-fill", "full", [], {"size": [2], "fill_value": 2.7, "dtype": i64}, sweep=True)
    add_case("zeros/default/0d", "zeros", [], {"size": []})
    add_case("zeros/default/empty", "zeros", [], {"size": [0, 3]})
    add_case("ones/default/3d", "ones", [], {"size": [2, 1, 2]})
    add_case("full/default/0d", "full", [], {"size": [], "fill_value": 2.5})
    family("creation-errors")
    err_case("arange/error/sign", "arange", [], {"start": 5, "end": 1, "step": 1}, "upper bound and lower bound inconsistent with step sign")
    err_case("arange/error/zero-step", "arange", [], {"start": 0, "end": 5, "step": 0}, "step must be nonzero")
    err_case("linspace/error/negative", "linspace", [], {"start": 0.0, "end": 1.0, "steps": -1}, "number of steps must be non-negative")
    err_case("eye/error/negative", "eye", [], {"n": -1}, "n must be greater or equal to 0, got -1")
    err_case("zeros/error/negative", "zeros", [], {"size": [2, -1]}, "zeros: Dimension size must be non-negative.")


# ================================================================ matrix products

MM_SHAPES = [
    ("1d-1d", [4], [4]), ("2d-1d", [3, 4], [4]), ("1d-2d", [4], [4, 2]), ("2d-2d", [3, 4], [4, 2]),
    ("3d-3d", [2, 3, 4], [2, 4, 2]), ("bcast-4d-3d", [2, 1, 3, 4], [5, 4, 2]), ("1d-3d", [4], [2, 4, 3]),
    ("3d-1d", [2, 3, 4], [4]), ("3d-2d", [2, 3, 4], [4, 2]), ("2d-3d", [3, 4], [2, 4, 2]),
    ("4d-1d", [2, 2, 3, 4], [4]), ("bcast-1batch", [1, 3, 4], [3, 4, 2]),
    ("empty-k", [3, 0], [0, 2]), ("empty-m", [0, 4], [4, 2]), ("empty-1d", [0], [0]),
]


def matmul_block():
    family("matmul")
    for dt in (f32, f64, c64, c128):
        for name, sa, sb in MM_SHAPES:
            k = "matmul/%s/%s" % (dname(dt), name)
            add_case(k, "matmul", [mk(k + "a", sa, dt), mk(k + "b", sb, dt)], sweep=True)
        k = "matmul/%s/noncontig" % dname(dt)
        add_case(k, "matmul", [NC(mk(k + "a", [4, 3], dt)), NC(mk(k + "b", [2, 4], dt))])
        k = "mm/%s/2x4x3" % dname(dt)
        add_case(k, "mm", [mk(k + "a", [2, 4], dt), mk(k + "b", [4, 3], dt)])
        k = "mm/%s/noncontig" % dname(dt)
        add_case(k, "mm", [NC(mk(k + "a", [4, 2], dt)), mk(k + "b", [4, 3], dt)])
        k = "mm/%s/1x1" % dname(dt)
        add_case(k, "mm", [mk(k + "a", [1, 5], dt), mk(k + "b", [5, 1], dt)])
        k = "bmm/%s/2x3x4x2" % dname(dt)
        add_case(k, "bmm", [mk(k + "a", [2, 3, 4], dt), mk(k + "b", [2, 4, 2], dt)])
        k = "bmm/%s/noncontig" % dname(dt)
        add_case(k, "bmm", [NC(mk(k + "a", [2, 4, 3], dt), 1, 2), mk(k + "b", [2, 4, 2], dt)])
        for beta, alpha in ((1, 1), (0.5, 2.0), (0, 1), (2, 0)):
            k = "addmm/%s/b%s-a%s" % (dname(dt), beta, alpha)
            add_case(k, "addmm", [mk(k + "c", [2, 3], dt), mk(k + "a", [2, 4], dt), mk(k + "b", [4, 3], dt)],
                     {"beta": beta, "alpha": alpha})
            k = "baddbmm/%s/b%s-a%s" % (dname(dt), beta, alpha)
            add_case(k, "baddbmm", [mk(k + "c", [2, 3, 2], dt), mk(k + "a", [2, 3, 4], dt), mk(k + "b", [2, 4, 2], dt)],
                     {"beta": beta, "alpha": alpha})
        k = "addmm/%s/bcast-bias" % dname(dt)
        add_case(k, "addmm", [mk(k + "c", [3], dt), mk(k + "a", [2, 4], dt), mk(k + "b", [4, 3], dt)])
        k = "baddbmm/%s/bcast-bias" % dname(dt)
        add_case(k, "baddbmm", [mk(k + "c", [1, 2], dt), mk(k + "a", [2, 3, 4], dt), mk(k + "b", [2, 4, 2], dt)])
        k = "dot/%s/5" % dname(dt)
        add_case(k, "dot", [mk(k + "a", [5], dt), mk(k + "b", [5], dt)])
        k = "dot/%s/empty" % dname(dt)
        add_case(k, "dot", [mk(k + "a", [0], dt), mk(k + "b", [0], dt)])
        k = "outer/%s/3x4" % dname(dt)
        add_case(k, "outer", [mk(k + "a", [3], dt), mk(k + "b", [4], dt)])
        k = "mv/%s/3x4" % dname(dt)
        add_case(k, "mv", [mk(k + "a", [3, 4], dt), mk(k + "b", [4], dt)])
        k = "mv/%s/noncontig" % dname(dt)
        add_case(k, "mv", [NC(mk(k + "a", [4, 3], dt)), mk(k + "b", [4], dt)])
    # addmm with nan in bias and beta=0 (bias ignored)
    add_case("addmm/float32/beta0-nan-bias", "addmm", [torch.full((2, 2), NAN), torch.ones(2, 3), torch.ones(3, 2)], {"beta": 0})
    add_case("matmul/float32/special", "matmul", [torch.tensor([[INF, 0.0], [NAN, 1.0]]), torch.tensor([[1.0, 0.0], [1.0, 2.0]])])
    # integer and half-precision
    for dt in (i64, i32, torch.int8, torch.uint8, f16, bf16):
        for name, sa, sb in (("2d-2d", [3, 4], [4, 2]), ("1d-1d", [4], [4]), ("3d-3d", [2, 3, 4], [2, 4, 2]),
                             ("2d-1d", [3, 4], [4]), ("bcast-4d-3d", [2, 1, 3, 4], [5, 4, 2])):
            k = "matmul/%s/%s" % (dname(dt), name)
            add_case(k, "matmul", [mk(k + "a", sa, dt, "few"), mk(k + "b", sb, dt, "few")], sweep=True)
        for op, sa, sb in (("mm", [2, 4], [4, 3]), ("bmm", [2, 3, 4], [2, 4, 2]), ("dot", [5], [5]),
                           ("mv", [3, 4], [4]), ("outer", [3], [4])):
            k = "%s/%s/basic" % (op, dname(dt))
            add_case(k, op, [mk(k + "a", sa, dt, "few"), mk(k + "b", sb, dt, "few")], sweep=True)
        k = "addmm/%s/basic" % dname(dt)
        add_case(k, "addmm", [mk(k + "c", [2, 3], dt, "few"), mk(k + "a", [2, 4], dt, "few"), mk(k + "b", [4, 3], dt, "few")], sweep=True)
    # half precision with longer inner dimension (accumulation precision matters)
    for dt in (f16, bf16):
        k = "matmul/%s/k64" % dname(dt)
        add_case(k, "matmul", [mk(k + "a", [2, 64], dt), mk(k + "b", [64, 2], dt)], sweep=True)
    family("matmul-errors")
    err_case("mm/error/shape", "mm", [torch.ones(4, 3), torch.ones(5, 6)], {}, "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)")
    err_case("matmul/error/shape", "matmul", [torch.ones(4, 3), torch.ones(5, 6)], {}, "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)")
    err_case("matmul/error/0d", "matmul", [torch.tensor(1.0), torch.ones(2, 2)], {}, "both arguments to matmul need to be at least 1D, but they are 0D and 2D")
    err_case("matmul/error/1d-1d", "matmul", [torch.ones(3), torch.ones(4)], {}, "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively")
    err_case("dot/error/size", "dot", [torch.ones(3), torch.ones(4)], {}, "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of elements, but got 3 and 4 elements respectively")
    err_case("dot/error/2d", "dot", [torch.ones(2, 2), torch.ones(2, 2)], {}, "1D tensors expected, but got 2D and 2D tensors")
    err_case("bmm/error/batch", "bmm", [torch.ones(2, 3, 4), torch.ones(3, 4, 2)], {}, "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].")
    err_case("bmm/error/2d", "bmm", [torch.ones(3, 4), torch.ones(4, 2)], {}, "batch1 must be a 3D tensor")
    err_case("mm/error/1d", "mm", [torch.ones(3), torch.ones(3, 2)], {}, "self must be a matrix")
    err_case("mv/error/shape", "mv", [torch.ones(3, 4), torch.ones(5)], {}, "size mismatch, got input (3), mat (3x4), vec (5)")
    err_case("matmul/error/batch", "matmul", [torch.ones(2, 3, 4), torch.ones(3, 4, 2)], {}, "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0")
    err_case("mm/error/dtype", "mm", [torch.ones(2, 2), torch.ones(2, 2, dtype=f64)], {}, "expected")


# ================================================================ repr

def repr_block():
    family("repr")
    g = gen("repr")
    items = [
        ("0d-float", torch.tensor(3.5)),
        ("0d-int", torch.tensor(7)),
        ("0d-bool", torch.tensor(True)),
        ("1d-float", torch.tensor([1.0, 2.5, -3.0])),
        ("1d-int-valued-float", torch.tensor([1.0, 2.0, 3.0])),
        ("1d-int64", torch.tensor([1, -20, 300])),
        ("1d-bool", torch.tensor([True, False, True])),
        ("2d-float", torch.tensor([[1.25, -2.5, 3.0], [4.0, 5.5, -6.75]])),
        ("3d-float", torch.arange(12.0).reshape(2, 3, 2)),
        ("2d-random", _q(torch.randn(3, 4, generator=g), 1000.0)),
        ("sci-mixed", torch.tensor([1e-5, 1.0, 1e5])),
        ("sci-large", torch.tensor([1e10, 2.5e12])),
        ("sci-small", torch.tensor([1e-10, 3e-9])),
        ("mixed-magnitudes", torch.tensor([0.001, 123.456, 1000.5])),
        ("float64", torch.tensor([1.5, 2.0], dtype=f64)),
        ("float16", torch.tensor([1.5, 2.0, -0.1], dtype=f16)),
        ("bfloat16", torch.tensor([1.5, 2.0, -0.1], dtype=bf16)),
        ("int32", torch.tensor([1, 2, 3], dtype=i32)),
        ("uint8", torch.tensor([0, 255], dtype=torch.uint8)),
        ("int8", torch.tensor([-128, 127], dtype=torch.int8)),
        ("int16", torch.tensor([-3, 3], dtype=torch.int16)),
        ("complex64", torch.tensor([1 + 2j, -3.5 - 0.5j])),
        ("complex128", torch.tensor([[1 + 0j, 0 - 1j]], dtype=c128)),
        ("empty-1d", torch.zeros(0)),
        ("empty-2x0", torch.zeros(2, 0)),
        ("empty-int64", torch.zeros(0, dtype=i64)),
        ("nan-inf", torch.tensor([NAN, INF, -INF, 1.0])),
        ("nan-inf-sci", torch.tensor([NAN, 1e-6, 1e6])),
        ("negative-zero", torch.tensor([-0.0, 0.0, 1.0])),
        ("neg-zero-only", torch.tensor([-0.0])),
        ("summarize-arange2000", torch.arange(2000.0)),
        ("summarize-100x100", (torch.arange(10000).reshape(100, 100) / 4.0)),
        ("summarize-int-1001", torch.arange(1001)),
        ("no-summarize-1000", torch.arange(1000)),
        ("3d-int", torch.arange(24).reshape(2, 3, 4)),
        ("wide-2d", torch.arange(40.0).reshape(2, 20) / 3.0),
        ("large-ints-float", torch.tensor([123456789.0, 1.0])),
        ("bool-2d", torch.tensor([[True, False], [False, True]])),
        ("0d-nan", torch.tensor(NAN)),
        ("0d-complex", torch.tensor(1 - 1j)),
        ("1d-float-precision", torch.tensor([0.1, 0.123456789, 2.0 / 3.0])),
        ("0d-float64", torch.tensor(0.1, dtype=f64)),
    ]
    for name, t in items:
        add_case("repr/%s/%s" % (dname(t.dtype), name), "repr", [t])
    add_case("repr/float32/noncontig", "repr", [NC(torch.arange(6.0).reshape(2, 3))])


# ================================================================ main

def write(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True)
             for c in CASES]
    head = '{"cases":[\n'
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_core.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(head + ",\n".join(lines) + tail)
    # sanity: it parses and has sorted top-level keys
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    assert list(doc.keys()) == sorted(doc.keys())
    return os.path.getsize(path)


def main():
    binary_block()
    binary_errors()
    promotion_block()
    unary_block()
    unary_errors()
    fp16_block()
    reductions_block()
    reduction_errors()
    shape_block()
    shape_errors()
    creation_block()
    matmul_block()
    repr_block()
    size = write(OUT)
    err = sys.stderr
    err.write("wrote %s: %d cases, %d bytes\n" % (os.path.relpath(OUT), len(CASES), size))
    for fam in sorted(FAMILY_COUNT):
        err.write("  %-18s %5d\n" % (fam, FAMILY_COUNT[fam]))
    err.write("skipped (not supported by torch %s on CPU): %d\n" % (torch.__version__, len(SKIPPED)))
    err.write("skipped (argument form rejected by the Python API): %d\n" % len(SKIPPED_BINDING))
    for w in WARNINGS:
        err.write("WARNING %s\n" % w)
    if "-v" in sys.argv:
        for cid, msg in SKIPPED + SKIPPED_BINDING:
            err.write("  %s: %s\n" % (cid, msg))


if __name__ == "__main__":
    main()

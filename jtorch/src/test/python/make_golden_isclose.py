#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.isclose and torch.allclose.

What it makes
    jtorch/src/test/resources/golden/isclose.json: isclose's bool results and allclose's answers at ordinary,
    near-threshold, infinite and NaN values, with and without equal_nan, at zero and loose tolerances, in every
    floating and complex dtype, for integer and bool inputs (compared in the default dtype, also with float64 as the
    default), with broadcasting, 0-d and empty tensors; and the errors: mixed dtypes, negative or NaN tolerances,
    shapes that do not broadcast.

    case: {"id", "op", "args": [a, b], "kwargs": {"rtol", "atol", "equal_nan"[, "default_dtype"]},
           "out": tensor (isclose) | true/false (allclose) | {"error": message}}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_isclose.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs are fixed or come from a seeded generator.
"""
import math
import os

import torch

from golden_json import enc, enc_float, write

torch.set_num_threads(1)
CASES = []
INF, NAN = math.inf, math.nan
DEFAULTS = {"rtol": 1e-05, "atol": 1e-08, "equal_nan": False}


def case(id_, op, a, b, default_dtype=None, **kw):
    kwargs = dict(DEFAULTS, **kw)
    recorded = {k: enc_float(v) if isinstance(v, float) else v for k, v in kwargs.items()}
    if default_dtype is not None:
        recorded["default_dtype"] = str(default_dtype).replace("torch.", "")
        torch.set_default_dtype(default_dtype)
    try:
        out = getattr(torch, op)(a, b, **kwargs)
        out = enc(out) if op == "isclose" else bool(out)
    except Exception as e:  # the message is what JTorch must raise
        out = {"error": str(e).splitlines()[0]}
    finally:
        torch.set_default_dtype(torch.float32)
    CASES.append({"id": id_, "op": op, "args": [enc(a), enc(b)], "kwargs": recorded, "out": out})


def main():
    g = torch.Generator().manual_seed(0)
    a = torch.tensor([0.0, 1.0, 1.0, 1.0, INF, -INF, INF, NAN, NAN, 1.0, 1e30, -0.0, 1e-9, 3e38, 100.0],
                     dtype=torch.float64)
    b = torch.tensor([0.0, 1.000001, 1.00002, 1.1, INF, -INF, -INF, NAN, 1.0, INF, 1.00001e30, 0.0, 0.0, -3e38,
                      100.001], dtype=torch.float64)
    for d in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
        n = str(d).replace("torch.", "")
        x, y = a.to(d), b.to(d)
        case("isclose/edge/" + n, "isclose", x, y)
        case("isclose/edge-equal-nan/" + n, "isclose", x, y, equal_nan=True)
        case("isclose/edge-zero-tolerance/" + n, "isclose", x, y, rtol=0.0, atol=0.0)
        case("isclose/edge-zero-tolerance-equal-nan/" + n, "isclose", x, y, rtol=0.0, atol=0.0, equal_nan=True)
        case("isclose/edge-loose/" + n, "isclose", x, y, rtol=0.1, atol=0.01)
        case("isclose/edge-infinite-rtol/" + n, "isclose", x, y, rtol=INF, atol=0.0)
        case("isclose/reversed/" + n, "isclose", y, x, rtol=1e-3, atol=1e-5)
    # values straddling the default threshold, so the rounding of rtol * |b| and |a - b| decides
    base = torch.randn(64, generator=g, dtype=torch.float64)
    relative = torch.randn(64, generator=g, dtype=torch.float64) * 1e-5
    near = base * (1 + relative) + torch.randn(64, generator=g, dtype=torch.float64) * 1e-8
    for d in (torch.float64, torch.float32):
        case("isclose/near-threshold/" + str(d).replace("torch.", ""), "isclose", base.to(d), near.to(d))
    near16 = base * (1 + torch.randn(64, generator=g, dtype=torch.float64) * 1e-3)
    case("isclose/near-threshold/float16", "isclose", base.half(), near16.half(), rtol=1e-3, atol=1e-5)
    case("isclose/near-threshold/bfloat16", "isclose", base.bfloat16(), near16.bfloat16(), rtol=1e-2, atol=1e-5)
    cz = torch.tensor([complex(1, 2), complex(1, 2), complex(INF, 0), complex(INF, 1), complex(NAN, 1), complex(1, NAN),
                       complex(0, 1), complex(3, 4), complex(-INF, -INF)], dtype=torch.complex128)
    cw = torch.tensor([complex(1, 2.00001), complex(1.1, 2), complex(INF, 0), complex(INF, 2), complex(1, NAN),
                       complex(1, NAN), complex(0, 1.0000001), complex(3, 4.1), complex(-INF, -INF)],
                      dtype=torch.complex128)
    for d in (torch.complex128, torch.complex64):
        n = str(d).replace("torch.", "")
        case("isclose/complex/" + n, "isclose", cz.to(d), cw.to(d))
        case("isclose/complex-equal-nan/" + n, "isclose", cz.to(d), cw.to(d), equal_nan=True)
        case("isclose/complex-loose/" + n, "isclose", cz.to(d), cw.to(d), rtol=0.0, atol=0.15)
        case("isclose/complex-zero-tolerance/" + n, "isclose", cz.to(d), cw.to(d), rtol=0.0, atol=0.0)
    # integers and bool: equality exactly, the tolerance in the default dtype (after a cast, so uint8 cannot wrap)
    ia = torch.tensor([10, 10, -5, 0, 2 ** 40 + 1, 2 ** 62, 2 ** 63 - 1, 7])
    ib = torch.tensor([11, 12, -5, 1, 2 ** 40, 2 ** 62 + 100, -2 ** 63, 7])
    case("isclose/int64", "isclose", ia, ib)
    case("isclose/int64-rtol", "isclose", ia, ib, rtol=0.1, atol=0.0)
    case("isclose/int64-atol", "isclose", ia, ib, rtol=0.0, atol=0.5)
    case("isclose/int64-zero-tolerance", "isclose", ia, ib, rtol=0.0, atol=0.0)
    case("isclose/int64-default-float64", "isclose", ia, ib, default_dtype=torch.float64, rtol=0.0, atol=0.5)
    case("isclose/uint8", "isclose", torch.tensor([0, 255, 3, 200], dtype=torch.uint8),
         torch.tensor([255, 0, 4, 199], dtype=torch.uint8), rtol=0.0, atol=1.0)
    case("isclose/int8", "isclose", torch.tensor([-128, 127, 5], dtype=torch.int8),
         torch.tensor([127, -128, 6], dtype=torch.int8), rtol=0.2, atol=0.0)
    case("isclose/int32", "isclose", torch.tensor([2 ** 24 + 1, 100, -100], dtype=torch.int32),
         torch.tensor([2 ** 24, 101, -101], dtype=torch.int32), rtol=0.0, atol=0.5)
    case("isclose/uint64", "isclose", torch.tensor([5, 6, 0], dtype=torch.uint64),
         torch.tensor([5, 7, 1], dtype=torch.uint64), rtol=0.0, atol=1.0)
    ba, bb = torch.tensor([True, True, False, False]), torch.tensor([True, False, True, False])
    case("isclose/bool", "isclose", ba, bb)
    case("isclose/bool-atol", "isclose", ba, bb, rtol=0.0, atol=1.0)
    case("isclose/bool-equal-nan", "isclose", ba, bb, equal_nan=True)
    # shapes
    case("isclose/broadcast", "isclose", torch.randn(2, 1, 3, generator=g), torch.randn(4, 1, generator=g), rtol=0.5,
         atol=0.5)
    case("isclose/zero-dim", "isclose", torch.tensor(1.0), torch.tensor([1.0, 1.00001, 2.0]))
    case("isclose/zero-dim-both", "isclose", torch.tensor(NAN), torch.tensor(NAN), equal_nan=True)
    case("isclose/empty", "isclose", torch.empty(0, 3), torch.zeros(3))
    case("isclose/empty-broadcast", "isclose", torch.empty(0, 1), torch.zeros(1, 4))
    # errors, in ATen's order: dtypes, then rtol, then atol, then broadcasting
    case("isclose/mixed-float", "isclose", torch.ones(2), torch.ones(2, dtype=torch.float64))
    case("isclose/mixed-int", "isclose", torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.int64))
    case("isclose/mixed-bool", "isclose", torch.ones(2, dtype=torch.bool), torch.ones(2, dtype=torch.uint8))
    case("isclose/mixed-complex", "isclose", torch.ones(2, dtype=torch.complex64),
         torch.ones(2, dtype=torch.complex128))
    case("isclose/mixed-half", "isclose", torch.ones(2, dtype=torch.bfloat16), torch.ones(2, dtype=torch.float16))
    case("isclose/mixed-before-rtol", "isclose", torch.ones(2), torch.ones(3, dtype=torch.float64), rtol=-1.0)
    case("isclose/negative-rtol", "isclose", torch.ones(2), torch.ones(2), rtol=-1.0)
    case("isclose/negative-small-rtol", "isclose", torch.ones(2), torch.ones(2), rtol=-1e-05, atol=-1.0)
    case("isclose/negative-atol", "isclose", torch.ones(2), torch.ones(2), atol=-0.5)
    case("isclose/nan-atol", "isclose", torch.ones(2), torch.ones(2), atol=NAN)
    case("isclose/negative-atol-int", "isclose", torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64),
         atol=-1.0)
    case("isclose/not-broadcastable", "isclose", torch.ones(2, 3), torch.ones(4, 1))
    # allclose: isclose(...).all()
    case("allclose/close", "allclose", a[:4], a[:4] * (1 + 1e-7))
    case("allclose/far", "allclose", a[:4], b[:4])
    case("allclose/nan", "allclose", torch.tensor([1.0, NAN]), torch.tensor([1.0, NAN]))
    case("allclose/nan-equal-nan", "allclose", torch.tensor([1.0, NAN]), torch.tensor([1.0, NAN]), equal_nan=True)
    case("allclose/infinities", "allclose", torch.tensor([INF, -INF]), torch.tensor([INF, -INF]))
    case("allclose/int-atol", "allclose", torch.tensor([10, 20]), torch.tensor([11, 21]), rtol=0.0, atol=1.0)
    case("allclose/broadcast", "allclose", torch.tensor([[1.0], [1.0]]), torch.tensor([1.0, 1.0, 1.0]))
    case("allclose/empty", "allclose", torch.empty(0), torch.empty(0))
    case("allclose/complex", "allclose", cz[:2], cw[:2], rtol=0.2, atol=0.0)
    case("allclose/mixed-dtypes", "allclose", torch.ones(2), torch.ones(2, dtype=torch.float64))
    case("allclose/negative-rtol", "allclose", torch.ones(2), torch.ones(2), rtol=-1.0)
    case("allclose/not-broadcastable", "allclose", torch.ones(2, 3), torch.ones(4, 1))
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "isclose.json"), CASES, "make_golden_isclose.py")


if __name__ == "__main__":
    main()

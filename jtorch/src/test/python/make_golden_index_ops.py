#!/usr/bin/env python3
"""Golden-fixture generator for Tensor.unfold, torch.isin, index_reduce, put and scatter(reduce=).

What it makes
    jtorch/src/test/resources/golden/index_ops.json, read by org.jtorch.ops.IndexReduceGoldenTest.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_index_ops.py

Format (tensors as in golden_json.py):
    {"id", "op", "args": [T...], "kwargs": {...},
     "out": {"output": T, "grad_output": T or null, "grads": [T or null per arg]}} or {"error", "type"}.
    grads are d(sum(output * grad_output))/d(arg) for the float64 args that require grad.
Deterministic: fixed seeds, one thread, sorted keys.
"""
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_json import enc, write  # noqa: E402

torch.set_num_threads(1)
warnings.simplefilter("ignore")
cases = []


def t(x):
    return None if x is None else enc(x)


def leaf(*shape):
    return torch.randn(shape, dtype=torch.float64).requires_grad_(True)


def case(cid, op, fn, make_args, **kwargs):
    torch.manual_seed(3000 + len(cases))
    args = make_args()
    try:
        out = fn(*args)
    except Exception as e:  # the message and class are the fixture
        cases.append({"id": cid, "op": op, "args": [t(a) for a in args], "kwargs": kwargs,
                      "out": {"error": str(e).split("\n")[0], "type": type(e).__name__}})
        return
    diff = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
    go, per = None, [None] * len(args)
    if diff and out.is_floating_point():
        go = torch.randn_like(out)
        g = iter(torch.autograd.grad(out, diff, go, allow_unused=True))
        per = [t(next(g)) if isinstance(a, torch.Tensor) and a.requires_grad else None for a in args]
    cases.append({"id": cid, "op": op, "args": [t(a) for a in args], "kwargs": kwargs,
                  "out": {"output": t(out), "grad_output": t(go), "grads": per}})


L = torch.tensor
# ---- unfold --------------------------------------------------------------------------------------------------
for (shape, dim, size, step) in [((2, 7), 1, 3, 2), ((5, 3), 0, 2, 1), ((4,), 0, 4, 1), ((3, 4, 2), -2, 2, 3),
                                 ((2, 3), 1, 0, 1), ((), 0, 1, 1)]:
    case(f"unfold/{shape}-{dim}-{size}-{step}", "unfold", lambda x: x.unfold(dim, size, step),
         lambda: [leaf(*shape)], dim=dim, size=size, step=step)
case("unfold/transposed", "unfold", lambda x: x.t().unfold(1, 2, 1), lambda: [leaf(4, 3)], dim=1, size=2, step=1,
     transposed=True)
for (shape, dim, size, step) in [((2, 3), 1, 4, 1), ((2, 3), 1, -1, 1), ((2, 3), 1, 2, 0), ((), 0, 2, 1)]:
    case(f"unfold/err-{shape}-{size}-{step}", "unfold", lambda x: x.unfold(dim, size, step), lambda: [leaf(*shape)],
         dim=dim, size=size, step=step)

# ---- isin ----------------------------------------------------------------------------------------------------
case("isin/int", "isin", lambda e, s: torch.isin(e, s), lambda: [L([[1, 2, 3], [4, 5, 2]]), L([2, 5, 9])],
     invert=False)
case("isin/invert-mixed", "isin", lambda e, s: torch.isin(e, s, invert=True),
     lambda: [L([1, 2, 3]), L([2.0, 5.5])], invert=True)
case("isin/float-nan", "isin", lambda e, s: torch.isin(e, s),
     lambda: [L([1.5, float("nan"), -0.0, 3.0]), L([[0.0, float("nan")], [3.0, 7.0]])], invert=False)
case("isin/empty-test", "isin", lambda e, s: torch.isin(e, s), lambda: [L([1, 2]), L([], dtype=torch.int64)],
     invert=False)
case("isin/err-bool", "isin", lambda e, s: torch.isin(e, s), lambda: [L([True]), L([True])], invert=False)
case("isin/err-complex", "isin", lambda e, s: torch.isin(e, s), lambda: [L([1 + 1j]), L([1 + 1j])], invert=False)

# ---- index_reduce --------------------------------------------------------------------------------------------
for red in ["prod", "mean", "amax", "amin"]:
    for inc in [True, False]:
        case(f"index_reduce/{red}-{inc}", "index_reduce",
             lambda s, src: s.index_reduce(0, L([0, 2, 0, 3]), src, red, include_self=inc),
             lambda: [leaf(4, 3), leaf(4, 3)], dim=0, index=[0, 2, 0, 3], reduce=red, include_self=inc)
case("index_reduce/dim1", "index_reduce", lambda s, src: s.index_reduce(1, L([1, 1]), src, "mean"),
     lambda: [leaf(2, 3), leaf(2, 2)], dim=1, index=[1, 1], reduce="mean", include_self=True)
case("index_reduce/err-reduce", "index_reduce", lambda s, src: s.index_reduce(0, L([0]), src, "sum"),
     lambda: [leaf(2, 3), leaf(1, 3)], dim=0, index=[0], reduce="sum", include_self=True)
case("index_reduce/err-count", "index_reduce", lambda s, src: s.index_reduce(0, L([0, 1]), src, "amax"),
     lambda: [leaf(2, 3), leaf(3, 3)], dim=0, index=[0, 1], reduce="amax", include_self=True)
case("index_reduce/err-range", "index_reduce", lambda s, src: s.index_reduce(0, L([0, 5]), src, "amax"),
     lambda: [leaf(2, 3), leaf(2, 3)], dim=0, index=[0, 5], reduce="amax", include_self=True)
case("index_reduce/err-shape", "index_reduce", lambda s, src: s.index_reduce(0, L([0, 1]), src, "amax"),
     lambda: [leaf(2, 3), leaf(2, 4)], dim=0, index=[0, 1], reduce="amax", include_self=True)

# ---- put -----------------------------------------------------------------------------------------------------
case("put/copy", "put", lambda s, src: s.put(L([0, 5, -1]), src), lambda: [leaf(2, 4), leaf(3)],
     index=[0, 5, -1], accumulate=False)
case("put/accumulate-duplicates", "put", lambda s, src: s.put(L([[1, 1], [-8, 3]]), src, accumulate=True),
     lambda: [leaf(2, 4), leaf(2, 2)], index=[[1, 1], [-8, 3]], accumulate=True)
case("put/err-range", "put", lambda s, src: s.put(L([0, 8]), src), lambda: [leaf(2, 4), leaf(2)], index=[0, 8],
     accumulate=False)
case("put/err-count", "put", lambda s, src: s.put(L([0, 1]), src), lambda: [leaf(2, 4), leaf(3)], index=[0, 1],
     accumulate=False)

# ---- scatter(reduce=) ----------------------------------------------------------------------------------------
case("scatter_reduce_legacy/add", "scatter", lambda s, src: s.scatter(0, L([[0, 1, 0], [0, 2, 2]]), src, reduce="add"),
     lambda: [torch.randn(3, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64)],
     dim=0, index=[[0, 1, 0], [0, 2, 2]], reduce="add")
case("scatter_reduce_legacy/multiply", "scatter",
     lambda s, src: s.scatter(1, L([[0, 0], [1, 2]]), src, reduce="multiply"),
     lambda: [torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 2, dtype=torch.float64)],
     dim=1, index=[[0, 0], [1, 2]], reduce="multiply")
case("scatter_reduce_legacy/value-add", "scatter_value", lambda s: s.scatter(0, L([[0, 1], [0, 0]]), 2.5, reduce="add"),
     lambda: [torch.randn(2, 3, dtype=torch.float64)], dim=0, index=[[0, 1], [0, 0]], value=2.5, reduce="add")
case("scatter_reduce_legacy/err", "scatter", lambda s, src: s.scatter(0, L([[0]]), src, reduce="mean"),
     lambda: [torch.randn(2, 3, dtype=torch.float64), torch.randn(1, 1, dtype=torch.float64)],
     dim=0, index=[[0]], reduce="mean")

write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "index_ops.json"),
      cases, "make_golden_index_ops.py")
print(len(cases), "cases")

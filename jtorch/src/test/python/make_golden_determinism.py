#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for deterministic mode and for Tensor.put / put_.

What it makes
    jtorch/src/test/resources/golden/determinism.json:
    - put / put_ values and first-order gradients (of sum(W * out), W fixed) with duplicate, negative and
      accumulated positions, a transposed in-place target, 0-d and bool tensors, and put_'s argument errors;
      case {"id", "op": "put" | "put_", "args": [self, index, source, W?], "kwargs": {"accumulate"},
            "out": [result, self.grad, source.grad] or {"error": message}}
    - what torch.use_deterministic_algorithms(True) does on the CPU to the ops of PyTorch's list that JTorch has:
      put_ without accumulate raises (before any argument check), or warns with warn_only=True; with accumulate it
      runs; case {"id", "op": "deterministic/...", "kwargs": {"warn_only"}, "out": {"error"} | {"warning"} | [result]}
    - torch.empty / torch.empty_like under deterministic mode with fill_uninitialized_memory (NaN, the largest
      integer, True) for every dtype JTorch has;
      case {"id", "op": "empty" | "empty_like", "args": [shape or like-tensor], "out": [result]}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_determinism.py

Requirements
    PyTorch 2.13 (CPU); nothing here changed in 2.14 or 2.15. Deterministic: inputs are fixed or come from seeded
    generators, and the output is byte-identical on a re-run.
"""
import os
import warnings

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "golden", "determinism.json")


def put_case(id_, self, index, source, accumulate, transpose_self=False):
    gen = torch.Generator().manual_seed(len(CASES))
    differentiable = self.dtype.is_floating_point
    a = self.detach().clone().requires_grad_(differentiable)
    s = source.detach().clone().requires_grad_(differentiable)
    out = a.put(index, s, accumulate=accumulate)
    args = [enc(a), enc(index), enc(s)]
    if differentiable:
        w = torch.randn(out.shape, generator=gen, dtype=torch.float64).to(out.dtype)
        ga, gs = torch.autograd.grad((w * out).sum(), [a, s])
        args.append(enc(w))
        outs = [enc(out), enc(ga), enc(gs)]
    else:
        outs = [enc(out)]
    CASES.append({"id": id_, "op": "put", "args": args, "kwargs": {"accumulate": accumulate}, "out": outs})
    # the in-place form on a copy (transposed when asked: flat positions are row-major, whatever the strides)
    target = self.detach().clone()
    if transpose_self:
        target = target.t().contiguous().t()
        assert not target.is_contiguous()
    target.put_(index, source, accumulate=accumulate)
    CASES.append({"id": id_ + "/inplace", "op": "put_", "args": [enc(self), enc(index), enc(source)],
                  "kwargs": {"accumulate": accumulate, "transpose_self": transpose_self}, "out": [enc(target)]})


def put_error(id_, self, index, source, accumulate=False):
    try:
        self.clone().put_(index, source, accumulate=accumulate)
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": id_, "op": "put_", "args": [enc(self), enc(index), enc(source)],
                      "kwargs": {"accumulate": accumulate}, "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def deterministic_put(id_, index, accumulate, warn_only):
    self, source = torch.zeros(5), torch.tensor([1.0, 2.0])
    torch.use_deterministic_algorithms(True, warn_only=warn_only)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                out = self.clone().put_(index, source, accumulate=accumulate)
                result = [enc(out)]
            except RuntimeError as e:
                result = {"error": str(e)}
        if caught:
            assert len(caught) == 1, caught
            # the C++ source location PyTorch appends is not part of the message
            result = {"warning": str(caught[0].message).split(" (Triggered internally at")[0]}
    finally:
        torch.use_deterministic_algorithms(False)
    CASES.append({"id": "deterministic/" + id_, "op": "put_", "args": [enc(self), enc(index), enc(source)],
                  "kwargs": {"accumulate": accumulate, "warn_only": warn_only}, "out": result})


DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64, torch.complex128,
          torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8, torch.uint16, torch.uint32, torch.uint64,
          torch.bool, torch.float8_e4m3fn, torch.float8_e5m2]


def empty_cases():
    assert torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    try:
        for dt in DTYPES:
            name = str(dt).replace("torch.", "")
            e = torch.empty((2, 3), dtype=dt)
            CASES.append({"id": "empty/" + name, "op": "empty", "args": [[2, 3]], "kwargs": {"dtype": name},
                          "out": [enc(e.float() if dt.is_floating_point and dt.itemsize == 1 else e)]})
            like = torch.zeros(4, dtype=dt)
            CASES.append({"id": "empty_like/" + name, "op": "empty_like", "args": [enc(like)],
                          "out": [enc(torch.empty_like(like).float() if dt.itemsize == 1 and dt.is_floating_point
                                      else torch.empty_like(like))]})
    finally:
        torch.use_deterministic_algorithms(False)


def main():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(2, 3, generator=g, dtype=torch.float64)
    src2 = torch.randn(2, generator=g, dtype=torch.float64)
    for acc in (False, True):
        tag = "accumulate" if acc else "assign"
        put_case("put/%s/distinct" % tag, x, torch.tensor([1, 4]), src2, acc)
        put_case("put/%s/duplicate" % tag, x, torch.tensor([1, 1]), src2, acc)
        put_case("put/%s/negative" % tag, x, torch.tensor([-1, 0]), src2, acc)
        put_case("put/%s/index-2d-source-1d" % tag, x, torch.tensor([[5, 3], [3, 0]]),
                 torch.randn(4, generator=g, dtype=torch.float64), acc)
        put_case("put/%s/transposed-self" % tag, x.t().contiguous(), torch.tensor([[1], [4]]),
                 torch.tensor([10.0, 20.0], dtype=torch.float64), acc, transpose_self=True)
        put_case("put/%s/float32" % tag, x.float(), torch.tensor([2, 2, 5]),
                 torch.randn(3, generator=g), acc)
        put_case("put/%s/0-d" % tag, torch.tensor(3.0, dtype=torch.float64), torch.tensor(0),
                 torch.tensor(5.0, dtype=torch.float64), acc)
        put_case("put/%s/empty-index" % tag, torch.zeros(0, dtype=torch.float64),
                 torch.tensor([], dtype=torch.long), torch.tensor([], dtype=torch.float64), acc)
        put_case("put/%s/int64" % tag, torch.arange(6).view(2, 3), torch.tensor([0, 0, 5]),
                 torch.tensor([7, 8, 9]), acc)
        put_case("put/%s/bool" % tag, torch.zeros(3, dtype=torch.bool), torch.tensor([1, 1]),
                 torch.tensor([True, False]), acc)
    put_error("put_/error/int32-index", torch.zeros(5), torch.tensor([0, 1], dtype=torch.int32),
              torch.tensor([1.0, 2.0]))
    put_error("put_/error/source-dtype", torch.zeros(5), torch.tensor([0, 1]),
              torch.tensor([1.0, 2.0], dtype=torch.float64))
    put_error("put_/error/numel", torch.zeros(5), torch.tensor([0, 1, 2]), torch.tensor([1.0, 2.0]))
    put_error("put_/error/empty-self", torch.zeros(0), torch.tensor([0]), torch.tensor([1.0]))
    put_error("put_/error/out-of-range", torch.zeros(5), torch.tensor([5]), torch.tensor([1.0]))
    put_error("put_/error/out-of-range-negative", torch.zeros(5), torch.tensor([-6]), torch.tensor([1.0]), True)

    deterministic_put("put_/assign/error", torch.tensor([0, 1]), False, False)
    deterministic_put("put_/assign/warn-only", torch.tensor([0, 1]), False, True)
    deterministic_put("put_/assign/before-argument-checks", torch.tensor([0, 1], dtype=torch.int32), False, False)
    deterministic_put("put_/accumulate/runs", torch.tensor([1, 1]), True, False)
    empty_cases()
    write(OUT, CASES, "jtorch/src/test/python/make_golden_determinism.py")
    print("wrote %d cases to %s" % (len(CASES), os.path.relpath(OUT)))


if __name__ == "__main__":
    main()

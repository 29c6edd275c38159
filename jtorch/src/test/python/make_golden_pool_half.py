#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the pools on float16 and bfloat16, compared bit for bit, forward and backward:
F.max_pool1d/2d/3d and F.adaptive_max_pool1d/2d/3d (values, indices, gradients where one input element is the
maximum of several windows), F.avg_pool1d/2d (count_include_pad, divisor_override, ceil_mode) and
F.adaptive_avg_pool1d/2d/3d (windows of unequal sizes, an upsampling one, outputs of one element); avg_pool3d, which
PyTorch's CPU build has no half kernel for, records its error.

PyTorch's CPU kernels sum the forward windows in float and round once, except adaptive_avg_pool3d, which sums and
divides in the element type, and an adaptive average to a single element, which is a mean (float sum, one
division); every backward computes in the element type: each gradient share is rounded, and each
addition into the input gradient rounds again, in output order.

What it makes
    jtorch/src/test/resources/golden/pool_half.json, in the format of golden_json.py: cases {"id", "op",
    "args": [x, W], "kwargs": {every pooling argument spelled out}, "out": [results..., d(sum(W * out))/dx]} or
    {"error": message}. Inputs are N(0, 3) rounded to the dtype, W N(0, 1) rounded to the dtype, so the gradient
    flowing into the pool is W exactly.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_pool_half.py
    with a Python that has PyTorch 2.13 (CPU).

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from a seeded generator.
"""
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(0)


def randn(dtype, *shape, scale=3.0):
    return (torch.randn(*shape, generator=GEN, dtype=torch.float64) * scale).to(dtype)


def call(id_, op, x, fn, **kw):
    leaf = x.clone().requires_grad_(True)
    try:
        out = fn(leaf)
    except (RuntimeError, NotImplementedError) as e:
        CASES.append({"id": op + "/" + id_, "op": op, "args": [enc(x), None], "kwargs": kw, "out": {"error": str(e)}})
        return
    outs = list(out) if isinstance(out, tuple) else [out]
    weights = randn(x.dtype, *outs[0].shape, scale=1.0)
    (grad,) = torch.autograd.grad((weights * outs[0]).sum(), [leaf])
    CASES.append({"id": op + "/" + id_, "op": op, "args": [enc(x), enc(weights)], "kwargs": kw,
                  "out": [enc(o) for o in outs] + [enc(grad)]})


def max_pool(id_, x, k, s, p, d, ceil):
    fn = {3: F.max_pool1d, 4: F.max_pool2d, 5: F.max_pool3d}[x.dim()]
    call(id_, fn.__name__, x, lambda t: fn(t, k, s, p, d, ceil_mode=ceil, return_indices=True),
         kernel_size=k, stride=s, padding=p, dilation=d, ceil_mode=ceil)


def avg_pool(id_, x, k, s, p, ceil, include, divisor):
    if x.dim() == 3:
        call(id_, "avg_pool1d", x, lambda t: F.avg_pool1d(t, k, s, p, ceil, include),
             kernel_size=k, stride=s, padding=p, ceil_mode=ceil, count_include_pad=include, divisor_override=None)
        return
    fn = F.avg_pool2d if x.dim() == 4 else F.avg_pool3d
    call(id_, fn.__name__, x, lambda t: fn(t, k, s, p, ceil, include, divisor),
         kernel_size=k, stride=s, padding=p, ceil_mode=ceil, count_include_pad=include, divisor_override=divisor)


def adaptive(id_, op, x, size):
    fn = getattr(F, op)
    call(id_, op, x, (lambda t: fn(t, size, return_indices=True)) if "max" in op else (lambda t: fn(t, size)),
         output_size=size)


def main():
    for dtype in (torch.float16, torch.bfloat16):
        name = str(dtype).replace("torch.", "")
        x1, x2, x3 = randn(dtype, 2, 3, 40), randn(dtype, 2, 3, 13, 11), randn(dtype, 2, 2, 7, 9, 8)
        big = randn(dtype, 1, 2, 20, 20)
        max_pool(name + "/overlapping", x1, [3], [1], [1], [1], False)
        max_pool(name + "/strided-ceil", x1, [4], [3], [2], [2], True)
        max_pool(name + "/overlapping", x2, [3, 3], [1, 1], [1, 1], [1, 1], False)
        ties = torch.randint(-3, 3, (1, 2, 6, 7), generator=GEN).to(dtype)
        max_pool(name + "/ties", ties, [2, 2], [1, 1], [0, 0], [1, 1], False)
        max_pool(name + "/overlapping", x3, [3, 3, 3], [1, 2, 1], [1, 1, 0], [1, 1, 1], False)
        avg_pool(name + "/exclude-pad", x1, [3], [2], [1], False, False, None)
        avg_pool(name + "/exclude-pad", x2, [3, 3], [2, 2], [1, 1], False, False, None)
        avg_pool(name + "/include-pad-ceil", x2, [3, 4], [2, 3], [1, 2], True, True, None)
        avg_pool(name + "/divisor", x2, [5, 3], [1, 1], [2, 0], False, True, 7)
        avg_pool(name + "/overlapping-8x8", big, [8, 8], [1, 1], [0, 0], False, True, None)
        avg_pool(name + "/refused", x3, [3, 3, 3], [2, 2, 2], [1, 1, 1], False, True, None)
        adaptive(name + "/uneven", "adaptive_avg_pool1d", x1, [7])
        adaptive(name + "/uneven", "adaptive_avg_pool2d", x2, [5, 4])
        adaptive(name + "/upsampling", "adaptive_avg_pool2d", randn(dtype, 1, 2, 3, 5), [7, 6])
        adaptive(name + "/to-1x1", "adaptive_avg_pool2d", big, [1, 1])
        adaptive(name + "/uneven", "adaptive_avg_pool3d", x3, [3, 4, 3])
        adaptive(name + "/to-1", "adaptive_avg_pool1d", x1, [1])
        adaptive(name + "/to-1x1x1", "adaptive_avg_pool3d", x3, [1, 1, 1])
        adaptive(name + "/flat-to-1x1x1", "adaptive_avg_pool3d", randn(dtype, 1, 2, 1, 20, 20), [1, 1, 1])
        adaptive(name + "/uneven", "adaptive_max_pool1d", x1, [7])
        adaptive(name + "/uneven", "adaptive_max_pool2d", x2, [5, 4])
        adaptive(name + "/uneven", "adaptive_max_pool3d", x3, [3, 4, 3])
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "pool_half.json"), CASES, "make_golden_pool_half.py")


if __name__ == "__main__":
    main()

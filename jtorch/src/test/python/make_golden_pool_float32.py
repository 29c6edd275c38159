#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the float32 pooling kernels, compared bit for bit: F.max_pool2d/3d and
F.adaptive_max_pool2d (values, indices, and gradients where one input element is the maximum of several windows,
so its gradient is a float32 sum), F.avg_pool2d/3d (count_include_pad, divisor_override, ceil_mode) and
F.adaptive_avg_pool2d/3d (windows of unequal sizes, whose sums ATen divides by each extent in turn), forward and
backward, in float32 throughout.

What it makes
    jtorch/src/test/resources/golden/pool_float32.json, in the format of golden_json.py: cases {"id", "op",
    "args": [x, W], "kwargs": {every pooling argument spelled out}, "out": [results..., d(sum(W * out))/dx]}.
    Inputs are N(0, 1) scaled by 1000 so that float32 sums round; W is float32, so the gradient flowing into the
    pool is W exactly.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_pool_float32.py
    with a Python that has PyTorch 2.13 (CPU) and NumPy.

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from a seeded generator. Adaptive average pools to a 1 × 1 output
    are left out: ATen computes those as a mean, whose float32 reduction order is its own.
"""
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

CASES = []
GEN = torch.Generator().manual_seed(0)


def randn(*shape):
    return (torch.randn(*shape, generator=GEN, dtype=torch.float64) * 1000).float()


def call(id_, op, x, fn, **kw):
    leaf = x.clone().requires_grad_(True)
    out = fn(leaf)
    outs = list(out) if isinstance(out, tuple) else [out]
    weights = randn(*outs[0].shape)
    (grad,) = torch.autograd.grad((weights * outs[0]).sum(), [leaf])
    CASES.append({"id": op + "/" + id_, "op": op, "args": [enc(x), enc(weights)], "kwargs": kw,
                  "out": [enc(o) for o in outs] + [enc(grad)]})


def max_pool(id_, x, k, s, p, d, ceil):
    fn = F.max_pool2d if x.dim() == 4 else F.max_pool3d
    call(id_, fn.__name__, x,
         lambda t: fn(t, k, s, p, d, ceil_mode=ceil, return_indices=True),
         kernel_size=k, stride=s, padding=p, dilation=d, ceil_mode=ceil)


def avg_pool(id_, x, k, s, p, ceil, include, divisor):
    fn = F.avg_pool2d if x.dim() == 4 else F.avg_pool3d
    call(id_, fn.__name__, x, lambda t: fn(t, k, s, p, ceil, include, divisor),
         kernel_size=k, stride=s, padding=p, ceil_mode=ceil, count_include_pad=include, divisor_override=divisor)


def adaptive(id_, op, x, size):
    fn = getattr(F, op)
    call(id_, op, x, (lambda t: fn(t, size, return_indices=True)) if "max" in op else (lambda t: fn(t, size)),
         output_size=size)


def main():
    x2 = randn(2, 3, 13, 11)
    x3 = randn(2, 2, 7, 9, 8)
    max_pool("overlapping", x2, [3, 3], [1, 1], [1, 1], [1, 1], False)
    max_pool("strided-ceil", x2, [3, 2], [2, 2], [1, 0], [1, 2], True)
    ties = torch.randint(-3, 3, (1, 2, 6, 7), generator=GEN).float()
    max_pool("ties", ties, [2, 2], [1, 1], [0, 0], [1, 1], False)
    max_pool("overlapping", x3, [3, 3, 3], [1, 2, 1], [1, 1, 0], [1, 1, 1], False)
    avg_pool("exclude-pad", x2, [3, 3], [2, 2], [1, 1], False, False, None)
    avg_pool("include-pad-ceil", x2, [3, 4], [2, 3], [1, 2], True, True, None)
    avg_pool("divisor", x2, [5, 3], [1, 1], [2, 0], False, True, 7)
    avg_pool("exclude-pad", x3, [3, 3, 3], [2, 2, 2], [1, 1, 1], True, False, None)
    avg_pool("divisor", x3, [2, 3, 2], [1, 2, 1], [0, 1, 1], False, True, 5)
    adaptive("uneven", "adaptive_avg_pool2d", x2, [5, 4])
    adaptive("upsampling", "adaptive_avg_pool2d", randn(1, 2, 3, 5), [7, 6])
    adaptive("uneven", "adaptive_avg_pool3d", x3, [3, 4, 3])
    adaptive("uneven", "adaptive_max_pool2d", x2, [5, 4])
    adaptive("uneven", "adaptive_max_pool3d", x3, [3, 4, 3])
    # more planes than a vector has lanes (16 at most), so that whole groups are pooled side by side and the rest
    # one by one; ties, NaNs and -inf in the windows
    planes = torch.randint(-3, 3, (3, 12, 9, 8), generator=GEN).float()
    special = torch.rand(planes.shape, generator=GEN)
    planes[special < 0.05] = float("nan")
    planes[(special >= 0.05) & (special < 0.1)] = float("-inf")
    max_pool("many-planes", planes, [2, 2], [2, 2], [0, 0], [1, 1], False)
    max_pool("many-planes-padded", planes, [3, 3], [2, 1], [1, 1], [2, 1], True)
    max_pool("many-planes", randn(2, 9, 4, 5, 6), [2, 3, 2], [1, 2, 2], [1, 1, 0], [1, 1, 2], True)
    # windows that all read the same taps (no padding, no ceil-mode overhang), scanned 16 windows of a plane at a
    # time: outputs per plane not a multiple of the lanes, rows and columns the windows leave out, dilation, 3-d,
    # overlapping windows; ties, NaNs and -inf
    uniform = torch.randint(-3, 3, (2, 5, 11, 13), generator=GEN).float()
    special = torch.rand(uniform.shape, generator=GEN)
    uniform[special < 0.05] = float("nan")
    uniform[(special >= 0.05) & (special < 0.1)] = float("-inf")
    max_pool("uniform-windows", uniform, [2, 2], [2, 2], [0, 0], [1, 1], False)
    max_pool("uniform-dilated", uniform, [2, 3], [3, 2], [0, 0], [2, 1], False)
    max_pool("uniform-overlapping", randn(3, 4, 9, 10), [3, 3], [1, 1], [0, 0], [1, 1], False)
    max_pool("uniform-windows", randn(2, 3, 5, 7, 6), [2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False)
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "pool_float32.json"), CASES, "make_golden_pool_float32.py")


if __name__ == "__main__":
    main()

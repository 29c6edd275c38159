#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for 3-d and adaptive max pooling: F.max_pool3d (indices, dilation, ceil_mode, padding),
F.avg_pool3d (count_include_pad, divisor_override, ceil_mode), F.adaptive_avg_pool3d, F.adaptive_max_pool1d/2d/3d
(with indices, None sizes), F.lp_pool3d, their errors, the modules' outputs (MaxPool3d, AvgPool3d, AdaptiveMaxPool1d,
AdaptiveMaxPool2d, AdaptiveMaxPool3d, AdaptiveAvgPool3d, LPPool3d) and their reprs; and torch.gather with
sparse_grad=True, whose sparse COO gradient is stored densified (to_dense()), as JTorch returns it.

What it makes
    jtorch/src/test/resources/golden/pool3d.json, in the format of make_golden_spatial.py (whose helpers it uses):
    call cases {"id", "op", "args": [inputs..., W], "kwargs": {..., "grad"}, "out": [results..., gradients]},
    error cases {"out": {"error": message}}, repr cases {"op": "<Module>Repr", "kwargs": {..., "repr"}}, and module
    calls {"op": "<Module>", "kwargs": {"module": constructor arguments, "grad"}, "out": [results..., gradients]}.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_pool3d.py
    with a Python that has PyTorch 2.13 (CPU) and NumPy.

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from a seeded generator.
"""
import os

import torch

import make_golden_spatial as base
from golden_json import enc, write

call, error, repr_case, randn = base.call, base.error, base.repr_case, base.randn


def module_call(id_, name, x, return_indices=False, **kw):
    """The module built from kw, run on x; the gradient of sum(W * values) with respect to x."""
    leaf = x.clone().requires_grad_(True)
    m = getattr(torch.nn, name)(**dict(kw, return_indices=return_indices) if return_indices else kw)
    out = m(leaf)
    outs = list(out) if isinstance(out, tuple) else [out]
    weights = randn(*outs[0].shape)
    (grad,) = torch.autograd.grad((weights * outs[0]).sum(), [leaf])
    base.CASES.append({"id": name + "/module/" + id_, "op": name, "args": [enc(x), enc(weights)],
                       "kwargs": {"module": kw, "return_indices": return_indices, "grad": [0]},
                       "out": [enc(o) for o in outs] + [enc(grad)]})


def max_pool3d_cases():
    x = randn(2, 3, 5, 6, 7)
    call("defaults", "max_pool3d", [x], kernel_size=2)
    call("all-options", "max_pool3d", [x], kernel_size=[3, 2, 2], stride=[2, 1, 2], padding=[1, 1, 0],
         dilation=[1, 2, 1], ceil_mode=True, return_indices=True)
    call("unbatched-indices", "max_pool3d", [randn(3, 4, 5, 4)], kernel_size=3, stride=1, padding=1,
         return_indices=True)
    call("ceil-dilation", "max_pool3d", [randn(1, 2, 7, 6, 5)], kernel_size=2, stride=2, dilation=2, ceil_mode=True,
         return_indices=True)
    nan = randn(1, 1, 4, 4, 4)
    nan[0, 0, 1, 1, 1] = float("nan")
    nan[0, 0, 3, 0, 2] = float("nan")
    call("nan", "max_pool3d", [nan], grad=(), kernel_size=2, return_indices=True)
    ties = torch.zeros(1, 2, 4, 4, 4, dtype=torch.float64)
    call("ties", "max_pool3d", [ties], grad=(), kernel_size=3, stride=1, padding=1, return_indices=True)
    ints = torch.randint(-50, 50, (2, 2, 4, 5, 4), generator=base.GEN)
    call("int64", "max_pool3d", [ints], grad=(), kernel_size=2, stride=1, padding=1, return_indices=True)
    call("int32", "max_pool3d", [ints.int()], grad=(), kernel_size=3, stride=2, padding=1)
    call("float32", "max_pool3d", [randn(1, 2, 4, 4, 4, dtype=torch.float32)], kernel_size=2, return_indices=True)
    call("empty-batch", "max_pool3d", [randn(0, 2, 4, 4, 4)], grad=(), kernel_size=2)
    error("bool", "max_pool3d", [ints > 0], kernel_size=2)
    error("rank", "max_pool3d", [randn(3, 4, 4)], kernel_size=2)
    error("kernel-size", "max_pool3d", [x], kernel_size=[2, 2])
    error("stride-size", "max_pool3d", [x], kernel_size=2, stride=[1, 2])
    error("too-small", "max_pool3d", [randn(1, 1, 2, 2, 2)], kernel_size=3)
    error("empty-plane", "max_pool3d", [randn(1, 1, 0, 4, 4)], kernel_size=2)
    error("pad", "max_pool3d", [x], kernel_size=2, padding=2)
    error("dilation-zero", "max_pool3d", [x], kernel_size=2, dilation=0)


def avg_pool3d_cases():
    x = randn(2, 3, 5, 6, 7)
    call("defaults", "avg_pool3d", [x], kernel_size=2)
    call("pad-ceil-exclude", "avg_pool3d", [x], kernel_size=[3, 2, 3], stride=[2, 1, 2], padding=[1, 1, 1],
         ceil_mode=True, count_include_pad=False)
    call("pad-ceil-include", "avg_pool3d", [x], kernel_size=3, stride=2, padding=1, ceil_mode=True)
    call("divisor", "avg_pool3d", [x], kernel_size=[2, 3, 2], stride=1, padding=[1, 0, 1], divisor_override=5)
    call("unbatched", "avg_pool3d", [randn(3, 4, 5, 4)], kernel_size=2, stride=1)
    ints = torch.randint(-50, 50, (1, 2, 4, 5, 4), generator=base.GEN)
    call("int64", "avg_pool3d", [ints], grad=(), kernel_size=2, stride=1, padding=1)
    call("int64-divisor", "avg_pool3d", [ints], grad=(), kernel_size=3, divisor_override=4, ceil_mode=True)
    call("float32", "avg_pool3d", [randn(1, 2, 4, 4, 4, dtype=torch.float32)], kernel_size=2)
    error("half", "avg_pool3d", [x.half()], kernel_size=2)
    error("int32", "avg_pool3d", [ints.int()], kernel_size=2)
    error("kernel-larger", "avg_pool3d", [randn(1, 1, 1, 4, 4)], kernel_size=2)
    error("pad", "avg_pool3d", [x], kernel_size=2, padding=2)
    error("divisor-zero", "avg_pool3d", [x], kernel_size=2, divisor_override=0)
    error("rank", "avg_pool3d", [randn(4, 4, 4)], kernel_size=2)
    error("kernel-size", "avg_pool3d", [x], kernel_size=[2, 2])
    error("empty-plane", "avg_pool3d", [randn(1, 1, 0, 4, 4)], kernel_size=2)


def adaptive_cases():
    x = randn(2, 3, 5, 7, 6)
    call("down", "adaptive_avg_pool3d", [x], output_size=[2, 3, 4])
    call("up-unbatched", "adaptive_avg_pool3d", [randn(2, 3, 2, 4)], output_size=[4, 3, 5])
    call("int", "adaptive_avg_pool3d", [x], output_size=3)
    call("none", "adaptive_avg_pool3d", [x], output_size=[2, None, 3])
    call("float32", "adaptive_avg_pool3d", [randn(1, 2, 4, 5, 3, dtype=torch.float32)], output_size=2)
    error("rank", "adaptive_avg_pool3d", [randn(3, 4, 4)], output_size=2)
    error("empty", "adaptive_avg_pool3d", [randn(1, 2, 0, 4, 4)], output_size=2)
    error("int64", "adaptive_avg_pool3d", [x.long()], output_size=2)
    call("down", "adaptive_max_pool3d", [x], output_size=[2, 3, 4], return_indices=True)
    call("up-unbatched", "adaptive_max_pool3d", [randn(2, 3, 2, 4)], output_size=[4, 3, 5], return_indices=True)
    call("none", "adaptive_max_pool3d", [x], output_size=[None, 2, 3])
    call("float32", "adaptive_max_pool3d", [randn(1, 2, 4, 5, 3, dtype=torch.float32)], output_size=2,
         return_indices=True)
    error("rank", "adaptive_max_pool3d", [randn(3, 4, 4)], output_size=2)
    error("empty", "adaptive_max_pool3d", [randn(1, 2, 0, 4, 4)], output_size=2)
    error("int64", "adaptive_max_pool3d", [x.long()], output_size=2)
    x2 = randn(2, 3, 7, 5)
    call("down", "adaptive_max_pool2d", [x2], output_size=[3, 2], return_indices=True)
    call("up-unbatched", "adaptive_max_pool2d", [randn(2, 3, 4)], output_size=[5, 6], return_indices=True)
    call("int", "adaptive_max_pool2d", [x2], output_size=4)
    call("none", "adaptive_max_pool2d", [x2], output_size=[None, 3], return_indices=True)
    nan = randn(1, 1, 4, 4)
    nan[0, 0, 1, 2] = float("nan")
    call("nan", "adaptive_max_pool2d", [nan], grad=(), output_size=2, return_indices=True)
    error("rank", "adaptive_max_pool2d", [randn(4)], output_size=2)
    error("empty", "adaptive_max_pool2d", [randn(1, 0, 3, 3)], output_size=2)
    error("int64", "adaptive_max_pool2d", [x2.long()], output_size=2)
    x1 = randn(2, 3, 9)
    call("down", "adaptive_max_pool1d", [x1], output_size=4, return_indices=True)
    call("up-unbatched", "adaptive_max_pool1d", [randn(3, 4)], output_size=7)
    error("rank", "adaptive_max_pool1d", [randn(5)], output_size=2)
    error("output-size", "adaptive_max_pool1d", [x1], output_size=[2, 2])


def lp_pool3d_cases():
    pos = randn(2, 2, 4, 5, 6).abs() + 0.1
    call("p2", "lp_pool3d", [pos], norm_type=2.0, kernel_size=2)
    call("p1.5-strided-ceil", "lp_pool3d", [pos], norm_type=1.5, kernel_size=[2, 1, 3], stride=[1, 2, 2],
         ceil_mode=True)
    call("inf", "lp_pool3d", [randn(1, 2, 4, 4, 4)], norm_type=float("inf"), kernel_size=2)
    base.CASES[-1]["kwargs"]["norm_type"] = "inf"  # JSON has no infinity: the golden encoding's string


def module_cases():
    module_call("options", "MaxPool3d", randn(2, 2, 5, 5, 5), return_indices=True, kernel_size=3, stride=2,
                padding=1, dilation=1, ceil_mode=True)
    module_call("options", "AvgPool3d", randn(2, 2, 5, 5, 5), kernel_size=[3, 2, 2], stride=1, padding=1,
                ceil_mode=False, count_include_pad=False, divisor_override=None)
    module_call("int", "AdaptiveMaxPool1d", randn(2, 3, 8), return_indices=True, output_size=3)
    module_call("none", "AdaptiveMaxPool2d", randn(2, 3, 5, 6), return_indices=True, output_size=[None, 4])
    module_call("triple", "AdaptiveMaxPool3d", randn(2, 5, 6, 4), output_size=[2, 3, 2])
    module_call("none", "AdaptiveAvgPool3d", randn(1, 2, 5, 6, 4), output_size=[3, None, 2])
    module_call("p2", "LPPool3d", randn(1, 2, 4, 4, 4).abs() + 0.1, norm_type=2.0, kernel_size=2)
    repr_case("MaxPool3d", kernel_size=2)
    repr_case("MaxPool3d", kernel_size=(3, 2, 2), stride=(2, 1, 1), padding=1, dilation=2, ceil_mode=True)
    repr_case("AvgPool3d", kernel_size=2)
    repr_case("AvgPool3d", kernel_size=(2, 1, 2), stride=1, padding=0, ceil_mode=True, count_include_pad=False,
              divisor_override=3)
    repr_case("AdaptiveMaxPool1d", output_size=3)
    repr_case("AdaptiveMaxPool2d", output_size=(None, 3))
    repr_case("AdaptiveMaxPool2d", output_size=4)
    repr_case("AdaptiveMaxPool3d", output_size=2)
    repr_case("AdaptiveMaxPool3d", output_size=(2, None, 3))
    repr_case("AdaptiveAvgPool3d", output_size=(2, None, 3))
    repr_case("AdaptiveAvgPool3d", output_size=5)
    repr_case("LPPool3d", norm_type=2.0, kernel_size=2)
    repr_case("LPPool3d", norm_type=1.5, kernel_size=(2, 1, 2), stride=(1, 1, 2), ceil_mode=True)


def gather_sparse_grad_cases():
    """torch.gather(..., sparse_grad=True): the gradient PyTorch returns is sparse COO; the fixture holds its to_dense(),
    which JTorch (no sparse layout) returns."""
    for id_, shape, dim, index in (("dim1-duplicates", (3, 4), 1, [[0, 1, 1], [2, 2, 2], [3, 0, 1]]),
                                   ("dim0", (3, 2), 0, [[2, 0], [2, 2], [0, 1], [1, 1]])):
        x = randn(*shape)
        idx = torch.tensor(index)
        leaf = x.clone().requires_grad_(True)
        out = torch.gather(leaf, dim, idx, sparse_grad=True)
        weights = randn(*out.shape)
        (grad,) = torch.autograd.grad((weights * out).sum(), [leaf])
        assert grad.layout == torch.sparse_coo
        base.CASES.append({"id": "gather/sparse-grad/" + id_, "op": "gather", "args": [enc(x), enc(idx), enc(weights)],
                           "kwargs": {"dim": dim, "sparse_grad": True, "grad": [0]},
                           "out": [enc(out), enc(grad.to_dense())]})


def main():
    max_pool3d_cases()
    avg_pool3d_cases()
    adaptive_cases()
    lp_pool3d_cases()
    module_cases()
    gather_sparse_grad_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "pool3d.json"), base.CASES, "make_golden_pool3d.py")


if __name__ == "__main__":
    main()

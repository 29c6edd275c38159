#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.convolution, transposed and not.

What it makes
    jtorch/src/test/resources/golden/convolution.json: values and first-order gradients (of sum(W * out), W fixed)
    of torch.convolution in 1-d and 2-d, with stride, padding, dilation, groups, bias and, transposed, output
    padding (also output padding that reaches a whole stride, allowed where it is below the dilation), in float64
    and float32; the output of a plain convolution given output padding (ignored; its backward refuses it); and
    the errors of bad transposed arguments. 3-d problems (5-d operands) through torch.convolution, plain and
    transposed; integer convolutions (plain: every integer dtype; transposed: int64 only, as ATen's
    slow_conv_transpose2d/3d); complex convolutions through F.conv1d/2d/3d and F.conv_transpose1d/2d/3d, which
    ATen computes with three real convolutions (its complex_convolution), with the gradients of
    sum(real(W * out)); torch.convolution itself refuses complex dtypes.

    case: {"id", "op": "convolution", "args": [input, weight, bias or null, W],
           "kwargs": {"stride", "padding", "dilation", "transposed", "output_padding", "groups"},
           "out": [result, input.grad, weight.grad, bias.grad (with a bias)]}
          {"id", "op", "args": [input, weight, bias or null], "kwargs": {...}, "out": [result]}
          {"id", "op", "args": [input, weight, bias or null], "kwargs": {...}, "out": {"error": message}}
          {"id", "op": "functional", "args": [input, weight, bias or null, W],
           "kwargs": {"fn": "conv2d" | "conv_transpose2d" | ..., "stride", "padding", "dilation", "groups",
                      "output_padding" (transposed)},
           "out": [result, input.grad, weight.grad, bias.grad (with a bias)]}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_convolution.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from a seeded generator.
"""
import os

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(0)


def randn(*shape, dtype=torch.float64):
    return torch.randn(*shape, generator=GEN, dtype=torch.float64).to(dtype)


def params(stride, padding, dilation, transposed, output_padding, groups):
    return {"stride": stride, "padding": padding, "dilation": dilation, "transposed": transposed,
            "output_padding": output_padding, "groups": groups}


def value_case(id_, x, w, b, grad=True, **kw):
    if not grad:  # the output only
        out = torch.convolution(x, w, b, kw["stride"], kw["padding"], kw["dilation"], kw["transposed"],
                                kw["output_padding"], kw["groups"])
        CASES.append({"id": id_, "op": "convolution", "args": [enc(x), enc(w), enc(b) if b is not None else None],
                      "kwargs": kw, "out": [enc(out)]})
        return
    x, w = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
    leaves = [x, w] + ([b.clone().requires_grad_(True)] if b is not None else [])
    out = torch.convolution(*leaves[:2], leaves[2] if b is not None else None, kw["stride"], kw["padding"],
                            kw["dilation"], kw["transposed"], kw["output_padding"], kw["groups"])
    weights = randn(*out.shape, dtype=out.dtype)
    grads = torch.autograd.grad((weights * out).sum(), leaves)
    CASES.append({"id": id_, "op": "convolution", "args": [enc(x), enc(w), enc(b) if b is not None else None,
                                                           enc(weights)],
                  "kwargs": kw, "out": [enc(out)] + [enc(gr) for gr in grads]})


def error_case(id_, x, w, b, **kw):
    try:
        torch.convolution(x, w, b, kw["stride"], kw["padding"], kw["dilation"], kw["transposed"],
                          kw["output_padding"], kw["groups"])
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": id_, "op": "convolution", "args": [enc(x), enc(w), enc(b) if b is not None else None],
                      "kwargs": kw, "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def main():
    value_case("transposed/2d", randn(2, 4, 5, 6), randn(4, 3, 3, 2), randn(3),
               **params([1, 1], [0, 0], [1, 1], True, [0, 0], 1))
    value_case("transposed/2d/strided-padded-output-padding", randn(2, 4, 4, 5), randn(4, 2, 3, 3), randn(2),
               **params([2, 3], [1, 0], [1, 1], True, [1, 2], 1))
    value_case("transposed/2d/dilated-groups", randn(1, 6, 4, 4), randn(6, 2, 2, 3), None,
               **params([2, 1], [1, 1], [2, 2], True, [1, 0], 3))
    value_case("transposed/2d/output-padding-over-stride", randn(2, 2, 3, 4), randn(2, 3, 2, 2), randn(3),
               **params([1, 1], [0, 0], [2, 3], True, [1, 2], 1))
    value_case("transposed/1d", randn(3, 4, 7), randn(4, 5, 3), randn(5), **params([2], [1], [1], True, [1], 1))
    value_case("transposed/1d/groups-dilation", randn(2, 4, 6), randn(4, 1, 3), None,
               **params([3], [2], [2], True, [1], 2))
    value_case("transposed/1d/output-padding-over-stride", randn(2, 2, 5), randn(2, 2, 2), randn(2),
               **params([1], [0], [3], True, [2], 1))
    value_case("transposed/2d/float32", randn(2, 3, 4, 4, dtype=torch.float32), randn(3, 2, 3, 3, dtype=torch.float32),
               randn(2, dtype=torch.float32), **params([2, 2], [1, 1], [1, 1], True, [1, 1], 1))
    value_case("transposed/2d/single-values", randn(2, 4, 5, 6), randn(4, 3, 3, 2), randn(3),
               **params([2], [1], [1], True, [1], 1))
    value_case("plain/2d", randn(2, 3, 6, 5), randn(4, 3, 3, 2), randn(4), **params([2, 1], [1, 0], [1, 2], False, [0], 1))
    value_case("plain/1d/groups", randn(2, 4, 9), randn(6, 2, 3), None, **params([2], [1], [2], False, [0], 2))
    # the forward ignores the output padding of a plain convolution, the backward refuses it
    value_case("plain/output-padding-ignored", randn(1, 2, 5, 5), randn(3, 2, 3, 3), None, grad=False,
               **params([1, 1], [0, 0], [1, 1], False, [3, 3], 1))
    x, w = randn(2, 4, 5, 6), randn(4, 3, 3, 3)
    error_case("transposed/output-padding-too-large", x, w, None, **params([1, 1], [0, 0], [1, 1], True, [1, 1], 1))
    error_case("transposed/1d/output-padding-too-large", randn(2, 4, 5), randn(4, 3, 3), None,
               **params([2], [0], [1], True, [2], 1))
    error_case("transposed/bad-bias", x, w, randn(5), **params([1, 1], [0, 0], [1, 1], True, [0, 0], 1))
    error_case("transposed/channels-mismatch", x, randn(3, 3, 3, 3), None, **params([1, 1], [0, 0], [1, 1], True, [0, 0], 1))
    error_case("transposed/output-too-small", x, w, None, **params([1, 1], [5, 5], [1, 1], True, [0, 0], 1))
    error_case("transposed/1d/output-too-small", randn(2, 4, 2), randn(4, 3, 3), None, **params([1], [3], [1], True, [0], 1))
    error_case("transposed/output-padding-length", x, w, None, **params([1, 1], [0, 0], [1, 1], True, [0, 0, 0], 1))
    error_case("transposed/negative-output-padding", x, w, None, **params([1, 1], [0, 0], [1, 1], True, [-1, 0], 1))
    error_case("transposed/int", x.int(), w.int(), None, **params([1, 1], [0, 0], [1, 1], True, [0], 1))
    error_case("plain/negative-output-padding", randn(1, 2, 5, 5), randn(3, 2, 3, 3), None,
               **params([1, 1], [0, 0], [1, 1], False, [-1], 1))
    integer_cases()  # after the cases above, so that they keep their random inputs
    volume_cases()
    complex_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "convolution.json"), CASES, "make_golden_convolution.py")


def integer_cases():
    """Plain convolutions of integer tensors (ATen's slow_conv2d computes them; no gradients): every integer dtype,
    1-d and 2-d, strides, padding, dilation, groups and bias, int8 sums that wrap, non-contiguous inputs."""
    def ints(*shape, lo=-4, hi=5, dtype=torch.int64):
        return torch.randint(lo, hi, shape, generator=GEN).to(dtype)
    for dt in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
        lo = 0 if dt == torch.uint8 else -4
        name = str(dt).replace("torch.", "")
        # ATen's dilated kernel (slow_conv_dilated) takes int64 only among the integers
        dilation = [1, 2] if dt == torch.int64 else [1, 1]
        value_case("plain/2d/" + name, ints(2, 3, 6, 5, lo=lo, dtype=dt), ints(4, 3, 3, 2, lo=lo, dtype=dt),
                   ints(4, lo=lo, dtype=dt), grad=False, **params([2, 1], [1, 0], dilation, False, [0], 1))
    value_case("plain/1d/int32-groups", ints(2, 4, 9, dtype=torch.int32), ints(6, 2, 3, dtype=torch.int32), None,
               grad=False, **params([2], [1], [1], False, [0], 2))
    error_case("plain/1d/int32-dilated", ints(2, 4, 9, dtype=torch.int32), ints(6, 2, 3, dtype=torch.int32), None,
               **params([2], [1], [2], False, [0], 2))
    value_case("plain/2d/int8-wraps", ints(1, 2, 4, 4, lo=60, hi=127, dtype=torch.int8),
               ints(3, 2, 3, 3, lo=60, hi=127, dtype=torch.int8), None, grad=False,
               **params([1, 1], [0, 0], [1, 1], False, [0], 1))
    value_case("plain/2d/int64-transposed-input", ints(2, 5, 6, 3).transpose(1, 3), ints(2, 3, 2, 2), ints(2),
               grad=False, **params([1, 1], [1, 1], [1, 1], False, [0], 1))
    error_case("plain/bool", ints(1, 2, 4, 4).bool(), ints(3, 2, 3, 3).bool(), None,
               **params([1, 1], [0, 0], [1, 1], False, [0], 1))


def volume_cases():
    """torch.convolution of 3-d problems: 5-d input and weight, plain and transposed, with gradients; integer ones
    (the transposed: int64 only) and the refusals of mismatched ranks, dtypes ATen has no 3-d kernel for."""
    value_case("plain/3d", randn(2, 4, 5, 4, 6), randn(6, 2, 3, 2, 3), randn(6),
               **params([2, 1, 2], [1, 0, 1], [1, 2, 1], False, [0], 2))
    value_case("plain/3d/single-values", randn(1, 2, 4, 5, 4), randn(3, 2, 2, 2, 2), None,
               **params([2], [1], [1], False, [0], 1))
    value_case("plain/3d/float32", randn(2, 3, 4, 4, 4, dtype=torch.float32), randn(2, 3, 2, 3, 2, dtype=torch.float32),
               randn(2, dtype=torch.float32), **params([1, 2, 1], [0, 1, 1], [2, 1, 1], False, [0], 1))
    value_case("transposed/3d", randn(2, 4, 3, 4, 3), randn(4, 3, 2, 3, 2), randn(6),
               **params([2, 1, 2], [1, 0, 0], [1, 2, 1], True, [1, 0, 1], 2))
    value_case("transposed/3d/output-padding-over-stride", randn(1, 2, 3, 2, 3), randn(2, 2, 2, 2, 2), randn(2),
               **params([1, 1, 1], [0, 0, 0], [3, 1, 2], True, [2, 0, 1], 1))
    value_case("transposed/3d/float32", randn(2, 3, 2, 3, 2, dtype=torch.float32),
               randn(3, 2, 2, 2, 2, dtype=torch.float32), None, **params([2], [0], [1], True, [1], 1))

    def ints(*shape, dtype=torch.int64):
        return torch.randint(-4, 5, shape, generator=GEN).to(dtype)
    value_case("transposed/2d/int64", ints(2, 4, 3, 4), ints(4, 3, 3, 2), ints(3), grad=False,
               **params([2, 1], [1, 0], [1, 2], True, [1, 0], 1))
    value_case("transposed/1d/int64-groups", ints(2, 4, 5), ints(4, 1, 3), None, grad=False,
               **params([3], [2], [2], True, [1], 2))
    value_case("transposed/3d/int64", ints(1, 4, 3, 2, 3), ints(4, 1, 2, 3, 2), ints(2), grad=False,
               **params([2, 1, 1], [1, 0, 1], [1, 2, 1], True, [1, 0, 0], 2))
    value_case("plain/3d/int16", ints(1, 2, 4, 3, 4, dtype=torch.int16), ints(3, 2, 2, 2, 3, dtype=torch.int16),
               ints(3, dtype=torch.int16), grad=False, **params([1, 1, 1], [1, 0, 0], [1, 1, 1], False, [0], 1))
    value_case("plain/3d/int64-dilated", ints(1, 2, 5, 4, 4), ints(2, 2, 2, 2, 2), None, grad=False,
               **params([1, 2, 1], [0, 0, 1], [2, 1, 2], False, [0], 1))
    error_case("transposed/3d/int32", ints(1, 2, 3, 3, 3, dtype=torch.int32), ints(2, 2, 2, 2, 2, dtype=torch.int32),
               None, **params([1], [0], [1], True, [0], 1))
    error_case("transposed/2d/int16", ints(1, 2, 3, 3, dtype=torch.int16), ints(2, 2, 2, 2, dtype=torch.int16),
               None, **params([1], [0], [1], True, [0], 1))
    error_case("3d/rank-mismatch", randn(2, 3, 4, 4), randn(2, 3, 2, 2, 2), None, **params([1], [0], [1], False, [0], 1))
    error_case("3d/channels-mismatch", randn(1, 3, 4, 4, 4), randn(2, 2, 2, 2, 2), None,
               **params([1], [0], [1], False, [0], 1))
    error_case("3d/kernel-too-large", randn(1, 1, 2, 4, 4), randn(1, 1, 3, 2, 2), None,
               **params([1], [0], [1], False, [0], 1))
    error_case("transposed/3d/output-padding-too-large", randn(1, 2, 3, 3, 3), randn(2, 2, 2, 2, 2), None,
               **params([1], [0], [1], True, [1], 1))
    c = torch.complex(randn(1, 2, 4, 4, 4), randn(1, 2, 4, 4, 4))
    error_case("3d/complex", c, c[:, :, :2, :2, :2].contiguous(), None, **params([1], [0], [1], False, [0], 1))
    error_case("transposed/2d/complex", c[:, :, 0], c[:, :, 0, :2, :2].contiguous(), None,
               **params([1], [0], [1], True, [0], 1))
    error_case("plain/1d/complex", c[:, :, 0, 0], c[:, :, 0, 0, :2].contiguous(), None,
               **params([1], [0], [1], False, [0], 1))


F = torch.nn.functional


def functional_case(id_, fn, x, w, b, **kw):
    """F.<fn>(x, w, b, **kw) with the gradients of sum(real(W * out))."""
    x, w = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
    leaves = [x, w] + ([b.clone().requires_grad_(True)] if b is not None else [])
    out = getattr(F, fn)(x, w, leaves[2] if b is not None else None, **kw)
    weights = torch.complex(randn(*out.shape), randn(*out.shape)).to(out.dtype)
    grads = torch.autograd.grad((weights * out).real.sum(), leaves)
    CASES.append({"id": id_, "op": "functional", "args": [enc(x), enc(w), enc(b) if b is not None else None,
                                                          enc(weights)],
                  "kwargs": dict(kw, fn=fn), "out": [enc(out)] + [enc(gr) for gr in grads]})


def complex_cases():
    """Complex convolutions through the functional forms (ATen's complex_convolution: three real convolutions),
    1-d, 2-d and 3-d, plain and transposed, complex128 and complex64, with gradients."""
    def crandn(*shape, dtype=torch.complex128):
        return torch.complex(randn(*shape), randn(*shape)).to(dtype)
    functional_case("complex/conv1d", "conv1d", crandn(2, 4, 7), crandn(6, 2, 3), crandn(6),
                    stride=2, padding=1, dilation=2, groups=2)
    functional_case("complex/conv2d", "conv2d", crandn(2, 3, 5, 6), crandn(4, 3, 3, 2), crandn(4),
                    stride=[2, 1], padding=[1, 0], dilation=[1, 2], groups=1)
    functional_case("complex/conv2d/complex64", "conv2d", crandn(2, 3, 5, 5, dtype=torch.complex64),
                    crandn(2, 3, 2, 2, dtype=torch.complex64), None, stride=1, padding=1, dilation=1, groups=1)
    functional_case("complex/conv2d/unbatched-same", "conv2d", crandn(2, 5, 6), crandn(3, 2, 2, 3), None,
                    stride=1, padding="same", dilation=1, groups=1)
    functional_case("complex/conv3d", "conv3d", crandn(1, 4, 4, 3, 4), crandn(2, 2, 2, 2, 3), crandn(2),
                    stride=[1, 2, 1], padding=[1, 0, 1], dilation=1, groups=2)
    functional_case("complex/conv_transpose1d", "conv_transpose1d", crandn(2, 4, 5), crandn(4, 3, 3), crandn(3),
                    stride=2, padding=1, output_padding=1, groups=1, dilation=1)
    functional_case("complex/conv_transpose2d", "conv_transpose2d", crandn(2, 4, 3, 4), crandn(4, 1, 3, 2),
                    crandn(2), stride=[2, 1], padding=[1, 0], output_padding=[1, 0], groups=2, dilation=[1, 2])
    functional_case("complex/conv_transpose2d/complex64", "conv_transpose2d",
                    crandn(1, 2, 3, 3, dtype=torch.complex64), crandn(2, 2, 2, 2, dtype=torch.complex64), None,
                    stride=2, padding=0, output_padding=0, groups=1, dilation=1)
    functional_case("complex/conv_transpose3d", "conv_transpose3d", crandn(1, 2, 3, 2, 3), crandn(2, 3, 2, 2, 2),
                    crandn(3), stride=[2, 1, 1], padding=[1, 0, 0], output_padding=[1, 0, 0], groups=1,
                    dilation=[1, 1, 2])


if __name__ == "__main__":
    main()

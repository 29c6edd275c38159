#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for torch.fft.

What it makes
    jtorch/src/test/resources/golden/fft.json: values and first-order gradients (of sum(Re(conj(W) * out)),
    W fixed) of every torch.fft transform, in float32/float64/complex64/complex128 and from integer inputs,
    over lengths that exercise each radix, the generic prime butterfly and Bluestein's algorithm, with n / s
    (cropping and zero-padding), dim and every norm, on contiguous and transposed inputs; fftfreq/rfftfreq;
    fftshift/ifftshift; and the errors of bad arguments.

    case: {"id", "op", "args": [input, W], "kwargs": {...}, "out": [result, input.grad]}
          {"id", "op", "args": [input], "kwargs": {...}, "out": [result]}         (no gradient: integer input, shifts)
          {"id", "op", "args": [n], "kwargs": {...}, "out": result}                (fftfreq, rfftfreq)
          {"id", "op", "args": [input], "kwargs": {...}, "out": {"error": message}}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_fft.py      (a Python with PyTorch 2.13 CPU)

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from seeded generators.
"""
import os

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(2025)


def randn(shape, dtype):
    if dtype.is_complex:
        real = torch.randn(shape, generator=GEN, dtype=torch.float64)
        imag = torch.randn(shape, generator=GEN, dtype=torch.float64)
        return torch.complex(real, imag).to(dtype)
    if dtype.is_floating_point:
        return torch.randn(shape, generator=GEN, dtype=torch.float64).to(dtype)
    return torch.randint(-5, 6, shape, generator=GEN, dtype=dtype)


def enc_input(x, transposed):
    """A record of x; transposed: x is stored as its transpose's contiguous data and read back transposed."""
    if not transposed:
        return enc(x)
    r = enc(x.transpose(-2, -1).contiguous())
    r["transpose"] = [x.dim() - 2, x.dim() - 1]
    return r


def value_case(id_, op, x, kwargs, transposed=False):
    fn = getattr(torch.fft, op)
    differentiable = x.dtype.is_floating_point or x.dtype.is_complex
    x = x.detach().clone().requires_grad_(differentiable)
    out = fn(x, **kwargs).resolve_conj()
    case = {"id": id_, "op": op, "kwargs": kwargs}
    if not differentiable:
        case.update(args=[enc_input(x, transposed)], out=[enc(out)])
    else:
        w = randn(out.shape, out.dtype)
        loss = (w.conj() * out).real.sum() if out.dtype.is_complex else (w * out).sum()
        (gx,) = torch.autograd.grad(loss, [x])
        gx = gx.resolve_conj()
        case.update(args=[enc_input(x, transposed), enc(w)], out=[enc(out), enc(gx)])
    CASES.append(case)


def error_case(id_, op, x, kwargs):
    try:
        getattr(torch.fft, op)(x, **kwargs)
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": id_, "op": op, "args": [enc(x)], "kwargs": kwargs, "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


LENGTHS = [1, 2, 5, 8, 12, 17, 30, 49, 97, 128]
REAL = [torch.float32, torch.float64]
COMPLEX = [torch.complex64, torch.complex128]


def short(dtype):
    return str(dtype).replace("torch.", "")


def one_dim():
    for n in LENGTHS:
        for dt in REAL + COMPLEX:
            for op in ("fft", "ifft"):
                value_case("%s/%s/len%d" % (op, short(dt), n), op, randn((2, n), dt), {})
        for dt in REAL:
            for op in ("rfft", "ihfft"):
                value_case("%s/%s/len%d" % (op, short(dt), n), op, randn((2, n), dt), {})
        for dt in COMPLEX:
            for op in ("irfft", "hfft"):
                # an output of n points reads n // 2 + 1 inputs
                value_case("%s/%s/len%d" % (op, short(dt), n), op, randn((2, n // 2 + 1), dt), {"n": n})
        # the default output length of irfft / hfft
        if n > 1:
            value_case("irfft/default-n/len%d" % n, "irfft", randn((2, n // 2 + 1), torch.complex128), {})
    for op in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        cplx = op in ("irfft", "hfft")
        for norm in ("backward", "forward", "ortho"):
            x = randn((2, 6), torch.complex128 if cplx else torch.float64)
            value_case("%s/norm-%s" % (op, norm), op, x, {"norm": norm})
        x = randn((4, 6), torch.complex128 if cplx else torch.float64)
        value_case("%s/pad-n" % op, op, x, {"n": 11, "dim": 0})
        value_case("%s/crop-n" % op, op, x, {"n": 3, "dim": -1})
        value_case("%s/transposed" % op, op, x, {"dim": 0}, transposed=True)
        value_case("%s/3-d-middle-dim" % op, op, randn((2, 5, 3), torch.complex64 if cplx else torch.float32),
                   {"dim": 1})
    for op in ("fft", "rfft", "ifft"):
        value_case("%s/int64-promotes" % op, op, randn((7,), torch.int64), {})
    value_case("fft/real-input-two-sided", "fft", randn((9,), torch.float64), {"norm": "ortho"})


def n_dims():
    for op in ("fft2", "ifft2", "fftn", "ifftn"):
        value_case(op + "/complex128", op, randn((2, 6, 5), torch.complex128), {})
        value_case(op + "/float32-promotes", op, randn((4, 6), torch.float32), {})
        value_case(op + "/s", op, randn((3, 4, 5), torch.complex64), {"s": [6, 3], "norm": "ortho"})
        value_case(op + "/dim", op, randn((3, 4, 5), torch.complex128), {"dim": [0, 2], "norm": "forward"})
        value_case(op + "/transposed", op, randn((5, 4), torch.complex128), {}, transposed=True)
    value_case("fftn/s-minus-one", "fftn", randn((3, 4, 5), torch.complex128), {"s": [-1, 7]})
    value_case("fftn/one-dim", "fftn", randn((3, 4), torch.complex128), {"dim": [0]})
    for op in ("rfft2", "rfftn"):
        value_case(op + "/float64", op, randn((2, 6, 5), torch.float64), {})
        value_case(op + "/float32", op, randn((4, 7), torch.float32), {"norm": "ortho"})
        value_case(op + "/s", op, randn((3, 4, 5), torch.float64), {"s": [6, 3]})
        value_case(op + "/dim", op, randn((3, 4, 5), torch.float64), {"dim": [2, 0], "norm": "forward"})
    for op in ("irfft2", "irfftn"):
        value_case(op + "/complex128", op, randn((2, 6, 4), torch.complex128), {})
        value_case(op + "/odd-s", op, randn((4, 4), torch.complex128), {"s": [4, 7]})
        value_case(op + "/complex64", op, randn((3, 5, 3), torch.complex64), {"norm": "ortho"})
        value_case(op + "/dim", op, randn((3, 4, 5), torch.complex128), {"dim": [2, 0], "norm": "forward"})
    value_case("irfftn/s-minus-one", "irfftn", randn((3, 4, 5), torch.complex128), {"s": [5, -1]})


def freqs_and_shifts():
    for op in ("fftfreq", "rfftfreq"):
        for n, d in ((1, 1.0), (8, 1.0), (9, 0.5), (10, 0.1)):
            out = getattr(torch.fft, op)(n, d)
            CASES.append({"id": "%s/n%d-d%s" % (op, n, d), "op": op, "args": [n], "kwargs": {"d": d}, "out": enc(out)})
        out = getattr(torch.fft, op)(7, 2.0, dtype=torch.float64)
        CASES.append({"id": op + "/float64", "op": op, "args": [7], "kwargs": {"d": 2.0, "dtype": "float64"},
                      "out": enc(out)})
    for op in ("fftshift", "ifftshift"):
        value_case(op + "/all", op, randn((4, 5), torch.float64), {})
        value_case(op + "/dim", op, randn((3, 4, 5), torch.complex128), {"dim": [0, -1]})
        value_case(op + "/int", op, randn((7,), torch.int64), {})


def errors():
    x = randn((4, 6), torch.float64)
    c = randn((4, 6), torch.complex128)
    error_case("rfft/complex-input", "rfft", c, {})
    error_case("ihfft/complex-input", "ihfft", c, {})
    error_case("rfftn/complex-input", "rfftn", c, {})
    error_case("fft/half", "fft", x.half(), {})
    error_case("rfft/bfloat16", "rfft", x.bfloat16(), {})
    error_case("fft/n-zero", "fft", x, {"n": 0})
    error_case("irfft/n-zero", "irfft", c, {"n": 0})
    error_case("irfft/size-one-default-n", "irfft", randn((4, 1), torch.complex128), {})
    error_case("fft/bad-norm", "fft", x, {"norm": "sideways"})
    error_case("fft/dim-out-of-range", "fft", x, {"dim": 2})
    error_case("fftn/repeated-dims", "fftn", c, {"dim": [0, -2]})
    error_case("fftn/s-and-dim-lengths", "fftn", c, {"s": [2, 3], "dim": [0]})
    error_case("fftn/s-too-long", "fftn", c, {"s": [2, 3, 4]})
    error_case("rfftn/no-dims", "rfftn", x, {"dim": []})
    error_case("fft/0-d", "fft", torch.tensor(1.0, dtype=torch.float64), {})


def main():
    one_dim()
    n_dims()
    freqs_and_shifts()
    errors()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "fft.json"), CASES, "make_golden_fft.py")


if __name__ == "__main__":
    main()

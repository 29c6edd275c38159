#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the convolution / upsampling family of nn: F.interpolate in every mode, nn.Upsample,
nn.ConvTranspose1d/2d (output_padding, groups, dilation, output_size) and F.pixel_shuffle / F.pixel_unshuffle.

What it makes
    jtorch/src/test/resources/golden/conv_family.json, one case per line:

    interpolate: {"id", "op": "interpolate", "args": [input, W],
                  "kwargs": {"size", "scale_factor", "mode", "align_corners", "recompute_scale_factor"},
                  "out": [result, input.grad]}       (gradients of sum(W * result); W fixed)
                 or "out": {"error": message}         (args: [input])
    module:      {"id", "op": "ConvTranspose1d" | "ConvTranspose2d", "args": [weight, bias or null, input, W],
                  "kwargs": {"in", "out", "kernel", "stride", "padding", "output_padding", "groups", "dilation",
                             "output_size" (or null), "repr"},
                  "out": [result, input.grad, weight.grad, bias.grad (with a bias)]}
    repr:        {"id", "op": "Upsample", "kwargs": {...constructor..., "repr"}}
    pixel:       {"id", "op": "pixel_shuffle" | "pixel_unshuffle", "args": [input, W], "kwargs": {"factor"},
                  "out": [result, input.grad]}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_conv_family.py
    with a Python that has PyTorch 2.13 (CPU) and NumPy.

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


def randn(*shape, dtype=torch.float64):
    return torch.randn(*shape, generator=GEN, dtype=torch.float64).to(dtype)


def interp(id_, x, **kw):
    kw = {"size": kw.get("size"), "scale_factor": kw.get("scale_factor"), "mode": kw.get("mode", "nearest"),
          "align_corners": kw.get("align_corners"), "recompute_scale_factor": kw.get("recompute_scale_factor")}
    xg = x.clone().requires_grad_(True)
    out = F.interpolate(xg, **kw)
    weights = randn(*out.shape, dtype=out.dtype)
    (g,) = torch.autograd.grad((weights * out).sum(), [xg])
    CASES.append({"id": "interpolate/" + id_, "op": "interpolate", "args": [enc(x), enc(weights)], "kwargs": kw,
                  "out": [enc(out), enc(g)]})


def interp_error(id_, x, **kw):
    kw = {"size": kw.get("size"), "scale_factor": kw.get("scale_factor"), "mode": kw.get("mode", "nearest"),
          "align_corners": kw.get("align_corners"), "recompute_scale_factor": kw.get("recompute_scale_factor")}
    try:
        F.interpolate(x, **kw)
    except Exception as e:  # the message is what JTorch must raise
        CASES.append({"id": "interpolate/" + id_, "op": "interpolate", "args": [enc(x)], "kwargs": kw,
                      "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def interpolate_cases():
    x1, x2, x3 = randn(2, 3, 5), randn(2, 2, 4, 5), randn(1, 2, 3, 4, 3)
    for mode in ("nearest", "nearest-exact"):
        interp(mode + "/1d/up", x1, size=11, mode=mode)
        interp(mode + "/1d/down", x1, size=3, mode=mode)
        interp(mode + "/2d/scale", x2, scale_factor=2, mode=mode)
        interp(mode + "/2d/fractional-scale", x2, scale_factor=(1.7, 0.6), mode=mode)
        interp(mode + "/2d/size", x2, size=(7, 3), mode=mode)
        interp(mode + "/3d/size", x3, size=(5, 3, 6), mode=mode)
        interp(mode + "/3d/scale", x3, scale_factor=(2.0, 1.5, 0.5), mode=mode)
    for align in (False, True):
        a = "/align" if align else ""
        interp("linear/up" + a, x1, size=9, mode="linear", align_corners=align)
        interp("linear/down" + a, x1, size=2, mode="linear", align_corners=align)
        interp("bilinear/up" + a, x2, size=(9, 7), mode="bilinear", align_corners=align)
        interp("bilinear/down" + a, x2, size=(3, 2), mode="bilinear", align_corners=align)
        interp("bilinear/scale" + a, x2, scale_factor=(2.3, 1.5), mode="bilinear", align_corners=align)
        interp("bicubic/up" + a, x2, size=(8, 9), mode="bicubic", align_corners=align)
        interp("bicubic/down" + a, x2, size=(3, 3), mode="bicubic", align_corners=align)
        interp("trilinear/up" + a, x3, size=(5, 6, 4), mode="trilinear", align_corners=align)
        interp("trilinear/down" + a, x3, size=(2, 2, 2), mode="trilinear", align_corners=align)
    interp("bilinear/size-one", x2, size=(1, 1), mode="bilinear", align_corners=True)
    interp("bilinear/scale-recomputed", x2, scale_factor=(2.3, 1.5), mode="bilinear", recompute_scale_factor=True)
    interp("bicubic/scale", x2, scale_factor=1.75, mode="bicubic")
    interp("nearest/scale-recomputed", x2, scale_factor=(1.7, 0.6), mode="nearest", recompute_scale_factor=True)
    interp("area/1d", x1, size=3, mode="area")
    interp("area/2d", x2, size=(3, 2), mode="area")
    interp("area/2d/scale", x2, scale_factor=0.5, mode="area")
    interp("bilinear/float32", randn(2, 3, 6, 5, dtype=torch.float32), scale_factor=2, mode="bilinear")
    interp("bicubic/float32", randn(1, 2, 5, 6, dtype=torch.float32), size=(9, 4), mode="bicubic",
           align_corners=True)
    interp("nearest/float32", randn(1, 2, 5, 6, dtype=torch.float32), scale_factor=(1.5, 2.5), mode="nearest")
    # 64 planes and more: enough for every thread count to run the kernels a plane at a time
    many2, many1 = randn(2, 32, 9, 7, dtype=torch.float32), randn(4, 16, 7, dtype=torch.float32)
    for align in (False, True):
        a = "/align" if align else ""
        interp("bilinear/many-planes/scale-2" + a, many2, scale_factor=2, mode="bilinear", align_corners=align)
        interp("bilinear/many-planes/scale-1.5" + a, many2, scale_factor=1.5, mode="bilinear", align_corners=align)
        interp("bilinear/many-planes/down" + a, randn(2, 40, 13, 10), size=(5, 7), mode="bilinear",
               align_corners=align)
        interp("linear/many-planes" + a, many1, size=15, mode="linear", align_corners=align)
        interp("bicubic/many-planes" + a, many2, size=(11, 4), mode="bicubic", align_corners=align)
        interp("trilinear/many-planes" + a, randn(2, 32, 3, 4, 5), scale_factor=(1.5, 2.0, 0.8), mode="trilinear",
               align_corners=align)
    interp("nearest/many-planes", many2, scale_factor=3, mode="nearest")
    interp("bilinear/many-planes/float64", randn(2, 33, 8, 11), scale_factor=(2.5, 3.0), mode="bilinear")
    interp_error("align-corners-nearest", x2, size=3, mode="nearest", align_corners=True)
    interp_error("size-and-scale", x2, size=3, scale_factor=2.0)
    interp_error("neither", x2)
    interp_error("size-length", x2, size=(3, 3, 3))
    interp_error("scale-length", x2, scale_factor=(2.0, 2.0, 2.0))
    interp_error("bilinear-3d-input", x1, size=4, mode="bilinear")
    interp_error("linear-4d-input", x2, size=4, mode="linear")
    interp_error("trilinear-4d-input", x2, size=4, mode="trilinear")
    interp_error("unknown-mode", x2, size=4, mode="cubic")
    interp_error("rank-2", randn(3, 4), size=4)
    interp_error("recompute-with-size", x2, size=4, recompute_scale_factor=True)
    interp_error("zero-output", x2, scale_factor=0.1, mode="bilinear")
    interp_error("integer", x2.long(), size=4, mode="bilinear")


def conv_transpose(id_, spatial, cin, cout, kernel, x, bias=True, output_size=None, **kw):
    cls = torch.nn.ConvTranspose1d if spatial == 1 else torch.nn.ConvTranspose2d
    torch.manual_seed(0)
    m = cls(cin, cout, kernel, bias=bias, **kw).to(x.dtype)
    with torch.no_grad():
        m.weight.copy_(randn(*m.weight.shape))
        if bias:
            m.bias.copy_(randn(*m.bias.shape))
    xg = x.clone().requires_grad_(True)
    out = m(xg, output_size=output_size) if output_size is not None else m(xg)
    weights = randn(*out.shape, dtype=x.dtype)
    leaves = [xg, m.weight] + ([m.bias] if bias else [])
    grads = torch.autograd.grad((weights * out).sum(), leaves)
    kwargs = {"in": cin, "out": cout, "kernel": kernel, "stride": kw.get("stride", 1), "padding": kw.get("padding", 0),
              "output_padding": kw.get("output_padding", 0), "groups": kw.get("groups", 1),
              "dilation": kw.get("dilation", 1), "output_size": output_size, "repr": repr(m)}
    CASES.append({"id": cls.__name__ + "/" + id_, "op": cls.__name__,
                  "args": [enc(m.weight), enc(m.bias) if bias else None, enc(x), enc(weights)], "kwargs": kwargs,
                  "out": [enc(out)] + [enc(g) for g in grads]})


def conv_transpose_cases():
    conv_transpose("defaults", 2, 3, 4, 3, randn(2, 3, 5, 4))
    conv_transpose("strided-output-padding", 2, 4, 2, [3, 2], randn(2, 4, 4, 3), stride=[2, 3], padding=[1, 0],
                   output_padding=[1, 2])
    conv_transpose("groups-dilation-no-bias", 2, 4, 6, 2, randn(1, 4, 3, 4), bias=False, groups=2, dilation=2,
                   stride=2, output_padding=1)
    conv_transpose("output-size", 2, 2, 3, 3, randn(2, 2, 4, 4), stride=2, padding=1, output_size=[8, 7])
    conv_transpose("unbatched", 2, 2, 2, 3, randn(2, 3, 3), stride=2)
    # column strides above one: the kernels' phase-by-phase unfolding and folding
    conv_transpose("stride-2-kernel-4-odd-sizes", 2, 6, 4, 4, randn(3, 6, 5, 7), stride=2, padding=1)
    conv_transpose("stride-3-dilation-output-padding", 2, 4, 6, [5, 3], randn(2, 4, 4, 5), stride=[2, 3],
                   padding=[2, 1], dilation=[2, 1], output_padding=[1, 2])
    conv_transpose("groups-stride-2-output-padding", 2, 6, 9, 3, randn(2, 6, 5, 4), stride=2, padding=1, groups=3,
                   output_padding=1)
    conv_transpose("stride-4-kernel-2", 2, 3, 2, 2, randn(2, 3, 3, 5), bias=False, stride=4, padding=[0, 1])
    conv_transpose("defaults", 1, 3, 2, 3, randn(2, 3, 6))
    conv_transpose("all-options", 1, 4, 4, 3, randn(2, 4, 5), stride=3, padding=2, output_padding=1, groups=2,
                   dilation=2)
    conv_transpose("output-size", 1, 2, 3, 4, randn(1, 2, 5), stride=3, output_size=[17])


def pixel_cases():
    for name, fn, x, factor in (("pixel_shuffle", F.pixel_shuffle, randn(2, 8, 3, 2), 2),
                                ("pixel_shuffle", F.pixel_shuffle, randn(9, 2, 3), 3),
                                ("pixel_unshuffle", F.pixel_unshuffle, randn(2, 2, 4, 6), 2),
                                ("pixel_unshuffle", F.pixel_unshuffle, randn(3, 1, 6, 3), 3)):
        xg = x.clone().requires_grad_(True)
        out = fn(xg, factor)
        weights = randn(*out.shape, dtype=x.dtype)
        (g,) = torch.autograd.grad((weights * out).sum(), [xg])
        CASES.append({"id": name + "/" + "x".join(map(str, x.shape)), "op": name, "args": [enc(x), enc(weights)],
                      "kwargs": {"factor": factor}, "out": [enc(out), enc(g)]})


def repr_cases():
    for kw in ({"scale_factor": 2.0, "mode": "nearest"}, {"size": (4, 5), "mode": "bilinear", "align_corners": True},
               {"size": 7, "mode": "nearest-exact"}, {"scale_factor": (2.0, 1.5), "mode": "bicubic"}):
        CASES.append({"id": "Upsample/repr/" + repr(sorted(kw.items())), "op": "Upsample",
                      "kwargs": {"size": kw.get("size"), "scale_factor": kw.get("scale_factor"), "mode": kw["mode"],
                                 "align_corners": kw.get("align_corners"), "repr": repr(torch.nn.Upsample(**kw))}})
    for factor, cls in ((2, torch.nn.PixelShuffle), (3, torch.nn.PixelUnshuffle)):
        CASES.append({"id": cls.__name__ + "/repr", "op": cls.__name__,
                      "kwargs": {"factor": factor, "repr": repr(cls(factor))}})


def phase_cases():
    """Strided transposed convolutions with four channels a group and more, which run one GEMM per output phase
    (sub-pixel decomposition), and integer-scale linear rows, which run by phase: every phase count, padding and
    output padding, groups, dilation, phases without taps, odd sizes. Appended last so the cases above keep their
    inputs."""
    conv_transpose("phases/stride-2-kernel-4-odd-sizes", 2, 8, 6, 4, randn(2, 8, 5, 7), stride=2, padding=1)
    conv_transpose("phases/stride-3-output-padding", 2, 5, 4, [5, 4], randn(2, 5, 4, 3), stride=3, padding=[1, 2],
                   output_padding=[2, 1])
    conv_transpose("phases/groups-2-output-padding", 2, 8, 8, 3, randn(3, 8, 4, 5), stride=2, padding=1, groups=2,
                   output_padding=1)
    conv_transpose("phases/dilation-2-untapped-phase", 2, 4, 4, 3, randn(2, 4, 5, 4), bias=False, stride=2,
                   padding=2, dilation=2)
    conv_transpose("phases/dilation-3-stride-2", 2, 4, 5, 3, randn(2, 4, 4, 5), stride=2, padding=1, dilation=3,
                   output_padding=1)
    conv_transpose("phases/strides-2-1", 2, 4, 4, 3, randn(2, 4, 3, 6), stride=[2, 1], padding=[0, 1])
    conv_transpose("phases/kernel-below-stride", 2, 4, 5, 2, randn(1, 4, 3, 4), stride=3)
    conv_transpose("phases/padding-past-kernel", 2, 4, 4, 3, randn(2, 4, 6, 5), stride=2, padding=3)
    conv_transpose("phases/output-size", 2, 4, 4, 4, randn(2, 4, 5, 5), stride=2, padding=1, output_size=[11, 10])
    conv_transpose("phases/stride-2", 1, 6, 4, 4, randn(2, 6, 7), stride=2, padding=1)
    conv_transpose("phases/stride-3-groups", 1, 8, 8, 5, randn(2, 8, 6), stride=3, padding=2, groups=2,
                   output_padding=1)
    f32 = torch.float32
    for align in (False, True):
        a = "/align" if align else ""
        interp("bilinear/phases/scale-2" + a, randn(2, 3, 6, 45, dtype=f32), scale_factor=2, mode="bilinear",
               align_corners=align)
        interp("bilinear/phases/scale-3" + a, randn(2, 3, 5, 17, dtype=f32), scale_factor=3, mode="bilinear",
               align_corners=align)
        interp("bilinear/phases/size-x2" + a, randn(1, 2, 6, 20, dtype=f32), size=(12, 40), mode="bilinear",
               align_corners=align)
        interp("bilinear/phases/many-planes/scale-2" + a, randn(2, 32, 9, 21, dtype=f32), scale_factor=2,
               mode="bilinear", align_corners=align)
        interp("bilinear/phases/many-planes/scale-3" + a, randn(2, 32, 4, 13, dtype=f32), scale_factor=3,
               mode="bilinear", align_corners=align)
        interp("linear/phases/scale-2" + a, randn(4, 16, 19, dtype=f32), scale_factor=2, mode="linear",
               align_corners=align)
        interp("trilinear/phases/scale-2" + a, randn(1, 2, 3, 4, 10, dtype=f32), scale_factor=2, mode="trilinear",
               align_corners=align)
    interp("bilinear/phases/scale-2/float64", randn(2, 3, 6, 20), scale_factor=2, mode="bilinear")
    interp("bilinear/phases/scale-4", randn(1, 3, 4, 9, dtype=f32), scale_factor=4, mode="bilinear")
    # float32, every phase the same taps and a batch of a sample per processor or more: the stacked phases, their
    # vector row splits and merges (odd output width: one more even column) and the fused bias gradient; last, so
    # that the cases above keep their inputs
    conv_transpose("phases/stacked-float32", 2, 16, 8, 4, randn(4, 16, 6, 20, dtype=torch.float32), stride=2,
                   padding=1, output_padding=1)


def main():
    interpolate_cases()
    conv_transpose_cases()
    pixel_cases()
    repr_cases()
    phase_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "conv_family.json"), CASES, "make_golden_conv_family.py")


if __name__ == "__main__":
    main()

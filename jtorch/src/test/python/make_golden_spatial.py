#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the 3-d convolutions, 1-d pooling, LP pooling, max unpooling and fold/unfold of nn:
F.conv3d / F.conv_transpose3d (stride, padding, dilation, groups, output_padding, padding="same"), nn.Conv3d with
every padding mode, F.max_pool1d (with and without indices), F.avg_pool1d, F.adaptive_avg_pool1d, F.lp_pool1d/2d,
F.max_unpool1d/2d/3d, F.unfold / F.fold, F.max_pool2d on integer input, their errors and the modules' reprs.

What it makes
    jtorch/src/test/resources/golden/spatial.json, one case per line:

    call:  {"id", "op": <F function name or module class>, "args": [tensor inputs..., W],
            "kwargs": {the call's other arguments, "grad": [indices of the inputs differentiated]},
            "out": [result..., gradient of sum(W * result) for each input in "grad"]}
           (a function with two results, values and indices, lists both; W weighs the first)
    error: {"id", "op", "args": [tensor inputs...], "kwargs", "out": {"error": message}}
    repr:  {"id", "op": <module class>, "kwargs": {...constructor..., "repr"}}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_spatial.py
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


def module(name, kw):
    if name in ("Conv3d", "ConvTranspose3d"):
        args = (kw["in"], kw["out"], kw["kernel"])
        rest = {k: v for k, v in kw.items() if k not in ("in", "out", "kernel")}
        return getattr(torch.nn, name)(*args, **rest)
    return getattr(torch.nn, name)(**kw)


def run(name, tensors, kw):
    """Calls F.<name> (or a module when kw holds "module") on tensors with the case's keyword arguments."""
    kw = dict(kw)
    kw.pop("grad", None)
    if name in ("Conv3d", "ConvTranspose3d"):
        m = module(name, kw["module"]).double()
        params = {"weight": tensors[1]}
        if m.bias is not None:
            params["bias"] = tensors[2]
        return torch.func.functional_call(m, params, (tensors[0],))
    return getattr(F, name)(*tensors, **kw)


def call(id_, name, tensors, grad=(0,), **kw):
    leaves = [t.clone().requires_grad_(i in grad) for i, t in enumerate(tensors)]
    out = run(name, leaves, kw)
    outs = list(out) if isinstance(out, tuple) else [out]
    weights = randn(*outs[0].shape) if outs[0].is_floating_point() else None
    grads = []
    if grad:
        grads = torch.autograd.grad((weights * outs[0]).sum(), [leaves[i] for i in grad])
    kw["grad"] = list(grad)
    args = [enc(t) for t in tensors] + ([enc(weights)] if grad else [])
    CASES.append({"id": name + "/" + id_, "op": name, "args": args, "kwargs": kw,
                  "out": [enc(o) for o in outs] + [enc(g) for g in grads]})


def error(id_, name, tensors, **kw):
    try:
        run(name, tensors, kw)
    except Exception as e:  # the message is what JTorch must raise
        kw["grad"] = []
        CASES.append({"id": name + "/error/" + id_, "op": name, "args": [enc(t) for t in tensors], "kwargs": kw,
                      "out": {"error": str(e).splitlines()[0]}})
        return
    raise AssertionError(id_ + " did not raise")


def repr_case(name, **kw):
    CASES.append({"id": name + "/repr/" + repr(sorted(kw.items())), "op": name + "Repr",
                  "kwargs": dict(kw, repr=repr(module(name, kw)))})


def conv3d_cases():
    x, w, b = randn(2, 4, 5, 6, 5), randn(6, 4, 3, 2, 3), randn(6)
    call("defaults", "conv3d", [x, w, b], grad=(0, 1, 2))
    call("strided-padded", "conv3d", [x, w, b], grad=(0, 1, 2), stride=[2, 1, 2], padding=[1, 0, 2])
    call("groups-dilation", "conv3d", [x, randn(4, 2, 2, 2, 2)], grad=(0, 1), groups=2, dilation=[2, 1, 2],
         padding=1)
    call("same", "conv3d", [x, randn(3, 4, 2, 3, 2), randn(3)], grad=(0, 1, 2), padding="same", dilation=[1, 2, 1])
    call("valid", "conv3d", [x, w], grad=(0, 1), padding="valid")
    call("unbatched", "conv3d", [randn(2, 3, 4, 3), randn(3, 2, 2, 2, 2)], grad=(0, 1), stride=2)
    call("float32", "conv3d", [randn(1, 2, 4, 4, 4, dtype=torch.float32), randn(2, 2, 3, 3, 3, dtype=torch.float32)],
         grad=(0, 1), padding=1)
    call("empty-batch", "conv3d", [randn(0, 4, 5, 6, 5), w, b], grad=())
    error("stride-zero", "conv3d", [x, w], stride=0)
    error("kernel-too-large", "conv3d", [randn(1, 4, 1, 6, 6), w])
    error("channels", "conv3d", [randn(1, 3, 5, 5, 5), w])
    error("rank", "conv3d", [randn(4, 5, 5), w])
    error("bias", "conv3d", [x, w, randn(3)])
    error("groups", "conv3d", [x, w], groups=4)
    error("dtype", "conv3d", [x, w.float()])
    error("strided-same", "conv3d", [x, w], padding="same", stride=2)
    xt, wt = randn(2, 4, 3, 4, 3), randn(4, 3, 3, 2, 2)
    call("defaults", "conv_transpose3d", [xt, wt, randn(3)], grad=(0, 1, 2))
    call("strided-output-padding", "conv_transpose3d", [xt, wt, randn(3)], grad=(0, 1, 2), stride=[2, 3, 2],
         padding=[1, 0, 1], output_padding=[1, 2, 0])
    call("groups-dilation", "conv_transpose3d", [xt, randn(4, 2, 2, 3, 2)], grad=(0, 1), groups=2,
         dilation=[2, 1, 3], stride=2, output_padding=1)
    call("unbatched", "conv_transpose3d", [randn(2, 3, 2, 3), randn(2, 2, 2, 2, 2)], grad=(0, 1), stride=2)
    error("output-padding", "conv_transpose3d", [xt, wt], output_padding=1)
    error("too-small", "conv_transpose3d", [randn(1, 4, 1, 1, 1), wt], padding=2)
    error("channels", "conv_transpose3d", [randn(1, 3, 3, 3, 3), wt])
    error("bias", "conv_transpose3d", [xt, wt, randn(4)])
    for mode in ("zeros", "reflect", "replicate", "circular"):
        kw = {"in": 2, "out": 3, "kernel": [3, 2, 3], "padding": [1, 1, 2], "padding_mode": mode, "bias": True}
        m = module("Conv3d", kw)
        call("padding-" + mode, "Conv3d", [randn(2, 2, 4, 5, 5), randn(*m.weight.shape), randn(3)], grad=(0, 1, 2),
             module=kw)
    kw = {"in": 4, "out": 2, "kernel": 3, "stride": 2, "padding": 1, "output_padding": 1, "groups": 2,
          "bias": False, "dilation": 1}
    call("module", "ConvTranspose3d", [randn(1, 4, 2, 3, 2), randn(4, 1, 3, 3, 3)], grad=(0, 1), module=kw)
    repr_case("Conv3d", **{"in": 4, "out": 6, "kernel": 3})
    repr_case("Conv3d", **{"in": 4, "out": 6, "kernel": [3, 1, 2], "stride": [2, 1, 1], "padding": [1, 0, 1],
                           "dilation": 2, "groups": 2, "bias": False, "padding_mode": "reflect"})
    repr_case("ConvTranspose3d", **{"in": 4, "out": 2, "kernel": 3, "stride": 2, "output_padding": 1})


def pool1d_cases():
    x = randn(2, 3, 9)
    call("defaults", "max_pool1d", [x], kernel_size=2)
    call("all-options", "max_pool1d", [x], kernel_size=3, stride=2, padding=1, dilation=2, ceil_mode=True)
    call("unbatched", "max_pool1d", [randn(3, 7)], kernel_size=3, stride=1)
    call("indices", "max_pool1d", [x], kernel_size=3, stride=2, padding=1, ceil_mode=True, return_indices=True)
    error("kernel-zero", "max_pool1d", [x], kernel_size=0)
    error("padding", "max_pool1d", [x], kernel_size=3, padding=2)
    error("output-size", "max_pool1d", [randn(1, 1, 2)], kernel_size=3)
    error("kernel-size", "max_pool1d", [x], kernel_size=(2, 2))
    error("rank", "max_pool1d", [randn(5)], kernel_size=2)
    error("integer", "max_pool1d", [x.long()], kernel_size=2)
    call("defaults", "avg_pool1d", [x], kernel_size=3)
    call("exclude-pad-ceil", "avg_pool1d", [x], kernel_size=3, stride=2, padding=1, ceil_mode=True,
         count_include_pad=False)
    call("include-pad", "avg_pool1d", [randn(4, 8)], kernel_size=4, stride=3, padding=2)
    error("kernel-size", "avg_pool1d", [x], kernel_size=(2, 2))
    error("padding", "avg_pool1d", [x], kernel_size=2, padding=2)
    call("down", "adaptive_avg_pool1d", [x], output_size=4)
    call("up", "adaptive_avg_pool1d", [randn(3, 4)], output_size=7)
    error("output-size", "adaptive_avg_pool1d", [x], output_size=(2, 2))
    error("rank", "adaptive_avg_pool1d", [randn(5)], output_size=2)
    pos = randn(2, 3, 9).abs() + 0.1
    call("p2", "lp_pool1d", [pos], norm_type=2.0, kernel_size=3)
    call("p3-strided-ceil", "lp_pool1d", [pos], norm_type=3.0, kernel_size=2, stride=3, ceil_mode=True)
    call("signed-p1", "lp_pool1d", [x], norm_type=1.0, kernel_size=2)
    call("p2", "lp_pool2d", [randn(2, 2, 5, 6).abs() + 0.1], norm_type=2.0, kernel_size=2)
    call("p1.5-rect", "lp_pool2d", [randn(1, 2, 6, 7).abs() + 0.1], norm_type=1.5, kernel_size=[3, 2],
         stride=[2, 1])
    ints = (randn(2, 3, 5, 6) * 100).long()
    call("int64", "max_pool2d", [ints], grad=(), kernel_size=2, stride=1, padding=1, return_indices=True)
    call("int64-ceil-dilation", "max_pool2d", [ints], grad=(), kernel_size=2, stride=2, dilation=2, ceil_mode=True)
    call("int64-extremes", "max_pool2d",
         [torch.tensor([[[-2**63, -2**63 + 1], [2**62 + 1, 2**62]]], dtype=torch.long)], grad=(), kernel_size=2,
         return_indices=True)
    call("int32", "max_pool2d", [ints.int()], grad=(), kernel_size=3, stride=2, padding=1)
    error("bool", "max_pool2d", [ints > 0], kernel_size=2)
    for name, kw in (("MaxPool1d", {"kernel_size": 3}), ("MaxPool1d", {"kernel_size": 3, "stride": 1, "padding": 1,
                                                                      "dilation": 2, "ceil_mode": True}),
                     ("AvgPool1d", {"kernel_size": 3}), ("AvgPool1d", {"kernel_size": 2, "stride": 1, "padding": 1}),
                     ("AdaptiveAvgPool1d", {"output_size": 5}),
                     ("LPPool1d", {"norm_type": 2.0, "kernel_size": 3}),
                     ("LPPool1d", {"norm_type": 1.5, "kernel_size": 3, "stride": 2, "ceil_mode": True}),
                     ("LPPool2d", {"norm_type": 2.0, "kernel_size": 3}),
                     ("LPPool2d", {"norm_type": 3.0, "kernel_size": (2, 3), "stride": (1, 2)})):
        repr_case(name, **kw)


def unpool_cases():
    x1 = randn(2, 3, 8)
    v1, i1 = F.max_pool1d(x1, 2, return_indices=True)
    call("defaults", "max_unpool1d", [v1, i1], kernel_size=2)
    call("output-size", "max_unpool1d", [v1, i1], kernel_size=2, output_size=[9])
    v1b, i1b = F.max_pool1d(x1, 3, stride=2, padding=1, return_indices=True)
    call("stride-padding", "max_unpool1d", [v1b, i1b], kernel_size=3, stride=2, padding=1, output_size=[8])
    x2 = randn(2, 2, 5, 6)
    v2, i2 = F.max_pool2d(x2, 2, return_indices=True)
    call("defaults", "max_unpool2d", [v2, i2], kernel_size=2)
    call("output-size-4", "max_unpool2d", [v2, i2], kernel_size=2, output_size=[2, 2, 5, 6])
    v2b, i2b = F.max_pool2d(x2[0], (3, 2), stride=(2, 1), padding=1, return_indices=True)
    call("unbatched-stride-padding", "max_unpool2d", [v2b, i2b], kernel_size=[3, 2], stride=[2, 1], padding=1)
    x3 = randn(1, 2, 4, 4, 4)
    v3, i3 = F.max_pool3d(x3, 2, return_indices=True)
    call("defaults", "max_unpool3d", [v3, i3], kernel_size=2)
    call("output-size", "max_unpool3d", [v3, i3], kernel_size=2, output_size=[5, 5, 4])
    error("invalid-index", "max_unpool2d", [randn(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 30]]]])], kernel_size=2)
    error("output-size", "max_unpool2d", [randn(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 3]]]])], kernel_size=2,
          output_size=[7, 7])
    error("index-dtype", "max_unpool2d", [randn(1, 1, 2, 2), torch.tensor([[[[0, 1], [2, 3]]]]).int()],
          kernel_size=2)
    error("index-shape", "max_unpool2d", [randn(1, 1, 2, 2), torch.tensor([[[[0, 1, 2], [2, 3, 3]]]])],
          kernel_size=2)
    error("rank", "max_unpool2d", [randn(2, 2), torch.tensor([[0, 1], [2, 3]])], kernel_size=2)
    error("invalid-index", "max_unpool1d", [randn(1, 1, 2), torch.tensor([[[0, 9]]])], kernel_size=2)
    error("invalid-index", "max_unpool3d", [randn(1, 1, 1, 2, 2), torch.tensor([[[[[0, 1], [2, 99]]]]])],
          kernel_size=2)
    for name, kw in (("MaxUnpool1d", {"kernel_size": 2}), ("MaxUnpool2d", {"kernel_size": 3, "stride": 2}),
                     ("MaxUnpool3d", {"kernel_size": 2, "stride": [1, 2, 2], "padding": 1})):
        repr_case(name, **kw)


def fold_cases():
    x = randn(2, 3, 5, 6)
    call("defaults", "unfold", [x], kernel_size=2)
    call("all-options", "unfold", [x], kernel_size=[3, 2], dilation=[1, 2], padding=[1, 2], stride=[2, 1])
    call("unbatched", "unfold", [randn(2, 4, 4)], kernel_size=3, padding=1, stride=2)
    error("kernel-zero", "unfold", [x], kernel_size=0)
    error("stride-zero", "unfold", [x], kernel_size=2, stride=0)
    error("dilation-zero", "unfold", [x], kernel_size=2, dilation=0)
    error("padding", "unfold", [x], kernel_size=2, padding=-1)
    error("too-large", "unfold", [x], kernel_size=7)
    error("integer", "unfold", [x.long()], kernel_size=2)
    call("defaults", "fold", [randn(2, 12, 20)], output_size=[5, 6], kernel_size=2)
    call("all-options", "fold", [randn(2, 18, 12)], output_size=[5, 6], kernel_size=[3, 2], dilation=[1, 2],
         padding=[1, 2], stride=[2, 2])
    call("unbatched", "fold", [randn(8, 9)], output_size=4, kernel_size=2, padding=1, stride=2)
    error("not-divisible", "fold", [randn(2, 11, 20)], output_size=[5, 6], kernel_size=2)
    error("blocks", "fold", [randn(2, 12, 16)], output_size=[5, 6], kernel_size=2)
    error("rank", "fold", [randn(12, 16, 2, 2)], output_size=[5, 5], kernel_size=2)
    error("integer", "fold", [randn(2, 12, 20).long()], output_size=[5, 6], kernel_size=2)
    repr_case("Unfold", kernel_size=(2, 3), dilation=1, padding=1, stride=2)
    repr_case("Fold", output_size=(4, 5), kernel_size=2)


def grid_cases():
    x2, x3 = randn(2, 3, 4, 5), randn(1, 2, 3, 4, 3)
    g2 = torch.rand(2, 3, 4, 2, generator=GEN, dtype=torch.float64) * 2.6 - 1.3
    g3 = torch.rand(1, 2, 3, 2, 3, generator=GEN, dtype=torch.float64) * 2.6 - 1.3
    for mode in ("bilinear", "nearest", "bicubic"):
        for padding in ("zeros", "border", "reflection"):
            for align in (False, True):
                id_ = mode + "/" + padding + ("/align" if align else "")
                call(id_, "grid_sample", [x2, g2], grad=(0, 1), mode=mode, padding_mode=padding, align_corners=align)
                if mode != "bicubic":
                    call("3d/" + id_, "grid_sample", [x3, g3], grad=(0, 1), mode=mode, padding_mode=padding,
                         align_corners=align)
    identity = F.affine_grid(torch.eye(2, 3, dtype=torch.float64).expand(2, 2, 3), (2, 3, 4, 5), align_corners=True)
    call("bilinear/border/identity-grid", "grid_sample", [x2, identity], grad=(0, 1), mode="bilinear",
         padding_mode="border", align_corners=True)
    call("float32", "grid_sample", [x2.float(), g2.float()], grad=(0, 1), mode="bilinear", padding_mode="zeros",
         align_corners=False)
    error("mode", "grid_sample", [x2, g2], mode="cubic", align_corners=False)
    error("padding", "grid_sample", [x2, g2], padding_mode="wrap", align_corners=False)
    error("batch", "grid_sample", [x2, g2[:1]], align_corners=False)
    error("last-dim", "grid_sample", [x2, torch.rand(2, 3, 4, 3, dtype=torch.float64)], align_corners=False)
    error("rank", "grid_sample", [x2, torch.rand(2, 3, 4, 1, 2, dtype=torch.float64)], align_corners=False)
    error("dtype", "grid_sample", [x2, g2.float()], align_corners=False)
    error("integer", "grid_sample", [x2.long(), g2.long()], align_corners=False)
    error("empty", "grid_sample", [randn(2, 3, 0, 5), g2], align_corners=False)
    error("bicubic-3d", "grid_sample", [x3, g3], mode="bicubic", align_corners=False)
    theta2, theta3 = randn(2, 2, 3), randn(2, 3, 4)
    for align in (False, True):
        a = "/align" if align else ""
        call("2d" + a, "affine_grid", [theta2], size=[2, 3, 4, 5], align_corners=align)
        call("3d" + a, "affine_grid", [theta3], size=[2, 1, 3, 2, 4], align_corners=align)
        call("single-step" + a, "affine_grid", [theta2], size=[2, 1, 1, 3], align_corners=align)
    error("3d-theta-for-2d", "affine_grid", [theta3], size=[2, 3, 4, 5], align_corners=False)
    error("2d-theta-for-3d", "affine_grid", [theta2], size=[2, 3, 4, 5, 6], align_corners=False)
    error("rank", "affine_grid", [theta2], size=[2, 3, 4], align_corners=False)
    error("zero-size", "affine_grid", [theta2], size=[2, 3, 0, 5], align_corners=False)
    error("integer", "affine_grid", [theta2.long()], size=[2, 3, 4, 5], align_corners=False)
    error("batch", "affine_grid", [theta2], size=[3, 3, 4, 5], align_corners=False)


def infinite_norm_cases():
    # PyTorch's lp_pool1d/2d special-case an infinite norm as a max pool of |x|; the norm is recorded as "inf"/"-inf"
    for sign, norm in (("inf", float("inf")), ("-inf", -float("inf"))):
        call(sign, "lp_pool1d", [randn(2, 3, 9)], norm_type=norm, kernel_size=3, stride=2)
        CASES[-1]["kwargs"]["norm_type"] = sign
        call(sign, "lp_pool2d", [randn(1, 2, 5, 6)], norm_type=norm, kernel_size=2, ceil_mode=True)
        CASES[-1]["kwargs"]["norm_type"] = sign


def integer_conv3d_cases():
    # ATen's slow_conv3d computes integers (dilated: int64 only); its transposed kernel takes floating dtypes here
    def ints(*shape, dtype):
        return (randn(*shape) * 3).round().to(dtype)
    for dt in (torch.uint8, torch.int32):
        x, w = ints(2, 3, 4, 5, 4, dtype=dt).abs(), ints(4, 3, 2, 3, 2, dtype=dt).abs()
        call("int/" + str(dt).replace("torch.", ""), "conv3d", [x, w, ints(4, dtype=dt).abs()], grad=(), stride=[1, 2, 1],
             padding=1)
    x64 = ints(1, 4, 5, 5, 5, dtype=torch.int64)
    call("int64-groups-dilation", "conv3d", [x64, ints(4, 2, 2, 2, 2, dtype=torch.int64)], grad=(), groups=2,
         dilation=[2, 1, 2])
    error("int32-dilation", "conv3d", [x64.int(), ints(4, 4, 2, 2, 2, dtype=torch.int32)], dilation=2)
    error("int32-transposed", "conv_transpose3d", [x64.int(), ints(4, 2, 2, 2, 2, dtype=torch.int32)])


def main():
    conv3d_cases()
    pool1d_cases()
    unpool_cases()
    fold_cases()
    grid_cases()
    infinite_norm_cases()  # last: the cases above keep their random inputs
    integer_conv3d_cases()
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "spatial.json"), CASES, "make_golden_spatial.py")


if __name__ == "__main__":
    main()

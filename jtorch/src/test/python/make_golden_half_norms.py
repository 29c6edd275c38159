#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for layer_norm, group_norm and rms_norm on float16 and bfloat16 inputs, with parameters
of the input's dtype, float32 parameters (the mixture PyTorch's CPU kernels accept), or none.

What it makes
    jtorch/src/test/resources/golden/half_norms.json, cases
    {"id", "op": "native_layer_norm" | "group_norm" | "rms_norm", "args": [x, weight?, bias?, W],
     "kwargs": {"normalized_shape" | "num_groups", "eps"?},
     "out": [outputs..., x.grad, weight.grad?, bias.grad?] or {"error": message}}
    where the gradients are of sum(W * out) (W fixed, float64 then rounded to the output's dtype). native_layer_norm
    records its three outputs (the statistics are float32 for float32 parameters); the others their one output.
    PyTorch computes all three in float32 and rounds the output once, and rms_norm's default eps is float32's epsilon
    for half-precision inputs; a result that rounds its intermediates to the input's dtype differs by several units in
    the last place.

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_half_norms.py

Requirements
    PyTorch 2.13 (CPU); nothing here changed in 2.14 or 2.15. Deterministic: inputs come from seeded generators, and
    the output is byte-identical on a re-run.
"""
import os
import warnings

import torch
import torch.nn.functional as F

from golden_json import enc, write

torch.set_num_threads(1)
warnings.simplefilter("ignore")  # rms_norm warns that a mixed call cannot use the fused kernel
CASES = []
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "golden", "half_norms.json")


def tensors(shape, dtype, param_shape, param_dtype, affine, gen):
    x = (torch.randn(shape, generator=gen, dtype=torch.float64) * 2 + 0.5).to(dtype).requires_grad_()
    w = b = None
    if affine:
        w = (torch.randn(param_shape, generator=gen, dtype=torch.float64) + 1).to(param_dtype).requires_grad_()
        b = torch.randn(param_shape, generator=gen, dtype=torch.float64).to(param_dtype).requires_grad_()
    return x, w, b


def case(id_, op, x, w, b, kwargs, call):
    gen = torch.Generator().manual_seed(len(CASES) + 1000)
    args = [enc(x), enc(w) if w is not None else None, enc(b) if b is not None else None]
    try:
        outs = call(x, w, b)
    except RuntimeError as e:
        CASES.append({"id": id_, "op": op, "args": args, "kwargs": kwargs, "out": {"error": str(e)}})
        return
    W = torch.randn(outs[0].shape, generator=gen, dtype=torch.float64).to(outs[0].dtype)
    wrt = [t for t in (x, w, b) if t is not None]
    grads = torch.autograd.grad((W * outs[0]).sum(), wrt)
    args.append(enc(W))
    CASES.append({"id": id_, "op": op, "args": args, "kwargs": kwargs,
                  "out": [enc(o) for o in outs] + [enc(g) for g in grads]})


def main():
    gen = torch.Generator().manual_seed(0)
    for dtype in (torch.bfloat16, torch.float16):
        name = str(dtype).replace("torch.", "")
        for params, label in ((dtype, "same"), (torch.float32, "float32"), (None, "none")):
            affine = params is not None
            pd = params if affine else dtype
            x, w, b = tensors((6, 5, 40), dtype, (5, 40), pd, affine, gen)
            case("layer_norm/%s/%s" % (name, label), "native_layer_norm", x, w, b,
                 {"normalized_shape": [5, 40], "eps": 1e-5},
                 lambda x, w, b: list(torch.native_layer_norm(x, [5, 40], w, b, 1e-5)))
            x, w, b = tensors((4, 6, 7, 5), dtype, (6,), pd, affine, gen)
            case("group_norm/%s/%s" % (name, label), "group_norm", x, w, b, {"num_groups": 3, "eps": 1e-5},
                 lambda x, w, b: [F.group_norm(x, 3, w, b, 1e-5)])
            x, w, _ = tensors((8, 64), dtype, (64,), pd, affine, gen)
            case("rms_norm/%s/%s" % (name, label), "rms_norm", x, w, None, {"normalized_shape": [64]},
                 lambda x, w, b: [F.rms_norm(x, [64], w)])
            # small activations, where the default eps (float32's, not the input dtype's) matters
            x, w, _ = tensors((8, 64), dtype, (64,), pd, affine, gen)
            x = (x.detach() * 0.01).to(dtype).requires_grad_()
            case("rms_norm/%s/%s/small" % (name, label), "rms_norm", x, w, None, {"normalized_shape": [64]},
                 lambda x, w, b: [F.rms_norm(x, [64], w)])
            case("rms_norm/%s/%s/eps" % (name, label), "rms_norm", x, w, None,
                 {"normalized_shape": [64], "eps": 1e-3}, lambda x, w, b: [F.rms_norm(x, [64], w, 1e-3)])
    # mixtures PyTorch's CPU kernels refuse
    for label, xd, pd in (("bfloat16-float16", torch.bfloat16, torch.float16),
                          ("float32-bfloat16", torch.float32, torch.bfloat16),
                          ("float32-float64", torch.float32, torch.float64)):
        x, w, b = tensors((2, 6, 3), xd, (6,), pd, True, gen)
        case("group_norm/error/" + label, "group_norm", x, w, b, {"num_groups": 2, "eps": 1e-5},
             lambda x, w, b: [F.group_norm(x, 2, w, b, 1e-5)])
        x, w, b = tensors((2, 6), xd, (6,), pd, True, gen)
        case("layer_norm/error/" + label, "native_layer_norm", x, w, b, {"normalized_shape": [6], "eps": 1e-5},
             lambda x, w, b: list(torch.native_layer_norm(x, [6], w, b, 1e-5)))
    write(OUT, CASES, "make_golden_half_norms.py")
    print("wrote %d cases to %s" % (len(CASES), os.path.relpath(OUT)))


if __name__ == "__main__":
    main()

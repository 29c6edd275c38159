#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for float32 convolutions with few weights per output channel.

What it makes
    jtorch/src/test/resources/golden/direct_convolution.json: float32 torch.convolution cases whose channel counts
    are small (C_in/groups * kh * kw up to 72, the direct kernels' range): the two layers of the small CNNs of the
    per-sample gradient benchmarks, strides (also with phases no kernel tap reaches), padding, dilation, many groups
    (the shape of a per-sample weight gradient), 1 x 1 kernels, 1-d, a transposed convolution with bias and output
    padding; with the gradients of sum(W * out). And per-sample gradients of two small CNNs by torch.func's recipe
    vmap(grad(loss), in_dims=(None, 0, 0)), one with max pooling, one with strided, padded convolutions.

    case: {"id", "op": "convolution", "args": [input, weight, bias or null, W],
           "kwargs": {"stride", "padding", "dilation", "transposed", "output_padding", "groups"},
           "out": [result, input.grad, weight.grad, bias.grad (with a bias)]}
          {"id", "op": "per_sample_grad", "args": [w1, b1, w2, b2, w3, b3, xs, ys],
           "kwargs": {"downsample": "maxPool" | "stridedConv"},
           "out": [per-sample gradients of w1, b1, w2, b2, w3, b3]}

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_direct_convolution.py

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from a seeded generator.
"""
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(26)


def randn(*shape):
    return torch.randn(*shape, generator=GEN, dtype=torch.float64).to(torch.float32)


def conv_case(id_, x, w, b, stride=(1, 1), padding=(0, 0), dilation=(1, 1), transposed=False,
              output_padding=(0, 0), groups=1):
    kw = {"stride": list(stride), "padding": list(padding), "dilation": list(dilation), "transposed": transposed,
          "output_padding": list(output_padding), "groups": groups}
    x, w = x.clone().requires_grad_(True), w.clone().requires_grad_(True)
    leaves = [x, w] + ([b.clone().requires_grad_(True)] if b is not None else [])
    out = torch.convolution(x, w, leaves[2] if b is not None else None, kw["stride"], kw["padding"],
                            kw["dilation"], transposed, kw["output_padding"], groups)
    weights = randn(*out.shape)
    grads = torch.autograd.grad((weights * out).sum(), leaves)
    CASES.append({"id": id_, "op": "convolution",
                  "args": [enc(x), enc(w), enc(b) if b is not None else None, enc(weights)],
                  "kwargs": kw, "out": [enc(out)] + [enc(g) for g in grads]})


def cnn_loss(downsample):
    def loss(params, x, y):
        w1, b1, w2, b2, w3, b3 = params
        if downsample == "maxPool":
            h = F.max_pool2d(F.relu(F.conv2d(x.unsqueeze(0), w1, b1)), 2)
            h = F.max_pool2d(F.relu(F.conv2d(h, w2, b2)), 2)
        else:
            h = F.relu(F.conv2d(x.unsqueeze(0), w1, b1, stride=2, padding=1))
            h = F.relu(F.conv2d(h, w2, b2, stride=2, padding=1))
        return F.cross_entropy(F.linear(h.flatten(1), w3, b3), y.unsqueeze(0))
    return loss


def per_sample_case(downsample, features):
    params = (randn(4, 1, 3, 3), randn(4), randn(8, 4, 3, 3) / 3, randn(8), randn(5, features) / 4, randn(5))
    xs = randn(6, 1, 14, 14)
    ys = torch.randint(0, 5, (6,), generator=GEN)
    grads = torch.func.vmap(torch.func.grad(cnn_loss(downsample)), in_dims=(None, 0, 0))(params, xs, ys)
    CASES.append({"id": "per-sample/" + downsample, "op": "per_sample_grad",
                  "args": [enc(p) for p in params] + [enc(xs), enc(ys)],
                  "kwargs": {"downsample": downsample}, "out": [enc(g) for g in grads]})


def main():
    conv_case("cnn/first-layer", randn(1, 1, 28, 28), randn(8, 1, 3, 3), randn(8))
    conv_case("cnn/second-layer", randn(1, 8, 13, 13), randn(16, 8, 3, 3), randn(16))
    conv_case("cnn/strided-first-layer", randn(1, 1, 28, 28), randn(8, 1, 3, 3), randn(8), stride=(2, 2))
    conv_case("cnn/strided-second-layer", randn(2, 8, 13, 13), randn(16, 8, 3, 3), randn(16), stride=(2, 2))
    conv_case("strided-padded", randn(2, 3, 11, 10), randn(5, 3, 3, 3), randn(5), stride=(2, 3), padding=(1, 2))
    conv_case("dilated-padded", randn(2, 2, 12, 11), randn(4, 2, 3, 2), None, padding=(2, 1), dilation=(2, 3))
    # stride 3 over a 2 x 2 kernel: no tap reads the third phase, whose input gradient is zero
    conv_case("stride-past-kernel", randn(2, 2, 10, 10), randn(3, 2, 2, 2), randn(3), stride=(3, 3))
    # the per-sample weight gradient of the CNN's second layer, with 4 samples: 4 groups of 8 -> 16 channels
    conv_case("groups/per-sample-shape", randn(1, 32, 7, 7), randn(64, 8, 3, 3), None, groups=4)
    conv_case("groups/depthwise-padded", randn(1, 8, 8, 8), randn(16, 1, 3, 3), randn(16), padding=(1, 1),
              groups=8)
    conv_case("groups/odd-channels", randn(2, 6, 7, 9), randn(9, 2, 3, 3), randn(9), stride=(1, 2), groups=3)
    conv_case("one-by-one", randn(2, 5, 6, 6), randn(7, 5, 1, 1), randn(7))
    x, w = randn(3, 4, 20), randn(6, 2, 5)
    conv_case("1d/groups-strided-padded", x, w, randn(6), stride=(2,), padding=(2,), dilation=(1,),
              output_padding=(0,), groups=2)
    conv_case("transposed/bias-output-padding", randn(2, 6, 5, 5), randn(6, 2, 3, 3), randn(4), stride=(2, 2),
              padding=(1, 1), transposed=True, output_padding=(1, 1), groups=2)
    per_sample_case("maxPool", 8 * 2 * 2)
    per_sample_case("stridedConv", 8 * 4 * 4)
    # enough channels in all (samples x input channels >= 8) that the phase split runs as gathers: column stride 3,
    # padding on both sides
    conv_case("strided-padded/gathered", randn(2, 5, 11, 10), randn(4, 5, 3, 3), randn(4), stride=(2, 3),
              padding=(1, 2))
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "direct_convolution.json"), CASES,
          "make_golden_direct_convolution.py")


if __name__ == "__main__":
    main()

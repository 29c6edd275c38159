#!/usr/bin/python3
"""PyTorch side of ConvFamilyBench (benchmarks/src/main/java/org/jtorch/benchmarks/ConvFamilyBench.java), float32:
nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1) on [16, 64, 32, 32], and bilinear F.interpolate(scale_factor=2) of
[8, 32, 64, 64]; forward alone (under no_grad) and forward + backward of (out * g).sum() with the gradients reset
after each call; and the interpolation's backward alone (its graph run again with g as the output gradient).

    python benchmarks/peers/torch_conv_family.py
with PyTorch's default OpenMP settings, the project's baseline: its threads spin between parallel regions, faster on
the 2-core machine than OMP_WAIT_POLICY=passive (which docs/benchmarks.md's earlier sittings of this peer used).
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import torch
import torch.nn.functional as F

import peer_timing

torch.set_num_threads(2)
torch.manual_seed(0)
deconv = torch.nn.ConvTranspose2d(64, 32, 4, stride=2, padding=1)
deconv_in = torch.randn(16, 64, 32, 32, requires_grad=True)
deconv_grad = torch.randn(16, 32, 64, 64)
image = torch.randn(8, 32, 64, 64, requires_grad=True)
image_grad = torch.randn(8, 32, 128, 128)


def conv_transpose_forward():
    with torch.no_grad():
        deconv(deconv_in)


def conv_transpose_forward_backward():
    (deconv(deconv_in) * deconv_grad).sum().backward()
    deconv_in.grad = None
    deconv.zero_grad(set_to_none=True)


def bilinear():
    return F.interpolate(image, scale_factor=2, mode="bilinear", align_corners=False)


def bilinear_forward():
    with torch.no_grad():
        bilinear()


def bilinear_forward_backward():
    (bilinear() * image_grad).sum().backward()
    image.grad = None


def bilinear_backward():
    upsampled.backward(image_grad, retain_graph=True)
    image.grad = None


peer_timing.measure("convTransposeForward", conv_transpose_forward, warmup=5, runs=30)
peer_timing.measure("convTransposeForwardBackward", conv_transpose_forward_backward, warmup=5, runs=30)
peer_timing.measure("bilinearForward", bilinear_forward, warmup=5, runs=30)
peer_timing.measure("bilinearForwardBackward", bilinear_forward_backward, warmup=5, runs=30)
upsampled = bilinear()
peer_timing.measure("bilinearBackward", bilinear_backward, warmup=5, runs=30)

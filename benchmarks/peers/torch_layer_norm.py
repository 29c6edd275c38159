#!/usr/bin/python3
"""PyTorch side of LayerNormBench (benchmarks/src/main/java/org/jtorch/benchmarks/LayerNormBench.java):
F.layer_norm(x, (256,), w, b) on x of [16, 128, 256] float32, forward alone and forward + backward with a given output
gradient, grads reset to None after each call.

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_layer_norm.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=us min=.. max=..
"""
import torch
import torch.nn.functional as F

import peer_timing

torch.set_num_threads(2)
torch.manual_seed(0)
x = torch.randn(16, 128, 256, requires_grad=True)
w = torch.randn(256, requires_grad=True)
b = torch.randn(256, requires_grad=True)
g = torch.randn(16, 128, 256)


def forward():
    F.layer_norm(x, (256,), w, b, 1e-5)


def forward_backward():
    F.layer_norm(x, (256,), w, b, 1e-5).backward(g)
    x.grad = w.grad = b.grad = None


peer_timing.measure("layer_norm_forward", forward, warmup=50, runs=400, unit="us", scale=1e6)
peer_timing.measure("layer_norm_forward_backward", forward_backward, warmup=50, runs=400, unit="us", scale=1e6)

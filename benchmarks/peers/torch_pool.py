#!/usr/bin/python3
"""PyTorch side of PoolRun (benchmarks/src/main/java/org/jtorch/benchmarks/PoolRun.java), float32: max_pool2d(3,
stride=2, padding=1) of [16, 64, 112, 112], max_pool3d(2) and avg_pool3d(3, stride=2, padding=1) of [4, 32, 16, 32, 32],
adaptive_max_pool2d(7) of [16, 64, 56, 56]; forward alone (under no_grad) and forward + backward of (out * g).sum()
with the gradient reset after each call.

    OMP_WAIT_POLICY=passive python benchmarks/peers/torch_pool.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import torch
import torch.nn.functional as F

import peer_timing

torch.set_num_threads(2)
torch.manual_seed(0)
image = torch.randn(16, 64, 112, 112, requires_grad=True)
volume = torch.randn(4, 32, 16, 32, 32, requires_grad=True)
features = torch.randn(16, 64, 56, 56, requires_grad=True)


def pair(name, x, pool):
    with torch.no_grad():
        g = torch.randn_like(pool(x))

    def forward():
        with torch.no_grad():
            pool(x)

    def forward_backward():
        (pool(x) * g).sum().backward()
        x.grad = None

    peer_timing.measure(name + "Forward", forward, warmup=5, runs=30)
    peer_timing.measure(name + "ForwardBackward", forward_backward, warmup=5, runs=30)


pair("maxPool2d", image, lambda x: F.max_pool2d(x, 3, 2, 1))
pair("maxPool3d", volume, lambda x: F.max_pool3d(x, 2))
pair("avgPool3d", volume, lambda x: F.avg_pool3d(x, 3, 2, 1))
pair("adaptiveMaxPool2d", features, lambda x: F.adaptive_max_pool2d(x, 7))

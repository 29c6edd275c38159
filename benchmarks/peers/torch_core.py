#!/usr/bin/python3
"""PyTorch side of the core-tensor benchmarks (docs/benchmarks.md), same shapes and counts as the
JMH benchmarks in benchmarks/src/main/java/org/jtorch/benchmarks.

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_core.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=UNIT min=.. max=..
"""

import torch

from peer_timing import measure

torch.set_num_threads(2)
N = 1 << 24


a = torch.sin(torch.arange(N, dtype=torch.float32))
b = torch.cos(torch.arange(N, dtype=torch.float32))
out = torch.zeros(N)
measure("addAlloc", lambda: a + b, 3, 20)
measure("mulAlloc", lambda: a * b, 3, 20)
measure("expAlloc", lambda: torch.exp(a), 3, 20)
measure("addOut", lambda: torch.add(a, b, out=out), 3, 20)
measure("mulOut", lambda: torch.mul(a, b, out=out), 3, 20)
measure("expOut", lambda: torch.exp(a, out=out), 3, 20)
measure("sum", lambda: a.sum(), 3, 20)

s1 = torch.arange(16, dtype=torch.float32)
s2 = torch.ones(16)


def small_adds():
    for _ in range(100_000):
        s1 + s2


measure("add16", small_adds, 1, 5, unit="ns", scale=1e9, per=100_000)

# AutogradBench.smallAddsWithGrad: 100 chained adds on a 16-element leaf that requires grad, then backward; per add
leaf = torch.arange(16, dtype=torch.float32, requires_grad=True)


def small_adds_with_grad():
    h = leaf
    for _ in range(100):
        h = h + s2
    h.sum().backward()
    leaf.grad = None


measure("smallAddsWithGrad", small_adds_with_grad, 100, 1000, unit="ns", scale=1e9, per=100)

n = 1024
m1 = torch.sin(torch.arange(n * n, dtype=torch.float32)).view(n, n)
m2 = torch.cos(torch.arange(n * n, dtype=torch.float32)).view(n, n)
measure("matmul1024", lambda: torch.mm(m1, m2), 3, 20)

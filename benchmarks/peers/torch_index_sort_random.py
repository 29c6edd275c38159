#!/usr/bin/python3
"""PyTorch side of IndexSortRandomBench (docs/benchmarks.md): same shapes, median of 20 runs.

    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_index_sort_random.py
"""

import torch

import peer_timing

torch.set_num_threads(2)
M = 1 << 20
g = torch.Generator().manual_seed(0)
src = torch.rand(M, generator=g)
index = torch.randint(0, M, (M,), generator=g)
values = torch.rand(M, generator=g)
dest = torch.zeros(M)


def measure(name, fn, warmup=3, runs=20):
    peer_timing.measure(name, fn, warmup, runs)


measure("gather1M", lambda: torch.gather(src, 0, index))
measure("scatterAdd1M", lambda: torch.scatter_add(dest, 0, index, values))
measure("sort1M", lambda: torch.sort(src))
measure("randn16M", lambda: torch.randn(16 << 20, generator=g))

#!/usr/bin/python3
"""PyTorch / scipy side of LinalgBench (benchmarks/src/main/java/org/jtorch/benchmarks/LinalgBench.java), float64:
eigh, svd and cholesky of one 512 x 512 matrix; polar and matrix_sqrth of a batch of 64 matrices 64 x 64.
torch 1.13 has neither linalg.polar nor linalg.matrix_sqrth (new in 2.14): they are timed as the SVD / eigh
compositions PyTorch 2.14 itself uses, and as scipy.linalg.polar / sqrtm looped over the batch.

Run with Debian's PyTorch and scipy (apt-get install -y python3-torch python3-scipy):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_linalg.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""

import numpy as np
import scipy.linalg
import torch

import peer_timing

torch.set_num_threads(2)


def measure(name, fn, warmup=3, runs=15):
    peer_timing.measure(name, fn, warmup, runs)


torch.manual_seed(0)
big = torch.randn(512, 512, dtype=torch.float64)
big_spd = big @ big.mT + 512 * torch.eye(512, dtype=torch.float64)
batch = torch.randn(64, 64, 64, dtype=torch.float64)
batch_spd = batch @ batch.mT + 64 * torch.eye(64, dtype=torch.float64)


def polar(a):
    w, s, vh = torch.linalg.svd(a, full_matrices=False)
    h = vh.mH @ (s.unsqueeze(-1) * vh)
    return w @ vh, 0.5 * (h + h.mH)


def sqrth(a):
    lam, q = torch.linalg.eigh(a)
    return (q * lam.clamp_min(0).sqrt().unsqueeze(-2)) @ q.mH


measure("eigh512", lambda: torch.linalg.eigh(big_spd))
measure("svd512", lambda: torch.linalg.svd(big))
measure("cholesky512", lambda: torch.linalg.cholesky(big_spd))
measure("polarBatch64x64(torch svd composition)", lambda: polar(batch))
measure("matrixSqrthBatch64x64(torch eigh composition)", lambda: sqrth(batch_spd))
np_batch, np_spd = batch.numpy(), batch_spd.numpy()
measure("polarBatch64x64(scipy.linalg.polar loop)", lambda: [scipy.linalg.polar(m) for m in np_batch])
measure("matrixSqrthBatch64x64(scipy.linalg.sqrtm loop)", lambda: [scipy.linalg.sqrtm(m) for m in np_spd])

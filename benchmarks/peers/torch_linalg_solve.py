#!/usr/bin/python3
"""Peers of MatrixExpBench: the matrix exponential of one 256 x 256 float64 matrix
A[i, j] = sin(i * 256 + j) / 16 (as in benchmarks/src/main/java/org/jtorch/benchmarks/MatrixExpBench.java)
with scipy.linalg.expm (Pade 13 with scaling and squaring) and torch.linalg.matrix_exp.

Run with Debian's PyTorch and SciPy (apt-get install -y python3-torch python3-scipy):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_linalg_solve.py [threads, default 2]
(for one thread also set OPENBLAS_NUM_THREADS=1, which scipy's BLAS reads).
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import sys

import numpy as np
import scipy.linalg
import torch

import peer_timing

torch.set_num_threads(int(sys.argv[1]) if len(sys.argv) > 1 else 2)
N = 256


def measure(name, fn, warmup=5, runs=30):
    peer_timing.measure(name, fn, warmup, runs, extra=f"scipy={scipy.__version__}")


a = np.sin(np.arange(N * N, dtype=np.float64)).reshape(N, N) / np.sqrt(N)
t = torch.from_numpy(a)
measure("scipy.linalg.expm/256/float64", lambda: scipy.linalg.expm(a))
measure("torch.linalg.matrix_exp/256/float64", lambda: torch.linalg.matrix_exp(t))

#!/usr/bin/python3
"""NumPy and PyTorch side of FftBench (benchmarks/src/main/java/org/jtorch/benchmarks/FftBench.java): rfft of one
real signal and fft of one complex signal of 2^20 samples and of the prime 999,983, float64 and float32 (complex128 and
complex64), with NumPy's pocketfft (numpy.fft) and PyTorch's torch.fft, one thread.

    python benchmarks/peers/numpy_fft.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import numpy as np
import torch

import peer_timing

torch.set_num_threads(1)
rng = np.random.default_rng(0)
for n in (1 << 20, 999983):
    for dtype in ("float64", "float32"):
        x = rng.standard_normal(n).astype(dtype)
        z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(
            "complex128" if dtype == "float64" else "complex64")
        tx, tz = torch.from_numpy(x), torch.from_numpy(z)
        extra = "numpy=" + np.__version__
        peer_timing.measure("numpy_rfft_%d_%s" % (n, dtype), lambda: np.fft.rfft(x), warmup=3, runs=20, extra=extra)
        peer_timing.measure("torch_rfft_%d_%s" % (n, dtype), lambda: torch.fft.rfft(tx), warmup=3, runs=20)
        peer_timing.measure("numpy_fft_%d_%s" % (n, dtype), lambda: np.fft.fft(z), warmup=3, runs=20, extra=extra)
        peer_timing.measure("torch_fft_%d_%s" % (n, dtype), lambda: torch.fft.fft(tz), warmup=3, runs=20)

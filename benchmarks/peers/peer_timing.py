"""The timing every PyTorch peer uses: warm-up calls, then the median of timed calls, printed as one line

    bench=NAME value=MEDIAN unit=UNIT min=.. max=.. torch=VERSION [extra] threads=N

that benchmarks/side_by_side.py reads. PEER_RUNS=N in the environment caps the timed calls at N and the warm-up at one
(benchmarks/run-all --quick)."""
import os
import statistics
import time

import torch


def measure(name, fn, warmup=3, runs=20, unit="ms", scale=1e3, per=1, extra=""):
    """Times fn() `runs` times after `warmup` calls; each time is scaled by `scale` / `per` (ms per call by default)."""
    cap = int(os.environ.get("PEER_RUNS", "0"))
    if cap > 0:
        warmup, runs = min(warmup, 1), min(runs, cap)
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * scale / per)
    print(f"bench={name} value={statistics.median(times):.4g} unit={unit} min={min(times):.4g} max={max(times):.4g} "
          f"torch={torch.__version__} {extra + ' ' if extra else ''}threads={torch.get_num_threads()}", flush=True)

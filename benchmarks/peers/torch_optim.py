#!/usr/bin/python3
"""PyTorch side of OptimBench: one AdamW step over 100 float32 parameters totalling 50M elements
(sizes proportional to 1 + i % 10, as in benchmarks/src/main/java/org/jtorch/benchmarks/OptimBench.java),
for-loop (foreach=False), foreach (foreach=True), fused (fused=True, when this PyTorch has a CPU
fused AdamW; 1.13 has not) and compiled (torch.compile of opt.step with a tensor lr, PyTorch 2.x; its Inductor C++ backend needs the
machine's g++).

Run with any interpreter that imports torch (PyTorch 2.13 for the compiled row):
    OMP_WAIT_POLICY=passive python benchmarks/peers/torch_optim.py [IMPL ...]
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""

import sys
import time

import torch

import peer_timing

torch.set_num_threads(2)
PARAMS, TOTAL = 100, 50_000_000


def sizes():
    weights = sum(1 + i % 10 for i in range(PARAMS))
    n = [TOTAL * (1 + i % 10) // weights for i in range(PARAMS)]
    n[-1] += TOTAL - sum(n)
    return n


def measure(name, fn, warmup=3, runs=10):
    peer_timing.measure(name, fn, warmup, runs)


torch.manual_seed(0)
for impl in sys.argv[1:] or ("forloop", "foreach", "fused", "compiled"):
    params = []
    for n in sizes():
        p = torch.randn(n, requires_grad=True)
        p.grad = torch.randn(n) * 0.01
        params.append(p)
    kwargs = {"forloop": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True},
              "compiled": {"lr": torch.tensor(1e-3)}}[impl]
    try:
        opt = torch.optim.AdamW(params, **{"lr": 1e-3, **kwargs})
        step = opt.step
        if impl == "compiled":
            # PyTorch's recipe for a compiled optimizer (its tutorial with an lr scheduler): torch.compile of
            # step(), a tensor lr so that a changing lr does not recompile; the first call (timed apart) compiles
            step = torch.compile(opt.step)
            t0 = time.perf_counter()
            step()
            print(f"# compiled step: first call {time.perf_counter() - t0:.1f} s", flush=True)
        else:
            opt.step()
    except (RuntimeError, TypeError) as e:
        print(f"bench=OptimBench.step:{impl} value=n/a reason={str(e).splitlines()[0]!r} torch={torch.__version__}", flush=True)
        continue
    measure(f"OptimBench.step:{impl}", step)
    del opt, params, step

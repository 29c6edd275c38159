#!/usr/bin/python3
"""PyTorch side of OptimBench: one AdamW step over 100 float32 parameters totalling 50M elements
(sizes proportional to 1 + i % 10, as in benchmarks/src/main/java/org/jtorch/benchmarks/OptimBench.java),
for-loop (foreach=False), foreach (foreach=True) and fused (fused=True, when this PyTorch has a CPU
fused AdamW; 1.13 has not).

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_optim.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""

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
for impl in ("forloop", "foreach", "fused"):
    params = []
    for n in sizes():
        p = torch.randn(n, requires_grad=True)
        p.grad = torch.randn(n) * 0.01
        params.append(p)
    kwargs = {"forloop": {"foreach": False}, "foreach": {"foreach": True}, "fused": {"fused": True}}[impl]
    try:
        opt = torch.optim.AdamW(params, lr=1e-3, **kwargs)
        opt.step()
    except (RuntimeError, TypeError) as e:
        print(f"bench=OptimBench.step:{impl} value=n/a reason={str(e).splitlines()[0]!r} torch={torch.__version__}", flush=True)
        continue
    measure(f"OptimBench.step:{impl}", opt.step)
    del opt, params

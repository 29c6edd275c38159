#!/usr/bin/python3
"""PyTorch side of MlpStepRun: the peers' MLP 784-256-10 training step (batch 64, cross entropy, SGD lr 0.01,
zero_grad(set_to_none=True)) run for many steps, wall clock around each step, reported per window of 1,000
steps exactly as MlpStepRun reports JTorch's (mean, median, p90, p99, max). A long run shows whether the
step changes regime over time, which the peers' 200-step sample cannot.

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_mlp_step.py [STEPS [THREADS]]

THREADS (ATen's intra-op threads) is 2 by default, as in the peers' harness. Debian's PyTorch calls the system
OpenBLAS, which runs its GEMMs on its own pthreads whatever THREADS is.
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 16_000
    torch.set_num_threads(int(sys.argv[2]) if len(sys.argv) > 2 else 2)
    torch.manual_seed(0)
    x, y = torch.randn(64, 784), torch.randint(10, (64,))
    w1 = (torch.randn(256, 784) * 0.05).requires_grad_()
    b1 = torch.zeros(256, requires_grad=True)
    w2 = (torch.randn(10, 256) * 0.05).requires_grad_()
    b2 = torch.zeros(10, requires_grad=True)
    opt = torch.optim.SGD([w1, b1, w2, b2], lr=0.01)
    ms = []
    for _ in range(steps):
        t0 = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(F.linear(F.relu(F.linear(x, w1, b1)), w2, b2), y)
        loss.backward()
        opt.step()
        ms.append((time.perf_counter() - t0) * 1e3)
    print(f"# torch {torch.__version__}, {torch.get_num_threads()} threads", flush=True)
    for w in range(0, steps - 999, 1000):
        v = sorted(ms[w:w + 1000])
        print(f"steps {w:5d}-{w + 1000:5d}: mean {statistics.fmean(v):.3f} median {v[500]:.3f} p90 {v[900]:.3f} "
              f"p99 {v[990]:.3f} max {v[999]:.2f} ms", flush=True)


if __name__ == "__main__":
    main()

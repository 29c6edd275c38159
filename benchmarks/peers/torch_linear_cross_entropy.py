#!/usr/bin/python3
"""PyTorch side of LinearCrossEntropyRun: forward+backward of the reference path
cross_entropy(linear(x, W), y) at N=4096, D=1024, V=32768, float32, 'mean' (1.13 has no linear_cross_entropy;
this is exactly the computation its reference path performs).

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_linear_cross_entropy.py [runs]
Prints the median wall time, the median process CPU time (all threads; steadier on a shared machine) and the peak additional memory: the growth of the process's resident high-water mark
(VmHWM in /proc/self/status) over one forward+backward, measured first (right after the inputs exist), so the
high-water mark before it is the inputs' footprint.
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

N, D, V = 4096, 1024, 32768


def vm_hwm_mib():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def step(x, w, y):
    x.grad = None
    w.grad = None
    loss = F.cross_entropy(F.linear(x, w), y)
    loss.backward()
    return loss.item()


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    torch.set_num_threads(2)
    torch.manual_seed(0)
    x = torch.randn(N, D, requires_grad=True)
    w = (torch.randn(V, D) * 0.02).requires_grad_(True)
    y = torch.randint(0, V, (N,))
    before = vm_hwm_mib()
    t0 = time.perf_counter()
    loss = step(x, w, y)
    first = (time.perf_counter() - t0) * 1e3
    extra = vm_hwm_mib() - before
    times, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        step(x, w, y)
        times.append((time.perf_counter() - t0) * 1e3)
        cpu.append((time.process_time() - c0) * 1e3)
    print("bench=torch_linear_cross_entropy_reference value=%.0f unit=ms min=%.0f max=%.0f cpu_ms=%.0f first=%.0f loss=%.6f"
          % (statistics.median(times), min(times), max(times), statistics.median(cpu), first, loss))
    print("bench=torch_linear_cross_entropy_reference_peak_extra value=%.0f unit=MiB" % extra)


if __name__ == "__main__":
    main()

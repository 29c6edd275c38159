#!/usr/bin/python3
"""PyTorch side of AttentionRun: F.scaled_dot_product_attention(q, k, v, is_causal=True) forward and backward at
TrainGpt's size (batch 16, 4 heads, 128 positions, head dim 32, float32), which PyTorch 2.x runs with its CPU flash
kernel. Prints the median forward and backward milliseconds of three rounds after a warm-up round.

    OMP_WAIT_POLICY=passive python benchmarks/peers/torch_attention.py [reps]      (a PyTorch 2.x interpreter)
"""
import statistics
import sys
import time

import torch
import torch.nn.functional as F

B, H, T, D = 16, 4, 128, 32


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    torch.set_num_threads(2)
    torch.manual_seed(0)
    q, k, v = (torch.randn(B, H, T, D, requires_grad=True) for _ in range(3))
    grad = torch.randn(B, H, T, D)
    for round_ in range(4):
        fwd, bwd = [], []
        for _ in range(reps):
            t0 = time.perf_counter()
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            t1 = time.perf_counter()
            y.backward(grad)
            t2 = time.perf_counter()
            fwd.append((t1 - t0) * 1e3)
            bwd.append((t2 - t1) * 1e3)
        if round_ > 0:
            print(f"bench=attention_causal torch={torch.__version__} fwd_ms={statistics.median(fwd):.3f} "
                  f"bwd_ms={statistics.median(bwd):.3f}")


if __name__ == "__main__":
    main()

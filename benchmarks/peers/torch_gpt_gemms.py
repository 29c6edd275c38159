"""The twelve matrix products of one TrainGpt block's training step, timed as GptGemmsRun times them.

Per product the fastest of 40 calls after 5 warm-up calls, float32, 2 threads:
    OMP_WAIT_POLICY=passive python benchmarks/peers/torch_gpt_gemms.py
"""
import time

import torch

torch.set_num_threads(2)
torch.manual_seed(0)
TOKENS = 16 * 128
LAYERS = [(128, 384), (128, 128), (128, 512), (512, 128)]


def report(name, product):
    for _ in range(5):
        product()
    best = float("inf")
    for _ in range(40):
        t0 = time.perf_counter()
        product()
        best = min(best, (time.perf_counter() - t0) * 1e6)
    print(f"{name:<40} {best:8.0f} us")
    return best


total = 0.0
for n_in, n_out in LAYERS:
    x, w, dy = torch.randn(TOKENS, n_in), torch.randn(n_out, n_in), torch.randn(TOKENS, n_out)
    total += report(f"forward   x @ W^T  {TOKENS}x{n_in}x{n_out}", lambda: x @ w.t())
    total += report(f"input grad dY @ W  {TOKENS}x{n_out}x{n_in}", lambda: dy @ w)
    total += report(f"weight grad dY^T @ x {n_out}x{TOKENS}x{n_in}", lambda: dy.t() @ x)
print(f"all twelve: {total:.0f} us")

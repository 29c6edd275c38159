#!/usr/bin/python3
"""PyTorch peer of `InductorRun forward`: the served GPT's forward (TrainGpt's 4x128 model over the shipped corpus's
vocabulary, the LM head on the last position only) on a batch of 64 sequences of 16 tokens under no_grad, eager and
(with --compile) through torch.compile, in 4 alternating blocks of 50 calls after 60 warm-up calls each; medians.

    OMP_WAIT_POLICY=passive python benchmarks/peers/gpt_forward.py [--compile]
"""
import argparse
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_gpt import GPT, GPTConfig, load_corpus  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--compile", action="store_true", help="also time the model through torch.compile")
    p.add_argument("--reps", type=int, default=50)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1337)
    vocab, _, _ = load_corpus()
    model = GPT(GPTConfig(len(vocab))).eval()
    runs = {"eager": model}
    if args.compile:
        runs["compiled"] = torch.compile(model)
    batch = torch.randint(0, len(vocab), (64, 16))

    def forward(m):
        with torch.no_grad():
            return F.linear(m(batch)[:, -1], model.lm_head.weight)

    times = {name: [] for name in runs}
    for block in range(4):
        for name, m in runs.items():
            if block == 0:
                for _ in range(60):
                    forward(m)
            for _ in range(args.reps):
                start = time.perf_counter()
                forward(m)
                times[name].append(time.perf_counter() - start)
    for name, t in times.items():
        print(f"bench=gpt_forward_{name} value={statistics.median(t) * 1e3:.3f} unit=ms torch={torch.__version__}")


if __name__ == "__main__":
    main()

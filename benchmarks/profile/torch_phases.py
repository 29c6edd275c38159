#!/usr/bin/env python3
"""Per-phase breakdown of the PyTorch peer's TrainGpt step (benchmarks/peers/train_gpt.py), from torch.profiler, in
the phases of jfr_phases.py, so the two breakdowns sit side by side in docs/benchmarks.md.

    python benchmarks/profile/torch_phases.py [--steps 20] [--untimed 10]      (a PyTorch 2.x interpreter)

The peer's model, batch, optimizer and gradient clipping, run for --untimed steps, then profiled for --steps steps.
Each profiled op's self CPU time (its own time, without the ops it calls) goes to the first phase whose pattern matches
the op or one of the ops around it, innermost first, so a matrix product inside the attention's math path counts as
attention; PyTorch's intra-op workers run inside the op that forks them, so self times add up to the step's wall time
on the calling thread. Prints milliseconds per step and the share of each phase.
"""
import argparse
import collections
import os
import re
import sys
import time

import torch
from torch.profiler import ProfilerActivity, profile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
import train_gpt  # noqa: E402  (the peer's model and training pieces)

PHASES = [
    ("attention", [r"scaled_dot_product", r"flash_attention"]),
    ("LM head + cross-entropy", [r"cross_entropy", r"log_softmax", r"nll_loss"]),
    ("layer norm", [r"layer_norm"]),
    ("GELU", [r"gelu"]),
    ("optimizer", [r"Optimizer\.", r"_foreach_", r"clip_grad", r"AdamW", r"adamw"]),
    ("GEMM", [r"aten::(mm|addmm|bmm|matmul|linear)\b"]),
    ("embedding", [r"embedding"]),
    ("elementwise", [r"aten::(add|mul|sub|div|copy_|clone|contiguous|fill_|zero_|cat|where|neg|exp|sum|"
                     r"expand|view|transpose|reshape|t|split|slice|select|permute|_unsafe_view|to|_to_copy)"]),
    ("autograd bookkeeping", [r"autograd::", r"Backward"]),
]
COMPILED = [(name, [re.compile(p) for p in pats]) for name, pats in PHASES]


def phase_of(event, vocab):
    """The first phase matching the event or an ancestor, walking outwards; ops outside every phase are 'other'. The
    LM head's product (its output has the vocabulary as last dim) counts with the cross-entropy, as JTorch fuses them."""
    chain = []
    e = event
    while e is not None:
        chain.append(e.name)
        if re.search(r"aten::(mm|addmm|linear|matmul)\b", e.name) and any(
                shape and shape[-1] == vocab for shape in e.input_shapes):
            return "LM head + cross-entropy"
        e = e.cpu_parent
    for name, pats in COMPILED:
        if any(p.search(n) for n in chain for p in pats):
            return name
    return "other"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    train_gpt.add_training_arguments(p, steps=20, threads=2)
    p.add_argument("--untimed", type=int, default=10, help="steps run before profiling")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    vocab, train, _ = train_gpt.load_corpus()
    torch.manual_seed(args.seed)
    model = train_gpt.GPT(train_gpt.GPTConfig(len(vocab), args.block, args.layers, args.heads, args.embd))
    data = torch.Generator().manual_seed(args.seed + 1)
    opt = train_gpt.adamw(model, args)

    def step():
        x, y = train_gpt.get_batch(train, args.batch, args.block, data)
        loss = train_gpt.lm_loss(model(x), model.lm_head.weight, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        opt.step()

    for _ in range(args.untimed):
        step()
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        start = time.perf_counter()
        for _ in range(args.steps):
            step()
        wall = (time.perf_counter() - start) / args.steps
    per_phase = collections.Counter()
    for event in prof.events():
        if event.thread != prof.events()[0].thread:
            continue  # autograd's own thread does not exist on the CPU; stray threads would double-count
        per_phase[phase_of(event, len(vocab))] += event.self_cpu_time_total
    total = sum(per_phase.values())
    print(f"torch {torch.__version__}, {args.threads} threads: {wall * 1e3:.1f} ms per step (profiled), "
          f"{total / 1e3 / args.steps:.1f} ms per step in ops")
    for name, us in per_phase.most_common():
        print(f"{us / 1e3 / args.steps:7.2f} ms  {100 * us / total:5.1f}%  {name}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""PyTorch peer of TrainGpt --ddp: the GPT of train_gpt.py trained data-parallel by torch.distributed's gloo backend
and DistributedDataParallel with its default buckets (or --bucket-cap-mb), WORLD processes on loopback, each with --threads intra-op
threads. As in TrainGpt --ddp, every rank draws the same global batch of --batch sequences from the same generator
and keeps its rows, the loss printed is the mean over the ranks (one all_reduce per step), and tokens/s counts the
global batch after the same warm-up.

Run from the repository root, with a PyTorch that has torch.distributed (the PyPI wheels do):
    OMP_WAIT_POLICY=passive python benchmarks/peers/train_gpt_ddp.py --world 2 --threads 1 --steps 15 --batch 16
Prints rank 0's progress, then one line: bench=train_gpt_ddp value=TOKENS_PER_S unit=tok/s ..., then one line per rank
with DDP's own trace of the timed steps (from DistributedDataParallel's logging data: backward compute, the
communication from the first bucket's all-reduce to the last one's end, and the part of it after backward's compute).
"""
import argparse
import os
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_gpt import (GPT, GPTConfig, adamw, add_training_arguments, get_batch, learning_rate,  # noqa: E402
                       lm_loss, load_corpus)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def train(rank, args, port, results):
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    dist.init_process_group("gloo", rank=rank, world_size=args.world)
    torch.set_num_threads(args.threads)
    vocab, data_split, _ = load_corpus()
    torch.manual_seed(args.seed)
    model = GPT(GPTConfig(len(vocab), args.block, args.layers, args.heads, args.embd))
    ddp = torch.nn.parallel.DistributedDataParallel(model, bucket_cap_mb=args.bucket_cap_mb)
    data = torch.Generator().manual_seed(args.seed + 1)
    opt = adamw(model, args)
    # The tail, as TrainGpt --ddp measures it: from the last gradient's arrival in .grad to backward returning with
    # the averaged gradients (DDP's finalisation waits for the all-reduces at the end of backward).
    last_gradient = [0.0]

    def arrived(_):
        last_gradient[0] = time.perf_counter()

    for p in model.parameters():
        p.register_post_accumulate_grad_hook(arrived)
    tails = []
    rows = args.batch // args.world
    warm = min(10, args.steps // 5)  # TrainGpt's warm-up rule
    start = time.perf_counter()
    for step in range(args.steps):
        if step == warm:
            start = time.perf_counter()
        for g in opt.param_groups:
            g["lr"] = learning_rate(step, args)
        x, y = get_batch(data_split, args.batch, args.block, data)
        x, y = x[rows * rank:rows * (rank + 1)], y[rows * rank:rows * (rank + 1)]
        loss = lm_loss(ddp(x), model.lm_head.weight, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if step >= warm:
            tails.append(time.perf_counter() - last_gradient[0])
        if args.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        opt.step()
        mean = loss.detach().clone()
        dist.all_reduce(mean, dist.ReduceOp.AVG)
        if rank == 0:
            print(f"step {step + 1} loss {mean.item():.4f}", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    stats = ddp._get_ddp_logging_data()
    results[rank] = (seconds, tails, stats.get("avg_backward_compute_time", 0), stats.get("avg_backward_comm_time", 0),
                     stats.get("avg_backward_compute_comm_overlap_time", 0),
                     stats.get("rebuilt_bucket_sizes", stats.get("bucket_sizes")))
    dist.barrier()
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--world", type=int, default=2)
    p.add_argument("--bucket-cap-mb", type=float, default=None, help="DDP's bucket_cap_mb (default: PyTorch's 25)")
    add_training_arguments(p, steps=15, threads=1)
    args = p.parse_args()
    if args.batch % args.world != 0:
        p.error(f"--batch {args.batch} does not split evenly over --world {args.world}")
    with mp.Manager() as manager:
        results = manager.dict()
        mp.spawn(train, args=(args, free_port(), results), nprocs=args.world, join=True)
        warm = min(10, args.steps // 5)
        seconds = max(r[0] for r in results.values())
        tokens = args.batch * args.block * (args.steps - warm)
        print(f"bench=train_gpt_ddp value={tokens / seconds:.1f} unit=tok/s world={args.world} "
              f"threads_per_rank={args.threads} steps={args.steps} warmup={warm} "
              f"tokens_per_step={args.batch * args.block} torch={torch.__version__}", flush=True)
        for rank in sorted(results.keys()):
            _, tails, compute, comm, overlap, buckets = results[rank]
            tail = sum(tails) / len(tails)
            # DDP's timer (averaged over its sampled iterations, the first ten and every hundredth): the communication
            # runs from the first bucket's all-reduce to the last one's end; overlap is its part before backward's
            # compute ended.
            print(f"ddp rank {rank}: buckets {buckets} bytes; last gradient to averaged gradients {tail * 1e3:.1f}"
                  f" ms/step; DDP's trace: backward compute {compute / 1e6:.1f} ms, all-reduce span {comm / 1e6:.1f}"
                  f" ms, of which after backward's compute {(comm - overlap) / 1e6:.1f} ms", flush=True)
        # as TrainGpt --ddp reports it: step by step, the tail of the last rank to finish backward (the shortest)
        per_step = zip(*(results[rank][1] for rank in sorted(results.keys())))
        critical = [min(step) for step in per_step]
        print(f"ddp critical path: the last rank to finish backward, last gradient to averaged gradients"
              f" {sum(critical) / len(critical) * 1e3:.1f} ms/step", flush=True)


if __name__ == "__main__":
    main()

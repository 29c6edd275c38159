#!/usr/bin/python3
"""PyTorch peer of examples' TrainGpt: the same character-level GPT (nanoGPT's architecture and state-dict
names), the same corpus, split, batch sampler, initialisation order, optimizer grouping, schedule and
gradient clipping, so tokens/s compare like for like. With the same seed the first losses agree with
TrainGpt's: JTorch draws PyTorch's random numbers.

Run with Debian's PyTorch (apt-get install -y python3-torch), from the repository root:
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/train_gpt.py --steps 50
    (--compile inductor: the model's calls through torch.compile, as TrainGpt's --compile inductor; the first step's
    time, which includes the compile, is printed as first_step_s)
Prints the per-step progress and then one line: bench=train_gpt value=TOKENS_PER_S unit=tok/s ...
The module also serves examples/src/test/python/check_checkpoint.py and make_port_fixture.py (GPT, GPTConfig).
"""
import argparse
import math
import os
import sys
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

CORPUS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "src", "main", "resources",
                      "org", "jtorch", "examples", "gpt", "kjv-genesis-ruth.txt")


@dataclass
class GPTConfig:
    vocab_size: int
    block_size: int = 128
    n_layer: int = 4
    n_head: int = 4
    n_embd: int = 128
    norm: str = "layernorm"


def make_norm(config):
    # RMSNorm arrived in PyTorch 2.4; the peer supports it only where this PyTorch has it.
    return nn.RMSNorm(config.n_embd) if config.norm == "rmsnorm" else nn.LayerNorm(config.n_embd)


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n_head, self.n_embd = config.n_head, config.n_embd
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=False)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=False)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        if hasattr(F, "scaled_dot_product_attention"):
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:  # PyTorch 1.13: the same math written out
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            mask = torch.ones(T, T, dtype=torch.bool).tril()
            y = att.masked_fill(~mask, float("-inf")).softmax(dim=-1) @ v
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class MLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_fc = nn.Linear(config.n_embd, 4 * config.n_embd, bias=False)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * config.n_embd, config.n_embd, bias=False)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = make_norm(config)
        self.attn = CausalSelfAttention(config)
        self.ln_2 = make_norm(config)
        self.mlp = MLP(config)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            wpe=nn.Embedding(config.block_size, config.n_embd),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]),
            ln_f=make_norm(config),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        # nanoGPT's init, in the order TrainGpt's Gpt draws it.
        with torch.no_grad():
            nn.init.normal_(self.transformer.wte.weight, 0, 0.02)
            nn.init.normal_(self.transformer.wpe.weight, 0, 0.02)
            residual_std = 0.02 / math.sqrt(2 * config.n_layer)
            for block in self.transformer.h:
                nn.init.normal_(block.attn.c_attn.weight, 0, 0.02)
                nn.init.normal_(block.attn.c_proj.weight, 0, residual_std)
                nn.init.normal_(block.mlp.c_fc.weight, 0, 0.02)
                nn.init.normal_(block.mlp.c_proj.weight, 0, residual_std)
            nn.init.normal_(self.lm_head.weight, 0, 0.02)

    def forward(self, idx):
        """Token ids [B, T] -> final hidden states [B, T, n_embd] (the loss applies the LM head)."""
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(idx.size(1)))
        for block in self.transformer.h:
            x = block(x)
        return self.transformer.ln_f(x)


def lm_loss(hidden, weight, target):
    return F.cross_entropy(F.linear(hidden.reshape(-1, hidden.size(-1)), weight), target.reshape(-1))


def load_corpus(path=CORPUS):
    text = open(path, encoding="utf-8").read()
    vocab = "".join(sorted(set(text)))
    index = {c: i for i, c in enumerate(vocab)}
    data = torch.tensor([index[c] for c in text], dtype=torch.int64)
    split = int(len(data) * 0.9)
    return vocab, data[:split], data[split:]


def get_batch(split, batch, block, generator):
    starts = torch.randint(0, split.size(0) - block, (batch,), generator=generator).tolist()
    x = torch.stack([split[s:s + block] for s in starts])
    y = torch.stack([split[s + 1:s + 1 + block] for s in starts])
    return x, y


def learning_rate(step, args):
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    progress = 1.0 if args.steps - args.warmup <= 1 else (step - args.warmup) / (args.steps - args.warmup - 1)
    min_lr = args.lr * 0.1
    return min_lr + 0.5 * (1 + math.cos(math.pi * min(1.0, progress))) * (args.lr - min_lr)


def add_training_arguments(p, steps, threads):
    """TrainGpt's model, batch and optimizer flags, with their defaults."""
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--embd", type=int, default=128)
    p.add_argument("--block", type=int, default=128)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--steps", type=int, default=steps)
    p.add_argument("--lr", type=float, default=2e-3)
    p.add_argument("--warmup", type=int, default=30)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--grad-clip", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1337)
    p.add_argument("--threads", type=int, default=threads)


def adamw(model, args):
    """TrainGpt's AdamW: weight decay on the matrices only."""
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    no_decay = [p for n, p in model.named_parameters() if p.dim() < 2]
    return torch.optim.AdamW([{"params": decay}, {"params": no_decay, "weight_decay": 0.0}], lr=args.lr,
                             betas=(0.9, 0.95), weight_decay=args.weight_decay)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_training_arguments(p, steps=50, threads=2)
    p.add_argument("--compile", choices=["off", "eager", "aot_eager", "inductor"], default="off",
                   help="the model's calls through torch.compile with this backend, as TrainGpt's --compile")
    args = p.parse_args()

    torch.set_num_threads(args.threads)
    vocab, train, _ = load_corpus()
    torch.manual_seed(args.seed)
    model = GPT(GPTConfig(len(vocab), args.block, args.layers, args.heads, args.embd))
    data = torch.Generator().manual_seed(args.seed + 1)
    call = model if args.compile == "off" else torch.compile(model, backend=args.compile)
    opt = adamw(model, args)
    tokens = args.batch * args.block
    warm = min(10, args.steps // 5)  # the same warm-up rule as TrainGpt's throughput figure
    start = time.perf_counter()
    for step in range(args.steps):
        if step == warm:
            start = time.perf_counter()
        for g in opt.param_groups:
            g["lr"] = learning_rate(step, args)
        x, y = get_batch(train, args.batch, args.block, data)
        if step == 0:
            first = time.perf_counter()
        loss = lm_loss(call(x), model.lm_head.weight, y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        if args.grad_clip > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.grad_clip)
        opt.step()
        print(f"step {step + 1} loss {loss.item():.4f}", file=sys.stderr, flush=True)
        if step == 0:
            first_step = time.perf_counter() - first
    seconds = time.perf_counter() - start
    print(f"bench=train_gpt value={tokens * (args.steps - warm) / seconds:.1f} unit=tok/s steps={args.steps} warmup={warm} "
          f"tokens_per_step={tokens} torch={torch.__version__} threads={torch.get_num_threads()} "
          f"compile={args.compile} first_step_s={first_step:.2f}", flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""PyTorch side of ConvTransformerBench (benchmarks/src/main/java/org/jtorch/benchmarks/ConvTransformerBench.java):

- conv2d forward + backward: nn.Conv2d(3, 64, 3, padding=1) on a [32, 3, 64, 64] input that requires grad, sum().backward();
- the transformer-block step of shared/peers/torch_bench.py (B 8, T 128, D 256, 4 heads, V 8192, causal, GELU MLP 4x,
  LM head + cross entropy, SGD lr 0.01), once as written there (functional ops) and once with
  nn.TransformerEncoderLayer(norm_first=True, activation="gelu", batch_first=True, dropout=0) + a final LayerNorm,
  which is how the JTorch side is written.

Run with Debian's PyTorch (apt-get install -y python3-torch):
    OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/torch_conv_transformer.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

import peer_timing

torch.set_num_threads(2)


def measure(name, fn, warmup=3, runs=20):
    peer_timing.measure(name, fn, warmup, runs)


torch.manual_seed(0)
conv = nn.Conv2d(3, 64, 3, padding=1)
image = torch.randn(32, 3, 64, 64, requires_grad=True)


def conv_step():
    y = conv(image)
    y.sum().backward()
    conv.zero_grad(set_to_none=True)
    image.grad = None


measure("ConvTransformerBench.conv2dForwardBackward", conv_step)

V, D, T, B, H = 8192, 256, 128, 8, 4


def param(t):
    return t.detach().requires_grad_(True)


tok, tgt = torch.randint(V, (B, T)), torch.randint(V, (B * T,))
emb, pos, wout = param(torch.randn(V, D) * 0.02), param(torch.randn(T, D) * 0.02), param(torch.randn(V, D) * 0.02)
block = nn.TransformerEncoderLayer(D, H, 4 * D, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
lnf = nn.LayerNorm(D)
mask = torch.triu(torch.full((T, T), float("-inf")), 1)
opt = torch.optim.SGD([emb, pos] + list(block.parameters()) + list(lnf.parameters()) + [wout], lr=0.01)


def block_step():
    opt.zero_grad(set_to_none=True)
    x = F.embedding(tok, emb) + pos
    h = lnf(block(x, src_mask=mask))
    F.cross_entropy(F.linear(h, wout).view(B * T, V), tgt).backward()
    opt.step()


measure("ConvTransformerBench.transformerBlockStep", block_step)

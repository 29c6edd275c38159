"""Peer of PerSampleGradBench: per-sample gradients of a 784-256-10 MLP (float32, cross entropy), batch 64.

torch.func's recipe vmap(grad(loss), in_dims=(None, 0, 0)) over functional_call, and the loop of 64
single-sample backward passes. Uses torch.func when present (2.x), else functorch + torch.nn.utils.stateless (1.13).
Run: OMP_WAIT_POLICY=passive python benchmarks/peers/torch_per_sample_grad.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import torch
import torch.nn.functional as F

import peer_timing

try:
    from torch.func import functional_call, grad, vmap
except ImportError:  # PyTorch 1.13
    from functorch import grad, vmap
    from torch.nn.utils.stateless import functional_call

torch.set_num_threads(2)
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
params = {k: v.detach() for k, v in model.named_parameters()}
xs = torch.randn(64, 784)
ys = torch.randint(0, 10, (64,))


def loss(p, x, y):
    return F.cross_entropy(functional_call(model, p, (x.unsqueeze(0),)), y.unsqueeze(0))


per_sample = vmap(grad(loss), in_dims=(None, 0, 0))


def loop():
    out = []
    for i in range(64):
        l = F.cross_entropy(model(xs[i:i + 1]), ys[i:i + 1])
        out.append(torch.autograd.grad(l, list(model.parameters())))
    return [torch.stack(g) for g in zip(*out)]


peer_timing.measure("vmapGrad", lambda: per_sample(params, xs, ys), warmup=5, runs=30)
peer_timing.measure("loop", loop, warmup=5, runs=30)

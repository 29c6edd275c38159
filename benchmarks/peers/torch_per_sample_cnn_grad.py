"""Peer of PerSampleCnnGradBench: per-sample gradients of a small CNN (float32, cross entropy), batch 64 of [1, 28, 28].

maxPool: conv(1->8, 3) relu maxpool(2) conv(8->16, 3) relu maxpool(2) linear(400->10); stridedConv: each pooling
replaced by a stride-2 convolution (linear 576->10). torch.func's recipe vmap(grad(loss), in_dims=(None, 0, 0)) over
functional_call, and the loop of 64 single-sample backward passes (stacked).
Run: OMP_WAIT_POLICY=passive python benchmarks/peers/torch_per_sample_cnn_grad.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import peer_timing

from torch.func import functional_call, grad, vmap

torch.set_num_threads(2)


def cnn(downsample):
    if downsample == "maxPool":
        return nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(8, 16, 3), nn.ReLU(),
                             nn.MaxPool2d(2), nn.Flatten(), nn.Linear(16 * 5 * 5, 10))
    return nn.Sequential(nn.Conv2d(1, 8, 3, stride=2), nn.ReLU(), nn.Conv2d(8, 16, 3, stride=2), nn.ReLU(),
                         nn.Flatten(), nn.Linear(16 * 6 * 6, 10))


for downsample in ("maxPool", "stridedConv"):
    torch.manual_seed(0)
    model = cnn(downsample)
    params = {k: v.detach() for k, v in model.named_parameters()}
    xs = torch.randn(64, 1, 28, 28)
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

    peer_timing.measure(f"vmapGrad:downsample={downsample}", lambda: per_sample(params, xs, ys), warmup=5, runs=30)
    peer_timing.measure(f"loop:downsample={downsample}", loop, warmup=5, runs=30)

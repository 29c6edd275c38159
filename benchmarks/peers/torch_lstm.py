#!/usr/bin/python3
"""PyTorch side of LstmBench (benchmarks/src/main/java/org/jtorch/benchmarks/LstmBench.java): nn.LSTM float32, input
and hidden 256, batch 32, one layer over 64 steps ("1x64") and two layers over 128 steps ("2x128"); forward alone
(under no_grad) and forward + backward of (output * g).sum() with the gradients reset after each call.

    OMP_WAIT_POLICY=passive python benchmarks/peers/torch_lstm.py
Prints one line per benchmark: bench=NAME value=MEDIAN unit=ms min=.. max=..
"""
import torch

import peer_timing

torch.set_num_threads(2)
for layers, steps in ((1, 64), (2, 128)):
    torch.manual_seed(0)
    lstm = torch.nn.LSTM(256, 256, num_layers=layers)
    x = torch.randn(steps, 32, 256, requires_grad=True)
    g = torch.randn(steps, 32, 256)

    def forward():
        with torch.no_grad():
            lstm(x)

    def forward_backward():
        (lstm(x)[0] * g).sum().backward()
        x.grad = None
        lstm.zero_grad(set_to_none=True)

    name = "lstm_%dx%d" % (layers, steps)
    peer_timing.measure(name + "_forward", forward, warmup=5, runs=30)
    peer_timing.measure(name + "_forward_backward", forward_backward, warmup=5, runs=30)

"""Writes ../resources/golden/grad_scaler.json: a short training run with torch.amp.GradScaler("cpu") and what the
scaler and the parameters look like after every step: the scale (growth after growth_interval good steps, backoff and
a skipped step after an inf gradient), the gradients unscale_ leaves, the parameters, and state_dict() at the end.
Once with SGD (the scaler unscales and skips itself) and once with each fused optimizer (Adam, AdamW, SGD, Adagrad
with fused=True: the scaler hands grad_scale and found_inf to the optimizer's kernel).

    python jtorch/src/test/python/make_golden_grad_scaler.py

GradScalerGoldenTest runs the same loop in Java. Inputs are fixed, so re-running gives a byte-identical file.
"""
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "golden", "grad_scaler.json")
STEPS = 6
INF_STEP = 2
UNSCALE_STEP = 4


def t(shape, lo=-1.0, hi=1.0, phase=0):
    n = 1
    for s in shape:
        n *= s
    v = torch.tensor([lo + (hi - lo) * (((i + phase) * 0.618034) % 1.0) for i in range(n)], dtype=torch.float64)
    return v.reshape(shape).to(torch.float32)


def make_optimizer(name, params):
    if name == "sgd":
        return torch.optim.SGD(params, lr=0.1, momentum=0.9)
    if name == "sgd_fused":
        return torch.optim.SGD(params, lr=0.1, momentum=0.9, fused=True)
    if name == "adam_fused":
        return torch.optim.Adam(params, lr=0.01, fused=True)
    if name == "adamw_fused":
        return torch.optim.AdamW(params, lr=0.01, fused=True)
    if name == "adagrad_fused":
        return torch.optim.Adagrad(params, lr=0.1, fused=True)
    raise ValueError(name)


def run(name):
    w = t((3, 4), phase=1).requires_grad_()
    b = t((3,), phase=2).requires_grad_()
    opt = make_optimizer(name, [w, b])
    scaler = torch.amp.GradScaler("cpu", init_scale=2.0 ** 4, growth_factor=2.0, backoff_factor=0.5,
                                  growth_interval=2)
    steps = []
    for step in range(STEPS):
        opt.zero_grad()
        x, y = t((5, 4), phase=3 + step), t((5, 3), phase=7 + step)
        loss = F.mse_loss(F.linear(x, w, b), y)
        if step == INF_STEP:
            loss = loss * float("inf")
        scaler.scale(loss).backward()
        record = {}
        if step == UNSCALE_STEP:
            scaler.unscale_(opt)
            record["unscaled_grad"] = enc(w.grad)
        scaler.step(opt)
        scaler.update()
        record.update({"scale": scaler.get_scale(), "w": enc(w), "b": enc(b)})
        steps.append(record)
    sd = scaler.state_dict()
    return {"id": name, "op": "train", "args": [], "kwargs": {"optimizer": name, "steps": STEPS,
                                                             "inf_step": INF_STEP, "unscale_step": UNSCALE_STEP},
            "out": {"steps": steps, "state_dict": {k: float(v) for k, v in sd.items()}}}


def main():
    torch.set_num_threads(1)
    cases = [run(n) for n in ("sgd", "sgd_fused", "adam_fused", "adamw_fused", "adagrad_fused")]
    write(OUT, cases, "make_golden_grad_scaler.py")


if __name__ == "__main__":
    main()

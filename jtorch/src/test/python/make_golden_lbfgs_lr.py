#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's LBFGS optimizer and learning-rate schedulers.

What it makes
    jtorch/src/test/resources/golden/lbfgs_lr.json: trajectories computed by
    real PyTorch of
      - torch.optim.LBFGS on a generalised Rosenbrock function, with and
        without line_search_fn="strong_wolfe", several history sizes,
        max_iter/max_eval/tolerance settings, float64 and float32, a
        parameter whose gradient stays None, and several step() calls per
        case (state carried across calls);
      - every scheduler of org.jtorch.optim.lr (StepLR, MultiStepLR,
        ExponentialLR, CosineAnnealingLR, CosineAnnealingWarmRestarts,
        LinearLR, ConstantLR, LambdaLR, OneCycleLR, SequentialLR,
        ReduceLROnPlateau): the learning rate of every param group after
        construction and after each step (OneCycleLR also the momentum).
    LbfgsTest and LrSchedulerTest read the committed JSON, so CI needs no
    Python.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_lbfgs_lr.py

Format
    The container and encoders of make_golden_core.py (see its header).
    LBFGS case: op "lbfgs",
        args   = [problem, [initial parameter tensors], {"scalar": steps}]
        kwargs = the LBFGS constructor's keyword arguments
        out    = one record per step() call:
                 {"loss": float returned by step(),
                  "params": [parameter tensors after the call],
                  "func_evals": int, "n_iter": int,   (state of the first param)
                  "t": float, "prev_loss": float}
        problem "rosenbrock": x = cat of the flattened parameters,
            f(x) = sum_i 100 (x[i+1] - x[i]^2)^2 + (1 - x[i])^2;
        problem "rosenbrock+unused": the same over every parameter but the
            last, which the loss does not use (its grad stays None).
        The closure zeroes the grads (set_to_none), evaluates f and calls
        backward().
    Scheduler case: op "lr_scheduler",
        args   = [scheduler class name, [initial lr of each param group],
                  steps], where steps is {"scalar": n} (n plain step() calls),
                  a list of epochs (step(epoch) calls, CosineAnnealingWarmRestarts)
                  or a list of metrics (ReduceLROnPlateau.step(metric))
        kwargs = the scheduler's keyword arguments; for LambdaLR "lr_lambda"
                 names a function of LAMBDAS below (or a list of names, one per
                 group); for SequentialLR "schedulers" is a list of
                 [class name, kwargs] pairs; "momentum" (if present) is the SGD
                 momentum of every group
        out    = {"lr": [[lr of each group] after construction, after step 1, ...],
                  ["momentum": same shape, for OneCycleLR]}
    The optimizer under every scheduler is SGD with one parameter per group.

Determinism
    Fixed inputs; one intra-op thread; byte-identical output between runs.

2.15 changes newer than this reference (PyTorch 2.13)
    LBFGS: maximize=True and the empty-group rule (2.14) are tested against
    hand-derived values in LbfgsTest; the recorded trajectories do not depend
    on them.  Schedulers: for the default last_epoch=-1 the 2.13 and 2.15
    formulas give the same sequences (2.15 only changes how a scheduler
    resumes from a checkpoint, via its _is_initial flag, and SequentialLR's
    milestone step no longer warns).
"""

import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_golden_core as g  # noqa: E402  (sets seeds, thread count, encoders)
import torch  # noqa: E402
from torch.optim import lr_scheduler as lrs  # noqa: E402

OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "lbfgs_lr.json"))

f32, f64 = torch.float32, torch.float64
CASES = []
IDS = set()


def enc_kwarg(v):
    """make_golden_core's kwarg encoder, plus nested dicts (SequentialLR's sub-scheduler kwargs)."""
    if isinstance(v, dict):
        return {k: enc_kwarg(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [enc_kwarg(x) for x in v]
    return g.enc_kwarg(v)


def add(cid, op, args, kwargs, out):
    if cid in IDS:
        raise ValueError("duplicate id " + cid)
    IDS.add(cid)
    CASES.append({"id": cid, "op": op, "args": args, "kwargs": enc_kwarg(kwargs), "out": out})


# ---------------------------------------------------------------- LBFGS

def rosenbrock(params):
    x = torch.cat([p.reshape(-1) for p in params])
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def lbfgs_case(cid, problem, init, steps, **kwargs):
    params = [t.clone().requires_grad_(True) for t in init]
    used = params[:-1] if problem == "rosenbrock+unused" else params
    opt = torch.optim.LBFGS(params, **kwargs)

    def closure():
        opt.zero_grad(set_to_none=True)
        loss = rosenbrock(used)
        loss.backward()
        return loss

    out = []
    for _ in range(steps):
        loss = opt.step(closure)
        st = opt.state[params[0]]
        out.append({"loss": g.enc_float(loss), "params": [g.enc_tensor(p) for p in params],
                    "func_evals": st["func_evals"], "n_iter": st["n_iter"],
                    "t": g.enc_float(st["t"]), "prev_loss": g.enc_float(st["prev_loss"])})
    add(cid, "lbfgs", [problem, [g.enc_tensor(t) for t in init], {"scalar": steps}], kwargs, out)


def lbfgs_block():
    def start(dt):
        return [torch.tensor([-1.2, 1.0, 0.5], dtype=dt), torch.tensor([[0.8], [-0.3]], dtype=dt)]

    lbfgs_case("lbfgs/float64/none/defaults", "rosenbrock", start(f64), 4)
    lbfgs_case("lbfgs/float64/none/lr0.5-h3-iter7", "rosenbrock", start(f64), 5, lr=0.5, history_size=3, max_iter=7)
    # history 1 is ill-conditioned: one ulp on the loss moves step 3 by ~5e-7, so only 2 steps are kept
    lbfgs_case("lbfgs/float64/none/h1", "rosenbrock", start(f64), 2, history_size=1)
    lbfgs_case("lbfgs/float64/none/iter1", "rosenbrock", start(f64), 6, max_iter=1)
    lbfgs_case("lbfgs/float64/wolfe/defaults", "rosenbrock", start(f64), 4, line_search_fn="strong_wolfe")
    lbfgs_case("lbfgs/float64/wolfe/h2-iter10-eval12-tolchange", "rosenbrock", start(f64), 4,
               line_search_fn="strong_wolfe", history_size=2, max_iter=10, max_eval=12, tolerance_change=1e-5)
    lbfgs_case("lbfgs/float64/wolfe/lr0.3", "rosenbrock", start(f64), 3, line_search_fn="strong_wolfe", lr=0.3)
    lbfgs_case("lbfgs/float64/wolfe/2d-classic", "rosenbrock", [torch.tensor([-1.5, 2.0], dtype=f64)], 3,
               line_search_fn="strong_wolfe")
    lbfgs_case("lbfgs/float64/none/tolgrad-large", "rosenbrock", start(f64), 2, tolerance_grad=5.0)
    lbfgs_case("lbfgs/float64/wolfe/unused-param", "rosenbrock+unused",
               start(f64) + [torch.tensor([2.0, -1.0], dtype=f64)], 2, line_search_fn="strong_wolfe")
    lbfgs_case("lbfgs/float32/none/defaults", "rosenbrock", start(f32), 1, max_iter=5)
    lbfgs_case("lbfgs/float32/wolfe/defaults", "rosenbrock", start(f32), 1, line_search_fn="strong_wolfe", max_iter=5)


# ---------------------------------------------------------------- schedulers

LAMBDAS = {
    "pow095": lambda e: 0.95 ** e,
    "inv1p": lambda e: 1.0 / (e + 1),
    "warmup3": lambda e: min(1.0, (e + 1) / 3.0),
}


def make_scheduler(opt, name, kwargs):
    kw = dict(kwargs)
    kw.pop("momentum", None)
    if name == "LambdaLR":
        f = kw["lr_lambda"]
        kw["lr_lambda"] = [LAMBDAS[n] for n in f] if isinstance(f, list) else LAMBDAS[f]
    if name == "SequentialLR":
        kw["schedulers"] = [make_scheduler(opt, n, k) for n, k in kw["schedulers"]]
    return getattr(lrs, name)(opt, **kw)


def last_lr(sched, opt):
    # read the group lrs for ReduceLROnPlateau, which is what its get_last_lr() returns in 2.x
    lrs_now = opt.param_groups if isinstance(sched, lrs.ReduceLROnPlateau) else None
    values = [gr["lr"] for gr in lrs_now] if lrs_now is not None else sched.get_last_lr()
    return [g.enc_float(x) for x in values]


def sched_case(cid, name, lrs_init, steps, **kwargs):
    params = [torch.zeros(1, requires_grad=True) for _ in lrs_init]
    momentum = kwargs.get("momentum", 0.0)
    opt = torch.optim.SGD([{"params": [p], "lr": lr} for p, lr in zip(params, lrs_init)], lr=0.0,
                          momentum=momentum)
    sched = make_scheduler(opt, name, kwargs)
    track_momentum = name == "OneCycleLR" and kwargs.get("cycle_momentum", True)
    lr_seq = [last_lr(sched, opt)]
    mom_seq = [[g.enc_float(gr["momentum"]) for gr in opt.param_groups]]
    if isinstance(steps, int):
        calls = [None] * steps
        steps_json = {"scalar": steps}
    else:
        calls = list(steps)
        steps_json = [g.enc_float(s) if isinstance(s, float) else s for s in steps]
    for c in calls:
        opt.step()
        if c is None:
            sched.step()
        else:
            sched.step(c)
        lr_seq.append(last_lr(sched, opt))
        mom_seq.append([g.enc_float(gr["momentum"]) for gr in opt.param_groups])
    out = {"lr": lr_seq}
    if track_momentum:
        out["momentum"] = mom_seq
    add(cid, "lr_scheduler", [name, [g.enc_float(x) for x in lrs_init], steps_json], kwargs, out)


def scheduler_block():
    two = [0.1, 0.05]
    sched_case("lr/StepLR/size3", "StepLR", two, 10, step_size=3, gamma=0.5)
    sched_case("lr/StepLR/default-gamma", "StepLR", [1.0], 7, step_size=2)
    sched_case("lr/MultiStepLR/dup-milestone", "MultiStepLR", two, 9, milestones=[2, 5, 5], gamma=0.1)
    sched_case("lr/MultiStepLR/unsorted", "MultiStepLR", [1.0], 8, milestones=[6, 3], gamma=0.5)
    sched_case("lr/ExponentialLR/0.9", "ExponentialLR", two, 8, gamma=0.9)
    sched_case("lr/CosineAnnealingLR/tmax5-etamin", "CosineAnnealingLR", two, 23, T_max=5, eta_min=0.01)
    sched_case("lr/CosineAnnealingLR/tmax10", "CosineAnnealingLR", [1.0], 12, T_max=10)
    sched_case("lr/CosineAnnealingWarmRestarts/t3-mult2", "CosineAnnealingWarmRestarts", two, 25,
               T_0=3, T_mult=2, eta_min=0.001)
    sched_case("lr/CosineAnnealingWarmRestarts/t4", "CosineAnnealingWarmRestarts", [1.0], 10, T_0=4)
    sched_case("lr/CosineAnnealingWarmRestarts/epochs-mult1", "CosineAnnealingWarmRestarts", [1.0],
               [0.5, 1.0, 2.25, 5.0, 7.5, 3.0], T_0=4)
    sched_case("lr/CosineAnnealingWarmRestarts/epochs-mult2", "CosineAnnealingWarmRestarts", [1.0],
               [1.5, 3.0, 4.5, 10.0, 21.0, 2.0], T_0=3, T_mult=2, eta_min=0.1)
    sched_case("lr/LinearLR/warmup", "LinearLR", two, 7, start_factor=0.25, total_iters=4)
    sched_case("lr/LinearLR/decay", "LinearLR", [1.0], 6, start_factor=1.0, end_factor=0.1, total_iters=3)
    sched_case("lr/LinearLR/defaults", "LinearLR", [0.5], 7)
    sched_case("lr/ConstantLR/half-3", "ConstantLR", two, 6, factor=0.5, total_iters=3)
    sched_case("lr/ConstantLR/defaults", "ConstantLR", [0.3], 7)
    sched_case("lr/LambdaLR/pow", "LambdaLR", two, 6, lr_lambda="pow095")
    sched_case("lr/LambdaLR/per-group", "LambdaLR", two, 6, lr_lambda=["inv1p", "warmup3"])
    sched_case("lr/OneCycleLR/cos", "OneCycleLR", two, 20, max_lr=1.0, total_steps=21, momentum=0.9)
    sched_case("lr/OneCycleLR/linear-per-group", "OneCycleLR", two, 11, max_lr=[1.0, 0.5], total_steps=12,
               anneal_strategy="linear", pct_start=0.25, momentum=0.9)
    sched_case("lr/OneCycleLR/three-phase", "OneCycleLR", [0.1], 15, max_lr=2.0, epochs=4, steps_per_epoch=4,
               three_phase=True, div_factor=10.0, final_div_factor=100.0, momentum=0.9)
    sched_case("lr/OneCycleLR/no-momentum", "OneCycleLR", [0.1], 9, max_lr=0.4, total_steps=10,
               cycle_momentum=False)
    sched_case("lr/SequentialLR/constant-exp", "SequentialLR", two, 8,
               schedulers=[["ConstantLR", {"factor": 0.1, "total_iters": 2}], ["ExponentialLR", {"gamma": 0.9}]],
               milestones=[2])
    sched_case("lr/SequentialLR/warmup-cosine", "SequentialLR", [1.0], 12,
               schedulers=[["LinearLR", {"start_factor": 0.1, "total_iters": 3}],
                           ["CosineAnnealingLR", {"T_max": 6, "eta_min": 0.05}]],
               milestones=[4])
    sched_case("lr/SequentialLR/three", "SequentialLR", [1.0], 10,
               schedulers=[["ConstantLR", {"factor": 0.5, "total_iters": 5}], ["StepLR", {"step_size": 2}],
                           ["ExponentialLR", {"gamma": 0.5}]],
               milestones=[2, 6])
    metrics = [1.0, 0.9, 0.95, 0.96, 0.97, 0.9, 0.89, 0.9, 0.91, 0.92, 0.93, 0.94, 0.95, 0.5]
    sched_case("lr/ReduceLROnPlateau/min-rel", "ReduceLROnPlateau", two, metrics, patience=2, factor=0.5)
    sched_case("lr/ReduceLROnPlateau/min-abs-cooldown", "ReduceLROnPlateau", two, metrics, patience=1,
               factor=0.5, threshold=0.05, threshold_mode="abs", cooldown=2, min_lr=[0.02, 0.0])
    sched_case("lr/ReduceLROnPlateau/max-rel-minlr", "ReduceLROnPlateau", [1.0], [-m for m in metrics],
               mode="max", patience=0, factor=0.3, min_lr=0.05)
    sched_case("lr/ReduceLROnPlateau/max-abs-eps", "ReduceLROnPlateau", [1e-7], [float(i % 3) for i in range(8)],
               mode="max", threshold_mode="abs", patience=0, factor=0.5, eps=1e-7)


# ================================================================ main

def write(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True)
             for c in CASES]
    head = '{"cases":[\n'
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_lbfgs_lr.py"),
                                                 json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(head + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)
    return os.path.getsize(path)


def main():
    torch.set_num_threads(1)
    lbfgs_block()
    scheduler_block()
    size = write(OUT)
    sys.stderr.write("wrote %s: %d cases, %d bytes\n" % (os.path.relpath(OUT), len(CASES), size))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's optimizers (org.jtorch.optim).

What it makes
    jtorch/src/test/resources/golden/optim.json: parameter trajectories of real
    PyTorch optimizers on a fixed quadratic loss, for every optimizer and
    option combination PyTorch 2.13 has, plus the final optimizer state.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_optim.py
    with a Python whose `import torch` is PyTorch 2.13 (CPU wheel).

The problem
    Two parameters, p1 (shape [3]) and p2 (shape [2, 2]), and
        loss = sum((A1 @ p1 - b1)^2) + sum((p2 @ B - C)^2)
    with fixed A1 [4, 3], b1 [4], B [2, 3], C [2, 3] (all in the case args).
    Each step: zero_grad(), loss.backward(), step().  STEPS steps are run.

File format (the conventions of make_golden_core.py)
    {"cases": [case, ...], "generator": "make_golden_optim.py", "torch": "<version>"}
    case = {"id": "SGD/momentum/float64", "op": "SGD",
            "args": [p1, p2, A1, b1, B, C]            (tensors T, initial values),
            "kwargs": {constructor keyword arguments; betas as a list},
            "out": {"trajectory": [[p1, p2] after step 1, ..., after step STEPS],
                    "state": [{"index": 0, "keys": [...], "values": {key: T}}, ...]}}
    T = {"dtype": ..., "shape": [...], "data": [row-major values]}; float
    values are written exactly (repr of the value widened to float64).
    The state keys are in PyTorch's insertion order; "step" is a 0-d tensor.

Determinism
    Every value is fixed in this file; one intra-op thread; keys sorted.

Reference
    The for-loop implementation of PyTorch 2.13; the script checks that its
    foreach implementation (and fused, where 2.13 has it on CPU) gives the
    same trajectory, so the Java test runs every JTorch implementation
    against one reference.

2.15 changes newer than this reference
    None of the options recorded here changed between 2.13 and 2.15.  The
    2.14/2.15 additions (LBFGS maximize, Muon) have their own fixtures
    (make_golden_lbfgs_lr.py) or hand-written references in the Java tests.
"""
import json
import sys

import torch

torch.set_num_threads(1)
STEPS = 12


def enc(v):
    if v != v:
        return "nan"
    if v in (float("inf"), float("-inf")):
        return "inf" if v > 0 else "-inf"
    return float(v)


def tensor(t):
    t = t.detach()
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
            "data": [enc(x) for x in t.reshape(-1).double().tolist()]}


def problem(dtype):
    p1 = torch.tensor([0.5, -1.0, 2.0], dtype=dtype)
    p2 = torch.tensor([[1.0, -0.5], [0.25, 1.5]], dtype=dtype)
    a1 = torch.tensor([[1.0, 0.5, -0.3], [0.2, -1.0, 0.4], [0.6, 0.1, 0.9], [-0.7, 0.3, 0.2]], dtype=dtype)
    b1 = torch.tensor([0.3, -0.2, 1.0, 0.5], dtype=dtype)
    bm = torch.tensor([[0.9, -0.4, 0.3], [0.1, 0.8, -0.6]], dtype=dtype)
    cm = torch.tensor([[0.5, 0.2, -1.0], [1.2, -0.3, 0.4]], dtype=dtype)
    return p1, p2, a1, b1, bm, cm


def run(name, kwargs, dtype, foreach, fused=None):
    p1, p2, a1, b1, bm, cm = problem(dtype)
    params = [p1.clone().requires_grad_(True), p2.clone().requires_grad_(True)]
    kw = dict(kwargs)
    if "betas" in kw:
        kw["betas"] = tuple(kw["betas"])
    if fused:
        kw["fused"] = True
    opt = getattr(torch.optim, name)(params, foreach=foreach, **kw)
    traj = []
    for _ in range(STEPS):
        opt.zero_grad()
        loss = ((a1 @ params[0] - b1) ** 2).sum() + ((params[1] @ bm - cm) ** 2).sum()
        loss.backward()
        opt.step()
        traj.append([p.detach().clone() for p in params])
    return (p1, p2, a1, b1, bm, cm), traj, opt.state_dict()


CONFIGS = {
    "SGD": [("plain", {"lr": 0.02}),
            ("momentum", {"lr": 0.02, "momentum": 0.9}),
            ("dampening", {"lr": 0.02, "momentum": 0.9, "dampening": 0.1}),
            ("nesterov", {"lr": 0.02, "momentum": 0.9, "nesterov": True}),
            ("weight_decay", {"lr": 0.02, "momentum": 0.5, "weight_decay": 0.1}),
            ("maximize", {"lr": 0.01, "momentum": 0.5, "weight_decay": 0.1, "maximize": True})],
    "Adam": [("plain", {"lr": 0.05}),
             ("amsgrad", {"lr": 0.05, "amsgrad": True}),
             ("weight_decay", {"lr": 0.05, "weight_decay": 0.1}),
             ("betas_eps", {"lr": 0.05, "betas": [0.8, 0.99], "eps": 1e-3}),
             ("maximize", {"lr": 0.05, "maximize": True}),
             ("all", {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1, "maximize": True}),
             ("decoupled", {"lr": 0.05, "weight_decay": 0.3, "decoupled_weight_decay": True})],
    "AdamW": [("plain", {"lr": 0.05}),
              ("amsgrad", {"lr": 0.05, "amsgrad": True}),
              ("weight_decay", {"lr": 0.05, "weight_decay": 0.3}),
              ("maximize", {"lr": 0.05, "maximize": True, "amsgrad": True})],
    "Adagrad": [("plain", {"lr": 0.1}),
                ("lr_decay", {"lr": 0.1, "lr_decay": 0.1}),
                ("weight_decay", {"lr": 0.1, "weight_decay": 0.1}),
                ("initial_accumulator", {"lr": 0.1, "initial_accumulator_value": 0.5, "eps": 1e-5}),
                ("maximize", {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1, "maximize": True})],
    "RMSprop": [("plain", {"lr": 0.01}),
                ("alpha", {"lr": 0.01, "alpha": 0.9, "eps": 1e-4}),
                ("momentum", {"lr": 0.01, "momentum": 0.5}),
                ("centered", {"lr": 0.01, "centered": True}),
                ("centered_momentum", {"lr": 0.01, "centered": True, "momentum": 0.5, "weight_decay": 0.1}),
                ("maximize", {"lr": 0.01, "momentum": 0.5, "maximize": True})],
    "Adamax": [("plain", {"lr": 0.05}),
               ("weight_decay", {"lr": 0.05, "weight_decay": 0.1}),
               ("maximize", {"lr": 0.05, "betas": [0.8, 0.99], "maximize": True})],
    "NAdam": [("plain", {"lr": 0.05}),
              ("weight_decay", {"lr": 0.05, "weight_decay": 0.1}),
              ("momentum_decay", {"lr": 0.05, "momentum_decay": 0.01, "betas": [0.8, 0.99]}),
              ("decoupled", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
              ("maximize", {"lr": 0.05, "weight_decay": 0.1, "maximize": True})],
    "RAdam": [("plain", {"lr": 0.05}),
              ("weight_decay", {"lr": 0.05, "weight_decay": 0.1}),
              ("betas", {"lr": 0.05, "betas": [0.8, 0.9], "eps": 1e-6}),
              ("decoupled", {"lr": 0.05, "weight_decay": 0.1, "decoupled_weight_decay": True}),
              ("maximize", {"lr": 0.05, "weight_decay": 0.1, "maximize": True})],
}


FUSED_ON_CPU = ("SGD", "Adam", "AdamW", "Adagrad")


def same_trajectory(a, b, dtype):
    tol = 1e-9 if dtype == torch.float64 else 1e-5
    return all(torch.allclose(x, y, rtol=tol, atol=tol) for sa, sb in zip(a, b) for x, y in zip(sa, sb))


def main():
    cases = []
    for name, configs in CONFIGS.items():
        for label, kwargs in configs:
            for dtype in (torch.float64, torch.float32):
                inputs, traj, sd = run(name, kwargs, dtype, foreach=False)
                _, traj_fe, _ = run(name, kwargs, dtype, foreach=True)
                if not same_trajectory(traj, traj_fe, dtype):
                    sys.exit(f"{name}/{label}: foreach differs from for-loop")
                if name in FUSED_ON_CPU:
                    _, traj_fused, _ = run(name, kwargs, dtype, foreach=None, fused=True)
                    if not same_trajectory(traj, traj_fused, dtype):
                        sys.exit(f"{name}/{label}: fused differs from for-loop")
                state = []
                for idx, st in sd["state"].items():
                    st = {k: v for k, v in st.items() if v is not None}
                    if st:
                        state.append({"index": idx, "keys": list(st.keys()),
                                      "values": {k: tensor(v if torch.is_tensor(v) else torch.tensor(v)) for k, v in st.items()}})
                cases.append({
                    "id": f"{name}/{label}/{str(dtype).replace('torch.', '')}",
                    "op": name,
                    "args": [tensor(t) for t in inputs],
                    "kwargs": kwargs,
                    "out": {"trajectory": [[tensor(p) for p in step] for step in traj], "state": state},
                })
    with open("jtorch/src/test/resources/golden/optim.json", "w") as f:
        f.write('{"cases":[\n')
        f.write(",\n".join(json.dumps(c, sort_keys=True, separators=(",", ":")) for c in cases))
        f.write('\n],"generator":"make_golden_optim.py","torch":' + json.dumps(torch.__version__) + "}\n")
    print(f"{len(cases)} cases", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's nn modules.

What it makes
    jtorch/src/test/resources/golden/nn.json: state dicts, forward outputs and printed module trees of small
    nn modules, computed by real PyTorch, so the Java tests (org.jtorch.nn.ModuleGoldenTest) can load PyTorch's
    state dicts into JTorch modules and compare outputs and reprs.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_nn.py

Format: the same as make_golden_core.py's header describes.
    case = {"id": "linear", "op": "module", "args": [input], "kwargs": {"module": "<name>"},
            "out": {"state": {key: T, ...}, "output": T, "repr": "<repr(module)>"}}
    "init/<name>" cases hold the state dict a freshly built module gets right after torch.manual_seed(seed)
    (kwargs.seed), to check that JTorch draws its initial values like PyTorch.
Deterministic: fixed seeds, one thread, sorted keys.
"""
import json
import os

import torch
import torch.nn as nn

torch.set_num_threads(1)


def t(x):
    x = x.detach()
    return {"dtype": str(x.dtype).replace("torch.", ""), "shape": list(x.shape),
            "data": [v if isinstance(v, int) else float(v) for v in x.reshape(-1).tolist()]}


def build(name):
    if name == "linear":
        return nn.Linear(4, 3), torch.randn(2, 4)
    if name == "linear_nobias":
        return nn.Linear(4, 3, bias=False), torch.randn(2, 4)
    if name == "layernorm":
        m = nn.LayerNorm(4)
        with torch.no_grad():
            m.weight.normal_()
            m.bias.normal_()
        return m, torch.randn(2, 3, 4)
    if name == "embedding":
        return nn.Embedding(5, 3, padding_idx=1), torch.tensor([[0, 1], [4, 2]])
    if name == "mlp":
        return nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2)), torch.randn(5, 4)
    raise KeyError(name)


cases = []
for i, name in enumerate(["linear", "linear_nobias", "layernorm", "embedding", "mlp"]):
    torch.manual_seed(100 + i)
    m, x = build(name)
    state = {k: t(v) for k, v in m.state_dict().items()}
    cases.append({"id": name, "op": "module", "args": [t(x)], "kwargs": {"module": name},
                  "out": {"state": state, "output": t(m(x)), "repr": repr(m)}})

for name in ["linear", "embedding"]:
    torch.manual_seed(7)
    m, _ = build(name)
    cases.append({"id": "init/" + name, "op": "init", "args": [], "kwargs": {"module": name, "seed": 7},
                  "out": {"state": {k: t(v) for k, v in m.state_dict().items()}}})

out = os.path.join(os.path.dirname(__file__), "..", "resources", "golden", "nn.json")
with open(out, "w") as f:
    json.dump({"cases": cases, "generator": "make_golden_nn.py", "torch": torch.__version__}, f, sort_keys=True)
    f.write("\n")

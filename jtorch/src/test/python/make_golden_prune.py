"""Writes ../resources/golden/prune.json: torch.nn.utils.prune, against which PruneGoldenTest checks JTorch.

    python jtorch/src/test/python/make_golden_prune.py

Each case builds float32 modules (torch.manual_seed(100) first), records their initial states, applies the steps named
by its id (random pruning right after torch.manual_seed(seed)), and records for every module the state-dict keys in
order, the state (weight_orig, weight_mask, ...), the named parameters, the output on "x" and the gradients of
sum(output) by parameter name; then prune.remove and the keys and state again.
Deterministic (fixed seeds, one thread, sorted keys).
"""
import json
import os

import torch
from torch import nn
from torch.nn.utils import prune

from golden_json import enc

torch.set_num_threads(1)


def state(m):
    return {k: enc(v) for k, v in m.state_dict().items()}


def snapshot(m, x):
    m.zero_grad()
    out = m(x)
    out.sum().backward()
    return {"keys": list(m.state_dict().keys()), "state": state(m),
            "parameters": [k for k, _ in m.named_parameters()], "output": enc(out),
            "grads": {k: enc(p.grad) for k, p in m.named_parameters()},
            "is_pruned": prune.is_pruned(m)}


def case(name, builds, x_shape, steps):
    torch.manual_seed(100)
    modules = [b() for b in builds]
    initial = [state(m) for m in modules]
    steps(modules)
    torch.manual_seed(200)
    x = torch.randn(*x_shape)
    pruned = [snapshot(m, x) for m in modules]
    for m in modules:
        prune.remove(m, "weight")
    removed = [{"keys": list(m.state_dict().keys()), "state": state(m)} for m in modules]
    return {"id": name, "initial": initial, "x": enc(x), "pruned": pruned, "removed": removed}


def scores():
    torch.manual_seed(5)
    return torch.rand(4, 5)


def main():
    lin = lambda: nn.Linear(5, 4)  # noqa: E731
    cases = [
        case("l1_fraction", [lin], (2, 5), lambda ms: prune.l1_unstructured(ms[0], "weight", amount=0.3)),
        case("l1_count_then_l1", [lin], (2, 5), lambda ms: (prune.l1_unstructured(ms[0], "weight", amount=3),
                                                            prune.l1_unstructured(ms[0], "weight", amount=0.5))),
        case("l1_half_to_even", [lambda: nn.Linear(5, 2)], (2, 5),
             lambda ms: prune.l1_unstructured(ms[0], "weight", amount=0.25)),
        case("l1_importance", [lin], (2, 5),
             lambda ms: prune.l1_unstructured(ms[0], "weight", amount=7, importance_scores=scores())),
        case("random", [lin], (2, 5), lambda ms: (torch.manual_seed(3),
                                                  prune.random_unstructured(ms[0], "weight", amount=0.4))),
        case("ln_structured_conv", [lambda: nn.Conv2d(3, 4, 2)], (1, 3, 4, 4),
             lambda ms: prune.ln_structured(ms[0], "weight", amount=0.5, n=2, dim=0)),
        case("ln_structured_then_ln_inf", [lambda: nn.Conv2d(3, 4, 2)], (1, 3, 4, 4),
             lambda ms: (prune.ln_structured(ms[0], "weight", amount=1, n=2, dim=0),
                         prune.ln_structured(ms[0], "weight", amount=0.5, n=float("inf"), dim=0))),
        case("ln_structured_l1_dim1", [lin], (2, 5),
             lambda ms: prune.ln_structured(ms[0], "weight", amount=2, n=1, dim=1)),
        case("l1_then_structured", [lin], (2, 5),
             lambda ms: (prune.l1_unstructured(ms[0], "weight", amount=4),
                         prune.ln_structured(ms[0], "weight", amount=1, n=2, dim=0))),
        case("global_l1", [lin, lambda: nn.Linear(5, 3)], (2, 5),
             lambda ms: prune.global_unstructured([(ms[0], "weight"), (ms[1], "weight")],
                                                  pruning_method=prune.L1Unstructured, amount=0.4)),
        case("global_after_l1", [lin, lambda: nn.Linear(5, 3)], (2, 5),
             lambda ms: (prune.l1_unstructured(ms[0], "weight", amount=5),
                         prune.global_unstructured([(ms[0], "weight"), (ms[1], "weight")],
                                                   pruning_method=prune.L1Unstructured, amount=12))),
    ]
    errors = {}
    for key, fn in {"amount_fraction": lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5),
                    "amount_count": lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5),
                    "structured_1d": lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
                    "remove_unpruned": lambda: prune.remove(nn.Linear(2, 2), "weight")}.items():
        try:
            fn()
            raise AssertionError(key)
        except (ValueError, RuntimeError) as e:
            errors[key] = str(e)
    out = {"cases": cases, "errors": errors, "torch": torch.__version__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "prune.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, sort_keys=True, ensure_ascii=True, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()

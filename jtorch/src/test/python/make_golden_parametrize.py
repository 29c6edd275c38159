"""Writes ../resources/golden/parametrize.json: torch.nn.utils.parametrize with weight_norm and spectral_norm, against
which ParametrizationsGoldenTest checks JTorch.

    python jtorch/src/test/python/make_golden_parametrize.py

Each case builds a float64 module, records its state ("initial"), parametrizes it (spectral_norm right after
torch.manual_seed(seed), since its u and v are drawn from the default generator), records the state-dict keys in order
and values ("registered"), runs forward passes on "x" (in training mode, then "eval" in evaluation mode), and records
each output, the gradients of sum(output * grad_output) with respect to every parameter of the last training forward
(by name), the state after the forwards, and after remove_parametrizations the keys and values again.
Deterministic (fixed seeds, one thread, sorted keys).
"""
import json
import os

import torch
from torch import nn
from torch.nn.utils import parametrizations, parametrize

from golden_json import enc

torch.set_num_threads(1)


def state(m):
    return {k: enc(v) for k, v in m.state_dict().items()}


def case(name, build, parametrized, x_shape, forwards=1, seed=0):
    torch.manual_seed(100)
    m = build().double()
    initial = state(m)
    torch.manual_seed(seed)
    parametrized(m)
    registered = {"keys": list(m.state_dict().keys()), "state": state(m),
                  "parameters": [k for k, _ in m.named_parameters()]}
    torch.manual_seed(200)
    x = torch.randn(*x_shape, dtype=torch.float64)
    outputs = []
    for _ in range(forwards):
        m.zero_grad()
        out = m(x)
        go = torch.ones_like(out) * torch.linspace(-1, 1, out.numel(), dtype=torch.float64).view(out.shape)
        (out * go).sum().backward()
        outputs.append(enc(out))
    grads = {k: enc(p.grad) for k, p in m.named_parameters()}
    after = state(m)
    m.eval()
    with torch.no_grad():
        eval_out = enc(m(x))
    m.train()
    parametrize.remove_parametrizations(m, "weight")
    removed = {"keys": list(m.state_dict().keys()), "state": state(m),
               "parameters": [k for k, _ in m.named_parameters()]}
    return {"id": name, "initial": initial, "registered": registered, "x": enc(x), "outputs": outputs,
            "grads": grads, "after": after, "eval": eval_out, "removed": removed}


def main():
    cases = [
        case("weight_norm_linear_dim0", lambda: nn.Linear(4, 3), lambda m: parametrizations.weight_norm(m), (2, 4)),
        case("weight_norm_linear_dim1", lambda: nn.Linear(4, 3),
             lambda m: parametrizations.weight_norm(m, dim=1), (2, 4)),
        case("weight_norm_linear_none", lambda: nn.Linear(4, 3),
             lambda m: parametrizations.weight_norm(m, dim=None), (2, 4)),
        case("weight_norm_conv_dim0", lambda: nn.Conv2d(2, 3, 2),
             lambda m: parametrizations.weight_norm(m), (1, 2, 4, 4)),
        case("spectral_norm_linear", lambda: nn.Linear(5, 4), lambda m: parametrizations.spectral_norm(m),
             (3, 5), forwards=2, seed=7),
        case("spectral_norm_linear_dim1_2iter", lambda: nn.Linear(5, 4),
             lambda m: parametrizations.spectral_norm(m, n_power_iterations=2, dim=1), (3, 5), forwards=2, seed=8),
        case("spectral_norm_conv", lambda: nn.Conv2d(2, 3, 3), lambda m: parametrizations.spectral_norm(m),
             (1, 2, 5, 5), forwards=2, seed=9),
    ]
    out = {"cases": cases, "torch": torch.__version__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "parametrize.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, sort_keys=True, ensure_ascii=True, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()

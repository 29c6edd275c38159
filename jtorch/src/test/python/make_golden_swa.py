"""Writes ../resources/golden/swa.json: torch.optim.swa_utils against which SwaUtilsGoldenTest checks JTorch.

    python jtorch/src/test/python/make_golden_swa.py

"training" cases: a float64 model Sequential(Linear(3, 4), BatchNorm1d(4), ReLU(), Linear(4, 1)) with the recorded
initial state is trained for 6 full-batch SGD steps (lr 0.5, mse loss on the recorded x, y); after each step the
AveragedModel is updated and SWALR steps. Each step records the learning rate and the averaged model's whole state
dict (n_averaged, module.*); at the end update_bn runs over a DataLoader(TensorDataset(x, y), batch_size=4) and the
state dict is recorded again, with the optimizer's param_groups' swa_lr and SWALR's state dict.
"swalr" cases: the learning rates of 8 steps of SWALR alone (no model) for a set of configurations.
"errors": PyTorch's messages for refused arguments.
Deterministic (fixed seeds, one thread, sorted keys).
"""
import json
import os

import torch
from torch import nn
from torch.optim import swa_utils
from torch.utils.data import DataLoader, TensorDataset

from golden_json import enc

torch.set_num_threads(1)


def state(module):
    return {k: enc(v) for k, v in module.state_dict().items()}


def model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1)).double()


def training(name, averaged_kwargs, swalr_kwargs):
    net = model()
    torch.manual_seed(1)
    x = torch.randn(8, 3, dtype=torch.float64)
    y = torch.randn(8, 1, dtype=torch.float64)
    initial = state(net)
    averaged = swa_utils.AveragedModel(net, **averaged_kwargs)
    opt = torch.optim.SGD(net.parameters(), lr=0.5)
    sched = swa_utils.SWALR(opt, **swalr_kwargs)
    steps = []
    for _ in range(6):
        opt.zero_grad()
        nn.functional.mse_loss(net(x), y).backward()
        opt.step()
        averaged.update_parameters(net)
        sched.step()
        steps.append({"lr": sched.get_last_lr(), "averaged": state(averaged)})
    loader = DataLoader(TensorDataset(x, y), batch_size=4)
    swa_utils.update_bn(loader, averaged)
    return {"id": name, "initial": initial, "x": enc(x), "y": enc(y), "steps": steps,
            "after_update_bn": state(averaged), "keys": list(averaged.state_dict().keys()),
            "training_after_update_bn": averaged.training,
            "swa_lr": [g["swa_lr"] for g in opt.param_groups],
            "scheduler_state": sched.state_dict(), "scheduler_state_keys": list(sched.state_dict().keys())}


def swalr(name, lrs, kwargs):
    params = [torch.zeros(1, requires_grad=True) for _ in lrs]
    opt = torch.optim.SGD([{"params": [p], "lr": lr} for p, lr in zip(params, lrs)])
    sched = swa_utils.SWALR(opt, **kwargs)
    out = [sched.get_last_lr()]
    for _ in range(8):
        opt.step()
        sched.step()
        out.append(sched.get_last_lr())
    return {"id": name, "lrs": lrs, "kwargs": kwargs, "last_lr": out}


def error(fn):
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        return str(e)
    raise AssertionError("no error")


def opt1():
    return torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)


def main():
    ema = swa_utils.get_ema_multi_avg_fn(0.9)
    cases = [
        training("swa", {}, {"swa_lr": 0.05, "anneal_epochs": 3}),
        training("ema_multi_use_buffers", {"multi_avg_fn": ema, "use_buffers": True},
                 {"swa_lr": 0.1, "anneal_epochs": 2, "anneal_strategy": "linear"}),
        training("ema_avg_fn", {"avg_fn": swa_utils.get_ema_avg_fn(0.8)}, {"swa_lr": 0.2, "anneal_epochs": 0}),
        training("swa_multi", {"multi_avg_fn": swa_utils.get_swa_multi_avg_fn()}, {"swa_lr": 0.05}),
        training("swa_use_buffers", {"use_buffers": True}, {"swa_lr": 0.05, "anneal_strategy": "linear"}),
    ]
    lr_cases = [
        swalr("cos_default", [0.1], {"swa_lr": 0.01}),
        swalr("linear_3", [0.1], {"swa_lr": 0.5, "anneal_epochs": 3, "anneal_strategy": "linear"}),
        swalr("cos_groups_list", [0.1, 1.0], {"swa_lr": [0.05, 0.2], "anneal_epochs": 4}),
        swalr("zero_epochs", [0.3], {"swa_lr": 0.02, "anneal_epochs": 0}),
        swalr("one_epoch_linear", [0.3, 0.6], {"swa_lr": 0.1, "anneal_epochs": 1, "anneal_strategy": "linear"}),
    ]
    errors = {
        "strategy": error(lambda: swa_utils.SWALR(opt1(), swa_lr=0.1, anneal_strategy="exp")),
        "epochs": error(lambda: swa_utils.SWALR(opt1(), swa_lr=0.1, anneal_epochs=-1)),
        "lr_count": error(lambda: swa_utils.SWALR(opt1(), swa_lr=[0.1, 0.2])),
        "decay": error(lambda: swa_utils.get_ema_multi_avg_fn(1.5)),
        "decay_single": error(lambda: swa_utils.get_ema_avg_fn(-0.1)),
    }
    out = {"training": cases, "swalr": lr_cases, "errors": errors, "torch": torch.__version__}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "swa.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, sort_keys=True, ensure_ascii=True, allow_nan=False)
        f.write("\n")


if __name__ == "__main__":
    main()

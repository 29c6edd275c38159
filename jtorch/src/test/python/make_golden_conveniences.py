"""Writes ../resources/golden/conveniences.json: what PyTorch prints for the tensors and values that
ConveniencesGoldenTest builds the same way in Java — tensors with autograd suffixes (requires_grad=True,
grad_fn=<...Backward0>, including a suffix wrapped onto its own line), torch.Size, load_state_dict's result —
and what Tensor.tolist() and x.T give.

    python jtorch/src/test/python/make_golden_conveniences.py

Each case's Java counterpart is named by the same key in the test. The file is deterministic (no random
inputs, sorted keys): re-running with the same PyTorch gives a byte-identical file.
"""
import json
import os
import warnings

import torch


def leaf(values, dtype=torch.float32):
    return torch.tensor(values, dtype=dtype, requires_grad=True)


def reprs():
    x = leaf([1.0, 2.0, 3.0])
    m = leaf([[1.0, 2.0], [3.0, 4.0]])
    cases = {
        "leaf": x,
        "leaf_float64": leaf([1.0, 2.0], torch.float64),
        "mul_scalar": x * 2,
        "mul_tensor": x * x,
        "sum": x.sum(),
        "mean": x.mean(),
        "exp": x.exp(),
        "view": x.view(3, 1),
        "mm": m.mm(m),
        "to_float64": x.to(torch.float64),
        "add_inplace": (x * 1).add_(1.0),
        "T": m.T,
        "detached": (x * 2).detach(),
        "empty_leaf": torch.zeros(0, requires_grad=True),
        "meta_leaf": torch.empty(2, 3, device="meta", requires_grad=True),
        "long_line_float64": leaf([i / 7 for i in range(17)], torch.float64) * 3,
    }
    with torch.no_grad():
        cases["no_grad_mul"] = x * 2
    return {k: repr(v) for k, v in cases.items()}


class Two(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(2, 2)


def incompatible_keys():
    model = Two()
    state = model.state_dict()
    out = {"all_matched": repr(model.load_state_dict(state))}
    partial = {"a.weight": state["a.weight"], "b": torch.zeros(1)}
    out["missing_and_unexpected"] = repr(model.load_state_dict(partial, strict=False))
    return out


def main():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t3 = torch.arange(24).view(2, 3, 4).T
    out = {
        "repr": reprs(),
        "size": {"2x3": repr(torch.ones(2, 3).size()), "scalar": repr(torch.tensor(1.0).size()),
                 "vector": repr(torch.ones(5).size())},
        "tolist": {"int_matrix": torch.arange(6).view(2, 3).tolist(),
                   "float_vector": torch.tensor([0.5, -1.25]).tolist(),
                   "bool_vector": torch.tensor([True, False]).tolist(),
                   "scalar": torch.tensor(2.5).tolist(),
                   "empty_rows": torch.zeros(2, 0).tolist()},
        "T": {"shape": list(t3.shape), "data": t3.reshape(-1).tolist()},
        "incompatible_keys": incompatible_keys(),
        "torch": torch.__version__,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "conveniences.json")
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, indent=1, sort_keys=True, ensure_ascii=True)
        f.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Golden-fixture generator for the multi-class margin losses and the triplet loss with a distance function.

What it makes
    jtorch/src/test/resources/golden/margin_losses.json, read by org.jtorch.nn.MarginLossesGoldenTest: outputs and
    input gradients (for a random grad_output) of F.multi_margin_loss (p 1 and 2, margin, weight, every reduction,
    1-D and 0-d inputs), F.multilabel_margin_loss (-1-terminated targets, repeated targets, every reduction) and
    F.triplet_margin_with_distance_loss (default, cosine and p-1 distances, swap); the modules' reprs; the errors of
    bad shapes, dtypes, targets and arguments with PyTorch's messages.

    case: {"id", "op", "args": [tensors...], "kwargs": {...}, "out": {"output", "grad_output", "grads": [...]}
           | {"error", "type"}}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_margin_losses.py      (a Python with PyTorch 2.13 CPU)

Requirements
    PyTorch 2.13 (CPU). Deterministic: inputs come from seeded generators.
"""
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden_json import enc, write  # noqa: E402

torch.set_num_threads(1)
cases = []
f64 = torch.float64


def leaf(*shape):
    return torch.randn(shape, dtype=f64).requires_grad_(True)


def distance(name):
    """The distance functions the Java test builds from the same names."""
    if name == "cosine":
        return lambda x, y: 1.0 - F.cosine_similarity(x, y)
    if name == "p1":
        return nn.PairwiseDistance(p=1.0)
    return None


def module(name):
    """The modules the Java test builds from the same names."""
    return {
        "MultiMarginLoss": lambda: nn.MultiMarginLoss(p=2, margin=0.5, weight=torch.ones(4, dtype=f64)),
        "MultiLabelMarginLoss": lambda: nn.MultiLabelMarginLoss(reduction="sum"),
        "TripletMarginWithDistanceLoss": lambda: nn.TripletMarginWithDistanceLoss(margin=0.5, swap=True),
        "TripletMarginWithDistanceLoss-p1": lambda: nn.TripletMarginWithDistanceLoss(distance_function=distance("p1")),
    }[name]()


def call(op, args, kw):
    red = kw.get("reduction", "mean")
    if op == "module":
        return module(kw["module"])(*args)
    if op == "multi_margin_loss":
        w = args[2] if len(args) > 2 else None
        return F.multi_margin_loss(args[0], args[1], p=kw.get("p", 1), margin=kw.get("margin", 1.0), weight=w,
                                   reduction=red)
    if op == "multilabel_margin_loss":
        return F.multilabel_margin_loss(args[0], args[1], reduction=red)
    if op == "triplet_margin_with_distance_loss":
        return F.triplet_margin_with_distance_loss(args[0], args[1], args[2],
                                                   distance_function=distance(kw.get("distance")),
                                                   margin=kw.get("margin", 1.0), swap=kw.get("swap", False),
                                                   reduction=red)
    raise ValueError(op)


def functional(cid, op, make_args, **kw):
    torch.manual_seed(3000 + len(cases))
    args = make_args()
    out = call(op, args, kw)
    go = torch.randn_like(out)
    diff = [a for a in args if a.requires_grad]
    g = iter(torch.autograd.grad(out, diff, go) if diff else [])
    grads = [enc(next(g)) if a.requires_grad else None for a in args]
    cases.append({"id": cid, "op": op, "args": [enc(a) for a in args], "kwargs": kw,
                  "out": {"output": enc(out), "grad_output": enc(go), "grads": grads}})


def error(cid, op, make_args, **kw):
    torch.manual_seed(3000 + len(cases))
    args = make_args()
    try:
        call(op, args, kw)
    except Exception as e:  # the message is the fixture
        cases.append({"id": cid, "op": op, "args": [enc(a) for a in args], "kwargs": kw,
                      "out": {"error": str(e).split("\n")[0], "type": type(e).__name__}})
        return
    raise AssertionError(cid + " did not raise")


def labels(n, c):
    return torch.randint(0, c, (n,))


def main():
    mm = "multi_margin_loss"
    for red in ("none", "mean", "sum"):
        for p in (1, 2):
            functional("multi_margin/p%d/%s" % (p, red), mm, lambda: [leaf(5, 4), labels(5, 4)], p=p, reduction=red)
        functional("multi_margin/weight-margin/" + red, mm,
                   lambda: [leaf(5, 4), labels(5, 4), torch.rand(4, dtype=f64) + 0.5], p=2, margin=0.7,
                   reduction=red)
    functional("multi_margin/1d", mm, lambda: [leaf(6), torch.tensor(3)], reduction="none")
    functional("multi_margin/1d-target1", mm, lambda: [leaf(6), torch.tensor([2])], reduction="none")
    functional("multi_margin/0d", mm, lambda: [leaf(), torch.tensor(0)], reduction="none")
    functional("multi_margin/large-margin", mm, lambda: [leaf(3, 5), labels(3, 5)], margin=3.0)
    error("multi_margin/weight-requires-grad", mm,
          lambda: [leaf(3, 5), labels(3, 5), (torch.rand(5, dtype=f64) + 0.5).requires_grad_(True)])
    functional("multi_margin/empty-sum", mm, lambda: [leaf(0, 3), torch.zeros(0, dtype=torch.long)], reduction="sum")
    error("multi_margin/p3", mm, lambda: [leaf(3, 4), labels(3, 4)], p=3)
    error("multi_margin/target-range", mm, lambda: [leaf(3, 4), torch.tensor([0, 4, 1])])
    error("multi_margin/target-negative", mm, lambda: [leaf(3, 4), torch.tensor([0, -1, 1])])
    error("multi_margin/target-float", mm, lambda: [leaf(3, 4), torch.tensor([0.0, 1.0, 2.0])])
    error("multi_margin/target-size", mm, lambda: [leaf(3, 4), torch.tensor([0, 1])])
    error("multi_margin/target-2d", mm, lambda: [leaf(3, 4), torch.tensor([[0], [1], [2]])])
    error("multi_margin/weight-size", mm, lambda: [leaf(3, 4), labels(3, 4), torch.ones(3, dtype=f64)])
    error("multi_margin/weight-2d", mm, lambda: [leaf(3, 4), labels(3, 4), torch.ones(2, 2, dtype=f64)])
    error("multi_margin/weight-dtype", mm, lambda: [leaf(3, 4), labels(3, 4), torch.ones(4, dtype=torch.float32)])
    error("multi_margin/input-3d", mm, lambda: [leaf(2, 3, 4), torch.tensor([1])])
    error("multi_margin/input-no-classes", mm, lambda: [leaf(3, 0), labels(3, 1)])
    error("multi_margin/input-int", mm, lambda: [torch.ones(3, 4, dtype=torch.int32), labels(3, 4)])

    ml = "multilabel_margin_loss"
    targets = lambda: torch.tensor([[0, 1, -1, 2], [3, -1, 0, 0], [2, 2, 0, -1]])  # noqa: E731
    for red in ("none", "mean", "sum"):
        functional("multilabel_margin/" + red, ml, lambda: [leaf(3, 4), targets()], reduction=red)
    functional("multilabel_margin/all-targets", ml, lambda: [leaf(2, 3), torch.tensor([[0, 1, 2], [2, 1, 0]])])
    functional("multilabel_margin/no-targets", ml, lambda: [leaf(2, 3), torch.tensor([[-1, 1, 2], [0, -1, 1]])],
               reduction="none")
    functional("multilabel_margin/1d", ml, lambda: [leaf(5), torch.tensor([3, 0, -1, 1, 1])], reduction="none")
    functional("multilabel_margin/1d-mean", ml, lambda: [leaf(5), torch.tensor([4, -1, 0, 0, 0])])
    functional("multilabel_margin/empty-mean", ml, lambda: [leaf(0, 4), torch.zeros(0, 4, dtype=torch.long)])
    error("multilabel_margin/target-range", ml, lambda: [leaf(3, 4), torch.tensor([[0, 4, -1, 0]] * 3)])
    error("multilabel_margin/target-below", ml, lambda: [leaf(3, 4), torch.tensor([[0, -2, -1, 0]] * 3)])
    error("multilabel_margin/target-size", ml, lambda: [leaf(3, 4), torch.zeros(2, 4, dtype=torch.long)])
    error("multilabel_margin/target-size-1d", ml, lambda: [leaf(4), torch.zeros(3, dtype=torch.long)])
    error("multilabel_margin/target-float", ml, lambda: [leaf(3, 4), torch.zeros(3, 4, dtype=f64)])
    error("multilabel_margin/input-int", ml,
          lambda: [torch.ones(3, 4, dtype=torch.int32), torch.zeros(3, 4, dtype=torch.long)])
    error("multilabel_margin/input-3d", ml, lambda: [leaf(2, 3, 4), torch.zeros(4, dtype=torch.long)])

    tm = "triplet_margin_with_distance_loss"
    for red in ("none", "mean", "sum"):
        functional("triplet_distance/default/" + red, tm, lambda: [leaf(4, 5), leaf(4, 5), leaf(4, 5)], reduction=red)
    functional("triplet_distance/cosine-swap", tm, lambda: [leaf(4, 5), leaf(4, 5), leaf(4, 5)], distance="cosine",
               margin=0.5, swap=True)
    functional("triplet_distance/p1-swap", tm, lambda: [leaf(6, 3), leaf(6, 3), leaf(6, 3)], distance="p1",
               margin=2.0, swap=True, reduction="sum")
    functional("triplet_distance/1d", tm, lambda: [leaf(5), leaf(5), leaf(5)], margin=3.0)
    error("triplet_distance/margin", tm, lambda: [leaf(4, 5), leaf(4, 5), leaf(4, 5)], margin=0.0)
    error("triplet_distance/dims", tm, lambda: [leaf(4, 5), leaf(4, 5), leaf(5)])

    functional("module/MultiMarginLoss", "module", lambda: [leaf(3, 4), labels(3, 4)], module="MultiMarginLoss")
    functional("module/MultiLabelMarginLoss", "module", lambda: [leaf(3, 4), targets()],
               module="MultiLabelMarginLoss")
    for name in ("TripletMarginWithDistanceLoss", "TripletMarginWithDistanceLoss-p1"):
        functional("module/" + name, "module", lambda: [leaf(4, 5), leaf(4, 5), leaf(4, 5)], module=name)
    for name in ("MultiMarginLoss", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss",
                 "TripletMarginWithDistanceLoss-p1"):
        m = module(name)
        cases.append({"id": "repr/" + name, "op": "repr", "args": [], "kwargs": {"module": name},
                      "out": {"repr": repr(m), "state_keys": list(m.state_dict().keys())}})
    for cid, fn in (("module/MultiMarginLoss-p3", lambda: nn.MultiMarginLoss(p=3)),
                    ("module/MultiMarginLoss-weight-2d", lambda: nn.MultiMarginLoss(weight=torch.ones(2, 2))),
                    ("module/TripletMarginWithDistanceLoss-margin",
                     lambda: nn.TripletMarginWithDistanceLoss(margin=-1.0))):
        try:
            fn()
            raise AssertionError(cid + " did not raise")
        except ValueError as e:
            cases.append({"id": cid, "op": "init", "args": [], "kwargs": {"module": cid.split("/")[1]},
                          "out": {"error": str(e), "type": type(e).__name__}})

    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "margin_losses.json"), cases,
          "make_golden_margin_losses.py")


if __name__ == "__main__":
    main()

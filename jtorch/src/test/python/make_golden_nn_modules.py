#!/usr/bin/env python3
"""Golden-fixture generator for the loss functions and modules, F.ctc_loss, instance and local response
normalisation, and ParameterDict.

What it makes
    jtorch/src/test/resources/golden/nn_modules.json, read by org.jtorch.nn.LossNormGoldenTest.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_nn_modules.py

Format (tensors as in golden_json.py):
    {"id", "op": F function name or "module", "args": [T...], "kwargs": {...},
     "out": {"output": T, "grad_output": T, "grads": [T or null per arg]}}
        grads are d(sum(output * grad_output))/d(arg) for the float64 args that require grad.
    module cases add "repr", "state_keys" and "state_after" (buffers after the forward) to "out", and
        "param_grads" {name: T}.
    error cases: "out": {"error": message, "type": exception class}.
Deterministic: fixed seeds, one thread, sorted keys.
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


def t(x):
    return None if x is None else enc(x)


def leaf(*shape):
    return torch.randn(*shape, dtype=torch.float64).requires_grad_(True)


def grads_of(out, args):
    go = torch.randn_like(out)
    diff = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
    g = iter(torch.autograd.grad(out, diff, go, allow_unused=True) if diff else [])
    per = [t(next(g)) if isinstance(a, torch.Tensor) and a.requires_grad else None for a in args]
    return go, per


def functional(cid, op, fn, make_args, **kwargs):
    torch.manual_seed(2000 + len(cases))
    args = make_args()
    out = fn(*args)
    go, per = grads_of(out, args)
    cases.append({"id": cid, "op": op, "args": [t(a) for a in args], "kwargs": kwargs,
                  "out": {"output": t(out), "grad_output": t(go), "grads": per}})


def error(cid, op, fn, make_args, **kwargs):
    torch.manual_seed(2000 + len(cases))
    args = make_args()
    try:
        fn(*args)
    except Exception as e:  # the message and class are the fixture
        cases.append({"id": cid, "op": op, "args": [t(a) for a in args], "kwargs": kwargs,
                      "out": {"error": str(e).split("\n")[0], "type": type(e).__name__}})
        return
    raise AssertionError(cid + " did not raise")


def module(cid, m, make_args, forward=None, train=True, **kwargs):
    torch.manual_seed(2000 + len(cases))
    m = m.double()
    m.train(train)
    args = make_args()
    state = {k: t(v) for k, v in m.state_dict().items()}
    out = forward(m, *args) if forward else m(*args)
    go, per = grads_of(out, list(args) + list(m.parameters()))
    params = dict(m.named_parameters())
    pg = dict(zip(params.keys(), per[len(args):]))
    cases.append({"id": cid, "op": "module", "args": [t(a) for a in args], "kwargs": kwargs,
                  "out": {"output": t(out), "grad_output": t(go), "grads": per[:len(args)], "param_grads": pg,
                          "repr": repr(m), "state": state, "state_keys": list(m.state_dict().keys()),
                          "state_after": {k: t(v) for k, v in m.state_dict().items()}}})


def pos(*shape):
    return (torch.rand(*shape, dtype=torch.float64) * 0.9 + 0.05).requires_grad_(True)


def sign(*shape):
    return torch.randint(0, 2, shape).double() * 2 - 1


# ---- losses --------------------------------------------------------------------------------------------------
for red in ["mean", "sum", "none"]:
    functional("margin_ranking/" + red, "margin_ranking_loss",
               lambda a, b, y: F.margin_ranking_loss(a, b, y, margin=0.3, reduction=red),
               lambda: [leaf(6), leaf(6), sign(6)], margin=0.3, reduction=red)
    functional("triplet/" + red, "triplet_margin_loss",
               lambda a, p, n: F.triplet_margin_loss(a, p, n, reduction=red),
               lambda: [leaf(4, 5), leaf(4, 5), leaf(4, 5)], margin=1.0, p=2.0, eps=1e-6, swap=False, reduction=red)
    functional("multilabel_soft_margin/" + red, "multilabel_soft_margin_loss",
               lambda x, y: F.multilabel_soft_margin_loss(x, y, reduction=red),
               lambda: [leaf(3, 4), torch.randint(0, 2, (3, 4)).double()], reduction=red)
    functional("poisson_nll/" + red, "poisson_nll_loss",
               lambda x, y: F.poisson_nll_loss(x, y, reduction=red),
               lambda: [leaf(3, 4), torch.poisson(torch.full((3, 4), 2.0, dtype=torch.float64))],
               log_input=True, full=False, eps=1e-8, reduction=red)
    functional("gaussian_nll/" + red, "gaussian_nll_loss",
               lambda x, y, v: F.gaussian_nll_loss(x, y, v, reduction=red),
               lambda: [leaf(3, 4), leaf(3, 4), pos(3, 4)], full=False, eps=1e-6, reduction=red)
    functional("soft_margin/" + red, "soft_margin_loss", lambda x, y: F.soft_margin_loss(x, y, reduction=red),
               lambda: [leaf(3, 4), sign(3, 4)], reduction=red)
    functional("hinge_embedding/" + red, "hinge_embedding_loss",
               lambda x, y: F.hinge_embedding_loss(x, y, margin=0.5, reduction=red),
               lambda: [leaf(3, 4), sign(3, 4)], margin=0.5, reduction=red)
functional("margin_ranking/0d", "margin_ranking_loss", lambda a, b, y: F.margin_ranking_loss(a, b, y),
           lambda: [leaf(()), leaf(()), torch.tensor(-1.0, dtype=torch.float64)], margin=0.0, reduction="mean")
functional("triplet/swap-p1", "triplet_margin_loss",
           lambda a, p, n: F.triplet_margin_loss(a, p, n, margin=0.5, p=1.0, swap=True),
           lambda: [leaf(5, 3), leaf(5, 3), leaf(5, 3)], margin=0.5, p=1.0, eps=1e-6, swap=True, reduction="mean")
functional("triplet/1d", "triplet_margin_loss", lambda a, p, n: F.triplet_margin_loss(a, p, n, reduction="none"),
           lambda: [leaf(5), leaf(5), leaf(5)], margin=1.0, p=2.0, eps=1e-6, swap=False, reduction="none")
functional("multilabel_soft_margin/weight", "multilabel_soft_margin_loss",
           lambda x, y, w: F.multilabel_soft_margin_loss(x, y, weight=w),
           lambda: [leaf(3, 4), torch.randint(0, 2, (3, 4)).double(), torch.rand(4, dtype=torch.float64)],
           reduction="mean")
functional("poisson_nll/full-nolog", "poisson_nll_loss",
           lambda x, y: F.poisson_nll_loss(x, y, log_input=False, full=True),
           lambda: [pos(3, 4), torch.tensor([[0., 1, 2, 3], [4, 5, 0, 1], [7, 2, 1, 9]], dtype=torch.float64)],
           log_input=False, full=True, eps=1e-8, reduction="mean")
functional("gaussian_nll/full-homoscedastic", "gaussian_nll_loss",
           lambda x, y, v: F.gaussian_nll_loss(x, y, v, full=True),
           lambda: [leaf(3, 4), leaf(3, 4), pos(3)], full=True, eps=1e-6, reduction="mean")
functional("gaussian_nll/one-mismatch-clamped", "gaussian_nll_loss",
           lambda x, y, v: F.gaussian_nll_loss(x, y, v, eps=0.3, reduction="sum"),
           lambda: [leaf(3, 4), leaf(3, 4), pos(3, 1)], full=False, eps=0.3, reduction="sum")
error("margin_ranking/dims", "margin_ranking_loss", lambda a, b, y: F.margin_ranking_loss(a, b, y),
      lambda: [leaf(3), leaf(3, 1), sign(3)], margin=0.0, reduction="mean")
error("triplet/dims", "triplet_margin_loss", lambda a, p, n: F.triplet_margin_loss(a, p, n),
      lambda: [leaf(3, 2), leaf(3, 2), leaf(2)], margin=1.0, p=2.0, eps=1e-6, swap=False, reduction="mean")
error("gaussian_nll/negative-var", "gaussian_nll_loss", lambda x, y, v: F.gaussian_nll_loss(x, y, v),
      lambda: [leaf(2, 3), leaf(2, 3), -torch.ones(2, 3, dtype=torch.float64)], full=False, eps=1e-6,
      reduction="mean")
error("gaussian_nll/var-size", "gaussian_nll_loss", lambda x, y, v: F.gaussian_nll_loss(x, y, v),
      lambda: [leaf(2, 3), leaf(2, 3), pos(3, 2)], full=False, eps=1e-6, reduction="mean")

# ---- ctc_loss --------------------------------------------------------------------------------------------------


def ctc(cid, T, N, C, targets, il, tl, via="log_softmax", **kw):
    def fn(x, tg):
        lp = x.log_softmax(-1) if via == "log_softmax" else x
        return F.ctc_loss(lp, tg, il, tl, **kw)

    def make():
        x = torch.randn(T, N, C, dtype=torch.float64) if N is not None else torch.randn(T, C, dtype=torch.float64)
        if via == "direct":
            x = x.log_softmax(-1)
        return [x.requires_grad_(True), torch.tensor(targets)]
    kwargs = {"input_lengths": il, "target_lengths": tl, "via": via, "blank": 0, "reduction": "mean",
              "zero_infinity": False}
    kwargs.update(kw)
    functional(cid, "ctc_loss", fn, make, **kwargs)


ctc("ctc/padded-mean", 6, 3, 5, [[1, 2, 2], [3, 4, 0], [1, 0, 0]], [6, 5, 4], [3, 2, 1])
ctc("ctc/padded-sum", 6, 3, 5, [[1, 2, 2], [3, 4, 0], [1, 0, 0]], [6, 5, 4], [3, 2, 1], reduction="sum")
ctc("ctc/padded-none", 6, 3, 5, [[1, 2, 2], [3, 4, 0], [1, 0, 0]], [6, 5, 4], [3, 2, 1], reduction="none")
ctc("ctc/direct-none", 6, 3, 5, [[1, 2, 2], [3, 4, 0], [1, 0, 0]], [6, 5, 4], [3, 2, 1], via="direct",
    reduction="none")
ctc("ctc/direct-mean", 5, 2, 4, [[1, 3], [2, 2]], [5, 5], [2, 2], via="direct")
ctc("ctc/concatenated", 7, 2, 6, [5, 1, 1, 2, 3, 4], [7, 6], [3, 3])
ctc("ctc/blank-last", 6, 2, 4, [[0, 1], [2, 2]], [6, 6], [2, 2], blank=3, reduction="sum")
ctc("ctc/empty-target", 4, 2, 3, [[1, 2], [0, 0]], [4, 3], [2, 0], reduction="none")
ctc("ctc/zero-length-input", 4, 2, 3, [[1, 2], [1, 0]], [0, 4], [0, 1], reduction="none")
ctc("ctc/impossible", 3, 2, 4, [[1, 1, 1], [2, 3, 0]], [3, 3], [3, 2], reduction="none")
ctc("ctc/impossible-zero-inf", 3, 2, 4, [[1, 1, 1], [2, 3, 0]], [3, 3], [3, 2], reduction="mean",
    zero_infinity=True)
ctc("ctc/unbatched", 6, None, 4, [1, 2, 1], [6], [3], reduction="none")


def ctc_error(cid, T, N, C, targets, il, tl, dtype=torch.float64, **kw):
    def fn(x, tg):
        return F.ctc_loss(x, tg, il, tl, **kw)
    kwargs = {"input_lengths": il, "target_lengths": tl, "via": "direct", "blank": 0, "reduction": "mean",
              "zero_infinity": False}
    kwargs.update(kw)
    error(cid, "ctc_loss", fn, lambda: [torch.randn(T, N, C, dtype=torch.float64).log_softmax(-1).to(dtype),
                                         torch.tensor(targets)], **kwargs)


ctc_error("ctc/err-blank", 5, 2, 4, [[1, 2], [3, 3]], [5, 4], [2, 2], blank=4)
ctc_error("ctc/err-input-lengths-size", 5, 2, 4, [[1, 2], [3, 3]], [5], [2, 2])
ctc_error("ctc/err-target-lengths-size", 5, 2, 4, [[1, 2], [3, 3]], [5, 4], [2])
ctc_error("ctc/err-input-too-long", 5, 2, 4, [[1, 2], [3, 3]], [6, 4], [2, 2])
ctc_error("ctc/err-negative-input", 5, 2, 4, [[1, 2], [3, 3]], [-1, 4], [2, 2])
ctc_error("ctc/err-negative-target", 5, 2, 4, [[1, 2], [3, 3]], [5, 4], [-1, 2])
ctc_error("ctc/err-target-width", 5, 2, 4, [[1, 2], [3, 3]], [5, 4], [2, 3])
ctc_error("ctc/err-concatenated-size", 5, 2, 4, [1, 2, 3], [5, 4], [2, 2])
ctc_error("ctc/err-dtype", 5, 2, 4, [[1, 2], [3, 3]], [5, 4], [2, 2], dtype=torch.float16)

# ---- loss modules --------------------------------------------------------------------------------------------
module("module/L1Loss", nn.L1Loss(), lambda: [leaf(3, 4), leaf(3, 4)], module="L1Loss")
module("module/MSELoss-sum", nn.MSELoss(reduction="sum"), lambda: [leaf(3, 4), leaf(3, 4)], module="MSELoss-sum")
module("module/CrossEntropyLoss", nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 0.5]), ignore_index=1,
                                                       label_smoothing=0.1),
       lambda: [leaf(4, 3), torch.tensor([0, 1, 2, 2])], module="CrossEntropyLoss")
module("module/NLLLoss", nn.NLLLoss(reduction="sum"), lambda: [leaf(4, 3).log_softmax(1), torch.tensor([0, 1, 2, 2])],
       module="NLLLoss")
module("module/BCELoss", nn.BCELoss(weight=torch.tensor([1.0, 0.5, 2.0])), lambda: [pos(2, 3), torch.rand(2, 3).double()],
       module="BCELoss")
module("module/BCEWithLogitsLoss", nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 3.0, 0.5])),
       lambda: [leaf(2, 3), torch.rand(2, 3).double()], module="BCEWithLogitsLoss")
module("module/HuberLoss", nn.HuberLoss(delta=0.5), lambda: [leaf(3, 4), leaf(3, 4)], module="HuberLoss")
module("module/SmoothL1Loss", nn.SmoothL1Loss(beta=0.5, reduction="none"), lambda: [leaf(3, 4), leaf(3, 4)],
       module="SmoothL1Loss")
module("module/KLDivLoss", nn.KLDivLoss(reduction="batchmean", log_target=True),
       lambda: [leaf(3, 4).log_softmax(1), torch.randn(3, 4).double().log_softmax(1)], module="KLDivLoss")
module("module/CTCLoss", nn.CTCLoss(blank=0, reduction="sum"),
       lambda: [torch.randn(5, 2, 4, dtype=torch.float64).log_softmax(2).detach().requires_grad_(True),
                torch.tensor([[1, 2], [3, 3]]), torch.tensor([5, 4]), torch.tensor([2, 2])], module="CTCLoss")
module("module/TripletMarginLoss", nn.TripletMarginLoss(margin=0.5, swap=True),
       lambda: [leaf(4, 3), leaf(4, 3), leaf(4, 3)], module="TripletMarginLoss")
module("module/CosineEmbeddingLoss", nn.CosineEmbeddingLoss(margin=0.2), lambda: [leaf(4, 3), leaf(4, 3), sign(4)],
       module="CosineEmbeddingLoss")
module("module/MarginRankingLoss", nn.MarginRankingLoss(margin=0.1), lambda: [leaf(5), leaf(5), sign(5)],
       module="MarginRankingLoss")
module("module/MultiLabelSoftMarginLoss", nn.MultiLabelSoftMarginLoss(),
       lambda: [leaf(3, 4), torch.randint(0, 2, (3, 4)).double()], module="MultiLabelSoftMarginLoss")
module("module/PoissonNLLLoss", nn.PoissonNLLLoss(log_input=False, full=True),
       lambda: [pos(3, 4), torch.poisson(torch.full((3, 4), 3.0)).double()], module="PoissonNLLLoss")
module("module/GaussianNLLLoss", nn.GaussianNLLLoss(full=True), lambda: [leaf(3, 4), leaf(3, 4), pos(3, 4)],
       module="GaussianNLLLoss")
module("module/SoftMarginLoss", nn.SoftMarginLoss(), lambda: [leaf(3, 4), sign(3, 4)], module="SoftMarginLoss")
module("module/HingeEmbeddingLoss", nn.HingeEmbeddingLoss(margin=2.0), lambda: [leaf(3, 4), sign(3, 4)],
       module="HingeEmbeddingLoss")

# ---- instance norm and local response norm -----------------------------------------------------------------------
module("module/InstanceNorm1d", nn.InstanceNorm1d(3), lambda: [leaf(2, 3, 5)], module="InstanceNorm1d")
module("module/InstanceNorm1d-unbatched", nn.InstanceNorm1d(3, affine=True), lambda: [leaf(3, 5)],
       module="InstanceNorm1d-affine")
module("module/InstanceNorm2d-track", nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
       lambda: [leaf(2, 3, 4, 5)], module="InstanceNorm2d-track")
module("module/InstanceNorm2d-track-eval", nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
       lambda: [leaf(2, 3, 4, 5)], train=False, module="InstanceNorm2d-track")
module("module/InstanceNorm2d-momentum-none", nn.InstanceNorm2d(2, momentum=None, track_running_stats=True),
       lambda: [leaf(2, 2, 3, 3)], module="InstanceNorm2d-momentum-none")
module("module/InstanceNorm3d", nn.InstanceNorm3d(2, eps=1e-3, momentum=0.3, affine=True, track_running_stats=True),
       lambda: [leaf(2, 2, 3, 2, 4)], module="InstanceNorm3d")
module("module/LocalResponseNorm-3d", nn.LocalResponseNorm(3), lambda: [leaf(2, 5, 4)], module="LocalResponseNorm-3")
module("module/LocalResponseNorm-4d", nn.LocalResponseNorm(2, alpha=0.5, beta=0.6, k=2.0),
       lambda: [leaf(2, 5, 3, 3)], module="LocalResponseNorm-2")
module("module/LocalResponseNorm-5d", nn.LocalResponseNorm(4, alpha=0.1), lambda: [leaf(1, 6, 2, 2, 3)],
       module="LocalResponseNorm-4")
error("instance_norm/spatial-1", "instance_norm", lambda x: nn.InstanceNorm1d(3)(x), lambda: [leaf(2, 3, 1)],
      module="InstanceNorm1d")
error("instance_norm/rank", "instance_norm", lambda x: nn.InstanceNorm2d(3)(x), lambda: [leaf(2, 3)],
      module="InstanceNorm2d")
error("instance_norm/features", "instance_norm", lambda x: nn.InstanceNorm1d(3, affine=True)(x),
      lambda: [leaf(2, 4, 5)], module="InstanceNorm1d-affine")
error("local_response_norm/rank", "local_response_norm", lambda x: F.local_response_norm(x, 2),
      lambda: [leaf(2, 3)], size=2)

# ---- ParameterDict / ParameterList reprs ----------------------------------------------------------------------
pd = nn.ParameterDict({"w": nn.Parameter(torch.ones(2, 3)), "b": nn.Parameter(torch.zeros(3, dtype=torch.float64))})
cases.append({"id": "repr/ParameterDict", "op": "repr", "args": [], "kwargs": {"module": "ParameterDict"},
              "out": {"repr": repr(pd), "state_keys": list(pd.state_dict().keys())}})

write(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "golden", "nn_modules.json"),
      cases, "make_golden_nn_modules.py")
print(len(cases), "cases")

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's torch.nn.functional (org.jtorch.nn.functional.F).

Run from the repository root with PyTorch 2.13 (CPU):
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_functional.py
Writes jtorch/src/test/resources/golden/functional.json in the format documented at the top of
make_golden_core.py (whose encoders are reused).  "op" is the torch.nn.functional name; tensor
arguments are positional, everything else is a PyTorch keyword argument.

Every output is PyTorch's own (F.rms_norm and F.scaled_dot_product_attention included); nothing
these cases touch changed in 2.14 or 2.15.  Inputs are fixed or drawn from a torch.Generator
seeded per case, so re-running gives a byte-identical file.
"""
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_golden_core import NC, enc_kwarg, enc_tensor  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "functional.json"))
CASES = []


def gen(cid):
    g = torch.Generator()
    g.manual_seed(sum(ord(ch) * (i + 1) for i, ch in enumerate(cid)) % (2 ** 31))
    return g


def randn(cid, *shape, dtype=torch.float64):
    return torch.randn(*shape, generator=gen(cid + str(shape)), dtype=torch.float64).to(dtype)


def value(a):
    return a.value() if isinstance(a, NC) else a


def add(cid, op, args, kwargs=None, fn=None, note=None):
    kwargs = kwargs or {}
    case = {"id": cid, "op": op, "args": [enc_tensor(a.base, (a.d0, a.d1)) if isinstance(a, NC) else enc_tensor(a)
                                          for a in args],
            "kwargs": {k: enc_kwarg(v) for k, v in kwargs.items()}}
    real_args = [value(a) for a in args]
    real_kwargs = {k: value(v) for k, v in kwargs.items()}
    try:
        out = (fn or getattr(F, op))(*real_args, **real_kwargs)
        case["out"] = enc_tensor(out)
    except Exception as e:  # the error message is the reference
        case["out"] = {"error": str(e).split("\n")[0]}
    if note:
        case["note"] = note
    CASES.append(case)


def activations():
    for dt in (torch.float32, torch.float64):
        n = str(dt).split(".")[1]
        x = randn("act" + n, 3, 4, dtype=dt)
        add("linear/%s" % n, "linear", [x, randn("w" + n, 5, 4, dtype=dt)])
        add("linear/%s/bias" % n, "linear", [x, randn("w" + n, 5, 4, dtype=dt), randn("b" + n, 5, dtype=dt)])
        add("softmax/%s" % n, "softmax", [x], {"dim": 1})
        add("softmax/%s/dim0" % n, "softmax", [x], {"dim": 0})
        add("log_softmax/%s" % n, "log_softmax", [x], {"dim": -1})
        add("gelu/%s" % n, "gelu", [x])
        add("gelu/%s/tanh" % n, "gelu", [x], {"approximate": "tanh"})
        add("silu/%s" % n, "silu", [x])
        add("relu/%s" % n, "relu", [x])
        add("layer_norm/%s" % n, "layer_norm", [x], {"normalized_shape": [4]})
        add("layer_norm/%s/affine" % n, "layer_norm", [x],
            {"normalized_shape": [4], "weight": randn("lw" + n, 4, dtype=dt), "bias": randn("lb" + n, 4, dtype=dt),
             "eps": 1e-3})
        add("rms_norm/%s" % n, "rms_norm", [x], {"normalized_shape": [4]})
        add("rms_norm/%s/weight" % n, "rms_norm", [x],
            {"normalized_shape": [4], "weight": randn("rw" + n, 4, dtype=dt), "eps": 1e-4})
    x3 = randn("ln3", 2, 3, 4)
    add("layer_norm/float64/2d_shape", "layer_norm", [x3], {"normalized_shape": [3, 4]})
    add("rms_norm/float64/2d_shape", "rms_norm", [x3], {"normalized_shape": [3, 4]})
    add("layer_norm/float64/noncontig", "layer_norm", [NC(randn("lnnc", 4, 3))], {"normalized_shape": [4]})
    add("linear/float64/noncontig", "linear", [NC(randn("linnc", 4, 3)), randn("w", 2, 4)])
    add("softmax/float64/noncontig", "softmax", [NC(randn("smnc", 4, 3))], {"dim": 1})
    add("layer_norm/error/shape", "layer_norm", [randn("e", 3, 4)], {"normalized_shape": [3]})
    add("layer_norm/error/weight", "layer_norm", [randn("e", 3, 4)], {"normalized_shape": [4], "weight": torch.ones(3)})
    w = randn("emb", 5, 3)
    idx = torch.tensor([[0, 2, 4], [1, 0, 3]])
    add("embedding/float64", "embedding", [idx, w])
    add("embedding/float64/padding", "embedding", [idx, w], {"padding_idx": 0})
    add("embedding/error/float_index", "embedding", [torch.tensor([1.0]), w])


def cross_entropy():
    logits = torch.tensor([[1., 2, 3], [0.5, -1, -0.5], [0, 1, 1]], dtype=torch.float64)
    y = torch.tensor([2, 0, 1])
    w = torch.tensor([1, 2, 0.5], dtype=torch.float64)
    probs = torch.tensor([[0, 0, 1], [0.5, 0.5, 0], [0.2, 0.3, 0.5]], dtype=torch.float64)
    for red in ("none", "mean", "sum"):
        add("cross_entropy/spec/%s" % red, "cross_entropy", [logits, y], {"reduction": red})
        add("cross_entropy/spec/ignore0/%s" % red, "cross_entropy", [logits, y], {"reduction": red, "ignore_index": 0})
        add("cross_entropy/spec/weight/%s" % red, "cross_entropy", [logits, y], {"reduction": red, "weight": w})
        add("cross_entropy/spec/smooth/%s" % red, "cross_entropy", [logits, y], {"reduction": red, "label_smoothing": 0.1})
        add("cross_entropy/spec/smooth_weight_ignore/%s" % red, "cross_entropy", [logits, y],
            {"reduction": red, "label_smoothing": 0.1, "weight": w, "ignore_index": 2})
        add("cross_entropy/spec/probs/%s" % red, "cross_entropy", [logits, probs], {"reduction": red})
        add("cross_entropy/spec/probs_weight/%s" % red, "cross_entropy", [logits, probs], {"reduction": red, "weight": w})
        add("cross_entropy/spec/probs_smooth/%s" % red, "cross_entropy", [logits, probs],
            {"reduction": red, "label_smoothing": 0.1})
        x4 = randn("ce4d", 2, 3, 2, 2)
        t4 = torch.randint(0, 3, (2, 2, 2), generator=gen("ce4d"))
        add("cross_entropy/kdim/%s" % red, "cross_entropy", [x4, t4], {"reduction": red, "weight": w})
        add("cross_entropy/kdim/probs/%s" % red, "cross_entropy", [x4, torch.softmax(randn("ce4p", 2, 3, 2, 2), 1)],
            {"reduction": red})
        add("nll_loss/%s" % red, "nll_loss", [torch.log_softmax(logits, 1), y], {"reduction": red, "weight": w,
                                                                              "ignore_index": 1})
    add("cross_entropy/spec/smooth_weight/mean", "cross_entropy", [logits, y], {"label_smoothing": 0.1, "weight": w})
    add("cross_entropy/unbatched", "cross_entropy", [logits[0], torch.tensor(1)])
    add("cross_entropy/all_ignored", "cross_entropy", [logits, y], {"ignore_index": 0, "weight": torch.tensor([1., 0, 0],
                                                                                                            dtype=torch.float64)})
    add("cross_entropy/float32", "cross_entropy", [randn("ce32", 4, 5, dtype=torch.float32), torch.tensor([0, 4, 2, 1])])
    add("cross_entropy/noncontig", "cross_entropy", [NC(randn("cenc", 3, 4)), torch.tensor([0, 2, 1, 2])])
    add("cross_entropy/error/out_of_bounds", "cross_entropy", [logits, torch.tensor([0, 1, 5])])
    add("cross_entropy/error/negative_target", "cross_entropy", [logits, torch.tensor([0, -1, 2])])
    add("cross_entropy/error/batch", "cross_entropy", [logits, torch.tensor([0, 1])])
    add("cross_entropy/error/weight", "cross_entropy", [logits, y], {"weight": torch.ones(4, dtype=torch.float64)})
    add("cross_entropy/error/smoothing", "cross_entropy", [logits, y], {"label_smoothing": 1.5})
    add("cross_entropy/error/kdim_target", "cross_entropy", [randn("e", 2, 3, 4), torch.tensor([[0, 1, 2], [0, 1, 2]])])
    add("cross_entropy/error/multi_target", "cross_entropy", [logits, torch.rand(3, 5, generator=gen("mt"))])


def regression_losses():
    for dt in (torch.float32, torch.float64):
        n = str(dt).split(".")[1]
        a = randn("ra" + n, 3, 4, dtype=dt)
        b = randn("rb" + n, 3, 4, dtype=dt)
        for red in ("none", "mean", "sum"):
            add("mse_loss/%s/%s" % (n, red), "mse_loss", [a, b], {"reduction": red})
            add("l1_loss/%s/%s" % (n, red), "l1_loss", [a, b], {"reduction": red})
            add("smooth_l1_loss/%s/%s" % (n, red), "smooth_l1_loss", [a, b], {"reduction": red, "beta": 0.5})
            add("huber_loss/%s/%s" % (n, red), "huber_loss", [a, b], {"reduction": red, "delta": 0.7})
    a, b = randn("x", 3, 4), randn("y", 3, 4)
    add("smooth_l1_loss/float64/default", "smooth_l1_loss", [a, b])
    add("smooth_l1_loss/float64/beta0", "smooth_l1_loss", [a, b], {"beta": 0.0})
    add("huber_loss/float64/default", "huber_loss", [a, b])
    add("mse_loss/float64/noncontig", "mse_loss", [NC(randn("mnc", 4, 3)), b])
    add("smooth_l1_loss/error/beta", "smooth_l1_loss", [a, b], {"beta": -1.0})
    add("huber_loss/error/delta", "huber_loss", [a, b], {"delta": 0.0})
    p = torch.rand(3, 4, generator=gen("p"), dtype=torch.float64) * 0.9 + 0.05
    t = torch.rand(3, 4, generator=gen("t"), dtype=torch.float64)
    wt = torch.rand(3, 4, generator=gen("wt"), dtype=torch.float64)
    pw = torch.tensor([0.5, 1, 2, 3], dtype=torch.float64)
    for red in ("none", "mean", "sum"):
        add("binary_cross_entropy/%s" % red, "binary_cross_entropy", [p, t], {"reduction": red})
        add("binary_cross_entropy/weight/%s" % red, "binary_cross_entropy", [p, t], {"reduction": red, "weight": wt})
        add("binary_cross_entropy_with_logits/%s" % red, "binary_cross_entropy_with_logits", [a, t], {"reduction": red})
        add("binary_cross_entropy_with_logits/pos_weight/%s" % red, "binary_cross_entropy_with_logits", [a, t],
            {"reduction": red, "pos_weight": pw, "weight": wt})
    add("binary_cross_entropy/edges", "binary_cross_entropy",
        [torch.tensor([0., 1, 0, 1], dtype=torch.float64), torch.tensor([0., 1, 1, 0], dtype=torch.float64)])
    add("binary_cross_entropy_with_logits/large", "binary_cross_entropy_with_logits",
        [torch.tensor([-200., 200, 50, -50], dtype=torch.float64), torch.tensor([1., 0, 0.5, 0.5], dtype=torch.float64)],
        {"reduction": "none"})
    add("binary_cross_entropy/error/size", "binary_cross_entropy", [p[0, :3], t[0, :2]])
    add("binary_cross_entropy/error/range", "binary_cross_entropy", [torch.tensor([1.5], dtype=torch.float64),
                                                                    torch.tensor([1.0], dtype=torch.float64)])
    add("binary_cross_entropy_with_logits/error/size", "binary_cross_entropy_with_logits", [a[0, :3], t[0, :2]])
    lp = torch.log_softmax(randn("kl", 3, 4), 1)
    tp = torch.softmax(randn("kt", 3, 4), 1)
    tp[0, 1] = 0.0
    for red in ("none", "mean", "sum", "batchmean"):
        add("kl_div/%s" % red, "kl_div", [lp, tp], {"reduction": red})
        add("kl_div/log_target/%s" % red, "kl_div", [lp, torch.log_softmax(randn("klt", 3, 4), 1)],
            {"reduction": red, "log_target": True})
    add("kl_div/error/reduction", "kl_div", [lp, tp], {"reduction": "foo"})


def attention():
    q = torch.tensor([[1., 0], [0, 1]], dtype=torch.float64)
    k = torch.tensor([[1., 0], [0, 1], [1, 1]], dtype=torch.float64)
    v = torch.tensor([[1., 2], [3, 4], [5, 6]], dtype=torch.float64)
    sdpa = "scaled_dot_product_attention"
    add("sdpa/spec", sdpa, [q, k, v])
    add("sdpa/spec/causal", sdpa, [k, k, v], {"is_causal": True})
    Q, K, V = randn("q", 2, 4, 3, 5), randn("k", 2, 4, 6, 5), randn("v", 2, 4, 6, 7)
    add("sdpa/batched", sdpa, [Q, K, V])
    add("sdpa/scale", sdpa, [Q, K, V], {"scale": 0.3})
    add("sdpa/bool_mask", sdpa, [Q, K, V], {"attn_mask": torch.rand(3, 6, generator=gen("bm")) > 0.3})
    add("sdpa/float_mask", sdpa, [Q, K, V], {"attn_mask": randn("fm", 4, 3, 6)})
    add("sdpa/causal_rect", sdpa, [Q, K, V], {"is_causal": True})
    add("sdpa/gqa", sdpa, [Q, randn("kg", 2, 2, 6, 5), randn("vg", 2, 2, 6, 7)], {"enable_gqa": True})


def write(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in CASES]
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_functional.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"cases":[\n' + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    activations()
    cross_entropy()
    regression_losses()
    attention()
    write(OUT)
    sys.stderr.write("wrote %s: %d cases\n" % (os.path.relpath(OUT), len(CASES)))


if __name__ == "__main__":
    main()

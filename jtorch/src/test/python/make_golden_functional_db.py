#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for the functional table (org.jtorch.testing.FunctionalDb).

What it makes
    jtorch/src/test/resources/golden/functional_db.json, read by org.jtorch.nn.functional.FunctionalDbTest, which
    sweeps every entry of FunctionalDb: values against these fixtures, gradcheck in float64, meta-device shapes.

How to run (from the repository root)
    python3 -m venv .venv-t213 && .venv-t213/bin/pip install torch==2.13.0 numpy
    .venv-t213/bin/python jtorch/src/test/python/make_golden_functional_db.py

Inputs
    Each case lists its tensor arguments in the order the Java sample builds them. Their values are those of
    org.jtorch.testing.SampleInputs (float64): tensor number s of a sample (counted from 0 in argument order) holds,
    at logical element i, ((7 i + 3 s) mod 11) / 4 - 1.25 ("t"; "nc" and "ex" are the same values laid out
    transposed or expanded along dim 0, where i runs modulo one row), ((7 i + 3 s) mod 9) / 8 for "unit", and
    (i + s) mod 3 != 0 for a bool "mask". Explicit index tensors ("idx") hold the listed int64 values and take no
    number. The fixture records the inputs too, so the Java test notices if the two ever disagree.

Reference
    PyTorch 2.13's torch.nn.functional (F.rms_norm, F.scaled_dot_product_attention and F.linear_cross_entropy
    included; the chunked linear_cross_entropy cases are checked against PyTorch's function, whose value the chunked
    path must give). Nothing these cases touch changed in 2.14 or 2.15.

Format (tensors as in make_golden_core.py: {"dtype", "shape", "data"})
    {"id": "<functional>/<sample>", "op": "<functional>", "args": [T...], "kwargs": {}, "out": T}
Deterministic: no random numbers, one thread, sorted keys.
"""
import json
import math
import os

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


def t_json(x):
    x = x.detach()
    return {"dtype": str(x.dtype).replace("torch.", ""), "shape": list(x.shape),
            "data": [v if isinstance(v, (int, bool)) else float(v) for v in x.reshape(-1).tolist()]}


# ---- SampleInputs' values --------------------------------------------------------------------------------------
class Spec:
    def __init__(self, kind, shape, values=None):
        self.kind, self.shape, self.values = kind, shape, values


def t(*shape):
    return Spec("t", shape)


def nc(*shape):
    return Spec("nc", shape)


def ex(*shape):
    return Spec("ex", shape)


def unit(*shape):
    return Spec("unit", shape)


def mask(*shape):
    return Spec("mask", shape)


def idx(values, *shape):
    return Spec("idx", shape, values)


def build(specs):
    out, s = [], 0
    for sp in specs:
        if sp.kind == "idx":
            out.append(torch.tensor(sp.values, dtype=torch.int64).reshape(sp.shape))
            continue
        n = math.prod(sp.shape)
        period = n // sp.shape[0] if sp.kind == "ex" and sp.shape[0] > 0 else n
        period = max(period, 1)
        vals = []
        for j in range(n):
            i = j % period
            if sp.kind == "unit":
                vals.append(((i * 7 + s * 3) % 9) / 8.0)
            elif sp.kind == "mask":
                vals.append((i + s) % 3 != 0)
            else:
                vals.append(((i * 7 + s * 3) % 11) / 4.0 - 1.25)
        dtype = torch.bool if sp.kind == "mask" else torch.float64
        out.append(torch.tensor(vals, dtype=dtype).reshape(sp.shape))
        s += 1
    return out


cases = []


def case(name, fn, specs):
    args = build(specs)
    out = fn(*args)
    cases.append({"id": name, "op": name.split("/")[0], "args": [t_json(a) for a in args], "kwargs": {}, "out": t_json(out)})


def lce(x, w, y, b=None, **kw):
    return F.linear_cross_entropy(x, w, y, linear_bias=b, **kw)


def bn_train(x, w, b):
    rm, rv = torch.linspace(-1, 1, x.shape[1]), torch.linspace(0.5, 2, x.shape[1])
    return F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.1, eps=1e-5)


def bn_eval(x, w, b):
    return F.batch_norm(x, torch.linspace(-1, 1, x.shape[1]), torch.linspace(0.5, 2, x.shape[1]), w, b, training=False, eps=1e-5)


# ---- the table (same ids, order of arguments and calls as FunctionalDb.java) ------------------------------------
case("linear/basic", lambda x, w: F.linear(x, w), [t(4, 3), t(5, 3)])
case("linear/bias-batched", lambda x, w, b: F.linear(x, w, b), [t(2, 4, 3), nc(5, 3), t(5)])
case("linear/bias-1d", lambda x, w, b: F.linear(x, w, b), [t(3), t(5, 3), t(5)])
case("bilinear/bias", lambda a, b, w, c: F.bilinear(a, b, w, c), [t(4, 3), t(4, 2), t(5, 3, 2), t(5)])
case("conv1d/stride-pad-groups", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=1, groups=2), [t(2, 4, 7), t(4, 2, 3), t(4)])
case("conv2d/bias", lambda x, w, b: F.conv2d(x, w, b), [t(2, 2, 5, 4), t(3, 2, 3, 3), t(3)])
case("conv2d/stride-pad-dilation", lambda x, w: F.conv2d(x, w, None, stride=(2, 1), padding=(1, 2), dilation=(1, 2)),
     [nc(1, 2, 5, 6), t(3, 2, 2, 3)])
case("max_pool2d/basic", lambda x: F.max_pool2d(x, 2), [t(2, 2, 4, 6)])
case("max_pool2d/pad-ceil", lambda x: F.max_pool2d(x, 3, stride=2, padding=1, ceil_mode=True), [nc(1, 2, 5, 6)])
case("avg_pool2d/pad-exclude", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False), [t(2, 2, 5, 6)])
case("avg_pool2d/divisor-expanded", lambda x: F.avg_pool2d(x, 2, divisor_override=3), [ex(2, 3, 4, 4)])
case("adaptive_avg_pool2d/3x2", lambda x: F.adaptive_avg_pool2d(x, (3, 2)), [t(2, 2, 5, 5)])
case("adaptive_avg_pool2d/none", lambda x: F.adaptive_avg_pool2d(x, (None, 2)), [nc(2, 5, 4)])
case("dropout/eval", lambda x: F.dropout(x, 0.5, training=False), [t(3, 4)])
case("dropout/p0", lambda x: F.dropout(x, 0.0, training=True), [nc(3, 4)])
case("embedding/basic", lambda i, w: F.embedding(i, w), [idx([0, 2, 4, 1], 2, 2), t(5, 3)])
case("embedding/padding-idx", lambda i, w: F.embedding(i, w, padding_idx=1), [idx([1, 3, 1, 0], 4), nc(4, 3)])
case("embedding_bag/mean", lambda i, w, o: F.embedding_bag(i, w, o, mode="mean"),
     [idx([1, 2, 4, 0, 3, 2], 6), t(5, 3), idx([0, 2, 2], 3)])
case("embedding_bag/sum-weights", lambda i, w, o, p: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=p),
     [idx([1, 2, 4, 0, 3, 2], 6), t(5, 3), idx([0, 3], 2), t(6)])
case("one_hot/basic", lambda i: F.one_hot(i, 5), [idx([0, 3, 1, 4, 4, 2], 2, 3)])
case("pad/constant", lambda x: F.pad(x, (1, 2), value=0.5), [t(2, 3)])
case("pad/reflect", lambda x: F.pad(x, (1, 1, 2, 0), mode="reflect"), [t(1, 3, 4)])
case("pad/replicate", lambda x: F.pad(x, (2, 1), mode="replicate"), [nc(2, 3, 4)])
case("pad/circular", lambda x: F.pad(x, (1, 2), mode="circular"), [t(1, 2, 4)])
case("layer_norm/affine", lambda x, w, b: F.layer_norm(x, (4,), w, b, 1e-5), [t(3, 4), t(4), t(4)])
case("layer_norm/2d-transposed", lambda x: F.layer_norm(x, (3, 4)), [nc(2, 3, 4)])
case("rms_norm/weight", lambda x, w: F.rms_norm(x, (4,), w, 1e-6), [t(3, 4), t(4)])
case("rms_norm/default-eps", lambda x: F.rms_norm(x, (3, 4)), [nc(2, 3, 4)])
case("group_norm/affine", lambda x, w, b: F.group_norm(x, 2, w, b, eps=1e-5), [t(2, 4, 3), t(4), t(4)])
case("batch_norm/train", bn_train, [t(4, 3), t(3), t(3)])
case("batch_norm/eval", bn_eval, [t(2, 3, 4), t(3), t(3)])
case("normalize/p2", lambda x: F.normalize(x), [t(3, 4)])
case("normalize/p1-dim0", lambda x: F.normalize(x, p=1.0, dim=0), [nc(3, 4)])
case("softmax/dim1", lambda x: F.softmax(x, 1), [t(2, 3, 4)])
case("softmax/transposed-last", lambda x: F.softmax(x, -1), [nc(3, 4)])
case("log_softmax/dim0", lambda x: F.log_softmax(x, 0), [t(3, 4)])
case("gelu/none", lambda x: F.gelu(x), [t(3, 4)])
case("gelu/tanh", lambda x: F.gelu(x, approximate="tanh"), [nc(3, 4)])
case("silu/basic", lambda x: F.silu(x), [t(3, 4)])
case("relu/basic", lambda x: F.relu(x), [t(3, 4)])
case("leaky_relu/slope", lambda x: F.leaky_relu(x, 0.2), [t(3, 4)])
case("elu/alpha", lambda x: F.elu(x, 1.5), [nc(3, 4)])
case("hardtanh/bounds", lambda x: F.hardtanh(x, -0.5, 0.75), [t(3, 4)])
case("mish/basic", lambda x: F.mish(x), [t(3, 4)])
case("tanh/basic", lambda x: torch.tanh(x), [t(3, 4)])
case("sigmoid/basic", lambda x: torch.sigmoid(x), [ex(3, 4)])
case("cross_entropy/indices", lambda x, y: F.cross_entropy(x, y), [t(4, 5), idx([0, 3, 4, 1], 4)])
case("cross_entropy/weight-ignore-smoothing",
     lambda x, y, w: F.cross_entropy(x, y, weight=w, ignore_index=3, label_smoothing=0.1), [t(4, 5), idx([0, 3, 4, 1], 4), unit(5)])
case("cross_entropy/probs-sum", lambda x, p: F.cross_entropy(x, p, reduction="sum"), [t(4, 5), unit(4, 5)])
case("cross_entropy/kdim-none", lambda x, y: F.cross_entropy(x, y, reduction="none"),
     [nc(2, 3, 4), idx([0, 1, 2, 0, 2, 2, 1, 0], 2, 4)])
case("nll_loss/basic", lambda x, y: F.nll_loss(x, y), [t(4, 5), idx([0, 3, 4, 1], 4)])
case("nll_loss/weight-sum", lambda x, y, w: F.nll_loss(x, y, weight=w, reduction="sum"), [t(4, 5), idx([2, 3, 0, 1], 4), unit(5)])
case("mse_loss/mean", lambda x, y: F.mse_loss(x, y), [t(3, 4), t(3, 4)])
case("mse_loss/none-transposed", lambda x, y: F.mse_loss(x, y, reduction="none"), [nc(3, 4), t(3, 4)])
case("l1_loss/sum", lambda x, y: F.l1_loss(x, y, reduction="sum"), [t(3, 4), nc(3, 4)])
case("smooth_l1_loss/beta", lambda x, y: F.smooth_l1_loss(x, y, beta=0.5), [t(3, 4), t(3, 4)])
case("huber_loss/delta-none", lambda x, y: F.huber_loss(x, y, reduction="none", delta=0.75), [t(3, 4), t(3, 4)])
case("binary_cross_entropy/weight", lambda x, y, w: F.binary_cross_entropy(x * 0.8 + 0.1, y, weight=w),
     [unit(3, 4), unit(3, 4), unit(3, 4)])
case("binary_cross_entropy_with_logits/pos-weight",
     lambda x, y, w, p: F.binary_cross_entropy_with_logits(x, y, weight=w, pos_weight=p), [t(3, 4), unit(3, 4), t(3, 4), unit(4)])
case("kl_div/batchmean", lambda x, y: F.kl_div(x, y, reduction="batchmean"), [t(3, 4), unit(3, 4)])
case("kl_div/log-target-sum", lambda x, y: F.kl_div(x, y, reduction="sum", log_target=True), [t(3, 4), t(3, 4)])
case("cosine_embedding_loss/margin", lambda a, b, y: F.cosine_embedding_loss(a, b, y, margin=0.2),
     [t(4, 5), t(4, 5), idx([1, -1, -1, 1], 4)])
case("scaled_dot_product_attention/basic", lambda q, k, v: F.scaled_dot_product_attention(q, k, v), [t(2, 3, 4), t(2, 5, 4), t(2, 5, 3)])
case("scaled_dot_product_attention/causal-scale", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=0.3),
     [t(1, 2, 4, 3), nc(1, 2, 4, 3), t(1, 2, 4, 3)])
case("scaled_dot_product_attention/float-mask", lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, m), [t(2, 3, 4), t(2, 5, 4), t(2, 5, 4), t(3, 5)])
case("scaled_dot_product_attention/bool-mask", lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, m), [t(2, 3, 4), t(2, 5, 4), t(2, 5, 4), mask(3, 5)])
case("linear_cross_entropy/reference-bias", lambda x, w, b, y: lce(x, w, y, b), [t(6, 3), t(5, 3), t(5), idx([0, 4, 1, 2, 3, 4], 6)])
case("linear_cross_entropy/chunked-mean", lambda x, w, y: lce(x, w, y), [t(6, 3), nc(5, 3), idx([0, 4, 1, 2, 3, 4], 6)])
case("linear_cross_entropy/chunked-none-ignore", lambda x, w, b, y: lce(x, w, y, b, reduction="none", ignore_index=2),
     [t(6, 3), t(5, 3), t(5), idx([0, 4, 2, 2, 3, 1], 6)])
case("linear_cross_entropy/chunked-probs-sum", lambda x, w, p: lce(x, w, p, reduction="sum"), [t(6, 3), t(5, 3), unit(6, 5)])
case("pdist/p2", lambda x: F.pdist(x), [t(4, 3)])
case("pdist/p1.5", lambda x: F.pdist(x, 1.5), [nc(4, 3)])

out = os.path.join(os.path.dirname(__file__), "..", "resources", "golden", "functional_db.json")
with open(out, "w") as f:
    json.dump({"cases": cases, "generator": "make_golden_functional_db.py", "torch": torch.__version__}, f, sort_keys=True)
    f.write("\n")
print(len(cases), "cases")

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's convolution, pooling, normalisation, embedding-bag, bilinear and attention
functionals and modules.

What it makes
    jtorch/src/test/resources/golden/modules2.json, read by org.jtorch.nn.ConvPoolNormGoldenTest and
    org.jtorch.nn.Modules2GoldenTest.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_modules2.py

Format (tensors as in make_golden_core.py: {"dtype", "shape", "data"}):
    functional: {"id": name, "op": "functional", "args": [T...], "kwargs": {...},
                 "out": {"output": T, "grad_output": T, "grads": [T or null per arg], "extra": {...}}}
        grads are d(sum(output * grad_output))/d(arg) for the floating-point args; an integer output (int64
        avg_pool2d) has a null grad_output and no grads.
    module:     {"id": name, "op": "module", "args": [T...], "kwargs": {"module": name},
                 "out": {"state": {key: T}, "output": T, "grad_output": T, "grads": [T or null per arg],
                         "param_grads": {name: T}, "state_after": {key: T}, "repr": str}}
        "state" is the state dict before the forward; "state_after" after it (running stats, max_norm).
    init:       {"id": "init/<name>", "op": "init", "kwargs": {"module": name, "seed": s}, "out": {"state": {...}}}
Deterministic: fixed seeds, one thread, sorted keys.
"""
import json
import math
import os

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


def t(x):
    if x is None:
        return None
    x = x.detach()
    return {"dtype": str(x.dtype).replace("torch.", ""), "shape": list(x.shape),
            "data": [v if isinstance(v, (int, bool)) else float(v) for v in x.reshape(-1).tolist()]}


def leaf(*shape, dtype=torch.float64):
    return torch.randn(*shape, dtype=dtype).requires_grad_(True)


def run(fn, args):
    out = fn(*args)
    main = out[0] if isinstance(out, tuple) else out
    go = torch.randn_like(main) if main.is_floating_point() else None  # integer outputs (int64 avg_pool2d) have no gradient
    diff = [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]
    grads = torch.autograd.grad(main, diff, go, allow_unused=True) if diff else []
    it = iter(grads)
    per_arg = [t(next(it)) if isinstance(a, torch.Tensor) and a.requires_grad else None for a in args]
    return out, main, go, per_arg


cases = []


def functional(name, fn, args, kwargs=None, extra=None):
    torch.manual_seed(1000 + len(cases))
    args = args()
    out, main, go, grads = run(fn, args)
    ex = {}
    if isinstance(out, tuple):
        ex["indices"] = t(out[1])
    if extra:
        ex.update({k: t(v) for k, v in extra(args).items()})
    cases.append({"id": name, "op": "functional", "args": [t(a) for a in args], "kwargs": kwargs or {},
                  "out": {"output": t(main), "grad_output": t(go), "grads": grads, "extra": ex}})


# ---- convolution ------------------------------------------------------------------------------------------------
functional("conv2d/basic", lambda x, w, b: F.conv2d(x, w, b), lambda: [leaf(2, 3, 7, 6), leaf(4, 3, 3, 3), leaf(4)])
functional("conv2d/stride-pad", lambda x, w, b: F.conv2d(x, w, b, stride=2, padding=1),
           lambda: [leaf(2, 3, 7, 6), leaf(4, 3, 3, 3), leaf(4)])
functional("conv2d/asym", lambda x, w: F.conv2d(x, w, None, stride=(2, 1), padding=(0, 2), dilation=(1, 2)),
           lambda: [leaf(2, 2, 8, 7), leaf(3, 2, 2, 3)])
functional("conv2d/groups", lambda x, w, b: F.conv2d(x, w, b, padding=1, groups=2),
           lambda: [leaf(2, 4, 5, 5), leaf(6, 2, 3, 3), leaf(6)])
functional("conv2d/depthwise-dilated", lambda x, w: F.conv2d(x, w, None, padding=2, dilation=2, groups=3),
           lambda: [leaf(1, 3, 6, 6), leaf(3, 1, 3, 3)])
functional("conv2d/1x1", lambda x, w, b: F.conv2d(x, w, b), lambda: [leaf(2, 3, 4, 5), leaf(5, 3, 1, 1), leaf(5)])
functional("conv2d/same-even", lambda x, w: F.conv2d(x, w, None, padding="same"), lambda: [leaf(2, 2, 5, 6), leaf(3, 2, 4, 2)])
functional("conv2d/same-dilated", lambda x, w: F.conv2d(x, w, None, padding="same", dilation=2),
           lambda: [leaf(1, 2, 7, 7), leaf(2, 2, 3, 3)])
functional("conv2d/valid", lambda x, w: F.conv2d(x, w, None, padding="valid"), lambda: [leaf(1, 2, 5, 5), leaf(2, 2, 3, 3)])
functional("conv2d/unbatched", lambda x, w, b: F.conv2d(x, w, b, padding=1), lambda: [leaf(3, 5, 5), leaf(2, 3, 3, 3), leaf(2)])
functional("conv1d/basic", lambda x, w, b: F.conv1d(x, w, b), lambda: [leaf(2, 3, 9), leaf(4, 3, 3), leaf(4)])
functional("conv1d/all", lambda x, w, b: F.conv1d(x, w, b, stride=2, padding=2, dilation=2, groups=2),
           lambda: [leaf(2, 4, 11), leaf(6, 2, 3), leaf(6)])
functional("conv1d/same", lambda x, w: F.conv1d(x, w, None, padding="same"), lambda: [leaf(2, 2, 7), leaf(3, 2, 4)])
functional("conv1d/unbatched", lambda x, w: F.conv1d(x, w), lambda: [leaf(3, 6), leaf(2, 3, 2)])

# ---- pooling --------------------------------------------------------------------------------------------------
functional("max_pool2d/basic", lambda x: F.max_pool2d(x, 2, return_indices=True), lambda: [leaf(2, 3, 6, 7)])
functional("max_pool2d/all", lambda x: F.max_pool2d(x, (3, 2), stride=(2, 1), padding=(1, 1), dilation=(1, 2),
                                                    ceil_mode=True, return_indices=True), lambda: [leaf(2, 2, 7, 8)])
functional("max_pool2d/ceil", lambda x: F.max_pool2d(x, 3, stride=2, ceil_mode=True, return_indices=True),
           lambda: [leaf(1, 2, 6, 6)])
functional("max_pool2d/unbatched", lambda x: F.max_pool2d(x, 2, stride=1, return_indices=True), lambda: [leaf(2, 4, 4)])
functional("avg_pool2d/basic", lambda x: F.avg_pool2d(x, 2), lambda: [leaf(2, 3, 6, 7)])
functional("avg_pool2d/pad-include", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), lambda: [leaf(2, 2, 7, 6)])
functional("avg_pool2d/pad-exclude-ceil", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                 count_include_pad=False), lambda: [leaf(2, 2, 6, 6)])
functional("avg_pool2d/divisor", lambda x: F.avg_pool2d(x, (2, 3), stride=(1, 2), padding=(1, 1), divisor_override=5),
           lambda: [leaf(1, 2, 5, 6)])
functional("avg_pool2d/ceil-include", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True),
           lambda: [leaf(1, 1, 6, 6)])
functional("adaptive_avg_pool2d/3x5", lambda x: F.adaptive_avg_pool2d(x, (3, 5)), lambda: [leaf(2, 3, 7, 9)])
functional("adaptive_avg_pool2d/1", lambda x: F.adaptive_avg_pool2d(x, 1), lambda: [leaf(2, 3, 4, 5)])
functional("adaptive_avg_pool2d/up", lambda x: F.adaptive_avg_pool2d(x, (5, 4)), lambda: [leaf(1, 2, 3, 3)])

# ---- normalisation --------------------------------------------------------------------------------------------
def bn_train(x, w, b):
    rm, rv = torch.linspace(-1, 1, x.shape[1], dtype=x.dtype), torch.linspace(0.5, 2, x.shape[1], dtype=x.dtype)
    out = F.batch_norm(x, rm, rv, w, b, training=True, momentum=0.3, eps=1e-4)
    bn_train.stats = (rm, rv)
    return out


functional("batch_norm/train", bn_train, lambda: [leaf(4, 3, 2, 3), leaf(3), leaf(3)],
           extra=lambda a: {"running_mean": bn_train.stats[0], "running_var": bn_train.stats[1]})
functional("batch_norm/train-2d", bn_train, lambda: [leaf(5, 4), leaf(4), leaf(4)],
           extra=lambda a: {"running_mean": bn_train.stats[0], "running_var": bn_train.stats[1]})
functional("batch_norm/eval", lambda x, w, b: F.batch_norm(x, torch.linspace(-1, 1, 3, dtype=x.dtype),
                                                           torch.linspace(0.5, 2, 3, dtype=x.dtype), w, b, training=False,
                                                           eps=1e-4), lambda: [leaf(4, 3, 5), leaf(3), leaf(3)])
functional("group_norm/affine", lambda x, w, b: F.group_norm(x, 2, w, b, eps=1e-4), lambda: [leaf(3, 6, 4), leaf(6), leaf(6)])
functional("group_norm/plain", lambda x: F.group_norm(x, 3), lambda: [leaf(2, 6, 2, 3)])
functional("normalize/p2", lambda x: F.normalize(x), lambda: [leaf(3, 4, 2)])
functional("normalize/p1-dim0", lambda x: F.normalize(x, p=1.0, dim=0), lambda: [leaf(3, 4)])

# ---- layers and losses ----------------------------------------------------------------------------------------
functional("bilinear/bias", lambda x1, x2, w, b: F.bilinear(x1, x2, w, b),
           lambda: [leaf(4, 3), leaf(4, 5), leaf(2, 3, 5), leaf(2)])
functional("bilinear/batched", lambda x1, x2, w: F.bilinear(x1, x2, w), lambda: [leaf(2, 3, 3), leaf(2, 3, 4), leaf(5, 3, 4)])
functional("embedding_bag/sum-weights", lambda i, w, o, p: F.embedding_bag(i, w, o, mode="sum", per_sample_weights=p),
           lambda: [torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), leaf(10, 3), torch.tensor([0, 3, 3, 6]), leaf(8)])
functional("embedding_bag/mean", lambda i, w, o: F.embedding_bag(i, w, o, mode="mean"),
           lambda: [torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), leaf(10, 3), torch.tensor([0, 2, 2, 5])])
functional("embedding_bag/max-2d", lambda i, w: F.embedding_bag(i, w, mode="max"),
           lambda: [torch.tensor([[1, 2, 4], [5, 4, 3]]), leaf(10, 3)])
functional("embedding_bag/last-offset-padding", lambda i, w, o: F.embedding_bag(i, w, o, mode="mean", include_last_offset=True,
                                                                                padding_idx=2),
           lambda: [torch.tensor([1, 2, 4, 5, 2, 3, 2, 9]), leaf(10, 3), torch.tensor([0, 3, 5, 8])])
functional("cosine_embedding_loss/mean", lambda a, b, y: F.cosine_embedding_loss(a, b, y, margin=0.2),
           lambda: [leaf(4, 5), leaf(4, 5), torch.tensor([1, -1, -1, 1])])
functional("cosine_embedding_loss/none-1d", lambda a, b, y: F.cosine_embedding_loss(a, b, y, reduction="none"),
           lambda: [leaf(5), leaf(5), torch.tensor(-1)])

# ---- added later (appended so the earlier cases keep their seeds) ------------------------------------------------
functional("adaptive_avg_pool2d/none-h", lambda x: F.adaptive_avg_pool2d(x, (None, 3)), lambda: [leaf(2, 3, 5, 7)])
functional("adaptive_avg_pool2d/none-w", lambda x: F.adaptive_avg_pool2d(x, (2, None)), lambda: [leaf(3, 5, 4)])


# int64 avg_pool2d (PyTorch's CPU kernel dispatches over the floating types and Long): an int64 window sum, then
# C++ integer division, which truncates toward zero. The values span negatives so the truncation shows.
def ints(*shape):
    return torch.randint(-20, 21, shape, dtype=torch.int64)


functional("avg_pool2d/int64-basic", lambda x: F.avg_pool2d(x, 2, stride=1), lambda: [ints(2, 3, 5, 6)])
functional("avg_pool2d/int64-pad-include", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1), lambda: [ints(2, 2, 7, 6)])
functional("avg_pool2d/int64-pad-exclude-ceil", lambda x: F.avg_pool2d(x, 3, stride=2, padding=1, ceil_mode=True,
                                                                       count_include_pad=False), lambda: [ints(1, 2, 6, 6)])
functional("avg_pool2d/int64-divisor", lambda x: F.avg_pool2d(x, (2, 3), stride=(1, 2), padding=(1, 1), divisor_override=-3),
           lambda: [ints(2, 5, 6)])


# ---- modules --------------------------------------------------------------------------------------------------
def build(name):
    """(module, inputs, call) for each module case; inputs are float32 leaves (or index tensors)."""
    f32 = dict(dtype=torch.float32)
    if name == "conv2d":
        return nn.Conv2d(3, 4, 3), [leaf(2, 3, 6, 5, **f32)], None
    if name == "conv2d_full":
        return nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2, bias=False), \
            [leaf(2, 4, 7, 6, **f32)], None
    if name == "conv2d_same_reflect":
        return nn.Conv2d(2, 3, 3, padding="same", padding_mode="reflect"), [leaf(2, 2, 5, 5, **f32)], None
    if name == "conv1d":
        return nn.Conv1d(3, 5, 3, stride=2, padding=1), [leaf(2, 3, 9, **f32)], None
    if name == "maxpool2d":
        return nn.MaxPool2d(3, stride=2, padding=1), [leaf(2, 3, 7, 7, **f32)], None
    if name == "avgpool2d":
        return nn.AvgPool2d(2, stride=1, padding=1, count_include_pad=False), [leaf(2, 3, 5, 4, **f32)], None
    if name == "adaptiveavgpool2d":
        return nn.AdaptiveAvgPool2d((2, 3)), [leaf(2, 3, 5, 7, **f32)], None
    if name == "adaptiveavgpool2d_none":
        return nn.AdaptiveAvgPool2d((None, 2)), [leaf(2, 3, 5, 7, **f32)], None
    if name == "batchnorm2d_train":
        return nn.BatchNorm2d(3), [leaf(4, 3, 3, 2, **f32)], None
    if name == "batchnorm2d_eval":
        m = nn.BatchNorm2d(3)
        with torch.no_grad():
            m.running_mean.normal_()
            m.running_var.uniform_(0.5, 2)
            m.weight.normal_()
            m.bias.normal_()
        m.eval()
        return m, [leaf(4, 3, 3, 2, **f32)], None
    if name == "batchnorm1d_cumulative":
        return nn.BatchNorm1d(4, momentum=None), [leaf(5, 4, **f32)], None
    if name == "batchnorm1d_noaffine":
        return nn.BatchNorm1d(3, affine=False, momentum=0.2), [leaf(4, 3, 5, **f32)], None
    if name == "groupnorm":
        m = nn.GroupNorm(2, 4)
        with torch.no_grad():
            m.weight.normal_()
            m.bias.normal_()
        return m, [leaf(3, 4, 5, **f32)], None
    if name == "bilinear":
        return nn.Bilinear(3, 4, 5), [leaf(6, 3, **f32), leaf(6, 4, **f32)], None
    if name == "embeddingbag_sum":
        m = nn.EmbeddingBag(10, 3, mode="sum")
        return m, [torch.tensor([1, 2, 4, 5, 4, 3, 2, 9]), torch.tensor([0, 4]), leaf(8, **f32)], \
            lambda m, i, o, p: m(i, o, per_sample_weights=p)
    if name == "embeddingbag_max":
        return nn.EmbeddingBag(10, 3, mode="max"), [torch.tensor([[1, 2, 4], [5, 4, 3]])], None
    if name == "embedding_maxnorm":
        return nn.Embedding(6, 4, max_norm=1.5), [torch.tensor([[0, 2], [2, 5]])], None
    if name == "mha":
        return nn.MultiheadAttention(8, 2), [leaf(3, 2, 8, **f32), leaf(4, 2, 8, **f32), leaf(4, 2, 8, **f32)], \
            lambda m, q, k, v: m(q, k, v)
    if name == "mha_masks":
        m = nn.MultiheadAttention(8, 4, batch_first=True)
        with torch.no_grad():
            m.in_proj_bias.normal_()
            m.out_proj.bias.normal_()
        kpm = torch.tensor([[False, False, True, False], [False, True, True, False]])
        am = torch.randn(3, 4)
        build.attn_mask = am
        return m, [leaf(2, 3, 8, **f32), leaf(2, 4, 8, **f32), leaf(2, 4, 8, **f32)], \
            lambda m, q, k, v: m(q, k, v, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False)
    if name == "mha_kvdim_noweights":
        m = nn.MultiheadAttention(6, 3, kdim=4, vdim=5, bias=False)
        am = torch.tensor([[False, True], [False, False], [True, False]])
        return m, [leaf(3, 2, 6, **f32), leaf(2, 2, 4, **f32), leaf(2, 2, 5, **f32)], \
            lambda m, q, k, v: m(q, k, v, attn_mask=am, need_weights=False)
    if name == "mha_unbatched":
        return nn.MultiheadAttention(4, 2), [leaf(3, 4, **f32), leaf(5, 4, **f32), leaf(5, 4, **f32)], \
            lambda m, q, k, v: m(q, k, v)
    if name == "mha_bias_kv_zero_attn":
        # bias_k/bias_v and a zero key/value appended after the 4 keys; both masks get two open columns
        m = nn.MultiheadAttention(8, 2, add_bias_kv=True, add_zero_attn=True)
        with torch.no_grad():
            m.in_proj_bias.normal_()
        kpm = torch.tensor([[False, True, False, True], [True, False, False, False]])
        am = torch.randn(3, 4)
        build.attn_mask = am
        return m, [leaf(3, 2, 8, **f32), leaf(4, 2, 8, **f32), leaf(4, 2, 8, **f32)], \
            lambda m, q, k, v: m(q, k, v, key_padding_mask=kpm, attn_mask=am, average_attn_weights=False)
    if name == "mha_bias_kv_bf_noweights":
        m = nn.MultiheadAttention(6, 3, add_bias_kv=True, kdim=4, vdim=5, batch_first=True)
        am = torch.tensor([[False, True, False], [False, False, True]])
        return m, [leaf(2, 2, 6, **f32), leaf(2, 3, 4, **f32), leaf(2, 3, 5, **f32)], \
            lambda m, q, k, v: m(q, k, v, attn_mask=am, need_weights=False)
    if name == "mha_zero_attn_unbatched":
        m = nn.MultiheadAttention(4, 2, add_zero_attn=True)
        kpm = torch.tensor([False, True, False, False, True])
        return m, [leaf(3, 4, **f32), leaf(5, 4, **f32), leaf(5, 4, **f32)], \
            lambda m, q, k, v: m(q, k, v, key_padding_mask=kpm)
    if name == "encoder_post_relu":
        m = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
        return m, [leaf(5, 2, 8, **f32)], None
    if name == "encoder_pre_gelu_bf":
        m = nn.TransformerEncoderLayer(8, 4, dim_feedforward=12, dropout=0.0, activation="gelu", batch_first=True,
                                       norm_first=True, layer_norm_eps=1e-6)
        mask = torch.triu(torch.full((5, 5), float("-inf")), 1)
        kpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
        return m, [leaf(2, 5, 8, **f32)], lambda m, x: m(x, src_mask=mask, src_key_padding_mask=kpm)
    raise KeyError(name)


MODULES = ["conv2d", "conv2d_full", "conv2d_same_reflect", "conv1d", "maxpool2d", "avgpool2d", "adaptiveavgpool2d",
           "batchnorm2d_train", "batchnorm2d_eval", "batchnorm1d_cumulative", "batchnorm1d_noaffine", "groupnorm", "bilinear",
           "embeddingbag_sum", "embeddingbag_max", "embedding_maxnorm", "mha", "mha_masks", "mha_kvdim_noweights",
           "mha_unbatched", "encoder_post_relu", "encoder_pre_gelu_bf", "adaptiveavgpool2d_none",
           "mha_bias_kv_zero_attn", "mha_bias_kv_bf_noweights", "mha_zero_attn_unbatched"]

for i, name in enumerate(MODULES):
    torch.manual_seed(200 + i)
    m, inputs, call = build(name)
    state = {k: t(v) for k, v in m.state_dict().items()}
    out = call(m, *inputs) if call else m(*inputs)
    if name.startswith("batchnorm") and name.endswith(("train", "cumulative", "noaffine")):
        out2 = m(inputs[0] * 0.5 + 1)  # a second step, so the cumulative/momentum update is seen twice
    main = out[0] if isinstance(out, tuple) else out
    go = torch.randn_like(main)
    params = [(k, p) for k, p in m.named_parameters()]
    diff_inputs = [x for x in inputs if x.requires_grad]
    grads = torch.autograd.grad(main, diff_inputs + [p for _, p in params], go, allow_unused=True)
    gi = iter(grads[:len(diff_inputs)])
    extra = {"attn_mask": t(build.attn_mask)} if name in ("mha_masks", "mha_bias_kv_zero_attn") else {}
    if isinstance(out, tuple) and out[1] is not None:
        extra["attn_weights"] = t(out[1])
    cases.append({"id": name, "op": "module", "args": [t(x) for x in inputs], "kwargs": {"module": name},
                  "out": {"state": state, "output": t(main), "grad_output": t(go),
                          "grads": [t(next(gi)) if x.requires_grad else None for x in inputs],
                          "param_grads": {k: t(g) for (k, _), g in zip(params, grads[len(diff_inputs):]) if g is not None},
                          "state_after": {k: t(v) for k, v in m.state_dict().items()}, "repr": repr(m), "extra": extra}})

for name in ["conv2d", "conv1d", "bilinear", "mha", "mha_kvdim_noweights", "encoder_post_relu", "embeddingbag_max",
             "mha_bias_kv_bf_noweights"]:
    torch.manual_seed(11)
    m, _, _ = build(name)
    cases.append({"id": "init/" + name, "op": "init", "args": [], "kwargs": {"module": name, "seed": 11},
                  "out": {"state": {k: t(v) for k, v in m.state_dict().items()}}})

out = os.path.join(os.path.dirname(__file__), "..", "resources", "golden", "modules2.json")
with open(out, "w") as f:
    json.dump({"cases": cases, "generator": "make_golden_modules2.py", "torch": torch.__version__}, f, sort_keys=True)
    f.write("\n")
print(len(cases), "cases")

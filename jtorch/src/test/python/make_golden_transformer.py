#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for nn.Transformer, nn.TransformerDecoder(Layer) and generate_square_subsequent_mask.

What it makes
    jtorch/src/test/resources/golden/transformer.json, one case per line:

    {"id", "op": "Transformer" | "TransformerDecoder",
     "args": [state_dict as [[key, tensor], ...] in PyTorch's order, src (or tgt), tgt (or memory), W],
     "kwargs": {constructor arguments, "masks": {name: tensor or null}, "grad_param": key},
     "out": [result, grad of args[1], grad of args[2], grad of the parameter grad_param]}
        (gradients of sum(W * result); dropout 0 in training mode, so no inference fast path runs)
    {"id", "op": "generate_square_subsequent_mask", "kwargs": {"sz"}, "out": [mask]}
    {"id", "op": "Transformer", "args": [...], "out": {"error": message}}

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_transformer.py
    with a Python that has PyTorch 2.13 (CPU) and NumPy.

Requirements
    PyTorch 2.13 (CPU). Deterministic: weights and inputs come from a seeded generator.
"""
import os

import torch

from golden_json import enc, write

torch.set_num_threads(1)
CASES = []
GEN = torch.Generator().manual_seed(0)


def randn(*shape):
    return torch.randn(*shape, generator=GEN, dtype=torch.float64)


def randomise(model):
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(randn(*p.shape) * 0.5)


def run_case(id_, op, model, a, b, masks, config, grad_param):
    model = model.double().train()
    randomise(model)
    a_ = a.clone().requires_grad_(True)
    b_ = b.clone().requires_grad_(True)
    out = model(a_, b_, **masks)
    weights = randn(*out.shape)
    param = dict(model.named_parameters())[grad_param]
    grads = torch.autograd.grad((weights * out).sum(), [a_, b_, param])
    state = [[k, enc(v)] for k, v in model.state_dict().items()]
    kwargs = dict(config)
    kwargs["masks"] = {k: (enc(v) if v is not None else None) for k, v in masks.items()}
    kwargs["grad_param"] = grad_param
    CASES.append({"id": id_, "op": op, "args": [state, enc(a), enc(b), enc(weights)], "kwargs": kwargs,
                  "out": [enc(out)] + [enc(g) for g in grads]})


def transformer(d_model=8, nhead=2, enc_layers=2, dec_layers=2, ff=16, activation="relu", batch_first=False,
                norm_first=False):
    config = {"d_model": d_model, "nhead": nhead, "num_encoder_layers": enc_layers, "num_decoder_layers": dec_layers,
              "dim_feedforward": ff, "activation": activation, "batch_first": batch_first, "norm_first": norm_first}
    model = torch.nn.Transformer(d_model, nhead, enc_layers, dec_layers, ff, 0.0, activation,
                                 batch_first=batch_first, norm_first=norm_first)
    return model, config


def main():
    model, config = transformer()
    pad = torch.tensor([[False, False, False, True, True], [False, False, False, False, False]])
    run_case("Transformer/post-norm/causal-and-padding", "Transformer", model, randn(5, 2, 8), randn(4, 2, 8),
             {"tgt_mask": torch.nn.Transformer.generate_square_subsequent_mask(4, dtype=torch.float64),
              "src_key_padding_mask": pad, "memory_key_padding_mask": pad,
              "tgt_key_padding_mask": torch.tensor([[False, False, False, True], [False, False, False, False]])},
             config, "decoder.layers.1.multihead_attn.in_proj_weight")
    model, config = transformer(activation="gelu", batch_first=True, norm_first=True, enc_layers=1, dec_layers=2)
    run_case("Transformer/pre-norm/batch-first/gelu", "Transformer", model, randn(2, 5, 8), randn(2, 3, 8),
             {"tgt_mask": torch.triu(torch.ones(3, 3, dtype=torch.bool), 1),
              "memory_mask": torch.tensor([[False, True, False, False, True]] * 3),
              "src_mask": randn(5, 5) * 0.1},
             config, "encoder.layers.0.linear1.weight")
    layer = torch.nn.TransformerDecoderLayer(8, 2, 16, 0.0)
    decoder = torch.nn.TransformerDecoder(layer, 2, torch.nn.LayerNorm(8))
    run_case("TransformerDecoder/with-norm", "TransformerDecoder", decoder, randn(4, 3, 8), randn(6, 3, 8),
             {"tgt_mask": torch.nn.Transformer.generate_square_subsequent_mask(4, dtype=torch.float64)},
             {"d_model": 8, "nhead": 2, "num_layers": 2, "dim_feedforward": 16, "activation": "relu",
              "batch_first": False, "norm_first": False, "norm": True}, "layers.0.self_attn.out_proj.weight")
    layer = torch.nn.TransformerDecoderLayer(8, 2, 16, 0.0, norm_first=True, batch_first=True)
    decoder = torch.nn.TransformerDecoder(layer, 1)
    run_case("TransformerDecoder/pre-norm-batch-first-no-norm", "TransformerDecoder", decoder, randn(2, 4, 8),
             randn(2, 3, 8), {"memory_key_padding_mask": torch.tensor([[False, False, True], [False, True, True]])},
             {"d_model": 8, "nhead": 2, "num_layers": 1, "dim_feedforward": 16, "activation": "relu",
              "batch_first": True, "norm_first": True, "norm": False}, "layers.0.norm3.weight")
    for sz in (1, 4):
        CASES.append({"id": "generate_square_subsequent_mask/%d" % sz, "op": "generate_square_subsequent_mask",
                      "args": [], "kwargs": {"sz": sz},
                      "out": [enc(torch.nn.Transformer.generate_square_subsequent_mask(sz))]})
    model, config = transformer()
    model = model.double()
    src, tgt = randn(5, 2, 8), randn(4, 3, 8)
    try:
        model(src, tgt)
        raise AssertionError("batch mismatch did not raise")
    except RuntimeError as e:
        CASES.append({"id": "Transformer/batch-mismatch", "op": "Transformer",
                      "args": [[[k, enc(v)] for k, v in model.state_dict().items()], enc(src), enc(tgt)],
                      "kwargs": dict(config, masks={}), "out": {"error": str(e).splitlines()[0]}})
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "transformer.json"), CASES, "make_golden_transformer.py")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Makes the fixture of examples' PortFromPyTorch with real PyTorch: a tiny GPT (the model of
benchmarks/peers/train_gpt.py: Embedding, LayerNorm, Linear, GELU, causal attention), its state dict as
PyTorch saves it, and PyTorch's logits for a fixed input.

    /usr/bin/python3 examples/src/test/python/make_port_fixture.py

writes examples/src/main/resources/org/jtorch/examples/port/{tiny_gpt.pt, tiny_gpt_io.pt}.
"""
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "benchmarks", "peers"))
import train_gpt  # noqa: E402

OUT = os.path.join(ROOT, "examples", "src", "main", "resources", "org", "jtorch", "examples", "port")

torch.manual_seed(20261129)
config = train_gpt.GPTConfig(vocab_size=72, block_size=16, n_layer=2, n_head=2, n_embd=32)
model = train_gpt.GPT(config)
with torch.no_grad():
    # Non-trivial norm parameters, so that a port which dropped or swapped them would show.
    for name, p in model.named_parameters():
        if p.dim() == 1:
            p.copy_(torch.randn_like(p) * 0.1 + (1.0 if name.endswith("weight") else 0.0))
model.eval()
idx = torch.randint(0, config.vocab_size, (2, config.block_size))
with torch.no_grad():
    logits = torch.nn.functional.linear(model(idx), model.lm_head.weight)

os.makedirs(OUT, exist_ok=True)
torch.save(model.state_dict(), os.path.join(OUT, "tiny_gpt.pt"))
torch.save({
    "config": {"vocab_size": config.vocab_size, "block_size": config.block_size, "n_layer": config.n_layer,
               "n_head": config.n_head, "n_embd": config.n_embd, "norm": config.norm},
    "input": idx,
    "logits": logits,
    "torch_version": str(torch.__version__),
}, os.path.join(OUT, "tiny_gpt_io.pt"))
print(f"wrote {OUT}/tiny_gpt.pt and tiny_gpt_io.pt with PyTorch {torch.__version__}; logits {tuple(logits.shape)}")

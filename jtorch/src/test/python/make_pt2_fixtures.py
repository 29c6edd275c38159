"""Writes the .pt2 fixtures of JTorch's export tests with PyTorch 2.13's torch.export: an MLP, a CNN
(conv/batchnorm/pool), a transformer encoder and TrainGpt's GPT (benchmarks/peers/train_gpt.py), each exported
with a dynamic batch dimension and saved by torch.export.save, with sample inputs at two batch sizes and the
outputs PyTorch computes for them (NumPy .npy files), and the MLP also in the layout torch.export.save wrote
before 2.8 (a plain zip with serialized_exported_program.json and pickled weights); and two programs of several
inputs, their batch dimension one Dim shared by the inputs: a transformer decoder layer (target, memory) and a
two-tower model (token ids, features) with two outputs, written as <name>_input_<batch>_<k>.npy and
<name>_output_<batch>_<k>.npy.

Run from the repository root with a Python that has PyTorch 2.13 and NumPy:
    python jtorch/src/test/python/make_pt2_fixtures.py
Writes jtorch/src/test/resources/export/. Re-running gives the same tensors (fixed seeds).
"""
import os
import sys
import zipfile

import numpy as np
import torch
import torch.nn as nn

ROOT = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(ROOT, "..", "..", "..", ".."))
OUT = os.path.join(REPO, "jtorch", "src", "test", "resources", "export")
sys.path.insert(0, os.path.join(REPO, "benchmarks", "peers"))
from train_gpt import GPT, GPTConfig  # noqa: E402


def mlp():
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.GELU(), nn.Linear(32, 10))


def cnn():
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(), nn.AvgPool2d(2),
        nn.Flatten(), nn.Linear(16 * 4 * 4, 10))


def encoder():
    layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True)
    return nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)


def gpt():
    return GPT(GPTConfig(vocab_size=65, block_size=32, n_layer=2, n_head=4, n_embd=32))


class TwoTower(nn.Module):
    """Token ids and features to class logits and a per-example score: two inputs, two outputs."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16)
        self.lin = nn.Linear(8, 16)
        self.head = nn.Linear(16, 4)

    def forward(self, tokens, features):
        h = torch.relu(self.emb(tokens).mean(1) + self.lin(features))
        return self.head(h), h.sum(-1)


def decoder():
    return nn.TransformerDecoderLayer(32, 4, 64, dropout=0.0, batch_first=True)


def float_input(shape):
    return lambda batch: torch.randn(batch, *shape)


MODELS = {
    "mlp": (mlp, float_input((16,))),
    "cnn": (cnn, float_input((3, 16, 16))),
    "encoder": (encoder, float_input((6, 32))),
    "gpt": (gpt, lambda batch: torch.randint(0, 65, (batch, 12))),
}


MULTI_INPUT_MODELS = {
    "decoder": (decoder, lambda batch: (torch.randn(batch, 5, 32), torch.randn(batch, 7, 32))),
    "two_tower": (TwoTower, lambda batch: (torch.randint(0, 50, (batch, 6)), torch.randn(batch, 8))),
}


def settle(model):
    """Gives batch norms running statistics other than their initial ones, then switches to inference."""
    with torch.no_grad():
        if any(isinstance(m, nn.BatchNorm2d) for m in model.modules()):
            model.train()
            for _ in range(3):
                model(torch.randn(8, 3, 16, 16) * 2 + 0.5)
    model.eval()


def save_legacy(ep, path):
    """torch.export.save's layout before 2.8: a plain zip of the serialized artifact's four parts and the version."""
    from torch._export.serde.schema import SCHEMA_VERSION
    from torch._export.serde.serialize import serialize
    artifact = serialize(ep)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("serialized_exported_program.json", artifact.exported_program)
        z.writestr("serialized_state_dict.pt", artifact.state_dict)
        z.writestr("serialized_constants.pt", artifact.constants)
        z.writestr("serialized_example_inputs.pt", artifact.example_inputs)
        z.writestr("version", ".".join(map(str, SCHEMA_VERSION)))


def main():
    os.makedirs(OUT, exist_ok=True)
    for i, (name, (make, sample)) in enumerate(MODELS.items()):
        torch.manual_seed(100 + i)
        model = make()
        settle(model)
        example = sample(3)
        batch = torch.export.Dim("batch", min=1, max=1024)
        ep = torch.export.export(model, (example,), dynamic_shapes=({0: batch},))
        torch.export.save(ep, os.path.join(OUT, name + ".pt2"))
        if name == "mlp":
            save_legacy(ep, os.path.join(OUT, name + "_legacy.pt2"))
        for b in (3, 5):
            x = sample(b)
            with torch.no_grad():
                y = model(x)
            np.save(os.path.join(OUT, "%s_input_%d.npy" % (name, b)), x.numpy())
            np.save(os.path.join(OUT, "%s_output_%d.npy" % (name, b)), y.numpy())
        print(name, sorted({n.target.__name__ for n in ep.graph.nodes if n.op == "call_function"}))
    for i, (name, (make, sample)) in enumerate(MULTI_INPUT_MODELS.items()):
        torch.manual_seed(200 + i)
        model = make()
        model.eval()
        examples = sample(3)
        batch = torch.export.Dim("batch", min=1, max=1024)
        ep = torch.export.export(model, examples, dynamic_shapes=tuple({0: batch} for _ in examples))
        torch.export.save(ep, os.path.join(OUT, name + ".pt2"))
        for b in (3, 5):
            xs = sample(b)
            with torch.no_grad():
                ys = model(*xs)
            ys = ys if isinstance(ys, tuple) else (ys,)
            for k, x in enumerate(xs):
                np.save(os.path.join(OUT, "%s_input_%d_%d.npy" % (name, b, k)), x.numpy())
            for k, y in enumerate(ys):
                np.save(os.path.join(OUT, "%s_output_%d_%d.npy" % (name, b, k)), y.numpy())
        print(name, sorted({n.target.__name__ for n in ep.graph.nodes if n.op == "call_function"}))


if __name__ == "__main__":
    main()

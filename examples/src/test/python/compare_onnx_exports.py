"""Compares JTorch's ONNX exports with PyTorch's own of the same modules.

Usage (from the repository root, with a Python that has PyTorch 2.13, onnx, onnxscript and onnxruntime):

    for m in mlp cnn encoder gpt; do
      ./mvnw -B -q -pl examples exec:exec -Dexample.main=org.jtorch.examples.ExportOnnx \
          -Dexample.args="--model $m --out target/onnx-compare/$m.onnx"
    done
    python examples/src/test/python/compare_onnx_exports.py examples/target/onnx-compare

For each module (an MLP, a CNN with conv/batch norm/pooling, a transformer encoder layer, TrainGpt's GPT at
TrainGpt's default size) it checks JTorch's model with onnx.checker (full check, with shape inference), exports the
same architecture with torch.onnx.export(dynamo=True) and a dynamic batch dimension, and prints both exporters'
opset, node count and op histogram; then it runs both models in onnxruntime (Python) at batch 1, 7 and 64 to show
that each accepts every batch size.
"""
import collections
import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
import torch
import torch.nn as nn

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "benchmarks", "peers"))
import train_gpt  # noqa: E402  (the PyTorch twin of TrainGpt's model)

VOCAB = 72  # the shipped corpus's vocabulary size, as ExportOnnx's GPT has it


def modules():
    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 8))
    cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(8, 16, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    enc = nn.TransformerEncoderLayer(32, 4, 64, 0.1, "gelu", 1e-5, batch_first=True)
    gpt = train_gpt.GPT(train_gpt.GPTConfig(VOCAB))
    return {
        "mlp": (mlp, torch.randn(2, 16)),
        "cnn": (cnn, torch.randn(2, 3, 16, 16)),
        "encoder": (enc, torch.randn(2, 10, 32)),
        "gpt": (gpt, torch.zeros(2, 64, dtype=torch.int64)),
    }


def histogram(model):
    return collections.Counter(n.op_type for n in model.graph.node)


def run_batches(path, example):
    session = ort.InferenceSession(path, providers=["CPUExecutionProvider"])
    name = session.get_inputs()[0].name
    shapes = []
    for b in (1, 7, 64):
        x = example[:1].repeat(b, *([1] * (example.dim() - 1))).numpy()
        shapes.append(tuple(session.run(None, {name: x})[0].shape))
    return shapes


def main(jtorch_dir):
    print(f"torch {torch.__version__}, onnx {onnx.__version__}, onnxruntime {ort.__version__}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (module, example) in modules().items():
            module.eval()
            ours = os.path.join(jtorch_dir, name + ".onnx")
            onnx.checker.check_model(ours, full_check=True)
            theirs = os.path.join(tmp, name + ".onnx")
            batch = torch.export.Dim("batch", min=2, max=1024)
            torch.onnx.export(module, (example,), theirs, dynamo=True,
                              dynamic_shapes=({0: batch},), external_data=False)
            for who, path in (("jtorch", ours), ("pytorch", theirs)):
                model = onnx.load(path)
                ops = histogram(model)
                opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
                print(f"{name:8s} {who:8s} opset {opset} nodes {sum(ops.values()):4d} "
                      f"outputs at batch 1/7/64 {run_batches(path, example)}")
                print("         " + ", ".join(f"{k} {v}" for k, v in sorted(ops.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "examples/target/onnx-compare"))

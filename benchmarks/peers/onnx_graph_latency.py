"""ONNX Runtime latency of exported models: JTorch's exports in one or more directories (say, before and after a change
to the exporter) and PyTorch 2.13's export of the same modules, side by side.

Usage (a Python with PyTorch 2.13, onnx, onnxscript and onnxruntime; from the repository root):

    python benchmarks/peers/onnx_graph_latency.py examples/target/onnx-compare [more directories of mlp/cnn/encoder/gpt]

Each model runs in its own onnxruntime session (all graph optimizations on, one intra-op thread) at batch 1 and 64;
the sessions are timed alternately, ROUNDS rounds, and the median per run is reported in microseconds.
"""
import os
import statistics
import sys
import tempfile
import time

import numpy as np
import onnxruntime as ort
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples", "src", "test", "python"))
import compare_onnx_exports  # noqa: E402  (the modules and their PyTorch export)

MODELS = ["encoder", "gpt"]
ROUNDS = 7


def session(path):
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def per_run_us(s, feed, repeats):
    start = time.perf_counter()
    for _ in range(repeats):
        s.run(None, feed)
    return (time.perf_counter() - start) / repeats * 1e6


def main(dirs):
    print(f"torch {torch.__version__}, onnxruntime {ort.__version__}; median us per run, 1 intra-op thread")
    modules = compare_onnx_exports.modules()
    with tempfile.TemporaryDirectory() as tmp:
        for name in MODELS:
            module, example = modules[name]
            module.eval()
            theirs = os.path.join(tmp, name + ".onnx")
            batch = torch.export.Dim("batch", min=2, max=1024)
            torch.onnx.export(module, (example,), theirs, dynamo=True, dynamic_shapes=({0: batch},),
                              external_data=False, verbose=False)
            paths = [(d, os.path.join(d, name + ".onnx")) for d in dirs] + [("pytorch 2.13", theirs)]
            sessions = [(label, session(p)) for label, p in paths]
            for b in (1, 64):
                x = example[:1].repeat(b, *([1] * (example.dim() - 1))).numpy()
                feeds = [{s.get_inputs()[0].name: x} for _, s in sessions]
                repeats = 200 if b == 1 else 10
                times = [[] for _ in sessions]
                for (_, s), feed in zip(sessions, feeds):
                    per_run_us(s, feed, repeats)  # warm-up
                for _ in range(ROUNDS):
                    for i, ((_, s), feed) in enumerate(zip(sessions, feeds)):
                        times[i].append(per_run_us(s, feed, repeats))
                row = ", ".join(f"{label} {statistics.median(t):.0f}" for (label, _), t in zip(sessions, times))
                print(f"{name:8s} batch {b:3d}: {row}")


if __name__ == "__main__":
    main(sys.argv[1:])

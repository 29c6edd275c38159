#!/usr/bin/python3
"""Checks that real PyTorch reads what TrainGpt wrote, the way a PyTorch user would:

    /usr/bin/python3 examples/src/test/python/check_checkpoint.py examples/target/gpt

- torch.load(model.pt, weights_only=True) and torch.load(checkpoint.pt, weights_only=True) succeed (PyTorch
  before 2.0 cannot weights-only load any float, not even from its own optimizer state dicts: there the
  training checkpoint is loaded with weights_only=False and only model.pt is checked weights-only);
- model.safetensors (parsed by hand: an 8-byte header length, a JSON header, raw little-endian data) holds
  the same tensors bit for bit;
- the state dict loads strictly into the PyTorch GPT of benchmarks/peers/train_gpt.py, and, when JTorch's last
  evaluation was at least 10% below the unigram baseline (a trained model, as the README's job writes), that
  model's held-out loss on non-overlapping held-out windows is too (so the weights mean the same thing in both
  frameworks);
- PyTorch's loss on exactly the windows of JTorch's last evaluation (the same seeded generator draws them:
  JTorch's random numbers are PyTorch's) equals the loss JTorch recorded within 1e-4, when that evaluation
  is of the checkpoint's step (a run stopped with --stop-after between evaluations has none: then this
  check is reported as skipped).
Prints 'checkpoint ok' and exits 0, or raises.
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "..", "benchmarks", "peers"))
import train_gpt  # noqa: E402

DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64}


def read_safetensors(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    meta = header.pop("__metadata__", {})
    out = {}
    for name, info in header.items():
        begin, end = info["data_offsets"]
        arr = np.frombuffer(data[begin:end], dtype=DTYPES[info["dtype"]]).reshape(info["shape"])
        out[name] = torch.from_numpy(arr.copy())
    return out, meta


def main(out_dir):
    state = torch.load(os.path.join(out_dir, "model.pt"), weights_only=True)
    old = int(torch.__version__.split(".")[0]) < 2
    ckpt = torch.load(os.path.join(out_dir, "checkpoint.pt"), weights_only=not old)
    st, meta = read_safetensors(os.path.join(out_dir, "model.safetensors"))
    assert list(st) == list(state), (list(st), list(state))
    for k in state:
        assert torch.equal(state[k], st[k]), k
        assert torch.equal(state[k], ckpt["model"][k]), k
    cfg = ckpt["config"]
    assert str(cfg["n_embd"]) == meta["n_embd"] and meta["vocab"] == ckpt["vocab"]
    config = train_gpt.GPTConfig(cfg["vocab_size"], cfg["block_size"], cfg["n_layer"], cfg["n_head"], cfg["n_embd"],
                                 cfg["norm"])
    model = train_gpt.GPT(config)
    model.load_state_dict(state, strict=True)
    model.eval()
    settings = ckpt["settings"]
    if settings["optimizer"] == "adamw":  # PyTorch's AdamW takes JTorch's optimizer state as its own
        decay = [p for p in model.parameters() if p.dim() >= 2]
        no_decay = [p for p in model.parameters() if p.dim() < 2]
        opt = torch.optim.AdamW([{"params": decay}, {"params": no_decay, "weight_decay": 0.0}])
        opt.load_state_dict(ckpt["optimizers"][0])
        assert opt.param_groups[0]["betas"] == (0.9, 0.95) or list(opt.param_groups[0]["betas"]) == [0.9, 0.95]

    text = open(train_gpt.CORPUS, encoding="utf-8").read()
    index = {c: i for i, c in enumerate(ckpt["vocab"])}
    data = torch.tensor([index[c] for c in text], dtype=torch.int64)
    val = data[int(len(data) * 0.9):]
    counts = torch.bincount(data[:int(len(data) * 0.9)], minlength=len(index)).double() + 1
    baseline = float(-(counts / counts.sum()).log()[val].mean())
    # Non-overlapping held-out windows: a deterministic estimate independent of JTorch's sampler.
    T = config.block_size
    n = min(64, (len(val) - 1) // T)
    x = torch.stack([val[i * T:(i + 1) * T] for i in range(n)])
    y = torch.stack([val[i * T + 1:(i + 1) * T + 1] for i in range(n)])
    with torch.no_grad():
        loss = float(train_gpt.lm_loss(model(x), model.lm_head.weight, y))
    step = int(ckpt["step"])
    last_val = float(ckpt["val_losses"][-1][1]) if len(ckpt["val_losses"]) else float("nan")
    print(f"step {step}: PyTorch {torch.__version__} held-out loss {loss:.4f} (JTorch's last evaluation {last_val:.4f}), "
          f"unigram baseline {baseline:.4f}")
    assert math.isfinite(loss)
    if last_val < 0.9 * baseline:  # a trained checkpoint (the README's job), not a few steps of a test's tiny model
        assert loss < 0.9 * baseline, f"held-out loss {loss:.4f} is not 10% below the unigram baseline {baseline:.4f}"

    # JTorch's evaluation: eval_batches batches of `batch` random windows from a generator seeded seed + 3.
    if len(ckpt["val_losses"]) and int(ckpt["val_losses"][-1][0]) == step:
        g = torch.Generator().manual_seed(int(settings["seed"]) + 3)
        batches = int(settings.get("eval_batches", 16))
        total = 0.0
        with torch.no_grad():
            for _ in range(batches):
                starts = torch.randint(0, len(val) - T, (int(settings["batch"]),), generator=g)
                xb = torch.stack([val[s:s + T] for s in starts.tolist()])
                yb = torch.stack([val[s + 1:s + T + 1] for s in starts.tolist()])
                total += float(train_gpt.lm_loss(model(xb), model.lm_head.weight, yb))
        same = total / batches
        print(f"PyTorch's loss on JTorch's evaluation windows {same:.6f}, JTorch's {last_val:.6f}")
        assert abs(same - last_val) <= 1e-4, (same, last_val)
    else:
        print("no evaluation of the checkpoint's step recorded: the same-windows comparison is skipped")
    print("checkpoint ok")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join("examples", "target", "gpt"))

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's data loading (org.jtorch.utils.data).

What it makes
    jtorch/src/test/resources/golden/data.json: the index orders real PyTorch's samplers and DataLoader give for a
    seed, epoch after epoch, and the seeds its DataLoader hands its workers, so that the Java tests check that a
    same-seed shuffle draws exactly what PyTorch draws, in the same order, from the same generator.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_data.py
    PyTorch 2.13 (CPU). The output is deterministic: every case seeds its generator, keys are sorted.

2.15 changes newer than this reference
    None for the samplers, random_split and worker seeds recorded here: 2.15 draws them as 2.13 does.

File format
    {"cases": [case, ...], "generator": "make_golden_data.py", "torch": "<version>"}
    case = {"id", "kind", ...the arguments..., "epochs": [[batch, ...], ...]} for loaders (a batch is the list of
    dataset indices it holds), or "indices": [...] for samplers, "splits": [[...], ...] for random_split.
    "seed" seeds the generator; "generator" is "explicit" (torch.Generator().manual_seed(seed) passed as
    generator=) or "default" (torch.manual_seed(seed) and no generator). "worker_seeds": per epoch, the seed
    get_worker_info().seed of each worker (by worker id), as 64-bit integers.
"""
import json
import os

import torch
from torch.utils.data import (BatchSampler, DataLoader, Dataset, RandomSampler, SubsetRandomSampler,
                              TensorDataset, WeightedRandomSampler, get_worker_info, random_split)

OUT = os.path.join(os.path.dirname(__file__), "..", "resources", "golden", "data.json")


class SeedReporting(Dataset):
    """Item i is (i, the seed of the worker that loaded it)."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        info = get_worker_info()
        return torch.tensor([i, info.seed if info is not None else -1, info.id if info is not None else -1])


def gen(kind, seed):
    if kind == "explicit":
        return torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    return None


def loader_case(cid, n, batch_size, drop_last, generator, seed, epochs, workers=0, persistent=False):
    g = gen(generator, seed)
    loader = DataLoader(SeedReporting(n), batch_size=batch_size, shuffle=True, drop_last=drop_last, generator=g,
                        num_workers=workers, persistent_workers=persistent)
    out, seeds = [], []
    for _ in range(epochs):
        batches, ws = [], {}
        for b in loader:
            batches.append([int(v) for v in b[:, 0].tolist()])
            for s, w in zip(b[:, 1].tolist(), b[:, 2].tolist()):
                if w >= 0:
                    ws[int(w)] = int(s)
        out.append(batches)
        seeds.append([ws[k] for k in sorted(ws)])
    case = {"id": cid, "kind": "loader", "n": n, "batch_size": batch_size, "drop_last": drop_last,
            "generator": generator, "seed": seed, "num_workers": workers, "persistent_workers": persistent,
            "epochs": out}
    if workers > 0:
        case["worker_seeds"] = seeds
    return case


def main():
    cases = [
        loader_case("shuffle_explicit", 10, 3, False, "explicit", 0, 3),
        loader_case("shuffle_explicit_droplast", 10, 3, True, "explicit", 1234, 3),
        loader_case("shuffle_explicit_even", 12, 4, False, "explicit", 7, 2),
        loader_case("shuffle_default", 10, 4, False, "default", 42, 3),
        loader_case("shuffle_workers", 11, 2, False, "explicit", 5, 2, workers=2),
        loader_case("shuffle_workers_persistent", 9, 2, False, "explicit", 9, 3, workers=3, persistent=True),
    ]
    ds = TensorDataset(torch.arange(10))
    g = torch.Generator().manual_seed(3)
    sampler = RandomSampler(ds, replacement=True, num_samples=40, generator=g)
    cases.append({"id": "random_replacement", "kind": "random_sampler", "n": 10, "replacement": True,
                  "num_samples": 40, "seed": 3, "epochs": [list(sampler), list(sampler)]})
    g = torch.Generator().manual_seed(4)
    sampler = RandomSampler(ds, num_samples=23, generator=g)
    cases.append({"id": "random_num_samples", "kind": "random_sampler", "n": 10, "replacement": False,
                  "num_samples": 23, "seed": 4, "epochs": [list(sampler), list(sampler)]})
    g = torch.Generator().manual_seed(5)
    weights = [0.1, 0.9, 0.4, 0.7, 3.0, 0.6]
    sampler = WeightedRandomSampler(weights, 12, replacement=True, generator=g)
    cases.append({"id": "weighted", "kind": "weighted_sampler", "weights": weights, "num_samples": 12,
                  "replacement": True, "seed": 5, "epochs": [list(sampler), list(sampler)]})
    g = torch.Generator().manual_seed(6)
    sampler = WeightedRandomSampler(weights, 5, replacement=False, generator=g)
    cases.append({"id": "weighted_no_replacement", "kind": "weighted_sampler", "weights": weights, "num_samples": 5,
                  "replacement": False, "seed": 6, "epochs": [list(sampler), list(sampler)]})
    g = torch.Generator().manual_seed(8)
    indices = [3, 17, 4, 99, 25, 8]
    sampler = SubsetRandomSampler(indices, generator=g)
    cases.append({"id": "subset_random", "kind": "subset_random_sampler", "indices": indices, "seed": 8,
                  "epochs": [list(sampler), list(sampler)]})
    g = torch.Generator().manual_seed(10)
    sampler = BatchSampler(RandomSampler(range(7), generator=g), 3, drop_last=False)
    cases.append({"id": "batch_sampler", "kind": "batch_sampler", "n": 7, "batch_size": 3, "drop_last": False,
                  "seed": 10, "epochs": [list(sampler), list(sampler)]})
    for cid, lengths, seed in [("split_lengths", [3, 7], 42), ("split_fractions", [0.3, 0.3, 0.4], 42),
                               ("split_remainder", [0.5, 0.5], 11)]:
        n = 10 if cid != "split_remainder" else 7
        parts = random_split(range(n), lengths, generator=torch.Generator().manual_seed(seed))
        cases.append({"id": cid, "kind": "random_split", "n": n, "lengths": lengths, "seed": seed,
                      "splits": [list(p) for p in parts]})
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":")) for c in cases]
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"cases":[\n' + ",\n".join(lines) + '\n],"generator":"make_golden_data.py","torch":%s}\n'
                % json.dumps(torch.__version__))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Checkpoint fixtures for org.jtorch.io.Serialization, made by real PyTorch.

What it makes
    jtorch/src/test/resources/pt/<name>.pt      files written by torch.save
    jtorch/src/test/resources/pt/<name>.json    what each file holds, described as below
The Java tests (SerializationGoldenTest) load every .pt and compare with its .json, so CI needs no
Python.  pt_describe.py holds the description format and is shared with check_jtorch_pt.py, the
script that checks files written by JTorch when a PyTorch is available.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_pt.py
    with a Python whose `import torch` is PyTorch 2.13 (CPU wheel).  Deterministic: fixed values,
    torch.manual_seed(0), no time-dependent content; PyTorch writes zero timestamps and a
    serialization_id computed from the records, so re-running gives identical files, except
    legacy.pt, whose storage keys are memory addresses (str(storage._cdata)) as the legacy format
    defines them.

Fixtures
    every_dtype      the 12 classic dtypes, with special values, 0-dim and empty tensors
    views            one storage seen as a whole, a slice and a transpose (the spec's example)
    noncontiguous    strided, transposed, permuted, expanded (stride 0) and channels-last tensors
    containers       nested dict/list/tuple/OrderedDict/set, ints (small, 32-bit, 64-bit, huge), floats
                     (inf, nan, -0.0), bool, None, str (non-ASCII), bytes, complex, torch.Size,
                     torch.device, dtypes
    state_dict       an nn.Sequential state dict (OrderedDict with _metadata, an int64 0-dim buffer)
    optimizer        an Adam state dict after one step (int keys, tuples, floats)
    checkpoint       a training checkpoint: epoch, model with tied weights, optimizer, rng state, loss
    parameters       nn.Parameter (requires_grad) and a tensor with requires_grad
    meta_sharing     ten views of one buffer (the 2.15 map_location="meta" sharing test)
    protocol4        the views fixture saved with pickle_protocol=4 (SHORT_BINUNICODE, MEMOIZE, ...)
    legacy           a checkpoint with views in the legacy pre-1.6 format (_use_new_zipfile_serialization=False)
    forbidden_global a pickle naming __main__.Foo: refused by weights-only loading
    malicious        a pickle whose REDUCE would call os.system: refused, and nothing runs

Not made here: uint16/uint32/uint64, float8, complex32 and bcomplex32 tensors, which 2.x saves
through _rebuild_tensor_v3 over an UntypedStorage.  Their expected pickles are written by hand in
SerializationTest, from PyTorch 2.x's Tensor._reduce_ex_internal, and say so.

2.15 changes newer than this reference
    None in the format: 2.15 writes the records 2.13 writes (.format_version, .storage_alignment,
    byteorder, .data/serialization_id beside data.pkl and data/).  The 2.15 map_location="meta"
    storage sharing (meta_sharing) and weights-only defaults are pinned by the spec and the Java
    tests.
"""
import collections
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pt_describe import describe, write_json  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "pt")


def save(name, obj, **kwargs):
    path = os.path.join(OUT, name + ".pt")
    torch.save(obj, path, **kwargs)
    write_json(os.path.join(OUT, name + ".json"), describe(obj))


def every_dtype():
    f = [0.0, -0.0, 1.5, -2.25, float("inf"), float("-inf"), float("nan"), 3.0e-5]
    d = {}
    for dt in [torch.float32, torch.float64, torch.float16, torch.bfloat16]:
        d[str(dt)[6:]] = torch.tensor(f, dtype=dt).reshape(2, 4)
    d["int64"] = torch.tensor([0, 1, -1, 2**62, -(2**63), 2**63 - 1], dtype=torch.int64)
    d["int32"] = torch.tensor([0, 1, -1, 2**31 - 1, -(2**31)], dtype=torch.int32)
    d["int16"] = torch.tensor([0, 1, -1, 32767, -32768], dtype=torch.int16)
    d["int8"] = torch.tensor([0, 1, -1, 127, -128], dtype=torch.int8)
    d["uint8"] = torch.tensor([0, 1, 127, 128, 255], dtype=torch.uint8)
    d["bool"] = torch.tensor([True, False, True])
    d["complex64"] = torch.tensor([1 + 2j, -0.5 - 1j, complex(float("inf"), 0)], dtype=torch.complex64)
    d["complex128"] = torch.tensor([3 - 4j, 0j], dtype=torch.complex128)
    d["scalar"] = torch.tensor(7.5)
    d["scalar_int"] = torch.tensor(-3)
    d["empty"] = torch.zeros(0, 3)
    d["empty_int"] = torch.zeros(2, 0, dtype=torch.int32)
    return d


def views():
    x = torch.arange(6.0)
    return {"a": x, "b": x[2:4], "c": x.view(2, 3).t()}


def noncontiguous():
    x = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4)
    y = torch.arange(12, dtype=torch.int32).reshape(3, 4)
    return {
        "x": x,
        "step": x[:, ::2, 1::2],
        "permuted": x.permute(2, 0, 1),
        "transposed": y.t(),
        "expanded": torch.tensor([1.0, 2.0]).expand(3, 2),
        "channels_last": torch.arange(16.0).reshape(1, 4, 2, 2).contiguous(memory_format=torch.channels_last),
        "diag": y.diagonal(),
        "offset_scalar": y[2, 3],
    }


def containers():
    od = collections.OrderedDict()
    od["z"] = 1
    od["a"] = [1, 2]
    return {
        "ints": [0, 255, 256, 65535, 65536, -1, -129, 2**31 - 1, -(2**31), 2**31, 2**40, -(2**40), 2**63 - 1, -(2**63),
                 2**70, -(2**70)],
        "floats": [0.5, -0.0, float("inf"), float("-inf"), float("nan"), 1e300, 5e-324],
        "bools": [True, False, None],
        "strings": ["", "ascii", "ünïcødé ✓", "a" * 300],
        "bytes": b"\x00\x01\xffbinary",
        "tuple": (1, (2, (3,)), ()),
        "nested": {"list": [[], [[]], {"k": ()}], 7: "int key", (1, "t"): "tuple key", None: "none key"},
        "ordered": od,
        "set": {3, 1, 2},
        "complex": 1.5 - 2j,
        "size": torch.Size([2, 3]),
        "device": torch.device("cpu"),
        "dtype": torch.bfloat16,
        "many": list(range(2500)),
        "big_dict": {"k%d" % i: i for i in range(1200)},
    }


def state_dict_model():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
    m(torch.randn(5, 3))  # updates BatchNorm running stats
    return m


def optimizer_state():
    m = state_dict_model()
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, weight_decay=0.01)
    m(torch.randn(5, 3)).sum().backward()
    opt.step()
    return opt.state_dict()


def checkpoint():
    torch.manual_seed(1)
    m = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    m[1].weight = m[0].weight  # tied weights: one storage, two keys
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    m(torch.tensor([1, 2])).sum().backward()
    opt.step()
    return {"epoch": 3, "model": m.state_dict(), "optim": opt.state_dict(), "rng": torch.get_rng_state(), "loss": 0.25}


def parameters():
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    q = torch.nn.Parameter(torch.tensor([3.0]), requires_grad=False)
    t = torch.tensor([4.0], requires_grad=True)
    return {"p": p, "q": q, "t": t}


def meta_sharing():
    buf = torch.arange(10.0)
    return {"w%d" % i: buf[i] for i in range(10)}


class Foo:
    def __init__(self):
        self.x = 1


class Malicious:
    def __reduce__(self):
        return (os.system, ("echo this must never run > /dev/null",))


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    save("every_dtype", every_dtype())
    save("views", views())
    save("noncontiguous", noncontiguous())
    save("containers", containers())
    save("state_dict", state_dict_model().state_dict())
    save("optimizer", optimizer_state())
    save("checkpoint", checkpoint())
    save("parameters", parameters())
    save("meta_sharing", meta_sharing())
    save("protocol4", views(), pickle_protocol=4)
    save("legacy", {"views": views(), "model": state_dict_model().state_dict(), "n": 5}, _use_new_zipfile_serialization=False)
    save("forbidden_global", {"foo": Foo(), "w": torch.ones(2)})
    torch.save({"payload": Malicious()}, os.path.join(OUT, "malicious.pt"))
    total = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print("wrote %d files, %d bytes, with torch %s" % (len(os.listdir(OUT)), total, torch.__version__), file=sys.stderr)


if __name__ == "__main__":
    main()

# -*- coding: utf-8 -*-
"""The JSON description of a loaded checkpoint, shared by make_golden_pt.py and check_jtorch_pt.py.

Every value becomes a one-key object:
    {"tensor": {"dtype": "float32", "shape": [..], "stride": [..], "offset": n, "requires_grad": b,
                "storage": g, "storage_nbytes": n, "bytes": "<hex>"}}
        g numbers the distinct storages in order of first appearance (equal g = shared storage);
        bytes are the elements in row-major order, little-endian (exact for every dtype); "" on meta
    {"dict": [[key, value], ...]}   {"ordered_dict": [[key, value], ...], "attrs": {name: value}}
    {"list": [...]}  {"tuple": [...]}  {"set": [...]}
    {"str": s}  {"int": "decimal"}  {"float": "repr"}  {"bool": b}  {"none": true}  {"bytes": "<hex>"}
    {"complex": ["re repr", "im repr"]}  {"dtype": "float16"}  {"device": "cpu"}
    {"object": "module.Name", "state": ...}   (an instance of another class)
torch.Size and tuples are both "tuple".
"""
import collections
import json

import torch


def describe(obj):
    storages = {}
    return _describe(obj, storages)


def _storage_id(t):
    try:
        return t.untyped_storage()._cdata  # PyTorch 2.x
    except AttributeError:
        return t.storage()._storage._cdata  # PyTorch 1.13


def _tensor(t, storages):
    sid = _storage_id(t)
    if sid not in storages:
        storages[sid] = len(storages)
    data = ""
    if not t.is_meta and t.numel():
        c = t.detach().clone(memory_format=torch.contiguous_format).reshape(-1)
        data = c.view(torch.uint8).numpy().tobytes().hex()
    return {"tensor": {"dtype": str(t.dtype)[6:], "shape": list(t.shape), "stride": list(t.stride()),
                       "offset": t.storage_offset(), "requires_grad": t.requires_grad, "storage": storages[sid],
                       "storage_nbytes": t.storage().nbytes(), "bytes": data}}


def _describe(o, s):
    if isinstance(o, torch.Tensor):
        return _tensor(o, s)
    if o is None:
        return {"none": True}
    if isinstance(o, bool):
        return {"bool": o}
    if isinstance(o, int):
        return {"int": str(o)}
    if isinstance(o, float):
        return {"float": repr(o)}
    if isinstance(o, complex):
        return {"complex": [repr(o.real), repr(o.imag)]}
    if isinstance(o, str):
        return {"str": o}
    if isinstance(o, (bytes, bytearray)):
        return {"bytes": bytes(o).hex()}
    if isinstance(o, torch.dtype):
        return {"dtype": str(o)[6:]}
    if isinstance(o, torch.device):
        return {"device": str(o)}
    if isinstance(o, collections.OrderedDict):
        attrs = {k: _describe(v, s) for k, v in vars(o).items()}
        return {"ordered_dict": [[_describe(k, s), _describe(v, s)] for k, v in o.items()], "attrs": attrs}
    if isinstance(o, dict):
        return {"dict": [[_describe(k, s), _describe(v, s)] for k, v in o.items()]}
    if isinstance(o, list):
        return {"list": [_describe(v, s) for v in o]}
    if isinstance(o, tuple):
        return {"tuple": [_describe(v, s) for v in o]}
    if isinstance(o, (set, frozenset)):
        return {"set": [_describe(v, s) for v in o]}
    return {"object": type(o).__module__ + "." + type(o).__qualname__, "state": _describe(vars(o), s)}


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, sort_keys=True, indent=None, separators=(",", ":"))
        f.write("\n")

#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""Reads files that JTorch wrote, with numpy, and prints what they hold as JSON.

Used by SafetensorsTest/NpyTest (the reverse direction of make_golden_io.py):
    /usr/bin/python3 read_jtorch_io.py FILE...
For each FILE (.npy, .npz or .safetensors) prints one JSON line
    {"file": FILE, "tensors": [{"name", "dtype", "shape", "values"}...], "metadata": {...}}
in the value format of golden_io.json (dtype as JTorch's DType name, row-major
values, non-finite floats as strings, complex flattened, uint64 as signed bits).
.npy/.npz go through np.load (allow_pickle=False); .safetensors files are
parsed with struct+json+np.frombuffer and checked against the format rules
(header length, padding to 8, tiling of the data buffer, dtype alignment of
every tensor start); a violation exits non-zero with a message.
"""
import json
import math
import struct
import sys

import numpy as np

NP_NAMES = {"bool": "BOOL", "int8": "INT8", "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16",
            "int32": "INT32", "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float16": "FLOAT16",
            "float32": "FLOAT32", "float64": "FLOAT64", "complex64": "COMPLEX64", "complex128": "COMPLEX128"}
ST = {"BOOL": ("BOOL", "|b1"), "U8": ("UINT8", "|u1"), "I8": ("INT8", "|i1"), "I16": ("INT16", "<i2"),
      "U16": ("UINT16", "<u2"), "F16": ("FLOAT16", "<f2"), "BF16": ("BFLOAT16", None), "I32": ("INT32", "<i4"),
      "U32": ("UINT32", "<u4"), "F32": ("FLOAT32", "<f4"), "F64": ("FLOAT64", "<f8"), "I64": ("INT64", "<i8"),
      "U64": ("UINT64", "<u8"), "F8_E4M3": ("FLOAT8_E4M3FN", None), "F8_E5M2": ("FLOAT8_E5M2", None),
      "F8_E8M0": ("FLOAT8_E8M0FNU", None), "C64": ("COMPLEX64", "<c8")}
ITEM = {"BOOL": 1, "U8": 1, "I8": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4,
        "F64": 8, "I64": 8, "U64": 8, "F8_E4M3": 1, "F8_E5M2": 1, "F8_E8M0": 1, "C64": 8}


def num(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


def values(a):
    flat = np.ascontiguousarray(a).reshape(-1)
    if a.dtype.kind == "c":
        return [num(float(x)) for z in flat for x in (z.real, z.imag)]
    if a.dtype.kind == "b":
        return [int(x) for x in flat]
    if a.dtype.kind == "u" and a.dtype.itemsize == 8:
        return [int(x) - 2**64 if int(x) >= 2**63 else int(x) for x in flat]
    return [num(x.item()) for x in flat]


def describe(name, a):
    return {"name": name, "dtype": NP_NAMES[a.dtype.name], "shape": list(a.shape), "values": values(a)}


def f8(bits, exp_bits, man_bits, bias, fn):
    """Decodes float8 bytes: fn=True for e4m3fn (no inf, NaN = S.1111.111), else IEEE-like e5m2."""
    out = []
    for b in bits:
        sign = -1.0 if b & 0x80 else 1.0
        e = (b >> man_bits) & ((1 << exp_bits) - 1)
        m = b & ((1 << man_bits) - 1)
        if fn and e == (1 << exp_bits) - 1 and m == (1 << man_bits) - 1:
            out.append(float("nan"))
        elif not fn and e == (1 << exp_bits) - 1:
            out.append(sign * float("inf") if m == 0 else float("nan"))
        elif e == 0:
            out.append(sign * m * 2.0 ** (1 - bias - man_bits))
        else:
            out.append(sign * (1 + m / 2.0 ** man_bits) * 2.0 ** (e - bias))
    return out


def read_safetensors(path):
    data = open(path, "rb").read()
    (n,) = struct.unpack("<Q", data[:8])
    if (8 + n) % 8:
        sys.exit("%s: 8 + header length %d is not a multiple of 8" % (path, n))
    header = json.loads(data[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {}) or {}
    buf = data[8 + n:]
    spans = sorted((info["data_offsets"][0], info["data_offsets"][1], name) for name, info in header.items())
    end = 0
    for begin, stop, name in spans:
        if begin != end:
            sys.exit("%s: tensor %s starts at %d, expected %d" % (path, name, begin, end))
        if (8 + n + begin) % ITEM[header[name]["dtype"]]:
            sys.exit("%s: tensor %s is not aligned to its element size" % (path, name))
        end = stop
    if end != len(buf):
        sys.exit("%s: tensors cover %d of %d data bytes" % (path, end, len(buf)))
    tensors = []
    for name, info in header.items():
        dtype, shape = info["dtype"], info["shape"]
        raw = buf[info["data_offsets"][0]:info["data_offsets"][1]]
        if len(raw) != ITEM[dtype] * int(np.prod(shape, dtype=np.int64)):
            sys.exit("%s: tensor %s has %d bytes for shape %s" % (path, name, len(raw), shape))
        jname, descr = ST[dtype]
        if descr is not None:
            vals = values(np.frombuffer(raw, dtype=descr))
        elif dtype == "BF16":
            vals = [num(float(x)) for x in (np.frombuffer(raw, dtype="<u2").astype("<u4") << 16).view("<f4")]
        elif dtype == "F8_E8M0":
            vals = [float("nan") if b == 0xFF else 2.0 ** (b - 127) for b in raw]
            vals = [num(v) for v in vals]
        elif dtype == "F8_E4M3":
            vals = [num(v) for v in f8(raw, 4, 3, 7, True)]
        else:
            vals = [num(v) for v in f8(raw, 5, 2, 15, False)]
        tensors.append({"name": name, "dtype": jname, "shape": shape, "values": vals})
    return {"tensors": tensors, "metadata": meta}


def main():
    for path in sys.argv[1:]:
        if path.endswith(".safetensors"):
            result = read_safetensors(path)
        elif path.endswith(".npz"):
            with np.load(path, allow_pickle=False) as z:
                result = {"tensors": [describe(k, z[k]) for k in z.files], "metadata": {}}
        else:
            a = np.load(path, allow_pickle=False)
            result = {"tensors": [describe("", a)], "metadata": {}}
        result["file"] = path
        print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()

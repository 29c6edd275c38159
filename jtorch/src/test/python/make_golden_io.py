#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Fixture generator for JTorch's safetensors and NumPy (.npy/.npz) readers.

What it makes (in jtorch/src/test/resources/io/)
    *.safetensors   files in the safetensors layout, with every dtype JTorch maps
    *.npy, *.npz    files written by numpy itself (np.save, np.savez,
                    np.savez_compressed, np.lib.format.write_array)
    golden_io.json  what each file holds (dtype, shape, row-major values) and
                    which files must be refused, with a substring of the error

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_io.py

Requirements
    numpy and PyTorch 2.13 (CPU wheel; torch is used only to round values to
    bfloat16).  The `safetensors` package is optional: when it
    is importable, golden_ref.safetensors is also written by
    safetensors.torch.save_file; otherwise (as on the machine that made the
    committed files) every .safetensors file is written below with struct+json,
    following the reference writer (safetensors/src/tensor.rs `prepare`):
    tensors sorted by dtype (descending, in the order of the reference Dtype enum)
    then name, header = compact JSON with "__metadata__" first and the tensors in
    data order, padded with spaces to a multiple of 8.

    Output is deterministic (fixed values, sorted JSON keys, no timestamps except
    the zip member times numpy writes into the .npz files, which the tests do not
    compare).

2.15 changes newer than this reference
    None: the file formats are numpy's and safetensors', which PyTorch 2.15 does
    not change; torch only rounds the bfloat16 values.

golden_io.json format
    {"safetensors": [{"file", "metadata", "tensors": [T...]}],
     "npy": [{"file", "fortran", "tensor": T}],
     "npz": [{"file", "tensors": [T...]}],
     "invalid": [{"file", "error"}]}
    T = {"name", "dtype" (JTorch DType name), "shape", "values"}; values are
    row-major; floats exact (repr of the value widened to float64), non-finite
    ones as "nan"/"inf"/"-inf"; complex values flattened [re0, im0, re1, ...];
    bool as 0/1; uint64 as the signed 64-bit integer with the same bits.
    Tensors are listed in header order (the order a loader returns them).
"""
import io
import json
import math
import os
import pickle
import struct
import sys

import numpy as np
import torch

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "resources", "io")

# The reference Dtype enum order (recent safetensors); the writer sorts by it, descending.
ST_ORDER = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0",
            "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"]
ST_SIZE = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "F8_E8M0": 1, "I16": 2, "U16": 2,
           "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "C64": 8, "F64": 8, "I64": 8, "U64": 8}
JTORCH = {"BOOL": "BOOL", "U8": "UINT8", "I8": "INT8", "I16": "INT16", "U16": "UINT16", "F16": "FLOAT16",
          "BF16": "BFLOAT16", "I32": "INT32", "U32": "UINT32", "F32": "FLOAT32", "F64": "FLOAT64",
          "I64": "INT64", "U64": "UINT64", "F8_E4M3": "FLOAT8_E4M3FN", "F8_E5M2": "FLOAT8_E5M2",
          "F8_E8M0": "FLOAT8_E8M0FNU", "C64": "COMPLEX64"}


def num(v):
    """A JSON-safe scalar: exact floats, non-finite as strings."""
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    return v


# ---- float8 encoders for exactly representable values (no rounding needed) ----

def f8_bits(v, exp_bits, man_bits, bias, nan_bits, inf_bits=None):
    if isinstance(v, float) and math.isnan(v):
        return nan_bits
    sign = 0x80 if math.copysign(1.0, v) < 0 else 0
    a = abs(v)
    if math.isinf(a):
        return sign | inf_bits
    if a == 0:
        return sign
    m, e = math.frexp(a)          # a = m * 2**e, 0.5 <= m < 1
    e -= 1                        # a = (2m) * 2**e, 1 <= 2m < 2
    if e + bias <= 0:             # subnormal
        mant = a / 2.0 ** (1 - bias) * 2 ** man_bits
        assert mant == int(mant), v
        return sign | int(mant)
    mant = (2 * m - 1) * 2 ** man_bits
    assert mant == int(mant), v
    return sign | ((e + bias) << man_bits) | int(mant)


def e4m3fn(v):
    return f8_bits(v, 4, 3, 7, 0x7F)


def e5m2(v):
    return f8_bits(v, 5, 2, 15, 0x7E, 0x7C)


def e8m0(v):
    if math.isnan(v):
        return 0xFF
    m, e = math.frexp(v)
    assert m == 0.5, v
    return e - 1 + 127


# ---- the tensors ----

def st_tensors():
    """name -> (safetensors dtype, shape, raw little-endian bytes, expected row-major values)."""
    t = {}

    def add(name, dtype, shape, arr, values):
        t[name] = (dtype, list(shape), arr.tobytes(), values)

    def from_np(name, dtype, npdtype, shape, vals):
        a = np.array(vals, dtype=npdtype).reshape(shape)
        add(name, dtype, shape, a.astype(a.dtype.newbyteorder("<")), [num(x.item()) for x in a.reshape(-1)])

    from_np("mask", "BOOL", np.bool_, [3], [True, False, True])
    t["mask"] = t["mask"][:3] + ([1, 0, 1],)
    from_np("bytes", "U8", np.uint8, [2, 2], [0, 1, 255, 128])
    from_np("int8", "I8", np.int8, [4], [-128, -1, 0, 127])
    from_np("int16", "I16", np.int16, [4], [-32768, -1, 0, 32767])
    from_np("uint16", "U16", np.uint16, [4], [0, 1, 65535, 40000])
    from_np("int32", "I32", np.int32, [2, 2], [-2**31, -1, 0, 2**31 - 1])
    from_np("uint32", "U32", np.uint32, [4], [0, 1, 2**32 - 1, 3000000000])
    from_np("int64", "I64", np.int64, [4], [-2**63, -1, 0, 2**63 - 1])
    u64 = np.array([0, 1, 2**64 - 1, 2**63], dtype=np.uint64)
    add("uint64", "U64", [4], u64, [int(x) - 2**64 if int(x) >= 2**63 else int(x) for x in u64])
    from_np("half", "F16", np.float16, [2, 3], [1.0, -2.5, 65504.0, 2.0**-24, float("inf"), float("nan")])
    bf = torch.tensor([1.0, -3.140625, 1e30, -0.0, float("-inf"), 2.0**-133], dtype=torch.bfloat16)
    add("bf16", "BF16", [3, 2], bf.view(torch.int16).numpy().astype("<i2"), [num(float(x)) for x in bf.float()])
    from_np("weight", "F32", np.float32, [3, 4], [i / 3.0 for i in range(12)])
    from_np("double", "F64", np.float64, [2, 2], [math.pi, -math.e, 1e-300, 1e300])
    for name, dtype, enc, vals in [
            ("e4m3", "F8_E4M3", e4m3fn, [0.5, -448.0, 1.75, 2.0**-9, 0.0, float("nan")]),
            ("e5m2", "F8_E5M2", e5m2, [1.0, -57344.0, 2.0**-16, float("inf"), -0.0, 3.5]),
            ("e8m0", "F8_E8M0", e8m0, [1.0, 2.0**-127, 2.0**127, 0.5])]:
        add(name, dtype, [len(vals)], np.array([enc(v) for v in vals], dtype=np.uint8), [num(v) for v in vals])
    c = np.array([1 + 2j, -3.5 - 0.25j], dtype="<c8")
    add("cplx", "C64", [2], c, [num(float(x)) for z in c for x in (z.real, z.imag)])
    from_np("scalar", "F32", np.float32, [], [42.0])
    add("empty", "F32", [0, 3], np.zeros((0, 3), dtype="<f4"), [])
    return t


def st_write(path, tensors, metadata, order=None):
    """The reference writer's layout; `order` overrides the data order (to make unaligned files)."""
    if order is None:
        order = sorted(tensors, key=lambda n: (-ST_ORDER.index(tensors[n][0]), n))
    header, offset = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name in order:
        dtype, shape, raw, _ = tensors[name]
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name in order:
            f.write(tensors[name][2])
    return order


def expected(tensors, order):
    return [{"name": n, "dtype": JTORCH[tensors[n][0]], "shape": tensors[n][1], "values": tensors[n][3]} for n in order]


def np_expected(name, a):
    dtype = {"bool": "BOOL", "int8": "INT8", "uint8": "UINT8", "int16": "INT16", "uint16": "UINT16",
             "int32": "INT32", "uint32": "UINT32", "int64": "INT64", "uint64": "UINT64", "float16": "FLOAT16",
             "float32": "FLOAT32", "float64": "FLOAT64", "complex64": "COMPLEX64",
             "complex128": "COMPLEX128"}[a.dtype.name]
    flat = np.ascontiguousarray(a).reshape(-1)
    if a.dtype.kind == "c":
        values = [num(float(x)) for z in flat for x in (z.real, z.imag)]
    elif a.dtype.kind == "b":
        values = [int(x) for x in flat]
    elif a.dtype.kind == "u" and a.dtype.itemsize == 8:
        values = [int(x) - 2**64 if int(x) >= 2**63 else int(x) for x in flat]
    else:
        values = [num(x.item()) for x in flat]
    return {"name": name, "dtype": dtype, "shape": list(a.shape), "values": values}


def main():
    os.makedirs(OUT, exist_ok=True)
    out = {"safetensors": [], "npy": [], "npz": [], "invalid": []}

    tensors = st_tensors()
    meta = {"format": "pt", "source": "make_golden_io.py", "note": "ünïcödé \"quoted\" \\ back"}
    order = st_write(os.path.join(OUT, "golden.safetensors"), tensors, meta)
    out["safetensors"].append({"file": "golden.safetensors", "metadata": meta, "tensors": expected(tensors, order)})
    # Data out of alignment order: an F32 tensor at byte offset 3 and an F64 at offset 15 (mmap must cope).
    small = {k: tensors[k] for k in ("mask", "weight", "double")}
    uorder = st_write(os.path.join(OUT, "unaligned.safetensors"), small, None, order=["mask", "weight", "double"])
    out["safetensors"].append({"file": "unaligned.safetensors", "metadata": {}, "tensors": expected(small, uorder)})
    # The spec's example: a = [1.0, 2.0] float32 with {"format": "pt"}, 104 bytes in all.
    spec = {"a": ("F32", [2], np.array([1.0, 2.0], dtype="<f4").tobytes(), [1.0, 2.0])}
    st_write(os.path.join(OUT, "spec_example.safetensors"), spec, {"format": "pt"})
    out["safetensors"].append({"file": "spec_example.safetensors", "metadata": {"format": "pt"},
                               "tensors": expected(spec, ["a"])})
    try:
        import safetensors.torch as st_torch
        ref = {n: torch.from_numpy(np.frombuffer(raw, dtype={"F32": "<f4", "F64": "<f8", "I64": "<i8"}[d]).copy()
                                   .reshape(shape))
               for n, (d, shape, raw, _) in tensors.items() if d in ("F32", "F64", "I64")}
        st_torch.save_file(ref, os.path.join(OUT, "golden_ref.safetensors"), metadata={"format": "pt"})
        print("safetensors package found: wrote golden_ref.safetensors", file=sys.stderr)
    except ImportError:
        print("safetensors package absent: all .safetensors files written with struct+json", file=sys.stderr)

    # Invalid safetensors files, each breaking one rule of the spec.
    def raw_st(name, header_obj, data, error, pad=True, header_bytes=None):
        text = header_bytes if header_bytes is not None else json.dumps(header_obj, separators=(",", ":")).encode()
        if pad:
            text += b" " * ((8 - len(text) % 8) % 8)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(struct.pack("<Q", len(text)) + text + data)
        out["invalid"].append({"file": name, "error": error})

    f32 = lambda shape, a, b: {"dtype": "F32", "shape": shape, "data_offsets": [a, b]}
    raw_st("bad_size.safetensors", {"a": f32([2], 0, 4)}, bytes(4), "needs 8")
    raw_st("bad_overlap.safetensors", {"a": f32([2], 0, 8), "b": f32([2], 4, 12)}, bytes(12), "overlaps")
    raw_st("bad_gap.safetensors", {"a": f32([2], 0, 8)}, bytes(16), "trailing bytes")
    raw_st("bad_hole.safetensors", {"a": f32([1], 0, 4), "b": f32([1], 8, 12)}, bytes(12), "unused bytes")
    raw_st("bad_outside.safetensors", {"a": f32([4], 0, 16)}, bytes(8), "outside")
    raw_st("bad_dtype.safetensors", {"a": {"dtype": "F4", "shape": [2], "data_offsets": [0, 1]}}, bytes(1),
           "unsupported dtype")
    raw_st("bad_duplicate.safetensors", None, bytes(8), "duplicate",
           header_bytes=b'{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},'
                        b'"a":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}')
    raw_st("bad_metadata.safetensors", {"__metadata__": {"n": 3}}, b"", "must be strings")
    with open(os.path.join(OUT, "bad_length.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", 2**60) + b'{"a":1}')
    out["invalid"].append({"file": "bad_length.safetensors", "error": "exceeds the limit"})
    with open(os.path.join(OUT, "golden.safetensors"), "rb") as f:
        whole = f.read()
    with open(os.path.join(OUT, "bad_truncated.safetensors"), "wb") as f:
        f.write(whole[:-5])
    out["invalid"].append({"file": "bad_truncated.safetensors", "error": "safetensors file"})

    # .npy files written by numpy.
    def save_npy(name, a, **kw):
        np.save(os.path.join(OUT, name), a, **kw)
        out["npy"].append({"file": name, "fortran": bool(a.flags.f_contiguous and not a.flags.c_contiguous),
                           "tensor": np_expected(name, a)})

    save_npy("f4.npy", np.arange(6, dtype="<f4").reshape(2, 3) / 7)
    save_npy("f8.npy", np.array([[math.pi, -math.e], [1e-300, float("inf")]], dtype="<f8"))
    save_npy("f2.npy", np.array([1.0, -2.5, 65504.0, 2.0**-24, float("nan")], dtype="<f2"))
    for code, vals in [("i1", [-128, 0, 127]), ("u1", [0, 200, 255]), ("i2", [-32768, 7, 32767]),
                       ("u2", [0, 40000, 65535]), ("i4", [-2**31, 5, 2**31 - 1]), ("u4", [0, 3000000000, 2**32 - 1]),
                       ("i8", [-2**63, 9, 2**63 - 1]), ("u8", [0, 2**63, 2**64 - 1])]:
        save_npy(code + ".npy", np.array(vals, dtype="<" + code if code[1] != "1" else "|" + code))
    save_npy("b1.npy", np.array([[True, False], [False, True]]))
    save_npy("c8.npy", np.array([1 + 2j, -0.5j, 3], dtype="<c8"))
    save_npy("c16.npy", np.array([[1e-300 + 1j], [-2 - 3j]], dtype="<c16"))
    save_npy("fortran.npy", np.asfortranarray(np.arange(24, dtype="<f8").reshape(2, 3, 4)))
    save_npy("big_f4.npy", np.array([1.5, -2.0, 3.25], dtype=">f4"))
    save_npy("big_i8.npy", np.array([[1, -2], [2**40, -2**62]], dtype=">i8"))
    save_npy("big_c16.npy", np.array([1 + 2j, -3.5 + 0.25j], dtype=">c16"))
    save_npy("big_f2.npy", np.array([1.0, -0.5, 1024.0], dtype=">f2"))
    save_npy("big_fortran_u2.npy", np.asfortranarray(np.arange(6, dtype=">u2").reshape(3, 2) * 1000))
    save_npy("scalar.npy", np.array(3.5, dtype="<f8"))
    save_npy("empty.npy", np.zeros((0, 4), dtype="<f4"))
    for version in [(2, 0), (3, 0)]:
        name = "v%d.npy" % version[0]
        a = np.arange(4, dtype="<i4")
        with open(os.path.join(OUT, name), "wb") as f:
            np.lib.format.write_array(f, a, version=version)
        out["npy"].append({"file": name, "fortran": False, "tensor": np_expected(name, a)})

    def bad_npy(name, write, error):
        with open(os.path.join(OUT, name), "wb") as f:
            write(f)
        out["invalid"].append({"file": name, "error": error})

    bad_npy("bad_object.npy", lambda f: np.save(f, np.array([{"a": 1}, None], dtype=object), allow_pickle=True),
            "object arrays")
    bad_npy("bad_structured.npy", lambda f: np.save(f, np.zeros(2, dtype=[("x", "<f4"), ("y", "<i4")])),
            "structured")
    bad_npy("bad_unicode.npy", lambda f: np.save(f, np.array(["ab", "c"])), "unsupported dtype")
    bad_npy("bad_pickle.npy", lambda f: pickle.dump([1, 2, 3], f, protocol=2), "pickle")
    bad_npy("bad_truncated.npy", lambda f: f.write(open(os.path.join(OUT, "f8.npy"), "rb").read()[:-3]), "truncated")
    bad_npy("bad_trailing.npy", lambda f: (np.save(f, np.arange(3)), np.save(f, np.arange(2))), "unexpected bytes")

    # .npz archives.
    arrays = {"weight": np.arange(6, dtype="<f4").reshape(2, 3), "step": np.array(7, dtype="<i8"),
              "flags": np.array([True, False]), "z": np.array([1 - 1j], dtype="<c16")}
    np.savez(os.path.join(OUT, "arrays.npz"), **arrays)
    out["npz"].append({"file": "arrays.npz", "tensors": [np_expected(k, v) for k, v in arrays.items()]})
    np.savez_compressed(os.path.join(OUT, "compressed.npz"), **arrays)
    out["npz"].append({"file": "compressed.npz", "tensors": [np_expected(k, v) for k, v in arrays.items()]})
    buf = io.BytesIO()
    np.savez(buf, a=np.arange(100, dtype="<f8"))
    data = bytearray(buf.getvalue())
    data[200] ^= 0x01      # a flipped bit inside the array data: only the CRC can tell
    with open(os.path.join(OUT, "bad_crc.npz"), "wb") as f:
        f.write(bytes(data))
    out["invalid"].append({"file": "bad_crc.npz", "error": "CRC mismatch"})

    with open(os.path.join(OUT, "golden_io.json"), "w") as f:
        json.dump(out, f, sort_keys=True, indent=1, ensure_ascii=True)
        f.write("\n")
    print("wrote %d safetensors, %d npy, %d npz, %d invalid fixtures to %s" % (
        len(out["safetensors"]), len(out["npy"]), len(out["npz"]), len(out["invalid"]), os.path.normpath(OUT)),
        file=sys.stderr)


if __name__ == "__main__":
    main()

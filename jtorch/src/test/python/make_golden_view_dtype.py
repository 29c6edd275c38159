#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for Tensor.view(dtype) (aten::view.dtype): the bytes of a tensor read as another dtype.

What it makes
    jtorch/src/test/resources/golden/view_dtype.json, in the format of golden_json.py: cases {"id", "op": "view.dtype",
    "args": [base, fill], "kwargs": {"dtype", "size", "stride", "offset"}, "out": [view, geometry, base after]} or
    {"error": message} ("base after" is left out for an expanded input, which cannot be written). The input is base.as_strided(size, stride, offset); the view is input.view(dtype);
    geometry is the view's sizes, strides and storage offset as one int64 tensor; "base after" is base once
    view.copy_(fill) has written through the view, which shows that the two share memory. Every pair of the twelve
    dtypes below is viewed on a contiguous input, and a set of strided inputs (transposed, sliced, offset, 0-d,
    empty) covers each of ATen's checks and its message.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_view_dtype.py
    with a Python that has PyTorch 2.13 (CPU).

Requirements
    PyTorch 2.13 (CPU); view(dtype) did not change in 2.14 or 2.15. Deterministic: inputs come from a seeded
    generator, and the output is byte-identical on a re-run.
"""
import os

import torch

from golden_json import enc, write

CASES = []
GEN = torch.Generator().manual_seed(0)
DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
          torch.bfloat16, torch.float32, torch.float64, torch.complex64, torch.complex128]


def name(dtype):
    return str(dtype).replace("torch.", "")


def values(numel, dtype):
    """Values of every kind the dtype holds; floats stay finite so that their bits survive the JSON encoding."""
    if dtype == torch.bool:
        return torch.randint(0, 2, (numel,), generator=GEN).bool()
    if not dtype.is_floating_point and not dtype.is_complex:
        info = torch.iinfo(dtype)
        lo, hi = max(info.min, -(2 ** 62)), min(info.max, 2 ** 62)
        return torch.randint(lo, hi, (numel,), generator=GEN, dtype=torch.int64).to(dtype)
    return (torch.randn(numel, generator=GEN, dtype=torch.float64) * 3).to(dtype)


def case(id_, base, dtype, size, stride, offset):
    x = base.as_strided(size, stride, offset)
    kwargs = {"dtype": name(dtype), "size": list(size), "stride": list(stride), "offset": offset}
    try:
        v = x.view(dtype)
    except RuntimeError as e:
        CASES.append({"id": id_, "op": "view.dtype", "args": [enc(base), None], "kwargs": kwargs,
                      "out": {"error": str(e)}})
        return
    fill = values(v.numel(), dtype).reshape(v.shape)
    geometry = torch.tensor(list(v.shape) + list(v.stride()) + [v.storage_offset()], dtype=torch.int64)
    shown = v.clone()
    out = [enc(shown), enc(geometry)]
    if 0 not in stride:  # an expanded view cannot be written to
        after = base.clone()
        after.as_strided(size, stride, offset).view(dtype).copy_(fill)
        out.append(enc(after))
    CASES.append({"id": id_, "op": "view.dtype", "args": [enc(base), enc(fill)], "kwargs": kwargs, "out": out})


def main():
    for src in DTYPES:
        for dst in DTYPES:
            base = values(2 * 16, src)
            case("contiguous/%s/%s" % (name(src), name(dst)), base, dst, [2, 16], [16, 1], 0)
    f32 = values(64, torch.float32)
    strided = [
        ("transposed", [4, 3], [1, 4], 0),        # last stride 4: refused for another element size
        ("row-slice", [2, 4], [4, 1], 4),         # offset 4: a whole number of doubles
        ("column-slice", [3, 2], [4, 1], 1),      # offset 1: not a whole double
        ("odd-row-stride", [3, 4], [5, 1], 0),    # stride(0) 5: not divisible by 2
        ("odd-last-size", [2, 3], [4, 1], 0),     # size(-1) 3: not divisible by 2
        ("single-column", [4, 1], [1, 1], 0),     # last stride 1 although other dims overlap it
        ("column-vector", [3, 1], [1, 3], 0),     # size-1 last dim with stride 3
        ("every-other", [3, 2], [8, 2], 0),       # last stride 2
        ("zero-d", [], [], 5),
        ("empty-rows", [0, 4], [4, 1], 0),
        ("empty-last", [4, 0], [1, 1], 0),
        ("expanded", [3, 4], [0, 1], 8),          # a stride-0 row dim
        ("offset-before-stride", [3, 4], [8, 2], 1),  # several checks fail: ATen's order picks the message
        ("last-stride-first", [3, 4], [7, 2], 0),
    ]
    for label, size, stride, offset in strided:
        for dst in (torch.float32, torch.int32, torch.float64, torch.complex128, torch.int8, torch.bfloat16):
            case("%s/float32/%s" % (label, name(dst)), f32, dst, size, stride, offset)
    i8 = values(64, torch.int8)
    for label, size, stride, offset in [("offset-3", [2, 8], [16, 1], 3), ("offset-4", [2, 8], [16, 1], 4),
                                        ("rows-of-12", [3, 12], [12, 1], 0), ("rows-of-20", [3, 20], [20, 1], 2)]:
        for dst in (torch.int16, torch.float32, torch.int64, torch.complex64):
            case("%s/int8/%s" % (label, name(dst)), i8, dst, size, stride, offset)
    here = os.path.dirname(os.path.abspath(__file__))
    write(os.path.join(here, "..", "resources", "golden", "view_dtype.json"), CASES, "make_golden_view_dtype.py")


if __name__ == "__main__":
    main()

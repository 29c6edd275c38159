#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's arrange and contraction ops.

What it makes
    jtorch/src/test/resources/golden/arrange.json: inputs and PyTorch outputs for
    einsum, tensordot, repeat_interleave, diff, diag, diag_embed and the
    torch.nn.functional ops pad and one_hot (read by EinsumOpsTest and
    ArrangeOpsTest).

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_arrange.py
    with PyTorch 2.13 (CPU wheel), the version arrange.json comes from.

Format
    Exactly make_golden_core.py's (see its header), whose encoders this script
    imports. Arguments that are not tensors or scalars travel as keyword
    arguments:
        einsum          args = operands, kwargs {"equation": "ij,jk->ik"}
        tensordot       args = [a, b], kwargs {"dims": 2 | [[dims_a], [dims_b]]}
        pad             args = [input], kwargs {"pad": [...], "mode": ..., "value": ...}
        one_hot         args = [tensor], kwargs {"num_classes": n}
        repeat_interleave  args = [input, repeats] or [repeats], kwargs dim / output_size
        diff            args = [input], kwargs n / dim / prepend / append
        diag            args = [input], kwargs {"diagonal": k}
        diag_embed      args = [input], kwargs offset / dim1 / dim2
    Error cases record a substring of PyTorch 2.13's message (the script
    prints a warning when the message lacks it) that 2.15's shares; where the
    two words differ, the Java tests check 2.15's wording instead.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_golden_core as core  # noqa: E402  (sets seeds, threads and warning filters too)

torch = core.torch
F = core.F
NC, mk, dname = core.NC, core.mk, core.dname
f32, f64, i64, i32, c64 = core.f32, core.f64, core.i64, core.i32, core.c64

OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "arrange.json"))

FN = {
    "einsum": lambda *ops, equation: torch.einsum(equation, *ops),
    "tensordot": lambda a, b, dims=2: torch.tensordot(a, b, dims=dims),
    "pad": lambda x, pad, mode="constant", value=None: _pad(x, pad, mode, value),
    "one_hot": lambda t, num_classes=-1: F.one_hot(t, num_classes),
    "repeat_interleave": torch.repeat_interleave,
    "diff": torch.diff,
    "diag": torch.diag,
    "diag_embed": torch.diag_embed,
}



def _pad(x, pad, mode, value):
    # PyTorch 1.13 padded circularly only with batch and channel dims; 2.x also without the batch dim, with the
    # same result as padding x.unsqueeze(0), which is what this does on any version.
    if mode == "circular" and x.dim() == len(pad) // 2 + 1:
        return F.pad(x.unsqueeze(0), pad, mode=mode).squeeze(0)
    return F.pad(x, pad, mode=mode, value=value)


CASES = []
IDS = set()
WARNINGS = []


def add_case(cid, op, args, kwargs=None, error=None):
    """Runs FN[op](*args, **kwargs) and records the result, or the error substring `error`."""
    kwargs = dict(kwargs or {})
    if cid in IDS:
        raise ValueError("duplicate id " + cid)
    try:
        r = FN[op](*core.materialize(list(args)), **{k: core.materialize(v) for k, v in kwargs.items()})
        out = core.enc_out(core._post(r))
        if error is not None:
            WARNINGS.append("%s: expected error %r but got a result" % (cid, error))
    except Exception as e:  # noqa: BLE001
        if error is not None and error in str(e):
            out = {"error": error}
        else:
            WARNINGS.append("%s: unexpected error %r" % (cid, str(e)[:200]))
            out = {"error": core.clean_msg(e)}
    IDS.add(cid)
    CASES.append({"id": cid, "op": op, "args": [core.enc_arg(a) for a in args],
                  "kwargs": {k: core.enc_kwarg(v) for k, v in kwargs.items()}, "out": out})


def err(cid, op, args, kwargs, error):
    add_case(cid, op, args, kwargs, error=error)


# ---------------------------------------------------------------- einsum / tensordot

def einsum_block():
    def e(cid, eq, *ops):
        add_case("einsum/" + cid, "einsum", list(ops), {"equation": eq})

    for dt in (f32, f64):
        d = dname(dt)
        k = "einsum/%s/" % d
        e(d + "/matmul", "ij,jk->ik", mk(k + "mm-a", [2, 3], dt), mk(k + "mm-b", [3, 4], dt))
        e(d + "/implicit", "ij,jk", mk(k + "im-a", [2, 3], dt), mk(k + "im-b", [3, 4], dt))
        e(d + "/bmm", "bij,bjk->bik", mk(k + "bmm-a", [2, 3, 4], dt), mk(k + "bmm-b", [2, 4, 5], dt))
        e(d + "/trace", "ii->", mk(k + "tr", [4, 4], dt))
        e(d + "/trace-implicit", "ii", mk(k + "tri", [3, 3], dt))
        e(d + "/diagonal", "ii->i", mk(k + "dg", [4, 4], dt))
        e(d + "/batch-diagonal", "bii->bi", mk(k + "bdg", [2, 3, 3], dt))
        e(d + "/diag-sum", "iij->j", mk(k + "ds", [3, 3, 2], dt))
        e(d + "/outer", "i,j->ij", mk(k + "o-a", [3], dt), mk(k + "o-b", [4], dt))
        e(d + "/dot", "i,i->", mk(k + "dot-a", [5], dt), mk(k + "dot-b", [5], dt))
        e(d + "/mv", "ij,j->i", mk(k + "mv-a", [3, 4], dt), mk(k + "mv-b", [4], dt))
        e(d + "/sum-all", "ij->", mk(k + "sa", [3, 4], dt))
        e(d + "/sum-dim", "ijk->ik", mk(k + "sd", [2, 3, 4], dt))
        e(d + "/transpose", "ij->ji", mk(k + "tp", [2, 3], dt))
        e(d + "/permute", "ijk->kij", mk(k + "pm", [2, 3, 4], dt))
        e(d + "/ellipsis-matmul", "...ij,...jk->...ik", mk(k + "el-a", [2, 1, 3, 4], dt), mk(k + "el-b", [5, 4, 2], dt))
        e(d + "/ellipsis-implicit", "...ij,...jk", mk(k + "eli-a", [2, 3, 4], dt), mk(k + "eli-b", [2, 4, 2], dt))
        e(d + "/ellipsis-summed", "...ij->ij", mk(k + "els", [4, 2, 3], dt))
        e(d + "/ellipsis-middle", "i...j->j...i", mk(k + "elm", [2, 3, 4, 5], dt))
        e(d + "/ellipsis-empty", "...ij,...jk->...ik", mk(k + "ele-a", [2, 3], dt), mk(k + "ele-b", [3, 2], dt))
        e(d + "/ellipsis-one-sided", "...ij,jk->...ik", mk(k + "el1-a", [2, 3, 4], dt), mk(k + "el1-b", [4, 5], dt))
        e(d + "/ellipsis-broadcast", "...i,...i->...", mk(k + "elb-a", [3, 1, 4], dt), mk(k + "elb-b", [2, 4], dt))
        e(d + "/three-chain", "ij,jk,kl->il", mk(k + "c-a", [2, 3], dt), mk(k + "c-b", [3, 4], dt), mk(k + "c-c", [4, 2], dt))
        e(d + "/three-shared", "i,i,i->", mk(k + "s-a", [4], dt), mk(k + "s-b", [4], dt), mk(k + "s-c", [4], dt))
        e(d + "/three-trace", "ab,bc,ca->", mk(k + "t-a", [2, 3], dt), mk(k + "t-b", [3, 4], dt), mk(k + "t-c", [4, 2], dt))
        e(d + "/bilinear", "bn,anm,bm->ba", mk(k + "bl-a", [2, 3], dt), mk(k + "bl-b", [4, 3, 5], dt), mk(k + "bl-c", [2, 5], dt))
        e(d + "/three-rows", "ij,ij,ij->i", mk(k + "r-a", [3, 2], dt), mk(k + "r-b", [3, 2], dt), mk(k + "r-c", [3, 2], dt))
        e(d + "/broadcast-1", "ij,jk->ik", mk(k + "b1-a", [2, 1], dt), mk(k + "b1-b", [3, 3], dt))
        e(d + "/noncontig", "ij,jk->ik", NC(mk(k + "nc-a", [3, 2], dt)), NC(mk(k + "nc-b", [4, 3], dt)))
        e(d + "/uppercase", "Ab,bC->AC", mk(k + "up-a", [2, 3], dt), mk(k + "up-b", [3, 2], dt))
        e(d + "/spaces", " i j , j k -> i k ", mk(k + "sp-a", [2, 3], dt), mk(k + "sp-b", [3, 2], dt))
        e(d + "/empty", "ij,jk->ik", mk(k + "em-a", [2, 0], dt), mk(k + "em-b", [0, 3], dt))
        e(d + "/scalar", ",->", mk(k + "sc-a", [], dt), mk(k + "sc-b", [], dt))
    e("complex64/matmul", "ij,jk->ik", mk("einsum/c64/a", [2, 3], c64), mk("einsum/c64/b", [3, 2], c64))
    e("complex64/trace", "ii->", mk("einsum/c64/tr", [3, 3], c64))
    e("int64/matmul", "ij,jk->ik", mk("einsum/i64/a", [2, 3], i64), mk("einsum/i64/b", [3, 2], i64))
    e("int32/trace", "ii", mk("einsum/i32/tr", [3, 3], i32))
    e("int32/diagonal", "ii->i", mk("einsum/i32/dg", [3, 3], i32))
    e("int32/sum-all", "ij->", mk("einsum/i32/sa", [2, 3], i32))

    one, two = torch.ones(3), torch.ones(2, 3)
    err("einsum/error/bad-char", "einsum", [one, one], {"equation": "i1,i"}, "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be in [a-zA-Z]")
    err("einsum/error/fewer-operands", "einsum", [one, one], {"equation": "i,i,i"}, "einsum(): fewer operands were provided than specified in the equation")
    err("einsum/error/more-operands", "einsum", [one, one], {"equation": "i"}, "einsum(): more operands were provided than specified in the equation")
    err("einsum/error/subscripts", "einsum", [two], {"equation": "ijk"}, "einsum(): the number of subscripts in the equation (3) does not match the number of dimensions (2) for operand 0 and no ellipsis was given")
    err("einsum/error/subscripts-ellipsis", "einsum", [two], {"equation": "ijk..."}, "einsum(): the number of subscripts in the equation (3) is more than the number of dimensions (2) for operand 0")
    err("einsum/error/output-twice", "einsum", [two], {"equation": "ij->ii"}, "einsum(): output subscript i appears more than once in the output")
    err("einsum/error/output-unknown", "einsum", [two], {"equation": "ij->k"}, "einsum(): output subscript k does not appear in the equation for any input operand")
    err("einsum/error/size", "einsum", [torch.ones(3, 3), torch.ones(2, 2)], {"equation": "ij,jk"}, "einsum(): subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3")
    err("einsum/error/diagonal-size", "einsum", [two], {"equation": "ii"}, "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2")
    err("einsum/error/ellipsis-broadcast", "einsum", [two, torch.ones(4, 3)], {"equation": "...i,...i"}, "einsum(): dimension 0 covered by ellipsis in operand 1has size 4 which does not broadcast with previously seen ellipsis with size 2 for the respective dimension")
    err("einsum/error/lone-dot", "einsum", [two], {"equation": "..i"}, "einsum(): found '.' for operand 0 that is not part of any ellipsis")
    err("einsum/error/two-ellipses", "einsum", [two], {"equation": "...i..."}, "einsum(): found '.' for operand 0 for which an ellipsis was already found")
    err("einsum/error/output-bad-char", "einsum", [two], {"equation": "ij->i2"}, "einsum(): invalid subscript given at index 5 in the equation string, subscripts must be in [a-zA-Z]")
    err("einsum/error/output-lone-dot", "einsum", [two], {"equation": "ij->..i"}, "einsum(): found '.' for output that is not part of any ellipsis (...)")
    err("einsum/error/output-two-ellipses", "einsum", [two], {"equation": "...ij->......"}, "einsum(): found '.' for output but an ellipsis (...) was already found")


def tensordot_block():
    for dt in (f32, f64):
        d = dname(dt)
        k = "tensordot/%s/" % d
        add_case(k + "default", "tensordot", [mk(k + "d-a", [2, 3, 4], dt), mk(k + "d-b", [3, 4, 5], dt)])
        add_case(k + "dims1", "tensordot", [mk(k + "1-a", [2, 3], dt), mk(k + "1-b", [3, 4], dt)], {"dims": 1})
        add_case(k + "dims0", "tensordot", [mk(k + "0-a", [2], dt), mk(k + "0-b", [3], dt)], {"dims": 0})
        add_case(k + "lists", "tensordot", [mk(k + "l-a", [3, 4, 5], dt), mk(k + "l-b", [4, 3, 2], dt)], {"dims": [[1, 0], [0, 1]]})
        add_case(k + "negative", "tensordot", [mk(k + "n-a", [2, 3], dt), mk(k + "n-b", [3, 2], dt)], {"dims": [[-1], [0]]})
        add_case(k + "size1", "tensordot", [mk(k + "s-a", [3, 4], dt), mk(k + "s-b", [1, 5], dt)], {"dims": [[0], [0]]})
        add_case(k + "noncontig", "tensordot", [NC(mk(k + "nc-a", [3, 4], dt)), mk(k + "nc-b", [4, 2], dt)], {"dims": [[0], [0]]})
    add_case("tensordot/int64/dims1", "tensordot", [mk("td/i64/a", [2, 3], i64), mk("td/i64/b", [3, 2], i64)], {"dims": 1})
    a = torch.ones(3, 3)
    err("tensordot/error/negative", "tensordot", [a, a], {"dims": -1}, "tensordot expects dims >= 0, but got dims=-1")
    err("tensordot/error/lengths", "tensordot", [a, a], {"dims": [[0], [0, 1]]}, "both dimension lists should have same length")
    err("tensordot/error/sizes", "tensordot", [a, torch.ones(2, 3)], {"dims": [[0], [0]]}, "contracted dimensions need to match, but first has size 3 in dim 0 and second has size 2 in dim 0")
    err("tensordot/error/repeated", "tensordot", [a, a], {"dims": [[0, 0], [0, 1]]}, "dim 0 appears multiple times in the list of dims")


# ---------------------------------------------------------------- pad / one_hot

def pad_block():
    def p(cid, x, pad, mode="constant", value=None):
        kw = {"pad": list(pad), "mode": mode}
        if value is not None:
            kw["value"] = value
        add_case("pad/" + cid, "pad", [x], kw)

    for dt in (f32, f64, i64):
        d = dname(dt)
        k = "pad/%s/" % d
        p(d + "/constant-1d", mk(k + "c1", [3, 4], dt), (1, 2))
        p(d + "/constant-2d-value", mk(k + "c2", [2, 3], dt), (1, 0, 2, 1), value=7.0)
        p(d + "/constant-3d", mk(k + "c3", [2, 3, 4], dt), (1, 1, 2, 0, 0, 1))
        p(d + "/constant-all-dims", mk(k + "c4", [2, 3], dt), (1, 1, 1, 1), value=-1.0)
        p(d + "/constant-crop", mk(k + "cc", [3, 5], dt), (-1, 2))
        p(d + "/constant-crop-only", mk(k + "co", [3, 5], dt), (-1, -2, 0, -1))
        p(d + "/constant-crop-mixed", mk(k + "cm", [4, 5], dt), (2, -1, -1, 1))
        p(d + "/constant-crop-to-empty", mk(k + "ce", [3, 5], dt), (-3, -2))
        p(d + "/constant-empty-input", mk(k + "ci", [0, 2], dt), (1, 1))
        p(d + "/constant-noncontig", NC(mk(k + "cn", [4, 3], dt)), (2, 1, 0, 1))
        p(d + "/constant-none", mk(k + "cz", [2, 2], dt), ())
        if dt == i64:
            continue
        for mode in ("reflect", "replicate", "circular"):
            m = "%s/%s-" % (d, mode)
            p(m + "1d", mk(k + mode + "1", [2, 5], dt), (2, 3), mode)
            p(m + "1d-batch", mk(k + mode + "1b", [2, 3, 5], dt), (1, 2), mode)
            p(m + "2d", mk(k + mode + "2", [1, 3, 4], dt), (1, 2, 2, 1), mode)
            p(m + "2d-batch", mk(k + mode + "2b", [2, 1, 3, 4], dt), (0, 3, 1, 0), mode)
            p(m + "3d", mk(k + mode + "3", [1, 3, 4, 5], dt), (1, 2, 2, 1, 1, 2), mode)
            p(m + "3d-batch", mk(k + mode + "3b", [1, 2, 3, 3, 4], dt), (3, 0, 0, 2, 2, 1), mode)
            p(m + "negative-left", mk(k + mode + "nl", [2, 5], dt), (-1, 2), mode)
            p(m + "negative-right", mk(k + mode + "nr", [2, 5], dt), (2, -1), mode)
            p(m + "negative-2d", mk(k + mode + "n2", [1, 4, 5], dt), (-2, 1, 1, -1), mode)
            p(m + "noncontig", NC(mk(k + mode + "nc", [1, 5, 3], dt), 1, 2), (1, 2, 2, 1), mode)
            p(m + "empty-batch", mk(k + mode + "eb", [0, 2, 3], dt), (1, 1), mode)
        p(d + "/replicate-wide", mk(k + "rw", [1, 3], dt), (5, 7), "replicate")
        p(d + "/circular-full-wrap", mk(k + "cf", [1, 4], dt), (4, 4), "circular")
    for dt in (torch.bool, c64, torch.int8, torch.float16):
        d = dname(dt)
        p(d + "/constant", mk("pad/%s/c" % d, [2, 3], dt), (1, 1, 1, 0), value=1.0)
        p(d + "/circular", mk("pad/%s/circ" % d, [1, 2, 3], dt), (1, 2), "circular")
        if dt == c64:  # integer/float16 reflect and replicate: the Java tests cover them (1.13 had no such kernels)
            p(d + "/reflect", mk("pad/%s/refl" % d, [1, 2, 3], dt), (1, 2), "reflect")
            p(d + "/replicate", mk("pad/%s/repl" % d, [1, 2, 3], dt), (1, 2), "replicate")
    p("int64/constant-fraction", torch.arange(3), (1, 1), value=2.7)

    x, row = torch.ones(3), torch.ones(1, 5)
    err("pad/error/odd", "pad", [x], {"pad": [1]}, "Padding length must be divisible by 2")
    err("pad/error/too-long", "pad", [x], {"pad": [1, 1, 1, 1]}, "Padding length")
    err("pad/error/reflect-size", "pad", [row], {"pad": [5, 2], "mode": "reflect"}, "Argument #4: Padding size should be less than the corresponding input dimension, but got: padding (5, 2) at dimension 1 of input [1, 5]")
    err("pad/error/reflect-1d-input", "pad", [x], {"pad": [1, 1], "mode": "reflect"}, "Padding size 2 is not supported for 1D input tensor.")
    err("pad/error/reflect-too-many-dims", "pad", [torch.ones(2, 3)], {"pad": [1, 1, 1, 1], "mode": "reflect"}, "Padding size 4 is not supported for 2D input tensor.")
    err("pad/error/reflect-value", "pad", [row], {"pad": [1, 1], "mode": "reflect", "value": 1.0}, "Padding mode \"reflect\" doesn't take in value argument")
    err("pad/error/mode", "pad", [row], {"pad": [1, 1], "mode": "foo"}, "Unrecognised padding mode foo")
    err("pad/error/reflect-bool", "pad", [torch.ones(1, 5, dtype=torch.bool)], {"pad": [1, 2], "mode": "reflect"}, "\"reflection_pad1d\" not implemented for 'Bool'")
    err("pad/error/replicate-bool", "pad", [torch.ones(1, 5, dtype=torch.bool)], {"pad": [1, 2], "mode": "replicate"}, "not implemented for 'Bool'")
    err("pad/error/replicate-too-small", "pad", [row], {"pad": [-3, -3], "mode": "replicate"}, "is too small. Calculated output W: -1")
    err("pad/error/reflect-too-small", "pad", [row], {"pad": [-3, -3], "mode": "reflect"}, "is too small. Calculated output W: -1")
    err("pad/error/int8-overflow", "pad", [torch.arange(3, dtype=torch.int8)], {"pad": [1, 1], "value": 300.0}, "value cannot be converted to type int8_t without overflow")


def one_hot_block():
    add_case("one_hot/infer", "one_hot", [torch.tensor([0, 2, 1])])
    add_case("one_hot/classes", "one_hot", [torch.tensor([0, 2, 1])], {"num_classes": 5})
    add_case("one_hot/2d", "one_hot", [torch.tensor([[1, 0], [3, 3], [2, 0]])])
    add_case("one_hot/0d", "one_hot", [torch.tensor(2)], {"num_classes": 4})
    add_case("one_hot/empty", "one_hot", [torch.zeros(0, 2, dtype=i64)], {"num_classes": 3})
    add_case("one_hot/noncontig", "one_hot", [NC(torch.tensor([[0, 1, 2], [3, 1, 0]]))])
    err("one_hot/error/int32", "one_hot", [torch.tensor([0, 1], dtype=i32)], {}, "one_hot is only applicable to index tensor")
    err("one_hot/error/negative", "one_hot", [torch.tensor([0, -2, 1])], {}, "Class values must be non-negative.")
    err("one_hot/error/too-few-classes", "one_hot", [torch.tensor([0, 2, 1])], {"num_classes": 2}, "Class values must be smaller than num_classes.")
    err("one_hot/error/empty-infer", "one_hot", [torch.zeros(0, dtype=i64)], {}, "Can not infer total number of classes from empty tensor.")


# ---------------------------------------------------------------- repeat_interleave / diff / diag

def repeat_block():
    r = "repeat_interleave/"
    for dt in (f32, i64, torch.bool, c64, torch.float16):
        d = dname(dt)
        add_case(r + d + "/int", "repeat_interleave", [mk(r + d + "i", [2, 3], dt), 2])
        add_case(r + d + "/int-dim", "repeat_interleave", [mk(r + d + "id", [2, 3], dt), 3], {"dim": 1})
        add_case(r + d + "/tensor-dim0", "repeat_interleave", [mk(r + d + "t0", [3, 2], dt), torch.tensor([1, 0, 2])], {"dim": 0})
    add_case(r + "float32/tensor-flat", "repeat_interleave", [mk(r + "tf", [2, 2], f32), torch.tensor([1, 2, 0, 3])])
    add_case(r + "float32/tensor-dim-neg", "repeat_interleave", [mk(r + "tn", [2, 3], f32), torch.tensor([2, 1, 1])], {"dim": -1})
    add_case(r + "float32/tensor-0d", "repeat_interleave", [mk(r + "t0d", [2, 3], f32), torch.tensor(2)], {"dim": 1})
    add_case(r + "float32/tensor-one", "repeat_interleave", [mk(r + "t1", [2, 3], f32), torch.tensor([3])], {"dim": 0})
    add_case(r + "float32/tensor-int32", "repeat_interleave", [mk(r + "ti32", [3], f32), torch.tensor([1, 2, 3], dtype=i32)])
    add_case(r + "float32/output-size", "repeat_interleave", [mk(r + "os", [3], f32), torch.tensor([1, 2, 3])], {"dim": 0, "output_size": 6})
    add_case(r + "float32/int-output-size", "repeat_interleave", [mk(r + "ios", [2, 2], f32), 2], {"dim": 0, "output_size": 4})
    add_case(r + "float32/noncontig", "repeat_interleave", [NC(mk(r + "nc", [3, 2], f32)), torch.tensor([2, 0])], {"dim": 0})
    add_case(r + "float32/3d-middle", "repeat_interleave", [mk(r + "3m", [2, 3, 2], f32), torch.tensor([0, 1, 2])], {"dim": 1})
    add_case(r + "float32/zero-repeats", "repeat_interleave", [mk(r + "zr", [3], f32), 0])
    add_case(r + "float32/0d-input", "repeat_interleave", [torch.tensor(1.5), 3])
    add_case(r + "indices/int64", "repeat_interleave", [torch.tensor([2, 0, 1, 3])])
    add_case(r + "indices/int32", "repeat_interleave", [torch.tensor([1, 2], dtype=i32)])
    add_case(r + "indices/output-size", "repeat_interleave", [torch.tensor([1, 2])], {"output_size": 3})
    add_case(r + "indices/empty", "repeat_interleave", [torch.zeros(0, dtype=i64)])
    x = torch.arange(5.0)
    err(r + "error/negative", "repeat_interleave", [x, torch.tensor([1, -1, 2, 1, 1])], {}, "repeats can not be negative")
    err(r + "error/negative-indices", "repeat_interleave", [torch.tensor([1, -1, 2])], {}, "repeats can not be negative")
    err(r + "error/output-size", "repeat_interleave", [torch.tensor([1, 2])], {"output_size": 4}, "allocated size does not match required size")
    err(r + "error/output-size-self", "repeat_interleave", [x, torch.tensor([1, 2, 1, 1, 1])], {"output_size": 4}, "allocated size does not match required size")
    err(r + "error/2d-repeats", "repeat_interleave", [x, torch.ones(1, 5, dtype=i64)], {}, "repeats must be 0-dim or 1-dim tensor")
    err(r + "error/float-repeats", "repeat_interleave", [torch.tensor([1.0, 2.0])], {}, "\"repeat_interleave_cpu\" not implemented for 'Float'")
    err(r + "error/size", "repeat_interleave", [x, torch.tensor([1, 2])], {}, "repeats must have the same size as input along dim")
    err(r + "error/dim", "repeat_interleave", [torch.ones(2, 3), 2], {"dim": 2}, "Dimension out of range (expected to be in range of [-2, 1], but got 2)")


def diff_block():
    for dt in (f32, f64, i64, torch.uint8, torch.bool, c64):
        d = dname(dt)
        k = "diff/%s/" % d
        add_case(k + "1d", "diff", [mk(k + "1", [6], dt)])
        add_case(k + "n2-dim0", "diff", [mk(k + "2", [5, 3], dt)], {"n": 2, "dim": 0})
        add_case(k + "prepend-append", "diff", [mk(k + "pa", [2, 3], dt)],
                 {"prepend": mk(k + "pa-p", [2, 1], dt), "append": mk(k + "pa-a", [2, 2], dt)})
    k = "diff/float32/"
    add_case(k + "n3", "diff", [mk(k + "n3", [2, 6], f32)], {"n": 3})
    add_case(k + "n-beyond", "diff", [mk(k + "nb", [2, 3], f32)], {"n": 7})
    add_case(k + "n0", "diff", [mk(k + "n0", [2, 3], f32)], {"n": 0, "prepend": mk(k + "n0p", [2, 1], f32)})
    add_case(k + "prepend-only", "diff", [mk(k + "po", [4], f32)], {"prepend": mk(k + "pop", [2], f32)})
    add_case(k + "append-only", "diff", [mk(k + "ao", [4], f32)], {"n": 2, "append": mk(k + "aoa", [3], f32)})
    add_case(k + "promote", "diff", [torch.tensor([3, 1, 0])], {"prepend": torch.tensor([1.5])})
    add_case(k + "noncontig", "diff", [NC(mk(k + "nc", [4, 3], f32))], {"dim": 0})
    add_case(k + "empty-dim", "diff", [torch.ones(2, 0)])
    err("diff/error/0d", "diff", [torch.tensor(1.0)], {}, "diff expects input to be at least one-dimensional")
    err("diff/error/prepend-rank", "diff", [torch.ones(3)], {"prepend": torch.ones(2, 2)}, "diff expects prepend or append to be the same dimension as input")
    err("diff/error/prepend-shape", "diff", [torch.ones(3, 2)], {"dim": 0, "prepend": torch.ones(2, 3)}, "diff expects the shape of tensor to prepend or append to match that of input except along the differencing dimension; input.size(1) = 2, but got tensor.size(1) = 3")
    err("diff/error/dim", "diff", [torch.ones(3)], {"dim": 2}, "Dimension out of range (expected to be in range of [-1, 0], but got 2)")


def diag_block():
    for dt in (f32, i64, torch.bool, c64):
        d = dname(dt)
        k = "diag/%s/" % d
        add_case(k + "vector", "diag", [mk(k + "v", [3], dt)])
        add_case(k + "vector-above", "diag", [mk(k + "va", [3], dt)], {"diagonal": 1})
        add_case(k + "vector-below", "diag", [mk(k + "vb", [3], dt)], {"diagonal": -2})
        add_case(k + "matrix", "diag", [mk(k + "m", [3, 4], dt)])
        add_case(k + "matrix-above", "diag", [mk(k + "ma", [3, 4], dt)], {"diagonal": 2})
        add_case(k + "matrix-below", "diag", [mk(k + "mb", [3, 4], dt)], {"diagonal": -1})
        add_case(k + "matrix-noncontig", "diag", [NC(mk(k + "mn", [4, 3], dt))], {"diagonal": 1})
        e = "diag_embed/%s/" % d
        add_case(e + "default", "diag_embed", [mk(e + "d", [2, 3], dt)])
        add_case(e + "offset", "diag_embed", [mk(e + "o", [2, 3], dt)], {"offset": 1})
        add_case(e + "offset-negative", "diag_embed", [mk(e + "on", [3], dt)], {"offset": -2})
        add_case(e + "dims", "diag_embed", [mk(e + "dd", [2, 3], dt)], {"offset": 1, "dim1": 0, "dim2": 2})
        add_case(e + "dims-reversed", "diag_embed", [mk(e + "dr", [2, 3], dt)], {"offset": -1, "dim1": 2, "dim2": 0})
        add_case(e + "noncontig", "diag_embed", [NC(mk(e + "nc", [3, 2], dt))], {"dim1": -1, "dim2": 0})
    add_case("diag_embed/float32/empty", "diag_embed", [torch.ones(2, 0)])
    add_case("diag/float32/empty-vector", "diag", [torch.ones(0)], {"diagonal": 1})
    err("diag_embed/error/same-dims", "diag_embed", [torch.ones(2, 3)], {"offset": 0, "dim1": 1, "dim2": -2}, "diagonal dimensions cannot be identical 1, -2")
    err("diag_embed/error/dim", "diag_embed", [torch.ones(2, 3)], {"offset": 0, "dim1": 0, "dim2": 3}, "Dimension out of range (expected to be in range of [-3, 2], but got 3)")
    err("diag_embed/error/0d", "diag_embed", [torch.tensor(1.0)], {}, "Dimension out of range (expected to be in range of [-1, 0], but got -2)")


# ================================================================ main

def write(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in CASES]
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_arrange.py"), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"cases":[\n' + ",\n".join(lines) + tail)
    with open(path, encoding="utf-8") as f:
        json.load(f)
    return os.path.getsize(path)


def main():
    einsum_block()
    tensordot_block()
    pad_block()
    one_hot_block()
    repeat_block()
    diff_block()
    diag_block()
    size = write(OUT)
    sys.stderr.write("wrote %s: %d cases, %d bytes\n" % (os.path.relpath(OUT), len(CASES), size))
    for w in WARNINGS:
        sys.stderr.write("WARNING %s\n" % w)


if __name__ == "__main__":
    main()

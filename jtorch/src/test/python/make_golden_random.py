#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Golden-fixture generator for JTorch's random ops (RandomOps, Generator).

What it makes
    jtorch/src/test/resources/golden/random.json: the numbers real PyTorch's CPU
    generator gives for seeded rand/randn/randint/randperm, the in-place
    samplers (uniform_, normal_, exponential_, geometric_, cauchy_,
    log_normal_, bernoulli_, random_) on contiguous, transposed and strided
    tensors, bernoulli, multinomial and normal, plus the generator state after
    each call, so that the Java tests check both the values and how many
    words of the mt19937 stream each op consumed.

How to run (from the repository root)
    python jtorch/src/test/python/make_golden_random.py
    with PyTorch 2.13 (CPU wheel: bernoulli_ and exponential_ use the
    generator's own stream), the version random.json comes from.
    The output is deterministic: every case seeds its generator, keys are
    sorted, nothing time-dependent is written.

File format (the case layout of make_golden_core.py)
    {"cases": [case, ...], "generator": "make_golden_random.py", "torch": "<version>"}
    case = {"id", "op", "args", "kwargs", "out", ["note"]}
    kwargs  the call: "seed" (an int64; negative seeds are read as uint64), "generator" ("default":
            torch.manual_seed(seed) and the default generator; "explicit":
            torch.Generator().manual_seed(seed) passed as generator=), and the
            op's own arguments ("size", "dtype", "low", "high", "n", "from",
            "to", "mean", "std", "p", "lambd", "median", "sigma",
            "num_samples", "replacement"). In-place ops name the tensor they
            fill: "shape" (logical), "dtype" and "layout": "contiguous";
            "transposed" (torch.zeros(shape[::-1]).t(), 2-D); "strided"
            (torch.zeros(2 * numel)[::2], 1-D: every other element).
    args    input tensors (bernoulli's probabilities, multinomial's weights,
            normal's mean/std), as core.json's tensors ("transpose": [0, 1]
            = the non-contiguous transposed view of the data).
    out     R = {"dtype", "shape", "numel", "data", "complete", "sha256"}:
            "data" holds every value (row-major, float16/bfloat16/float32
            widened exactly) when "complete", else the first HEAD values;
            "sha256" is the SHA-256 of the whole result's little-endian bytes
            in its own dtype (bool: one byte 0/1). The out object also holds
            "state": {"left", "next", "sha256", ["hex"]} of the generator
            after the call: sha256 of the 5056 get_state() bytes, "engine_sha256"
            of the engine part (bytes 0..5015: seed, left, seeded, next, the 624
            words), the cached double normal ("normal_valid", "normal"), and
            "hex" = the bytes themselves for a few cases. "sequence" cases run
            kwargs["steps"] in order on one generator and give "steps": [R...].
            "set_state" cases load kwargs["state_hex"] into a fresh generator
            and run the steps.
    note    only when run on PyTorch 1.x, which the fixture no longer comes
            from (a 2.x fixture has no notes: 2.x draws with 2.15's
            formulas); where 1.13 differs from 2.15 (the Java tests follow 2.15):
            NOTE_LOG1P, NOTE_LIBM: same stream, values within a few ulps;
            NOTE_HALF, NOTE_MULTINOMIAL_ONE ("1.13 semantics; 2.15 differs"):
            the sampling changed, not compared (the Java tests check 2.15's rule).
            Noted cases compare the engine state exactly and the cached normal
            within a few ulps.

Size: values are stored in full only where they are not bit-exact or are
short; everything else is checked through "sha256", keeping the file far
under 1 MB.
"""

import hashlib
import json
import math
import os
import struct
import sys
import warnings

try:
    import torch
except ImportError:  # e.g. a pyenv `python3` shim: fall back to Debian's interpreter
    if os.path.exists("/usr/bin/python3") and os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.normpath(os.path.join(HERE, "..", "resources", "golden", "random.json"))

HEAD = 24
NOTE_LOG1P = ("1.13 draws per-element normals and exponentials with log(1-u), 2.15 with log1p(-u): "
              "same stream, values within a few ulps")
NOTE_LIBM = ("float64 log/sin/cos/tan: glibc and the JVM round differently on a few samples in a thousand: "
             "same stream, values within one or two ulps")
NOTE_MULTINOMIAL_ONE = ("1.13 semantics; 2.15 differs: one sample with replacement takes the exponential (Gumbel) "
                        "path, as without replacement (libtorch 2.10 gives 6 here)")
NOTE_HALF = ("1.13 semantics; 2.15 differs: float16/bfloat16 rand/randn sample in float (24-bit uniforms) and "
             "round once")

# The notes describe how PyTorch 1.13 differs from 2.15; PyTorch 2.x draws with 2.15's formulas, and JTorch calls the
# C library's log/sin/cos/tan for float64 as ATen does, so a 2.x fixture is compared exactly.
if int(torch.__version__.split(".")[0]) >= 2:
    NOTE_LOG1P = NOTE_LIBM = NOTE_HALF = NOTE_MULTINOMIAL_ONE = None

f16, bf16, f32, f64 = torch.float16, torch.bfloat16, torch.float32, torch.float64
DTYPES = {str(d).replace("torch.", ""): d for d in
          [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, f16, bf16, f32, f64,
           torch.complex64, torch.complex128]}
SEEDS = [0, 42, 2 ** 32 + 7, -1]  # -1: torch reads it as 2**64 - 1
CASES = []


def dname(dt):
    return str(dt).replace("torch.", "")


# ---------------------------------------------------------------- encoding

def enc_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def raw_bytes(t):
    t = t.detach().contiguous()
    if t.dtype == bf16:
        return t.view(torch.int16).numpy().tobytes()
    if t.dtype.is_complex:
        return torch.view_as_real(t).numpy().tobytes()
    return t.numpy().tobytes()


def values(t):
    flat = t.detach().contiguous().reshape(-1)
    if t.dtype == torch.bool:
        return [bool(v) for v in flat.tolist()]
    if t.dtype.is_complex:
        return [enc_float(v) for v in torch.view_as_real(flat.to(torch.complex128)).reshape(-1).tolist()]
    if t.dtype.is_floating_point:
        return [enc_float(v) for v in flat.to(f64).tolist()]
    return [int(v) for v in flat.tolist()]


def enc_result(t, complete):
    data = values(t)
    full = complete or len(data) <= HEAD
    return {"dtype": dname(t.dtype), "shape": list(t.shape), "numel": t.numel(), "complete": full,
            "data": data if full else data[:HEAD], "sha256": hashlib.sha256(raw_bytes(t)).hexdigest()}


def enc_tensor(t, transpose=None):
    d = {"dtype": dname(t.dtype), "shape": list(t.shape), "data": values(t)}
    if transpose is not None:
        d["transpose"] = list(transpose)
    return d


def enc_state(g, with_hex=False):
    b = bytes(g.get_state().numpy())
    left, next_ = struct.unpack_from("<i", b, 8)[0], struct.unpack_from("<Q", b, 16)[0]
    normal_valid, normal = struct.unpack_from("<i", b, 5040)[0], struct.unpack_from("<d", b, 5024)[0]
    s = {"left": left, "next": next_, "sha256": hashlib.sha256(b).hexdigest(),
         "engine_sha256": hashlib.sha256(b[:5016]).hexdigest(), "normal_valid": normal_valid, "normal": normal}
    if with_hex:
        s["hex"] = b.hex()
    return s


def generator(kw):
    """The generator a case draws from, seeded: the default one or a fresh torch.Generator."""
    if kw.get("generator", "default") == "default":
        torch.manual_seed(kw["seed"])
        return torch.default_generator, None
    g = torch.Generator().manual_seed(kw["seed"])
    return g, g


def add(cid, op, kwargs, out, args=None, note=None):
    c = {"id": cid, "op": op, "args": args or [], "kwargs": kwargs, "out": out}
    if note:
        c["note"] = note
    CASES.append(c)


# ---------------------------------------------------------------- running one call

def target(kw):
    """The tensor an in-place op fills, in the case's layout."""
    shape, dt = kw["shape"], DTYPES[kw["dtype"]]
    layout = kw.get("layout", "contiguous")
    if layout == "contiguous":
        return torch.zeros(shape, dtype=dt)
    if layout == "transposed":
        return torch.zeros(shape[::-1], dtype=dt).t()
    n = 1
    for s in shape:
        n *= s
    return torch.zeros(2 * n, dtype=dt)[::2]


def run(op, kw, gen, inputs):
    g = {"generator": gen} if gen is not None else {}
    dt = DTYPES.get(kw.get("dtype"))
    if op == "rand":
        return torch.rand(kw["size"], dtype=dt, **g)
    if op == "randn":
        return torch.randn(kw["size"], dtype=dt, **g)
    if op == "randint":
        return torch.randint(kw["low"], kw["high"], kw["size"], dtype=dt or torch.int64, **g)
    if op == "randperm":
        return torch.randperm(kw["n"], dtype=dt or torch.int64, **g)
    if op == "normal_float_float":
        return torch.normal(kw["mean"], kw["std"], kw["size"], **g)
    if op == "normal_tensor_float":
        return torch.normal(inputs[0], kw["std"], **g)
    if op == "normal_float_tensor":
        return torch.normal(kw["mean"], inputs[0], **g)
    if op == "normal_tensor_tensor":
        return torch.normal(inputs[0], inputs[1], **g)
    if op == "bernoulli":
        return torch.bernoulli(inputs[0], **g)
    if op == "bernoulli_tensor_":
        return target(kw).bernoulli_(inputs[0], **g)
    if op == "multinomial":
        return torch.multinomial(inputs[0], kw["num_samples"], kw["replacement"], **g)
    t = target(kw)
    if op == "uniform_":
        return t.uniform_(kw["from"], kw["to"], **g)
    if op == "normal_":
        return t.normal_(kw["mean"], kw["std"], **g)
    if op == "exponential_":
        return t.exponential_(kw["lambd"], **g)
    if op == "geometric_":
        return t.geometric_(kw["p"], **g)
    if op == "cauchy_":
        return t.cauchy_(kw["median"], kw["sigma"], **g)
    if op == "log_normal_":
        return t.log_normal_(kw["mean"], kw["std"], **g)
    if op == "bernoulli_":
        return t.bernoulli_(kw["p"], **g)
    if op == "random_":
        if "from" in kw:
            return t.random_(kw["from"], kw["to"], **g)
        return t.random_(**g)
    raise ValueError(op)


def case(cid, op, kw, note=None, args=(), complete=False, state_hex=False):
    kw = dict(kw)
    kw.setdefault("generator", "default")
    g, explicit = generator(kw)
    inputs = [a.value() if isinstance(a, NC) else a for a in args]
    out = enc_result(run(op, kw, explicit, inputs), complete or note is not None)
    out["state"] = enc_state(g, state_hex)
    add(cid, op, kw, out, [a.enc() if isinstance(a, NC) else enc_tensor(a) for a in args], note)


class NC(object):
    """A non-contiguous input: base.t()."""

    def __init__(self, base):
        self.base = base

    def value(self):
        return self.base.t()

    def enc(self):
        return enc_tensor(self.base, transpose=(0, 1))


def sequence(cid, kw, steps, note=None, state_hex=False):
    kw = dict(kw, steps=steps)
    kw.setdefault("generator", "default")
    g, explicit = generator(kw)
    results = [enc_result(run(s["op"], s, explicit, []), True) for s in steps]
    add(cid, "sequence", kw, {"steps": results, "state": enc_state(g, state_hex)}, note=note)


# ---------------------------------------------------------------- the cases

def normal_note(dtype, n, contiguous=True):
    """Which 1.13-vs-2.15 note a normal fill of n elements carries."""
    if n < 16 or not contiguous:
        return NOTE_LOG1P
    return NOTE_LIBM if dtype == "float64" else None


def factories():
    for seed in SEEDS:
        for dtype in ("float32", "float64"):
            for n in (1, 7, 15, 16, 17, 100, 1000):
                case("rand/%s/n=%d/seed=%d" % (dtype, n, seed), "rand", {"seed": seed, "size": [n], "dtype": dtype})
                case("randn/%s/n=%d/seed=%d" % (dtype, n, seed), "randn", {"seed": seed, "size": [n], "dtype": dtype},
                     note=normal_note(dtype, n))
    for dtype in ("float16", "bfloat16"):
        for n in (7, 17):
            case("rand/%s/n=%d/seed=0" % (dtype, n), "rand", {"seed": 0, "size": [n], "dtype": dtype}, note=NOTE_HALF)
            case("randn/%s/n=%d/seed=0" % (dtype, n), "randn", {"seed": 0, "size": [n], "dtype": dtype}, note=NOTE_HALF)
    case("rand/float32/2x3x4", "rand", {"seed": 0, "size": [2, 3, 4], "dtype": "float32"})
    case("randn/float32/4x4", "randn", {"seed": 0, "size": [4, 4], "dtype": "float32"})
    case("randn/float32/0", "randn", {"seed": 0, "size": [0], "dtype": "float32"})
    case("rand/complex64/3", "rand", {"seed": 0, "size": [3], "dtype": "complex64"})
    case("randn/complex64/5", "randn", {"seed": 0, "size": [5], "dtype": "complex64"}, note=NOTE_LOG1P)
    case("randn/complex64/20", "randn", {"seed": 0, "size": [20], "dtype": "complex64"})
    case("randn/complex128/20", "randn", {"seed": 0, "size": [20], "dtype": "complex128"}, note=NOTE_LIBM)
    for seed in (0, 123456789):
        g = "explicit"
        case("rand/explicit/float32/n=33/seed=%d" % seed, "rand", {"seed": seed, "generator": g, "size": [33], "dtype": "float32"})
        case("randn/explicit/float32/n=33/seed=%d" % seed, "randn", {"seed": seed, "generator": g, "size": [33], "dtype": "float32"})
    case("normal/float_float/4", "normal_float_float", {"seed": 0, "mean": 1.0, "std": 2.0, "size": [4]}, note=NOTE_LOG1P)
    case("normal/float_float/40", "normal_float_float", {"seed": 0, "mean": -1.5, "std": 0.25, "size": [40]})


def randints():
    ranges = [(0, 10), (-5, 5), (0, 2 ** 31), (0, 2 ** 32 - 1), (0, 2 ** 32), (0, 2 ** 40), (-2 ** 40, 2 ** 40),
              (-2 ** 63, 2 ** 63 - 1), (3, 4)]
    for seed in (0, 42):
        for lo, hi in ranges:
            case("randint/int64/[%d,%d)/seed=%d" % (lo, hi, seed), "randint", {"seed": seed, "low": lo, "high": hi, "size": [7]})
        case("randint/int64/[0,10)/n=1000/seed=%d" % seed, "randint", {"seed": seed, "low": 0, "high": 10, "size": [1000]})
        case("randint/int64/[0,2^40)/n=1000/seed=%d" % seed, "randint",
             {"seed": seed, "low": 0, "high": 2 ** 40, "size": [1000]})
    typed = [("int32", 0, 100), ("int32", -2 ** 31, 2 ** 31 - 1), ("uint8", 0, 256), ("int8", -128, 128),
             ("int16", -1000, 1000), ("bool", 0, 2), ("float32", 0, 1000), ("float32", 0, 2 ** 32 + 5),
             ("float64", -2 ** 40, 2 ** 40), ("float16", -100, 100), ("bfloat16", 0, 200), ("bfloat16", 0, 2 ** 33)]
    for dtype, lo, hi in typed:
        case("randint/%s/[%d,%d)" % (dtype, lo, hi), "randint", {"seed": 0, "low": lo, "high": hi, "size": [2, 5], "dtype": dtype})


def randperms():
    for n in (0, 1, 2, 5, 100, 10000):
        case("randperm/int64/n=%d" % n, "randperm", {"seed": 0, "n": n})
    case("randperm/int64/n=1000/seed=42", "randperm", {"seed": 42, "n": 1000})
    for dtype in ("int32", "int16", "uint8", "float32", "float64", "float16"):
        case("randperm/%s/n=100" % dtype, "randperm", {"seed": 0, "n": 100, "dtype": dtype})


def inplace():
    specs = [
        ("uniform_", {"from": -2.0, "to": 3.0}, ("float32", "float64")),
        ("normal_", {"mean": 0.5, "std": 2.0}, ("float32", "float64")),
        ("exponential_", {"lambd": 1.5}, ("float32", "float64")),
        ("geometric_", {"p": 0.25}, ("float32", "float64", "int64")),
        ("cauchy_", {"median": 1.0, "sigma": 0.5}, ("float32", "float64")),
        ("log_normal_", {"mean": 0.0, "std": 0.5}, ("float32", "float64")),
        ("bernoulli_", {"p": 0.3}, ("float32", "float64", "int64", "bool")),
        ("random_", {}, ("float32", "float64", "int64")),
        ("random_", {"from": -3, "to": 7}, ("float32", "int64", "int8")),
        ("random_", {"from": 5, "to": None}, ("float32", "float64", "int16")),
    ]
    layouts = [("contiguous", [5, 7]), ("transposed", [5, 7]), ("strided", [35]), ("contiguous", [3])]
    for op, args, dtypes in specs:
        for dtype in dtypes:
            for layout, shape in layouts:
                kw = dict(args, seed=0, shape=shape, dtype=dtype, layout=layout)
                n = 1
                for s in shape:
                    n *= s
                note = None
                if op in ("normal_", "log_normal_") and dtype != "int64":
                    note = NOTE_LOG1P if op == "log_normal_" else normal_note(dtype, n, layout == "contiguous")
                elif op == "exponential_":
                    note = NOTE_LOG1P
                elif op == "cauchy_" and dtype == "float64":
                    note = NOTE_LIBM
                bounds = "" if "from" not in args else "[%s,%s)" % (args["from"], args["to"])
                cid = "%s%s/%s/%s/%s" % (op, bounds, dtype, layout, "x".join(map(str, shape)))
                case(cid, op, kw, note=note)
    for dtype in ("int8", "uint8", "int16", "int32", "float16", "bfloat16", "bool"):
        case("random_/%s/contiguous/9" % dtype, "random_", {"seed": 0, "shape": [9], "dtype": dtype})
    for dtype in ("int64", "float64", "float32", "bfloat16"):
        case("random_[min,None)/%s" % dtype, "random_", {"seed": 0, "shape": [6], "dtype": dtype, "from": -2 ** 63, "to": None})
    case("random_[2^25,2^25+3)/float32", "random_", {"seed": 0, "shape": [4], "dtype": "float32", "from": 2 ** 25, "to": 2 ** 25 + 3})


def samplers():
    torch.manual_seed(1234)
    p32 = torch.rand(3, 4)
    p64 = torch.rand(3, 4, dtype=f64)
    case("bernoulli/float32/3x4", "bernoulli", {"seed": 0}, args=[p32])
    case("bernoulli/float64/3x4", "bernoulli", {"seed": 0}, args=[p64])
    case("bernoulli/float32/transposed", "bernoulli", {"seed": 0}, args=[NC(p32)])
    case("bernoulli_/tensor_p/broadcast", "bernoulli_tensor_", {"seed": 0, "shape": [3, 4], "dtype": "float32"},
         args=[torch.tensor([0.1, 0.5, 0.9, 1.0])])
    case("bernoulli_/tensor_p/int64_self_float64_p", "bernoulli_tensor_", {"seed": 0, "shape": [3, 4], "dtype": "int64"}, args=[p64])
    w = torch.arange(1.0, 11.0)
    w2 = torch.rand(3, 6) + 0.05
    for n, repl in ((5, False), (5, True), (1, True), (1, False), (10, False)):
        case("multinomial/1d/n=%d/replacement=%s" % (n, repl), "multinomial", {"seed": 0, "num_samples": n, "replacement": repl}, args=[w],
             note=NOTE_MULTINOMIAL_ONE if (n, repl) == (1, True) else None)
    case("multinomial/2d/n=3/replacement=False", "multinomial", {"seed": 0, "num_samples": 3, "replacement": False}, args=[w2])
    case("multinomial/2d/n=10/replacement=True", "multinomial", {"seed": 0, "num_samples": 10, "replacement": True}, args=[w2])
    case("multinomial/2d/float64/n=4", "multinomial", {"seed": 7, "num_samples": 4, "replacement": True}, args=[w2.double()])
    case("multinomial/2d/transposed/n=2", "multinomial", {"seed": 0, "num_samples": 2, "replacement": False},
         args=[NC(torch.rand(6, 3) + 0.05)])
    mean = torch.arange(6.0).reshape(2, 3)
    case("normal/Tensor_float/2x3", "normal_tensor_float", {"seed": 0, "std": 2.0}, args=[mean], note=NOTE_LOG1P)
    case("normal/Tensor_float/4x5", "normal_tensor_float", {"seed": 0, "std": 0.5}, args=[torch.arange(20.0).reshape(4, 5)])
    case("normal/float_Tensor/2x3", "normal_float_tensor", {"seed": 0, "mean": 0.5}, args=[mean + 1], note=NOTE_LOG1P)
    case("normal/Tensor_Tensor/broadcast", "normal_tensor_tensor", {"seed": 0}, args=[torch.zeros(2, 1), torch.tensor([1.0, 2.0, 3.0])],
         note=NOTE_LOG1P)


def sequences():
    sequence("sequence/cache", {"seed": 0}, [
        {"op": "randn", "size": [3], "dtype": "float32"},
        {"op": "rand", "size": [1], "dtype": "float32"},
        {"op": "randn", "size": [5], "dtype": "float64"},
        {"op": "randn", "size": [20], "dtype": "float32"},
        {"op": "randint", "low": 0, "high": 100, "size": [3]},
        {"op": "randn", "size": [1], "dtype": "float32"},
    ], note=NOTE_LOG1P)
    sequence("sequence/twist", {"seed": 5}, [
        {"op": "rand", "size": [620], "dtype": "float32"},
        {"op": "rand", "size": [10], "dtype": "float64"},
        {"op": "randint", "low": 0, "high": 2 ** 40, "size": [700]},
    ])
    sequence("sequence/explicit", {"seed": 99, "generator": "explicit"}, [
        {"op": "rand", "size": [5], "dtype": "float32"},
        {"op": "randn", "size": [17], "dtype": "float32"},
        {"op": "randperm", "n": 8},
    ])
    # States with and without a cached normal, in full, for set_state.
    sequence("state/after_rand7", {"seed": 0}, [{"op": "rand", "size": [7], "dtype": "float32"}], state_hex=True)
    sequence("state/after_randn3", {"seed": 0}, [{"op": "randn", "size": [3], "dtype": "float32"}], note=NOTE_LOG1P, state_hex=True)
    # Draws after loading a state made by PyTorch: the cached normal comes first.
    torch.manual_seed(3)
    torch.randn(1, dtype=f64)
    state = bytes(torch.get_rng_state().numpy()).hex()
    steps = [{"op": "randn", "size": [4], "dtype": "float64"}, {"op": "rand", "size": [3], "dtype": "float32"}]
    torch.set_rng_state(torch.tensor(bytearray.fromhex(state), dtype=torch.uint8))
    results = [enc_result(run(s["op"], s, None, []), True) for s in steps]
    add("set_state/cached_normal", "set_state", {"state_hex": state, "steps": steps},
        {"steps": results, "state": enc_state(torch.default_generator)}, note=NOTE_LOG1P)
    g = torch.Generator()
    add("generator/default_seed", "sequence", {"seed": 67280421310721, "generator": "explicit", "steps": [
        {"op": "rand", "size": [4], "dtype": "float32"}]},
        {"steps": [enc_result(torch.rand(4, generator=g), True)], "state": enc_state(g)})


def main():
    factories()
    randints()
    randperms()
    inplace()
    samplers()
    sequences()
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in CASES]
    head = '{"cases":[\n'
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps("make_golden_random.py"), json.dumps(torch.__version__))
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        f.write(head + ",\n".join(lines) + tail)
    with open(OUT, encoding="utf-8") as f:
        json.load(f)
    sys.stderr.write("%d cases, %d bytes -> %s\n" % (len(CASES), os.path.getsize(OUT), OUT))


if __name__ == "__main__":
    main()

"""The differential run's PyTorch side: replays on PyTorch's aten ops the cases JTorch wrote and compares.

    python jtorch/src/test/python/diffrun.py CASES.jsonl RESULTS.json

CASES.jsonl has one case per line (written by DiffRunJTorch): the op's name with its overload (``add.Tensor``),
its arguments by schema name (tensors with their storage, sizes, strides and offset), and JTorch's result or error,
and for float64 cases the gradients of a weighted sum of the outputs (for complex128 cases, the conjugate Wirtinger
gradients of a real loss extending it to complex outputs). Each op is called as its
``torch.ops.aten`` overload with the arguments bound by name. Compared: whether both raise, the results' structure,
dtypes and shapes, values within dtype-aware tolerances (not for random ops), and the gradients. RESULTS.json lists
the ops compared, the ops PyTorch lacks or whose schema names arguments JTorch's does not, and every mismatch.
The cases run in a worker process; a case that kills it (PyTorch segfaults on some arguments of its internal ops) is
a mismatch of kind torch-crashes, and a new worker goes on after it, skipping the rest of that op's cases.
"""
import base64
import json
import subprocess
import sys
import warnings

import torch

DTYPES = {
    str(d).removeprefix("torch."): d
    for d in [torch.bool, torch.uint8, torch.uint16, torch.uint32, torch.uint64, torch.int8, torch.int16,
              torch.int32, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64,
              torch.float8_e4m3fn, torch.float8_e5m2, torch.float8_e4m3fnuz, torch.float8_e5m2fnuz,
              torch.complex32, torch.complex64, torch.complex128]
}

# (rtol, atol) by dtype: a few ulps of the dtype, looser where the order of a sum may differ.
TOLERANCES = {
    torch.float64: (1e-7, 1e-7), torch.complex128: (1e-7, 1e-7),
    torch.float32: (1e-5, 1e-5), torch.complex64: (1e-5, 1e-5),
    torch.float16: (1e-3, 1e-3), torch.complex32: (1e-3, 1e-3),
    torch.bfloat16: (1.6e-2, 1e-2),
    torch.float8_e4m3fn: (0.13, 0.02), torch.float8_e5m2: (0.26, 0.04),
    torch.float8_e4m3fnuz: (0.13, 0.02), torch.float8_e5m2fnuz: (0.26, 0.04),
}
GRAD_TOLERANCE = (1e-6, 1e-6)


def weights(o, like):
    """DiffRunJTorch.weight for every element of ``like``: exact in every floating dtype."""
    k = torch.arange(like.numel(), dtype=torch.int64)
    return (((k * 7 + o * 3) % 11).to(torch.float64) / 4.0 - 1.25).reshape(like.shape)


class Decoder:
    """Arguments as PyTorch objects; a tensor JTorch passed twice is one tensor here too."""

    def __init__(self):
        self.tensors = {}

    def __call__(self, v):
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, list):
            return [self(x) for x in v]
        k = v["k"]
        if k == "T":
            t = tensor(v["dtype"], v["data"], v["shape"], v["stride"], v["offset"])
            self.tensors[v["id"]] = t
            return t
        if k == "ref":
            return self.tensors[v["id"]]
        if k == "f":
            return float(v["v"])
        if k == "c":
            return complex(float(v["re"]), float(v["im"]))
        if k == "dtype":
            return DTYPES[v["v"]]
        if k == "device":
            return torch.device(v["v"])
        if k == "generator":
            return None
        raise ValueError(f"unknown argument kind {k}")


def tensor(dtype, data, shape, stride, offset):
    raw = base64.b64decode(data)
    dt = DTYPES[dtype]
    base = torch.frombuffer(bytearray(raw), dtype=dt) if raw else torch.empty(0, dtype=dt)
    return torch.as_strided(base, shape, stride, offset)


def contiguous(v):
    raw = base64.b64decode(v["data"])
    dt = DTYPES[v["dtype"]]
    flat = torch.frombuffer(bytearray(raw), dtype=dt) if raw else torch.empty(0, dtype=dt)
    return flat.reshape(v["shape"])


def overload(key):
    name, _, ov = key.partition(".")
    try:
        return getattr(getattr(torch.ops.aten, name), ov or "default")
    except (AttributeError, RuntimeError):
        return None


def values_differ(expected, actual, tol):
    """A description of how two same-shape tensors' values differ, or None."""
    if expected.numel() == 0:
        return None
    if not (expected.dtype.is_floating_point or expected.dtype.is_complex):
        if torch.equal(expected.to(torch.int64) if expected.dtype != torch.uint64 else expected,
                       actual.to(torch.int64) if actual.dtype != torch.uint64 else actual):
            return None
        bad = (expected != actual).nonzero()[0].tolist()
        return f"at {bad}: PyTorch {expected[tuple(bad)].item()}, JTorch {actual[tuple(bad)].item()}"
    wide = torch.complex128 if expected.dtype.is_complex else torch.float64
    e, a = expected.to(wide), actual.to(wide)
    rtol, atol = tol
    close = torch.isclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
    if bool(close.all()):
        return None
    bad = (~close).nonzero()[0].tolist()
    return (f"{int((~close).sum())} of {e.numel()} elements, e.g. at {bad}: PyTorch {e[tuple(bad)].item()}, "
            f"JTorch {a[tuple(bad)].item()}")


def compare(expected, actual, values, where, tol=None):
    """Mismatch descriptions between PyTorch's result and JTorch's encoded one."""
    if isinstance(expected, (tuple, list)):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [("structure", f"{where}: PyTorch gives {len(expected)} results, JTorch {describe(actual)}")]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            out += compare(e, a, values, f"{where}[{i}]", tol)
        return out
    if isinstance(expected, torch.Tensor):
        if not (isinstance(actual, dict) and actual.get("k") == "T"):
            return [("structure", f"{where}: PyTorch gives a tensor, JTorch {describe(actual)}")]
        a = contiguous(actual)
        if a.dtype != expected.dtype:
            return [("dtype", f"{where}: PyTorch {expected.dtype}, JTorch {a.dtype}")]
        if list(a.shape) != list(expected.shape):
            return [("shape", f"{where}: PyTorch {list(expected.shape)}, JTorch {list(a.shape)}")]
        if not values:
            return []
        d = values_differ(expected.detach(), a, tol or TOLERANCES.get(a.dtype, (0, 0)))
        return [("value", f"{where}: {d}")] if d else []
    if expected is None:
        return [] if actual is None else [("structure", f"{where}: PyTorch None, JTorch {describe(actual)}")]
    # a Python number, bool or dtype
    got = Decoder()(actual) if isinstance(actual, (dict, list)) or actual is None else actual
    if isinstance(expected, float) and isinstance(got, float):
        if got == expected or (got != got and expected != expected) or abs(got - expected) <= 1e-7 * abs(expected):
            return []
    elif expected == got and type(expected) is type(got):
        return []
    return [("value", f"{where}: PyTorch {expected!r}, JTorch {got!r}")]


def describe(v):
    if isinstance(v, dict) and v.get("k") == "T":
        return f"a {v['dtype']} tensor of shape {v['shape']}"
    if isinstance(v, list):
        return f"{len(v)} results"
    return repr(v)


def differentiated(dtype, complex_case):
    """float64 tensors are differentiated, and complex128 ones in a complex case (as DiffRunJTorch)."""
    return dtype == torch.float64 or (complex_case and dtype == torch.complex128)


def leaves_of(args, complex_case):
    """The differentiated tensors among the arguments, once each, in order, as contiguous leaves (as DiffRunJTorch)."""
    leaves, by_id = [], {}

    def swap(x):
        if isinstance(x, torch.Tensor) and differentiated(x.dtype, complex_case):
            if id(x) not in by_id:
                by_id[id(x)] = x.detach().contiguous().requires_grad_()
                leaves.append(by_id[id(x)])
            return by_id[id(x)]
        if isinstance(x, list):
            return [swap(y) for y in x]
        return x

    return [swap(a) for a in args], leaves


def weighted(y, o):
    """sum(y * w(o)); for a complex y sum(Re(y * conj(v))), v = w(o) + i w(o + 50) (as DiffRunJTorch)."""
    w = weights(o, y)
    if y.is_complex():
        return (y * torch.complex(w, weights(o + 50, y)).conj()).real.sum()
    return (y * w).sum()


class SecondRaised:
    """PyTorch refused a complex case's second derivatives: its first ones are still compared."""

    def __init__(self, message):
        self.message = message


def gradients(fn, names, args, spec, complex_case):
    """(first, second-or-None) gradients as DiffRunJTorch takes them, or raises. A complex output y enters the real
    loss as sum(Re(y * conj(v))), v = w(o) + i w(o + 50): PyTorch's backward then gives the conjugate Wirtinger
    gradients dL/dRe x + i dL/dIm x of complex inputs. The second derivatives are those of the first ones' weighted
    sum (complex first gradients through the same real part); in a complex case PyTorch refusing them gives a
    SecondRaised instead of raising."""
    leaf_args, leaves = leaves_of(args, complex_case)
    result = fn(**bind(fn, names, leaf_args))
    loss = None
    for o in spec["outs"]:
        y = result if o == -1 and isinstance(result, torch.Tensor) else result[max(o, 0)]
        if not differentiated(y.dtype, complex_case) or not y.requires_grad:
            continue
        term = weighted(y, max(o, 0))
        loss = term if loss is None else loss + term
    if loss is None:
        return [None] * len(leaves), [None] * len(leaves) if spec["second"] else None
    first = list(torch.autograd.grad(loss, leaves, allow_unused=True, create_graph=spec["second"]))
    if not spec["second"]:
        return first, None
    total = None
    for i, g in enumerate(first):
        if g is None or not g.requires_grad:
            continue
        term = weighted(g, 100 + i)
        total = term if total is None else total + term
    if total is None:
        return first, [None] * len(leaves)
    if not complex_case:
        return first, list(torch.autograd.grad(total, leaves, allow_unused=True))
    try:
        return first, list(torch.autograd.grad(total, leaves, allow_unused=True))
    except Exception as e:  # PyTorch has no second derivative here: compared as a kind of its own
        return first, SecondRaised(first_line(e))


def compare_grads(expected, actual, kind):
    out = []
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e is None and a is None:
            continue
        if e is None:
            e = torch.zeros(a["shape"], dtype=DTYPES[a["dtype"]])
        if a is None:
            a = {"k": "T", "dtype": str(e.dtype).removeprefix("torch."), "shape": list(e.shape),
                 "data": base64.b64encode(torch.zeros_like(e).detach().numpy().tobytes()).decode()}
        for k, d in compare(e.detach(), a, True, f"input {i}", GRAD_TOLERANCE):
            out.append((kind if k == "value" else kind + "-" + k, d))
    return out


def is_complex_case(case):
    return case["dtype"] == "complex128"


def run_case(case, fn, names):
    decode = Decoder()
    args = [decode(a) for a in case["args"]]
    mismatches = []
    try:
        expected = fn(**bind(fn, names, args))
    except Exception as e:  # PyTorch refuses: JTorch must refuse too
        if "error" not in case:
            mismatches.append((refusal_kind(e), f"PyTorch: {first_line(e)}"))
        return mismatches
    if "error" in case:
        kind = "jtorch-raises-on-empty" if all_empty(expected) else "jtorch-raises"
        mismatches.append((kind, f"JTorch: {case['error'][:300]}"))
        return mismatches
    mismatches += compare(expected, case["result"], case["values"], "result")
    spec = case.get("grad")
    if spec is None or mismatches:
        return mismatches
    try:
        first, second = gradients(fn, names, [Decoder()(a) for a in case["args"]], spec, is_complex_case(case))
    except Exception as e:
        if "error" not in spec:
            mismatches.append(("grad-torch-raises", f"PyTorch: {first_line(e)}"))
        return mismatches
    if "error" in spec:
        mismatches.append(("grad-jtorch-raises", f"JTorch: {spec['error'][:300]}"))
        return mismatches
    mismatches += compare_grads(first, spec["first"], "grad")
    if isinstance(second, SecondRaised):
        if "second_error" not in spec:
            mismatches.append(("grad2-torch-raises", f"PyTorch: {second.message}"))
    elif "second_error" in spec:
        if second is not None:
            mismatches.append(("grad2-jtorch-raises", f"JTorch: {spec['second_error'][:300]}"))
    elif second is not None:
        mismatches += compare_grads(second, spec["second_grads"], "grad2")
    return mismatches


# Arguments JTorch's schema names differently from PyTorch's, by op: JTorch's name -> PyTorch's.
RENAMED_ARGUMENTS = {
    "linalg_matrix_norm": {"A": "self"},
    "linalg_matrix_norm.str_ord": {"A": "self"},
}


def rename(case, fn):
    """Binds JTorch's argument names to PyTorch's: the renamings above, and the generator left out where PyTorch's
    schema has none (the *_like random ops take one from PyTorch 2.15 on, which 2.13 predates)."""
    names = [RENAMED_ARGUMENTS.get(case["op"], {}).get(n, n) for n in case["names"]]
    schema = {a.name for a in fn._schema.arguments}
    keep = [i for i, n in enumerate(names) if not (n == "generator" and n not in schema)]
    case["names"] = [names[i] for i in keep]
    case["args"] = [case["args"][i] for i in keep]


def all_empty(result):
    """Whether every tensor of a result is empty (and there is one): PyTorch's kernels return before their dtype
    dispatch on empty inputs, where JTorch checks the dtype first."""
    tensors = result if isinstance(result, (tuple, list)) else [result]
    tensors = [t for t in tensors if isinstance(t, torch.Tensor)]
    return bool(tensors) and all(t.numel() == 0 for t in tensors)


def refusal_kind(e):
    """torch-lacks-kernel when PyTorch's CPU build has no kernel for the dtype (float8 arithmetic, most uint64 ops),
    torch-raises for every other refusal."""
    lacks = isinstance(e, NotImplementedError) and "not implemented for '" in str(e)
    return "torch-lacks-kernel" if lacks else "torch-raises"


def bind(fn, names, args):
    """The keyword arguments of the aten overload: a None JTorch passes for a non-optional argument with a default
    (JTorch's "use the default") is left out."""
    schema = {a.name: a for a in fn._schema.arguments}
    kwargs = {}
    for n, v in zip(names, args):
        a = schema[n]
        if v is None and a.has_default_value() and not isinstance(a.type, torch.OptionalType):
            continue
        kwargs[n] = v
    return kwargs


def first_line(e):
    return (type(e).__name__ + ": " + str(e).strip().split("\n")[0])[:300]


def work(cases_path, start, skip):
    """The worker: compares the cases from line ``start`` on, one JSON line per case on stdout, each case announced
    before it runs so that the supervisor can name the case that crashed the process."""
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    out = sys.stdout
    with open(cases_path) as f:
        for i, line in enumerate(f):
            if i < start:
                continue
            case = json.loads(line)
            key = case["op"]
            if key in skip:
                out.write(json.dumps({"i": i, "op": key, "status": "skipped"}) + "\n")
                continue
            out.write(json.dumps({"start": i}) + "\n")
            out.flush()
            fn = overload(key)
            if fn is None:
                out.write(json.dumps({"i": i, "op": key, "status": "lacking"}) + "\n")
                continue
            rename(case, fn)
            unknown = [n for n in case["names"] if n not in [a.name for a in fn._schema.arguments]]
            if unknown:
                note = f"PyTorch's schema has no argument {unknown[0]}: {fn._schema}"
                out.write(json.dumps({"i": i, "op": key, "status": "renamed", "note": note}) + "\n")
                continue
            found = [mismatch(case, kind, detail) for kind, detail in run_case(case, fn, case["names"])]
            out.write(json.dumps({"i": i, "op": key, "status": "compared", "grad": "grad" in case,
                                  "complex_grad": "grad" in case and is_complex_case(case),
                                  "complex_second": "grad" in case and is_complex_case(case)
                                  and case["grad"]["second"],
                                  "mismatches": found}) + "\n")
    out.flush()


def mismatch(case, kind, detail):
    return {"op": case["op"], "sample": case["sample"], "dtype": case["dtype"], "variant": case["variant"],
            "kind": kind, "detail": detail}


def supervise(cases_path, results_path):
    """Runs workers until every case is done; a case that crashes PyTorch's process is a mismatch of its own kind,
    and the rest of that op's cases are skipped (counted)."""
    compared, lacking, renamed, crashed, skipped, mismatches = {}, {}, {}, [], {}, []
    grads, complex_grads, complex_seconds, start = 0, 0, 0, 0
    with open(cases_path) as f:
        lines = [json.loads(line) for line in f]
    while True:
        worker = subprocess.Popen([sys.executable, __file__, "--worker", cases_path, str(start), ",".join(crashed)],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        running = None
        for line in worker.stdout:
            r = json.loads(line)
            if "start" in r:
                running = r["start"]
                continue
            running = None
            start = r["i"] + 1
            key, status = r["op"], r["status"]
            if status == "compared":
                compared[key] = compared.get(key, 0) + 1
                grads += r["grad"]
                complex_grads += r["complex_grad"]
                complex_seconds += r["complex_second"]
                mismatches += r["mismatches"]
            elif status == "lacking":
                lacking[key] = lacking.get(key, 0) + 1
            elif status == "renamed":
                renamed[key] = r["note"]
            else:
                skipped[key] = skipped.get(key, 0) + 1
        code = worker.wait()
        if running is None:
            if code != 0:
                raise SystemExit(f"the worker failed (exit {code}) outside a case")
            break
        case = lines[running]
        crashed.append(case["op"])
        compared[case["op"]] = compared.get(case["op"], 0) + 1
        detail = f"PyTorch's process died (exit {code}); JTorch: " + (
            f"raises {case['error'][:200]}" if "error" in case else "returns a result")
        mismatches.append(mismatch(case, "torch-crashes", detail))
        start = running + 1
    with open(results_path, "w") as f:
        json.dump({"torch": torch.__version__, "compared": compared, "gradient_cases": grads,
                   "complex_gradient_cases": complex_grads, "complex_second_order_cases": complex_seconds,
                   "lacking": lacking,
                   "renamed": renamed, "crashed_skipped": skipped, "mismatches": mismatches}, f, indent=1)


if __name__ == "__main__":
    if sys.argv[1] == "--worker":
        work(sys.argv[2], int(sys.argv[3]), set(filter(None, sys.argv[4].split(","))))
    else:
        supervise(sys.argv[1], sys.argv[2])

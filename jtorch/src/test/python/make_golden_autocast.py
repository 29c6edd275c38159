"""Writes ../resources/golden/autocast.json: what ops return under CPU autocast (torch.autocast("cpu", dtype)) for
each class of ATen's CPU autocast lists — lower precision (matrix products, convolutions, linear, attention), float32
(losses, cdist, linear algebra, prod), promote to the widest (cat, stack, index_copy) and ops on no list that follow
their input (softmax, layer_norm, sum) — plus nesting, enabled=False inside, and the gradient a float32 parameter
gets through an autocast linear.

    python jtorch/src/test/python/make_golden_autocast.py

Case format (golden_json): {"id", "op", "args": [tensors], "kwargs": {"dtype": autocast dtype}, "out": tensor or
[tensors]}. AutocastGoldenTest runs the Java counterpart named by "op" inside Amp.autocast(CPU, dtype). Inputs are
fixed (no random numbers), so re-running gives a byte-identical file.
"""
import os

import torch
import torch.nn.functional as F

from golden_json import enc, write

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "resources", "golden", "autocast.json")


def t(shape, dtype=torch.float32, lo=0.1, hi=1.1, phase=0):
    n = 1
    for s in shape:
        n *= s
    v = torch.tensor([lo + (hi - lo) * (((i + phase) * 0.618034) % 1.0) for i in range(n)], dtype=torch.float64)
    return v.reshape(shape).to(dtype)


def signed(shape, dtype=torch.float32, phase=0):
    return t(shape, dtype, -1.0, 1.0, phase)


def spd(n, dtype):
    a = t((n, n), torch.float64)
    return (a @ a.T + n * torch.eye(n, dtype=torch.float64)).to(dtype)


BF, F16, F32, F64 = torch.bfloat16, torch.float16, torch.float32, torch.float64


def lower_cases(dt):
    return [
        ("mm", [t((3, 4)), t((4, 5), phase=3)]),
        ("mm", [t((3, 4), F64), t((4, 5), F64, phase=3)]),
        ("mm", [t((3, 4), F16), t((4, 5), phase=3)]),
        ("bmm", [t((2, 3, 4)), t((2, 4, 2), phase=5)]),
        ("addmm", [t((5,)), t((3, 4), phase=1), t((4, 5), phase=2)]),
        ("baddbmm", [t((2, 3, 2)), t((2, 3, 4), phase=1), t((2, 4, 2), phase=2)]),
        ("matmul", [t((2, 3, 4)), t((4, 5), phase=7)]),
        ("linear", [t((2, 3, 4)), t((5, 4), phase=1), t((5,), phase=2)]),
        ("linear", [t((4,)), t((5, 4), phase=1), t((5,), phase=2)]),
        ("linear_nobias", [t((3, 4)), t((5, 4), phase=1)]),
        ("conv1d", [t((1, 2, 6)), t((3, 2, 3), phase=1), t((3,), phase=2)]),
        ("conv2d", [t((1, 2, 4, 4)), t((3, 2, 2, 2), phase=1), t((3,), phase=2)]),
        ("sdpa", [t((1, 2, 3, 4)), t((1, 2, 3, 4), phase=1), t((1, 2, 3, 4), phase=2)]),
        ("vecdot", [t((3, 4)), t((3, 4), phase=1)]),
    ]


def fp32_cases(dt):
    return [
        ("mse_loss", [signed((3, 4), dt), signed((3, 4), dt, phase=1)]),
        ("l1_loss", [signed((3, 4), dt), signed((3, 4), dt, phase=1)]),
        ("smooth_l1_loss", [signed((3, 4), dt), signed((3, 4), dt, phase=1)]),
        ("huber_loss", [signed((3, 4), dt), signed((3, 4), dt, phase=1)]),
        ("cross_entropy", [signed((3, 5), dt), torch.tensor([0, 4, 2])]),
        ("nll_loss", [signed((3, 5), dt), torch.tensor([1, 3, 0])]),
        ("kl_div", [signed((3, 4), dt), t((3, 4), dt, phase=2)]),
        ("bce_with_logits", [signed((3, 4), dt), t((3, 4), dt, 0.0, 1.0, phase=2)]),
        ("bce", [t((3, 4), dt, 0.05, 0.95), t((3, 4), dt, 0.0, 1.0, phase=2)]),
        ("cdist", [t((3, 4), dt), t((2, 4), dt, phase=1)]),
        ("prod", [t((3, 4), dt, 0.5, 1.5)]),
        ("linalg_inv", [spd(3, dt)]),
        ("linalg_solve", [spd(3, dt), t((3, 2), dt)]),
        ("linalg_cholesky", [spd(3, dt)]),
        ("linalg_eigvalsh", [spd(3, dt)]),
        ("linalg_svdvals", [t((3, 4), dt)]),
    ]


def promote_cases(dt):
    return [
        ("cat", [t((2, 3), dt), t((1, 3), F32, phase=1)]),
        ("cat", [t((2, 3), F16), t((1, 3), F16, phase=1)]),
        ("cat", [t((2, 3), BF), t((1, 3), F16, phase=1)]),
        ("cat", [t((2, 3), dt), t((1, 3), dt, phase=1)]),
        ("cat", [t((2, 3), F64), t((1, 3), dt, phase=1)]),
        ("stack", [t((2, 3), dt), t((2, 3), F32, phase=1)]),
        ("index_copy", [t((4, 3), F32), torch.tensor([2, 0]), t((2, 3), dt, phase=1)]),
    ]


def follow_cases(dt):
    return [
        ("softmax", [signed((3, 4), F32)]),
        ("softmax", [signed((3, 4), dt)]),
        ("log_softmax", [signed((3, 4), F32)]),
        ("layer_norm", [signed((3, 4), F32), t((4,), phase=1), t((4,), phase=2)]),
        ("layer_norm", [signed((3, 4), dt), t((4,), dt, phase=1), t((4,), dt, phase=2)]),
        ("sum", [signed((3, 4), dt)]),
        ("sum", [signed((3, 4), F32)]),
        ("relu", [signed((3, 4), F32)]),
        ("add", [t((3, 4), dt), t((3, 4), F32, phase=1)]),
    ]


def run(op, a):
    if op == "mm":
        return torch.mm(*a)
    if op == "bmm":
        return torch.bmm(*a)
    if op == "addmm":
        return torch.addmm(*a)
    if op == "baddbmm":
        return torch.baddbmm(*a)
    if op == "matmul":
        return torch.matmul(*a)
    if op == "linear" or op == "linear_nobias":
        return F.linear(*a)
    if op == "conv1d":
        return F.conv1d(*a)
    if op == "conv2d":
        return F.conv2d(*a)
    if op == "sdpa":
        return F.scaled_dot_product_attention(*a)
    if op == "vecdot":
        return torch.linalg.vecdot(*a)
    if op == "mse_loss":
        return F.mse_loss(*a)
    if op == "l1_loss":
        return F.l1_loss(*a)
    if op == "smooth_l1_loss":
        return F.smooth_l1_loss(*a)
    if op == "huber_loss":
        return F.huber_loss(*a)
    if op == "cross_entropy":
        return F.cross_entropy(*a)
    if op == "nll_loss":
        return F.nll_loss(*a)
    if op == "kl_div":
        return F.kl_div(*a, reduction="batchmean")
    if op == "bce_with_logits":
        return F.binary_cross_entropy_with_logits(*a)
    if op == "bce":
        return F.binary_cross_entropy(*a)
    if op == "cdist":
        return torch.cdist(*a)
    if op == "prod":
        return torch.prod(a[0], 1)
    if op == "linalg_inv":
        return torch.linalg.inv(*a)
    if op == "linalg_solve":
        return torch.linalg.solve(*a)
    if op == "linalg_cholesky":
        return torch.linalg.cholesky(*a)
    if op == "linalg_eigvalsh":
        return torch.linalg.eigvalsh(*a)
    if op == "linalg_svdvals":
        return torch.linalg.svdvals(*a)
    if op == "cat":
        return torch.cat(a)
    if op == "stack":
        return torch.stack(a)
    if op == "index_copy":
        return a[0].index_copy(0, a[1], a[2])
    if op == "softmax":
        return F.softmax(a[0], 1)
    if op == "log_softmax":
        return F.log_softmax(a[0], 1)
    if op == "layer_norm":
        return F.layer_norm(a[0], (4,), a[1], a[2])
    if op == "sum":
        return a[0].sum()
    if op == "relu":
        return F.relu(a[0])
    if op == "add":
        return a[0] + a[1]
    raise ValueError(op)


def scope_cases():
    x, w = t((3, 4)), t((4, 5), phase=3)
    cases = []
    with torch.autocast("cpu", torch.bfloat16):
        with torch.autocast("cpu", enabled=False):
            cases.append({"id": "nested_disabled", "op": "nested_disabled", "args": [enc(x), enc(w)],
                          "kwargs": {"dtype": "bfloat16"}, "out": enc(torch.mm(x, w))})
        with torch.autocast("cpu", torch.float16):
            cases.append({"id": "nested_float16", "op": "nested_float16", "args": [enc(x), enc(w)],
                          "kwargs": {"dtype": "bfloat16"}, "out": enc(torch.mm(x, w))})
        after = torch.mm(x, w)
    cases.append({"id": "after_nested", "op": "after_nested", "args": [enc(x), enc(w)],
                  "kwargs": {"dtype": "bfloat16"}, "out": enc(after)})
    for dt in (BF, F16):
        xi = t((2, 4))
        wi = t((3, 4), phase=1).requires_grad_()
        bi = t((3,), phase=2).requires_grad_()
        with torch.autocast("cpu", dt):
            out = F.linear(xi, wi, bi)
            loss = F.mse_loss(out, t((2, 3), phase=3))
        loss.backward()
        name = "linear_backward_" + str(dt).replace("torch.", "")
        cases.append({"id": name, "op": "linear_backward", "args": [enc(xi), enc(wi), enc(bi), enc(t((2, 3), phase=3))],
                      "kwargs": {"dtype": str(dt).replace("torch.", "")},
                      "out": [enc(out), enc(loss), enc(wi.grad), enc(bi.grad)]})
    return cases


def cast_counts():
    """How many aten._to_copy calls two F.linear calls on the same weight make inside one autocast region: the
    weight and bias of a parameter are cast once (the autocast cache), the input every time."""
    from torch.utils._python_dispatch import TorchDispatchMode

    class Count(TorchDispatchMode):
        def __init__(self):
            super().__init__()
            self.n = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if func is torch.ops.aten._to_copy.default:
                self.n += 1
            return func(*args, **(kwargs or {}))

    out = []
    for grad in (True, False):
        x = t((2, 4))
        w = t((3, 4), phase=1).requires_grad_(grad)
        b = t((3,), phase=2).requires_grad_(grad)
        with torch.autocast("cpu", torch.bfloat16):
            with Count() as c:
                F.linear(x, w, b)
                F.linear(x, w, b)
        out.append({"id": "cast_count_requires_grad_%s" % grad, "op": "cast_count", "args": [],
                    "kwargs": {"requires_grad": grad}, "out": {"count": c.n}})
    return out


def main():
    torch.set_num_threads(1)
    cases = []
    for dt in (BF, F16):
        name = str(dt).replace("torch.", "")
        for cls, make in (("lower", lower_cases), ("fp32", fp32_cases), ("promote", promote_cases),
                          ("follow", follow_cases)):
            for i, (op, args) in enumerate(make(dt)):
                try:
                    with torch.autocast("cpu", dt):
                        out = enc(run(op, args))
                except RuntimeError as e:  # at::autocast::prioritize refuses a float16/bfloat16 mix
                    out = {"error": str(e).split("\n")[0]}
                cases.append({"id": "%s_%s_%d_%s" % (name, cls, i, op), "op": op, "args": [enc(a) for a in args],
                              "kwargs": {"dtype": name, "class": cls}, "out": out})
    cases += scope_cases()
    cases += cast_counts()
    write(OUT, cases, "make_golden_autocast.py")


if __name__ == "__main__":
    main()

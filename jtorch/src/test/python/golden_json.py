"""The golden-file encoding the linalg fixture generators share (the format of make_golden_core.py):
tensors as {"dtype", "shape", "data"} with complex data flattened [re, im, ...] and non-finite floats as
"nan" / "inf" / "-inf", and files written one case per line, keys sorted, so re-running a generator gives a
byte-identical file."""
import json
import math
import os

import torch


def enc_float(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def enc(t):
    t = torch.as_tensor(t).detach().resolve_conj().resolve_neg().contiguous()
    flat = t.reshape(-1)
    if t.dtype.is_complex:
        data = [enc_float(v) for v in torch.view_as_real(flat.to(torch.complex128)).reshape(-1).tolist()]
    elif t.dtype == torch.bool:
        data = [bool(v) for v in flat.tolist()]
    elif t.dtype.is_floating_point:
        data = [enc_float(v) for v in flat.to(torch.float64).tolist()]
    else:
        data = [int(v) for v in flat.tolist()]
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "data": data}


def write(path, cases, generator):
    """Writes {"cases": [...], "generator": generator, "torch": version} to path."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), allow_nan=False, ensure_ascii=True) for c in cases]
    tail = '\n],"generator":%s,"torch":%s}\n' % (json.dumps(generator), json.dumps(torch.__version__))
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write('{"cases":[\n' + ",\n".join(lines) + tail)

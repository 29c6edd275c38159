#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""Loads checkpoints written by JTorch with real PyTorch, for SerializationPythonTest.

Usage: check_jtorch_pt.py DIR
For each DIR/<name>.pt it
  1. loads the file with torch.load(weights_only=True);
  2. writes DIR/<name>.py.json, the description of what it loaded (pt_describe.py);
  3. saves the loaded object again with torch.save to DIR/<name>.resaved.pt (the PyTorch -> JTorch leg
     of the round trip JTorch -> PyTorch -> JTorch);
and prints one line per file: "OK <name> <how>" or "FAIL <name> <error>".

PyTorch 1.13's weights-only unpickler predates some opcodes and globals that PyTorch 2.x allows
(BINFLOAT for Python floats, builtins.set/complex, _codecs.encode for bytes, torch.device).  When 1.13
refuses a file for that reason only, the file is loaded again through pickle.Unpickler restricted by
find_class to the PyTorch 2.15 allowlist: <how> says "allowlist-unpickler" then.  Nothing else is
tolerated: any other error is a FAIL.
"""
import collections
import _codecs
import os
import pickle
import re
import sys
import types

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pt_describe import describe, write_json  # noqa: E402


def allowlist():
    import torch._weights_only_unpickler as wo
    allowed = dict(wo._get_allowed_globals())
    allowed.update({
        "collections.OrderedDict": collections.OrderedDict,
        "collections.Counter": collections.Counter,
        "torch.device": torch.device,
        "_codecs.encode": _codecs.encode,
        "builtins.bytearray": bytearray,
        "builtins.set": set,
        "builtins.complex": complex,
    })
    for d in [torch.bool, torch.uint8, torch.bfloat16]:
        allowed[str(d)] = d
    return allowed


class AllowlistUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        module = {"__builtin__": "builtins", "copy_reg": "copyreg"}.get(module, module)
        full = module + "." + name
        allowed = allowlist()
        if full not in allowed:
            raise pickle.UnpicklingError("global %s is not in the 2.15 weights-only allowlist" % full)
        return allowed[full]


restricted = types.ModuleType("restricted_pickle")
restricted.Unpickler = AllowlistUnpickler
restricted.load = pickle.load
restricted.__name__ = "pickle"


def load(path):
    try:
        return torch.load(path, weights_only=True), "weights_only"
    except Exception as e:  # 1.13 lacks opcodes/globals that 2.x allows
        msg = str(e)
        if "Unsupported operand" not in msg and "Unsupported class" not in msg:
            raise
        why = re.search(r"Unsupported (operand \d+|class \S+)", msg).group(0)
        return torch.load(path, pickle_module=restricted), "allowlist-unpickler (1.13 weights_only: %s)" % why


def main(d):
    for f in sorted(os.listdir(d)):
        if not f.endswith(".pt") or f.endswith(".resaved.pt"):
            continue
        name = f[:-3]
        try:
            obj, how = load(os.path.join(d, f))
            write_json(os.path.join(d, name + ".py.json"), describe(obj))
            torch.save(obj, os.path.join(d, name + ".resaved.pt"))
            print("OK", name, how)
        except Exception as e:
            print("FAIL", name, type(e).__name__, str(e).replace("\n", " ")[:500])


if __name__ == "__main__":
    main(sys.argv[1])

"""Loads a .pt2 archive with PyTorch's torch.export.load and runs its module on inputs saved as .npy files,
saving each output as .npy: how the test suite checks that PyTorch runs the programs JTorch's Export.save writes.

    python jtorch/src/test/python/run_pt2.py ARCHIVE IN_1.npy OUT_1.npy [IN_2.npy OUT_2.npy ...]

A program of several inputs or outputs takes them as comma-separated lists: X_1.npy,Y_1.npy OUT_1.npy,OUT_1b.npy.

Needs PyTorch 2.13 and NumPy; the tests find the interpreter through JTORCH_PYTHON.
"""
import sys

import numpy as np
import torch


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        sys.exit(__doc__)
    program = torch.export.load(argv[1])
    module = program.module()
    for sources, targets in zip(argv[2::2], argv[3::2]):
        xs = [torch.from_numpy(np.load(source)) for source in sources.split(",")]
        with torch.no_grad():
            ys = module(*xs)
        if isinstance(ys, torch.Tensor):
            ys = (ys,)
        targets = targets.split(",")
        if len(ys) != len(targets):
            sys.exit("%d outputs, %d files" % (len(ys), len(targets)))
        for y, target in zip(ys, targets):
            np.save(target, y.detach().numpy())
    print(torch.__version__, len(list(program.graph.nodes)), "nodes", program.range_constraints)


if __name__ == "__main__":
    main(sys.argv)

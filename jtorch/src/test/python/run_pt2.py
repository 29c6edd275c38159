"""Loads a .pt2 archive with PyTorch's torch.export.load and runs its module on inputs saved as .npy files,
saving each output as .npy: how the test suite checks that PyTorch runs the programs JTorch's Export.save writes.

    python jtorch/src/test/python/run_pt2.py ARCHIVE IN_1.npy OUT_1.npy [IN_2.npy OUT_2.npy ...]

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
    for source, target in zip(argv[2::2], argv[3::2]):
        x = torch.from_numpy(np.load(source))
        with torch.no_grad():
            y = module(x)
        np.save(target, y.detach().numpy())
    print(torch.__version__, len(list(program.graph.nodes)), "nodes", program.range_constraints)


if __name__ == "__main__":
    main(sys.argv)

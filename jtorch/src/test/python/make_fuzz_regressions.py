"""Writes the checkpoint regression inputs of src/test/resources/pt/fuzz/ that real PyTorch can make: checkpoints
whose pickles call a rebuild function with arguments that once escaped JTorch's readers as a raw Java exception.

Run with any PyTorch 2.x: python make_fuzz_regressions.py [OUT_DIR]
"""

import sys
from pathlib import Path

import torch


class _Call:
    """Pickles as a call of fn(*args), as a tensor subclass's __reduce__ would."""

    def __init__(self, fn, args):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return self.fn, self.args


def main(out):
    out.mkdir(parents=True, exist_ok=True)
    # size and stride of different lengths: the meta rebuild read the stride past its end
    # (ArrayIndexOutOfBoundsException before the fix)
    torch.save(
        _Call(torch._utils._rebuild_meta_tensor_no_storage, (torch.float32, (2, 3), (1,), False)),
        out / "meta-size-stride-rank.pt",
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parents[1] / "resources/pt/fuzz")

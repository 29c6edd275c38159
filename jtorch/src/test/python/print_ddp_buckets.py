"""Prints PyTorch DDP's gradient buckets for the model of DdpCheck.bucketsMatchPyTorch: the first iteration's and, after
the rebuild at the second forward, the ones bucketed in gradient-arrival order, for the default cap, two explicit caps
and find_unused_parameters. DdpCheck asserts these values (parameter positions per bucket, bucket bytes).

    python jtorch/src/test/python/print_ddp_buckets.py

(one process, gloo on loopback; the buckets do not depend on the world size)
"""
import os

import torch
import torch.distributed as dist
import torch.nn as nn


class Layers(nn.Module):
    """Registered a, b, c, d; used d, c, a, b: backward produces b's gradient first, then a's, c's and d's."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(512, 512, bias=False)
        self.b = nn.Linear(512, 256, bias=False)
        self.c = nn.Linear(256, 512, bias=False)
        self.d = nn.Linear(256, 256, bias=False)

    def forward(self, x):
        return self.b(self.a(self.c(self.d(x).relu())).relu())


def layout(ddp):
    data = ddp._get_ddp_logging_data()
    rebuilt = data.get("rebuilt_bucket_sizes")
    sizes = rebuilt if rebuilt is not None else data["bucket_sizes"]
    buckets = ddp.reducer._get_zeros_like_grad_buckets()
    position = {id(p): i for i, p in enumerate(ddp.module.parameters())}
    members = [[position[id(p)] for p in b.parameters()] for b in buckets]
    return members, sizes


def main():
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("gloo", rank=0, world_size=1)
    for cap, unused in [(None, False), (0.3, False), (2, False), (None, True)]:
        torch.manual_seed(0)
        ddp = nn.parallel.DistributedDataParallel(Layers(), bucket_cap_mb=cap, find_unused_parameters=unused)
        first = layout(ddp)
        for _ in range(3):
            ddp(torch.randn(4, 256)).sum().backward()
        print(f"bucket_cap_mb={cap} find_unused_parameters={unused}: first iteration {first[0]} ({first[1]} bytes),"
              f" after the rebuild {layout(ddp)[0]} ({layout(ddp)[1]} bytes)")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()

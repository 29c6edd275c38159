#!/usr/bin/python3
"""PyTorch side of org.jtorch.benchmarks.SerializationBench: save and load of a 1 GiB state dict.

Usage: serialization_bench.py [DIR] [GiB] [RUNS]          (Debian's /usr/bin/python3, python3-torch)
Same state dict (16 float32 tensors, an OrderedDict) and steps as the Java program:
  save          torch.save(sd, path)                      (no fsync: what torch.save does)
  save_fsync    torch.save + os.fsync of the file         (what JTorch's atomic save also does)
  load_copy     torch.load(path)
  load_mmap     torch.load(path, mmap=True) on PyTorch >= 2.1.  PyTorch 1.13 has no mmap argument: there the
                same mechanism is emulated -- torch.UntypedStorage.from_file(path, shared=False) maps the file
                (what 2.x does internally) and each tensor is a view of it at its record's offset; the bench
                name then says "emulated".
  load_mmap_then_sum_all   the mmap load plus a full read (sum) of every tensor
RSS growth of the process (VmRSS) is reported for the copying and mapped loads.
Output lines: peer=P bench=B value=V unit=U n=N min=.. max=.. (median).
"""
import collections
import os
import statistics
import struct
import sys
import time
import zipfile

import torch

PEER = "torch-%s-debian" % ".".join(torch.__version__.split(".")[:2])


def rss_mib():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def emit(bench, samples, unit):
    print("peer=%s bench=%s value=%.4g unit=%s n=%d min=%.4g max=%.4g"
          % (PEER, bench, statistics.median(samples), unit, len(samples), min(samples), max(samples)), flush=True)


def mmap_load_emulated(path, names, shape):
    """torch.load(mmap=True) as PyTorch 2.x does it, with 1.13's primitives: the file is mapped once
    (UntypedStorage.from_file, as 2.x) and storage key k becomes a view at its record's offset. The names and
    shape of this benchmark's state dict stand in for the unpickling (storage k is tensor k)."""
    size = os.path.getsize(path)
    whole = torch.tensor([], dtype=torch.uint8).set_(torch.UntypedStorage.from_file(path, False, size))
    out = collections.OrderedDict()
    with open(path, "rb") as f:
        for info in zipfile.ZipFile(path).infolist():
            if "/data/" not in info.filename:
                continue
            f.seek(info.header_offset + 26)
            n, m = struct.unpack("<HH", f.read(4))
            start = info.header_offset + 30 + n + m
            key = int(info.filename.rsplit("/", 1)[1])
            out[names[key]] = whole[start:start + info.file_size].view(torch.float32).view(shape)
    return out


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "/tmp"
    gib = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    tensors = 16
    per = int(gib * (1 << 30) / 4 / tensors)
    sd = collections.OrderedDict(("layers.%d.weight" % i, torch.full((per // 1024, 1024), i + 0.5)) for i in range(tensors))
    path = os.path.join(d, "torch_bench_state_dict.pt")
    size = "%.3gGiB" % gib
    native_mmap = "mmap" in torch.load.__code__.co_varnames
    mmap_name = "load_mmap" if native_mmap else "load_mmap_emulated"
    res = collections.defaultdict(list)
    rss = {}
    for _ in range(runs):
        t = time.perf_counter()
        torch.save(sd, path)
        res["save_state_dict"].append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        torch.save(sd, path)
        with open(path, "rb+") as f:
            os.fsync(f.fileno())
        res["save_state_dict_fsync"].append((time.perf_counter() - t) * 1e3)

        r0 = rss_mib()
        t = time.perf_counter()
        loaded = torch.load(path)
        res["load_copy"].append((time.perf_counter() - t) * 1e3)
        rss["load_copy_rss"] = rss_mib() - r0
        del loaded

        r0 = rss_mib()
        t = time.perf_counter()
        mapped = torch.load(path, mmap=True) if native_mmap else mmap_load_emulated(path, list(sd.keys()), (per // 1024, 1024))
        res[mmap_name].append((time.perf_counter() - t) * 1e3)
        rss[mmap_name + "_rss"] = rss_mib() - r0
        assert len(mapped) == tensors
        t = time.perf_counter()
        total = sum(float(v.sum()) for v in mapped.values())
        res[mmap_name + "_then_sum_all"].append(res[mmap_name][-1] + (time.perf_counter() - t) * 1e3)
        assert total > 0
        del mapped
    for k, v in res.items():
        emit("%s_%s" % (k, size), v, "ms")
    for k, v in rss.items():
        print("peer=%s bench=%s_%s value=%.1f unit=MiB n=1" % (PEER, k, size, v), flush=True)
    os.remove(path)


if __name__ == "__main__":
    main()

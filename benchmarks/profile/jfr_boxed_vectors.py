#!/usr/bin/env python3
"""Vector API values allocated on the heap ("boxed") over a run, from a JFR recording's allocation samples.

    java ... -XX:StartFlightRecording=filename=run.jfr,settings=profile ... org.jtorch.examples.TrainGpt --steps 60
    jfr print --events jdk.ObjectAllocationSample --stack-depth 14 run.jfr > alloc.txt
    python3 benchmarks/profile/jfr_boxed_vectors.py alloc.txt

A vector kernel compiled by C2 with its helpers inlined allocates no vector objects; interpreted or C1-compiled code,
and C2 code that calls a vector helper out of line, allocate one per operation. So boxed vectors in the first tenths
of a run are warm-up, and boxed vectors still present in its second half mean a kernel stayed boxed: the script prints
the allocation samples per tenth of the run and the JTorch frames that allocate them in the second half.
"""
import collections
import re
import sys

VECTOR_CLASS = re.compile(r"jdk\.incubator\.vector\.\w+(Vector|Mask)\b")


def seconds(event):
    h, m, s = re.search(r"startTime = (\d+):(\d+):([\d.]+)", event).groups()
    return int(h) * 3600 + int(m) * 60 + float(s)


def jtorch_frames(event, depth=4):
    frames = re.findall(r"^\s+([\w.$]+)\.([\w$<>]+)\((.*)$", event, re.M)
    own = []
    for cls, method, rest in frames:
        if cls.startswith("org.jtorch."):
            line = re.search(r"line: (\d+)", rest)
            own.append(f"{cls.split('.')[-1]}.{method}" + (f":{line.group(1)}" if line else ""))
    return " < ".join(own[:depth])


def main(path):
    events = open(path, errors="replace").read().split("jdk.ObjectAllocationSample")[1:]
    if not events:
        sys.exit("no jdk.ObjectAllocationSample events in " + path)
    times = [seconds(e) for e in events]
    t0, t1 = min(times), max(times)
    tenths = [0] * 10
    late = collections.Counter()
    for event, t in zip(events, times):
        cls = re.search(r"objectClass = ([\w.$]+)", event)
        if not cls or not VECTOR_CLASS.match(cls.group(1)):
            continue
        tenth = min(9, int((t - t0) / (t1 - t0 + 1e-9) * 10))
        tenths[tenth] += 1
        if tenth >= 5:
            late[jtorch_frames(event)] += 1
    print(f"run of {t1 - t0:.0f} s; vector allocation samples per tenth: {tenths}")
    print(f"second half: {sum(tenths[5:])} samples" + (", by JTorch frame:" if late else ""))
    for frames, n in late.most_common(8):
        print(f"{n:7d}  {frames}")


if __name__ == "__main__":
    main(sys.argv[1])

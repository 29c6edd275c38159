#!/usr/bin/env python3
"""Per-phase breakdown of a JTorch program from a JFR recording's execution samples.

    java ... -XX:StartFlightRecording=filename=run.jfr,settings=profile ... org.jtorch.examples.TrainGpt --steps 100
    jfr print --stack-depth 64 --events jdk.ExecutionSample run.jfr > run.txt
    python3 benchmarks/profile/jfr_phases.py run.txt [--thread main --step-ms 117]

Each sample is put in the first phase whose pattern matches a frame, walking from the innermost frame outwards, so a
GEMM called by the cross-entropy kernel counts as cross-entropy and an exp inside attention counts as attention.
Samples of an intra-op worker waiting for work, and of the caller waiting for its workers, are "idle / sync".
Native code called through critical downcalls (OpenBLAS) is sampled in its Java caller, so GEMM time is included.
"""
import argparse
import collections
import re
import sys

PHASES = [
    ("idle / sync", [r"Parallel\$Worker\.run$", r"Parallel\$Job\.awaitDone", r"LockSupport\.park"]),
    ("attention", [r"FlashAttention", r"AttentionOps", r"scaledDotProductAttention"]),
    ("LM head + cross-entropy", [r"LinearCrossEntropy", r"CrossEntropy"]),
    ("layer norm", [r"LayerNorm"]),
    ("GELU", [r"[Gg]elu"]),
    ("optimizer", [r"org\.jtorch\.optim\.", r"ForeachLoops", r"MultiTensorSimd", r"FusedOptimizer", r"clipGradNorm"]),
    ("GEMM", [r"MatmulKernels", r"BlockedGemm", r"OpenBlas", r"JavaGemm", r"GemmSimd"]),
    ("embedding", [r"[Ee]mbedding"]),
    ("allocation", [r"Storage\.allocate", r"TensorImpl\.empty"]),
    ("autograd bookkeeping", [r"org\.jtorch\.autograd\."]),
    ("elementwise", [r"PointwiseLoops", r"FloatSimd", r"FloatLoops", r"StridedIter", r"CopyOps", r"StridedArrayCopy"]),
    ("reductions", [r"Reduce"]),
]
COMPILED = [(name, [re.compile(p) for p in pats]) for name, pats in PHASES]


def phase(frames):
    for name, pats in COMPILED:
        for f in frames:
            if any(p.search(f) for p in pats):
                return name
    return "other"


def main(path, thread=None, step_ms=None):
    text = open(path).read()
    counts = collections.Counter()
    for event in text.split("jdk.ExecutionSample")[1:]:
        if thread is not None and f'sampledThread = "{thread}"' not in event:
            continue
        frames = re.findall(r"^\s+([\w.$<>]+)\(", event, re.M)
        if frames:
            # idle only when the innermost frames are the wait itself
            if any(re.search(p, frames[0]) for p in PHASES[0][1]) or (
                    len(frames) > 1 and "LockSupport" in frames[0] and "Parallel" in frames[1]):
                counts["idle / sync"] += 1
            else:
                counts[phase([f for f in frames if not re.search(r"Parallel\$Worker\.run$", f)])] += 1
    total = sum(counts.values())
    print(f"{total} samples")
    for name, n in counts.most_common():
        ms = f"{step_ms * n / total:7.2f} ms  " if step_ms else ""
        print(f"{ms}{100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("recording", help="jfr print --stack-depth 64 --events jdk.ExecutionSample output")
    p.add_argument("--thread", help="count only this thread's samples (main: the thread that calls the ops, whose "
                                    "samples follow the step's wall time, as torch_phases.py's self times do)")
    p.add_argument("--step-ms", type=float, help="the step's wall time: print each phase's milliseconds per step")
    a = p.parse_args()
    main(a.recording, a.thread, a.step_ms)

#!/usr/bin/python3
"""Renders the side-by-side table of docs/benchmarks.md from one benchmarks/run-all run.

    side_by_side.py RESULTS_DIR DOC

RESULTS_DIR holds jmh.json (JMH's JSON result file) and one NAME.txt per peer or program, each with lines
'bench=B value=V unit=U ...'. The table replaces everything between the two run-all markers in DOC.
Every row names the JMH benchmark (or program) and the peer measurement it is compared with, and the
command that reproduces both.
"""
import datetime
import json
import os
import platform
import re
import sys

JMH = "./mvnw -B -q -pl benchmarks -am -DskipTests package exec:exec -Djmh.args=\"{regex} -f 1 -wi 3 -w 1s -i 5 -r 1s\""
PEER = "OMP_WAIT_POLICY=passive /usr/bin/python3 benchmarks/peers/{script}"
B = "org.jtorch.benchmarks."

# (label, JTorch source, peer source, reproduce commands). A source is ("jmh", benchmark, params) or
# (file, bench name). Ratios are PyTorch time / JTorch time (or JTorch rate / PyTorch rate): > 1 = JTorch faster.
ROWS = [
    ("`a.add(b)`, 16 Mi fp32, allocating", ("jmh", B + "ElementwiseBench.addAlloc", {}), ("torch_core", "addAlloc"),
     [JMH.format(regex="ElementwiseBench"), PEER.format(script="torch_core.py")]),
    ("`a.mul(b)`, allocating", ("jmh", B + "ElementwiseBench.mulAlloc", {}), ("torch_core", "mulAlloc"), None),
    ("`a.exp()`, allocating", ("jmh", B + "ElementwiseBench.expAlloc", {}), ("torch_core", "expAlloc"), None),
    ("`add(a, b, out=c)`", ("jmh", B + "ElementwiseBench.addOut", {}), ("torch_core", "addOut"), None),
    ("`mul(a, b, out=c)`", ("jmh", B + "ElementwiseBench.mulOut", {}), ("torch_core", "mulOut"), None),
    ("`exp(a, out=c)`", ("jmh", B + "ElementwiseBench.expOut", {}), ("torch_core", "expOut"), None),
    ("`a.sum()`, 16 Mi fp32", ("jmh", B + "ElementwiseBench.sum", {}), ("torch_core", "sum"), None),
    ("`a.add(b)`, two 16-element tensors", ("jmh", B + "SmallOpBench.add16", {}), ("torch_core", "add16"),
     [JMH.format(regex="SmallOpBench"), PEER.format(script="torch_core.py")]),
    ("matmul 1024³", ("jmh", B + "MatmulBench.jtorchMatmul", {"n": "1024"}), ("torch_core", "matmul1024"),
     [JMH.format(regex="MatmulBench"), PEER.format(script="torch_core.py")]),
    ("raw OpenBLAS `cblas_sgemm` 1024³ (the GEMM ceiling)", ("jmh", B + "MatmulBench.rawSgemm", {"n": "1024"}),
     ("torch_core", "matmul1024"), None),
    ("gather, 1M int64 indices", ("jmh", B + "IndexSortRandomBench.gather1M", {}), ("torch_index_sort_random", "gather1M"),
     [JMH.format(regex="IndexSortRandomBench"), PEER.format(script="torch_index_sort_random.py")]),
    ("scatter_add, 1M indices", ("jmh", B + "IndexSortRandomBench.scatterAdd1M", {}),
     ("torch_index_sort_random", "scatterAdd1M"), None),
    ("sort, 1M float32", ("jmh", B + "IndexSortRandomBench.sort1M", {}), ("torch_index_sort_random", "sort1M"), None),
    ("randn, 16M float32", ("jmh", B + "IndexSortRandomBench.randn16M", {}), ("torch_index_sort_random", "randn16M"), None),
    ("AdamW step, 100 params / 50M floats, for-loop", ("jmh", B + "OptimBench.step", {"impl": "forloop"}),
     ("torch_optim", "OptimBench.step:forloop"), [JMH.format(regex="OptimBench"), PEER.format(script="torch_optim.py")]),
    ("AdamW step, foreach", ("jmh", B + "OptimBench.step", {"impl": "foreach"}), ("torch_optim", "OptimBench.step:foreach"), None),
    ("AdamW step, fused", ("jmh", B + "OptimBench.step", {"impl": "fused"}), ("torch_optim", "OptimBench.step:fused"), None),
    ("100 chained 16-element adds with grad + backward, per op", ("jmh", B + "AutogradBench.smallAddsWithGrad", {}), None,
     [JMH.format(regex="AutogradBench")]),
    ("MLP 784-256-10 step, batch 64", ("jmh", B + "AutogradBench.mlpStep", {}), None, None),
    ("**TrainGpt** training throughput (4×128 GPT, batch 16×128)", ("train_gpt_jtorch", "train_gpt"),
     ("train_gpt_torch", "train_gpt"),
     ["./mvnw -B -q -pl examples -am -DskipTests package exec:exec -Dexample.args=\"--steps 60 --sample-tokens 0 "
      "--eval-every 1000 --out examples/target/gpt-bench\"",
      PEER.format(script="train_gpt.py --steps 60")]),
]


def load_jmh(path):
    out = {}
    if os.path.exists(path):
        for r in json.load(open(path)):
            key = (r["benchmark"], tuple(sorted(r.get("params", {}).items())))
            m = r["primaryMetric"]
            out[key] = (m["score"], m.get("scoreError"), m["scoreUnit"])
    return out


def load_lines(path):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            fields = dict(re.findall(r"(\w+)=(\S+)", line))
            if "bench" in fields and "value" in fields:
                out[fields["bench"]] = fields
    return out


def fmt(v):
    return f"{v:,.3g}" if v < 1000 else f"{v:,.0f}"


def to_ms(value, unit):
    unit = unit.replace("/op", "")
    return value * {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def render(results_dir):
    jmh = load_jmh(os.path.join(results_dir, "jmh.json"))
    files = {}

    def lookup(src):
        if src is None:
            return None
        if src[0] == "jmh":
            hit = jmh.get((src[1], tuple(sorted(src[2].items()))))
            if hit is None:
                return None
            return hit[0], hit[2].replace("/op", ""), hit[1]
        name, bench = src
        if name not in files:
            files[name] = load_lines(os.path.join(results_dir, name + ".txt"))
        f = files[name].get(bench)
        if f is None or f["value"] in ("n/a", "nan"):
            return None
        return float(f["value"]), f.get("unit", ""), None

    lines = ["| benchmark | JTorch | PyTorch | ratio | reproduce |", "|---|---:|---:|---:|---|"]
    cmds = None
    for label, jsrc, psrc, reproduce in ROWS:
        cmds = reproduce or cmds
        j, p = lookup(jsrc), lookup(psrc)
        jt = "—" if j is None else fmt(j[0]) + (f" ± {fmt(j[2])}" if j[2] is not None and j[2] == j[2] else "") + " " + j[1]
        pt = "—" if p is None else fmt(p[0]) + " " + p[1]
        ratio = "—"
        if j and p:
            if j[1] == "tok/s":
                ratio = f"{j[0] / p[0]:.2f}×"
            else:
                ratio = f"{to_ms(p[0], p[1]) / to_ms(j[0], j[1]):.2f}×"
        lines.append(f"| {label} | {jt} | {pt} | {ratio} | " + "<br>".join(f"`{c}`" for c in cmds) + " |")
    load = open(os.path.join(results_dir, "loadavg.txt")).read().split()[:3] if os.path.exists(
        os.path.join(results_dir, "loadavg.txt")) else ["?"]
    torch_version = next((f.get("torch") for fs in files.values() for f in fs.values() if f.get("torch")), "?")
    head = (f"Generated by `benchmarks/run-all` on {datetime.date.today()} ({platform.machine()}, {os.cpu_count()} cores, "
            f"load average {' '.join(load)} when it started, "
            f"PyTorch {torch_version} with `OMP_WAIT_POLICY=passive`, JMH `{os.environ.get('JMH_ARGS', '')}`). "
            "Ratio > 1: JTorch faster (PyTorch time / JTorch time, or JTorch tokens/s / PyTorch tokens/s); "
            "— = not measured in this run or no peer.")
    return head + "\n\n" + "\n".join(lines) + "\n"


def main():
    results_dir, doc = sys.argv[1], sys.argv[2]
    text = open(doc).read()
    begin, end = "<!-- run-all: begin -->", "<!-- run-all: end -->"
    if begin not in text or end not in text:
        raise SystemExit(f"{doc} lacks the markers {begin} / {end}")
    table = render(results_dir)
    text = text[:text.index(begin) + len(begin)] + "\n" + table + text[text.index(end):]
    open(doc, "w").write(text)
    print(table)


if __name__ == "__main__":
    main()

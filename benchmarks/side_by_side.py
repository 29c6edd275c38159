#!/usr/bin/env python3
"""The side-by-side table of docs/benchmarks.md: which benchmarks it has, how their results are read, and how the table
is written. benchmarks/run-all measures; this module only reads what a run left behind and renders it.

    python3 benchmarks/side_by_side.py RESULTS_DIR [DOC]      re-render a run's table (into DOC between the markers)

RESULTS_DIR is what run-all wrote: meta.json (date, load averages, OPENBLAS_CORETYPE, versions, options) and one
directory per column (COLUMNS) holding one file per runner and repetition, RUNNER[.N].txt or RUNNER[.N].json:
JMH's JSON result file, or text with lines 'bench=NAME value=V unit=U ...' (the peers' and programs' format),
MlpStepRun's 'steps A-B: mean .. median M ..' windows or TrainGpt's '12,345 tokens/s over steps ..' line.
A figure is the median over a runner's repetitions.
Standard library only: run-all runs it with whatever python3 is on the machine.
"""
import fnmatch
import glob
import json
import os
import re
import statistics
import sys
from dataclasses import dataclass, field

BEGIN, END = "<!-- run-all: begin -->", "<!-- run-all: end -->"

# Columns of the table, in order: the directory name in RESULTS_DIR and the heading.
JTORCH, JTORCH_UNSET = "jtorch", "jtorch-coretype-unset"
PEERS = (("torch-2.13", "PyTorch 2.13"), ("torch-1.13", "PyTorch 1.13"), ("libtorch-2.10", "libtorch 2.10"))

# Ten one-second warm-up iterations: on some machines the JIT needs 5-8 s of a fork before the vector kernels of its
# first benchmark are compiled (measured: a 16 Mi `add` at 178 ms/op for 4 s, then 14 ms/op), so three were not enough.
JMH_ARGS = "-f 1 -wi 10 -w 1s -i 5 -r 1s"
JMH_ARGS_QUICK = "-f 1 -wi 2 -w 1s -i 3 -r 1s"


@dataclass(frozen=True)
class Source:
    """Where one cell's figure comes from: a runner (one program run, see run-all's RUNNERS) and the name of the
    figure in its output. For JMH runners the name is 'method' or 'method:param=value,...'; for the others a bench
    name, which may be a glob ('load_mmap_[0-9]*GiB') and may list alternatives separated by '|' (first found)."""

    runner: str
    bench: str


@dataclass(frozen=True)
class Row:
    """One line of the table. `peer` is read from both Python columns (the same script under PyTorch 2.13 and 1.13),
    `libtorch` from the libtorch column. A `gemm` row spends its time in GEMMs: JTorch runs it a second time with
    OPENBLAS_CORETYPE unset when the machine sets it."""

    id: str
    label: str
    jtorch: Source
    peer: Source = None
    libtorch: Source = None
    gemm: bool = False
    rate: bool = False  # higher is better (tokens/s)
    notes: tuple = field(default=())


def _jmh_rows(cls, runner_peer, items, gemm=False, libtorch=None):
    """Rows of one JMH class: items are (method[:params], label, peer bench, libtorch bench or None)."""
    rows = []
    for method, label, peer_bench, lt_bench in items:
        rows.append(Row(
            id=f"{cls}.{method}", label=label, jtorch=Source("jmh:" + cls, method),
            peer=Source(runner_peer, peer_bench) if peer_bench else None,
            libtorch=Source(libtorch, lt_bench) if libtorch and lt_bench else None, gemm=gemm))
    return rows


ROWS = (
    _jmh_rows("ElementwiseBench", "py:torch_core", [
        ("addAlloc", "`a.add(b)`, 16 Mi float32, allocating", "addAlloc", "addAlloc"),
        ("mulAlloc", "`a.mul(b)`, 16 Mi, allocating", "mulAlloc", "mulAlloc"),
        ("expAlloc", "`a.exp()`, 16 Mi, allocating", "expAlloc", "expAlloc"),
        ("addOut", "`add(a, b, out=c)`, 16 Mi", "addOut", "addOut"),
        ("mulOut", "`mul(a, b, out=c)`, 16 Mi", "mulOut", "mulOut"),
        ("expOut", "`exp(a, out=c)`, 16 Mi", "expOut", "expOut"),
        ("sum", "`a.sum()`, 16 Mi", "sum", "sum"),
    ], libtorch="lt:core")
    + _jmh_rows("SmallOpBench", "py:torch_core", [
        ("add16", "`a.add(b)`, two 16-element tensors", "add16", "add16"),
    ], libtorch="lt:core")
    + _jmh_rows("AutogradBench", "py:torch_core", [
        ("smallAddsWithGrad", "100 chained 16-element adds with grad + backward, per add", "smallAddsWithGrad",
         "smallAddsWithGrad"),
    ], libtorch="lt:core")
    + _jmh_rows("MatmulBench", "py:torch_core", [
        ("jtorchMatmul", "matmul 1024³ float32", "matmul1024", "matmul1024"),
        ("rawSgemm", "raw OpenBLAS `cblas_sgemm` 1024³ from JTorch (the GEMM ceiling)", "matmul1024", "matmul1024"),
    ], gemm=True, libtorch="lt:core")
    + _jmh_rows("IndexSortRandomBench", "py:torch_index_sort_random", [
        ("gather1M", "`gather`, 1M int64 indices", "gather1M", "gather1M"),
        ("scatterAdd1M", "`scatter_add`, 1M indices", "scatterAdd1M", "scatterAdd1M"),
        ("sort1M", "`sort`, 1M float32", "sort1M", "sort1M"),
        ("randn16M", "`randn`, 16M float32", "randn16M", "randn16M"),
    ], libtorch="lt:index")
    + _jmh_rows("OptimBench", "py:torch_optim", [
        ("step:impl=forloop", "AdamW step, 100 params / 50M floats, for-loop", "OptimBench.step:forloop", None),
        ("step:impl=foreach", "AdamW step, foreach", "OptimBench.step:foreach", None),
        ("step:impl=fused", "AdamW step, fused", "OptimBench.step:fused", None),
    ])
    + _jmh_rows("LayerNormBench", "py:torch_layer_norm", [
        ("forward", "`layer_norm` [16,128,256], forward", "layer_norm_forward", "layer_norm_forward"),
        ("forwardBackward", "`layer_norm`, forward + backward", "layer_norm_forward_backward",
         "layer_norm_forward_backward"),
    ], libtorch="lt:layernorm")
    + _jmh_rows("ConvTransformerBench", "py:torch_conv_transformer", [
        ("conv2dForwardBackward", "`Conv2d(3, 64, 3)` on [32,3,64,64], forward + backward",
         "ConvTransformerBench.conv2dForwardBackward", None),
        ("transformerBlockStep", "transformer block step (B 8, T 128, D 256, V 8192), SGD",
         "ConvTransformerBench.transformerBlockStep", "ConvTransformerBench.transformerBlockStep"),
    ], gemm=True, libtorch="lt:transformer")
    + _jmh_rows("ConvFamilyBench", "py:torch_conv_family", [
        ("convTransposeForward", "`ConvTranspose2d(64, 32, 4, 2, 1)` on [16,64,32,32], forward",
         "convTransposeForward", None),
        ("convTransposeForwardBackward", "`ConvTranspose2d`, forward + backward", "convTransposeForwardBackward", None),
        ("bilinearForward", "bilinear `interpolate` ×2 of [8,32,64,64], forward", "bilinearForward", None),
        ("bilinearForwardBackward", "bilinear `interpolate`, forward + backward", "bilinearForwardBackward", None),
    ], gemm=True)
    + _jmh_rows("LstmBench", "py:torch_lstm", [
        ("forward:shape=1x64", "`nn.LSTM(256, 256)`, batch 32, 1 layer × 64 steps, forward", "lstm_1x64_forward",
         None),
        ("forwardBackward:shape=1x64", "LSTM 1×64, forward + backward", "lstm_1x64_forward_backward", None),
        ("forward:shape=2x128", "LSTM 2 layers × 128 steps, forward", "lstm_2x128_forward", None),
        ("forwardBackward:shape=2x128", "LSTM 2×128, forward + backward", "lstm_2x128_forward_backward", None),
    ], gemm=True)
    + _jmh_rows("PerSampleGradBench", "py:torch_per_sample_grad", [
        ("vmapGrad", "per-sample gradients, 784-256-10 MLP, batch 64: `vmap(grad)`", "vmapGrad", None),
        ("loop", "per-sample gradients: loop of 64 backward passes", "loop", None),
    ], gemm=True)
    + _jmh_rows("PerSampleCnnGradBench", "py:torch_per_sample_cnn_grad", [
        ("vmapGrad:downsample=maxPool", "per-sample gradients, conv-relu-maxpool ×2-linear CNN, batch 64 of "
         "1×28×28: `vmap(grad)`", "vmapGrad:downsample=maxPool", None),
        ("loop:downsample=maxPool", "per-sample gradients of that CNN: loop of 64 backward passes",
         "loop:downsample=maxPool", None),
        ("vmapGrad:downsample=stridedConv", "per-sample gradients, the CNN with strided convs for pooling: "
         "`vmap(grad)`", "vmapGrad:downsample=stridedConv", None),
        ("loop:downsample=stridedConv", "per-sample gradients of the strided CNN: loop of 64 backward passes",
         "loop:downsample=stridedConv", None),
    ])
    + _jmh_rows("LinalgBench", "py:torch_linalg", [
        ("eigh512", "`linalg.eigh` 512² float64", "eigh512", None),
        ("svd512", "`linalg.svd` 512² float64", "svd512", None),
        ("cholesky512", "`linalg.cholesky` 512² float64", "cholesky512", None),
        ("polarBatch64x64", "`linalg.polar`, 64 × 64² float64 (peer: its SVD composition)",
         "polarBatch64x64(torch svd composition)", None),
        ("matrixSqrthBatch64x64", "`linalg.matrix_sqrth`, 64 × 64² float64 (peer: its eigh composition)",
         "matrixSqrthBatch64x64(torch eigh composition)", None),
    ])
    + _jmh_rows("MatrixExpBench", "py:torch_linalg_solve", [
        ("matrixExp", "`linalg.matrix_exp` 256² float64", "torch.linalg.matrix_exp/256/float64", None),
    ])
    + _jmh_rows("FftBench", "py:numpy_fft", [
        (f"{op}:dtype={dt},n={n}", f"`fft.{op}` of {label} {dt}", f"torch_{op}_{n}_{dt}", None)
        for op in ("rfft", "fft") for n, label in ((1048576, "2²⁰"), (999983, "999,983 (prime)"))
        for dt in ("float32", "float64")
    ])
    + [
        Row("MlpStepRun", "MLP 784-256-10 training step, batch 64, SGD (median of 1,000-step window medians)",
            Source("prog:mlp_step", "mlp_step"), Source("py:torch_mlp_step", "mlp_step"),
            Source("lt:mlp", "mlp_step"), gemm=True),
        Row("AutogradBench.mlpStep", "MLP step under JMH (its own vCPU placement; peers as the row above)",
            Source("jmh:AutogradBench", "mlpStep"), Source("py:torch_mlp_step", "mlp_step"),
            Source("lt:mlp", "mlp_step"), gemm=True),
        Row("LinearCrossEntropyRun.reference", "`cross_entropy(linear(x, W), y)`, N 4096, D 1024, V 32768, fwd+bwd",
            Source("prog:linear_ce", "linear_cross_entropy_reference"),
            Source("py:torch_linear_cross_entropy", "torch_linear_cross_entropy_reference"),
            Source("lt:xent", "torch_linear_cross_entropy_reference"), gemm=True),
        Row("LinearCrossEntropyRun.chunked", "`F.linearCrossEntropy` (chunked) against the peers' reference path",
            Source("prog:linear_ce", "linear_cross_entropy_chunked_auto"),
            Source("py:torch_linear_cross_entropy", "torch_linear_cross_entropy_reference"),
            Source("lt:xent", "torch_linear_cross_entropy_reference"), gemm=True),
        Row("SerializationBench.save", "save a state dict of 16 float32 tensors, 1 GiB (quick mode: 0.25), with fsync",
            Source("prog:serialization", "save_state_dict_[0-9]*GiB"),
            Source("py:serialization_bench", "save_state_dict_fsync_[0-9]*GiB")),
        Row("SerializationBench.load_copy", "load it, copying", Source("prog:serialization", "load_copy_[0-9]*GiB"),
            Source("py:serialization_bench", "load_copy_[0-9]*GiB")),
        Row("SerializationBench.load_mmap", "load it memory-mapped (PyTorch 1.13: emulated)",
            Source("prog:serialization", "load_mmap_[0-9]*GiB"),
            Source("py:serialization_bench", "load_mmap_[0-9]*GiB|load_mmap_emulated_[0-9]*GiB")),
        Row("TrainGpt", "**TrainGpt** tokens/s (4 layers × 128, batch 16 × 128; peer `train_gpt.py`)",
            Source("prog:train_gpt", "train_gpt"), Source("py:train_gpt", "train_gpt"), gemm=True, rate=True),
    ]
)


def select(rows, pattern):
    """The rows whose id or label matches the regular expression (case-insensitive); all rows for None."""
    if not pattern:
        return list(rows)
    rx = re.compile(pattern, re.IGNORECASE)
    return [r for r in rows if rx.search(r.id) or rx.search(r.label)]


# ---------------------------------------------------------------------------------------------------- reading results

_TIME_UNITS = {"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1.0, "s": 1e3}


def to_ms(value, unit):
    """A time in `unit` (ns, us, ms, s, optionally '/op' or '/step') in milliseconds."""
    return value * _TIME_UNITS[unit.split("/")[0]]


def parse_text(text):
    """{bench: (value, unit)} from one run's output. Understands the 'bench=' lines of every peer and program,
    MlpStepRun's and torch_mlp_step.py's windows (bench 'mlp_step': the median of the window medians, ms) and
    TrainGpt's 'N tokens/s over steps' line (bench 'train_gpt', tok/s)."""
    out, windows = {}, []
    for line in text.splitlines():
        fields = dict(re.findall(r"(\w+)=(\S+)", line))
        if "bench" in fields and "value" in fields:
            try:
                out[fields["bench"]] = (float(fields["value"]), fields.get("unit", ""))
            except ValueError:  # 'value=n/a': this peer has no such op
                pass
            continue
        m = re.match(r"\s*steps\s+\d+-\s*\d+: mean [\d.]+ median ([\d.]+)", line)
        if m:
            windows.append(float(m.group(1)))
            continue
        m = re.match(r"\s*([\d,]+) tokens/s over steps", line)
        if m:
            out["train_gpt"] = (float(m.group(1).replace(",", "")), "tok/s")
    if windows:
        out["mlp_step"] = (statistics.median(windows), "ms")
    return out


def parse_jmh(text):
    """{'method[:param=value,...]': (score, unit, error)} from JMH's JSON result file."""
    out = {}
    for r in json.loads(text or "[]"):
        method = r["benchmark"].rsplit(".", 1)[1]
        params = ",".join(f"{k}={v}" for k, v in sorted(r.get("params", {}).items()))
        m = r["primaryMetric"]
        out[method + (":" + params if params else "")] = (m["score"], m["scoreUnit"], m.get("scoreError"))
    return out


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def _jmh_lookup(results, bench):
    """JMH results match on the method and on the parameters the row names (a row may leave out single-valued ones)."""
    method, _, want = bench.partition(":")
    wanted = set(want.split(",")) if want else set()
    for key, value in results.items():
        m, _, have = key.partition(":")
        if m == method and wanted <= set(have.split(",") if have else ()):
            return value
    return None


def _bench_lookup(results, bench):
    for alternative in bench.split("|"):
        for name in sorted(results):
            if fnmatch.fnmatchcase(name, alternative):
                return results[name]
    return None


class Results:
    """The figures of one run-all results directory."""

    def __init__(self, directory):
        self.directory = directory
        path = os.path.join(directory, "meta.json")
        self.meta = json.loads(read(path)) if os.path.exists(path) else {}

    def figure(self, column, source):
        """(value, unit) for a cell, the median over the runner's repetitions, or None when not measured."""
        if source is None:
            return None
        stem = os.path.join(self.directory, column, source.runner.replace(":", "-"))
        values, unit = [], None
        for path in sorted(glob.glob(stem + ".json") + glob.glob(stem + ".*.json")):
            hit = _jmh_lookup(parse_jmh(read(path)), source.bench)
            if hit:
                values.append(hit[0])
                unit = hit[1]
        for path in sorted(glob.glob(stem + ".txt") + glob.glob(stem + ".*.txt")):
            hit = _bench_lookup(parse_text(read(path)), source.bench)
            if hit:
                values.append(hit[0])
                unit = hit[1]
        return (statistics.median(values), unit, len(values)) if values else None


# --------------------------------------------------------------------------------------------------------- rendering


def fmt(value):
    """Three significant digits (trailing zeros kept: 2.00, 0.340), thousands separated from 1,000 on."""
    if value >= 1000:
        return f"{value:,.0f}"
    return f"{value:#.3g}".rstrip(".")


def display_unit(ms):
    """The time unit in which a row reads best, from one of its figures in milliseconds."""
    for unit, limit in (("ns", 1e-3), ("us", 1.0), ("ms", 1e4)):
        if ms < limit:
            return unit
    return "s"


def _display(fig, unit):
    """A figure in the row's display unit (the JTorch cell's)."""
    value, fig_unit, _ = fig
    if unit == "tok/s" or fig_unit == "tok/s":
        return value
    return to_ms(value, fig_unit) / to_ms(1.0, unit)


def _short_unit(unit):
    return unit.replace("/op", "").replace("us", "µs")


def ratio(row, jtorch_value, peer_values):
    """Speed of JTorch relative to the better (faster) peer: > 1 means JTorch is faster."""
    peers = [p for p in peer_values if p is not None]
    if jtorch_value is None or not peers:
        return None
    if row.rate:
        return jtorch_value / max(peers)
    return min(peers) / jtorch_value


def _peer_source(row, column):
    return row.libtorch if column.startswith("libtorch") else row.peer


def render_row(row, results, coretype_set):
    j = results.figure(JTORCH, row.jtorch)
    first = j or next(filter(None, (results.figure(c, _peer_source(row, c)) for c, _ in PEERS)), None)
    unit = None if first is None else "tok/s" if first[1] == "tok/s" else display_unit(to_ms(first[0], first[1]))
    jv = _display(j, unit) if j else None
    peers = []
    for column, _ in PEERS:
        f = results.figure(column, _peer_source(row, column))
        peers.append(_display(f, unit) if f else None)
    unset = results.figure(JTORCH_UNSET, row.jtorch) if row.gemm and coretype_set else None
    uv = _display(unset, unit) if unset else None
    u = _short_unit(unit or "")
    cells = [row.label]
    jt = "—" if jv is None else f"{fmt(jv)} {u}"
    if uv is not None:
        jt += f" (unset: {fmt(uv)})"
    cells.append(jt)
    cells += ["—" if p is None else f"{fmt(p)} {u}" for p in peers]
    r, ru = ratio(row, jv, peers), ratio(row, uv, peers)
    rt = "—" if r is None else f"{r:.2f}×"
    if ru is not None:
        rt += f" (unset: {ru:.2f}×)"
    cells.append(rt)
    cells.append(f"`benchmarks/run-all --only '^{re.escape(row.id)}$'`")
    return "| " + " | ".join(cells) + " |"


def render(results, rows):
    """The text between the markers: the conditions of the run, the table, and the commands of its runners."""
    meta = results.meta
    coretype = meta.get("openblas_coretype")
    load = meta.get("load_start", "?"), meta.get("load_end", "?")
    versions = meta.get("versions", {})
    conditions = [
        f"Generated by `{meta.get('command', 'benchmarks/run-all')}` on {meta.get('date', '?')} "
        f"({meta.get('machine', '?')}); 1-minute load average {load[0]} at the start and {load[1]} at the end"
        + (" — **above 1.5: forced with `--force`, the figures are not comparable**" if meta.get("forced") else "")
        + ".",
        (f"Quick mode (JMH `{meta.get('jmh_args', JMH_ARGS_QUICK)}`, few peer calls, one short run of each "
         "program): indications only. "
         if meta.get("quick") else f"JMH `{meta.get('jmh_args', JMH_ARGS)}`; whole programs alternate JTorch and "
                                   f"its peers, {meta.get('repeats', '?')} runs each, median. "),
        (f"`OPENBLAS_CORETYPE={coretype}` was set (the machine's): JTorch's GEMM-heavy rows ran again without it "
         "(\"unset:\"); the peers ran with the machine's environment. " if coretype
         else "`OPENBLAS_CORETYPE` was unset. "),
        "Peers: " + ", ".join(f"{title} = {versions.get(col, 'not run')}" for col, title in PEERS)
        + (", each with `OMP_WAIT_POLICY=passive` and 2 threads. " if meta.get("peer_omp_passive", True)
           else ", each with its default OpenMP settings and 2 threads. ")
        + "Ratio: the better peer's time / JTorch's time (tokens/s: JTorch / the better peer); > 1 = JTorch faster. "
        "— = not measured in this run, or no such peer.",
    ]
    if meta.get("only"):
        conditions.append(f"Only the rows matching `{meta['only']}` were run.")
    lines = [" ".join(c.strip() for c in conditions), "",
             "| benchmark | JTorch | " + " | ".join(t for _, t in PEERS) + " | ratio to the better peer | command |",
             "|---|---:|---:|---:|---:|---:|---|"]
    lines += [render_row(r, results, bool(coretype)) for r in rows]
    commands = meta.get("commands", {})
    if commands:
        lines += ["", "What `run-all` ran for these rows (from the repository root):", ""]
        lines += [f"- `{name}`: `{cmd}`" for name, cmd in sorted(commands.items())]
    return "\n".join(lines) + "\n"


def replace_table(doc_text, table):
    """DOC's text with everything between the run-all markers replaced by `table`."""
    if BEGIN not in doc_text or END not in doc_text:
        raise ValueError(f"the document lacks the markers {BEGIN} / {END}")
    head, rest = doc_text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return head + BEGIN + "\n" + table + END + tail


def rows_of_run(results):
    """The rows a run selected (its --only pattern), in the catalogue's order."""
    return select(ROWS, results.meta.get("only"))


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    results = Results(argv[1])
    table = render(results, rows_of_run(results))
    if len(argv) == 3:
        write(argv[2], replace_table(read(argv[2]), table))
    print(table, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""The side-by-side table from canned results (benchmarks/src/test/resources/side-by-side: one made-up run with JMH
JSON, peer lines, MlpStepRun windows and TrainGpt's tokens/s line), and run-all's refusal on a loaded machine.

    python3 -m unittest discover -s benchmarks/src/test/python

Runs in the benchmarks module's test phase (benchmarks/pom.xml). Standard library only.
"""
import importlib.machinery
import importlib.util
import io
import os
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
BENCHMARKS = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CANNED = os.path.join(BENCHMARKS, "src", "test", "resources", "side-by-side")
sys.path.insert(0, BENCHMARKS)
import side_by_side as sbs  # noqa: E402


def load_run_all():
    loader = importlib.machinery.SourceFileLoader("run_all", os.path.join(BENCHMARKS, "run-all"))
    spec = importlib.util.spec_from_loader("run_all", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def table_rows(text):
    """{label: [cells]} of the markdown table in text."""
    rows = {}
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| benchmark"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            rows[cells[0]] = cells[1:]
    return rows


class RenderTest(unittest.TestCase):
    def setUp(self):
        self.results = sbs.Results(CANNED)
        self.text = sbs.render(self.results, sbs.rows_of_run(self.results))
        self.rows = table_rows(self.text)

    def row(self, row_id):
        label = next(r.label for r in sbs.ROWS if r.id == row_id)
        return self.rows[label]

    def test_only_the_rows_the_run_selected(self):
        self.assertEqual(7, len(self.rows))

    def test_ratio_is_against_the_fastest_peer_across_units(self):
        # JTorch 2.0 ms; peers 4.0 ms, 3000 us and 2.5 ms: libtorch is the better peer, 2.5 / 2.0
        self.assertEqual(["2.00 ms", "4.00 ms", "3.00 ms", "2.50 ms", "1.25×"],
                         self.row("ElementwiseBench.addOut")[:5])

    def test_gemm_rows_show_the_figure_without_openblas_coretype(self):
        # JTorch 12,000 us/op with the machine's OPENBLAS_CORETYPE, 8 ms without; best peer libtorch 9.6 ms
        cells = self.row("MatmulBench.jtorchMatmul")
        self.assertEqual("12.0 ms (unset: 8.00)", cells[0])
        self.assertEqual("0.80× (unset: 1.20×)", cells[4])

    def test_a_peer_without_the_op_leaves_its_cell_empty(self):
        # PyTorch 1.13 prints value=n/a for the fused AdamW; libtorch has no optimizer rows
        self.assertEqual(["50.0 ms", "80.0 ms", "—", "—", "1.60×"], self.row("OptimBench.step:impl=fused")[:5])

    def test_whole_programs_take_the_median_of_their_runs(self):
        # JTorch 13,000 / 14,000 / 15,000 tokens/s; PyTorch 2.13 21,000 / 21,500 / 20,000: higher is better
        self.assertEqual(["14,000 tok/s", "21,000 tok/s", "—", "—", "0.67×"], self.row("TrainGpt")[:5])

    def test_mlp_windows_are_read_from_both_sides(self):
        # median of the window medians 0.350 / 0.330 / 0.340 ms against 1.02 ms and libtorch's 0.45 ms
        self.assertEqual(["340 µs", "1,020 µs", "—", "450 µs", "1.32×"], self.row("MlpStepRun")[:5])

    def test_each_row_names_the_command_that_reproduces_it(self):
        self.assertEqual("`benchmarks/run-all --only '^TrainGpt$'`", self.row("TrainGpt")[5])

    def test_the_header_states_the_conditions(self):
        for fact in ("load average 0.42 at the start and 1.10 at the end", "`OPENBLAS_CORETYPE=Haswell` was set",
                     "PyTorch 2.13 = torch 2.13.0+cpu", "`OMP_WAIT_POLICY=passive`"):
            self.assertIn(fact, self.text)
        self.assertNotIn("forced", self.text)


class DocumentTest(unittest.TestCase):
    def test_only_the_text_between_the_markers_changes(self):
        doc = f"# Benchmarks\nintro\n{sbs.BEGIN}\nold table\n{sbs.END}\n## Section\nkept\n"
        new = sbs.replace_table(doc, "new table\n")
        self.assertEqual(f"# Benchmarks\nintro\n{sbs.BEGIN}\nnew table\n{sbs.END}\n## Section\nkept\n", new)

    def test_a_document_without_markers_is_refused(self):
        with self.assertRaises(ValueError):
            sbs.replace_table("# Benchmarks\n", "table")


class SelectionTest(unittest.TestCase):
    def test_only_matches_ids_and_labels_case_insensitively(self):
        self.assertEqual(["TrainGpt"], [r.id for r in sbs.select(sbs.ROWS, "^traingpt$")])
        self.assertEqual({"LayerNormBench.forward", "LayerNormBench.forwardBackward"},
                         {r.id for r in sbs.select(sbs.ROWS, "layer_norm`")})

    def test_every_row_names_a_benchmark_and_peer_that_exist(self):
        sources = os.path.join(BENCHMARKS, "src", "main", "java", "org", "jtorch", "benchmarks")
        libtorch = os.path.join(BENCHMARKS, "peers", "libtorch", "src", "main", "java", "org", "jtorch", "peers",
                                "libtorch", "LibtorchBench.java")
        for row in sbs.ROWS:
            kind, name = row.jtorch.runner.split(":")
            if kind == "jmh":
                java = sbs.read(os.path.join(sources, name + ".java"))
                self.assertIn(f" {row.jtorch.bench.split(':')[0]}() {{", java, row.id)
            for source in (row.peer, row.libtorch):
                if source and source.runner.startswith("py:"):
                    script = os.path.join(BENCHMARKS, "peers", source.runner[3:] + ".py")
                    self.assertTrue(os.path.exists(script), script)
                elif source:
                    self.assertIn(f'case "{source.runner[3:]}"', sbs.read(libtorch), row.id)
                    self.assertIn(f'"{source.bench}"', sbs.read(libtorch), row.id)

    def test_row_ids_are_unique(self):
        ids = [r.id for r in sbs.ROWS]
        self.assertEqual(len(ids), len(set(ids)))


class LoadLimitTest(unittest.TestCase):
    def test_a_loaded_machine_is_refused_before_anything_runs(self):
        run_all = load_run_all()
        with tempfile.TemporaryDirectory() as tmp:
            results = os.path.join(tmp, "results")
            args = run_all.parse(["--only", "TrainGpt", "--results", results])
            err = io.StringIO()
            with mock.patch.object(run_all, "load1", return_value=4.2), redirect_stderr(err):
                code = run_all.Run(args).main()
            self.assertEqual(run_all.EXIT_LOADED, code)
            self.assertIn("4.20, above 1.5", err.getvalue())
            self.assertIn("--force", err.getvalue())
            self.assertFalse(os.path.exists(results))


if __name__ == "__main__":
    unittest.main()

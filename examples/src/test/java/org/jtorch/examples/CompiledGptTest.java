package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.compile.trace.TraceFile;
import org.jtorch.compile.trace.report.TraceReport;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TrainGpt's model with a cross-entropy loss under {@code Torch.compile(dynamic=true)}: one graph serves three (batch,
 * length) shapes on each backend, and the loss and every parameter's gradient equal eager's. With the eager backend and
 * with AOT autograd on the RMSNorm model the graphs run the kernels eager code runs, so the equality is bitwise; with
 * layer norm, eager's first-order backward uses a fused layer-norm kernel that is not an op (no graph can hold it), so
 * AOT autograd's captured backward agrees to float32 rounding instead. Its structured trace's report opens in headless
 * Chromium and lists the compile's graphs.
 */
class CompiledGptTest {
    private static final long[][] SHAPES = {{4, 16}, {2, 9}, {3, 12}};

    private static double[] values(Tensor t) {
        return t.to(DType.FLOAT64).toDoubleArray();
    }

    private static void assertClose(double[] expected, double[] actual, double tolerance, String what) {
        if (tolerance == 0) {
            assertArrayEquals(
                    Arrays.stream(expected)
                            .mapToLong(Double::doubleToRawLongBits)
                            .toArray(),
                    Arrays.stream(actual).mapToLong(Double::doubleToRawLongBits).toArray(),
                    what);
        } else {
            assertArrayEquals(expected, actual, tolerance, what);
        }
    }

    private static void checkAgainstEager(String norm, String backend, double tolerance) {
        Torch.manualSeed(0);
        Gpt model = new Gpt(new GptConfig(40, 16, 2, 2, 16, norm));
        model.eval(); // no dropout draws, so eager and compiled runs see the same values
        BiFunction<Tensor, Tensor, Tensor> step =
                (idx, targets) -> F.crossEntropy(model.logits(idx).flatten(0, 1), targets.flatten());
        Compile.reset();
        BiFunction<Tensor, Tensor, Tensor> compiled =
                Torch.compile(step, CompileOptions.defaults().dynamic(true).backend(backend));
        List<Tensor> params = model.parameters();
        for (long[] bt : SHAPES) {
            String what = norm + " " + backend + " " + Arrays.toString(bt);
            Tensor idx = Torch.randint(0, 40, bt), targets = Torch.randint(0, 40, bt);
            Tensor eagerLoss = step.apply(idx, targets);
            eagerLoss.backward();
            List<Tensor> eagerGrads = params.stream().map(p -> p.grad().clone()).toList();
            model.zeroGrad();
            Tensor loss = compiled.apply(idx, targets);
            loss.backward();
            assertClose(values(eagerLoss), values(loss), tolerance, what);
            for (int i = 0; i < params.size(); i++) {
                assertClose(values(eagerGrads.get(i)), values(params.get(i).grad()), tolerance, what + " grad " + i);
            }
            model.zeroGrad();
        }
        assertEquals(1, Compile.counters().graphs(), Compile.graphBreakReasons().toString());
        assertEquals(0, Compile.counters().recompiles());
    }

    // Eager's fused attention rounds differently from the decomposition graphs record (as in PyTorch), so compiled
    // runs of the GPT agree with eager to float rounding, not bit for bit.
    @Test
    void eagerBackendAgreesToRoundingWithLayerNorm() {
        checkAgainstEager("layernorm", "eager", 1e-6);
    }

    @Test
    void aotAutogradAgreesToRoundingWithRmsNorm() {
        checkAgainstEager("rmsnorm", "aot_eager", 1e-6);
    }

    @Test
    void aotAutogradWithLayerNormAgreesToRounding() {
        checkAgainstEager("layernorm", "aot_eager", 1e-6);
    }

    @Test
    void theTraceReportOfACompileOpensInChromiumAndListsItsGraphs(@TempDir Path dir) throws Exception {
        Torch.manualSeed(0);
        Gpt model = new Gpt(new GptConfig(40, 16, 2, 2, 16, "layernorm"));
        BiFunction<Tensor, Tensor, Tensor> compiled = Torch.compile(
                (idx, targets) -> F.crossEntropy(model.logits(idx).flatten(0, 1), targets.flatten()),
                CompileOptions.defaults().dynamic(true).backend("aot_eager"));
        Path traces = dir.resolve("trace");
        try (TraceFile _ = StructuredTrace.start(traces)) {
            compiled.apply(Torch.randint(0, 40, 4, 16), Torch.randint(0, 40, 4, 16))
                    .backward();
        }
        Path index = TraceReport.write(traces, dir.resolve("report"));
        String dom = dumpDom(index, dir);
        assertTrue(dom.matches("(?s).*\\[\\d+/0\\].*"), "the compile's id is listed");
        assertTrue(dom.contains("CompiledGptTest.theTraceReportOfACompileOpensInChromiumAndListsItsGraphs"), dom);
        Path compilePage = Files.list(index.getParent())
                .filter(p -> p.getFileName().toString().startsWith("compile_"))
                .findFirst()
                .orElseThrow()
                .resolve("index.html");
        String page = dumpDom(compilePage, dir);
        for (String graph :
                List.of("dynamo_output_graph", "aot_joint_graph", "aot_forward_graph", "aot_backward_graph")) {
            assertTrue(page.contains(graph), graph + " missing from the compile page");
        }
        assertTrue(page.contains("torch.ops.aten.mm.default"), page);
        assertTrue(page.contains("s0"), "the graph's symbolic sizes are shown");
    }

    /** The DOM headless Chromium builds for {@code page}; skipped without Chromium unless CI requires it. */
    private static String dumpDom(Path page, Path work) throws IOException, InterruptedException {
        Path exe = Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .flatMap(d -> List.of(Path.of(d, "chromium"), Path.of(d, "chromium-browser")).stream())
                .filter(Files::isExecutable)
                .findFirst()
                .orElse(null);
        if (exe == null) {
            if (System.getenv("JTORCH_REQUIRE_CHROMIUM") != null) fail("no chromium on the PATH");
            Assumptions.abort("no chromium on the PATH (Debian: apt-get install chromium)");
        }
        Path run = Files.createTempDirectory(work, "chromium");
        Process p = new ProcessBuilder(
                        exe.toString(),
                        "--headless",
                        "--disable-gpu",
                        "--no-sandbox",
                        "--disable-dev-shm-usage",
                        "--no-first-run",
                        "--user-data-dir=" + run.resolve("profile"),
                        "--dump-dom",
                        page.toUri().toString())
                .redirectOutput(run.resolve("dom.html").toFile())
                .redirectError(run.resolve("stderr.txt").toFile())
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            fail("chromium did not finish within 60 s");
        }
        assertEquals(0, p.exitValue(), () -> "chromium failed");
        return Files.readString(run.resolve("dom.html"), StandardCharsets.UTF_8);
    }
}

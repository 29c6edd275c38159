package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradMode;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.export.Dim;
import org.jtorch.export.Export;
import org.jtorch.export.ExportOptions;
import org.jtorch.export.ExportedProgram;
import org.jtorch.io.Npy;
import org.jtorch.nn.Module;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TrainGpt's model through {@code torch.export}: exported with a dynamic batch dimension, saved as {@code .pt2}, loaded
 * in a fresh JVM it gives bitwise eager's hidden states at batch 1, 7 and 64, and PyTorch 2.13 ({@code JTORCH_PYTHON})
 * runs the same archive with JTorch's outputs. Its {@link #main} is the fresh JVM's program.
 */
public class GptExportTest {
    private static final long[] BATCHES = {1, 7, 64};
    private static final Path ROOT =
            Path.of("").toAbsolutePath().getFileName().toString().equals("examples")
                    ? Path.of("").toAbsolutePath().getParent()
                    : Path.of("").toAbsolutePath();

    private static Gpt gpt() {
        Torch.manualSeed(3);
        return new Gpt(new GptConfig(65, 32, 2, 4, 32, "layernorm"));
    }

    /** Exports, saves and writes the inputs; returns the program's outputs in this JVM, one per batch size. */
    private static List<Tensor> exportAndSave(Path dir, List<String> args, String outSuffix) {
        Gpt model = gpt();
        Path archive = dir.resolve("gpt.pt2");
        ExportedProgram program = Export.export(
                model,
                ExportOptions.defaults().dynamicDim(0, 0, Dim.of("batch", 1, 1024)),
                Torch.randint(0, 65, 3, 12));
        Export.save(program, archive);
        args.add(archive.toString());
        List<Tensor> expected = new ArrayList<>();
        for (long batch : BATCHES) {
            Tensor idx = Torch.randint(0, 65, batch, 12);
            Path in = dir.resolve("in_" + batch + ".npy");
            Npy.save(idx, in);
            args.add(in.toString());
            args.add(dir.resolve(outSuffix + batch + ".npy").toString());
            try (var _ = GradMode.set(false)) {
                // the program in this JVM: eager's fused attention rounds differently from the core-op
                // decomposition the program records (as in PyTorch), so eager is compared within rounding
                Tensor out = program.module().call(idx);
                assertTrue(model.call(idx).sub(out).abs().max().item() < 1e-4, "eager at batch " + batch);
                expected.add(out);
            }
        }
        return expected;
    }

    @Test
    void aSavedGptRunsInAFreshJvmBitwiseAsInThisJvmAtBatch1And7And64(@TempDir Path dir) throws Exception {
        List<String> args = new ArrayList<>();
        List<Tensor> expected = exportAndSave(dir, args, "out_");
        String java = ProcessHandle.current().info().command().orElse("java");
        String modules = System.getProperty("jdk.module.path");
        String classPath = modules == null
                ? System.getProperty("java.class.path")
                : modules + File.pathSeparator + System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector",
                "-cp",
                classPath,
                GptExportTest.class.getName()));
        cmd.addAll(args);
        assertEquals(0, run(cmd).exit, "the fresh JVM failed");
        for (int i = 0; i < BATCHES.length; i++) {
            Tensor got = Npy.load(dir.resolve("out_" + BATCHES[i] + ".npy"));
            assertArrayEquals(expected.get(i).shape(), got.shape());
            assertArrayEquals(bits(expected.get(i)), bits(got), "batch " + BATCHES[i]);
        }
    }

    @Test
    void pyTorchRunsTheExportedGptWithJTorchsOutputs(@TempDir Path dir) throws Exception {
        String python = System.getenv("JTORCH_PYTHON");
        if (python == null || !Files.isExecutable(Path.of(python))) {
            if ("1".equals(System.getenv("JTORCH_REQUIRE_TORCH"))) fail("JTORCH_REQUIRE_TORCH=1 without JTORCH_PYTHON");
            assumeTrue(false, "JTORCH_PYTHON is not set");
        }
        List<String> cmd = new ArrayList<>(List.of(
                python, ROOT.resolve("jtorch/src/test/python/run_pt2.py").toString()));
        List<Tensor> expected = exportAndSave(dir, cmd, "py_");
        Exec r = run(cmd);
        assertEquals(0, r.exit, r.output);
        assertTrue(r.output.startsWith("2.13"), r.output);
        for (int i = 0; i < BATCHES.length; i++) {
            double[] want = expected.get(i).toDoubleArray();
            double[] got = Npy.load(dir.resolve("py_" + BATCHES[i] + ".npy")).toDoubleArray();
            double scale = Arrays.stream(want).map(Math::abs).max().orElse(1);
            for (int k = 0; k < want.length; k++) {
                assertEquals(want[k], got[k], 1e-5 * Math.max(scale, 1) + 1e-5, "batch " + BATCHES[i] + " at " + k);
            }
        }
    }

    /** The fresh JVM's program: {@code ARCHIVE IN_1 OUT_1 ...}. */
    public static void main(String[] args) {
        Module m = Export.load(Path.of(args[0])).module();
        try (var _ = GradMode.set(false)) {
            for (int i = 1; i + 1 < args.length; i += 2) {
                Npy.save(m.call(Npy.load(Path.of(args[i]))), Path.of(args[i + 1]));
            }
        }
    }

    private record Exec(int exit, String output) {}

    private static Exec run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "timed out: " + cmd.getFirst());
        return new Exec(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static long[] bits(Tensor t) {
        return Arrays.stream(t.toDoubleArray())
                .mapToLong(Double::doubleToRawLongBits)
                .toArray();
    }
}

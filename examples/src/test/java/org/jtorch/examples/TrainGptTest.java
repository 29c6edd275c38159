package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.examples.gpt.TrainOptions;
import org.jtorch.examples.gpt.TrainingCheckpoint;
import org.jtorch.io.Safetensors;
import org.jtorch.io.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrainGptTest {
    @TempDir
    Path tmp;

    /** A model small enough for a unit test: one block of width 16 over 16 characters. */
    private static String[] tiny(String... extra) {
        String[] base = {
            "--layers",
            "1",
            "--heads",
            "2",
            "--embd",
            "16",
            "--block",
            "16",
            "--batch",
            "4",
            "--steps",
            "8",
            "--warmup",
            "2",
            "--eval-every",
            "4",
            "--eval-batches",
            "2",
            "--sample-tokens",
            "30",
            "--threads",
            "1"
        };
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    private static TrainGpt.Result run(String... args) {
        return TrainGpt.run(
                TrainOptions.parse(args), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
    }

    /**
     * Runs TrainGpt in a fresh JVM, as a user resuming a job does, and returns the per-step losses recorded in its
     * checkpoint. Separate processes also keep the comparison free of JIT state: some of JTorch's vector kernels round
     * differently before and after C2 compiles them, which a long-lived test JVM would mix in.
     */
    private static float[] runInFreshJvm(String... args) throws Exception {
        // launched as the build launches it: the examples and JTorch as modules, the OpenBLAS jar on the class path
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=org.jtorch",
                "-Xmx1g",
                "--module-path",
                System.getProperty("jdk.module.path"),
                "-cp",
                System.getProperty("java.class.path"),
                "--module",
                TrainGpt.class.getModule().getName() + "/" + TrainGpt.class.getName()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        assertEquals(0, p.exitValue(), output);
        String out = args[java.util.Arrays.asList(args).indexOf("--out") + 1];
        return TrainingCheckpoint.load(Path.of(out, "checkpoint.pt")).trainLosses();
    }

    @Test
    void compiledModelTrainsAlongTheEagerLossCurve() {
        TrainGpt.Result eager = run(tiny("--out", tmp.resolve("eager").toString(), "--norm", "rmsnorm"));
        TrainGpt.Result compiled =
                run(tiny("--out", tmp.resolve("compiled").toString(), "--norm", "rmsnorm", "--compile", "aot_eager"));
        // the RMSNorm model's captured backward runs eager's kernels: the same per-step losses, bit for bit
        assertArrayEquals(eager.trainLosses(), compiled.trainLosses());
    }

    @Test
    void resumedRunDrawsTheSameLossCurveAsAnUninterruptedOne() throws Exception {
        float[] whole = runInFreshJvm(tiny("--out", tmp.resolve("whole").toString()));
        runInFreshJvm(tiny("--out", tmp.resolve("first").toString(), "--stop-after", "3"));
        float[] resumed = runInFreshJvm(tiny(
                "--out",
                tmp.resolve("second").toString(),
                "--resume",
                tmp.resolve("first/checkpoint.pt").toString()));
        assertEquals(8, whole.length);
        assertArrayEquals(whole, resumed, "bit-identical per-step losses");
    }

    @Test
    void resumingWithTheMuonOptimizerIsExactToo() throws Exception {
        float[] whole = runInFreshJvm(
                tiny("--optimizer", "muon", "--out", tmp.resolve("whole").toString()));
        runInFreshJvm(tiny("--optimizer", "muon", "--out", tmp.resolve("first").toString(), "--stop-after", "5"));
        // The optimizer comes from the checkpoint, so the resumed run needs no --optimizer flag.
        float[] resumed = runInFreshJvm(tiny(
                "--out",
                tmp.resolve("second").toString(),
                "--resume",
                tmp.resolve("first/checkpoint.pt").toString()));
        assertArrayEquals(whole, resumed);
    }

    @Test
    void resumedRunInTheSameJvmContinuesTheCurve() {
        TrainGpt.Result whole = run(tiny("--out", tmp.resolve("whole").toString()));
        run(tiny("--out", tmp.resolve("first").toString(), "--stop-after", "3"));
        TrainGpt.Result resumed = run(tiny(
                "--out",
                tmp.resolve("second").toString(),
                "--resume",
                tmp.resolve("first/checkpoint.pt").toString()));
        // Within float rounding only: see runInFreshJvm about JIT-dependent rounding inside one JVM.
        assertArrayEquals(whole.trainLosses(), resumed.trainLosses(), 1e-4f);
        assertEquals(whole.valLosses().size(), resumed.valLosses().size());
    }

    @Test
    void writesCheckpointsPlotAndSample() throws Exception {
        Path out = tmp.resolve("out");
        TrainGpt.Result r = run(tiny("--out", out.toString()));
        Map<String, Tensor> st = Safetensors.load(out.resolve("model.safetensors"));
        @SuppressWarnings("unchecked")
        Map<String, Tensor> pt = (Map<String, Tensor>) Serialization.load(out.resolve("model.pt"));
        assertEquals(st.keySet(), pt.keySet());
        assertTrue(pt.containsKey("transformer.h.0.attn.c_attn.weight"));
        assertTrue(pt.containsKey("lm_head.weight"));
        for (String k : st.keySet())
            assertArrayEquals(st.get(k).toFloatArray(), pt.get(k).toFloatArray(), k);
        assertEquals(
                "16", Safetensors.loadMetadata(out.resolve("model.safetensors")).get("n_embd"));
        BufferedImage png = ImageIO.read(out.resolve("loss.png").toFile());
        assertEquals(900, png.getWidth());
        assertEquals(r.sample(), Files.readString(out.resolve("sample.txt")));
        assertEquals(30, r.sample().length());
        assertTrue(Double.isFinite(r.finalValLoss()));
    }

    @Test
    void ampBf16TrainsInBfloat16ToAboutTheFloat32Loss() {
        TrainGpt.Result f32 = run(tiny("--out", tmp.resolve("f32").toString(), "--steps", "30"));
        TrainGpt.Result bf16 = run(tiny("--out", tmp.resolve("bf16").toString(), "--steps", "30", "--amp", "bf16"));
        // bfloat16 matrix products change the losses from the first step on ...
        assertNotEquals(f32.trainLosses()[0], bf16.trainLosses()[0]);
        // ... yet the model learns as much: the held-out loss ends within 2% of float32's, well below the start.
        assertEquals(f32.finalValLoss(), bf16.finalValLoss(), 0.02 * f32.finalValLoss());
        assertTrue(
                bf16.finalValLoss() < bf16.trainLosses()[0] - 0.3, bf16.finalValLoss() + " " + bf16.trainLosses()[0]);
    }

    @Test
    void lmLossIsTheMeanNegativeLogLikelihoodOfTheTargets() {
        Torch.manualSeed(3);
        Tensor hidden = Torch.randn(2, 3, 4), weight = Torch.randn(5, 4);
        Tensor target = Torch.tensor(new long[] {0, 4, 2, 1, 1, 3}).view(2, 3);
        double[] h = hidden.toDoubleArray(), w = weight.toDoubleArray();
        long[] t = target.toLongArray();
        double expected = 0;
        for (int row = 0; row < 6; row++) {
            double[] logits = new double[5];
            double max = Double.NEGATIVE_INFINITY;
            for (int v = 0; v < 5; v++) {
                for (int d = 0; d < 4; d++) logits[v] += h[row * 4 + d] * w[v * 4 + d];
                max = Math.max(max, logits[v]);
            }
            double z = 0;
            for (double l : logits) z += Math.exp(l - max);
            expected -= logits[(int) t[row]] - max - Math.log(z);
        }
        assertEquals(expected / 6, TrainGpt.lmLoss(hidden, weight, target).item(), 1e-5);
    }

    @Test
    void badFlagsNameTheFlag() {
        assertTrue(
                assertThrows(IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--layers", "0"}))
                        .getMessage()
                        .contains("--layers"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--optimizer", "sgd"}))
                .getMessage()
                .contains("adamw, muon"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--frobnicate", "1"}))
                .getMessage()
                .contains("unknown option --frobnicate"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--steps"}))
                .getMessage()
                .contains("--steps needs a value"));
        assertTrue(TrainOptions.parse(new String[] {"--help"}).help);
        assertEquals(
                "--heads 3 must divide --embd 128",
                assertThrows(IllegalArgumentException.class, () -> TrainOptions.parse(new String[] {"--heads", "3"}))
                        .getMessage());
        assertEquals(
                "--resume " + tmp.resolve("none.pt") + ": no such file",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> TrainOptions.parse(new String[] {
                                    "--resume", tmp.resolve("none.pt").toString()
                                }))
                        .getMessage());
    }

    @Test
    void stoppingEarlyReportsTheHeldOutLossOfTheStopStep() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TrainGpt.Result r = TrainGpt.run(
                TrainOptions.parse(tiny("--out", tmp.resolve("early").toString(), "--stop-after", "3")),
                new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(
                out.contains(String.format("held-out loss at step 3 of 8 (--resume continues) %.4f", r.finalValLoss())),
                out);
        assertTrue(!out.contains("final held-out loss"), out);
        assertTrue(r.valLosses().isEmpty(), "no evaluation step (every 4) was reached");
    }

    @Test
    void scheduleWarmsUpThenDecaysToATenthOfThePeak() {
        TrainOptions o = TrainOptions.parse(new String[] {"--steps", "100", "--warmup", "10", "--lr", "1"});
        assertEquals(0.1, o.learningRate(0), 1e-12);
        assertEquals(1.0, o.learningRate(9), 1e-12);
        assertEquals(1.0, o.learningRate(10), 1e-12);
        assertEquals(0.1 + 0.45 * (1 + Math.cos(Math.PI * 44 / 89)), o.learningRate(54), 1e-12);
        assertEquals(0.1, o.learningRate(99), 1e-12);
    }
}

package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jtorch.examples.gpt.TrainOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TrainGpt against real PyTorch — the interpreter in {@code JTORCH_PYTHON} (the PyTorch 2.13 venv {@code .ci/run}
 * makes), else Debian's /usr/bin/python3 with torch 1.13; skipped where neither imports torch, unless
 * {@code JTORCH_REQUIRE_TORCH=1}: PyTorch loads the checkpoint, and the PyTorch peer of the same model draws the same
 * first losses.
 */
class PyTorchInteropTest {
    private static final Path PYTHON = Path.of(System.getenv().getOrDefault("JTORCH_PYTHON", "/usr/bin/python3"));
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent(); // tests run in examples/

    @TempDir
    Path tmp;

    @BeforeAll
    static void needsPyTorch() throws Exception {
        boolean found =
                Files.isExecutable(PYTHON) && exec(List.of(PYTHON.toString(), "-c", "import torch, numpy")).exit == 0;
        if (!found && "1".equals(System.getenv("JTORCH_REQUIRE_TORCH"))) {
            fail("JTORCH_REQUIRE_TORCH=1 but " + PYTHON + " does not import torch and numpy");
        }
        assumeTrue(found, "no PyTorch in " + PYTHON);
    }

    private record Exec(int exit, String stdout) {}

    private static Exec exec(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .directory(ROOT.toFile())
                .start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(5, TimeUnit.MINUTES));
        return new Exec(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    private static final String[] TINY = {
        "--layers",
        "2",
        "--heads",
        "2",
        "--embd",
        "32",
        "--block",
        "32",
        "--batch",
        "4",
        "--warmup",
        "2",
        "--threads",
        "1"
    };

    private static String[] with(String... extra) {
        List<String> all = new ArrayList<>(List.of(TINY));
        all.addAll(List.of(extra));
        return all.toArray(new String[0]);
    }

    @Test
    void pyTorchLoadsTheCheckpointWeightsOnlyAndItsWeightsWork() throws Exception {
        Path out = tmp.resolve("gpt");
        TrainGpt.run(
                TrainOptions.parse(with(
                        "--steps",
                        "4",
                        "--eval-every",
                        "2",
                        "--eval-batches",
                        "2",
                        "--sample-tokens",
                        "0",
                        "--out",
                        out.toString())),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        Exec r = exec(List.of(PYTHON.toString(), "examples/src/test/python/check_checkpoint.py", out.toString()));
        assertEquals(0, r.exit, r.stdout);
        assertTrue(r.stdout.contains("checkpoint ok"), r.stdout);
    }

    @Test
    void thePyTorchPeerDrawsTheSameFirstLosses() throws Exception {
        TrainGpt.Result jt = TrainGpt.run(
                TrainOptions.parse(with(
                        "--steps",
                        "3",
                        "--eval-every",
                        "100",
                        "--eval-batches",
                        "1",
                        "--sample-tokens",
                        "0",
                        "--out",
                        tmp.resolve("jt").toString())),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        List<String> cmd = new ArrayList<>(List.of(PYTHON.toString(), "benchmarks/peers/train_gpt.py", "--steps", "3"));
        cmd.addAll(List.of(TINY));
        Exec r = exec(cmd);
        assertEquals(0, r.exit, r.stdout);
        Matcher m = Pattern.compile("step (\\d+) loss ([0-9.]+)").matcher(r.stdout);
        int n = 0;
        while (m.find()) {
            int step = Integer.parseInt(m.group(1));
            // Same seed, same initialisation order, same batches: the losses agree to float32 rounding.
            assertEquals(Double.parseDouble(m.group(2)), jt.trainLosses()[step - 1], 2e-4, "step " + step);
            n++;
        }
        assertEquals(3, n, r.stdout);
    }
}

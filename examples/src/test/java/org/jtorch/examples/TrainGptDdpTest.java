package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.examples.gpt.TrainingCheckpoint;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TrainGpt {@code --ddp mpi} under {@code mpirun -np 2} on loopback: interrupted and resumed from its checkpoint, it
 * ends where one process trained without interruption on the same batches ends. Skipped without Open MPI unless
 * {@code JTORCH_REQUIRE_MPI} is set.
 */
class TrainGptDdpTest {
    @TempDir
    Path tmp;

    private static final List<String> TINY = List.of(
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
            "0",
            "--threads",
            "1");

    @Test
    void twoRanksResumedFromTheirCheckpointEndWhereOneProcessEnds() throws Exception {
        String mpirun = mpirun();
        Path whole = tmp.resolve("whole"), first = tmp.resolve("first"), resumed = tmp.resolve("resumed");
        run(List.of(), "--out", whole.toString());
        run(
                List.of(mpirun, "--oversubscribe", "-np", "2"),
                "--ddp",
                "mpi",
                "--stop-after",
                "4",
                "--out",
                first.toString());
        assertTrue(Files.isRegularFile(first.resolve("loss.png")), "rank 0 writes the plot");
        run(
                List.of(mpirun, "--oversubscribe", "-np", "2"),
                "--ddp",
                "mpi",
                "--resume",
                first.resolve("checkpoint.pt").toString(),
                "--out",
                resumed.toString());

        TrainingCheckpoint expected = TrainingCheckpoint.load(whole.resolve("checkpoint.pt"));
        TrainingCheckpoint actual = TrainingCheckpoint.load(resumed.resolve("checkpoint.pt"));
        assertEquals(expected.step(), actual.step());
        float[] e = expected.trainLosses(), a = actual.trainLosses();
        assertEquals(e.length, a.length);
        for (int i = 0; i < e.length; i++) assertEquals(e[i], a[i], 1e-4, "loss of step " + (i + 1));
        for (Map.Entry<String, Tensor> entry : expected.model().entrySet()) {
            double[] x = entry.getValue().contiguous().toDoubleArray();
            double[] y = actual.model().get(entry.getKey()).contiguous().toDoubleArray();
            for (int i = 0; i < x.length; i++) assertEquals(x[i], y[i], 1e-4, entry.getKey() + "[" + i + "]");
        }
    }

    /** TrainGpt with the tiny model and {@code args}, under {@code launcher} (empty: a plain JVM), within 5 minutes. */
    private static void run(List<String> launcher, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(launcher);
        if (!launcher.isEmpty()) {
            if (Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"))) {
                cmd.add("--allow-run-as-root");
            }
            cmd.addAll(List.of(
                    "--mca", "btl_tcp_if_include", "lo", "--mca", "oob_tcp_if_include", "lo", "--bind-to", "none"));
        }
        cmd.addAll(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=org.jtorch",
                "-Xmx512m",
                "-XX:+UseSerialGC",
                "--module-path",
                System.getProperty("jdk.module.path"),
                "-cp",
                System.getProperty("java.class.path"),
                "--module",
                TrainGpt.class.getModule().getName() + "/" + TrainGpt.class.getName()));
        cmd.addAll(TINY);
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean done = p.waitFor(5, TimeUnit.MINUTES);
        if (!done) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        assertTrue(done, "timed out: " + output);
        assertEquals(0, p.exitValue(), output);
    }

    private static String mpirun() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "mpirun");
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        if (System.getenv("JTORCH_REQUIRE_MPI") != null) throw new AssertionError("mpirun is not on the PATH");
        Assumptions.abort("mpirun is not on the PATH; set JTORCH_REQUIRE_MPI=1 to fail instead");
        return null;
    }
}

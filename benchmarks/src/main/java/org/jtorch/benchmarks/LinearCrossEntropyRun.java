package org.jtorch.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Reduction;
import org.jtorch.nn.functional.F;

/**
 * Whole-program benchmark of {@code F.linearCrossEntropy} forward+backward at LM-head size (N=4096 rows, D=1024
 * features, V=32768 classes, float32, 'mean'): the chunked path against the reference path
 * {@code cross_entropy(linear(x, W), y)}.
 *
 * <ul>
 *   <li>{@code time [runs] [chunks]}: in one JVM, one warm-up then {@code runs} timed forward+backward calls per path,
 *       for each chunk size of the comma-separated {@code chunks} ("auto" = the default options) and the reference
 *       path, the paths taking turns within each repetition.
 *   <li>{@code memory [chunk]}: peak additional live heap per path, measured as the smallest {@code -Xmx} at which a
 *       fresh JVM (Serial GC, 8 MiB young generation, so nearly the whole heap is one compacted old generation)
 *       completes the forward+backward, minus the smallest {@code -Xmx} at which the same JVM merely creates the
 *       inputs. Binary search with a resolution of 16 MiB. A JVM that runs out of heap throws OutOfMemoryError, so the
 *       figure is what the call needs live at its worst moment (outputs and gradients included), not what it happened
 *       to allocate.
 * </ul>
 *
 * JTorch stores tensors on the Java heap, so the heap is the whole story (OpenBLAS's own buffers are native and
 * identical for both paths).
 */
public final class LinearCrossEntropyRun {
    private static final long N = 4096, D = 1024, V = 32768;
    private static final int RESOLUTION_MIB = 16;

    private LinearCrossEntropyRun() {}

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "time";
        switch (mode) {
            case "time" -> time(args.length > 1 ? Integer.parseInt(args[1]) : 3, args.length > 2 ? args[2] : "auto");
            case "memory" -> memory(args.length > 1 ? args[1] : "auto");
            case "child" -> System.exit(child(args[1], args.length > 2 ? args[2] : "auto"));
            default -> throw new IllegalArgumentException("mode must be time, memory or child, got " + mode);
        }
    }

    private record Inputs(Tensor x, Tensor w, Tensor y) {}

    private static Inputs inputs() {
        Torch.manualSeed(0);
        Tensor x = Torch.randn(N, D).requiresGrad(true);
        Tensor w = Torch.randn(V, D);
        w.mul_(0.02); // in place: no second weight-sized temporary that would inflate the baseline of the heap search
        w.requiresGrad(true);
        Tensor y = Torch.randint(0, V, N);
        return new Inputs(x, w, y);
    }

    private static LinearCrossEntropyOptions options(Integer chunk) {
        return chunk == null
                ? LinearCrossEntropyOptions.defaults()
                : LinearCrossEntropyOptions.defaults().withBatchChunkSize(chunk);
    }

    /** One forward+backward; {@code options == null} is the reference path. */
    private static double step(Inputs in, LinearCrossEntropyOptions options) {
        in.x().setGrad(null);
        in.w().setGrad(null);
        Tensor loss = F.linearCrossEntropy(in.x(), in.w(), in.y(), Reduction.MEAN, options);
        loss.backward();
        return loss.item();
    }

    /**
     * {@code chunks}: comma-separated chunk sizes for the chunked path ("auto" = the options' default resolution). The
     * paths take turns within each repetition, so a change in the machine's load hits all of them alike.
     */
    private static void time(int runs, String chunks) {
        Inputs in = inputs();
        List<String> paths = new ArrayList<>();
        for (String c : chunks.split(",")) paths.add("chunked_" + c);
        paths.add("reference");
        int k = paths.size();
        double[] loss = new double[k];
        double[][] ms = new double[k][runs], cpu = new double[k][runs];
        for (int p = 0; p < k; p++) loss[p] = step(in, options(paths.get(p))); // warm-up
        for (int i = 0; i < runs; i++) {
            for (int p = 0; p < k; p++) {
                LinearCrossEntropyOptions o = options(paths.get(p));
                long t0 = System.nanoTime(), c0 = processCpuNanos();
                step(in, o);
                ms[p][i] = (System.nanoTime() - t0) / 1e6;
                cpu[p][i] = (processCpuNanos() - c0) / 1e6;
            }
        }
        for (int p = 0; p < k; p++) {
            double[] sorted = ms[p].clone();
            Arrays.sort(sorted);
            double[] cpuSorted = cpu[p].clone();
            Arrays.sort(cpuSorted);
            System.out.printf(
                    Locale.ROOT,
                    "bench=linear_cross_entropy_%s value=%.0f unit=ms min=%.0f max=%.0f cpu_ms=%.0f loss=%.6f%n",
                    paths.get(p),
                    sorted[runs / 2],
                    sorted[0],
                    sorted[runs - 1],
                    cpuSorted[runs / 2],
                    loss[p]);
        }
        System.out.printf(
                Locale.ROOT,
                "load average at the end: %.2f%n",
                java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                        .getSystemLoadAverage());
    }

    /** The options of a path name: "reference" = none, "chunked_auto" = defaults, "chunked_B" = B rows per chunk. */
    private static LinearCrossEntropyOptions options(String path) {
        if (!path.startsWith("chunked_")) return null;
        String chunk = path.substring(8);
        return options(chunk.equals("auto") ? null : Integer.valueOf(chunk));
    }

    /** CPU time of the whole process (all Java and OpenBLAS threads): steadier than wall time on a shared machine. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static int child(String path, String chunk) {
        try {
            Inputs in = inputs();
            if (!path.equals("baseline"))
                step(in, path.equals("chunked") ? options(chunk.equals("auto") ? null : Integer.valueOf(chunk)) : null);
            return 0;
        } catch (OutOfMemoryError e) {
            return 3;
        }
    }

    private static void memory(String chunk) throws IOException, InterruptedException {
        int base = minHeap("baseline", chunk, 64, 1024);
        System.out.printf(Locale.ROOT, "baseline (inputs only): min -Xmx %d MiB%n", base);
        for (String path : new String[] {"chunked", "reference"}) {
            // search windows that bracket the answers (checked at both ends), to keep the number of full runs small
            int lo = path.equals("chunked") ? base : base + 1024,
                    hi = path.equals("chunked") ? base + 512 : base + 5120;
            if (runs(path, chunk, lo))
                throw new IllegalStateException(path + " already runs with -Xmx" + lo + "m; widen the window");
            int need = minHeap(path, chunk, lo, hi);
            System.out.printf(
                    Locale.ROOT,
                    "bench=linear_cross_entropy_%s_peak_extra value=%d unit=MiB (min -Xmx %d MiB)%n",
                    path,
                    need - base,
                    need);
        }
    }

    /** The smallest heap (MiB, to {@link #RESOLUTION_MIB}) in {@code (lo, hi]} in which the child succeeds. */
    private static int minHeap(String path, String chunk, int lo, int hi) throws IOException, InterruptedException {
        if (!runs(path, chunk, hi)) throw new IllegalStateException(path + " fails even with -Xmx" + hi + "m");
        while (hi - lo > RESOLUTION_MIB) {
            int mid = (lo + hi) / 2;
            if (runs(path, chunk, mid)) hi = mid;
            else lo = mid;
        }
        return hi;
    }

    private static boolean runs(String path, String chunk, int heapMiB) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Xmx" + heapMiB + "m",
                "-Xms" + heapMiB + "m",
                "-Xmn8m",
                "-XX:+UseSerialGC",
                "--add-modules=jdk.incubator.vector",
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                LinearCrossEntropyRun.class.getName(),
                "child",
                path,
                chunk));
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        int rc = p.waitFor();
        System.err.printf(Locale.ROOT, "  %s -Xmx%dm -> %s%n", path, heapMiB, rc == 0 ? "ok" : "exit " + rc);
        return rc == 0;
    }
}

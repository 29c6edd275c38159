package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import org.jtorch.TorchException;

/**
 * Runs mutated inputs through one file reader and holds it to the readers' contract on hostile input: each input loads,
 * or fails with a {@link TorchException} (an {@link UnpicklingException} is one) or an {@link UncheckedIOException}
 * that says what went wrong; never another exception or an Error. No input may take more than {@link #HANG_MILLIS}, nor
 * allocate more than twice its size plus {@link #ALLOCATION_SLACK} on the loading thread: a reader that trusted a
 * declared size before checking it against the file would allocate far more.
 *
 * <p>Input {@code i} of a campaign comes from {@code new Random(seed ^ i)}, so a failure is reproduced by its number.
 * The normal suite runs each campaign for a fixed number of inputs ({@code -Djtorch.fuzz.iterations=N} changes it);
 * {@code -Djtorch.fuzz.minutes=M} runs each for M minutes instead (the nightly mode). Failing inputs are written to
 * {@code target/fuzz-crashes/}; once fixed, they join the regression corpus under {@code src/test/resources/}.
 */
final class FuzzCampaign {
    /** An input that takes longer than this counts as a hang. */
    static final long HANG_MILLIS = 5_000;
    /**
     * Allocation every load may make whatever the input's size: buffers of the zip and stream readers, 1 MiB copy
     * chunks, the parser's tables and the tensors of a small valid file.
     */
    static final long ALLOCATION_SLACK = 16L << 20;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Makes input {@code i} from its own random source. */
    interface Mutator {
        byte[] next(Random r, int i) throws IOException;
    }

    /** Loads the file, touching every loaded element. */
    interface Reader {
        void load(Path file) throws IOException;
    }

    /** What a campaign did. */
    record Stats(
            String name,
            long inputs,
            long loaded,
            long seconds,
            long maxAllocated,
            long maxAllocatedSize,
            long slowestMillis) {
        @Override
        public String toString() {
            return "fuzz " + name + ": " + inputs + " inputs in " + seconds + " s, " + loaded + " loaded, the rest "
                    + "refused cleanly; slowest " + slowestMillis + " ms; largest allocation " + maxAllocated
                    + " bytes (for a " + maxAllocatedSize + "-byte input)";
        }
    }

    private FuzzCampaign() {}

    /**
     * Runs the campaign {@code name}: {@code defaultInputs} inputs, or the count or minutes given by the system
     * properties. Fails on the first input that breaks the contract, after keeping it.
     */
    static Stats run(String name, long seed, int defaultInputs, String extension, Path dir, Mutator m, Reader r) {
        String minutes = System.getProperty("jtorch.fuzz.minutes");
        long deadline =
                minutes == null ? Long.MAX_VALUE : System.nanoTime() + (long) (Double.parseDouble(minutes) * 60e9);
        long inputs = minutes == null ? Integer.getInteger("jtorch.fuzz.iterations", defaultInputs) : Long.MAX_VALUE;
        Duration limit = minutes == null
                ? Duration.ofMinutes(10)
                : Duration.ofMillis((long) (Double.parseDouble(minutes) * 60_000) + 10 * HANG_MILLIS);
        return assertTimeoutPreemptively(
                limit, () -> loop(name, seed, inputs, deadline, extension, dir, m, r), name + ": a hang");
    }

    private static Stats loop(
            String name, long seed, long inputs, long deadline, String extension, Path dir, Mutator m, Reader r)
            throws IOException {
        long start = System.nanoTime(), loaded = 0, maxAllocated = 0, maxAllocatedSize = 0, slowest = 0;
        Path file = dir.resolve("fuzz-input" + extension);
        long i = 0;
        for (; i < inputs && System.nanoTime() < deadline; i++) {
            byte[] input = m.next(new Random(seed ^ (i * 0x9E3779B97F4A7C15L)), (int) i);
            Files.write(file, input);
            long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes(), t0 = System.nanoTime();
            try {
                r.load(file);
                loaded++;
            } catch (TorchException | UncheckedIOException refused) {
                if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                    keep(name, i, input, extension, refused, "a failure that does not say what went wrong");
                }
            } catch (Throwable t) {
                keep(name, i, input, extension, t, "not a TorchException");
            }
            long millis = (System.nanoTime() - t0) / 1_000_000;
            long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
            if (millis > HANG_MILLIS) keep(name, i, input, extension, null, "took " + millis + " ms");
            if (allocated > 2L * input.length + ALLOCATION_SLACK) {
                keep(name, i, input, extension, null, "allocated " + allocated + " bytes for " + input.length);
            }
            slowest = Math.max(slowest, millis);
            if (allocated > maxAllocated) {
                maxAllocated = allocated;
                maxAllocatedSize = input.length;
            }
        }
        Stats s = new Stats(
                name, i, loaded, (System.nanoTime() - start) / 1_000_000_000, maxAllocated, maxAllocatedSize, slowest);
        System.out.println(s);
        return s;
    }

    private static void keep(String name, long i, byte[] input, String extension, Throwable t, String why)
            throws IOException {
        Path crashes = Files.createDirectories(Path.of("target/fuzz-crashes"));
        Path kept = crashes.resolve(name + "-" + i + extension);
        Files.write(kept, input);
        StringWriter trace = new StringWriter();
        if (t != null) t.printStackTrace(new PrintWriter(trace));
        fail(name + " fuzz input " + i + " (kept as " + kept + "): " + why
                + (t == null ? "" : ": " + t + "\n" + trace));
    }
}

package org.jtorch.kernels.blas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the machine has cores to spare right now, from {@code /proc/loadavg}: the kernel's instantaneous count of
 * runnable tasks (its fourth field, "running/total", which counts the reading thread) must leave the cores free, and
 * the one-minute load average must stay below the cores plus one half, which screens out a busy machine that merely
 * looked idle at the instant of reading (our own threaded calls raise the average to about the core count, not above
 * it).
 *
 * <p>Why LAPACK asks: the bundled OpenBLAS hands work between its threads by busy-waiting, thousands of times per
 * factorisation. On an idle 2-core machine its 2 threads cut dsyevd of order 512 from 31 to 22 ms; when another process
 * holds a core, every hand-off waits out a scheduler time slice and the same call took 170-830 ms (single-threaded:
 * 31-75 ms). So threads are used only when they would find their cores idle. Without {@code /proc/loadavg} (not Linux)
 * the answer is no.
 */
public final class IdleCores {
    private IdleCores() {}

    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** True when {@code threads} threads, the calling one among them, would each find an idle core. */
    public static boolean available(int threads) {
        if (threads <= 1) return true;
        if (threads > CORES) return false;
        String[] f = fields();
        if (f == null) return false;
        int running = runnable(f);
        return running > 0 && running - 1 + threads <= CORES && Double.parseDouble(f[0]) < CORES + 0.5;
    }

    /** The runnable tasks now, this one included; 0 when unknown. */
    static int runnable() {
        String[] f = fields();
        return f == null ? 0 : runnable(f);
    }

    private static int runnable(String[] f) {
        int slash = f[3].indexOf('/');
        return slash < 0 ? 0 : Integer.parseInt(f[3].substring(0, slash));
    }

    /** The fields of {@code /proc/loadavg}, or null when it cannot be read or parsed. Reading takes ~10 µs. */
    private static String[] fields() {
        try {
            String[] f = Files.readString(LOADAVG).trim().split("\\s+");
            if (f.length < 4) return null;
            Double.parseDouble(f[0]);
            runnable(f);
            return f;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}

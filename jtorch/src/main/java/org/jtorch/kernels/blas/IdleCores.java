package org.jtorch.kernels.blas;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether the machine has cores to spare right now, from the kernel's instantaneous count of runnable
 * tasks (the fourth field of {@code /proc/loadavg}, "running/total", which counts the reading thread).
 *
 * <p>Why LAPACK asks: the bundled OpenBLAS hands work between its threads by busy-waiting, thousands of
 * times per factorisation. On an idle 2-core machine its 2 threads cut dsyevd of order 512 from 31 to
 * 22 ms; when another process holds a core, every hand-off waits out a scheduler time slice and the
 * same call took 170-830 ms (single-threaded: 31-75 ms). So threads are used only when they would find
 * their cores idle. Without {@code /proc/loadavg} (not Linux) the answer is no.
 */
public final class IdleCores {
    private IdleCores() {}

    private static final Path LOADAVG = Path.of("/proc/loadavg");
    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** True when {@code threads} threads, the calling one among them, would each find an idle core. */
    public static boolean available(int threads) {
        if (threads <= 1) return true;
        if (threads > CORES) return false;
        int running = runnable();
        return running > 0 && running - 1 + threads <= CORES;
    }

    /** The runnable tasks now, this one included; 0 when unknown. Reading the file takes ~10 µs. */
    static int runnable() {
        try {
            String s = Files.readString(LOADAVG);
            String[] f = s.trim().split("\\s+");
            if (f.length < 4) return 0;
            int slash = f[3].indexOf('/');
            return slash < 0 ? 0 : Integer.parseInt(f[3].substring(0, slash));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}

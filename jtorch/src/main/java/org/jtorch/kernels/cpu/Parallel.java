package org.jtorch.kernels.cpu;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RecursiveAction;

/**
 * Intra-op parallelism: the caller runs the first piece of a range, common-pool workers the rest.
 *
 * <p>Why the common pool and the caller: on this kind of machine an external submission to a
 * dedicated pool costs ~18 µs per op against ~1 µs for a fork to a hot common-pool worker, and parked
 * fork/join workers do not spin, so they share the cores with OpenBLAS's threads without busy-waiting
 * (see docs/adr/0001-storage.md). Ranges below the grain stay on the calling thread.
 */
public final class Parallel {
    private Parallel() {}

    /** PyTorch's {@code at::internal::GRAIN_SIZE}: elements per task for cheap elementwise work. */
    public static final long GRAIN = 32_768;

    private static volatile int numThreads = Math.max(1, Runtime.getRuntime().availableProcessors());

    /** A piece of a range, {@code [start, end)}. */
    @FunctionalInterface
    public interface RangeBody {
        void run(long start, long end);
    }

    public static int numThreads() { return numThreads; }

    public static void setNumThreads(int n) {
        if (n < 1) throw new IllegalArgumentException("set_num_threads: Expected positive number of threads, got " + n);
        numThreads = n;
    }

    /**
     * Runs {@code body} over {@code [0, total)} split in at most {@link #numThreads()} contiguous
     * pieces of at least {@code grain} elements. Piece boundaries depend on the thread count, so a
     * body must not make its result depend on them (reductions combine fixed-size blocks instead).
     */
    public static void forRange(long total, long grain, RangeBody body) {
        int threads = Math.min(numThreads, ForkJoinPool.getCommonPoolParallelism() + 1);
        long pieces = Math.min(threads, Math.max(1, total / Math.max(grain, 1)));
        if (pieces <= 1 || inWorker()) {
            if (total > 0) body.run(0, total);
            return;
        }
        long step = (total + pieces - 1) / pieces;
        RecursiveAction[] tasks = new RecursiveAction[(int) pieces - 1];
        for (int p = 1; p < pieces; p++) {
            long s = p * step, e = Math.min(total, s + step);
            tasks[p - 1] = new RecursiveAction() {
                @Override protected void compute() { if (s < e) body.run(s, e); }
            };
            tasks[p - 1].fork();
        }
        Throwable failure = null;
        try {
            body.run(0, Math.min(total, step));
        } catch (Throwable t) {
            failure = t;
        }
        for (ForkJoinTask<?> t : tasks) {
            try {
                t.join();
            } catch (Throwable e) {
                if (failure == null) failure = e;
            }
        }
        if (failure instanceof RuntimeException re) throw re;
        if (failure instanceof Error err) throw err;
    }

    /** Nested parallel regions run sequentially inside a worker, as ATen's {@code in_parallel_region}. */
    private static boolean inWorker() {
        return Thread.currentThread() instanceof java.util.concurrent.ForkJoinWorkerThread;
    }
}

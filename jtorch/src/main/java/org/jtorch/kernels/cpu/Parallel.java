package org.jtorch.kernels.cpu;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.jtorch.Warnings;

/**
 * Intra-op parallelism: a range is cut into pieces that the calling thread and JTorch's intra-op workers claim one at a
 * time; the caller returns when every piece has run.
 *
 * <p>Why own workers that spin before they sleep: waking a parked thread costs ~50 µs on this kind of machine
 * (measured: a task forked to a parked common-pool worker with 50 µs of work on each side took 110 µs, not 50), which
 * is as long as a whole 64 x 128 x 784 GEMM block, so an op-by-op training step lost most of its parallelism to
 * wake-ups. A worker here keeps polling for {@link #SPIN_NANOS} (200 µs) after its last piece (as OpenMP's and
 * OpenBLAS's threads do, but bounded to a fraction of a millisecond rather than OpenBLAS's ~0.1 s), so the next op of a
 * training step finds it awake, and then parks, leaving the core to others. Measured on TrainGpt, alternating runs:
 * 10,210-10,332 tokens/s polling 200 µs, 9,583-9,812 polling 1 ms. Because pieces are claimed, not assigned, a late
 * worker only means the caller runs more pieces itself: never slower than serial.
 *
 * <p>One range runs at a time: a range started while another is running (nested inside a piece, or from a second
 * application thread) runs serially on its own thread. It still runs piece by piece, with the boundaries it would have
 * had on the workers: how a range is cut depends only on its size, grain and {@link #numThreads()}, never on whether
 * the pool was free, so a call gives the same bits whatever other threads are doing (docs/threading.md). Ranges below
 * the grain stay on the calling thread.
 *
 * <p>A piece runs in its caller's warning context ({@link Warnings.Context}): a warning a kernel raises on a worker is
 * recorded by the caller's {@code catchWarnings()} scope, as if raised on the caller.
 */
public final class Parallel {
    private Parallel() {}

    /** PyTorch's {@code at::internal::GRAIN_SIZE}: elements per task for cheap elementwise work. */
    public static final long GRAIN = 32_768;

    /** How long an idle worker keeps polling before it parks; {@code -Djtorch.parallel.spinMicros}. */
    static final long SPIN_NANOS = Long.getLong("jtorch.parallel.spinMicros", 200) * 1_000;

    private static final int MAX_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    private static volatile int numThreads = MAX_THREADS;

    /** A piece of a range, {@code [start, end)}. */
    @FunctionalInterface
    public interface RangeBody {
        void run(long start, long end);
    }

    public static int numThreads() {
        return numThreads;
    }

    /** Sets the threads a range may use, the caller included (at most the available processors count). */
    public static void setNumThreads(int n) {
        if (n < 1) throw new IllegalArgumentException("set_num_threads: Expected positive number of threads, got " + n);
        numThreads = n;
    }

    /**
     * Runs {@code body} over {@code [0, total)} split in at most {@link #numThreads()} contiguous pieces of at least
     * {@code grain} elements. Piece boundaries depend on the thread count, so a body must not make its result depend on
     * them (reductions combine fixed-size blocks instead). The first exception a piece throws is rethrown here once
     * every piece has finished.
     */
    public static void forRange(long total, long grain, RangeBody body) {
        int threads = Math.min(numThreads, MAX_THREADS);
        long pieces = Math.min(threads, Math.max(1, total / Math.max(grain, 1)));
        if (pieces <= 1) {
            if (total > 0) body.run(0, total);
            return;
        }
        Job job = new Job(body, total, (int) pieces, Thread.currentThread());
        if (!Workers.publish(job)) { // a range is already running: this one is nested or concurrent
            job.runPiecesHere();
            return;
        }
        try {
            job.runPieces();
            job.awaitDone();
        } finally {
            Workers.retire(job);
        }
        job.rethrow();
    }

    /** One range being run: pieces are claimed by index; the caller waits for the count of finished ones. */
    private static final class Job {
        private final RangeBody body;
        private final long total, step;
        private final int pieces;
        private final Thread caller;
        private final Warnings.Context warnings;
        private final AtomicInteger next = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();
        private volatile boolean callerParked;
        private volatile Throwable failure;

        Job(RangeBody body, long total, int pieces, Thread caller) {
            this.body = body;
            this.total = total;
            this.pieces = pieces;
            this.step = (total + pieces - 1) / pieces;
            this.caller = caller;
            this.warnings = Warnings.context();
        }

        boolean claimable() {
            return next.get() < pieces;
        }

        /**
         * Runs every piece on the calling thread, in order, with the boundaries the workers would have used: a kernel
         * whose bits depend on its blocks (a GEMM by row blocks) gives the same result whether or not the pool was
         * free. The first exception propagates at once, as from a serial loop.
         */
        void runPiecesHere() {
            for (int p = 0; p < pieces; p++) {
                long start = p * step, end = Math.min(total, start + step);
                if (start < end) body.run(start, end);
            }
        }

        /** Claims and runs pieces until none is left, in the caller's warning context. */
        void runPieces() {
            Warnings.Context before = warnings.install();
            try {
                claimAndRun();
            } finally {
                before.install();
            }
        }

        private void claimAndRun() {
            for (int p; (p = next.getAndIncrement()) < pieces; ) {
                long start = p * step, end = Math.min(total, start + step);
                try {
                    if (start < end) body.run(start, end);
                } catch (Throwable t) {
                    if (failure == null) failure = t;
                } finally {
                    if (finished.incrementAndGet() == pieces && callerParked) LockSupport.unpark(caller);
                }
            }
        }

        /** Polls for the pieces other threads still run (they started at most a piece ago), then parks. */
        void awaitDone() {
            long spinUntil = System.nanoTime() + SPIN_NANOS;
            while (finished.get() < pieces) {
                if (System.nanoTime() < spinUntil) {
                    Thread.onSpinWait();
                    continue;
                }
                callerParked = true;
                if (finished.get() < pieces) LockSupport.parkNanos(this, 100_000);
            }
        }

        void rethrow() {
            Throwable t = failure;
            if (t instanceof RuntimeException re) throw re;
            if (t instanceof Error err) throw err;
            if (t != null) throw new IllegalStateException(t);
        }
    }

    /** The intra-op workers (available processors - 1, started on first use) and the one published job. */
    private static final class Workers {
        private static final AtomicReference<Job> CURRENT = new AtomicReference<>();
        private static final Worker[] WORKERS = new Worker[MAX_THREADS - 1];

        static {
            for (int i = 0; i < WORKERS.length; i++) {
                WORKERS[i] = new Worker(i);
                WORKERS[i].start();
            }
        }

        static boolean publish(Job job) {
            if (!CURRENT.compareAndSet(null, job)) return false;
            for (Worker w : WORKERS) {
                if (w.parked) LockSupport.unpark(w);
            }
            return true;
        }

        static void retire(Job job) {
            CURRENT.compareAndSet(job, null);
        }
    }

    private static final class Worker extends Thread {
        /** Set before parking and re-checked against the published job, so a publish never goes unseen. */
        volatile boolean parked;

        Worker(int index) {
            super(null, null, "jtorch-intraop-" + index, 16L << 20);
            setDaemon(true);
        }

        @Override
        public void run() {
            long idleSince = System.nanoTime();
            while (true) {
                Job job = Workers.CURRENT.get();
                if (job != null && job.claimable()) {
                    job.runPieces();
                    idleSince = System.nanoTime();
                } else if (System.nanoTime() - idleSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    parked = true;
                    job = Workers.CURRENT.get();
                    if (job == null || !job.claimable()) LockSupport.park(this);
                    parked = false;
                    idleSince = System.nanoTime();
                }
            }
        }
    }
}

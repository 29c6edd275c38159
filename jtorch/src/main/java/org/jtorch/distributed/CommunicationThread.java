package org.jtorch.distributed;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jtorch.kernels.mpi.Mpi;
import org.jtorch.kernels.mpi.Request;

/**
 * The one thread that calls MPI, as in PyTorch's {@code ProcessGroupMPI}. MPI requires every rank to issue the
 * collectives of a communicator in the same order; one queue drained by one thread keeps the order in which the program
 * issued them, whichever of its threads issued them (DDP issues from backward's hooks). It also lets MPI be initialised
 * at {@code MPI_THREAD_FUNNELED}, the cheapest level that allows a program with other threads.
 *
 * <p>Collectives run on this thread, overlapping the caller's computation. All-reduces (DDP's buckets), sends and
 * receives are started nonblocking and tested between tasks: crossed send/receive pairs of two ranks cannot deadlock
 * the queue, and a rank waiting for a slower peer parks instead of spinning in MPI's progress loop, which on a busy
 * host would take the core the peer needs. MPI progresses them inside every other call too.
 */
final class CommunicationThread {
    private static final long POLL_MICROS = 50;

    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    /** Started requests not yet complete; changed by this thread only, read by {@link #activity()} too. */
    private final Queue<Posted> posted = new ConcurrentLinkedQueue<>();

    private final Thread thread;
    /** The MPI call running now, for the message printed when the launcher ends the job; null when idle. */
    private volatile String inFlight;

    private boolean stopped;

    private record Posted(String description, Request request, CompletableFuture<Integer> done, long[] span) {}

    CommunicationThread() {
        thread = Thread.ofPlatform().daemon().name("jtorch-mpi").start(this::loop);
    }

    /** Runs {@code call} on this thread after everything queued before it; the future holds its result. */
    <T> CompletableFuture<T> submit(String description, Callable<T> call) {
        CompletableFuture<T> done = new CompletableFuture<>();
        queue.add(() -> {
            inFlight = description;
            try {
                done.complete(call.call());
            } catch (Throwable t) {
                done.completeExceptionally(t);
            } finally {
                inFlight = null;
            }
        });
        return done;
    }

    /**
     * Starts a nonblocking call (a send, a receive, an all-reduce) on this thread, in queue order; the future completes
     * with the request's source rank when MPI reports it complete, and {@code span} receives the times it was started
     * and found complete ({@link System#nanoTime()}).
     */
    CompletableFuture<Integer> post(String description, Supplier<Request> start, long[] span) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        queue.add(() -> {
            try {
                span[0] = System.nanoTime();
                posted.add(new Posted(description, start.get(), done, span));
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        return done;
    }

    /** What this thread is doing, for diagnostics: the MPI call in progress and the requests still pending. */
    String activity() {
        List<String> calls = new ArrayList<>();
        String call = inFlight;
        if (call != null) calls.add(call);
        for (Posted p : posted) if (!p.description().equals(call)) calls.add(p.description());
        return calls.isEmpty() ? null : String.join(", ", calls);
    }

    /** Ends the thread after the tasks queued so far. */
    void stop() {
        queue.add(() -> stopped = true);
    }

    boolean isCurrentThread() {
        return Thread.currentThread() == thread;
    }

    private void loop() {
        try {
            while (!stopped) {
                // While requests are pending, MPI progresses them only inside MPI calls: test them every ~50 µs,
                // parked in between rather than spinning, so that the ranks' compute threads keep the cores.
                Runnable task = posted.isEmpty() ? queue.take() : queue.poll(POLL_MICROS, TimeUnit.MICROSECONDS);
                if (task != null) task.run();
                progress();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // nobody interrupts this thread; the JVM is going down
        }
    }

    private void progress() {
        for (Iterator<Posted> it = posted.iterator(); it.hasNext(); ) {
            Posted p = it.next();
            try {
                inFlight = p.description();
                if (!Mpi.test(p.request())) continue;
                p.span()[1] = System.nanoTime();
                p.done().complete(p.request().source());
            } catch (Throwable t) {
                p.done().completeExceptionally(t);
            } finally {
                inFlight = null;
            }
            it.remove();
        }
    }
}

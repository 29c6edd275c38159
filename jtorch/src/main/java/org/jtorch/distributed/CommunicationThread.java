package org.jtorch.distributed;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
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
 * <p>Blocking collectives run to completion on this thread, overlapping the caller's computation. Sends and receives
 * are posted nonblocking and polled between tasks, so crossed send/receive pairs of two ranks cannot deadlock the
 * queue; MPI progresses them inside every other call too.
 */
final class CommunicationThread {
    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    /** Posted requests not yet complete; touched by this thread only. */
    private final List<Posted> posted = new ArrayList<>();

    private final Thread thread;
    /** The MPI call running now, for the message printed when the launcher ends the job; null when idle. */
    private volatile String inFlight;

    private boolean stopped;

    private record Posted(String description, Request request, CompletableFuture<Integer> done) {}

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
     * Posts a nonblocking send or receive on this thread, in queue order; the future completes with the request's
     * source rank when MPI reports it complete.
     */
    CompletableFuture<Integer> post(String description, Supplier<Request> start) {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        queue.add(() -> {
            try {
                posted.add(new Posted(description, start.get(), done));
            } catch (Throwable t) {
                done.completeExceptionally(t);
            }
        });
        return done;
    }

    /** What this thread is doing, for diagnostics: the MPI call in progress and the requests still pending. */
    String activity() {
        String call = inFlight;
        int requests = posted.size(); // a racy read is fine for a message
        if (call == null && requests == 0) return null;
        return (call != null ? call : "idle") + (requests == 0 ? "" : ", " + requests + " send/recv pending");
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
                Runnable task = posted.isEmpty() ? queue.take() : queue.poll(100, TimeUnit.MICROSECONDS);
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

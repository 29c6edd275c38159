package org.jtorch.distributed;

import java.lang.foreign.Arena;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntConsumer;
import org.jtorch.kernels.mpi.MpiException;

/**
 * An asynchronous collective or point-to-point call ({@code torch.distributed.Work}), returned by the {@code …Async}
 * forms. Its results are in the output tensors only after {@link #await()}: the MPI part runs on the communication
 * thread, and {@code await} copies the results back into the tensors on the calling thread.
 */
public final class Work {
    /** Copies results into the output tensors; given the source rank of a receive. */
    private final IntConsumer finish;

    private final CompletableFuture<Integer> mpi;
    private final String call;
    private final MpiWorld world;
    private final Arena buffers;
    private final long deadline;
    /** When the MPI call started and ended on the communication thread (System.nanoTime), or null. */
    private final long[] span;

    private boolean finished;
    private RuntimeException failure;
    private int sourceRank = -1;

    Work(String call, MpiWorld world, Arena buffers, CompletableFuture<Integer> mpi, IntConsumer finish, long[] span) {
        this.span = span;
        this.call = call;
        this.world = world;
        this.buffers = buffers;
        this.mpi = mpi;
        this.finish = finish;
        this.deadline = System.nanoTime() + world.timeout.toNanos();
    }

    /** A call with nothing to do (this rank is not in the group). */
    static Work completed() {
        return new Work();
    }

    private Work() {
        call = "";
        world = null;
        buffers = null;
        mpi = CompletableFuture.completedFuture(-1);
        finish = src -> {};
        deadline = 0;
        span = null;
        finished = true;
    }

    /**
     * {@code work.wait()}: blocks until the call completes and its results are in the output tensors.
     *
     * @throws DistributedException if MPI failed, or the call did not complete within the process group's timeout (a
     *     peer rank died, hangs, or issued a different collective): MPI then stays stuck in it, and every later call
     *     fails at once
     */
    public synchronized void await() {
        if (finished) {
            if (failure != null) throw failure;
            return;
        }
        finished = true;
        try {
            int source = mpi.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            finish.accept(source);
            sourceRank = source;
            closeBuffers();
        } catch (TimeoutException e) {
            // MPI may still write into the buffers: they stay allocated.
            world.markBroken(call);
            failure = new DistributedException(call + " on rank " + world.comm.rank() + " of " + world.comm.size()
                    + " timed out after " + world.timeout.toMillis() / 1000.0 + " s: a peer rank died, hangs, or "
                    + "called a different collective; the process group is unusable now (MPI cannot cancel the call)");
        } catch (ExecutionException e) {
            closeBuffers();
            failure = translate(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            world.markBroken(call);
            failure = new DistributedException(call + " on rank " + world.comm.rank() + ": interrupted while waiting");
        } catch (RuntimeException e) {
            closeBuffers();
            failure = e;
        }
        if (failure != null) throw failure;
    }

    /** Frees the staging buffers; a call that worked in the tensors' own native memory has none. */
    private void closeBuffers() {
        if (buffers != null) buffers.close();
    }

    private RuntimeException translate(Throwable cause) {
        String where = call + " failed on rank " + world.comm.rank() + " of " + world.comm.size() + ": ";
        if (cause instanceof MpiException m) return new DistributedException(where + m.errorString(), m);
        if (cause instanceof RuntimeException r) return r;
        return new DistributedException(where + cause, cause);
    }

    /**
     * How long the MPI call itself ran on the communication thread, in nanoseconds, once {@link #await()} has returned:
     * the communication time, without staging or queueing. 0 for sends, receives and calls with nothing to do.
     */
    public synchronized long communicationNanos() {
        return finished && failure == null && span != null ? span[1] - span[0] : 0;
    }

    /** When the MPI call started on the communication thread ({@link System#nanoTime()}), once awaited; else 0. */
    public synchronized long communicationStartNanos() {
        return finished && failure == null && span != null ? span[0] : 0;
    }

    /** {@code work.is_completed()}: whether the MPI part has finished (successfully or not). */
    public boolean isCompleted() {
        return mpi.isDone();
    }

    /**
     * {@code work._source_rank()}: for a completed receive, the global rank the message came from; -1 before
     * {@link #await()} and for other calls.
     */
    public synchronized int sourceRank() {
        return sourceRank;
    }
}

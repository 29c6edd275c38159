package org.jtorch.distributed;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.jtorch.Warnings;
import org.jtorch.kernels.mpi.Communicator;
import org.jtorch.kernels.mpi.Request;

/**
 * A group of ranks that communicate together ({@code torch.distributed.ProcessGroup}): the world, or one made by
 * {@link Distributed#newGroup}. Ranks given to collectives ({@code src}, {@code dst}) are global ranks, as in PyTorch,
 * and are translated to the group's own numbering here. A process outside the group holds a group object too; calls on
 * it warn and do nothing, as PyTorch's do.
 */
public final class ProcessGroup {
    private final MpiWorld world;
    /** Null on processes that are not members. */
    private final Communicator comm;

    private final List<Integer> ranks;
    private volatile boolean destroyed;

    ProcessGroup(MpiWorld world, Communicator comm, List<Integer> ranks) {
        this.world = world;
        this.comm = comm;
        this.ranks = List.copyOf(ranks);
    }

    /** This process's rank in the group, or -1 when it is not a member. */
    public int rank() {
        return comm == null ? -1 : comm.rank();
    }

    /** The number of ranks in the group. */
    public int size() {
        return ranks.size();
    }

    /** The global ranks of the members, in group-rank order. */
    public List<Integer> ranks() {
        return ranks;
    }

    /** Whether this process is a member. */
    public boolean isMember() {
        return comm != null;
    }

    @Override
    public String toString() {
        return "ProcessGroup(backend=mpi, ranks=" + ranks + ")";
    }

    // ---- for the collectives ------------------------------------------------------------------------------------

    Communicator comm() {
        return comm;
    }

    MpiWorld world() {
        return world;
    }

    void markDestroyed() {
        destroyed = true;
    }

    /** The group rank of global rank {@code global}, or a DistributedException naming the call and the argument. */
    int groupRank(String call, String argument, int global) {
        int index = ranks.indexOf(global);
        if (index < 0) {
            throw new DistributedException(
                    call + ": " + argument + " rank " + global + " is not part of the group " + ranks);
        }
        return index;
    }

    /** The global rank of group rank {@code local}. */
    int globalRank(int local) {
        return local < 0 ? local : ranks.get(local);
    }

    /**
     * Whether {@code call} should run here: false (with PyTorch's warning) on a process outside the group; throws if
     * the group was destroyed or MPI is unusable.
     */
    boolean takesPart(String call) {
        if (destroyed) throw new DistributedException(call + ": the process group has been destroyed");
        world.requireUsable(call);
        if (comm != null) return true;
        Warnings.warn("Running " + call + " on global rank " + world.comm.rank()
                + " which does not belong to the given group.");
        return false;
    }

    /** Queues a blocking MPI call and returns its Work; {@code finish} copies results back on {@code await}. */
    Work run(String call, Arena buffers, Runnable mpiCall, Runnable finish) {
        long[] span = new long[2];
        CompletableFuture<Integer> done = world.thread.submit(call, () -> {
            span[0] = System.nanoTime();
            mpiCall.run();
            span[1] = System.nanoTime();
            return -1;
        });
        return new Work(call, world, buffers, done, source -> finish.run(), span);
    }

    /** Queues a nonblocking send or receive and returns its Work; a receive's source rank becomes global. */
    Work post(String call, Arena buffers, Supplier<Request> start, IntConsumer finish) {
        CompletableFuture<Integer> done =
                world.thread.post(call, start, new long[2]).thenApply(this::globalRank);
        return new Work(call, world, buffers, done, finish, null);
    }

    /** Queues a nonblocking collective and returns its Work. */
    Work postCollective(String call, Arena buffers, Supplier<Request> start, Runnable finish) {
        long[] span = new long[2];
        CompletableFuture<Integer> done = world.thread.post(call, start, span).thenApply(source -> -1);
        return new Work(call, world, buffers, done, source -> finish.run(), span);
    }
}

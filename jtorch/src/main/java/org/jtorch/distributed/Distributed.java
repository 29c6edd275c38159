package org.jtorch.distributed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jtorch.Tensor;
import org.jtorch.kernels.mpi.Communicator;
import org.jtorch.kernels.mpi.Mpi;

/**
 * {@code torch.distributed} on Open MPI: process groups, collectives and point-to-point calls over tensors of every
 * dtype, for data-parallel training across processes and hosts.
 *
 * <p>Start the processes with {@code mpirun -np N java …} (or {@code bin/jtorch-run}); each calls
 * {@link #initProcessGroup(String) initProcessGroup("mpi")}, which takes its rank and the world size from MPI, and
 * {@link #destroyProcessGroup()} at the end. Every rank must issue the same collectives in the same order.
 *
 * <p>Each collective comes in three forms: on the default group, on a given group ({@code null} meaning the default),
 * and {@code …Async}, which returns a {@link Work} to {@link Work#await() await} ({@code async_op=True}). Ranks passed
 * as {@code src}/{@code dst} are global ranks, as in PyTorch. Inputs may be non-contiguous; outputs are written back in
 * place. Booleans, integers, float32/64 and complex64/128 are reduced by MPI; float16, bfloat16, float8 and the 16-bit
 * complex types travel as their payload and are reduced by JTorch in float32 (every rank gets the same bits).
 *
 * <p>A call that fails in MPI throws {@link DistributedException} naming the call, the rank and MPI's error string. A
 * call that does not complete within the timeout (30 minutes by default, as PyTorch's) throws too: a peer died, hangs
 * or issued a different collective. Under {@code mpirun}, a rank that dies makes the launcher end the others at once; a
 * rank ended that way while inside a call prints which call it was in.
 */
public final class Distributed {
    private Distributed() {}

    /** PyTorch's {@code default_pg_timeout}. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);

    private static final Object LOCK = new Object();
    private static volatile ProcessGroup world;
    private static final List<ProcessGroup> groups = new ArrayList<>();
    private static boolean hookInstalled;

    // ---- initialisation -----------------------------------------------------------------------------------------

    /** {@code init_process_group(backend)} with the default timeout. */
    public static void initProcessGroup(String backend) {
        initProcessGroup(backend, DEFAULT_TIMEOUT);
    }

    /**
     * {@code init_process_group(backend, timeout=timeout)}: initialises MPI (at {@code MPI_THREAD_FUNNELED}, on
     * JTorch's communication thread) and the default group of all ranks. Only {@code "mpi"} is available. The
     * {@code env://} variables {@code RANK} and {@code WORLD_SIZE}, when set, must agree with MPI's.
     *
     * @param timeout how long any call may take before it fails with {@link DistributedException}
     */
    public static void initProcessGroup(String backend, Duration timeout) {
        if (!"mpi".equals(backend)) {
            throw new DistributedException("initProcessGroup: backend " + backend + " is not available; JTorch's"
                    + " process groups run on MPI: use \"mpi\"");
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new DistributedException("initProcessGroup: timeout must be positive, got " + timeout);
        }
        synchronized (LOCK) {
            if (world != null) {
                throw new DistributedException(
                        "initProcessGroup: trying to initialize the default process group" + " twice!");
            }
            MpiWorld mpi = MpiWorld.start(timeout);
            checkEnvironment(mpi.comm);
            List<Integer> all = new ArrayList<>();
            for (int r = 0; r < mpi.comm.size(); r++) all.add(r);
            world = new ProcessGroup(mpi, mpi.comm, all);
            if (!hookInstalled) {
                hookInstalled = true;
                Runtime.getRuntime().addShutdownHook(new Thread(Distributed::reportTermination, "jtorch-mpi-exit"));
            }
        }
    }

    private static void checkEnvironment(Communicator comm) {
        String rank = System.getenv("RANK"), size = System.getenv("WORLD_SIZE");
        if (rank != null && !rank.equals(Integer.toString(comm.rank()))
                || size != null && !size.equals(Integer.toString(comm.size()))) {
            throw new DistributedException("initProcessGroup: the environment's RANK=" + rank + " WORLD_SIZE=" + size
                    + " disagree with MPI's rank " + comm.rank() + " of " + comm.size());
        }
    }

    /** Printed when the launcher ends this process (SIGTERM) while a call is in progress. */
    private static void reportTermination() {
        ProcessGroup g = world;
        String message = g == null ? null : g.world().interruptedActivity();
        if (message != null) System.err.println(message);
    }

    /** {@code is_initialized()}. */
    public static boolean isInitialized() {
        return world != null;
    }

    /** {@code is_mpi_available()}: whether Open MPI's library loads in this process. */
    public static boolean isMpiAvailable() {
        return Mpi.isAvailable();
    }

    /** {@code get_backend()}: {@code "mpi"}. */
    public static String getBackend() {
        requireWorld("getBackend");
        return "mpi";
    }

    /** {@code get_rank()}: this process's global rank. */
    public static int rank() {
        return requireWorld("rank").rank();
    }

    /** {@code get_rank(group)}: this process's rank in {@code group}, -1 when it is not a member. */
    public static int rank(ProcessGroup group) {
        return group(group, "rank").rank();
    }

    /** {@code get_world_size()}: the number of ranks. */
    public static int worldSize() {
        return requireWorld("worldSize").size();
    }

    /** {@code get_world_size(group)}. */
    public static int worldSize(ProcessGroup group) {
        return group(group, "worldSize").size();
    }

    /** {@code group.WORLD}: the default group. */
    public static ProcessGroup worldGroup() {
        return requireWorld("worldGroup");
    }

    /**
     * {@code new_group(ranks)}: a group of the given global ranks (sorted; null means all). Every rank of the world
     * must call it, members or not, in the same order as the other collectives.
     */
    public static ProcessGroup newGroup(List<Integer> ranks) {
        ProcessGroup all = requireWorld("newGroup");
        all.takesPart("newGroup");
        TreeSet<Integer> members = new TreeSet<>();
        for (Integer r : ranks == null ? all.ranks() : ranks) {
            if (r == null || r < 0 || r >= all.size()) {
                throw new DistributedException(
                        "newGroup: rank " + r + " is not a rank of the world (size " + all.size() + ")");
            }
            if (!members.add(r)) throw new DistributedException("newGroup: rank " + r + " is listed twice");
        }
        List<Integer> sorted = List.copyOf(members);
        int me = all.rank();
        MpiWorld mpi = all.world();
        Communicator comm = mpi.callAndWait(
                "newGroup", "MPI_Comm_split", () -> Mpi.split(mpi.comm, sorted.contains(me), sorted.indexOf(me)));
        ProcessGroup group = new ProcessGroup(mpi, comm, sorted);
        synchronized (LOCK) {
            groups.add(group);
        }
        return group;
    }

    /** {@code new_group(ranks)} with ranks as arguments. */
    public static ProcessGroup newGroup(int... ranks) {
        List<Integer> list = new ArrayList<>();
        for (int r : ranks) list.add(r);
        return newGroup(list);
    }

    /**
     * {@code destroy_process_group()}: frees every group, finalizes MPI and ends the communication thread. MPI cannot
     * be initialised twice in one process, so this is the end of distributed work for the process.
     */
    public static void destroyProcessGroup() {
        synchronized (LOCK) {
            ProcessGroup all = requireWorld("destroyProcessGroup");
            for (ProcessGroup g : groups) destroyGroup(g);
            groups.clear();
            all.markDestroyed();
            world = null;
            all.world().finish();
        }
    }

    /** {@code destroy_process_group(group)} for a group made by {@link #newGroup}: frees its communicator. */
    public static void destroyProcessGroup(ProcessGroup group) {
        synchronized (LOCK) {
            if (group == null || group == world) {
                destroyProcessGroup();
                return;
            }
            if (!groups.remove(group))
                throw new DistributedException("destroyProcessGroup: unknown or destroyed group");
            destroyGroup(group);
        }
    }

    private static void destroyGroup(ProcessGroup g) {
        g.markDestroyed();
        Communicator comm = g.comm();
        MpiWorld mpi = g.world();
        if (comm == null) return;
        mpi.callAndWait("destroyProcessGroup", "MPI_Comm_free", () -> {
            Mpi.free(comm);
            return null;
        });
    }

    private static ProcessGroup requireWorld(String call) {
        ProcessGroup g = world;
        if (g == null) {
            throw new DistributedException(call + ": Default process group has not been initialized, please make"
                    + " sure to call initProcessGroup.");
        }
        return g;
    }

    private static ProcessGroup group(ProcessGroup group, String call) {
        ProcessGroup all = requireWorld(call);
        return group == null ? all : group;
    }

    private static Work sync(Work work) {
        work.await();
        return work;
    }

    // ---- allReduce ----------------------------------------------------------------------------------------------

    /** {@code all_reduce(tensor, op)}: every rank's {@code tensor} becomes the reduction over all ranks. */
    public static void allReduce(Tensor tensor, ReduceOp op) {
        allReduce(tensor, op, null);
    }

    /** {@code all_reduce(tensor, op, group)}. */
    public static void allReduce(Tensor tensor, ReduceOp op, ProcessGroup group) {
        sync(allReduceAsync(tensor, op, group));
    }

    /**
     * {@code all_reduce(tensor, op, group, async_op=True)}. A heap tensor is copied to native memory for MPI at the
     * call; a contiguous tensor over native memory is reduced in place, so, as in PyTorch, it must be neither read nor
     * written until the work is awaited.
     */
    public static Work allReduceAsync(Tensor tensor, ReduceOp op, ProcessGroup group) {
        return Collectives.allReduce(group(group, "allReduce"), tensor, op);
    }

    // ---- reduce -------------------------------------------------------------------------------------------------

    /** {@code reduce(tensor, dst, op)}: rank {@code dst}'s tensor becomes the reduction; others keep theirs. */
    public static void reduce(Tensor tensor, int dst, ReduceOp op) {
        reduce(tensor, dst, op, null);
    }

    /** {@code reduce(tensor, dst, op, group)}. */
    public static void reduce(Tensor tensor, int dst, ReduceOp op, ProcessGroup group) {
        sync(reduceAsync(tensor, dst, op, group));
    }

    /** {@code reduce(tensor, dst, op, group, async_op=True)}. */
    public static Work reduceAsync(Tensor tensor, int dst, ReduceOp op, ProcessGroup group) {
        return Collectives.reduce(group(group, "reduce"), tensor, dst, op);
    }

    // ---- reduceScatter ------------------------------------------------------------------------------------------

    /** {@code reduce_scatter(output, input_list, op)}: rank r gets the reduction of every rank's {@code inputs[r]}. */
    public static void reduceScatter(Tensor output, List<Tensor> inputs, ReduceOp op) {
        reduceScatter(output, inputs, op, null);
    }

    /** {@code reduce_scatter(output, input_list, op, group)}. */
    public static void reduceScatter(Tensor output, List<Tensor> inputs, ReduceOp op, ProcessGroup group) {
        sync(reduceScatterAsync(output, inputs, op, group));
    }

    /** {@code reduce_scatter(output, input_list, op, group, async_op=True)}. */
    public static Work reduceScatterAsync(Tensor output, List<Tensor> inputs, ReduceOp op, ProcessGroup group) {
        return Collectives.reduceScatter(group(group, "reduceScatter"), output, inputs, op);
    }

    /** {@code reduce_scatter_tensor(output, input, op)}: {@code input} is the ranks' blocks back to back. */
    public static void reduceScatterTensor(Tensor output, Tensor input, ReduceOp op) {
        reduceScatterTensor(output, input, op, null);
    }

    /** {@code reduce_scatter_tensor(output, input, op, group)}. */
    public static void reduceScatterTensor(Tensor output, Tensor input, ReduceOp op, ProcessGroup group) {
        sync(reduceScatterTensorAsync(output, input, op, group));
    }

    /** {@code reduce_scatter_tensor(output, input, op, group, async_op=True)}. */
    public static Work reduceScatterTensorAsync(Tensor output, Tensor input, ReduceOp op, ProcessGroup group) {
        return Collectives.reduceScatterTensor(group(group, "reduceScatterTensor"), output, input, op);
    }

    // ---- broadcast ----------------------------------------------------------------------------------------------

    /** {@code broadcast(tensor, src)}: every rank's tensor becomes rank {@code src}'s. */
    public static void broadcast(Tensor tensor, int src) {
        broadcast(tensor, src, null);
    }

    /** {@code broadcast(tensor, src, group)}. */
    public static void broadcast(Tensor tensor, int src, ProcessGroup group) {
        sync(broadcastAsync(tensor, src, group));
    }

    /** {@code broadcast(tensor, src, group, async_op=True)}. */
    public static Work broadcastAsync(Tensor tensor, int src, ProcessGroup group) {
        return Collectives.broadcast(group(group, "broadcast"), tensor, src);
    }

    // ---- allGather ----------------------------------------------------------------------------------------------

    /** {@code all_gather(tensor_list, tensor)}: {@code outputs[r]} becomes rank r's {@code input}. */
    public static void allGather(List<Tensor> outputs, Tensor input) {
        allGather(outputs, input, null);
    }

    /** {@code all_gather(tensor_list, tensor, group)}. */
    public static void allGather(List<Tensor> outputs, Tensor input, ProcessGroup group) {
        sync(allGatherAsync(outputs, input, group));
    }

    /** {@code all_gather(tensor_list, tensor, group, async_op=True)}. */
    public static Work allGatherAsync(List<Tensor> outputs, Tensor input, ProcessGroup group) {
        return Collectives.allGather(group(group, "allGather"), outputs, input);
    }

    /** {@code all_gather_into_tensor(output, input)}: {@code output} holds the ranks' inputs back to back. */
    public static void allGatherIntoTensor(Tensor output, Tensor input) {
        allGatherIntoTensor(output, input, null);
    }

    /** {@code all_gather_into_tensor(output, input, group)}. */
    public static void allGatherIntoTensor(Tensor output, Tensor input, ProcessGroup group) {
        sync(allGatherIntoTensorAsync(output, input, group));
    }

    /** {@code all_gather_into_tensor(output, input, group, async_op=True)}. */
    public static Work allGatherIntoTensorAsync(Tensor output, Tensor input, ProcessGroup group) {
        return Collectives.allGatherIntoTensor(group(group, "allGatherIntoTensor"), output, input);
    }

    // ---- gather and scatter -------------------------------------------------------------------------------------

    /**
     * {@code gather(tensor, gather_list, dst)}: on rank {@code dst}, {@code gatherList[r]} becomes rank r's tensor;
     * other ranks pass null.
     */
    public static void gather(Tensor input, List<Tensor> gatherList, int dst) {
        gather(input, gatherList, dst, null);
    }

    /** {@code gather(tensor, gather_list, dst, group)}. */
    public static void gather(Tensor input, List<Tensor> gatherList, int dst, ProcessGroup group) {
        sync(gatherAsync(input, gatherList, dst, group));
    }

    /** {@code gather(tensor, gather_list, dst, group, async_op=True)}. */
    public static Work gatherAsync(Tensor input, List<Tensor> gatherList, int dst, ProcessGroup group) {
        return Collectives.gather(group(group, "gather"), input, gatherList, dst);
    }

    /**
     * {@code scatter(tensor, scatter_list, src)}: rank r's tensor becomes {@code scatterList[r]} of rank {@code src};
     * other ranks pass null.
     */
    public static void scatter(Tensor output, List<Tensor> scatterList, int src) {
        scatter(output, scatterList, src, null);
    }

    /** {@code scatter(tensor, scatter_list, src, group)}. */
    public static void scatter(Tensor output, List<Tensor> scatterList, int src, ProcessGroup group) {
        sync(scatterAsync(output, scatterList, src, group));
    }

    /** {@code scatter(tensor, scatter_list, src, group, async_op=True)}. */
    public static Work scatterAsync(Tensor output, List<Tensor> scatterList, int src, ProcessGroup group) {
        return Collectives.scatter(group(group, "scatter"), output, scatterList, src);
    }

    // ---- allToAll -----------------------------------------------------------------------------------------------

    /** {@code all_to_all(output_list, input_list)}: {@code inputs[r]} goes to rank r; rank r's lands in outputs[r]. */
    public static void allToAll(List<Tensor> outputs, List<Tensor> inputs) {
        allToAll(outputs, inputs, null);
    }

    /** {@code all_to_all(output_list, input_list, group)}. */
    public static void allToAll(List<Tensor> outputs, List<Tensor> inputs, ProcessGroup group) {
        sync(allToAllAsync(outputs, inputs, group));
    }

    /** {@code all_to_all(output_list, input_list, group, async_op=True)}. */
    public static Work allToAllAsync(List<Tensor> outputs, List<Tensor> inputs, ProcessGroup group) {
        return Collectives.allToAll(group(group, "allToAll"), outputs, inputs);
    }

    /** {@code all_to_all_single(output, input)} with even splits along dim 0. */
    public static void allToAllSingle(Tensor output, Tensor input) {
        allToAllSingle(output, input, null);
    }

    /** {@code all_to_all_single(output, input, group=group)}. */
    public static void allToAllSingle(Tensor output, Tensor input, ProcessGroup group) {
        sync(allToAllSingleAsync(output, input, group));
    }

    /** {@code all_to_all_single(output, input, group=group, async_op=True)}. */
    public static Work allToAllSingleAsync(Tensor output, Tensor input, ProcessGroup group) {
        return allToAllSingleAsync(output, input, null, null, group);
    }

    /**
     * {@code all_to_all_single(output, input, output_split_sizes, input_split_sizes)}: the first
     * {@code inputSplitSizes[0]} rows (along dim 0) of {@code input} go to rank 0, the next {@code inputSplitSizes[1]}
     * to rank 1, and so on; rank r's rows land in {@code outputSplitSizes[r]} rows of {@code output}, in rank order.
     * Either may be null for equal blocks. Rank r's {@code inputSplitSizes[s]} must equal rank s's
     * {@code outputSplitSizes[r]}.
     */
    public static void allToAllSingle(Tensor output, Tensor input, long[] outputSplitSizes, long[] inputSplitSizes) {
        allToAllSingle(output, input, outputSplitSizes, inputSplitSizes, null);
    }

    /** {@code all_to_all_single(output, input, output_split_sizes, input_split_sizes, group)}. */
    public static void allToAllSingle(
            Tensor output, Tensor input, long[] outputSplitSizes, long[] inputSplitSizes, ProcessGroup group) {
        sync(allToAllSingleAsync(output, input, outputSplitSizes, inputSplitSizes, group));
    }

    /** {@code all_to_all_single(output, input, output_split_sizes, input_split_sizes, group, async_op=True)}. */
    public static Work allToAllSingleAsync(
            Tensor output, Tensor input, long[] outputSplitSizes, long[] inputSplitSizes, ProcessGroup group) {
        return Collectives.allToAllSingle(
                group(group, "allToAllSingle"),
                output,
                input,
                outputSplitSizes == null ? null : outputSplitSizes.clone(),
                inputSplitSizes == null ? null : inputSplitSizes.clone());
    }

    // ---- barrier ------------------------------------------------------------------------------------------------

    /** {@code barrier()}: returns when every rank has entered it. */
    public static void barrier() {
        barrier(null);
    }

    /** {@code barrier(group)}. */
    public static void barrier(ProcessGroup group) {
        sync(barrierAsync(group));
    }

    /** {@code barrier(group, async_op=True)}. */
    public static Work barrierAsync(ProcessGroup group) {
        return Collectives.barrier(group(group, "barrier"));
    }

    // ---- point to point -----------------------------------------------------------------------------------------

    /** {@code send(tensor, dst)}: blocks until the tensor has been handed to MPI and sent. */
    public static void send(Tensor tensor, int dst) {
        sync(isend(tensor, dst, null, 0));
    }

    /** {@code isend(tensor, dst)}. */
    public static Work isend(Tensor tensor, int dst) {
        return isend(tensor, dst, null, 0);
    }

    /** {@code isend(tensor, dst, group, tag)}; tags are 0..32767. */
    public static Work isend(Tensor tensor, int dst, ProcessGroup group, int tag) {
        return Collectives.send(group(group, "send"), tensor, dst, tag);
    }

    /**
     * {@code recv(tensor, src)}: fills {@code tensor} with a message from global rank {@code src}, or from any rank
     * when {@code src} is null; returns the sender's global rank. A longer message than the tensor fails.
     */
    public static int recv(Tensor tensor, Integer src) {
        return recv(tensor, src, null, 0);
    }

    /** {@code recv(tensor, src, group, tag)}. */
    public static int recv(Tensor tensor, Integer src, ProcessGroup group, int tag) {
        return sync(irecv(tensor, src, group, tag)).sourceRank();
    }

    /** {@code irecv(tensor, src)}. */
    public static Work irecv(Tensor tensor, Integer src) {
        return irecv(tensor, src, null, 0);
    }

    /** {@code irecv(tensor, src, group, tag)}. */
    public static Work irecv(Tensor tensor, Integer src, ProcessGroup group, int tag) {
        return Collectives.recv(group(group, "recv"), tensor, src, tag);
    }
}

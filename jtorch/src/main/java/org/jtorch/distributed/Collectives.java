package org.jtorch.distributed;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.kernels.mpi.Communicator;
import org.jtorch.kernels.mpi.Mpi;
import org.jtorch.kernels.mpi.MpiDatatype;
import org.jtorch.kernels.mpi.Staging;

/**
 * The collectives and point-to-point calls of {@link Distributed}, each as a {@link Work}: arguments are checked and
 * inputs staged on the calling thread, the MPI call is queued on the communication thread, and results are copied back
 * (and, for dtypes MPI cannot reduce, reduced) when the work is awaited.
 */
final class Collectives {
    private Collectives() {}

    // ---- reductions ---------------------------------------------------------------------------------------------

    static Work allReduce(ProcessGroup g, Tensor t, ReduceOp op) {
        String call = "allReduce";
        checkTensor(call, "tensor", t);
        Reductions.check(call, op, t.dtype());
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        MpiDatatype type = Reductions.mpiType(t.dtype());
        MemorySegment own = type == null ? null : Buffers.nativeMemory(t);
        if (own != null) {
            // Native memory does not move: MPI reduces it in place, with no staging copy and no buffer to free.
            return g.postCollective(
                    call,
                    null,
                    () -> Mpi.iallreduceInPlace(comm, own, t.numel(), type, Reductions.mpiOp(op, t.dtype())),
                    () -> finishInPlace(t, op, comm.size()));
        }
        Arena arena = Arena.ofShared();
        MemorySegment buffer = Buffers.stage(arena, List.of(t));
        if (type != null) {
            return g.postCollective(
                    call,
                    arena,
                    () -> Mpi.iallreduceInPlace(comm, buffer, t.numel(), type, Reductions.mpiOp(op, t.dtype())),
                    () -> finishReduction(buffer, 0, t, op, comm.size()));
        }
        MemorySegment gathered = Buffers.allocate(arena, Buffers.bytes(t) * comm.size());
        return g.run(
                call,
                arena,
                () -> Mpi.allgather(comm, buffer, Buffers.slots(t), Staging.slotType(t.dtype()), gathered),
                () -> Buffers.writeBack(reduceGathered(gathered, t, op, comm.size()), t));
    }

    static Work reduce(ProcessGroup g, Tensor t, int dst, ReduceOp op) {
        String call = "reduce";
        checkTensor(call, "tensor", t);
        Reductions.check(call, op, t.dtype());
        if (!g.takesPart(call)) return Work.completed();
        int root = g.groupRank(call, "dst", dst);
        Communicator comm = g.comm();
        boolean isRoot = comm.rank() == root;
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, List.of(t));
        MpiDatatype type = Reductions.mpiType(t.dtype());
        if (type != null) {
            MemorySegment recv = isRoot ? Buffers.allocate(arena, Buffers.bytes(t)) : null;
            return g.run(
                    call,
                    arena,
                    () -> Mpi.reduce(comm, send, recv, t.numel(), type, Reductions.mpiOp(op, t.dtype()), root),
                    () -> {
                        if (isRoot) finishReduction(recv, 0, t, op, comm.size());
                    });
        }
        MemorySegment gathered = isRoot ? Buffers.allocate(arena, Buffers.bytes(t) * comm.size()) : null;
        return g.run(
                call,
                arena,
                () -> Mpi.gather(comm, send, Buffers.slots(t), Staging.slotType(t.dtype()), gathered, root),
                () -> {
                    if (isRoot) Buffers.writeBack(reduceGathered(gathered, t, op, comm.size()), t);
                });
    }

    /** {@code reduce_scatter}: rank r receives the reduction of every rank's {@code inputs.get(r)}. */
    static Work reduceScatter(ProcessGroup g, Tensor output, List<Tensor> inputs, ReduceOp op) {
        String call = "reduceScatter";
        checkTensor(call, "output", output);
        checkList(call, "input_list", inputs, g.size(), output);
        Reductions.check(call, op, output.dtype());
        if (!g.takesPart(call)) return Work.completed();
        return reduceScatterStaged(g, call, output, inputs, op);
    }

    /** {@code reduce_scatter_tensor}: {@code input} is the ranks' blocks back to back (size × output's elements). */
    static Work reduceScatterTensor(ProcessGroup g, Tensor output, Tensor input, ReduceOp op) {
        String call = "reduceScatterTensor";
        checkTensor(call, "output", output);
        checkTensor(call, "input", input);
        checkSameDtype(call, "input", input, output);
        if (input.numel() != output.numel() * g.size()) {
            throw new DistributedException(call + ": input tensor must be the same size as output size times world"
                    + " size (" + input.numel() + " elements vs " + output.numel() + " × " + g.size() + ")");
        }
        Reductions.check(call, op, output.dtype());
        if (!g.takesPart(call)) return Work.completed();
        return reduceScatterStaged(g, call, output, List.of(input), op);
    }

    private static Work reduceScatterStaged(
            ProcessGroup g, String call, Tensor output, List<Tensor> inputs, ReduceOp op) {
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, inputs);
        MpiDatatype type = Reductions.mpiType(output.dtype());
        if (type != null) {
            MemorySegment recv = Buffers.allocate(arena, Buffers.bytes(output));
            return g.run(
                    call,
                    arena,
                    () -> Mpi.reduceScatterBlock(
                            comm, send, recv, output.numel(), type, Reductions.mpiOp(op, output.dtype())),
                    () -> finishReduction(recv, 0, output, op, comm.size()));
        }
        // Every rank's whole input, then this rank's block reduced here.
        MemorySegment gathered = Buffers.allocate(arena, Buffers.bytes(output) * comm.size() * comm.size());
        return g.run(
                call,
                arena,
                () -> Mpi.allgather(
                        comm, send, Buffers.slots(output) * comm.size(), Staging.slotType(output.dtype()), gathered),
                () -> {
                    long n = output.numel();
                    Tensor everything =
                            Buffers.read(gathered, 0, new long[] {comm.size(), comm.size(), n}, output.dtype());
                    Tensor mine = everything.select(1, comm.rank());
                    Buffers.writeBack(
                            Reductions.reduceLocally(mine, op, comm.size()).view(output.shape()), output);
                });
    }

    private static void finishReduction(MemorySegment buffer, long offset, Tensor t, ReduceOp op, int size) {
        if (op != ReduceOp.AVG) {
            Buffers.writeBack(buffer, offset, t);
            return;
        }
        Tensor sum = Buffers.read(buffer, offset, t.shape(), t.dtype());
        Buffers.writeBack(Reductions.average(sum, size), t);
    }

    /** Completes an all-reduce done in the tensor's own memory: records the write, and averages for AVG. */
    private static void finishInPlace(Tensor t, ReduceOp op, int size) {
        t.impl().bumpVersion();
        if (op == ReduceOp.AVG) Buffers.writeBack(Reductions.average(t.clone(), size), t);
    }

    private static Tensor reduceGathered(MemorySegment gathered, Tensor t, ReduceOp op, int size) {
        Tensor stacked = Buffers.read(gathered, 0, new long[] {size, t.numel()}, t.dtype());
        return Reductions.reduceLocally(stacked, op, size).view(t.shape());
    }

    // ---- data movement ------------------------------------------------------------------------------------------

    static Work broadcast(ProcessGroup g, Tensor t, int src) {
        String call = "broadcast";
        checkTensor(call, "tensor", t);
        if (!g.takesPart(call)) return Work.completed();
        int root = g.groupRank(call, "src", src);
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment buffer =
                comm.rank() == root ? Buffers.stage(arena, List.of(t)) : Buffers.allocate(arena, Buffers.bytes(t));
        return g.run(
                call,
                arena,
                () -> Mpi.bcast(comm, buffer, Buffers.slots(t), Staging.slotType(t.dtype()), root),
                () -> Buffers.writeBack(buffer, 0, t));
    }

    static Work allGather(ProcessGroup g, List<Tensor> outputs, Tensor input) {
        String call = "allGather";
        checkTensor(call, "tensor", input);
        checkList(call, "tensor_list", outputs, g.size(), input);
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, List.of(input));
        MemorySegment recv = Buffers.allocate(arena, Buffers.bytes(input) * comm.size());
        return g.run(
                call,
                arena,
                () -> Mpi.allgather(comm, send, Buffers.slots(input), Staging.slotType(input.dtype()), recv),
                () -> writeBackAll(recv, outputs));
    }

    /** {@code all_gather_into_tensor}: {@code output} holds the ranks' inputs back to back. */
    static Work allGatherIntoTensor(ProcessGroup g, Tensor output, Tensor input) {
        String call = "allGatherIntoTensor";
        checkTensor(call, "output", output);
        checkTensor(call, "input", input);
        checkSameDtype(call, "output", output, input);
        if (output.numel() != input.numel() * g.size()) {
            throw new DistributedException(call + ": output tensor size must be equal to world_size times input tensor"
                    + " size (" + output.numel() + " elements vs " + input.numel() + " × " + g.size() + ")");
        }
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, List.of(input));
        MemorySegment recv = Buffers.allocate(arena, Buffers.bytes(output));
        return g.run(
                call,
                arena,
                () -> Mpi.allgather(comm, send, Buffers.slots(input), Staging.slotType(input.dtype()), recv),
                () -> Buffers.writeBack(recv, 0, output));
    }

    /** {@code gather}: {@code gatherList} is given on {@code dst} only (one tensor per rank), null elsewhere. */
    static Work gather(ProcessGroup g, Tensor input, List<Tensor> gatherList, int dst) {
        String call = "gather";
        checkTensor(call, "tensor", input);
        if (!g.takesPart(call)) return Work.completed();
        int root = g.groupRank(call, "dst", dst);
        Communicator comm = g.comm();
        boolean isRoot = comm.rank() == root;
        checkRootList(call, "gather_list", gatherList, isRoot, g.size(), input);
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, List.of(input));
        MemorySegment recv = isRoot ? Buffers.allocate(arena, Buffers.bytes(input) * comm.size()) : null;
        return g.run(
                call,
                arena,
                () -> Mpi.gather(comm, send, Buffers.slots(input), Staging.slotType(input.dtype()), recv, root),
                () -> {
                    if (isRoot) writeBackAll(recv, gatherList);
                });
    }

    /** {@code scatter}: {@code scatterList} is given on {@code src} only (one tensor per rank), null elsewhere. */
    static Work scatter(ProcessGroup g, Tensor output, List<Tensor> scatterList, int src) {
        String call = "scatter";
        checkTensor(call, "tensor", output);
        if (!g.takesPart(call)) return Work.completed();
        int root = g.groupRank(call, "src", src);
        Communicator comm = g.comm();
        boolean isRoot = comm.rank() == root;
        checkRootList(call, "scatter_list", scatterList, isRoot, g.size(), output);
        Arena arena = Arena.ofShared();
        MemorySegment send = isRoot ? Buffers.stage(arena, scatterList) : null;
        MemorySegment recv = Buffers.allocate(arena, Buffers.bytes(output));
        return g.run(
                call,
                arena,
                () -> Mpi.scatter(comm, send, recv, Buffers.slots(output), Staging.slotType(output.dtype()), root),
                () -> Buffers.writeBack(recv, 0, output));
    }

    /**
     * {@code all_to_all}: {@code inputs.get(r)} goes to rank r, and rank r's block for this rank lands in
     * {@code outputs.get(r)}; sizes may differ per pair, dtypes may not.
     */
    static Work allToAll(ProcessGroup g, List<Tensor> outputs, List<Tensor> inputs) {
        String call = "allToAll";
        checkLists(call, outputs, inputs, g.size());
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, inputs);
        long[] sendCounts = slotCounts(inputs);
        long[] recvCounts = slotCounts(outputs);
        long recvBytes = 0;
        for (Tensor t : outputs) recvBytes += Buffers.bytes(t);
        MemorySegment recv = Buffers.allocate(arena, recvBytes);
        MpiDatatype type = Staging.slotType(inputs.getFirst().dtype());
        return g.run(
                call,
                arena,
                () -> Mpi.alltoallv(
                        comm, send, sendCounts, offsets(sendCounts), recv, recvCounts, offsets(recvCounts), type),
                () -> writeBackAll(recv, outputs));
    }

    /**
     * {@code all_to_all_single}: {@code input} is cut along dim 0 into blocks of {@code inputSplits} rows (equal blocks
     * when null) and block r goes to rank r; rank r's block lands in the {@code outputSplits[r]} rows of {@code output}
     * (equal when null), in rank order.
     */
    static Work allToAllSingle(ProcessGroup g, Tensor output, Tensor input, long[] outputSplits, long[] inputSplits) {
        String call = "allToAllSingle";
        checkTensor(call, "output", output);
        checkTensor(call, "input", input);
        checkSameDtype(call, "output", output, input);
        if (outputSplits == null && inputSplits == null && output.numel() != input.numel()) {
            throw new DistributedException(
                    call + ": without split sizes, output must have as many elements as input" + " (input "
                            + Arrays.toString(input.shape()) + ", output " + Arrays.toString(output.shape()) + ")");
        }
        long[] sendCounts = rowSlotCounts(call, "input", input, inputSplits, g.size());
        long[] recvCounts = rowSlotCounts(call, "output", output, outputSplits, g.size());
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        Arena arena = Arena.ofShared();
        MemorySegment send = Buffers.stage(arena, List.of(input));
        MemorySegment recv = Buffers.allocate(arena, Buffers.bytes(output));
        long[] sendOffsets = offsets(sendCounts), recvOffsets = offsets(recvCounts);
        return g.run(
                call,
                arena,
                () -> Mpi.alltoallv(
                        comm,
                        send,
                        sendCounts,
                        sendOffsets,
                        recv,
                        recvCounts,
                        recvOffsets,
                        Staging.slotType(input.dtype())),
                () -> Buffers.writeBack(recv, 0, output));
    }

    /**
     * MPI's element counts of the blocks of {@code t} along dim 0: {@code splits[r]} rows each, or equal blocks when
     * {@code splits} is null, as c10d's {@code checkSplitSizes} and {@code computeLengthsAndOffsets}.
     */
    private static long[] rowSlotCounts(String call, String name, Tensor t, long[] splits, int groupSize) {
        if (t.dim() == 0) throw new DistributedException(call + ": " + name + " must have a dimension to split");
        long rows = t.size(0);
        long rowSlots = rows == 0 ? 0 : Buffers.slots(t) / rows;
        long[] counts = new long[groupSize];
        if (splits == null) {
            if (rows % groupSize != 0) {
                throw new DistributedException(call + ": " + name + "'s dim 0 (" + rows + ") does not divide equally"
                        + " across the group's size " + groupSize + "; give split sizes for uneven blocks");
            }
            Arrays.fill(counts, rows / groupSize * rowSlots);
            return counts;
        }
        if (splits.length != groupSize) {
            throw new DistributedException(call + ": " + name + " has " + splits.length + " split sizes, but the"
                    + " group has " + groupSize + " ranks");
        }
        long sum = 0;
        for (int r = 0; r < groupSize; r++) {
            if (splits[r] < 0) {
                throw new DistributedException(
                        call + ": " + name + "'s split sizes must not be negative, got " + Arrays.toString(splits));
            }
            sum += splits[r];
            counts[r] = splits[r] * rowSlots;
        }
        if (sum != rows) {
            throw new DistributedException(call + ": " + name + "'s split sizes " + Arrays.toString(splits) + " add"
                    + " up to " + sum + ", not its dim 0 size " + rows);
        }
        return counts;
    }

    static Work barrier(ProcessGroup g) {
        String call = "barrier";
        if (!g.takesPart(call)) return Work.completed();
        Communicator comm = g.comm();
        return g.run(call, Arena.ofShared(), () -> Mpi.barrier(comm), () -> {});
    }

    // ---- point to point -----------------------------------------------------------------------------------------

    static Work send(ProcessGroup g, Tensor t, int dst, int tag) {
        String call = "send";
        checkTensor(call, "tensor", t);
        if (!g.takesPart(call)) return Work.completed();
        int peer = g.groupRank(call, "dst", dst);
        Communicator comm = g.comm();
        if (peer == comm.rank())
            throw new DistributedException(
                    "send: invalid destination rank: should not be the" + " same as the rank of the current process");
        Arena arena = Arena.ofShared();
        MemorySegment buffer = Buffers.stage(arena, List.of(t));
        return g.post(
                call + " to " + dst,
                arena,
                () -> Mpi.isend(comm, buffer, Buffers.slots(t), Staging.slotType(t.dtype()), peer, tag),
                source -> {});
    }

    /** {@code recv} from global rank {@code src}, or from any rank when {@code src} is null. */
    static Work recv(ProcessGroup g, Tensor t, Integer src, int tag) {
        String call = "recv";
        checkTensor(call, "tensor", t);
        if (!g.takesPart(call)) return Work.completed();
        int peer = src == null ? Mpi.ANY_SOURCE : g.groupRank(call, "src", src);
        Communicator comm = g.comm();
        if (peer == comm.rank())
            throw new DistributedException(
                    "recv: invalid source rank: should not be the" + " same as the rank of the current process");
        Arena arena = Arena.ofShared();
        MemorySegment buffer = Buffers.allocate(arena, Buffers.bytes(t));
        return g.post(
                call + (src == null ? " from any rank" : " from " + src),
                arena,
                () -> Mpi.irecv(comm, buffer, Buffers.slots(t), Staging.slotType(t.dtype()), peer, tag),
                source -> Buffers.writeBack(buffer, 0, t));
    }

    // ---- checks and layout --------------------------------------------------------------------------------------

    private static void checkTensor(String call, String name, Tensor t) {
        if (t == null) throw new DistributedException(call + ": " + name + " must not be null");
        if (!t.device().equals(Device.CPU) || !t.impl().hasData()) {
            throw new DistributedException(call + ": " + name + " must be a CPU tensor with data (the mpi backend"
                    + " runs on CPU memory), got one on " + t.device());
        }
    }

    private static void checkSameDtype(String call, String name, Tensor t, Tensor reference) {
        if (t.dtype() != reference.dtype()) {
            throw new DistributedException(
                    call + ": " + name + " has dtype " + t.dtype() + ", expected " + reference.dtype());
        }
    }

    /** A list of {@code size} tensors each of {@code like}'s dtype and element count. */
    private static void checkList(String call, String name, List<Tensor> list, int size, Tensor like) {
        if (list == null || list.size() != size) {
            throw new DistributedException(call + ": " + name + " must hold one tensor per rank of the group (" + size
                    + "), got " + (list == null ? "null" : list.size()));
        }
        for (int i = 0; i < list.size(); i++) {
            Tensor t = list.get(i);
            checkTensor(call, name + "[" + i + "]", t);
            checkSameDtype(call, name + "[" + i + "]", t, like);
            if (t.numel() != like.numel()) {
                throw new DistributedException(call + ": " + name + "[" + i + "] has " + t.numel()
                        + " elements, expected " + like.numel() + " (tensor sizes must match across the list)");
            }
        }
    }

    private static void checkRootList(
            String call, String name, List<Tensor> list, boolean isRoot, int size, Tensor like) {
        if (isRoot) {
            checkList(call, name, list, size, like);
        } else if (list != null && !list.isEmpty()) {
            throw new DistributedException(
                    call + ": Argument ``" + name + "`` must NOT be specified on" + " non-root ranks.");
        }
    }

    private static void checkLists(String call, List<Tensor> outputs, List<Tensor> inputs, int size) {
        if (outputs == null || inputs == null || outputs.size() != size || inputs.size() != size) {
            throw new DistributedException(call + ": output_tensor_list and input_tensor_list must each hold one"
                    + " tensor per rank of the group (" + size + ")");
        }
        DType dtype = inputs.getFirst() == null ? null : inputs.getFirst().dtype();
        for (int i = 0; i < size; i++) {
            checkTensor(call, "input_tensor_list[" + i + "]", inputs.get(i));
            checkTensor(call, "output_tensor_list[" + i + "]", outputs.get(i));
            if (inputs.get(i).dtype() != dtype || outputs.get(i).dtype() != dtype) {
                throw new DistributedException(call + ": every tensor must have dtype " + dtype);
            }
        }
    }

    private static void writeBackAll(MemorySegment buffer, List<Tensor> outputs) {
        long offset = 0;
        for (Tensor t : outputs) {
            Buffers.writeBack(buffer, offset, t);
            offset += Buffers.bytes(t);
        }
    }

    private static long[] slotCounts(List<Tensor> tensors) {
        long[] counts = new long[tensors.size()];
        for (int i = 0; i < counts.length; i++) counts[i] = Buffers.slots(tensors.get(i));
        return counts;
    }

    private static long[] offsets(long[] counts) {
        long[] offsets = new long[counts.length];
        for (int i = 1; i < counts.length; i++) offsets[i] = offsets[i - 1] + counts[i - 1];
        return offsets;
    }
}

package org.jtorch.distributed;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.jtorch.DType;
import org.jtorch.RoundingMode;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * Run under {@code mpirun -np N} by {@link MpiLaunchTest}: every collective and point-to-point call, on every dtype,
 * against a reference each rank computes locally from every rank's input (inputs are a pure function of rank and
 * dtype). Prints one line per rank at the end and exits 1 at the first mismatch.
 */
public final class CollectivesCheck {
    private CollectivesCheck() {}

    private static final long N = 6;
    private static int checks;

    public static void main(String[] args) {
        Distributed.initProcessGroup("mpi", Duration.ofSeconds(60));
        int rank = Distributed.rank(), size = Distributed.worldSize();
        try {
            for (DType dtype : DType.values()) {
                allReduceAndReduce(dtype, rank, size);
                movement(dtype, rank, size);
                allToAllSingleUneven(dtype, rank, size);
                reduceScatter(dtype, rank, size);
            }
            pointToPoint(rank, size);
            groups(rank, size);
            errors(rank, size);
            Distributed.barrier();
        } catch (Throwable t) {
            System.out.println("FAILED on rank " + rank + ": " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }
        System.out.println("collectives: " + checks + " checks passed on rank " + rank + " of " + size);
        Distributed.destroyProcessGroup();
    }

    /** Rank {@code r}'s input of {@code n} elements: small integers, exact in every dtype (powers of two for e8m0). */
    static Tensor input(int r, DType dtype, long n) {
        Tensor i = Torch.arange(n, DType.FLOAT64);
        if (dtype == DType.FLOAT8_E8M0FNU) {
            return Torch.pow(2.0, i.add(r).remainder(5).sub(2)).to(dtype);
        }
        Tensor re = i.mul(7).add(3 * r).remainder(7).sub(3);
        if (dtype == DType.BOOL || !dtype.isSigned()) re = re.abs();
        if (!dtype.isComplex()) return re.to(dtype);
        Tensor im = i.mul(5).add(r).remainder(5).sub(2);
        return Torch.complex(re, im).to(dtype);
    }

    /** A copy of a contiguous tensor over native memory, as memory-mapped tensors and DDP's buckets are. */
    private static Tensor inNativeMemory(Tensor t) {
        long bytes = t.numel() * t.dtype().itemSize();
        MemorySegment memory = Arena.ofAuto().allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
        MemorySegment.copy(t.contiguous().impl().storage().segment(), 0, memory, 0, bytes);
        return Tensor.of(
                TensorImpl.contiguous(Storage.ofSegment(t.dtype().storageKind(), memory), t.shape(), t.dtype()));
    }

    private static Tensor wide(Tensor t) {
        return t.to(t.dtype().isComplex() ? DType.COMPLEX128 : DType.FLOAT64);
    }

    /** The reduction over ranks computed in float64/complex128 from every rank's input, in {@code dtype}. */
    static Tensor reference(IntFunction<Tensor> inputOf, int size, ReduceOp op, DType dtype) {
        List<Tensor> all = new ArrayList<>();
        for (int r = 0; r < size; r++) all.add(wide(inputOf.apply(r)));
        Tensor s = Torch.stack(all);
        Tensor result =
                switch (op) {
                    case SUM -> s.sum(0);
                    case AVG ->
                        dtype.isFloatingPoint() || dtype.isComplex()
                                ? s.sum(0).div((long) size)
                                : s.sum(0).div((Object) (long) size, RoundingMode.TRUNC);
                    case PRODUCT -> s.prod(0);
                    case MIN -> s.amin(0);
                    case MAX -> s.amax(0);
                };
        if (dtype == DType.BOOL) result = result.ne(0);
        return result.to(dtype);
    }

    private static void allReduceAndReduce(DType dtype, int rank, int size) {
        for (ReduceOp op : ReduceOp.values()) {
            boolean refused = dtype.isComplex() && (op == ReduceOp.MIN || op == ReduceOp.MAX)
                    || dtype == DType.BOOL && op == ReduceOp.AVG;
            Tensor mine = input(rank, dtype, N);
            if (refused) {
                expectFailure("allReduce " + op + " " + dtype, () -> Distributed.allReduce(mine, op));
                continue;
            }
            Tensor expected = reference(r -> input(r, dtype, N), size, op, dtype);
            Distributed.allReduce(mine, op);
            assertClose("allReduce " + op + " " + dtype, expected, mine);

            // Non-contiguous: a transposed 2 × 3 view, written back through its strides.
            Tensor base = input(rank, dtype, N).view(3, 2);
            Tensor view = base.t();
            Tensor expectedView = reference(r -> input(r, dtype, N).view(3, 2).t(), size, op, dtype);
            Distributed.allReduceAsync(view, op, null).await();
            assertClose("allReduce (non-contiguous) " + op + " " + dtype, expectedView, view);

            // Native memory, reduced in place without staging: a slice at an offset of a larger native tensor.
            Tensor outer = inNativeMemory(Torch.cat(List.of(input(rank, dtype, 2), input(rank, dtype, N))));
            Tensor slice = outer.narrow(0, 2, N);
            int version = slice.version();
            Distributed.allReduceAsync(slice, op, null).await();
            assertClose("allReduce (native memory) " + op + " " + dtype, expected, slice);
            assertClose(
                    "allReduce (native memory) leaves the rest " + dtype, input(rank, dtype, 2), outer.narrow(0, 0, 2));
            if (slice.version() == version) throw new AssertionError("an in-place all-reduce must bump the version");

            int dst = size - 1;
            Tensor reduced = input(rank, dtype, N);
            Distributed.reduce(reduced, dst, op);
            assertClose("reduce " + op + " " + dtype, rank == dst ? expected : input(rank, dtype, N), reduced);
        }
    }

    private static void movement(DType dtype, int rank, int size) {
        int src = size - 1;
        Tensor b = input(rank, dtype, N);
        Distributed.broadcast(b, src);
        assertClose("broadcast " + dtype, input(src, dtype, N), b);

        List<Tensor> gathered = new ArrayList<>();
        for (int r = 0; r < size; r++) gathered.add(Torch.zeros(N).to(dtype));
        Distributed.allGather(gathered, input(rank, dtype, N));
        for (int r = 0; r < size; r++)
            assertClose("allGather[" + r + "] " + dtype, input(r, dtype, N), gathered.get(r));

        Tensor into = Torch.zeros(size, N).to(dtype);
        Distributed.allGatherIntoTensor(into, input(rank, dtype, N));
        for (int r = 0; r < size; r++)
            assertClose("allGatherIntoTensor " + dtype, input(r, dtype, N), into.select(0, r));

        int dst = 1 % size;
        List<Tensor> gatherList = null;
        if (rank == dst) {
            gatherList = new ArrayList<>();
            for (int r = 0; r < size; r++) gatherList.add(Torch.zeros(N).to(dtype));
        }
        Distributed.gather(input(rank, dtype, N), gatherList, dst);
        if (rank == dst) {
            for (int r = 0; r < size; r++) assertClose("gather " + dtype, input(r, dtype, N), gatherList.get(r));
        }

        List<Tensor> scatterList = null;
        if (rank == 0) {
            scatterList = new ArrayList<>();
            for (int r = 0; r < size; r++) scatterList.add(input(r + 10, dtype, N));
        }
        Tensor scattered = Torch.zeros(N).to(dtype);
        Distributed.scatter(scattered, scatterList, 0);
        assertClose("scatter " + dtype, input(rank + 10, dtype, N), scattered);

        // allToAll with a different size per pair: rank i sends (i + j + 1) elements to rank j.
        List<Tensor> outs = new ArrayList<>(), ins = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            ins.add(input(100 * rank + r, dtype, rank + r + 1));
            outs.add(Torch.zeros(r + rank + 1).to(dtype));
        }
        Distributed.allToAll(outs, ins);
        for (int r = 0; r < size; r++) {
            assertClose("allToAll " + dtype, input(100 * r + rank, dtype, r + rank + 1), outs.get(r));
        }

        Tensor single = Torch.zeros(size * 2L).to(dtype);
        Distributed.allToAllSingle(single, input(rank, dtype, size * 2L));
        for (int r = 0; r < size; r++) {
            assertClose(
                    "allToAllSingle " + dtype,
                    input(r, dtype, size * 2L).narrow(0, 2L * rank, 2),
                    single.narrow(0, 2L * r, 2));
        }
    }

    /** Rank {@code src}'s rows for rank {@code dst} in the uneven allToAllSingle: 0, 1 or 2 rows of 2 columns. */
    private static long unevenRows(int src, int dst) {
        return (src + 2L * dst) % 3;
    }

    private static Tensor unevenBlock(int src, int dst, DType dtype) {
        return input(3 * src + dst, dtype, 2 * unevenRows(src, dst)).view(unevenRows(src, dst), 2);
    }

    /** {@code all_to_all_single} with split sizes (some zero), into a non-contiguous output. */
    private static void allToAllSingleUneven(DType dtype, int rank, int size) {
        long[] inSplits = new long[size], outSplits = new long[size];
        List<Tensor> mine = new ArrayList<>(), expected = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            inSplits[r] = unevenRows(rank, r);
            outSplits[r] = unevenRows(r, rank);
            mine.add(unevenBlock(rank, r, dtype));
            expected.add(unevenBlock(r, rank, dtype));
        }
        long outRows = java.util.Arrays.stream(outSplits).sum();
        Tensor output = Torch.zeros(new long[] {2, outRows}, dtype, org.jtorch.Device.CPU)
                .t();
        Distributed.allToAllSingle(output, Torch.cat(mine, 0), outSplits, inSplits);
        assertClose("allToAllSingle with split sizes " + dtype, Torch.cat(expected, 0), output.contiguous());

        // Split sizes on one side only: equal blocks of one row on the other.
        Tensor evenIn = input(rank, dtype, 2L * size).view(size, 2);
        Tensor evenOut = Torch.zeros(new long[] {size, 2}, dtype, org.jtorch.Device.CPU);
        long[] ones = new long[size];
        java.util.Arrays.fill(ones, 1);
        Distributed.allToAllSingle(evenOut, evenIn, ones, null);
        for (int r = 0; r < size; r++) {
            assertClose(
                    "allToAllSingle, output split sizes only " + dtype,
                    input(r, dtype, 2L * size).view(size, 2).narrow(0, rank, 1),
                    evenOut.narrow(0, r, 1));
        }
    }

    private static void reduceScatter(DType dtype, int rank, int size) {
        for (ReduceOp op : ReduceOp.values()) {
            if (dtype.isComplex() && (op == ReduceOp.MIN || op == ReduceOp.MAX)
                    || dtype == DType.BOOL && op == ReduceOp.AVG) continue;
            IntFunction<Tensor> whole = r -> input(r, dtype, N * size);
            Tensor expected = reference(whole, size, op, dtype).narrow(0, N * rank, N);
            Tensor out = Torch.zeros(N).to(dtype);
            Distributed.reduceScatterTensor(out, whole.apply(rank), op);
            assertClose("reduceScatterTensor " + op + " " + dtype, expected, out);

            List<Tensor> parts = new ArrayList<>();
            for (int r = 0; r < size; r++) parts.add(whole.apply(rank).narrow(0, N * r, N));
            Tensor out2 = Torch.zeros(N).to(dtype);
            Distributed.reduceScatter(out2, parts, op);
            assertClose("reduceScatter " + op + " " + dtype, expected, out2);
        }
    }

    private static void pointToPoint(int rank, int size) {
        // A ring, every rank sending and receiving at once: crossed pairs must not deadlock.
        for (DType dtype : DType.values()) {
            int next = (rank + 1) % size, prev = (rank + size - 1) % size;
            Work sent = Distributed.isend(input(rank, dtype, 1 << 16), next, null, 3);
            Tensor got = Torch.zeros(1 << 16).to(dtype);
            int from = Distributed.recv(got, prev, null, 3);
            sent.await();
            assertClose("send/recv " + dtype, input(prev, dtype, 1 << 16), got);
            if (from != prev) throw new AssertionError("recv reported source " + from + ", expected " + prev);
        }
        if (rank == 0) {
            for (int r = 1; r < size; r++) Distributed.send(input(r, DType.INT64, 4), r);
        } else {
            Tensor got = Torch.zeros(4).to(DType.INT64);
            int from = Distributed.recv(got, null);
            assertClose("recv from any source", input(rank, DType.INT64, 4), got);
            if (from != 0) throw new AssertionError("recv from any source reported " + from);
        }
    }

    private static void groups(int rank, int size) {
        ProcessGroup ends = Distributed.newGroup(0, size - 1);
        Tensor t = input(rank, DType.FLOAT32, N);
        Distributed.allReduce(t, ReduceOp.SUM, ends);
        if (ends.isMember()) {
            Tensor expected = input(0, DType.FLOAT32, N).add(input(size - 1, DType.FLOAT32, N));
            assertClose("allReduce in group", expected, t);
            Tensor b = input(rank, DType.INT32, N);
            Distributed.broadcast(b, size - 1, ends);
            assertClose("broadcast in group from global rank", input(size - 1, DType.INT32, N), b);
        } else {
            assertClose("allReduce outside the group leaves the tensor", input(rank, DType.FLOAT32, N), t);
        }
        if (Distributed.rank(ends) != (rank == 0 ? 0 : rank == size - 1 ? 1 : -1)) {
            throw new AssertionError("group rank of " + rank + " is " + Distributed.rank(ends));
        }
        Distributed.destroyProcessGroup(ends);
    }

    private static void errors(int rank, int size) {
        // A message longer than the receive buffer: MPI's truncation error, named with the call and the rank.
        if (rank == 0) {
            Distributed.send(input(0, DType.FLOAT32, 16), 1);
        } else if (rank == 1) {
            DistributedException e = expectFailure("short recv", () -> Distributed.recv(Torch.zeros(4), 0));
            String m = e.getMessage();
            if (!m.contains("recv from 0 failed on rank 1") || !m.contains("MPI_ERR_TRUNCATE")) {
                throw new AssertionError("unclear message: " + m);
            }
        }
        expectFailure("broadcast from a rank outside the world", () -> Distributed.broadcast(Torch.zeros(2), size));
        expectFailure(
                "allGather with a short list", () -> Distributed.allGather(List.of(Torch.zeros(2)), Torch.zeros(2)));
        expectFailure("allReduce of null", () -> Distributed.allReduce(null, ReduceOp.SUM));
        long[] wrongSum = new long[size];
        wrongSum[0] = 5;
        DistributedException splits = expectFailure(
                "allToAllSingle with split sizes that miss the rows",
                () -> Distributed.allToAllSingle(Torch.zeros(4L * size), Torch.zeros(4L * size), null, wrongSum));
        if (!splits.getMessage().contains("input's split sizes")
                || !splits.getMessage().contains("not its dim 0 size " + 4L * size)) {
            throw new AssertionError("unclear message: " + splits.getMessage());
        }
        expectFailure(
                "allToAllSingle with a split size per rank missing",
                () -> Distributed.allToAllSingle(Torch.zeros(4), Torch.zeros(4), new long[] {4}, new long[] {4}));
        expectFailure(
                "allToAllSingle with a negative split size",
                () -> Distributed.allToAllSingle(Torch.zeros(4), Torch.zeros(4), null, negativeSplits(size)));
    }

    /** Split sizes adding up to 4 rows with a negative one. */
    private static long[] negativeSplits(int size) {
        long[] s = new long[size];
        s[0] = -1;
        s[1] = 5;
        return s;
    }

    private static DistributedException expectFailure(String what, Runnable call) {
        try {
            call.run();
        } catch (DistributedException e) {
            checks++;
            return e;
        }
        throw new AssertionError(what + ": expected a DistributedException");
    }

    static void assertClose(String what, Tensor expected, Tensor actual) {
        checks++;
        if (expected.dtype() != actual.dtype() || !java.util.Arrays.equals(expected.shape(), actual.shape())) {
            throw new AssertionError(
                    what + ": expected " + expected.dtype() + java.util.Arrays.toString(expected.shape()) + ", got "
                            + actual.dtype() + java.util.Arrays.toString(actual.shape()));
        }
        double[] e = flat(expected), a = flat(actual);
        // Inputs are small integers, so every result is exact but an average's division, rounded once to the dtype
        // from float64 here and from float32 (or in the dtype) by the collective: one unit in the last place.
        double tol = what.contains("AVG") ? lastPlace(expected.dtype()) : 0;
        for (int i = 0; i < e.length; i++) {
            if (!(Math.abs(e[i] - a[i]) <= tol * Math.max(1, Math.abs(e[i])))) {
                throw new AssertionError(what + ": element " + i + " expected " + e[i] + ", got " + a[i]
                        + "\n expected " + expected + "\n actual " + actual);
            }
        }
    }

    /** The spacing of a dtype's values relative to their magnitude. */
    private static double lastPlace(DType dtype) {
        return switch (dtype) {
            case FLOAT64, COMPLEX128 -> 0x1p-52;
            case FLOAT32, COMPLEX64 -> 0x1p-23;
            case FLOAT16, COMPLEX32 -> 0x1p-10;
            case BFLOAT16, BCOMPLEX32 -> 0x1p-7;
            case FLOAT8_E4M3FN, FLOAT8_E4M3FNUZ -> 0x1p-3;
            case FLOAT8_E5M2, FLOAT8_E5M2FNUZ -> 0x1p-2;
            case FLOAT8_E8M0FNU -> 1;
            default -> 0;
        };
    }

    private static double[] flat(Tensor t) {
        return t.dtype().isComplex()
                ? Torch.viewAsReal(t.to(DType.COMPLEX128)).contiguous().toDoubleArray()
                : t.to(DType.FLOAT64).contiguous().toDoubleArray();
    }
}

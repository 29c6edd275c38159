package org.jtorch.kernels.mpi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.EnumMap;
import java.util.Map;
import org.jtorch.TorchException;

/**
 * Open MPI 4 through FFM: initialisation, communicators and the collectives and point-to-point calls of
 * {@code torch.distributed}'s MPI backend.
 *
 * <p>The library is loaded on first use ({@link MpiLibrary}); when that fails {@link #isAvailable()} is false,
 * {@link #unavailableReason()} says why, and every other method throws. Handles ({@code MPI_Comm},
 * {@code MPI_Datatype}, {@code MPI_Op}) are pointers in Open MPI's ABI; the predefined ones are addresses of global
 * objects, resolved here as symbols of the library.
 *
 * <p>Every argument is checked in Java before the downcall: buffers must be native segments holding at least the bytes
 * the call reads or writes, counts must fit MPI's {@code int}, ranks must be in the communicator. A call that MPI
 * itself fails throws {@link MpiException} with MPI's error string: {@link #world()} and {@link #split} set
 * {@code MPI_ERRORS_RETURN} on each communicator, so errors return instead of aborting the job. Not thread-safe by
 * design: JTorch calls MPI from one communication thread (see {@code org.jtorch.distributed}).
 */
@SuppressWarnings("restricted") // binding native code is this class's job; needs --enable-native-access
public final class Mpi {
    private Mpi() {}

    /** {@code MPI_THREAD_FUNNELED}: only the thread that initialised MPI calls it. */
    public static final int THREAD_FUNNELED = 1;

    /** {@code MPI_THREAD_MULTIPLE}. */
    public static final int THREAD_MULTIPLE = 3;

    /** {@code MPI_ANY_SOURCE}, for {@link #irecv}. */
    public static final int ANY_SOURCE = -1;

    private static final int SUCCESS = 0;
    private static final int UNDEFINED = -32766;
    private static final int MAX_ERROR_STRING = 256;

    // ---------------------------------------------------------------- loading

    /** True when Open MPI loaded and every function below is bound. Loads it on the first call. */
    public static boolean isAvailable() {
        return Availability.FAILURE == null;
    }

    /** Why Open MPI could not be loaded, or null when it is available. */
    public static String unavailableReason() {
        return Availability.FAILURE;
    }

    private static final class Availability {
        static final String FAILURE = load();

        private static String load() {
            try {
                Fn.init();
                return null;
            } catch (ExceptionInInitializerError e) {
                return String.valueOf(e.getCause());
            }
        }
    }

    private static void requireAvailable(String fn) {
        if (!isAvailable()) throw new TorchException(fn + ": Open MPI is unavailable: " + unavailableReason());
    }

    /** The bound functions and predefined handles; initialising this class loads the library. */
    private static final class Fn {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final SymbolLookup LIBRARY = MpiLibrary.open();

        static final Map<MpiDatatype, MemorySegment> DATATYPES = handles(MpiDatatype.class);
        static final Map<MpiOp, MemorySegment> OPS = handles(MpiOp.class);
        static final MemorySegment COMM_WORLD = LIBRARY.findOrThrow("ompi_mpi_comm_world");
        static final MemorySegment ERRORS_RETURN = LIBRARY.findOrThrow("ompi_mpi_errors_return");

        // int MPI_Initialized(int *flag); int MPI_Finalized(int *flag)
        static final MethodHandle INITIALIZED = downcall("MPI_Initialized", ADDRESS);
        static final MethodHandle FINALIZED = downcall("MPI_Finalized", ADDRESS);
        // int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
        static final MethodHandle INIT_THREAD = downcall("MPI_Init_thread", ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        // int MPI_Finalize(void)
        static final MethodHandle FINALIZE = downcall("MPI_Finalize");
        // int MPI_Abort(MPI_Comm comm, int errorcode)
        static final MethodHandle ABORT = downcall("MPI_Abort", ADDRESS, JAVA_INT);
        // int MPI_Error_string(int errorcode, char *string, int *resultlen)
        static final MethodHandle ERROR_STRING = downcall("MPI_Error_string", JAVA_INT, ADDRESS, ADDRESS);
        // int MPI_Comm_rank(MPI_Comm comm, int *rank); int MPI_Comm_size(MPI_Comm comm, int *size)
        static final MethodHandle COMM_RANK = downcall("MPI_Comm_rank", ADDRESS, ADDRESS);
        static final MethodHandle COMM_SIZE = downcall("MPI_Comm_size", ADDRESS, ADDRESS);
        // int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
        static final MethodHandle COMM_SET_ERRHANDLER = downcall("MPI_Comm_set_errhandler", ADDRESS, ADDRESS);
        // int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
        static final MethodHandle COMM_SPLIT = downcall("MPI_Comm_split", ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);
        // int MPI_Comm_free(MPI_Comm *comm)
        static final MethodHandle COMM_FREE = downcall("MPI_Comm_free", ADDRESS);
        // int MPI_Barrier(MPI_Comm comm)
        static final MethodHandle BARRIER = downcall("MPI_Barrier", ADDRESS);
        // int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op, int root, MPI_Comm)
        static final MethodHandle REDUCE =
                downcall("MPI_Reduce", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS);
        // int MPI_Bcast(void *buffer, int count, MPI_Datatype, int root, MPI_Comm)
        static final MethodHandle BCAST = downcall("MPI_Bcast", ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        // int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype, void *recvbuf, int recvcount,
        //                   MPI_Datatype, MPI_Comm)
        static final MethodHandle ALLGATHER =
                downcall("MPI_Allgather", ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS);
        // int MPI_Gather(... same as MPI_Allgather ..., int root, MPI_Comm); MPI_Scatter likewise
        static final MethodHandle GATHER =
                downcall("MPI_Gather", ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        static final MethodHandle SCATTER =
                downcall("MPI_Scatter", ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS);
        // int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype, MPI_Op,
        //                              MPI_Comm)
        static final MethodHandle REDUCE_SCATTER_BLOCK =
                downcall("MPI_Reduce_scatter_block", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
        // int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype,
        //                   void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype, MPI_Comm)
        static final MethodHandle ALLTOALLV = downcall(
                "MPI_Alltoallv", ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        // int MPI_Send(const void *buf, int count, MPI_Datatype, int dest, int tag, MPI_Comm)
        static final MethodHandle SEND = downcall("MPI_Send", ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);
        // int MPI_Isend(const void *buf, int count, MPI_Datatype, int dest, int tag, MPI_Comm, MPI_Request *request)
        static final MethodHandle ISEND =
                downcall("MPI_Isend", ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        // int MPI_Irecv(void *buf, int count, MPI_Datatype, int source, int tag, MPI_Comm, MPI_Request *request)
        static final MethodHandle IRECV =
                downcall("MPI_Irecv", ADDRESS, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS);
        // int MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype, MPI_Op, MPI_Comm,
        //                   MPI_Request *request)
        static final MethodHandle IALLREDUCE =
                downcall("MPI_Iallreduce", ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS);
        // int MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
        static final MethodHandle TEST = downcall("MPI_Test", ADDRESS, ADDRESS, ADDRESS);

        /** Forces initialisation (the holder idiom's trigger). */
        static void init() {}

        private static MethodHandle downcall(String name, java.lang.foreign.MemoryLayout... args) {
            return LINKER.downcallHandle(LIBRARY.findOrThrow(name), FunctionDescriptor.of(JAVA_INT, args));
        }

        private static <E extends Enum<E>> Map<E, MemorySegment> handles(Class<E> type) {
            Map<E, MemorySegment> map = new EnumMap<>(type);
            for (E e : type.getEnumConstants()) {
                String symbol = e instanceof MpiDatatype d ? d.symbol : ((MpiOp) e).symbol;
                map.put(e, LIBRARY.findOrThrow(symbol));
            }
            return map;
        }
    }

    // ---------------------------------------------------------------- environment

    /** {@code MPI_Initialized}. */
    public static boolean initialized() {
        requireAvailable("MPI_Initialized");
        return flag("MPI_Initialized", Fn.INITIALIZED);
    }

    /** {@code MPI_Finalized}: once true, MPI can never be initialised again in this process. */
    public static boolean finalized() {
        requireAvailable("MPI_Finalized");
        return flag("MPI_Finalized", Fn.FINALIZED);
    }

    /**
     * {@code MPI_Init_thread(NULL, NULL, required, &provided)}; returns the level provided, which may be lower than
     * {@code required}.
     */
    public static int initThread(int required) {
        requireAvailable("MPI_Init_thread");
        if (required < 0 || required > THREAD_MULTIPLE) {
            throw new TorchException("MPI_Init_thread: required thread level " + required + " is not 0..3");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment provided = arena.allocate(JAVA_INT);
            check("MPI_Init_thread", (int)
                    Fn.INIT_THREAD.invokeExact(MemorySegment.NULL, MemorySegment.NULL, required, provided));
            return provided.get(JAVA_INT, 0);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_Finalize}. */
    public static void finalizeMpi() {
        requireAvailable("MPI_Finalize");
        try {
            check("MPI_Finalize", (int) Fn.FINALIZE.invokeExact());
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_Abort(comm, code)}: ends every process of the job. */
    public static void abort(Communicator comm, int code) {
        requireAvailable("MPI_Abort");
        try {
            int unused = (int) Fn.ABORT.invokeExact(comm.handle(), code);
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_COMM_WORLD}, set to return errors rather than abort. */
    public static Communicator world() {
        requireAvailable("MPI_COMM_WORLD");
        return describe("MPI_COMM_WORLD", Fn.COMM_WORLD);
    }

    /**
     * {@code MPI_Comm_split}: collective over {@code parent}. Processes passing {@code member = false} get null (they
     * pass {@code MPI_UNDEFINED}); members are ordered by {@code key}.
     */
    public static Communicator split(Communicator parent, boolean member, int key) {
        requireAvailable("MPI_Comm_split");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            check("MPI_Comm_split", (int) Fn.COMM_SPLIT.invokeExact(parent.handle(), member ? 0 : UNDEFINED, key, out));
            return member ? describe("MPI_Comm_split", out.get(ADDRESS, 0)) : null;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_Comm_free}; never on {@code MPI_COMM_WORLD}. */
    public static void free(Communicator comm) {
        requireAvailable("MPI_Comm_free");
        if (comm.handle().equals(Fn.COMM_WORLD)) throw new TorchException("MPI_Comm_free: cannot free MPI_COMM_WORLD");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = arena.allocate(ADDRESS);
            handle.set(ADDRESS, 0, comm.handle());
            check("MPI_Comm_free", (int) Fn.COMM_FREE.invokeExact(handle));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static Communicator describe(String fn, MemorySegment handle) {
        try (Arena arena = Arena.ofConfined()) {
            check(fn, (int) Fn.COMM_SET_ERRHANDLER.invokeExact(handle, Fn.ERRORS_RETURN));
            MemorySegment value = arena.allocate(JAVA_INT);
            check("MPI_Comm_rank", (int) Fn.COMM_RANK.invokeExact(handle, value));
            int rank = value.get(JAVA_INT, 0);
            check("MPI_Comm_size", (int) Fn.COMM_SIZE.invokeExact(handle, value));
            return new Communicator(handle, rank, value.get(JAVA_INT, 0));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    // ---------------------------------------------------------------- collectives

    /** {@code MPI_Barrier}. */
    public static void barrier(Communicator comm) {
        requireAvailable("MPI_Barrier");
        try {
            check("MPI_Barrier", (int) Fn.BARRIER.invokeExact(comm.handle()));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@code MPI_Iallreduce(MPI_IN_PLACE, buffer, count, type, op, comm, &request)}: starts an all-reduce that
     * {@link #test} completes; {@code buffer} must stay untouched until then.
     */
    public static Request iallreduceInPlace(
            Communicator comm, MemorySegment buffer, long count, MpiDatatype type, MpiOp op) {
        requireAvailable("MPI_Iallreduce");
        int n = count("MPI_Iallreduce", count);
        requireBuffer("MPI_Iallreduce", "buffer", buffer, count, type);
        Request request = new Request();
        try {
            check("MPI_Iallreduce", (int) Fn.IALLREDUCE.invokeExact(
                    inPlace(), buffer, n, Fn.DATATYPES.get(type), Fn.OPS.get(op), comm.handle(), request.handle));
            return request;
        } catch (Throwable t) {
            request.close();
            throw unchecked(t);
        }
    }

    /**
     * {@code MPI_Reduce(send, recv, count, type, op, root, comm)}; {@code recv} is read only on the root and may be
     * null elsewhere.
     */
    public static void reduce(
            Communicator comm,
            MemorySegment send,
            MemorySegment recv,
            long count,
            MpiDatatype type,
            MpiOp op,
            int root) {
        requireAvailable("MPI_Reduce");
        int n = count("MPI_Reduce", count);
        requireRank("MPI_Reduce", "root", root, comm);
        requireBuffer("MPI_Reduce", "send", send, count, type);
        if (comm.rank() == root) requireBuffer("MPI_Reduce", "recv", recv, count, type);
        try {
            check("MPI_Reduce", (int) Fn.REDUCE.invokeExact(
                    send, orNull(recv), n, Fn.DATATYPES.get(type), Fn.OPS.get(op), root, comm.handle()));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_Bcast(buffer, count, type, root, comm)}. */
    public static void bcast(Communicator comm, MemorySegment buffer, long count, MpiDatatype type, int root) {
        requireAvailable("MPI_Bcast");
        int n = count("MPI_Bcast", count);
        requireRank("MPI_Bcast", "root", root, comm);
        requireBuffer("MPI_Bcast", "buffer", buffer, count, type);
        try {
            check("MPI_Bcast", (int) Fn.BCAST.invokeExact(buffer, n, Fn.DATATYPES.get(type), root, comm.handle()));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** {@code MPI_Allgather}: {@code count} elements from each rank into {@code recv}, rank by rank. */
    public static void allgather(
            Communicator comm, MemorySegment send, long count, MpiDatatype type, MemorySegment recv) {
        requireAvailable("MPI_Allgather");
        int n = count("MPI_Allgather", count);
        requireBuffer("MPI_Allgather", "send", send, count, type);
        requireBuffer("MPI_Allgather", "recv", recv, count * comm.size(), type);
        MemorySegment t = Fn.DATATYPES.get(type);
        try {
            check("MPI_Allgather", (int) Fn.ALLGATHER.invokeExact(send, n, t, recv, n, t, comm.handle()));
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** {@code MPI_Gather}: {@code recv} (size × count elements) is read only on the root and may be null elsewhere. */
    public static void gather(
            Communicator comm, MemorySegment send, long count, MpiDatatype type, MemorySegment recv, int root) {
        requireAvailable("MPI_Gather");
        int n = count("MPI_Gather", count);
        requireRank("MPI_Gather", "root", root, comm);
        requireBuffer("MPI_Gather", "send", send, count, type);
        if (comm.rank() == root) requireBuffer("MPI_Gather", "recv", recv, count * comm.size(), type);
        MemorySegment t = Fn.DATATYPES.get(type);
        try {
            check("MPI_Gather", (int) Fn.GATHER.invokeExact(send, n, t, orNull(recv), n, t, root, comm.handle()));
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** {@code MPI_Scatter}: {@code send} (size × count elements) is read only on the root and may be null elsewhere. */
    public static void scatter(
            Communicator comm, MemorySegment send, MemorySegment recv, long count, MpiDatatype type, int root) {
        requireAvailable("MPI_Scatter");
        int n = count("MPI_Scatter", count);
        requireRank("MPI_Scatter", "root", root, comm);
        if (comm.rank() == root) requireBuffer("MPI_Scatter", "send", send, count * comm.size(), type);
        requireBuffer("MPI_Scatter", "recv", recv, count, type);
        MemorySegment t = Fn.DATATYPES.get(type);
        try {
            check("MPI_Scatter", (int) Fn.SCATTER.invokeExact(orNull(send), n, t, recv, n, t, root, comm.handle()));
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** {@code MPI_Reduce_scatter_block}: reduces size × count elements and keeps this rank's block of count. */
    public static void reduceScatterBlock(
            Communicator comm, MemorySegment send, MemorySegment recv, long count, MpiDatatype type, MpiOp op) {
        requireAvailable("MPI_Reduce_scatter_block");
        int n = count("MPI_Reduce_scatter_block", count);
        requireBuffer("MPI_Reduce_scatter_block", "send", send, count * comm.size(), type);
        requireBuffer("MPI_Reduce_scatter_block", "recv", recv, count, type);
        try {
            check("MPI_Reduce_scatter_block", (int) Fn.REDUCE_SCATTER_BLOCK.invokeExact(
                    send, recv, n, Fn.DATATYPES.get(type), Fn.OPS.get(op), comm.handle()));
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /**
     * {@code MPI_Alltoallv}: rank r's block of {@code send} (at {@code sendOffsets[r]}, {@code sendCounts[r]} elements)
     * goes to rank r, and rank r's block for this rank lands at {@code recvOffsets[r]}.
     */
    public static void alltoallv(
            Communicator comm,
            MemorySegment send,
            long[] sendCounts,
            long[] sendOffsets,
            MemorySegment recv,
            long[] recvCounts,
            long[] recvOffsets,
            MpiDatatype type) {
        requireAvailable("MPI_Alltoallv");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sc = layout(arena, "sendCounts", sendCounts, sendOffsets, send, type, comm);
            MemorySegment so = sc.asSlice(4L * comm.size());
            MemorySegment rc = layout(arena, "recvCounts", recvCounts, recvOffsets, recv, type, comm);
            MemorySegment ro = rc.asSlice(4L * comm.size());
            MemorySegment t = Fn.DATATYPES.get(type);
            check("MPI_Alltoallv", (int) Fn.ALLTOALLV.invokeExact(send, sc, so, t, recv, rc, ro, t, comm.handle()));
        } catch (Throwable e) {
            throw unchecked(e);
        }
    }

    /** Checks one side's counts and offsets against its buffer; returns them as ints, counts then offsets. */
    private static MemorySegment layout(
            Arena arena,
            String name,
            long[] counts,
            long[] offsets,
            MemorySegment buffer,
            MpiDatatype type,
            Communicator comm) {
        if (counts.length != comm.size() || offsets.length != comm.size()) {
            throw new TorchException("MPI_Alltoallv: " + name + " and its offsets need " + comm.size()
                    + " entries, got " + counts.length + " and " + offsets.length);
        }
        MemorySegment ints = arena.allocate(JAVA_INT, 2L * comm.size());
        for (int r = 0; r < comm.size(); r++) {
            count("MPI_Alltoallv", counts[r]);
            count("MPI_Alltoallv", offsets[r]);
            requireBuffer("MPI_Alltoallv", name, buffer, offsets[r] + counts[r], type);
            ints.setAtIndex(JAVA_INT, r, (int) counts[r]);
            ints.setAtIndex(JAVA_INT, comm.size() + r, (int) offsets[r]);
        }
        return ints;
    }

    // ---------------------------------------------------------------- point to point

    /**
     * {@code MPI_Isend}: starts sending {@code count} elements to {@code dest}; {@code buffer} must stay untouched
     * until {@link #test} reports the request complete.
     */
    public static Request isend(
            Communicator comm, MemorySegment buffer, long count, MpiDatatype type, int dest, int tag) {
        requireAvailable("MPI_Isend");
        int n = count("MPI_Isend", count);
        requireRank("MPI_Isend", "dest", dest, comm);
        requireTag("MPI_Isend", tag);
        requireBuffer("MPI_Isend", "buffer", buffer, count, type);
        Request request = new Request();
        try {
            check("MPI_Isend", (int)
                    Fn.ISEND.invokeExact(buffer, n, Fn.DATATYPES.get(type), dest, tag, comm.handle(), request.handle));
            return request;
        } catch (Throwable t) {
            request.close();
            throw unchecked(t);
        }
    }

    /**
     * {@code MPI_Irecv} of at most {@code count} elements from {@code source} (or {@link #ANY_SOURCE}); a longer
     * message fails with MPI's truncation error when the request completes.
     */
    public static Request irecv(
            Communicator comm, MemorySegment buffer, long count, MpiDatatype type, int source, int tag) {
        requireAvailable("MPI_Irecv");
        int n = count("MPI_Irecv", count);
        if (source != ANY_SOURCE) requireRank("MPI_Irecv", "source", source, comm);
        requireTag("MPI_Irecv", tag);
        requireBuffer("MPI_Irecv", "buffer", buffer, count, type);
        Request request = new Request();
        try {
            check("MPI_Irecv", (int) Fn.IRECV.invokeExact(
                    buffer, n, Fn.DATATYPES.get(type), source, tag, comm.handle(), request.handle));
            return request;
        } catch (Throwable t) {
            request.close();
            throw unchecked(t);
        }
    }

    /**
     * {@code MPI_Test}: whether the request has completed. Once it has, its resources are released and
     * {@link Request#source()} holds the sender's rank; a request that completed with an error throws.
     */
    public static boolean test(Request request) {
        requireAvailable("MPI_Test");
        if (request.isDone()) throw new TorchException("MPI_Test: the request has already completed");
        try {
            int rc = (int) Fn.TEST.invokeExact(request.handle, request.flag, request.status);
            if (rc != SUCCESS) {
                request.close();
                check("MPI_Test", rc);
            }
            if (request.flag.get(JAVA_INT, 0) == 0) return false;
            request.complete(request.status.get(JAVA_INT, 0));
            return true;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    // ---------------------------------------------------------------- checks

    private static int count(String fn, long count) {
        if (count < 0 || count > Integer.MAX_VALUE) {
            throw new TorchException(fn + ": count " + count + " is outside MPI's int range [0, " + Integer.MAX_VALUE
                    + "]; split the tensor");
        }
        return (int) count;
    }

    private static void requireRank(String fn, String name, int rank, Communicator comm) {
        if (rank < 0 || rank >= comm.size()) {
            throw new TorchException(
                    fn + ": " + name + " rank " + rank + " is not in a communicator of size " + comm.size());
        }
    }

    private static void requireTag(String fn, int tag) {
        // MPI guarantees tags up to 32767 (MPI_TAG_UB is at least that).
        if (tag < 0 || tag > 32767) throw new TorchException(fn + ": tag " + tag + " is not in [0, 32767]");
    }

    private static void requireBuffer(String fn, String name, MemorySegment buffer, long count, MpiDatatype type) {
        if (buffer == null) throw new TorchException(fn + ": " + name + " buffer is null");
        if (!buffer.isNative()) throw new TorchException(fn + ": " + name + " buffer must be native memory");
        long bytes = Math.multiplyExact(count, type.bytes());
        if (buffer.byteSize() < bytes) {
            throw new TorchException(fn + ": " + name + " buffer holds " + buffer.byteSize() + " bytes, the call needs "
                    + bytes + " (" + count + " × " + type + ")");
        }
    }

    private static MemorySegment orNull(MemorySegment segment) {
        return segment == null ? MemorySegment.NULL : segment;
    }

    private static MemorySegment inPlace() {
        return MemorySegment.ofAddress(1); // MPI_IN_PLACE is ((void *) 1) in Open MPI
    }

    private static boolean flag(String fn, MethodHandle handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment flag = arena.allocate(JAVA_INT);
            check(fn, (int) handle.invokeExact(flag));
            return flag.get(JAVA_INT, 0) != 0;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    private static void check(String fn, int code) {
        if (code != SUCCESS) throw new MpiException(fn, code, errorString(code));
    }

    /** {@code MPI_Error_string}: MPI's description of an error code. */
    public static String errorString(int code) {
        requireAvailable("MPI_Error_string");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment text = arena.allocate(MAX_ERROR_STRING);
            MemorySegment length = arena.allocate(JAVA_INT);
            int rc = (int) Fn.ERROR_STRING.invokeExact(code, text, length);
            return rc == SUCCESS ? text.getString(0) : "unknown MPI error " + code;
        } catch (Throwable t) {
            throw unchecked(t);
        }
    }

    /** Downcalls declare Throwable but throw only unchecked exceptions (from the linker's own checks). */
    private static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException e) return e;
        if (t instanceof Error e) throw e;
        return new TorchException("unexpected checked exception from a downcall", t);
    }
}

package org.jtorch.storage;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.DType;

/**
 * Arrays of op outputs that autograd's backward pass has proven dead, kept per thread for the next op output of the
 * same kind and length: the counterpart of PyTorch's caching allocator for the one place where JTorch knows a storage's
 * last use (a Java array has no reference count, so every other array is left to the garbage collector).
 *
 * <p>Why: an output in a newly allocated array is written to memory the CPU has not touched since the young generation
 * last went round, so every cache line is fetched before it is overwritten. On the Intel machine of docs/benchmarks.md
 * a GPT block's twelve matrix products took 12.3 ms into new outputs against 9.7 ms into existing ones. A gradient
 * freed by one backward node and reused by the next node's output is still in cache.
 *
 * <p>Which arrays: only those of storage allocated for op outputs ({@link Storage#allocateUninitialized}) while a
 * backward pass's {@link Epoch} is open on this thread, and only when the engine hands them back ({@link #recycle}).
 * The storage is then {@link Storage#release released}: a tensor that was wrongly proven dead raises a
 * {@link org.jtorch.TorchException} when read, rather than seeing another tensor's data. Arrays under
 * {@link #MIN_BYTES} are not kept (the thread's allocation buffer serves them cheaply); at most
 * {@code jtorch.arrayPool.maxMB} MiB (default 256, 0 turns recycling off) are kept per thread, newest first for each
 * length, and outputs take them whether or not a backward pass is running (the next forward reuses what the last
 * backward freed).
 *
 * <p>The other place is a {@link Scope} (the public {@code org.jtorch.MemoryScope}): the caller declares that nothing
 * allocated on this thread while it is open is read after it closes, but for what it keeps.
 */
public final class ArrayPool {
    private ArrayPool() {}

    /** Arrays below this size are not kept. */
    static final long MIN_BYTES = 64 << 10;

    private static volatile long capacity = Long.getLong("jtorch.arrayPool.maxMB", 256) << 20;

    private static final AtomicLong EPOCHS = new AtomicLong();
    private static final AtomicLong REUSED = new AtomicLong();
    private static final AtomicLong RECYCLED = new AtomicLong();

    private static final ThreadLocal<Local> LOCAL = ThreadLocal.withInitial(Local::new);

    /** One thread's free arrays by (length, kind), the backward pass and the scope open on it. */
    private static final class Local {
        final Map<Long, ArrayDeque<Object>> free = new HashMap<>();
        long bytes;
        long epoch;
        Scope scope;
    }

    private static long key(DType.StorageKind kind, int length) {
        return ((long) length << 3) | kind.ordinal();
    }

    /** Whether arrays are kept at all ({@code jtorch.arrayPool.maxMB} above 0). */
    public static boolean enabled() {
        return capacity > 0;
    }

    /**
     * Sets how many bytes of free arrays each thread keeps (0 turns recycling off and drops this thread's arrays): for
     * tests that compare a run with and without recycling.
     */
    public static void setCapacity(long bytes) {
        capacity = Math.max(0, bytes);
        if (capacity == 0) {
            Local l = LOCAL.get();
            l.free.clear();
            l.bytes = 0;
        }
    }

    /** How many op outputs have taken a recycled array, over all threads since start. */
    public static long reusedCount() {
        return REUSED.get();
    }

    /** How many storages backward passes have handed back ({@link #recycle}), over all threads since start. */
    public static long recycledCount() {
        return RECYCLED.get();
    }

    /** A backward pass's window: output storage allocated inside it carries its number ({@link #allocatedIn}). */
    public static final class Epoch implements AutoCloseable {
        private final long id;
        private final long previous;

        private Epoch(long id, long previous) {
            this.id = id;
            this.previous = previous;
        }

        /** Whether {@code s} holds an op output allocated inside this window (and so is this pass's to free). */
        public boolean allocatedIn(Storage s) {
            return s.epoch() == id;
        }

        @Override
        public void close() {
            LOCAL.get().epoch = previous;
        }
    }

    /** Opens a window on this thread; nested windows (a backward pass inside a hook) restore the outer one on close. */
    public static Epoch open() {
        Local l = LOCAL.get();
        Epoch e = new Epoch(EPOCHS.incrementAndGet(), l.epoch);
        l.epoch = e.id;
        return e;
    }

    /**
     * A window in which every heap storage of at least {@link #MIN_BYTES} allocated on this thread is handed back
     * ({@link #recycle}) when the window closes, but for those {@linkplain #keep kept}. Nested windows: what an inner
     * one keeps belongs to the outer one, which frees it on its own close unless kept there too. Closing a window other
     * than the innermost open one on this thread is refused.
     */
    public static final class Scope implements AutoCloseable {
        private final Scope outer;
        private final Thread owner = Thread.currentThread();
        private final String reason;
        private final List<Storage> allocated = new ArrayList<>();
        private final Set<Storage> kept = Collections.newSetFromMap(new IdentityHashMap<>());
        private boolean closed;

        private Scope(Scope outer, String reason) {
            this.outer = outer;
            this.reason = reason;
        }

        /** Keeps the storage {@code s} (its root) past this window. */
        public void keep(Storage s) {
            kept.add(s.root());
        }

        @Override
        public void close() {
            if (closed) return;
            Local l = LOCAL.get();
            if (Thread.currentThread() != owner || l.scope != this) {
                throw new IllegalStateException("a memory scope must be closed by its thread, innermost first");
            }
            closed = true;
            l.scope = outer;
            // newest last: the pool hands out the newest array of a length first, the one most likely still in cache
            for (Storage s : allocated) {
                if (s.isReleased()) continue; // handed back already (by a backward pass)
                if (kept.contains(s)) {
                    if (outer != null) outer.allocated.add(s);
                } else if (!recycle(s, reason)) {
                    s.release(reason); // not pooled (capacity, or pooling off): still refuse reads after the scope
                }
            }
        }
    }

    /** Opens a {@link Scope} on this thread; {@code reason} is the message of a read of its memory after it closed. */
    public static Scope openScope(String reason) {
        Local l = LOCAL.get();
        Scope s = new Scope(l.scope, reason);
        l.scope = s;
        return s;
    }

    /**
     * Keeps {@code s} past every scope open on this thread: for state that outlives any call, such as a module's
     * parameters and buffers registered while a scope is open.
     */
    public static void keepInOpenScopes(Storage s) {
        for (Scope scope = LOCAL.get().scope; scope != null; scope = scope.outer) scope.keep(s);
    }

    /** Records a new heap storage in the scope open on this thread, if any. */
    static void allocated(Storage s) {
        if (s.byteSize() < MIN_BYTES) return;
        Scope scope = LOCAL.get().scope;
        if (scope != null) scope.allocated.add(s);
    }

    /** The window open on this thread, 0 if none. */
    static long currentEpoch() {
        return LOCAL.get().epoch;
    }

    /** A free array of {@code kind} and {@code length} for an op output, or null. */
    static Object take(DType.StorageKind kind, int length) {
        if ((long) length * Storage.slotBytes(kind) < MIN_BYTES || capacity == 0) return null;
        Local l = LOCAL.get();
        ArrayDeque<Object> arrays = l.free.get(key(kind, length));
        Object a = arrays == null ? null : arrays.pollFirst();
        if (a != null) {
            l.bytes -= (long) length * Storage.slotBytes(kind);
            REUSED.incrementAndGet();
        }
        return a;
    }

    /**
     * Takes the array of {@code s}, which the caller has proven no tensor will read again, and releases {@code s} with
     * {@code reason}. False (and {@code s} untouched) when the array is not kept: too small, not a heap array that
     * {@code s} owns, or this thread's arrays at capacity.
     */
    public static boolean recycle(Storage s, String reason) {
        if (s.root() != s || s.isMeta() || s.isFake()) return false;
        Object a = s.array();
        long bytes = s.byteSize();
        if (a == null || bytes < MIN_BYTES) return false;
        Local l = LOCAL.get();
        if (l.bytes + bytes > capacity) return false;
        s.release(reason);
        l.free.computeIfAbsent(key(s.kind(), (int) s.slots()), k -> new ArrayDeque<>())
                .addFirst(a);
        l.bytes += bytes;
        RECYCLED.incrementAndGet();
        return true;
    }
}

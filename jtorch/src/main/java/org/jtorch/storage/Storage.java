package org.jtorch.storage;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;

/**
 * The memory behind one or more tensors (PyTorch's {@code UntypedStorage}). Views share a storage.
 *
 * <p>Heap storage wraps a primitive array ({@code float[]} for float32, {@code short[]} for float16..., see
 * {@link DType#storageKind()}); its {@link #segment()} is a heap segment over that array, so code that only speaks
 * {@link MemorySegment} reads heap, native and memory-mapped storage alike, while the fast kernels take the array
 * directly (measured 5–50% faster, see docs/adr/0001-storage.md). Meta storage has a size and no data.
 *
 * <p>The version counter lives here because every view of the storage must see in-place writes (autograd's "modified by
 * an inplace operation" check).
 */
public final class Storage {
    /** Largest heap array Java allows, in slots. */
    public static final long MAX_HEAP_SLOTS = Integer.MAX_VALUE - 8;

    private final DType.StorageKind kind;
    private final long slots;
    private final Object array;
    private final MemorySegment segment;
    private final Device device;
    private final boolean fake;
    /** The storage whose memory this one reads ({@link #reinterpret}); itself for storage that owns its memory. */
    private final Storage root;
    /** The root's memory as each other kind, made once so that same memory and kind mean the same object. */
    private final Storage[] reinterpretations;

    private int version;
    /** Why this storage may no longer be read or written ({@link #release}); null while it may. */
    private String released;
    /** The backward pass ({@link ArrayPool.Epoch}) this op output was allocated in, 0 if none. */
    private long epoch;

    private Storage(DType.StorageKind kind, long slots, Object array, MemorySegment segment, Device device) {
        this(kind, slots, array, segment, device, false);
    }

    private Storage(
            DType.StorageKind kind, long slots, Object array, MemorySegment segment, Device device, boolean fake) {
        this.kind = kind;
        this.slots = slots;
        this.array = array;
        this.segment = segment;
        this.device = device;
        this.fake = fake;
        this.root = this;
        this.reinterpretations = new Storage[DType.StorageKind.values().length];
    }

    /** The same memory as {@code root}'s, read as {@code kind}: see {@link #reinterpret}. */
    private Storage(Storage root, DType.StorageKind kind) {
        this.kind = kind;
        this.slots = root.byteSize() / slotBytes(kind);
        this.array = null;
        this.segment = root.segment;
        this.device = root.device;
        this.fake = root.fake;
        this.root = root;
        this.reinterpretations = null;
    }

    /** Zero-filled heap storage of {@code slots} primitive slots. */
    public static Storage allocate(DType.StorageKind kind, long slots) {
        return allocate(kind, slots, false);
    }

    /**
     * Heap storage of {@code slots} primitive slots whose contents are unspecified (PyTorch's {@code at::empty}): for
     * outputs that a kernel writes in full. See {@link UninitializedArrays} for when the JVM allows it.
     */
    public static Storage allocateUninitialized(DType.StorageKind kind, long slots) {
        return allocate(kind, slots, true);
    }

    private static Storage allocate(DType.StorageKind kind, long slots, boolean uninitialized) {
        if (slots < 0) throw new TorchException("Storage: negative size " + slots);
        if (slots > MAX_HEAP_SLOTS) {
            throw new TorchException("Storage: " + slots + " elements exceed the largest heap array (" + MAX_HEAP_SLOTS
                    + "); split the tensor");
        }
        int n = (int) slots;
        long bytes = slots * slotBytes(kind);
        long heap = Runtime.getRuntime().maxMemory();
        if (bytes > heap) throw cannotAllocate(bytes, heap); // fail at once, not after a futile full collection
        try {
            if (uninitialized) {
                Object recycled = ArrayPool.take(kind, n);
                Storage out = wrapArray(
                        recycled != null
                                ? UninitializedArrays.poisoned(recycled)
                                : UninitializedArrays.allocate(kind, n));
                out.epoch = ArrayPool.currentEpoch();
                ArrayPool.allocated(out);
                return out;
            }
            Storage out =
                    switch (kind) {
                        case BYTE -> wrap(new byte[n]);
                        case SHORT -> wrap(new short[n]);
                        case INT -> wrap(new int[n]);
                        case LONG -> wrap(new long[n]);
                        case FLOAT -> wrap(new float[n]);
                        case DOUBLE -> wrap(new double[n]);
                    };
            ArrayPool.allocated(out);
            return out;
        } catch (OutOfMemoryError e) {
            // only this one array failed: the heap is as consistent as before the request, so the caller may go on
            throw cannotAllocate(bytes, heap);
        }
    }

    private static Storage wrapArray(Object array) {
        return switch (array) {
            case byte[] a -> wrap(a);
            case short[] a -> wrap(a);
            case int[] a -> wrap(a);
            case long[] a -> wrap(a);
            case float[] a -> wrap(a);
            case double[] a -> wrap(a);
            default -> throw new IllegalArgumentException(array.getClass().getName());
        };
    }

    /**
     * PyTorch's allocator message, plus what a JVM user can do about it: the suggested heap holds twice the request.
     */
    private static TorchException cannotAllocate(long bytes, long heap) {
        return new TorchException("DefaultCPUAllocator: can't allocate memory: you tried to allocate " + bytes
                + " bytes, more than the Java heap (at most " + heap + " bytes) has room for; raise its maximum with "
                + "-Xmx (e.g. -Xmx" + ((2 * bytes + (1L << 30) - 1) >> 30) + "g) or make the tensor smaller");
    }

    /** Storage of the meta device: it has a size but holds no data. */
    public static Storage meta(DType.StorageKind kind, long slots) {
        return new Storage(kind, slots, null, null, Device.META);
    }

    /**
     * The storage of fake tensors ({@code FakeTensorMode}): a size, no data, and the device its tensors claim to be on.
     * Views of a fake tensor share it, as views of a real tensor share theirs, so storage identity survives fake
     * propagation. No kernel ever reads it: ops on fake tensors run their meta rules only.
     */
    public static Storage fake(Device device, DType.StorageKind kind, long slots) {
        if (slots < 0) throw new TorchException("Storage: negative size " + slots);
        return new Storage(kind, slots, null, null, device, true);
    }

    public static Storage wrap(byte[] a) {
        return new Storage(DType.StorageKind.BYTE, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    public static Storage wrap(short[] a) {
        return new Storage(DType.StorageKind.SHORT, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    public static Storage wrap(int[] a) {
        return new Storage(DType.StorageKind.INT, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    public static Storage wrap(long[] a) {
        return new Storage(DType.StorageKind.LONG, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    public static Storage wrap(float[] a) {
        return new Storage(DType.StorageKind.FLOAT, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    public static Storage wrap(double[] a) {
        return new Storage(DType.StorageKind.DOUBLE, a.length, a, MemorySegment.ofArray(a), Device.CPU);
    }

    /**
     * Storage over existing memory (a direct buffer, a mapped file region). Element order is little-endian. The segment
     * must stay alive as long as the storage is reachable.
     */
    public static Storage ofSegment(DType.StorageKind kind, MemorySegment segment) {
        long bytes = segment.byteSize();
        int width = slotBytes(kind);
        if (bytes % width != 0) {
            throw new TorchException(
                    "Storage: segment of " + bytes + " bytes is not a multiple of the element size " + width);
        }
        return new Storage(kind, bytes / width, null, segment, Device.CPU);
    }

    /**
     * Storage that a device backend allocated on {@code device}: its memory is the backend's ({@code array} and
     * {@code segment} may be null for memory the host cannot address); only that backend's kernels read or write it.
     */
    public static Storage ofDevice(
            Device device, DType.StorageKind kind, long slots, Object array, MemorySegment segment) {
        if (device == Device.CPU || device == Device.META) {
            throw new TorchException(
                    "Storage.ofDevice: " + device + " storage is allocated by allocate/meta, not by a backend");
        }
        return new Storage(kind, slots, array, segment, device);
    }

    public static int slotBytes(DType.StorageKind kind) {
        return switch (kind) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
        };
    }

    public DType.StorageKind kind() {
        return kind;
    }

    /** Size in primitive slots (a complex element takes two). */
    public long slots() {
        return slots;
    }

    public long byteSize() {
        return slots * slotBytes(kind);
    }

    public Device device() {
        return device;
    }

    public boolean isMeta() {
        return device == Device.META;
    }

    /** The backward pass this op output was allocated in ({@link ArrayPool.Epoch}), 0 if none. */
    long epoch() {
        return epoch;
    }

    /** Whether this is a fake tensor's storage ({@link #fake}): no data, whatever device it claims. */
    public boolean isFake() {
        return fake;
    }

    /**
     * The backing primitive array, or {@code null} for native, mapped, meta and fake storage. Throws
     * {@link TorchException} once the storage is {@link #release released}.
     */
    public Object array() {
        checkNotReleased();
        return array;
    }

    /**
     * The data as a memory segment (heap or native); {@code null} for meta and fake storage. Throws
     * {@link TorchException} once the storage is {@link #release released}.
     */
    public MemorySegment segment() {
        checkNotReleased();
        return segment;
    }

    public float[] floats() {
        checkNotReleased();
        return (float[]) array;
    }

    public double[] doubles() {
        checkNotReleased();
        return (double[]) array;
    }

    /**
     * Another storage object over this heap storage's memory, with its own version counter and its own
     * {@link #release}: how a compiled graph that keeps its outputs' memory between calls hands that memory out, so
     * that the next call, which writes it again, can make the tensors of the previous one unreadable.
     */
    public Storage share() {
        if (array == null || root != this) {
            throw new TorchException("Storage.share: only heap storage that owns its array can be shared");
        }
        return new Storage(kind, slots, array, segment, device, fake);
    }

    /**
     * Makes every later read or write of this storage's data (and of its {@link #reinterpret reinterpretations}) throw
     * a {@link TorchException} with {@code reason}: the memory now belongs to someone else.
     */
    public void release(String reason) {
        root.released = java.util.Objects.requireNonNull(reason, "reason");
    }

    /** Whether this storage has been {@link #release released}. */
    boolean isReleased() {
        return root.released != null;
    }

    private void checkNotReleased() {
        String reason = root.released;
        if (reason != null) throw new TorchException(reason);
    }

    /**
     * This storage's memory read as primitive slots of {@code kind} ({@code Tensor.view(dtype)}, where PyTorch's
     * untyped storage is shared as is): the same bytes and the same version counter, and {@link #root()} names the
     * storage that owns them. A storage of another kind has no primitive array, so kernels read it through its segment
     * (little-endian, unaligned), as they read native memory.
     */
    public Storage reinterpret(DType.StorageKind kind) {
        if (kind == this.kind) return this;
        if (root.kind == kind) return root;
        synchronized (root.reinterpretations) {
            Storage[] made = root.reinterpretations;
            if (made[kind.ordinal()] == null) made[kind.ordinal()] = new Storage(root, kind);
            return made[kind.ordinal()];
        }
    }

    /** The storage that owns this memory: itself, or the one this was {@link #reinterpret reinterpreted} from. */
    public Storage root() {
        return root;
    }

    /** Whether two storages are the same memory (PyTorch's storage identity, across {@link #reinterpret}). */
    public boolean sameMemory(Storage other) {
        return other != null && other.root == root;
    }

    public int version() {
        return root.version;
    }

    /** Marks an in-place write, so autograd can detect stale saved tensors. */
    public void bumpVersion() {
        root.version++;
    }
}

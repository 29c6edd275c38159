package org.jtorch.io;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashMap;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.storage.Storage;

/**
 * Turns storage references into storages, exactly once per key, so that tensors that shared a storage when saved share
 * one after loading, on every device (the 2.15 fix: also under {@code map_location="meta"} and for empty storages).
 *
 * <p>A storage is copied from the file into heap memory, mapped from it ({@code mmap}), or made on the meta device
 * without reading anything; under a fake-tensor mode it is a fake storage on the device it would go to, unread, so that
 * the tensors loaded are fake tensors sharing storage as the saved ones did. JTorch storages have an element kind; when
 * a second reference to the same bytes asks for another kind (an {@code UntypedStorage} seen as uint16 and as float8),
 * it gets a storage of that kind over the same memory.
 */
final class StorageLoader implements TensorRebuild.Storages {
    /** Where the bytes of each storage key are. */
    interface Source {
        /**
         * The (unread) file bytes of the storage {@code ref} names, checked to be exactly {@code ref.nbytes()} long.
         */
        MemorySegment bytes(StorageRef ref);

        /** Checks the bytes of {@code key} against the file's checksum, if it has one. */
        void verify(String key);
    }

    private final Source source;
    private final Device mapLocation;
    private final boolean mmap;
    private final boolean bigEndian;
    private final boolean verify;
    private final String what;
    /** Whether a fake-tensor mode is in effect: storages are then fake, on the device they would go to, and unread. */
    private final boolean fake = DispatchState.innermostInEffect(DispatchState.Kind.FAKE) != null;
    /**
     * Bytes a copying load may copy in all: a file's records cannot hold more than the file (overlapping records can).
     */
    private long copyBudget;
    /** key (or view key) → storage as first made. */
    private final Map<String, Storage> byKey = new HashMap<>();
    /** key + kind → the same memory seen as another element kind. */
    private final Map<String, Storage> byKeyAndKind = new HashMap<>();

    /**
     * @param mapLocation target device for every storage, or null for the saved location
     * @param mmap map storages from {@code source} instead of copying them
     * @param bigEndian the file's storage bytes are big-endian (swapped while copying)
     * @param verify check checksums of copied storages
     * @param fileSize size of the file the storages are in
     */
    StorageLoader(
            Source source,
            Device mapLocation,
            boolean mmap,
            boolean bigEndian,
            boolean verify,
            String what,
            long fileSize) {
        this.source = source;
        this.copyBudget = fileSize;
        this.mapLocation = mapLocation;
        this.mmap = mmap;
        this.bigEndian = bigEndian;
        this.verify = verify;
        this.what = what;
    }

    @Override
    public Storage storage(StorageRef ref, DType dtype) {
        DType.StorageKind kind = dtype.storageKind();
        Storage root = byKey.get(ref.key());
        if (root == null) {
            root = materialize(ref, dtype);
            byKey.put(ref.key(), root);
        }
        Storage s = root;
        String key = ref.key();
        if (ref.viewKey() != null) {
            key = "view:" + ref.viewKey();
            s = byKey.get(key);
            if (s == null) {
                s = view(root, ref);
                byKey.put(key, s);
            }
        }
        if (s.kind() == kind) return s;
        String kindKey = key + "/" + kind;
        Storage other = byKeyAndKind.get(kindKey);
        if (other == null) {
            other = asKind(s, kind, ref);
            byKeyAndKind.put(kindKey, other);
        }
        return other;
    }

    private Storage materialize(StorageRef ref, DType dtype) {
        long nbytes = ref.nbytes();
        DType.StorageKind kind = dtype.storageKind();
        int width = Storage.slotBytes(kind);
        if (nbytes % width != 0) {
            throw new TorchException(
                    what + ": storage '" + ref.key() + "' of " + nbytes + " bytes cannot hold " + dtype + " elements");
        }
        MemorySegment file = source.bytes(ref);
        if (fake) return Storage.fake(target(ref.location()), kind, nbytes / width);
        if (target(ref.location()) == Device.META) return Storage.meta(kind, nbytes / width);
        if (mmap && !bigEndian) return Storage.ofSegment(kind, file);
        copyBudget -= nbytes;
        if (copyBudget < 0) {
            throw new TorchException(
                    what + ": the storages' records overlap (together they are larger than the file): the file is "
                            + "forged or corrupted");
        }
        if (verify) source.verify(ref.key());
        long slots = nbytes / width;
        Storage dst = slots <= Storage.MAX_HEAP_SLOTS
                ? Storage.allocate(kind, slots)
                : Storage.ofSegment(kind, Arena.ofAuto().allocate(nbytes, 64));
        MemorySegment.copy(file, 0, dst.segment(), 0, nbytes);
        if (bigEndian) swap(dst.segment(), dtype.isComplex() ? dtype.itemSize() / 2 : dtype.itemSize());
        return dst;
    }

    /** A legacy storage view: {@code viewSize} elements of the root from {@code viewOffset} on. */
    private Storage view(Storage root, StorageRef ref) {
        long size = ref.type().elementSize();
        long from;
        long len;
        try {
            from = Math.multiplyExact(ref.viewOffset(), size);
            len = Math.multiplyExact(ref.viewSize(), size);
        } catch (ArithmeticException e) {
            throw new TorchException(what + ": storage view '" + ref.viewKey() + "' is out of range");
        }
        if (from > root.byteSize() || len > root.byteSize() - from) {
            throw new TorchException(what + ": storage view '" + ref.viewKey() + "' (" + len + " bytes at " + from
                    + ") lies outside its storage of " + root.byteSize() + " bytes");
        }
        int width = Storage.slotBytes(root.kind());
        if (from % width != 0 || len % width != 0)
            throw new TorchException(what + ": storage view '" + ref.viewKey() + "' is misaligned");
        if (root.isFake()) return Storage.fake(root.device(), root.kind(), len / width);
        if (root.isMeta()) return Storage.meta(root.kind(), len / width);
        return Storage.ofSegment(root.kind(), root.segment().asSlice(from, len));
    }

    private Storage asKind(Storage s, DType.StorageKind kind, StorageRef ref) {
        int width = Storage.slotBytes(kind);
        if (s.byteSize() % width != 0) {
            throw new TorchException(what + ": storage '" + ref.key() + "' of " + s.byteSize() + " bytes cannot hold "
                    + kind + " elements");
        }
        if (s.isFake()) return Storage.fake(s.device(), kind, s.byteSize() / width);
        return s.isMeta() ? Storage.meta(kind, s.byteSize() / width) : Storage.ofSegment(kind, s.segment());
    }

    /** The device a storage saved at {@code location} goes to ({@code default_restore_location}). */
    private Device target(String location) {
        if (mapLocation != null) return mapLocation;
        if (location.equals("cpu")) return Device.CPU;
        if (location.equals("meta")) return Device.META;
        if (location.startsWith("cuda")) {
            throw new TorchException(
                    "Attempting to deserialize object on a CUDA device but CUDA is not available to JTorch. If you "
                            + "are running on a CPU-only machine, please use Serialization.load with "
                            + "LoadOptions.defaults().mapLocation(Device.CPU) to map your storages to the CPU.");
        }
        throw new TorchException("don't know how to restore data location of storage '" + location + "' in " + what
                + "; use LoadOptions.defaults().mapLocation(Device.CPU)");
    }

    /** Reverses the byte order of every {@code width}-byte element in place. */
    private static void swap(MemorySegment s, int width) {
        long n = s.byteSize();
        switch (width) {
            case 2 -> {
                var le = ValueLayout.JAVA_SHORT_UNALIGNED;
                for (long i = 0; i < n; i += 2) s.set(le, i, Short.reverseBytes(s.get(le, i)));
            }
            case 4 -> {
                var le = ValueLayout.JAVA_INT_UNALIGNED;
                for (long i = 0; i < n; i += 4) s.set(le, i, Integer.reverseBytes(s.get(le, i)));
            }
            case 8 -> {
                var le = ValueLayout.JAVA_LONG_UNALIGNED;
                for (long i = 0; i < n; i += 8) s.set(le, i, Long.reverseBytes(s.get(le, i)));
            }
            default -> {} // single bytes have no order
        }
    }
}

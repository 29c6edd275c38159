package org.jtorch.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.Device;
import org.jtorch.TorchException;

/**
 * Loads the legacy (pre-1.6, {@code _use_new_zipfile_serialization=False}) format: five pickles in a row (magic number,
 * protocol version 1001, system info, the object, the list of storage keys) followed by each storage as a little-endian
 * int64 element count and its raw little-endian bytes.
 *
 * <p>The storages' places are only known after the object's pickle, so it is read twice: first with data-less (meta)
 * storages, which records every storage reference and validates the structure, then (after the storage section has been
 * checked against the file) with the data. A meta load stops after the first pass.
 */
final class LegacyCheckpoint {
    static final BigInteger MAGIC = new BigInteger("1950a86a20f9469cfc6c", 16);
    static final long PROTOCOL_VERSION = 1001;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LegacyCheckpoint() {}

    /** @param unsafeSeen if not null: only collect the globals that are not allowlisted (no data is read) */
    static Object load(
            MemorySegment file, String what, LoadOptions o, Map<String, SafeGlobal> user, Set<String> unsafeSeen) {
        if (isTar(file)) {
            throw new TorchException(
                    what + " is a legacy .tar checkpoint (PyTorch before 0.4); JTorch cannot load that format. "
                            + "Re-save it with torch.save in a recent PyTorch.");
        }
        TensorRebuild.Storages noStorages = (ref, dtype) -> {
            throw new UnpicklingException(what + ": a storage appears in the checkpoint's header");
        };
        // one budget for the whole file: its pickles run back to back and the object's pickle runs twice
        Budget budget = Budget.forPickle(what, 3 * file.byteSize());
        PickleReader header = new PickleReader(
                file,
                0,
                file.byteSize(),
                what,
                new TorchGlobals(true, Map.of(), noStorages, what, null, budget),
                budget);
        Object magic;
        try {
            magic = header.load();
        } catch (UnpicklingException e) {
            throw new TorchException(what + " is not a checkpoint: neither a zip archive nor a legacy torch.save file ("
                    + e.getMessage() + ")");
        }
        if (!MAGIC.equals(magic)) {
            throw new TorchException(
                    what + ": Invalid magic number; corrupt file? (neither a zip checkpoint nor a legacy one)");
        }
        Object protocol = header.load();
        if (!Long.valueOf(PROTOCOL_VERSION).equals(protocol))
            throw new TorchException(what + ": Invalid protocol version: " + protocol);
        header.load(); // sys_info: storage bytes are little-endian whatever machine wrote them
        long objectStart = header.position();

        // pass 1: structure and storage references, on the meta device
        Map<String, StorageRef> refs = new LinkedHashMap<>();
        StorageLoader.Source recording = new StorageLoader.Source() {
            @Override
            public MemorySegment bytes(StorageRef ref) {
                refs.putIfAbsent(ref.key(), ref);
                return MemorySegment.NULL;
            }

            @Override
            public void verify(String key) {}
        };
        Map<String, SafeGlobal> globals = user;
        PickleReader first = new PickleReader(
                file,
                objectStart,
                file.byteSize(),
                what,
                new TorchGlobals(
                        o.weightsOnly(),
                        globals,
                        new StorageLoader(recording, Device.META, false, false, false, what, file.byteSize()),
                        what,
                        unsafeSeen,
                        budget),
                budget);
        Object metaResult = first.load();
        if (unsafeSeen != null || o.mapLocation() == Device.META) return metaResult;

        PickleReader keysReader = new PickleReader(
                file,
                first.position(),
                file.byteSize(),
                what,
                new TorchGlobals(true, Map.of(), noStorages, what, null, budget),
                budget);
        Object keys = keysReader.load();
        Map<String, Long> offsets = storageOffsets(file, keysReader.position(), keys, refs, what);

        // pass 2: the same pickle with the storages read from their places
        StorageLoader.Source data = new StorageLoader.Source() {
            @Override
            public MemorySegment bytes(StorageRef ref) {
                StorageRef first = refs.get(ref.key());
                if (first == null || first.nbytes() != ref.nbytes()) {
                    throw new TorchException(what + ": storage '" + ref.key() + "' is referenced with different sizes");
                }
                return file.asSlice(offsets.get(ref.key()), ref.nbytes());
            }

            @Override
            public void verify(String key) {}
        };
        StorageLoader loader = new StorageLoader(data, o.mapLocation(), false, false, false, what, file.byteSize());
        return new PickleReader(
                        file,
                        objectStart,
                        file.byteSize(),
                        what,
                        new TorchGlobals(o.weightsOnly(), globals, loader, what, null, budget),
                        budget)
                .load();
    }

    /** Checks the storage section against the references and the file; returns each key's data offset. */
    private static Map<String, Long> storageOffsets(
            MemorySegment file, long at, Object keys, Map<String, StorageRef> refs, String what) {
        if (!(keys instanceof List<?> list)) throw new TorchException(what + ": the storage key list is missing");
        Map<String, Long> offsets = new HashMap<>();
        long size = file.byteSize();
        for (Object k : list) {
            if (!(k instanceof String key)) throw new TorchException(what + ": storage keys must be strings");
            StorageRef ref = refs.get(key);
            if (ref == null) throw new TorchException(what + ": storage '" + key + "' is listed but never referenced");
            if (at > size - 8)
                throw new TorchException(what + ": storage '" + key + "' is missing: the file is truncated");
            long numel = file.get(I64, at);
            if (numel != ref.numel()) {
                throw new TorchException(what + ": storage '" + key + "' has " + numel + " elements in the file but "
                        + ref.numel() + " in the pickle");
            }
            at += 8;
            long nbytes = ref.nbytes();
            if (nbytes > size - at)
                throw new TorchException(what + ": storage '" + key + "' runs past the end of the file (truncated?)");
            offsets.put(key, at);
            at += nbytes;
        }
        for (String key : refs.keySet()) {
            if (!offsets.containsKey(key))
                throw new TorchException(what + ": storage '" + key + "' has no data in the file");
        }
        return offsets;
    }

    /** A POSIX tar header: {@code "ustar"} at offset 257. */
    private static boolean isTar(MemorySegment file) {
        if (file.byteSize() < 262) return false;
        byte[] m = file.asSlice(257, 5).toArray(ValueLayout.JAVA_BYTE);
        return new String(m, java.nio.charset.StandardCharsets.US_ASCII).equals("ustar");
    }
}

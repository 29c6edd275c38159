package org.jtorch.io;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.TorchException;

/**
 * Loads a zip-format checkpoint ({@code torch.serialization._load}): unpickles {@code data.pkl}, whose persistent ids
 * name the {@code data/<key>} records holding the storages.
 */
final class ZipCheckpoint {
    private ZipCheckpoint() {}

    /** @param unsafeSeen if not null: only collect the globals that are not allowlisted (no data is read) */
    static Object load(
            MemorySegment file, String what, LoadOptions o, Map<String, SafeGlobal> user, Set<String> unsafeSeen) {
        ZipReader zip = ZipReader.open(file, what);
        List<String> names = zip.names();
        if (names.isEmpty()) throw new TorchException(what + ": the archive is empty: not a torch.save checkpoint");
        int slash = names.get(0).indexOf('/');
        if (slash < 0) throw new TorchException(what + ": file in archive is not in a subdirectory: " + names.get(0));
        String prefix = names.get(0).substring(0, slash + 1);
        if (zip.entry(prefix + "constants.pkl") != null) {
            throw new TorchException(
                    what + " is a TorchScript archive (torch.jit.save); JTorch cannot run TorchScript. Cannot use "
                            + "weights_only loading with TorchScript archives.");
        }
        ZipReader.Entry pkl = zip.entry(prefix + "data.pkl");
        if (pkl == null)
            throw new TorchException(what + ": the archive has no " + prefix + "data.pkl: not a torch.save checkpoint");
        boolean bigEndian = bigEndian(zip, prefix, what);
        MemorySegment pickle = zip.data(pkl);
        if (o.verifyChecksums() && unsafeSeen == null) zip.verify(pkl, pickle);

        StorageLoader.Source records = new StorageLoader.Source() {
            @Override
            public MemorySegment bytes(StorageRef ref) {
                ZipReader.Entry e = entry(ref.key());
                MemorySegment d = zip.data(e);
                if (d.byteSize() != ref.nbytes()) {
                    throw new TorchException(
                            what + ": record data/" + ref.key() + " holds " + d.byteSize() + " bytes but its storage ("
                                    + ref.numel() + " × " + ref.type().name() + ") needs " + ref.nbytes());
                }
                return d;
            }

            @Override
            public void verify(String key) {
                ZipReader.Entry e = entry(key);
                zip.verify(e, zip.data(e));
            }

            private ZipReader.Entry entry(String key) {
                ZipReader.Entry e = zip.entry(prefix + "data/" + key);
                if (e == null)
                    throw new TorchException(
                            what + ": the archive has no record data/" + key + " for a storage it references");
                return e;
            }
        };
        StorageLoader storages = new StorageLoader(
                records,
                unsafeSeen == null ? o.mapLocation() : org.jtorch.Device.META,
                o.mmap(),
                bigEndian,
                o.verifyChecksums(),
                what,
                file.byteSize());
        Budget budget = Budget.forPickle(what, pickle.byteSize());
        TorchGlobals globals = new TorchGlobals(o.weightsOnly(), user, storages, what, unsafeSeen, budget);
        return new PickleReader(pickle, 0, pickle.byteSize(), what + ": data.pkl", globals, budget).load();
    }

    /** The {@code byteorder} record; little-endian when absent (PyTorch's default since 2.1). */
    private static boolean bigEndian(ZipReader zip, String prefix, String what) {
        ZipReader.Entry e = zip.entry(prefix + "byteorder");
        if (e == null) return false;
        MemorySegment d = zip.data(e);
        if (d.byteSize() > 16) throw new TorchException(what + ": Unknown endianness type in the byteorder record");
        String order = new String(d.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
        return switch (order) {
            case "little" -> false;
            case "big" -> true;
            default -> throw new TorchException(what + ": Unknown endianness type: " + order);
        };
    }
}

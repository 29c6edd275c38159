package org.jtorch.io;

import static org.jtorch.io.Opcodes.*;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.storage.Storage;

/**
 * Pickles an object graph as {@code torch.save} does: protocol 2, byte for byte what CPython's pickler writes for the
 * same Python objects (memo puts and gets, batching of 1000 items, the integer encodings), with tensors reduced to
 * {@code _rebuild_tensor_v2/_v3} over persistent ids of their storages.
 *
 * <p>Objects, strings included, are memoized by identity as CPython does: a container saved twice is written once
 * (cycles included), and a string object seen again is a memo get. Java's interned literals and the strings of a loaded
 * checkpoint then behave like Python's interned names and unpickled strings, so a loaded checkpoint saves back byte for
 * byte. Storages get keys {@code "0", "1", ...} in first-seen order; {@link #storages()} lists them for the archive
 * writer.
 */
final class PickleWriter {
    /** A storage to write as record {@code data/<key>}: its first {@code nbytes} bytes. */
    record SavedStorage(String key, Storage storage, long nbytes) {}

    static final int MAX_DEPTH = 1000;
    private static final int BATCH = 1000;
    private static final String STORAGE = "storage";
    private static final String CPU = "cpu";
    private static final String LATIN1 = "latin1";

    private byte[] buf = new byte[256];
    private int len;
    private final IdentityHashMap<Object, Integer> memo = new IdentityHashMap<>();
    private final Map<String, Integer> globals = new HashMap<>();
    private int memoSize;
    private final IdentityHashMap<Storage, String> keys = new IdentityHashMap<>();
    /** The dtype each storage was first saved with ({@code storage_dtypes} of {@code torch.serialization._save}). */
    private final IdentityHashMap<Storage, DType> storageDtypes = new IdentityHashMap<>();

    private final List<SavedStorage> storages = new ArrayList<>();

    /** The pickle of {@code obj}. */
    byte[] dump(Object obj) {
        op(PROTO);
        op(2);
        save(obj, 0);
        op(STOP);
        return Arrays.copyOf(buf, len);
    }

    /** The storages the pickle references, in key order. */
    List<SavedStorage> storages() {
        return storages;
    }

    private void save(Object o, int depth) {
        if (depth > MAX_DEPTH)
            throw new TorchException("torch.save: objects nested deeper than " + MAX_DEPTH + " levels");
        if (o == null) {
            op(NONE);
        } else if (o instanceof Boolean b) {
            op(b ? NEWTRUE : NEWFALSE);
        } else if (o instanceof Long || o instanceof Integer || o instanceof Short || o instanceof Byte) {
            saveInt(((Number) o).longValue());
        } else if (o instanceof BigInteger b) {
            saveBig(b);
        } else if (o instanceof Double || o instanceof Float) {
            op(BINFLOAT);
            long bits = Double.doubleToRawLongBits(((Number) o).doubleValue());
            for (int i = 7; i >= 0; i--) op((int) (bits >>> (8 * i)) & 0xff);
        } else if (o instanceof String s) {
            saveString(s);
        } else if (!getIfMemoized(o)) {
            saveObject(o, depth);
        }
    }

    /** Objects memoized by identity. */
    private void saveObject(Object o, int depth) {
        switch (o) {
            case Tensor t -> saveTensor(t);
            case PyState s -> save(s.toPyTorch(), depth + 1);
            case PyTuple t -> saveTuple(t.items(), depth, o);
            case PyOrderedDict d -> {
                saveGlobal("collections", "OrderedDict");
                op(EMPTY_TUPLE);
                op(REDUCE);
                memoize(d);
                saveItems(d, depth);
                if (!d.attributes().isEmpty()) {
                    save(new java.util.LinkedHashMap<Object, Object>(d.attributes()), depth + 1);
                    op(BUILD);
                }
            }
            case Map<?, ?> m -> {
                op(EMPTY_DICT);
                memoize(m);
                saveItems(m, depth);
            }
            case List<?> l -> {
                op(EMPTY_LIST);
                memoize(l);
                saveAppends(l, depth);
            }
            case Set<?> s -> {
                saveGlobal("__builtin__", "set");
                saveTuple(List.of(new ArrayList<>(s)), depth, null);
                op(REDUCE);
                memoize(s);
            }
            case byte[] b -> {
                saveGlobal("_codecs", "encode");
                saveTuple(List.of(new String(b, StandardCharsets.ISO_8859_1), LATIN1), depth, null);
                op(REDUCE);
                memoize(b);
            }
            case PyComplex c -> {
                saveGlobal("__builtin__", "complex");
                saveTuple(List.of(c.real(), c.imag()), depth, null);
                op(REDUCE);
                memoize(c);
            }
            case DType d -> saveGlobal("torch", d.pyName());
            case Device d -> {
                saveGlobal("torch", "device");
                saveTuple(List.of(d.type()), depth, null);
                op(REDUCE);
                memoize(d);
            }
            case PyGlobal g -> saveGlobal(g.module(), g.name());
            case PyObject p -> {
                saveGlobal(p.type().module(), p.type().name());
                saveTuple(p.args(), depth, null);
                op(p.isNewobj() ? NEWOBJ : REDUCE);
                memoize(p);
                if (p.state() != null) {
                    save(p.state(), depth + 1);
                    op(BUILD);
                }
            }
            default ->
                throw new TorchTypeException(
                        "torch.save: cannot pickle '" + o.getClass().getName() + "' object; supported "
                                + "are Tensor, Map, List, Set, PyTuple, String, Long/Integer/BigInteger, "
                                + "Double/Float, Boolean, null, byte[], "
                                + "DType, Device, PyComplex, PyGlobal and PyObject");
        }
    }

    /**
     * {@code Tensor.__reduce_ex__}: {@code _rebuild_tensor_v2(storage, offset, size, stride, requires_grad,
     * OrderedDict())}, or {@code _v3(..., dtype)} over an {@code UntypedStorage} for the dtypes without a legacy
     * storage class, or {@code _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad)} on the meta device.
     */
    private void saveTensor(Tensor t) {
        if (t.isMeta()) {
            saveGlobal("torch._utils", "_rebuild_meta_tensor_no_storage");
            op(MARK);
            saveGlobal("torch", t.dtype().pyName());
            saveInts(t.impl().shapeRef());
            saveInts(t.impl().strideRef());
            op(t.requiresGrad() ? NEWTRUE : NEWFALSE);
            op(TUPLE);
            memoizeFresh();
            op(REDUCE);
            memoize(t);
            return;
        }
        boolean legacy = StorageTypes.isLegacy(t.dtype());
        saveGlobal("torch._utils", legacy ? "_rebuild_tensor_v2" : "_rebuild_tensor_v3");
        op(MARK);
        savePersistentId(t.impl().storage(), t.dtype(), legacy);
        saveInt(t.storageOffset());
        saveInts(t.impl().shapeRef());
        saveInts(t.impl().strideRef());
        op(t.requiresGrad() ? NEWTRUE : NEWFALSE);
        saveGlobal("collections", "OrderedDict"); // backward hooks: always an empty OrderedDict (hooks are not saved)
        op(EMPTY_TUPLE);
        op(REDUCE);
        memoizeFresh();
        if (!legacy) saveGlobal("torch", t.dtype().pyName());
        op(TUPLE);
        memoizeFresh();
        op(REDUCE);
        memoize(t);
    }

    /** {@code ('storage', storage_type, key, location, numel)} + BINPERSID. */
    private void savePersistentId(Storage s, DType dtype, boolean legacy) {
        DType checkDtype = legacy ? dtype : DType.UINT8;
        DType seen = storageDtypes.putIfAbsent(s, checkDtype);
        if (seen != null && seen != checkDtype && s.byteSize() > 0) {
            throw new TorchException(
                    "Cannot save multiple tensors or storages that view the same data as different types");
        }
        long numel = legacy ? s.byteSize() / dtype.itemSize() : s.byteSize();
        String key = keys.get(s);
        if (key == null) {
            key = String.valueOf(keys.size());
            keys.put(s, key);
            storages.add(new SavedStorage(key, s, legacy ? numel * dtype.itemSize() : numel));
        }
        op(MARK);
        saveString(STORAGE);
        if (legacy) {
            String[] g = StorageTypes.legacyGlobal(dtype);
            saveGlobal(g[0], g[1]);
        } else {
            saveGlobal("torch.storage", "UntypedStorage");
        }
        saveString(key);
        saveString(CPU);
        saveInt(numel);
        op(TUPLE);
        memoizeFresh();
        op(BINPERSID);
    }

    private void saveInts(long[] values) {
        List<Object> boxed = new ArrayList<>(values.length);
        for (long v : values) boxed.add(v);
        saveTuple(boxed, 0, null);
    }

    /** CPython's {@code save_tuple}: EMPTY_TUPLE, TUPLE1-3, or MARK ... TUPLE; memoized unless empty. */
    private void saveTuple(List<?> items, int depth, Object identity) {
        if (items.isEmpty()) {
            op(EMPTY_TUPLE);
            return;
        }
        int n = items.size();
        if (n > 3) op(MARK);
        for (Object item : items) save(item, depth + 1);
        op(
                switch (n) {
                    case 1 -> TUPLE1;
                    case 2 -> TUPLE2;
                    case 3 -> TUPLE3;
                    default -> TUPLE;
                });
        if (identity != null) memoize(identity);
        else memoizeFresh();
    }

    /** {@code _batch_setitems}: SETITEM for a batch of one, MARK ... SETITEMS per 1000 otherwise. */
    private void saveItems(Map<?, ?> m, int depth) {
        List<Map.Entry<?, ?>> entries = new ArrayList<>(m.entrySet());
        for (int from = 0; from < entries.size(); from += BATCH) {
            List<Map.Entry<?, ?>> batch = entries.subList(from, Math.min(entries.size(), from + BATCH));
            if (batch.size() > 1) op(MARK);
            for (Map.Entry<?, ?> e : batch) {
                save(e.getKey(), depth + 1);
                save(e.getValue(), depth + 1);
            }
            op(batch.size() > 1 ? SETITEMS : SETITEM);
        }
    }

    /** {@code _batch_appends}: APPEND for a batch of one, MARK ... APPENDS per 1000 otherwise. */
    private void saveAppends(List<?> l, int depth) {
        List<?> items = new ArrayList<>(l);
        for (int from = 0; from < items.size(); from += BATCH) {
            List<?> batch = items.subList(from, Math.min(items.size(), from + BATCH));
            if (batch.size() > 1) op(MARK);
            for (Object o : batch) save(o, depth + 1);
            op(batch.size() > 1 ? APPENDS : APPEND);
        }
    }

    /** BININT1 / BININT2 / BININT / LONG1, as CPython's {@code save_long}. */
    private void saveInt(long v) {
        if (v >= 0 && v <= 0xff) {
            op(BININT1);
            op((int) v);
        } else if (v >= 0 && v <= 0xffff) {
            op(BININT2);
            op((int) v & 0xff);
            op((int) (v >>> 8));
        } else if (v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE) {
            op(BININT);
            putInt((int) v);
        } else {
            saveBig(BigInteger.valueOf(v));
        }
    }

    /** LONG1 / LONG4 with pickle's {@code encode_long}: minimal little-endian two's complement. */
    private void saveBig(BigInteger v) {
        if (v.bitLength() < 32) {
            saveInt(v.longValue());
            return;
        }
        byte[] be = v.toByteArray();
        if (be.length < 256) {
            op(LONG1);
            op(be.length);
        } else {
            op(LONG4);
            putInt(be.length);
        }
        for (int i = be.length - 1; i >= 0; i--) op(be[i] & 0xff);
    }

    private void saveString(String s) {
        if (getIfMemoized(s)) return;
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        op(BINUNICODE);
        putInt(b.length);
        put(b);
        memoize(s);
    }

    private void saveGlobal(String module, String name) {
        String full = module + "\n" + name;
        Integer idx = globals.get(full);
        if (idx != null) {
            get(idx);
            return;
        }
        op(GLOBAL);
        put((full + "\n").getBytes(StandardCharsets.UTF_8));
        globals.put(full, memoSize);
        put(memoSize++);
    }

    private boolean getIfMemoized(Object o) {
        Integer idx = memo.get(o);
        if (idx == null) return false;
        get(idx);
        return true;
    }

    private void memoize(Object o) {
        memo.put(o, memoSize);
        put(memoSize++);
    }

    /** Memo entry for an object that is never seen again (CPython memoizes every tuple it writes). */
    private void memoizeFresh() {
        put(memoSize++);
    }

    private void put(int idx) {
        if (idx < 256) {
            op(BINPUT);
            op(idx);
        } else {
            op(LONG_BINPUT);
            putInt(idx);
        }
    }

    private void get(int idx) {
        if (idx < 256) {
            op(BINGET);
            op(idx);
        } else {
            op(LONG_BINGET);
            putInt(idx);
        }
    }

    private void putInt(int v) {
        for (int i = 0; i < 4; i++) op((v >>> (8 * i)) & 0xff);
    }

    private void put(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    private void op(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            long want = Math.max((long) len + n, 2L * buf.length);
            if (want > Integer.MAX_VALUE - 8)
                throw new TorchException("torch.save: the pickled object graph exceeds 2 GB");
            buf = Arrays.copyOf(buf, (int) want);
        }
    }
}

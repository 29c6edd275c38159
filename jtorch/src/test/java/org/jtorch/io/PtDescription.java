package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.storage.Storage;
import org.jtorch.testing.Json;

/**
 * Compares a loaded (or about-to-be-saved) Java object with the JSON description that
 * {@code src/test/python/pt_describe.py} makes of a Python object: same structure, same scalars (floats bit for bit),
 * same tensor geometry and element bytes, and the same storage sharing (tensors with equal storage numbers share one
 * {@link Storage}, others do not).
 */
final class PtDescription {
    private final Map<Long, Storage> storagesById = new HashMap<>();
    private final IdentityHashMap<Storage, Long> idsByStorage = new IdentityHashMap<>();
    private final boolean compareData;

    private PtDescription(boolean compareData) {
        this.compareData = compareData;
    }

    /** Reads a description file. */
    static Object read(Path json) {
        try {
            return Json.parse(Files.readString(json, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts that {@code actual} is what {@code expected} describes; element bytes are skipped for meta tensors. */
    static void assertMatches(Object expected, Object actual) {
        new PtDescription(true).match(expected, actual, "$");
    }

    /** As {@link #assertMatches} but ignoring element bytes (for loads that did not read data). */
    static void assertMatchesIgnoringData(Object expected, Object actual) {
        new PtDescription(false).match(expected, actual, "$");
    }

    private void match(Object expected, Object actual, String path) {
        Map<?, ?> e = assertInstanceOf(Map.class, expected, path);
        String kind = e.keySet().stream()
                .filter(k -> !k.equals("attrs") && !k.equals("state"))
                .findFirst()
                .orElseThrow()
                .toString();
        Object v = e.get(kind);
        switch (kind) {
            case "none" -> assertNull(actual, path);
            case "bool" -> assertEquals(v, actual, path);
            case "int" -> {
                BigInteger want = new BigInteger((String) v);
                Object got = actual instanceof Integer i ? (Object) (long) i : actual;
                if (want.bitLength() < 64) assertEquals(want.longValue(), got, path);
                else assertEquals(want, got, path);
            }
            case "float" -> {
                double got = assertInstanceOf(Number.class, actual, path).doubleValue();
                assertTrue(actual instanceof Double || actual instanceof Float, path + ": not a float: " + actual);
                assertEquals(
                        Double.doubleToLongBits(pyFloat((String) v)),
                        Double.doubleToLongBits(got),
                        path + ": " + v + " vs " + got);
            }
            case "complex" -> {
                PyComplex c = assertInstanceOf(PyComplex.class, actual, path);
                List<?> parts = (List<?>) v;
                assertEquals(pyFloat((String) parts.get(0)), c.real(), 0, path);
                assertEquals(pyFloat((String) parts.get(1)), c.imag(), 0, path);
            }
            case "str" -> assertEquals(v, actual, path);
            case "bytes" ->
                assertEquals(v, HexFormat.of().formatHex(assertInstanceOf(byte[].class, actual, path)), path);
            case "dtype" ->
                assertEquals(v, assertInstanceOf(DType.class, actual, path).pyName(), path);
            case "device" -> assertEquals(v, actual instanceof Device d ? d.type() : actual, path);
            case "list" -> matchAll((List<?>) v, assertInstanceOf(List.class, actual, path), path);
            case "tuple" ->
                matchAll(
                        (List<?>) v,
                        assertInstanceOf(PyTuple.class, actual, path).items(),
                        path);
            case "set" -> {
                Set<?> set = assertInstanceOf(Set.class, actual, path);
                matchAll((List<?>) v, new ArrayList<>(set), path);
            }
            case "dict" -> matchMap((List<?>) v, assertInstanceOf(Map.class, actual, path), path);
            case "ordered_dict" -> {
                PyOrderedDict d = assertInstanceOf(PyOrderedDict.class, actual, path);
                matchMap((List<?>) v, d, path);
                Map<?, ?> attrs = (Map<?, ?>) e.get("attrs");
                assertEquals(attrs.keySet(), d.attributes().keySet(), path + " attributes");
                for (var a : attrs.entrySet())
                    match(a.getValue(), d.attributes().get(a.getKey()), path + "." + a.getKey());
            }
            case "tensor" -> matchTensor((Map<?, ?>) v, assertInstanceOf(Tensor.class, actual, path), path);
            case "object" -> {
                PyObject o = assertInstanceOf(PyObject.class, actual, path);
                assertEquals(v, o.type().qualifiedName(), path);
                match(e.get("state"), o.state(), path + ".state");
            }
            default -> fail(path + ": unknown description kind " + kind);
        }
    }

    private void matchAll(List<?> expected, List<?> actual, String path) {
        assertEquals(expected.size(), actual.size(), path + " length");
        for (int i = 0; i < expected.size(); i++) match(expected.get(i), actual.get(i), path + "[" + i + "]");
    }

    private void matchMap(List<?> expected, Map<?, ?> actual, String path) {
        assertEquals(expected.size(), actual.size(), path + " size");
        var it = actual.entrySet().iterator();
        for (Object pair : expected) {
            List<?> kv = (List<?>) pair;
            var entry = it.next();
            match(kv.get(0), entry.getKey(), path + " key");
            match(kv.get(1), entry.getValue(), path + "[" + entry.getKey() + "]");
        }
    }

    private void matchTensor(Map<?, ?> e, Tensor t, String path) {
        assertEquals(e.get("dtype"), t.dtype().pyName(), path + " dtype");
        assertEquals(longs(e.get("shape")), List.of(box(t.shape())), path + " shape");
        assertEquals(longs(e.get("stride")), List.of(box(t.stride())), path + " stride");
        assertEquals(e.get("offset"), t.storageOffset(), path + " offset");
        assertEquals(e.get("requires_grad"), t.requiresGrad(), path + " requires_grad");
        assertEquals(e.get("storage_nbytes"), t.impl().storage().byteSize(), path + " storage bytes");
        long id = (Long) e.get("storage");
        Storage known = storagesById.putIfAbsent(id, t.impl().storage());
        if (known != null) assertSame(known, t.impl().storage(), path + ": expected to share storage " + id);
        Long otherId = idsByStorage.putIfAbsent(t.impl().storage(), id);
        assertTrue(
                otherId == null || otherId == id,
                path + ": shares a storage it should not (" + otherId + " vs " + id + ")");
        if (compareData && !t.isMeta())
            assertEquals(e.get("bytes"), HexFormat.of().formatHex(elementBytes(t)), path + " data");
    }

    /** The elements of {@code t} in row-major order, as stored (little-endian). */
    static byte[] elementBytes(Tensor t) {
        int size = t.dtype().itemSize();
        MemorySegment s = t.impl().storage().segment();
        byte[] out = new byte[Math.toIntExact(t.numel() * size)];
        for (long i = 0; i < t.numel(); i++) {
            MemorySegment.copy(s, ValueLayout.JAVA_BYTE, t.impl().elementIndex(i) * size, out, (int) i * size, size);
        }
        return out;
    }

    private static List<Object> longs(Object o) {
        return new ArrayList<>((List<?>) o);
    }

    private static Long[] box(long[] a) {
        Long[] b = new Long[a.length];
        for (int i = 0; i < a.length; i++) b[i] = a[i];
        return b;
    }

    private static double pyFloat(String repr) {
        return switch (repr) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> Double.parseDouble(repr);
        };
    }
}

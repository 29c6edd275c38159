package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.storage.TensorImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Tests for {@link Npy}. Expected values and files come from numpy itself ({@code make_golden_io.py}: np.save,
 * np.savez, np.savez_compressed, format.write_array), and numpy reads back the files JTorch writes
 * ({@code read_jtorch_io.py}).
 */
class NpyTest {
    @TempDir
    Path tmp;

    static Stream<Map<String, Object>> npyFiles() {
        return SafetensorsFixtures.section("npy").stream();
    }

    static Stream<Map<String, Object>> npzFiles() {
        return SafetensorsFixtures.section("npz").stream();
    }

    static Stream<Map<String, Object>> invalidFiles() {
        return SafetensorsFixtures.section("invalid").stream()
                .filter(f -> !((String) f.get("file")).endsWith(".safetensors"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> expected(Map<String, Object> fixture) {
        return (Map<String, Object>) fixture.get("tensor");
    }

    // ---- reading numpy's files ---------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("npyFiles")
    void readsNumpyFiles(Map<String, Object> fixture) {
        String name = (String) fixture.get("file");
        Tensor t = Npy.load(SafetensorsFixtures.file(name));
        SafetensorsFixtures.assertTensor(expected(fixture), t, name);
        assertTrue(t.impl().storage().array() != null, "a heap copy");
        if ((Boolean) fixture.get("fortran")) {
            assertFalse(t.isContiguous(), name + " keeps Fortran order as a column-major view");
            assertEquals(1, t.stride(0), name + " first index varies fastest");
        } else {
            assertTrue(t.isContiguous(), name);
        }
    }

    @Test
    void fortranOrderGivesColumnMajorStrides() {
        Tensor t = Npy.load(SafetensorsFixtures.file("fortran.npy")); // arange(24).reshape(2, 3, 4), order F
        assertArrayEquals(new long[] {1, 2, 6}, t.stride());
        assertEquals(
                1 * 12 + 2 * 4 + 3, t.select(0, 1).select(0, 2).select(0, 3).item());
    }

    @ParameterizedTest
    @MethodSource("npzFiles")
    void readsNumpyArchives(Map<String, Object> fixture) {
        String name = (String) fixture.get("file");
        Map<String, Tensor> loaded = Npy.loadZ(SafetensorsFixtures.file(name));
        List<Map<String, Object>> expected = SafetensorsFixtures.tensors(fixture);
        assertEquals(expected.stream().map(e -> e.get("name")).toList(), List.copyOf(loaded.keySet()), "archive order");
        for (Map<String, Object> e : expected)
            SafetensorsFixtures.assertTensor(e, loaded.get((String) e.get("name")), name);
    }

    // ---- writing ----------------------------------------------------------------------------------------------

    /** For every C-order little-endian fixture, JTorch's np.save output equals numpy's, byte for byte. */
    @ParameterizedTest
    @MethodSource("npyFiles")
    void writesTheBytesNumpyWrites(Map<String, Object> fixture) throws IOException {
        String name = (String) fixture.get("file");
        if ((Boolean) fixture.get("fortran") || name.startsWith("big_") || name.startsWith("v")) return;
        Path numpy = SafetensorsFixtures.file(name), ours = tmp.resolve(name);
        Npy.save(Npy.load(numpy), ours);
        assertArrayEquals(Files.readAllBytes(numpy), Files.readAllBytes(ours), name);
    }

    @Test
    void roundTripsEveryDtypeAndWritesViewsContiguous() {
        List<Tensor> inputs = new ArrayList<>();
        for (var fixture : SafetensorsFixtures.section("npy"))
            inputs.add(Npy.load(SafetensorsFixtures.file((String) fixture.get("file"))));
        inputs.add(Torch.arange(12.0).view(3, 4).t()); // transposed view
        inputs.add(Torch.arange(12.0).view(3, 4).narrow(1, 1, 2)); // strided slice
        inputs.add(Torch.tensor(new double[] {1, 2}).requiresGrad(true)); // saved as data
        for (int i = 0; i < inputs.size(); i++) {
            Tensor in = inputs.get(i);
            Path f = tmp.resolve("t" + i + ".npy");
            Npy.save(in, f);
            Tensor back = Npy.load(f);
            assertEquals(in.dtype(), back.dtype());
            assertArrayEquals(in.shape(), back.shape());
            assertTrue(back.isContiguous());
            assertArrayEquals(in.toDoubleArray(), back.toDoubleArray(), 0.0, "input " + i);
            assertArrayEquals(in.toLongArray(), back.toLongArray(), "input " + i);
        }
    }

    @Test
    void savezWritesAStoredZipInMapOrder() throws IOException {
        Map<String, Tensor> arrays = new LinkedHashMap<>();
        arrays.put("w", Torch.arange(6.0).view(2, 3).t());
        arrays.put("b", Torch.tensor(new long[] {1, -2}));
        arrays.put("nested/name", Torch.tensor(new boolean[] {true, false}));
        arrays.put("tied", arrays.get("w")); // sharing is fine: numpy copies
        Path f = tmp.resolve("a.npz");
        Npy.saveZ(arrays, f);
        try (ZipFile zip = new ZipFile(f.toFile())) {
            List<String> names = new ArrayList<>();
            for (ZipEntry e : Collections.list(zip.entries())) {
                names.add(e.getName());
                assertEquals(ZipEntry.STORED, e.getMethod(), "uncompressed, as np.savez");
            }
            assertEquals(List.of("w.npy", "b.npy", "nested/name.npy", "tied.npy"), names);
        }
        Map<String, Tensor> back = Npy.loadZ(f);
        assertEquals(List.copyOf(arrays.keySet()), List.copyOf(back.keySet()));
        for (var e : arrays.entrySet())
            assertArrayEquals(e.getValue().toDoubleArray(), back.get(e.getKey()).toDoubleArray());
        byte[] first = Files.readAllBytes(f);
        Npy.saveZ(arrays, f);
        assertArrayEquals(first, Files.readAllBytes(f), "byte-reproducible");
    }

    @Test
    void writerRefusals() {
        Path f = tmp.resolve("x.npy");
        Tensor bf = Torch.tensor(new double[] {1}, DType.BFLOAT16);
        var noDtype = assertThrows(IllegalArgumentException.class, () -> Npy.save(bf, f));
        assertTrue(noDtype.getMessage().contains("torch.bfloat16, which NumPy lacks"), noDtype.getMessage());
        Tensor meta = Tensor.of(TensorImpl.meta(new long[] {2}, DType.FLOAT32));
        assertThrows(IllegalArgumentException.class, () -> Npy.save(meta, f));
        assertThrows(IllegalArgumentException.class, () -> Npy.saveZ(Map.of("m", meta), tmp.resolve("x.npz")));
        assertFalse(Files.exists(f));
        assertFalse(Files.exists(tmp.resolve("x.npz")));
    }

    // ---- hostile files ------------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("invalidFiles")
    void invalidFilesAreRefusedWithAClearMessage(Map<String, Object> fixture) {
        Path f = SafetensorsFixtures.file((String) fixture.get("file"));
        var e = assertThrows(TorchException.class, () -> {
            if (f.toString().endsWith(".npz")) Npy.loadZ(f);
            else Npy.load(f);
        });
        assertTrue(e.getMessage().contains((String) fixture.get("error")), e.getMessage());
        assertTrue(e.getMessage().contains(f.toString()), "names the file: " + e.getMessage());
    }

    @Test
    void aSparseFileLargerThanTheHeapIsRefusedWithTheBytesItNeeds() throws IOException {
        // the file really is that large (sparse: its holes read as zeros), so the size checks pass; the allocation
        // must then fail as a TorchException that says what was asked for, not as an OutOfMemoryError
        long elements = org.jtorch.storage.Storage.MAX_HEAP_SLOTS;
        long bytes = elements * 8;
        assertTrue(bytes > Runtime.getRuntime().maxMemory(), "the test runs with a heap below " + bytes + " bytes");
        Path f = tmp.resolve("sparse.npy");
        byte[] header = NpyHeader.encode(DType.FLOAT64, new long[] {elements});
        try (var raf = new java.io.RandomAccessFile(f.toFile(), "rw")) {
            raf.write(header);
            raf.setLength(header.length + bytes);
        }
        var e = assertThrows(TorchException.class, () -> Npy.load(f));
        assertTrue(
                e.getMessage()
                        .startsWith("npy file " + f + ": DefaultCPUAllocator: can't allocate memory: you "
                                + "tried to allocate " + bytes + " bytes"),
                e.getMessage());
        assertTrue(e.getMessage().contains("-Xmx"), e.getMessage());
    }

    @Test
    void forgedSizesAreRefusedBeforeAllocation() throws IOException {
        // A valid header claiming 2^40 float64 elements, followed by 8 bytes: refused without allocating 8 TB.
        Path f = tmp.resolve("forged.npy");
        byte[] header = NpyHeader.encode(DType.FLOAT64, new long[] {1L << 40});
        Files.write(f, ByteBuffer.allocate(header.length + 8).put(header).array());
        var e = assertThrows(TorchException.class, () -> Npy.load(f));
        assertTrue(
                e.getMessage().contains("truncated") && e.getMessage().contains("8796093022208 bytes"), e.getMessage());
        // A header length beyond numpy's 10000-byte limit.
        byte[] big = header.clone();
        ByteBuffer.wrap(big).order(ByteOrder.LITTLE_ENDIAN).putShort(8, (short) 60000);
        Files.write(f, big);
        var h = assertThrows(TorchException.class, () -> Npy.load(f));
        assertTrue(h.getMessage().contains("exceeds NumPy's limit"), h.getMessage());
        // Overflowing shape.
        Files.write(f, header("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"));
        assertTrue(assertThrows(TorchException.class, () -> Npy.load(f))
                .getMessage()
                .contains("overflows"));
        // Python-literal oddities numpy also refuses.
        for (String bad : List.of(
                "{'descr': '<f8', 'fortran_order': False, 'shape': [2], }",
                "{'descr': '<f8', 'fortran_order': 0, 'shape': (2,), }",
                "{'descr': '<f8', 'shape': (2,), }",
                "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }",
                "{'descr': '<f8', 'fortran_order': False, 'shape': (2), }",
                "{'descr': '<f8', 'fortran_order': False, 'shape': " + "(".repeat(100) + "}",
                "__import__('os')")) {
            Files.write(f, header(bad));
            assertThrows(TorchException.class, () -> Npy.load(f), bad);
        }
    }

    /** A version-1.0 preamble around an arbitrary header text, no data. */
    private static byte[] header(String text) {
        byte[] t = (text + "\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        return ByteBuffer.allocate(10 + t.length)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(NpyHeader.MAGIC)
                .put((byte) 1)
                .put((byte) 0)
                .putShort((short) t.length)
                .put(t)
                .array();
    }

    @Test
    void oldPython2HeadersAreAccepted() throws IOException {
        Path f = tmp.resolve("py2.npy");
        byte[] h = header("{'descr': '<i2', 'fortran_order': False, 'shape': (2L,), }");
        Files.write(
                f,
                ByteBuffer.allocate(h.length + 4)
                        .put(h)
                        .put(new byte[] {5, 0, -1, -1})
                        .array());
        assertArrayEquals(new long[] {5, -1}, Npy.load(f).toLongArray());
    }

    @Test
    void missingFileIsAnIoError() {
        assertThrows(UncheckedIOException.class, () -> Npy.load(tmp.resolve("absent.npy")));
        assertThrows(UncheckedIOException.class, () -> Npy.loadZ(tmp.resolve("absent.npz")));
    }

    @Test
    void keptFuzzCrashesFailCleanly() throws IOException {
        for (String kind : List.of("npy", "npz")) {
            Path dir = SafetensorsFixtures.resourceDir("/fuzz/" + kind + "/README.md");
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f :
                        files.filter(p -> p.toString().endsWith("." + kind)).toList()) {
                    assertThrows(TorchException.class, () -> load(f), f.toString());
                }
            }
        }
    }

    private static void load(Path f) {
        if (f.toString().endsWith(".npz")) Npy.loadZ(f).values().forEach(Tensor::toDoubleArray);
        else Npy.load(f).toDoubleArray();
    }

    @Test
    void fuzzedNpyFilesFailCleanly() throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        List<Integer> headerEnds = new ArrayList<>();
        for (String name : List.of("f4.npy", "fortran.npy", "big_c16.npy", "v3.npy", "b1.npy", "scalar.npy")) {
            byte[] b = Files.readAllBytes(SafetensorsFixtures.file(name));
            seeds.add(b);
            headerEnds.add(Math.min(b.length, 128));
        }
        long accepted = SafetensorsMutator.fuzz(
                "npy", 20260102L, SafetensorsMutator.iterations(1000), seeds, headerEnds, ".npy", tmp, NpyTest::load);
        assertTrue(accepted > 0, "some mutations stay valid");
    }

    @Test
    void fuzzedNpzFilesFailCleanly() throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        List<Integer> headerEnds = new ArrayList<>();
        for (String name : List.of("arrays.npz", "compressed.npz")) {
            byte[] b = Files.readAllBytes(SafetensorsFixtures.file(name));
            seeds.add(b);
            headerEnds.add(b.length);
        }
        long accepted = SafetensorsMutator.fuzz(
                "npz", 20260103L, SafetensorsMutator.iterations(1000), seeds, headerEnds, ".npz", tmp, NpyTest::load);
        assertTrue(accepted > 0, "some mutations stay valid");
    }

    // ---- the reverse direction: numpy reads what JTorch wrote ------------------------------------------------

    @Test
    void numpyReadsJTorchFiles() throws IOException, InterruptedException {
        List<Path> files = new ArrayList<>();
        List<Tensor> written = new ArrayList<>();
        for (var fixture : SafetensorsFixtures.section("npy")) {
            Tensor t = Npy.load(SafetensorsFixtures.file((String) fixture.get("file")));
            Path f = tmp.resolve("j_" + fixture.get("file"));
            Npy.save(t, f);
            files.add(f);
            written.add(t);
        }
        Map<String, Tensor> arrays = new LinkedHashMap<>();
        arrays.put("w", Torch.arange(6.0).view(2, 3).t());
        arrays.put("i", Torch.tensor(new long[] {Long.MIN_VALUE, 3}));
        arrays.put("c", Npy.load(SafetensorsFixtures.file("big_c16.npy")));
        Path z = tmp.resolve("j.npz");
        Npy.saveZ(arrays, z);
        files.add(z);
        List<Map<String, Object>> read = SafetensorsFixtures.readWithNumpy(files.toArray(Path[]::new));
        for (int i = 0; i < written.size(); i++) {
            SafetensorsFixtures.assertTensor(
                    SafetensorsFixtures.tensors(read.get(i)).get(0),
                    written.get(i),
                    files.get(i).toString());
        }
        List<Map<String, Object>> zipped = SafetensorsFixtures.tensors(read.get(written.size()));
        assertEquals(
                List.copyOf(arrays.keySet()),
                zipped.stream().map(t -> t.get("name")).toList());
        for (Map<String, Object> t : zipped)
            SafetensorsFixtures.assertTensor(t, arrays.get((String) t.get("name")), "npz " + t.get("name"));
    }
}

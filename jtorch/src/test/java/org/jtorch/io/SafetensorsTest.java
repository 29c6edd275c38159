package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Tests for {@link Safetensors}. Expected values come from {@code make_golden_io.py} (files laid out as the reference
 * writer does, values computed by numpy/torch), from the format rules of spec/serialization.md §3 checked byte by byte,
 * and from numpy reading the files JTorch writes.
 */
class SafetensorsTest {
    @TempDir
    Path tmp;

    static Stream<Map<String, Object>> goldenFiles() {
        return SafetensorsFixtures.section("safetensors").stream();
    }

    static Stream<Map<String, Object>> invalidFiles() {
        return SafetensorsFixtures.section("invalid").stream()
                .filter(f -> ((String) f.get("file")).endsWith(".safetensors"));
    }

    private static Map<String, Tensor> goldenTensors() {
        return Safetensors.load(SafetensorsFixtures.file("golden.safetensors"));
    }

    // ---- reading real files ------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("goldenFiles")
    void readsEveryDtypeMemoryMapped(Map<String, Object> fixture) {
        Path f = SafetensorsFixtures.file((String) fixture.get("file"));
        Map<String, Tensor> loaded = Safetensors.load(f);
        List<Map<String, Object>> expected = SafetensorsFixtures.tensors(fixture);
        assertEquals(expected.stream().map(e -> e.get("name")).toList(), List.copyOf(loaded.keySet()), "header order");
        for (Map<String, Object> e : expected) {
            Tensor t = loaded.get((String) e.get("name"));
            SafetensorsFixtures.assertTensor(e, t, f.getFileName() + ":" + e.get("name"));
            assertNull(t.impl().storage().array(), "mapped, not copied");
            assertTrue(t.impl().storage().segment().isMapped(), "backed by the file mapping");
        }
        assertEquals(fixture.get("metadata"), Safetensors.loadMetadata(f));
    }

    @ParameterizedTest
    @MethodSource("goldenFiles")
    void readsEveryDtypeCopiedAndFromBytes(Map<String, Object> fixture) throws IOException {
        Path f = SafetensorsFixtures.file((String) fixture.get("file"));
        for (Map<String, Tensor> loaded :
                List.of(Safetensors.load(f, false), Safetensors.deserialize(Files.readAllBytes(f)))) {
            for (Map<String, Object> e : SafetensorsFixtures.tensors(fixture)) {
                Tensor t = loaded.get((String) e.get("name"));
                SafetensorsFixtures.assertTensor(e, t, f.getFileName() + ":" + e.get("name"));
                assertTrue(t.impl().storage().array() != null, "copied into a heap array");
            }
        }
    }

    @Test
    void mappedTensorsWorkInOps() {
        Map<String, Tensor> t = goldenTensors();
        Tensor w = t.get("weight"); // [3, 4] = i / 3
        double[] expected = new double[12];
        for (int i = 0; i < 12; i++) expected[i] = (float) (i / 3.0) * 2;
        assertArrayEquals(expected, w.add(w).toDoubleArray(), 1e-6);
        assertEquals(22.0, w.sum().item(), 1e-5); // (0 + ... + 11) / 3
        Tensor g = w.matmul(w.t()); // row 0 . row 0 = (0 + 1 + 4 + 9) / 9
        assertEquals(14.0 / 9, g.toDoubleArray()[0], 1e-5);
        Tensor u = Safetensors.load(SafetensorsFixtures.file("unaligned.safetensors"))
                .get("double");
        assertEquals(Math.PI - Math.E + 1e-300 + 1e300, u.sum().item(), 1e286);
    }

    @Test
    void mappedTensorsAreCopyOnWrite() throws IOException {
        Path f = tmp.resolve("cow.safetensors");
        Files.copy(SafetensorsFixtures.file("spec_example.safetensors"), f);
        byte[] before = Files.readAllBytes(f);
        Tensor a = Safetensors.load(f).get("a");
        a.mul_(10.0);
        assertArrayEquals(new double[] {10, 20}, a.toDoubleArray());
        assertArrayEquals(before, Files.readAllBytes(f), "the file never changes");
        assertArrayEquals(new double[] {1, 2}, Safetensors.load(f).get("a").toDoubleArray());
    }

    @Test
    void lazyReaderMakesTensorsOnDemand() {
        Path f = SafetensorsFixtures.file("golden.safetensors");
        Map<String, Object> fixture = SafetensorsFixtures.section("safetensors").get(0);
        Tensor kept;
        SafetensorsFile file = Safetensors.open(f);
        try (file) {
            List<Map<String, Object>> expected = SafetensorsFixtures.tensors(fixture);
            assertEquals(expected.stream().map(e -> e.get("name")).toList(), file.keys());
            assertEquals(fixture.get("metadata"), file.metadata());
            assertEquals(DType.BFLOAT16, file.dtype("bf16"));
            assertArrayEquals(new long[] {3, 2}, file.shape("bf16"));
            kept = file.get("weight");
            SafetensorsFixtures.assertTensor(
                    expected.stream()
                            .filter(e -> e.get("name").equals("weight"))
                            .findFirst()
                            .orElseThrow(),
                    kept,
                    "weight");
            var missing = assertThrows(IllegalArgumentException.class, () -> file.get("nope"));
            assertTrue(missing.getMessage().contains("does not contain tensor 'nope'"), missing.getMessage());
        }
        assertThrows(IllegalStateException.class, () -> file.get("weight"));
        assertEquals(22.0, kept.sum().item(), 1e-5, "tensors outlive the reader");
    }

    @Test
    void metadataIsEmptyWhenAbsent() {
        assertEquals(Map.of(), Safetensors.loadMetadata(SafetensorsFixtures.file("unaligned.safetensors")));
    }

    // ---- writing --------------------------------------------------------------------------------------------

    @Test
    void rewritingTheGoldenTensorsReproducesTheReferenceLayoutByteForByte() throws IOException {
        Path golden = SafetensorsFixtures.file("golden.safetensors");
        Map<String, Tensor> loaded = Safetensors.load(golden);
        Path out = tmp.resolve("again.safetensors");
        Safetensors.save(loaded, Safetensors.loadMetadata(golden), out);
        assertArrayEquals(Files.readAllBytes(golden), Files.readAllBytes(out));
    }

    @Test
    void specExampleIs104Bytes() throws IOException {
        Map<String, Tensor> t = Map.of("a", Torch.tensor(new float[] {1, 2}));
        byte[] b = Safetensors.serialize(t, Map.of("format", "pt"));
        assertEquals(104, b.length);
        assertArrayEquals(new byte[] {0x58, 0, 0, 0, 0, 0, 0, 0}, java.util.Arrays.copyOf(b, 8));
        assertArrayEquals(
                new byte[] {0, 0, (byte) 0x80, 0x3f, 0, 0, 0, 0x40}, java.util.Arrays.copyOfRange(b, 96, 104));
        assertArrayEquals(Files.readAllBytes(SafetensorsFixtures.file("spec_example.safetensors")), b);
    }

    @Test
    void roundTripKeepsOrderValuesAndMetadataAndAlignsData() throws IOException {
        Map<String, Tensor> golden = goldenTensors();
        Map<String, Tensor> in = new LinkedHashMap<>();
        for (String name : List.of(
                "mask", "half", "cplx", "int8", "double", "scalar", "empty", "bf16", "e4m3", "uint64", "e8m0")) {
            in.put(name, golden.get(name));
        }
        in.put("transposed", golden.get("weight").t()); // non-contiguous: written contiguous
        in.put("sliced", Torch.arange(10.0).view(2, 5).transpose(0, 1).select(0, 2));
        Path f = tmp.resolve("round.safetensors");
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("format", "pt");
        meta.put("ключ", "line\nbreak \"q\" \u0001");
        Safetensors.save(in, meta, f);
        Map<String, Tensor> back = Safetensors.load(f);
        assertEquals(List.copyOf(in.keySet()), List.copyOf(back.keySet()));
        for (var e : in.entrySet()) {
            Tensor want = e.getValue(), got = back.get(e.getKey());
            assertEquals(want.dtype(), got.dtype(), e.getKey());
            assertArrayEquals(want.shape(), got.shape(), e.getKey());
            assertArrayEquals(want.toDoubleArray(), got.toDoubleArray(), 0.0, e.getKey());
            assertArrayEquals(want.toLongArray(), got.toLongArray(), e.getKey());
        }
        assertEquals(meta, Safetensors.loadMetadata(f));
        // Layout rules: 8 + N is a multiple of 8 and every tensor starts aligned to its element size.
        byte[] bytes = Files.readAllBytes(f);
        long n = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong();
        assertEquals(0, (8 + n) % 8);
        @SuppressWarnings("unchecked")
        Map<String, Object> header =
                (Map<String, Object>) Json.parse(new String(bytes, 8, (int) n, StandardCharsets.UTF_8).strip());
        for (var e : in.entrySet()) {
            long begin =
                    ((Number) ((List<?>) ((Map<?, ?>) header.get(e.getKey())).get("data_offsets")).get(0)).longValue();
            assertEquals(0, (8 + n + begin) % e.getValue().dtype().itemSize(), e.getKey() + " alignment");
        }
    }

    @Test
    void savingOverAMappedFileKeepsTheMappedTensorsIntact() throws IOException {
        Path f = tmp.resolve("live.safetensors");
        Safetensors.save(Map.of("w", Torch.tensor(new float[] {1, 2, 3})), f);
        Tensor old = Safetensors.load(f).get("w");
        Safetensors.save(Map.of("w", Torch.tensor(new float[] {7, 8})), f);
        assertArrayEquals(new double[] {1, 2, 3}, old.toDoubleArray(), "the old inode stays mapped");
        assertArrayEquals(new double[] {7, 8}, Safetensors.load(f).get("w").toDoubleArray());
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(f), files.toList(), "no temporary files are left behind");
        }
    }

    @Test
    void failedSaveLeavesTheExistingFileUntouched() throws IOException {
        Path f = tmp.resolve("keep.safetensors");
        Safetensors.save(Map.of("w", Torch.tensor(new float[] {1})), f);
        byte[] before = Files.readAllBytes(f);
        Tensor c128 = Torch.tensor(new double[] {1, 2}, DType.COMPLEX128);
        var e = assertThrows(IllegalArgumentException.class, () -> Safetensors.save(Map.of("z", c128), f));
        assertTrue(e.getMessage().contains("torch.complex128, which safetensors cannot store"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(f));
    }

    @Test
    void writerRefusals() {
        Path f = tmp.resolve("x.safetensors");
        Tensor x = Torch.tensor(new float[] {1, 2, 3, 4});
        var reserved =
                assertThrows(IllegalArgumentException.class, () -> Safetensors.save(Map.of("__metadata__", x), f));
        assertTrue(reserved.getMessage().contains("reserved"), reserved.getMessage());
        Tensor meta = Tensor.of(TensorImpl.meta(new long[] {2}, DType.FLOAT32));
        var noData = assertThrows(IllegalArgumentException.class, () -> Safetensors.save(Map.of("m", meta), f));
        assertTrue(noData.getMessage().contains("meta device"), noData.getMessage());
        Map<String, Tensor> tied = new LinkedHashMap<>();
        tied.put("emb", x);
        tied.put("head", x.view(2, 2));
        var shared = assertThrows(TorchException.class, () -> Safetensors.save(tied, f));
        assertTrue(
                shared.getMessage().contains("Some tensors share memory")
                        && shared.getMessage().contains("[emb, head]"),
                shared.getMessage());
        Map<String, String> badMeta = new java.util.HashMap<>();
        badMeta.put("k", null);
        assertThrows(IllegalArgumentException.class, () -> Safetensors.save(Map.of("x", x), badMeta, f));
        assertThrows(IllegalArgumentException.class, () -> Safetensors.save(Map.of("bad\uD800", x), f));
        assertFalse(Files.exists(f));
    }

    @Test
    void disjointViewsOfOneStorageMaySaveTogether() {
        Tensor x = Torch.arange(6.0);
        Map<String, Tensor> parts = new LinkedHashMap<>();
        parts.put("lo", x.narrow(0, 0, 3));
        parts.put("hi", x.narrow(0, 3, 3));
        Map<String, Tensor> back = Safetensors.deserialize(Safetensors.serialize(parts, null));
        assertArrayEquals(new double[] {0, 1, 2}, back.get("lo").toDoubleArray());
        assertArrayEquals(new double[] {3, 4, 5}, back.get("hi").toDoubleArray());
    }

    // ---- hostile files --------------------------------------------------------------------------------------

    @ParameterizedTest
    @MethodSource("invalidFiles")
    void invalidFilesAreRefusedWithAClearMessage(Map<String, Object> fixture) {
        Path f = SafetensorsFixtures.file((String) fixture.get("file"));
        for (boolean mmap : new boolean[] {true, false}) {
            var e = assertThrows(TorchException.class, () -> Safetensors.load(f, mmap));
            assertTrue(e.getMessage().contains((String) fixture.get("error")), e.getMessage());
            assertTrue(e.getMessage().contains(f.toString()), "names the file: " + e.getMessage());
        }
        assertThrows(TorchException.class, () -> Safetensors.open(f));
        assertThrows(TorchException.class, () -> Safetensors.loadMetadata(f));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "", // no length at all
                "0800000000000000", // length beyond the file
                "ffffffffffffffff7b7d", // 2^64 - 1
                "0200000000000000207d", // does not start with '{'
                "02000000000000007b7d", // {} is valid: checked below
                "08000000000000007b2261223a317d20", // {"a":1}: a tensor entry that is not an object
                "0a000000000000007b2261223a7b7d7d2020", // {"a":{}}: missing fields
                "0400000000000000c3287b7d", // invalid UTF-8
            })
    void malformedHeaders(String hex) {
        byte[] b = java.util.HexFormat.of().parseHex(hex);
        if (hex.equals("02000000000000007b7d")) {
            assertEquals(Map.of(), Safetensors.deserialize(b));
            return;
        }
        var e = assertThrows(TorchException.class, () -> Safetensors.deserialize(b));
        assertTrue(e.getMessage().startsWith("safetensors data: "), e.getMessage());
    }

    @Test
    void deepNestingAndHugeShapesAreRefusedWithoutExhaustingMemory() {
        String deep =
                "{\"a\":{\"dtype\":\"F32\",\"shape\":[],\"data_offsets\":[0,4],\"x\":" + "[".repeat(100_000) + "}}";
        var nesting = assertThrows(TorchException.class, () -> Safetensors.deserialize(file(deep, 4)));
        assertTrue(nesting.getMessage().contains("nesting deeper"), nesting.getMessage());
        String rank = "{\"a\":{\"dtype\":\"U8\",\"shape\":[" + "1,".repeat(5000) + "1],\"data_offsets\":[0,1]}}";
        var dims = assertThrows(TorchException.class, () -> Safetensors.deserialize(file(rank, 1)));
        assertTrue(dims.getMessage().contains("more than 1024 entries"), dims.getMessage());
        String overflow = "{\"a\":{\"dtype\":\"F64\",\"shape\":[4294967296,4294967296],\"data_offsets\":[0,8]}}";
        var big = assertThrows(TorchException.class, () -> Safetensors.deserialize(file(overflow, 8)));
        assertTrue(big.getMessage().contains("overflows"), big.getMessage());
        String forged =
                "{\"a\":{\"dtype\":\"F64\",\"shape\":[576460752303423488],\"data_offsets\":[0,4611686018427387904]}}";
        var outside = assertThrows(TorchException.class, () -> Safetensors.deserialize(file(forged, 8)));
        assertTrue(outside.getMessage().contains("outside"), outside.getMessage());
        String negative = "{\"a\":{\"dtype\":\"F64\",\"shape\":[-1],\"data_offsets\":[0,8]}}";
        assertThrows(TorchException.class, () -> Safetensors.deserialize(file(negative, 8)));
    }

    /** A safetensors file with the given header text and {@code data} zero bytes. */
    private static byte[] file(String header, int data) {
        byte[] h = header.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + h.length + data)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(h.length)
                .put(h)
                .array();
    }

    @Test
    void missingFileIsAnIoError() {
        var e = assertThrows(UncheckedIOException.class, () -> Safetensors.load(tmp.resolve("absent.safetensors")));
        assertTrue(e.getMessage().contains("absent.safetensors"), e.getMessage());
    }

    /** Every input the fuzzer ever crashed on, kept as a regression file. */
    @Test
    void keptFuzzCrashesFailCleanly() throws IOException {
        Path dir = SafetensorsFixtures.resourceDir("/fuzz/safetensors/README.md");
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f :
                    files.filter(p -> p.toString().endsWith(".safetensors")).toList()) {
                assertThrows(TorchException.class, () -> touchAll(Safetensors.load(f)), f.toString());
            }
        }
    }

    /** Mutated valid files through every entry point, held to the {@link FuzzCampaign} contract. */
    @Test
    void fuzzedFilesFailCleanly() throws IOException {
        List<byte[]> seeds = new ArrayList<>();
        List<Integer> headerEnds = new ArrayList<>();
        for (String name : List.of("golden.safetensors", "unaligned.safetensors", "spec_example.safetensors")) {
            byte[] b = Files.readAllBytes(SafetensorsFixtures.file(name));
            seeds.add(b);
            headerEnds.add(
                    8 + (int) ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong());
        }
        int[] round = {0};
        int iterations = SafetensorsMutator.iterations(1500);
        long accepted = SafetensorsMutator.fuzz(
                "safetensors", 20260101L, iterations, seeds, headerEnds, ".safetensors", tmp, f -> {
                    try {
                        switch (round[0]++ % 4) {
                            case 0 -> touchAll(Safetensors.load(f));
                            case 1 -> touchAll(Safetensors.load(f, false));
                            case 2 -> touchAll(Safetensors.deserialize(Files.readAllBytes(f)));
                            default -> {
                                try (SafetensorsFile file = Safetensors.open(f)) {
                                    for (String k : file.keys()) touch(file.get(k));
                                }
                            }
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
        assertTrue(accepted > 0, "some mutations stay valid");
    }

    private static void touchAll(Map<String, Tensor> tensors) {
        tensors.values().forEach(SafetensorsTest::touch);
    }

    /** Reads every element, so a tensor pointing outside its data would fail here. */
    private static void touch(Tensor t) {
        t.toDoubleArray();
        MemorySegment s = t.impl().storage().segment();
        if (t.numel() > 0) s.get(java.lang.foreign.ValueLayout.JAVA_BYTE, s.byteSize() - 1);
    }

    // ---- the reverse direction: numpy reads what JTorch wrote ------------------------------------------------

    @Test
    void numpyReadsJTorchFiles() throws IOException, InterruptedException {
        Map<String, Tensor> golden = goldenTensors();
        Map<String, Tensor> out = new LinkedHashMap<>(golden);
        out.put("transposed", golden.get("weight").clone().t()); // non-contiguous, written contiguous
        Path f = tmp.resolve("jtorch.safetensors");
        Safetensors.save(out, Map.of("writer", "jtorch"), f);
        Map<String, Object> read = SafetensorsFixtures.readWithNumpy(f).get(0);
        assertEquals(Map.of("writer", "jtorch"), read.get("metadata"));
        List<Map<String, Object>> tensors = SafetensorsFixtures.tensors(read);
        assertEquals(
                List.copyOf(out.keySet()),
                tensors.stream().map(t -> t.get("name")).toList());
        for (Map<String, Object> t : tensors) {
            SafetensorsFixtures.assertTensor(t, out.get((String) t.get("name")), "numpy's view of " + t.get("name"));
        }
    }
}

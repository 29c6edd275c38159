package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.storage.Storage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files written by real PyTorch (2.13, {@code src/test/python/make_golden_pt.py}) load into what their {@code .json}
 * describes — values bit for bit, geometry, storage sharing — copying, memory-mapped and on the meta device; and JTorch
 * saves what it loaded back into the same bytes PyTorch wrote.
 */
class SerializationGoldenTest {
    static final List<String> FIXTURES = List.of(
            "every_dtype",
            "views",
            "noncontiguous",
            "containers",
            "state_dict",
            "optimizer",
            "checkpoint",
            "parameters",
            "meta_sharing",
            "protocol4",
            "legacy");
    /**
     * Fixtures whose data.pkl JTorch reproduces byte for byte after a load: the zip files PyTorch wrote with protocol
     * 2, except {@code parameters} (JTorch has no nn.Parameter: a parameter loads as a tensor and saves as one) and
     * {@code containers} (a torch.Size loads as a tuple and saves as one).
     */
    static final List<String> BYTE_IDENTICAL =
            List.of("every_dtype", "views", "noncontiguous", "state_dict", "optimizer", "checkpoint", "meta_sharing");

    static Path fixture(String name) {
        try {
            return Path.of(
                    SerializationGoldenTest.class.getResource("/pt/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Stream<String> fixtures() {
        return FIXTURES.stream();
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void loadsWhatPyTorchSaved(String name) {
        Object loaded = Serialization.load(fixture(name + ".pt"));
        PtDescription.assertMatches(PtDescription.read(fixture(name + ".json")), loaded);
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void loadsWithoutChecksumsToTheSameResult(String name) {
        Object loaded =
                Serialization.load(fixture(name + ".pt"), LoadOptions.defaults().verifyChecksums(false));
        PtDescription.assertMatches(PtDescription.read(fixture(name + ".json")), loaded);
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void metaLoadKeepsGeometryAndSharingWithoutData(String name) {
        Object loaded =
                Serialization.load(fixture(name + ".pt"), LoadOptions.defaults().mapLocation(Device.META));
        PtDescription.assertMatchesIgnoringData(PtDescription.read(fixture(name + ".json")), loaded);
        forEachTensor(loaded, t -> assertTrue(t.isMeta()));
    }

    static Stream<String> zipFixtures() {
        return FIXTURES.stream().filter(n -> !n.equals("legacy"));
    }

    @ParameterizedTest
    @MethodSource("zipFixtures")
    void mmapLoadViewsTheFile(String name) {
        Object loaded = Serialization.load(
                fixture(name + ".pt"), LoadOptions.defaults().mmap(true).mmapMode(LoadOptions.MmapMode.READ_ONLY));
        PtDescription.assertMatches(PtDescription.read(fixture(name + ".json")), loaded);
        forEachTensor(loaded, t -> assertTrue(t.impl().storage().array() == null && !t.isMeta(), "mapped, not copied"));
    }

    static Stream<String> byteIdentical() {
        return BYTE_IDENTICAL.stream();
    }

    /**
     * JTorch → PyTorch, checked without Python: the pickle JTorch writes is the one PyTorch wrote for the same objects.
     */
    @ParameterizedTest
    @MethodSource("byteIdentical")
    void savesBackTheBytesPyTorchWrote(String name, @TempDir Path dir) throws IOException {
        Path again = dir.resolve(name + ".pt");
        Serialization.save(Serialization.load(fixture(name + ".pt")), again);
        ZipReader original = ZipReader.open(Zips.map(fixture(name + ".pt")), name);
        ZipReader ours = ZipReader.open(Zips.map(again), name);
        assertArrayEquals(Zips.record(original, name + "/data.pkl"), Zips.record(ours, name + "/data.pkl"), "data.pkl");
        for (String record : original.names()) {
            if (record.startsWith(name + "/data/")) {
                assertArrayEquals(Zips.record(original, record), Zips.record(ours, record), record);
            }
        }
    }

    @Test
    void zipLayoutMatchesPyTorch2(@TempDir Path dir) {
        Path p = dir.resolve("model.pt");
        Serialization.save(Serialization.load(fixture("views.pt")), p);
        ZipReader z = ZipReader.open(Zips.map(p), "model.pt");
        assertEquals(
                List.of(
                        "model/data.pkl",
                        "model/.format_version",
                        "model/.storage_alignment",
                        "model/byteorder",
                        "model/data/0",
                        "model/version",
                        "model/.data/serialization_id"),
                z.names());
        assertEquals("1", new String(Zips.record(z, "model/.format_version")));
        assertEquals("64", new String(Zips.record(z, "model/.storage_alignment")));
        assertEquals("little", new String(Zips.record(z, "model/byteorder")));
        assertEquals("3\n", new String(Zips.record(z, "model/version")));
        for (String r : z.names()) assertEquals(0, Zips.dataOffset(p, r) % 64, r + " starts on a 64-byte boundary");
    }

    @Test
    void viewsShareStorageAfterLoad() {
        @SuppressWarnings("unchecked")
        Map<String, Tensor> m = (Map<String, Tensor>) Serialization.load(fixture("views.pt"));
        Tensor a = m.get("a");
        Tensor b = m.get("b");
        Tensor c = m.get("c");
        assertSame(a.impl().storage(), b.impl().storage());
        assertSame(a.impl().storage(), c.impl().storage());
        b.impl().storage().floats()[(int) b.storageOffset()] = 100f; // b[0] = 100
        assertEquals(100.0, a.toDoubleArray()[2]);
        assertEquals(100.0, c.toDoubleArray()[4]); // c[2, 0]
    }

    @Test
    void metaLoadSharesOneStoragePerKey() {
        @SuppressWarnings("unchecked")
        Map<String, Tensor> m = (Map<String, Tensor>) Serialization.load(
                fixture("meta_sharing.pt"), LoadOptions.defaults().mapLocation("meta"));
        Set<Storage> unique = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (Tensor t : m.values()) {
            assertTrue(t.isMeta());
            assertEquals(DType.FLOAT32, t.dtype());
            unique.add(t.impl().storage());
        }
        assertEquals(10, m.size());
        assertEquals(1, unique.size());
        assertEquals(40, unique.iterator().next().byteSize());
    }

    @Test
    void tiedWeightsStayTied() {
        Map<?, ?> ckpt = (Map<?, ?>) Serialization.load(fixture("checkpoint.pt"));
        Map<?, ?> model = (Map<?, ?>) ckpt.get("model");
        assertSame(
                ((Tensor) model.get("0.weight")).impl().storage(),
                ((Tensor) model.get("1.weight")).impl().storage());
        assertEquals(3L, ckpt.get("epoch"));
        assertEquals(0.25, ckpt.get("loss"));
        Tensor rng = (Tensor) ckpt.get("rng");
        assertEquals(DType.UINT8, rng.dtype());
    }

    @Test
    void stateDictKeepsItsMetadata() {
        PyOrderedDict sd = (PyOrderedDict) Serialization.load(fixture("state_dict.pt"));
        assertEquals(
                List.of(
                        "0.weight",
                        "0.bias",
                        "1.weight",
                        "1.bias",
                        "1.running_mean",
                        "1.running_var",
                        "1.num_batches_tracked",
                        "3.weight",
                        "3.bias"),
                List.copyOf(sd.keySet()));
        assertTrue(sd.attributes().containsKey("_metadata"));
        Tensor tracked = (Tensor) sd.get("1.num_batches_tracked");
        assertEquals(DType.INT64, tracked.dtype());
        assertEquals(0, tracked.dim());
        assertEquals(1L, tracked.longItem());
    }

    @Test
    void parametersLoadAsTensorsThatRequireGrad() {
        Map<?, ?> m = (Map<?, ?>) Serialization.load(fixture("parameters.pt"));
        assertTrue(((Tensor) m.get("p")).requiresGrad());
        assertTrue(!((Tensor) m.get("q")).requiresGrad());
        assertTrue(((Tensor) m.get("t")).requiresGrad());
    }

    @Test
    void forbiddenGlobalIsRefusedWithTheWayToAllowIt() {
        UnpicklingException e =
                assertThrows(UnpicklingException.class, () -> Serialization.load(fixture("forbidden_global.pt")));
        assertTrue(e.getMessage().startsWith("Weights only load failed."), e.getMessage());
        assertTrue(e.getMessage().contains("GLOBAL __main__.Foo was not an allowed global by default"), e.getMessage());
        assertTrue(e.getMessage().contains("Serialization.addSafeGlobals(\"__main__.Foo\")"), e.getMessage());
        assertTrue(e.getMessage().contains("Serialization.safeGlobals(\"__main__.Foo\")"), e.getMessage());
        assertEquals(
                List.of("__main__.Foo"), Serialization.getUnsafeGlobalsInCheckpoint(fixture("forbidden_global.pt")));
    }

    @Test
    void forbiddenGlobalLoadsInsideAScopeAndFailsAgainAfterIt() {
        try (var _ = Serialization.safeGlobals("__main__.Foo")) {
            Map<?, ?> m = (Map<?, ?>) Serialization.load(fixture("forbidden_global.pt"));
            PtDescription.assertMatches(PtDescription.read(fixture("forbidden_global.json")), m);
            PyObject foo = (PyObject) m.get("foo");
            assertTrue(foo.isNewobj());
            assertEquals(Map.of("x", 1L), foo.state());
            assertEquals(List.of(), Serialization.getUnsafeGlobalsInCheckpoint(fixture("forbidden_global.pt")));
        }
        assertThrows(UnpicklingException.class, () -> Serialization.load(fixture("forbidden_global.pt")));
    }

    @Test
    void maliciousPickleRunsNothingAndIsRefusedEvenWhenAllowlisted() {
        for (LoadOptions o :
                List.of(LoadOptions.defaults(), LoadOptions.defaults().mmap(true))) {
            UnpicklingException e =
                    assertThrows(UnpicklingException.class, () -> Serialization.load(fixture("malicious.pt"), o));
            assertTrue(e.getMessage().contains("GLOBAL posix.system whose module posix is blocked"), e.getMessage());
        }
        try (var _ = Serialization.safeGlobals("posix.system")) {
            assertThrows(UnpicklingException.class, () -> Serialization.load(fixture("malicious.pt")));
        }
        // without weights_only the call is only recorded, never made
        Map<?, ?> m = (Map<?, ?>) Serialization.load(
                fixture("malicious.pt"), LoadOptions.defaults().weightsOnly(false));
        PyObject call = (PyObject) m.get("payload");
        assertEquals("posix.system", call.type().qualifiedName());
        assertEquals(List.of("echo this must never run > /dev/null"), call.args());
    }

    @Test
    void legacyFormatCannotBeMapped() {
        var e = assertThrows(
                org.jtorch.TorchException.class,
                () -> Serialization.load(
                        fixture("legacy.pt"), LoadOptions.defaults().mmap(true)));
        assertTrue(e.getMessage().contains("mmap can only be used with files saved with"), e.getMessage());
    }

    static void forEachTensor(Object o, java.util.function.Consumer<Tensor> f) {
        if (o instanceof Tensor t) f.accept(t);
        else if (o instanceof Map<?, ?> m) m.forEach((k, v) -> forEachTensor(v, f));
        else if (o instanceof List<?> l) l.forEach(v -> forEachTensor(v, f));
        else if (o instanceof PyTuple t) t.items().forEach(v -> forEachTensor(v, f));
    }
}

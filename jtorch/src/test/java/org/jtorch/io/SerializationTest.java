package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.ops.ComplexOps;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Round trips, the exact bytes of the format, the weights-only allowlist, mmap, atomic writes and error cases. */
class SerializationTest {
    @TempDir
    Path dir;

    @AfterEach
    void clearAllowlist() {
        Serialization.clearSafeGlobals();
    }

    // ---- the spec's examples ----------------------------------------------------------------------

    @Test
    void specRoundTrip() throws IOException {
        Map<String, Object> obj = new LinkedHashMap<>();
        obj.put("w", Torch.tensor(new float[][] {{1, 2}, {3, 4}}));
        obj.put("step", 3);
        Path p = dir.resolve("ckpt.pt");
        Serialization.save(obj, p);
        Map<?, ?> back = (Map<?, ?>) Serialization.load(p);
        Tensor w = (Tensor) back.get("w");
        assertEquals(DType.FLOAT32, w.dtype());
        assertArrayEquals(new long[] {2, 2}, w.shape());
        assertArrayEquals(new double[] {1, 2, 3, 4}, w.toDoubleArray());
        assertEquals(3L, back.get("step"));
        ZipReader z = ZipReader.open(Zips.map(p), "ckpt.pt");
        assertEquals("0000803f000000400000404000008040", HexFormat.of().formatHex(Zips.record(z, "ckpt/data/0")));
        assertEquals("little", new String(Zips.record(z, "ckpt/byteorder"), StandardCharsets.US_ASCII));
    }

    /**
     * The spec's opcode listing for {@code torch.save(torch.tensor([1.0, 2.0]))}, with CPython's memo puts, byte for
     * byte.
     */
    @Test
    void pickleOfOneTensorIsPyTorchs() {
        Pickle want = new Pickle()
                .op(0x80)
                .op(2)
                .global("torch._utils", "_rebuild_tensor_v2")
                .put(0)
                .op('(')
                .op('(')
                .str("storage")
                .put(1)
                .global("torch", "FloatStorage")
                .put(2)
                .str("0")
                .put(3)
                .str("cpu")
                .put(4)
                .op('K')
                .op(2)
                .op('t')
                .put(5)
                .op('Q')
                .op('K')
                .op(0)
                .op('K')
                .op(2)
                .op(0x85)
                .put(6)
                .op('K')
                .op(1)
                .op(0x85)
                .put(7)
                .op(0x89)
                .global("collections", "OrderedDict")
                .put(8)
                .op(')')
                .op('R')
                .put(9)
                .op('t')
                .put(10)
                .op('R')
                .put(11)
                .op('.');
        assertEquals(
                HexFormat.of().formatHex(want.bytes()),
                HexFormat.of().formatHex(new PickleWriter().dump(Torch.tensor(new float[] {1, 2}))));
    }

    /**
     * Hand-written expectation (the fixtures carry the 12 classic dtypes only): PyTorch 2.x's
     * {@code Tensor._reduce_ex_internal} saves a dtype of {@code torch.storage._new_dtypes()} as
     * {@code _rebuild_tensor_v3} over a {@code torch.storage UntypedStorage} persistent id whose numel counts bytes,
     * with the dtype as 7th argument.
     */
    @Test
    void pickleOfUint16TensorIsRebuildTensorV3() {
        Tensor t = Torch.tensor(new long[] {1, 2, 3}).to(DType.UINT16);
        Pickle want = new Pickle()
                .op(0x80)
                .op(2)
                .global("torch._utils", "_rebuild_tensor_v3")
                .put(0)
                .op('(')
                .op('(')
                .str("storage")
                .put(1)
                .global("torch.storage", "UntypedStorage")
                .put(2)
                .str("0")
                .put(3)
                .str("cpu")
                .put(4)
                .op('K')
                .op(6)
                .op('t')
                .put(5)
                .op('Q')
                .op('K')
                .op(0)
                .op('K')
                .op(3)
                .op(0x85)
                .put(6)
                .op('K')
                .op(1)
                .op(0x85)
                .put(7)
                .op(0x89)
                .global("collections", "OrderedDict")
                .put(8)
                .op(')')
                .op('R')
                .put(9)
                .global("torch", "uint16")
                .put(10)
                .op('t')
                .put(11)
                .op('R')
                .put(12)
                .op('.');
        assertEquals(HexFormat.of().formatHex(want.bytes()), HexFormat.of().formatHex(new PickleWriter().dump(t)));
    }

    @ParameterizedTest
    @EnumSource(DType.class)
    void everyDtypeRoundTrips(DType dtype) {
        Tensor src = Torch.tensor(new double[] {0, 1, 2, 3, 4, 5}).to(dtype).reshape(2, 3);
        Tensor t = src.transpose(0, 1); // non-contiguous: the whole storage is saved, the view restored
        Path p = dir.resolve("t.pt");
        Serialization.save(List.of(t, src), p);
        List<?> back = (List<?>) Serialization.load(p);
        Tensor u = (Tensor) back.get(0);
        assertEquals(dtype, u.dtype());
        assertArrayEquals(t.shape(), u.shape());
        assertArrayEquals(t.stride(), u.stride());
        assertArrayEquals(PtDescription.elementBytes(t), PtDescription.elementBytes(u));
        assertSame(u.impl().storage(), ((Tensor) back.get(1)).impl().storage());
        Tensor meta =
                (Tensor) ((List<?>) Serialization.load(p, LoadOptions.defaults().mapLocation(Device.META))).get(0);
        assertTrue(meta.isMeta());
        assertEquals(dtype, meta.dtype());
        assertArrayEquals(t.stride(), meta.stride());
    }

    @Test
    void emptyAndZeroDimTensors() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("empty", Torch.zeros(0, 4));
        m.put("scalar", Torch.scalarTensor(-2.5));
        m.put("emptyLong", Torch.zeros(new long[] {3, 0}, DType.INT64));
        Path p = dir.resolve("e.pt");
        Serialization.save(m, p);
        Map<?, ?> back = (Map<?, ?>) Serialization.load(p);
        assertArrayEquals(new long[] {0, 4}, ((Tensor) back.get("empty")).shape());
        assertEquals(-2.5, ((Tensor) back.get("scalar")).item());
        assertEquals(0, ((Tensor) back.get("scalar")).dim());
        assertArrayEquals(new long[] {3, 0}, ((Tensor) back.get("emptyLong")).shape());
    }

    @Test
    void metaTensorsSaveWithoutStorage() {
        Tensor m = Torch.empty(new long[] {4, 5}, DType.BFLOAT16, Device.META).transpose(0, 1);
        Path p = dir.resolve("m.pt");
        Serialization.save(Map.of("m", m), p);
        assertEquals(
                List.of(
                        "m/data.pkl",
                        "m/.format_version",
                        "m/.storage_alignment",
                        "m/byteorder",
                        "m/version",
                        "m/.data/serialization_id"),
                ZipReader.open(Zips.map(p), "m").names());
        Tensor back = (Tensor) ((Map<?, ?>) Serialization.load(p)).get("m");
        assertTrue(back.isMeta());
        assertArrayEquals(new long[] {5, 4}, back.shape());
        assertArrayEquals(new long[] {1, 5}, back.stride());
        assertEquals(DType.BFLOAT16, back.dtype());
    }

    @Test
    void requiresGradIsRestored() {
        Path p = dir.resolve("g.pt");
        Serialization.save(List.of(Torch.ones(2).requiresGrad(true), Torch.ones(2)), p);
        List<?> back = (List<?>) Serialization.load(p);
        assertTrue(((Tensor) back.get(0)).requiresGrad());
        assertFalse(((Tensor) back.get(1)).requiresGrad());
    }

    @Test
    void containersRoundTrip() {
        PyOrderedDict od = new PyOrderedDict();
        od.put("b", 1L);
        od.put("a", PyTuple.of());
        od.attributes().put("_metadata", Map.of("", 1L));
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put("od", od);
        m.put("big", BigInteger.ONE.shiftLeft(300).negate());
        m.put("nested", List.of(List.of(), Map.of(), PyTuple.of(null, true, 1.5f)));
        m.put(PyTuple.of(1L, "k"), "tuple key");
        m.put(-7L, new byte[0]);
        m.put("c", new PyComplex(0, -1));
        m.put("g", new PyGlobal("torch", "per_tensor_affine"));
        Path p = dir.resolve("c.pt");
        Serialization.save(m, p);
        Map<?, ?> back = (Map<?, ?>) Serialization.load(p);
        PyOrderedDict od2 = (PyOrderedDict) back.get("od");
        assertEquals(List.of("b", "a"), List.copyOf(od2.keySet()));
        assertEquals(Map.of("", 1L), od2.attributes().get("_metadata"));
        assertEquals(m.get("big"), back.get("big"));
        assertEquals(List.of(List.of(), Map.of(), PyTuple.of(null, true, 1.5)), back.get("nested"));
        assertEquals("tuple key", back.get(PyTuple.of(1L, "k")));
        assertArrayEquals(new byte[0], (byte[]) back.get(-7L));
        assertEquals(new PyComplex(0, -1), back.get("c"));
        assertEquals(new PyGlobal("torch", "per_tensor_affine"), back.get("g"));
    }

    @Test
    void sharedAndCyclicContainersKeepTheirIdentity() {
        List<Object> shared = new ArrayList<>(List.of(1L));
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(cyclic);
        Path p = dir.resolve("s.pt");
        Serialization.save(List.of(shared, shared, cyclic), p);
        List<?> back = (List<?>) Serialization.load(p);
        assertSame(back.get(0), back.get(1));
        List<?> c = (List<?>) back.get(2);
        assertSame(c, c.get(0));
    }

    @Test
    void unsupportedObjectsAndTooDeepNestingAreRefused() {
        var e = assertThrows(
                TorchTypeException.class, () -> Serialization.save(Map.of("x", new Object()), dir.resolve("x.pt")));
        assertTrue(e.getMessage().contains("cannot pickle 'java.lang.Object' object"), e.getMessage());
        Object deep = 1L;
        for (int i = 0; i < 2000; i++) deep = List.of(deep);
        Object tooDeep = deep;
        var e2 = assertThrows(TorchException.class, () -> Serialization.save(tooDeep, dir.resolve("d.pt")));
        assertTrue(e2.getMessage().contains("nested deeper than"), e2.getMessage());
        assertFalse(Files.exists(dir.resolve("x.pt")));
    }

    @Test
    void oneStorageSeenAsTwoDtypesIsRefusedAsPyTorchDoes() {
        Tensor c = Torch.tensor(new double[] {1, 2, 3, 4}).to(DType.COMPLEX64);
        Tensor r = ComplexOps.viewAsReal(c);
        assertSame(c.impl().storage(), r.impl().storage());
        var e = assertThrows(TorchException.class, () -> Serialization.save(List.of(c, r), dir.resolve("v.pt")));
        assertEquals(
                "Cannot save multiple tensors or storages that view the same data as different types", e.getMessage());
    }

    /** An UntypedStorage (v3) that a PyTorch file views as two dtypes of different widths still shares its bytes. */
    @Test
    void untypedStorageSeenAsTwoDtypesSharesMemory() throws IOException {
        Pickle pid = new Pickle()
                .op('(')
                .str("storage")
                .global("torch.storage", "UntypedStorage")
                .str("0")
                .str("cpu")
                .op('K')
                .op(4)
                .op('t')
                .op('Q');
        Pickle pickle = new Pickle().op(0x80).op(2).op(']').op('(');
        for (String dtype : new String[] {"uint16", "float8_e4m3fn"}) {
            int n = dtype.equals("uint16") ? 2 : 4;
            pickle.global("torch._utils", "_rebuild_tensor_v3")
                    .op('(')
                    .raw(pid.bytes())
                    .op('K')
                    .op(0)
                    .op('K')
                    .op(n)
                    .op(0x85)
                    .op('K')
                    .op(1)
                    .op(0x85)
                    .op(0x89)
                    .op('}')
                    .global("torch", dtype)
                    .op('t')
                    .op('R');
        }
        pickle.op('e').op('.');
        Path p = dir.resolve("u.pt");
        writeArchive(p, pickle.bytes(), Map.of("data/0", new byte[] {1, 0, 2, 0}), "little");
        List<?> back = (List<?>) Serialization.load(p);
        Tensor u16 = (Tensor) back.get(0);
        Tensor f8 = (Tensor) back.get(1);
        assertEquals(DType.UINT16, u16.dtype());
        assertEquals(DType.FLOAT8_E4M3FN, f8.dtype());
        assertArrayEquals(new long[] {1, 2}, u16.toLongArray());
        f8.impl().storage().segment().set(ValueLayout.JAVA_BYTE, 1, (byte) 1);
        assertArrayEquals(new long[] {257, 2}, u16.toLongArray());
    }

    /**
     * PyTorch 2.x pickles a tensor with Python attributes through _rebuild_from_type_v2, a parameter with state
     * likewise.
     */
    @Test
    void tensorsWithPythonStateLoadAsTensors() throws IOException {
        Pickle v2 = new Pickle()
                .global("torch._utils", "_rebuild_tensor_v2")
                .op('(')
                .op('(')
                .str("storage")
                .global("torch", "FloatStorage")
                .str("0")
                .str("cpu")
                .op('K')
                .op(2)
                .op('t')
                .op('Q')
                .op('K')
                .op(0)
                .op('K')
                .op(2)
                .op(0x85)
                .op('K')
                .op(1)
                .op(0x85)
                .op(0x89)
                .op('}')
                .op('t');
        Pickle p = new Pickle()
                .op(0x80)
                .op(2)
                .op(']')
                .op('(')
                .global("torch._tensor", "_rebuild_from_type_v2")
                .op('(')
                .global("torch._utils", "_rebuild_tensor_v2")
                .global("torch", "Tensor")
                .raw(java.util.Arrays.copyOfRange(v2.bytes(), 33, v2.bytes().length))
                .op('}')
                .str("note")
                .str("attribute")
                .op('s')
                .op('t')
                .op('R')
                .global("torch._utils", "_rebuild_parameter_with_state")
                .op('(')
                .raw(v2.bytes())
                .op('R')
                .op(0x88)
                .op('}')
                .op('}')
                .op('t')
                .op('R')
                .op('e')
                .op('.');
        Path f = dir.resolve("state.pt");
        writeArchive(f, p.bytes(), Map.of("data/0", HexFormat.of().parseHex("0000803f00000040")), "little");
        List<?> back = (List<?>) Serialization.load(f);
        assertArrayEquals(new double[] {1, 2}, ((Tensor) back.get(0)).toDoubleArray());
        Tensor param = (Tensor) back.get(1);
        assertTrue(param.requiresGrad());
        assertSame(((Tensor) back.get(0)).impl().storage(), param.impl().storage());
    }

    @Test
    void bigEndianFilesAreSwapped() throws IOException {
        byte[] pickle = new PickleWriter()
                .dump(List.of(
                        Torch.tensor(new float[] {1, 2}),
                        ComplexOps.viewAsComplex(Torch.tensor(new double[] {3, -4}))));
        Path p = dir.resolve("be.pt");
        writeArchive(
                p,
                pickle,
                Map.of(
                        "data/0",
                        HexFormat.of().parseHex("3f80000040000000"),
                        "data/1",
                        HexFormat.of().parseHex("4008000000000000c010000000000000")),
                "big");
        for (LoadOptions o :
                List.of(LoadOptions.defaults(), LoadOptions.defaults().mmap(true))) {
            List<?> back = (List<?>) Serialization.load(p, o);
            assertArrayEquals(new double[] {1, 2}, ((Tensor) back.get(0)).toDoubleArray());
            assertArrayEquals(new double[] {3, -4}, ((Tensor) back.get(1)).toDoubleArray());
        }
        writeArchive(p, pickle, Map.of(), "middle");
        var e = assertThrows(TorchException.class, () -> Serialization.load(p));
        assertTrue(e.getMessage().contains("Unknown endianness type: middle"), e.getMessage());
    }

    @Test
    void metaLoadReadsNoStorageBytes() throws IOException {
        Path p = dir.resolve("ckpt.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[][] {{1, 2}, {3, 4}})), p);
        byte[] file = Files.readAllBytes(p);
        file[(int) Zips.dataOffset(p, "ckpt/data/0")] ^= 0x55; // damage the storage's bytes only
        Files.write(p, file);
        var e = assertThrows(TorchException.class, () -> Serialization.load(p));
        assertTrue(e.getMessage().contains("record 'ckpt/data/0' fails its CRC-32 check"), e.getMessage());
        Tensor w = (Tensor)
                ((Map<?, ?>) Serialization.load(p, LoadOptions.defaults().mapLocation(Device.META))).get("w");
        assertTrue(w.isMeta());
        assertArrayEquals(new long[] {2, 2}, w.shape());
        assertEquals(DType.FLOAT32, w.dtype());
    }

    @Test
    void moreThan65535RecordsUseTheZip64Directory() {
        List<Tensor> many = new ArrayList<>();
        for (int i = 0; i < 70_000; i++) many.add(Torch.tensor(new long[] {i}));
        Path p = dir.resolve("many.pt");
        Serialization.save(many, p);
        MemorySegmentView file = new MemorySegmentView(Zips.map(p));
        long eocd = file.size() - 22;
        assertEquals(0xffff, file.u16(eocd + 10), "entry count deferred to the ZIP64 record");
        assertEquals(ZipReader.ZIP64_LOCATOR_SIG, file.i32(eocd - 20));
        List<?> back = (List<?>) Serialization.load(p);
        assertEquals(70_000, back.size());
        assertEquals(69_999L, ((Tensor) back.get(69_999)).longItem());
    }

    /**
     * Every ZIP64 field a reader must follow: sizes and header offset in the extra field, counts in the ZIP64 end
     * record.
     */
    @Test
    void zip64FieldsAreRead() throws IOException {
        byte[] pickle = new PickleWriter().dump(Torch.tensor(new float[] {1, 2}));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream central = new ByteArrayOutputStream();
        String[] names = {"archive/data.pkl", "archive/data/0"};
        byte[][] data = {pickle, HexFormat.of().parseHex("0000803f00000040")};
        for (int i = 0; i < 2; i++) {
            byte[] n = names[i].getBytes(StandardCharsets.UTF_8);
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(data[i]);
            int offset = out.size();
            out.writeBytes(le(30 + n.length)
                    .putInt(ZipReader.LOCAL_SIG)
                    .putShort((short) 45)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(0)
                    .putInt((int) crc.getValue())
                    .putInt(-1)
                    .putInt(-1)
                    .putShort((short) n.length)
                    .putShort((short) 0)
                    .put(n)
                    .array());
            out.writeBytes(data[i]);
            central.writeBytes(le(46 + n.length + 28)
                    .putInt(ZipReader.CENTRAL_SIG)
                    .putShort((short) 45)
                    .putShort((short) 45)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(0)
                    .putInt((int) crc.getValue())
                    .putInt(-1)
                    .putInt(-1)
                    .putShort((short) n.length)
                    .putShort((short) 28)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putShort((short) 0)
                    .putInt(0)
                    .putInt(-1)
                    .put(n)
                    .putShort((short) 1)
                    .putShort((short) 24)
                    .putLong(data[i].length)
                    .putLong(data[i].length)
                    .putLong(offset)
                    .array());
        }
        long dirStart = out.size();
        out.writeBytes(central.toByteArray());
        long z64 = out.size();
        out.writeBytes(le(56).putInt(ZipReader.ZIP64_EOCD_SIG)
                .putLong(44)
                .putShort((short) 45)
                .putShort((short) 45)
                .putInt(0)
                .putInt(0)
                .putLong(2)
                .putLong(2)
                .putLong(central.size())
                .putLong(dirStart)
                .array());
        out.writeBytes(le(20).putInt(ZipReader.ZIP64_LOCATOR_SIG)
                .putInt(0)
                .putLong(z64)
                .putInt(1)
                .array());
        out.writeBytes(le(22).putInt(ZipReader.EOCD_SIG)
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) -1)
                .putShort((short) -1)
                .putInt(-1)
                .putInt(-1)
                .putShort((short) 0)
                .array());
        Path p = dir.resolve("zip64.pt");
        Files.write(p, out.toByteArray());
        assertArrayEquals(new double[] {1, 2}, ((Tensor) Serialization.load(p)).toDoubleArray());
    }

    private static java.nio.ByteBuffer le(int n) {
        return java.nio.ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Little-endian reads from a mapped file. */
    private record MemorySegmentView(java.lang.foreign.MemorySegment s) {
        long size() {
            return s.byteSize();
        }

        int u16(long at) {
            return s.get(ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at) & 0xffff;
        }

        int i32(long at) {
            return s.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), at);
        }
    }

    // ---- mmap ---------------------------------------------------------------------------------------

    @Test
    void mmapPrivateWritesStayInMemory() {
        Path p = dir.resolve("mm.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[] {1, 2, 3})), p);
        Tensor w = (Tensor)
                ((Map<?, ?>) Serialization.load(p, LoadOptions.defaults().mmap(true))).get("w");
        assertEquals(null, w.impl().storage().array(), "a view of the file, not a copy");
        assertArrayEquals(new double[] {2, 4, 6}, w.add(w).toDoubleArray());
        w.impl().storage().segment().set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, 42f);
        assertEquals(42.0, w.toDoubleArray()[0]);
        assertEquals(1.0, ((Tensor) ((Map<?, ?>) Serialization.load(p)).get("w")).toDoubleArray()[0]);
    }

    @Test
    void mmapSharedWritesGoToTheFile() {
        Path p = dir.resolve("mm.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[] {1, 2, 3})), p);
        LoadOptions shared = LoadOptions.defaults().mmap(true).mmapMode(LoadOptions.MmapMode.SHARED);
        Tensor w = (Tensor) ((Map<?, ?>) Serialization.load(p, shared)).get("w");
        w.impl().storage().segment().set(ValueLayout.JAVA_FLOAT_UNALIGNED, 4, 42f);
        // CRC no longer matches the data: PyTorch does not check it, and a copying JTorch load must be told not to
        Tensor again = (Tensor)
                ((Map<?, ?>) Serialization.load(p, LoadOptions.defaults().verifyChecksums(false))).get("w");
        assertArrayEquals(new double[] {1, 42, 3}, again.toDoubleArray());
        var e = assertThrows(TorchException.class, () -> Serialization.load(p));
        assertTrue(e.getMessage().contains("fails its CRC-32 check"), e.getMessage());
    }

    @Test
    void mmapReadOnlyRefusesWrites() {
        Path p = dir.resolve("mm.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[] {1, 2, 3})), p);
        Tensor w = (Tensor) ((Map<?, ?>) Serialization.load(
                        p, LoadOptions.defaults().mmap(true).mmapMode(LoadOptions.MmapMode.READ_ONLY)))
                .get("w");
        assertArrayEquals(new double[] {1, 2, 3}, w.toDoubleArray());
        assertThrows(
                RuntimeException.class,
                () -> w.impl().storage().segment().set(ValueLayout.JAVA_FLOAT_UNALIGNED, 0, 42f));
    }

    @Test
    void savingOverAMappedCheckpointKeepsTheLoadedTensorsValid() {
        Path p = dir.resolve("mm.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[] {1, 2, 3})), p);
        Tensor w = (Tensor)
                ((Map<?, ?>) Serialization.load(p, LoadOptions.defaults().mmap(true))).get("w");
        Serialization.save(Map.of("w", w.mul(10.0)), p); // atomic rename: the mapping keeps the old file's pages
        assertArrayEquals(new double[] {1, 2, 3}, w.toDoubleArray());
        assertArrayEquals(
                new double[] {10, 20, 30}, ((Tensor) ((Map<?, ?>) Serialization.load(p)).get("w")).toDoubleArray());
    }

    // ---- atomic writes ------------------------------------------------------------------------------

    @Test
    void aFailedSaveLeavesThePreviousCheckpointAndNoTemporaryFile() throws IOException {
        Path p = dir.resolve("ckpt.pt");
        Serialization.save(Map.of("w", Torch.tensor(new float[] {1, 2})), p);
        byte[] before = Files.readAllBytes(p);
        Arena arena = Arena.ofShared();
        Tensor gone = Tensor.of(TensorImpl.of(
                Storage.ofSegment(DType.StorageKind.FLOAT, arena.allocate(1 << 20)),
                0,
                new long[] {1 << 18},
                new long[] {1},
                DType.FLOAT32));
        arena.close(); // writing its bytes fails half-way through the archive
        List<Object> obj = List.of(Torch.ones(1000), gone);
        assertThrows(IllegalStateException.class, () -> Serialization.save(obj, p));
        assertArrayEquals(before, Files.readAllBytes(p));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(p), files.toList());
        }
    }

    // ---- allowlist ----------------------------------------------------------------------------------

    @Test
    void addSafeGlobalsIsProcessWideAndClearable() {
        Path p = SerializationGoldenTest.fixture("forbidden_global.pt");
        Serialization.addSafeGlobals("__main__.Foo");
        assertEquals(List.of("__main__.Foo"), Serialization.getSafeGlobals());
        AtomicReference<Object> fromOtherThread = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> fromOtherThread.set(Serialization.load(p)));
        join(t);
        assertInstanceOf(Map.class, fromOtherThread.get());
        Serialization.clearSafeGlobals();
        assertEquals(List.of(), Serialization.getSafeGlobals());
        assertThrows(UnpicklingException.class, () -> Serialization.load(p));
    }

    @Test
    void safeGlobalsScopeIsThreadLocalAndNests() {
        Path p = SerializationGoldenTest.fixture("forbidden_global.pt");
        try (var outer = Serialization.safeGlobals("other.Thing")) {
            try (var _ = Serialization.safeGlobals("__main__.Foo")) {
                Serialization.load(p);
                AtomicReference<Throwable> other = new AtomicReference<>();
                Thread t = Thread.ofPlatform().start(() -> {
                    try {
                        Serialization.load(p);
                    } catch (Throwable e) {
                        other.set(e);
                    }
                });
                join(t);
                assertInstanceOf(
                        UnpicklingException.class, other.get(), "a scope does not open loads on other threads");
                assertThrows(IllegalStateException.class, outer::close, "scopes close innermost first");
            }
            assertThrows(UnpicklingException.class, () -> Serialization.load(p));
        }
    }

    @Test
    void safeGlobalFactoryBuildsJavaObjects() {
        record Foo(List<Object> args) {}
        Path p = SerializationGoldenTest.fixture("forbidden_global.pt");
        var e = assertThrows(UnpicklingException.class, () -> {
            try (var _ = Serialization.safeGlobals(SafeGlobal.of("__main__.Foo", Foo::new))) {
                Serialization.load(p);
            }
        });
        assertTrue(
                e.getMessage().contains("Can only build Tensor, Parameter, OrderedDict"),
                e.getMessage()); // Foo() has state
        assertThrows(IllegalArgumentException.class, () -> SafeGlobal.of("NoModule"));

        Pickle call = new Pickle()
                .op(0x80)
                .op(2)
                .global("mymod", "make")
                .op('K')
                .op(1)
                .str("two")
                .op(0x86)
                .op('R')
                .op('.');
        Path q = dir.resolve("call.pt");
        try {
            writeArchive(q, call.bytes(), Map.of(), "little");
        } catch (IOException io) {
            throw new UncheckedIOException(io);
        }
        assertThrows(UnpicklingException.class, () -> Serialization.load(q));
        Serialization.addSafeGlobals(SafeGlobal.of("mymod.make", Foo::new));
        assertEquals(new Foo(List.of(1L, "two")), Serialization.load(q));
    }

    @Test
    void allowlistedObjectsSaveBackAsPyTorchWroteThem() {
        Path src = SerializationGoldenTest.fixture("forbidden_global.pt");
        Path p = dir.resolve("forbidden_global.pt");
        try (var _ = Serialization.safeGlobals("__main__.Foo")) {
            Serialization.save(Serialization.load(src), p);
        }
        assertArrayEquals(
                Zips.record(ZipReader.open(Zips.map(src), "a"), "forbidden_global/data.pkl"),
                Zips.record(ZipReader.open(Zips.map(p), "b"), "forbidden_global/data.pkl"));
    }

    @Test
    void unsafeGlobalsAreListedWithoutLoading() {
        assertEquals(
                List.of("posix.system"),
                Serialization.getUnsafeGlobalsInCheckpoint(SerializationGoldenTest.fixture("malicious.pt")));
        assertEquals(
                List.of(),
                Serialization.getUnsafeGlobalsInCheckpoint(SerializationGoldenTest.fixture("checkpoint.pt")));
        assertEquals(
                List.of(), Serialization.getUnsafeGlobalsInCheckpoint(SerializationGoldenTest.fixture("legacy.pt")));
    }

    // ---- locations and errors -----------------------------------------------------------------------

    @Test
    void cudaStoragesNeedAMapLocation() throws IOException {
        byte[] pickle = new PickleWriter().dump(Torch.tensor(new float[] {1, 2}));
        byte[] cuda = new String(pickle, StandardCharsets.ISO_8859_1)
                .replace("X\3\0\0\0cpu", "X\6\0\0\0cuda:0")
                .getBytes(StandardCharsets.ISO_8859_1);
        Path p = dir.resolve("cuda.pt");
        writeArchive(p, cuda, Map.of("data/0", HexFormat.of().parseHex("0000803f00000040")), "little");
        var e = assertThrows(TorchException.class, () -> Serialization.load(p));
        assertTrue(e.getMessage().contains("Attempting to deserialize object on a CUDA device"), e.getMessage());
        Tensor t = (Tensor) Serialization.load(p, LoadOptions.defaults().mapLocation(Device.CPU));
        assertArrayEquals(new double[] {1, 2}, t.toDoubleArray());
        assertTrue(((Tensor) Serialization.load(p, LoadOptions.defaults().mapLocation("meta"))).isMeta());
    }

    @Test
    void damagedArchivesGiveClearErrors() throws IOException {
        byte[] pickle = new PickleWriter().dump(Torch.tensor(new float[] {1, 2}));
        Path p = dir.resolve("bad.pt");
        writeArchive(p, pickle, Map.of(), "little");
        assertMessage(p, "has no record data/0 for a storage it references");
        writeArchive(p, pickle, Map.of("data/0", new byte[4]), "little");
        assertMessage(p, "record data/0 holds 4 bytes but its storage");
        writeArchive(p, pickle, Map.of("data/0", new byte[8], "constants.pkl", new byte[1]), "little");
        assertMessage(p, "is a TorchScript archive");
        Files.write(p, new byte[0]);
        assertMessage(p, "is not a checkpoint: neither a zip archive nor a legacy torch.save file");
        Files.write(p, new PickleWriter().dump(List.of(1L)));
        assertMessage(p, "Invalid magic number");
        Files.write(p, "PK\3\4 and then nothing of a zip archive at all".getBytes(StandardCharsets.US_ASCII));
        assertMessage(p, "end of central directory not found");
        byte[] tar = new byte[600];
        System.arraycopy("ustar".getBytes(StandardCharsets.US_ASCII), 0, tar, 257, 5);
        Files.write(p, tar);
        assertMessage(p, "legacy .tar checkpoint");
        assertThrows(UncheckedIOException.class, () -> Serialization.load(dir.resolve("missing.pt")));
    }

    @Test
    void forgedGeometryIsRefusedBeforeAnyAllocation() throws IOException {
        // a storage claiming 2^60 elements whose record holds 8 bytes
        Pickle pickle = new Pickle()
                .op(0x80)
                .op(2)
                .global("torch._utils", "_rebuild_tensor_v2")
                .op('(')
                .op('(')
                .str("storage")
                .global("torch", "FloatStorage")
                .str("0")
                .str("cpu")
                .op(0x8a)
                .op(8)
                .raw(le64(1L << 60))
                .op('t')
                .op('Q')
                .op('K')
                .op(0)
                .op('K')
                .op(2)
                .op(0x85)
                .op('K')
                .op(1)
                .op(0x85)
                .op(0x89)
                .op('}')
                .op('t')
                .op('R')
                .op('.');
        Path p = dir.resolve("forged.pt");
        writeArchive(p, pickle.bytes(), Map.of("data/0", new byte[8]), "little");
        assertMessage(p, "holds 8 bytes but its storage");
        // a view reaching past its storage
        Pickle view = new Pickle()
                .op(0x80)
                .op(2)
                .global("torch._utils", "_rebuild_tensor_v2")
                .op('(')
                .op('(')
                .str("storage")
                .global("torch", "FloatStorage")
                .str("0")
                .str("cpu")
                .op('K')
                .op(2)
                .op('t')
                .op('Q')
                .op('K')
                .op(1)
                .op('K')
                .op(2)
                .op(0x85)
                .op('K')
                .op(1)
                .op(0x85)
                .op(0x89)
                .op('}')
                .op('t')
                .op('R')
                .op('.');
        writeArchive(p, view.bytes(), Map.of("data/0", new byte[8]), "little");
        assertMessage(p, "needs 3 elements but its storage '0' has 2");
        // a stride whose extent overflows 64 bits
        Pickle overflow = new Pickle()
                .op(0x80)
                .op(2)
                .global("torch._utils", "_rebuild_tensor_v2")
                .op('(')
                .op('(')
                .str("storage")
                .global("torch", "FloatStorage")
                .str("0")
                .str("cpu")
                .op('K')
                .op(2)
                .op('t')
                .op('Q')
                .op('K')
                .op(0)
                .op('K')
                .op(3)
                .op(0x85)
                .op(0x8a)
                .op(8)
                .raw(le64(1L << 62))
                .op(0x85)
                .op(0x89)
                .op('}')
                .op('t')
                .op('R')
                .op('.');
        writeArchive(p, overflow.bytes(), Map.of("data/0", new byte[8]), "little");
        assertMessage(p, "tensor geometry overflows 64 bits");
    }

    @Test
    void loadOptionsDefaults() {
        LoadOptions d = LoadOptions.defaults();
        assertTrue(d.weightsOnly());
        assertEquals(null, d.mapLocation());
        assertFalse(d.mmap());
        assertEquals(LoadOptions.MmapMode.PRIVATE, d.mmapMode());
        assertTrue(d.verifyChecksums());
        assertEquals(Device.META, d.mapLocation("meta").mapLocation());
        assertNotSame(d, d.mmap(true));
        assertThrows(IllegalArgumentException.class, () -> d.mapLocation("cuda:0"));
    }

    private static void assertMessage(Path p, String part) {
        var e = assertThrows(TorchException.class, () -> Serialization.load(p));
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }

    /** A minimal archive in PyTorch's layout with the given pickle, storage records and byte order. */
    static void writeArchive(Path p, byte[] pickle, Map<String, byte[]> records, String byteorder) throws IOException {
        Files.deleteIfExists(p);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ZipWriter z = new ZipWriter(ch, "archive");
            z.write("data.pkl", pickle);
            z.write("byteorder", byteorder.getBytes(StandardCharsets.US_ASCII));
            for (var r : new java.util.TreeMap<>(records).entrySet()) z.write(r.getKey(), r.getValue());
            z.write("version", "3\n".getBytes(StandardCharsets.US_ASCII));
            z.finish();
        }
    }

    static byte[] le64(long v) {
        return java.nio.ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(v)
                .array();
    }

    private static void join(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A tiny pickle assembler for hand-written expectations. */
    static final class Pickle {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Pickle op(int b) {
            out.write(b);
            return this;
        }

        Pickle raw(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        Pickle str(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            op('X');
            for (int i = 0; i < 4; i++) op((b.length >>> (8 * i)) & 0xff);
            return raw(b);
        }

        Pickle global(String module, String name) {
            op('c');
            return raw((module + "\n" + name + "\n").getBytes(StandardCharsets.UTF_8));
        }

        Pickle put(int idx) {
            return op('q').op(idx);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}

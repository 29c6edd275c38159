package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A seeded mutation fuzzer for the checkpoint readers (zip directory, legacy format, pickle machine, tensor rebuilds,
 * storage loading). Every mutant of a valid checkpoint must load or fail with a {@link TorchException} (or an I/O
 * error), under every load mode, quickly: never another exception, an {@link Error} (out of memory, stack overflow) or
 * a hang.
 *
 * <p>The seeds are the PyTorch fixtures plus JTorch-written files. Mutations work on the raw file (bit flips,
 * interesting integers, truncation, deletion, duplication, splicing) and, so that the pickle machine is reached past
 * the checksums, on {@code data.pkl} alone inside a rebuilt archive (byte mutations plus insertions of opcode
 * snippets), and pickles are also generated from opcode snippets alone. Each strategy is a {@link FuzzCampaign}
 * (reproducible from the seed; 350 inputs per strategy, {@code -Djtorch.fuzz.iterations=N} or
 * {@code -Djtorch.fuzz.minutes=M} for longer runs). Inputs that once failed are kept under
 * {@code src/test/resources/pt/fuzz/} and replayed by {@link #corpusInputsFailCleanly}.
 */
class CheckpointFuzzTest {
    static final long SEED = 0x6a746f726368L;
    static final int ITERATIONS = Integer.getInteger("jtorch.fuzz.iterations", 350);
    static final String SAVE_DIR = System.getProperty("jtorch.fuzz.save");
    static final List<LoadOptions> MODES = List.of(
            LoadOptions.defaults(),
            LoadOptions.defaults().verifyChecksums(false),
            LoadOptions.defaults().mapLocation(Device.META),
            LoadOptions.defaults().mmap(true).mmapMode(LoadOptions.MmapMode.READ_ONLY),
            LoadOptions.defaults().weightsOnly(false).verifyChecksums(false));
    static final List<String> SEED_FIXTURES = List.of(
            "views",
            "every_dtype",
            "noncontiguous",
            "state_dict",
            "optimizer",
            "legacy",
            "protocol4",
            "meta_sharing",
            "parameters",
            "forbidden_global");
    /** Pickle fragments that the pickle mutator inserts: opcodes with plausible arguments. */
    static final List<byte[]> SNIPPETS = new ArrayList<>();

    static final List<byte[]> SEEDS = new ArrayList<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void seeds() throws IOException {
        for (String f : SEED_FIXTURES) SEEDS.add(Files.readAllBytes(SerializationGoldenTest.fixture(f + ".pt")));
        Path p = dir.resolve("jtorch-seed.pt");
        Map<String, Object> m = new LinkedHashMap<>();
        for (DType d : new DType[] {DType.UINT16, DType.FLOAT8_E5M2, DType.COMPLEX32, DType.INT8}) {
            m.put(
                    d.pyName(),
                    Torch.tensor(new double[] {1, 2, 3, 4}).to(d).reshape(2, 2).t());
        }
        m.put("meta", Torch.empty(new long[] {3}, DType.FLOAT32, Device.META));
        m.put("misc", List.of(PyTuple.of(1L, 2.5, "s"), new byte[] {1, 2}, new PyComplex(1, 2)));
        Serialization.save(m, p);
        SEEDS.add(Files.readAllBytes(p));
        for (String s : new String[] {
            "(",
            "t",
            "\u0085",
            "\u0086",
            "\u0087",
            ")",
            "]",
            "}",
            "a",
            "e",
            "s",
            "u",
            "R",
            "\u0081",
            "b",
            "Q",
            "h\u0000",
            "h\u0001",
            "q\u0000",
            "N",
            "\u0088",
            "\u0089",
            "0",
            "1",
            "2",
            "K\u0000",
            "K\u00ff",
            "J\u00ff\u00ff\u00ff\u00ff",
            "\u008a\u0008\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0040",
            "X\u0007\u0000\u0000\u0000storage",
            "ctorch._utils\n_rebuild_tensor_v2\n",
            "ctorch._utils\n_rebuild_tensor_v3\n",
            "ctorch\nFloatStorage\n",
            "ctorch.storage\nUntypedStorage\n",
            "ccollections\nOrderedDict\n",
            "ctorch\nfloat8_e4m3fn\n",
            "ctorch\nSize\n",
            "ctorch._utils\n_rebuild_meta_tensor_no_storage\n",
            "c__builtin__\nset\n",
            "c_codecs\nencode\n",
            "ctorch._tensor\n_rebuild_from_type_v2\n",
            "ctorch._utils\n_rebuild_parameter\n",
            "X\u0001\u0000\u0000\u00000",
            "X\u0003\u0000\u0000\u0000cpu",
            "X\u0004\u0000\u0000\u0000meta",
            "\u0094",
            "\u0095\u0000\u0000\u0000\u0000\u0000\u0000\u0000\u0000",
            "\u008f",
            "\u0090",
            "\u0091",
            "\u0093",
            "G\u007f\u00f0\u0000\u0000\u0000\u0000\u0000\u0000",
            "B\u0002\u0000\u0000\u0000ab"
        }) {
            SNIPPETS.add(s.getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    @Test
    void rawFileMutants() {
        run("raw", (r, i) -> mutate(SEEDS.get(r.nextInt(SEEDS.size())), r));
    }

    @Test
    void pickleMutantsInValidArchives() {
        run("pickle", (r, i) -> {
            byte[] seed = SEEDS.get(r.nextInt(SEEDS.size()));
            if (!ZipReader.isZip(MemorySegment.ofArray(seed))) return mutate(seed, r);
            return withPickle(seed, mutatePickle(pickleOf(seed), r));
        });
    }

    @Test
    void generatedPickles() {
        byte[] views = SEEDS.get(0);
        run("generated", (r, i) -> {
            SerializationTest.Pickle p = new SerializationTest.Pickle().op(0x80).op(2);
            for (int k = 1 + r.nextInt(40); k > 0; k--) {
                if (r.nextInt(4) == 0) p.op('K').op(r.nextInt(4));
                else p.raw(SNIPPETS.get(r.nextInt(SNIPPETS.size())));
            }
            return withPickle(views, p.op('.').bytes());
        });
    }

    static Stream<Path> corpus() throws IOException {
        Path d = SerializationGoldenTest.fixture("fuzz");
        try (Stream<Path> files = Files.list(d)) {
            return files.filter(f -> f.toString().endsWith(".pt")).sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("corpus")
    void corpusInputsFailCleanly(Path input) throws IOException {
        assertTimeoutPreemptively(
                Duration.ofSeconds(20),
                () -> check(Files.readAllBytes(input), input.getFileName().toString()));
    }

    private void run(String strategy, FuzzCampaign.Mutator m) {
        FuzzCampaign.run(
                "pt-" + strategy,
                SEED ^ ((long) strategy.hashCode() << 32),
                ITERATIONS,
                ".pt",
                dir,
                m,
                CheckpointFuzzTest::loadEveryWay);
    }

    /** Loads {@code input} in every mode; anything but success or a clean failure fails the test. */
    static void check(byte[] input, String name) throws IOException {
        Path p = dir.resolve("input.pt");
        Files.write(p, input);
        try {
            loadEveryWay(p);
        } catch (TorchException | UncheckedIOException expected) {
            assertTrue(
                    expected.getMessage() != null && !expected.getMessage().isBlank(),
                    "a failure says what went wrong");
        } catch (Throwable t) {
            saveFailure(input, name);
            fail(name + ": " + t, t);
        }
    }

    /** Reads the checkpoint in every load mode, then lists its globals; each may refuse the input cleanly. */
    static void loadEveryWay(Path p) {
        for (LoadOptions o : MODES) {
            try {
                Serialization.load(p, o);
            } catch (TorchException | UncheckedIOException refused) {
                if (refused.getMessage() == null || refused.getMessage().isBlank()) throw refused;
            }
        }
        Serialization.getUnsafeGlobalsInCheckpoint(p);
    }

    private static void saveFailure(byte[] input, String name) throws IOException {
        if (SAVE_DIR != null)
            Files.write(Files.createDirectories(Path.of(SAVE_DIR)).resolve(name + ".pt"), input);
    }

    // ---- mutations -------------------------------------------------------------------------------

    private static final long[] INTERESTING = {
        0,
        1,
        -1,
        0x7f,
        0x80,
        0xff,
        0x7fff,
        0x8000,
        0xffff,
        0x7fffffffL,
        0x80000000L,
        0xffffffffL,
        1L << 32,
        1L << 40,
        1L << 62,
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        64,
        63,
        65
    };

    static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed.clone();
        int rounds = 1 + r.nextInt(4);
        for (int k = 0; k < rounds && b.length > 0; k++) {
            int at = r.nextInt(b.length);
            switch (r.nextInt(9)) {
                case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> b[at] = (byte) r.nextInt(256);
                case 2, 3 -> {
                    long v = INTERESTING[r.nextInt(INTERESTING.length)];
                    if (r.nextBoolean()) v = b.length + r.nextInt(9) - 4;
                    int width = 1 << r.nextInt(4);
                    for (int j = 0; j < width && at + j < b.length; j++) b[at + j] = (byte) (v >>> (8 * j));
                }
                case 4 -> b = java.util.Arrays.copyOf(b, at);
                case 5 -> b = splice(b, at, Math.min(b.length, at + 1 + r.nextInt(64)), new byte[0]);
                case 6 ->
                    b = splice(
                            b, at, at, java.util.Arrays.copyOfRange(b, at, Math.min(b.length, at + 1 + r.nextInt(64))));
                case 7 -> {
                    byte[] other = SEEDS.get(r.nextInt(SEEDS.size()));
                    int from = r.nextInt(other.length);
                    b = splice(
                            b,
                            at,
                            Math.min(b.length, at + r.nextInt(128)),
                            java.util.Arrays.copyOfRange(other, from, Math.min(other.length, from + r.nextInt(128))));
                }
                default -> {
                    byte[] junk = new byte[1 + r.nextInt(16)];
                    r.nextBytes(junk);
                    b = splice(b, at, at, junk);
                }
            }
        }
        return b;
    }

    static byte[] mutatePickle(byte[] pickle, Random r) {
        if (r.nextInt(3) > 0) return mutate(pickle, r);
        byte[] b = pickle;
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            int at = r.nextInt(b.length + 1);
            byte[] snippet = SNIPPETS.get(r.nextInt(SNIPPETS.size()));
            b = r.nextBoolean()
                    ? splice(b, at, at, snippet)
                    : splice(b, at, Math.min(b.length, at + snippet.length), snippet);
        }
        return b;
    }

    static byte[] splice(byte[] b, int from, int to, byte[] insert) {
        byte[] out = new byte[b.length - (to - from) + insert.length];
        System.arraycopy(b, 0, out, 0, from);
        System.arraycopy(insert, 0, out, from, insert.length);
        System.arraycopy(b, to, out, from + insert.length, b.length - to);
        return out;
    }

    // ---- archives ----------------------------------------------------------------------------------

    static byte[] pickleOf(byte[] archive) {
        ZipReader z = ZipReader.open(MemorySegment.ofArray(archive), "seed");
        return Zips.record(
                z,
                z.names().stream()
                        .filter(n -> n.endsWith("/data.pkl"))
                        .findFirst()
                        .orElseThrow());
    }

    /** The archive with its data.pkl replaced (records, checksums and directory rewritten). */
    static byte[] withPickle(byte[] archive, byte[] pickle) throws IOException {
        ZipReader z = ZipReader.open(MemorySegment.ofArray(archive), "seed");
        Path p = dir.resolve("rebuilt.pt");
        Files.deleteIfExists(p);
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            String first = z.names().get(0);
            ZipWriter w = new ZipWriter(ch, first.substring(0, first.indexOf('/')));
            for (String n : z.names()) {
                String rel = n.substring(n.indexOf('/') + 1);
                w.write(rel, rel.equals("data.pkl") ? pickle : Zips.record(z, n));
            }
            w.finish();
        }
        return Files.readAllBytes(p);
    }

    static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}

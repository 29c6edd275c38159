package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradMode;
import org.jtorch.export.Export;
import org.jtorch.export.ExportGraphSignature;
import org.jtorch.export.ExportedProgram;
import org.jtorch.fx.Node;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code .pt2} reader ({@link Export#load}) on hostile archives, under {@link FuzzCampaign}'s contract: each input
 * loads and runs, or is refused with a {@code TorchException} saying why; never another exception, a hang or an
 * allocation beyond the input's size. Seeds: PyTorch 2.13's MLP and CNN archives, its pre-2.8 layout, and a
 * JTorch-written archive with a dynamic batch dimension. Three campaigns: bytes of the whole file mutated
 * ({@code pt2-raw}, mostly caught by the zip checks and CRCs); the JSON records mutated inside an archive rebuilt with
 * valid CRCs ({@code pt2-json}, which reaches the program reader); and numbers in the JSON replaced by hostile sizes
 * (huge, negative, 2^31, 2^63 - 1) in the same way ({@code pt2-sizes}). A loaded program is run on an input of the
 * shape it declares, on another thread (the allocation bound is the reader's).
 */
class Pt2FuzzTest {
    private static final int INPUTS = Integer.getInteger("jtorch.fuzz.iterations", 300);
    private static final long[] HOSTILE = {
        -1,
        0,
        1,
        2,
        7,
        255,
        1L << 31,
        (1L << 31) - 1,
        1L << 32,
        1L << 40,
        1L << 62,
        Long.MAX_VALUE,
        Long.MIN_VALUE,
        1_000_000_000_000L
    };
    private static final List<byte[]> SEEDS = new ArrayList<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void seeds() throws IOException, URISyntaxException {
        Path fixtures = Path.of(Pt2FuzzTest.class.getResource("/export/mlp.pt2").toURI())
                .getParent();
        for (String f : List.of("mlp.pt2", "cnn.pt2", "mlp_legacy.pt2"))
            SEEDS.add(Files.readAllBytes(fixtures.resolve(f)));
        Torch.manualSeed(0);
        Path own = dir.resolve("jtorch.pt2");
        Export.save(
                Export.export(
                        new Sequential(new Linear(4, 8), new ReLU(), new Linear(8, 2)),
                        org.jtorch.export.ExportOptions.defaults()
                                .dynamicDim(0, 0, org.jtorch.export.Dim.of("batch", 1, 64)),
                        Torch.randn(3, 4)),
                own);
        SEEDS.add(Files.readAllBytes(own));
    }

    @Test
    void mutatedArchivesAreRefusedCleanly() {
        FuzzCampaign.Stats s = FuzzCampaign.run(
                "pt2-raw",
                0x7032L,
                INPUTS,
                ".pt2",
                dir,
                (r, i) -> mutate(SEEDS.get(r.nextInt(SEEDS.size())), r),
                Pt2FuzzTest::loadAndRun);
        assertTrue(s.inputs() > 0);
    }

    @Test
    void mutatedJsonInValidArchivesIsRefusedCleanly() {
        FuzzCampaign.Stats s = FuzzCampaign.run(
                "pt2-json",
                0x70326aL,
                INPUTS,
                ".pt2",
                dir,
                (r, i) -> {
                    byte[] seed = SEEDS.get(r.nextInt(SEEDS.size()));
                    return rebuilt(seed, r, text -> mutate(text, r));
                },
                Pt2FuzzTest::loadAndRun);
        assertTrue(s.loaded() > 0, "some mutations stay valid");
    }

    @Test
    void hostileSizesInValidArchivesAreRefusedCleanly() {
        FuzzCampaign.Stats s = FuzzCampaign.run(
                "pt2-sizes",
                0x703273L,
                INPUTS,
                ".pt2",
                dir,
                (r, i) -> {
                    byte[] seed = SEEDS.get(r.nextInt(SEEDS.size()));
                    return rebuilt(seed, r, text -> hostileNumbers(text, r));
                },
                Pt2FuzzTest::loadAndRun);
        assertTrue(s.inputs() > 0);
    }

    @Test
    void keptInputsFailCleanly() throws IOException, URISyntaxException {
        Path corpus = Path.of(Pt2FuzzTest.class.getResource("/fuzz/pt2").toURI());
        List<Path> kept;
        try (var files = Files.list(corpus)) {
            kept = files.filter(f -> f.toString().endsWith(".pt2")).sorted().toList();
        }
        assertTrue(!kept.isEmpty());
        for (Path f : kept) {
            try {
                loadAndRun(f);
            } catch (org.jtorch.TorchException refused) {
                assertTrue(refused.getMessage() != null && !refused.getMessage().isBlank(), f.toString());
            }
        }
    }

    /**
     * Loads the archive on this thread, then builds its module and runs it on an input of the declared shape (small
     * ones only) on another thread, rethrowing what it throws: the campaign's allocation bound is the reader's, and a
     * program may legitimately allocate more than its file (a convolution's padding set to 255 is a valid program).
     */
    private static void loadAndRun(Path file) {
        ExportedProgram ep = Export.load(file);
        RuntimeException[] failure = {null};
        Error[] error = {null};
        Thread run = Thread.ofPlatform().start(() -> {
            try {
                run(ep);
            } catch (RuntimeException e) {
                failure[0] = e;
            } catch (Error e) {
                error[0] = e;
            }
        });
        try {
            run.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (error[0] != null) throw error[0];
        if (failure[0] != null) throw failure[0];
    }

    private static void run(ExportedProgram ep) {
        var module = ep.module();
        List<ExportGraphSignature.InputSpec> specs = ep.graphSignature().inputSpecs();
        List<Node> placeholders = ep.graphModule().graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != ExportGraphSignature.InputKind.USER_INPUT) continue;
            long[] shape = placeholders.get(i).meta().shape();
            long numel = 1;
            for (long d : shape) numel = d > 0 && numel < 1_000_000 ? numel * d : numel;
            Tensor x = numel < 100_000
                    ? Torch.zeros(shape).to(placeholders.get(i).meta().dtype())
                    : Torch.zeros(2, 2);
            try (var _ = GradMode.set(false)) {
                module.call(x);
            }
            return;
        }
    }

    /** The archive with one of its JSON records replaced by {@code mutation} of it, CRCs recomputed. */
    private static byte[] rebuilt(byte[] seed, Random r, java.util.function.UnaryOperator<byte[]> mutation)
            throws IOException {
        Path in = dir.resolve("seed.pt2");
        Files.write(in, seed);
        Map<String, byte[]> records = new LinkedHashMap<>();
        List<String> json = new ArrayList<>();
        try (ZipRecords zip = ZipRecords.open(in)) {
            for (String name : zip.names()) {
                records.put(name, zip.bytes(name, Long.MAX_VALUE));
                if (name.endsWith(".json")) json.add(name);
            }
        }
        String target = json.get(r.nextInt(json.size()));
        records.put(target, mutation.apply(records.get(target)));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream z = new ZipOutputStream(out)) {
            for (var e : records.entrySet()) {
                ZipEntry entry = new ZipEntry(e.getKey());
                entry.setMethod(ZipEntry.STORED);
                entry.setSize(e.getValue().length);
                CRC32 crc = new CRC32();
                crc.update(e.getValue());
                entry.setCrc(crc.getValue());
                z.putNextEntry(entry);
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return out.toByteArray();
    }

    /**
     * One to four byte mutations: bit flips, random bytes, hostile integers written over the bytes, truncation, a range
     * deleted or duplicated, or spliced in from another seed.
     */
    private static byte[] mutate(byte[] seed, Random r) {
        byte[] b = seed.clone();
        for (int k = 1 + r.nextInt(4); k > 0 && b.length > 0; k--) {
            int at = r.nextInt(b.length);
            int end = Math.min(b.length, at + 1 + r.nextInt(64));
            switch (r.nextInt(7)) {
                case 0 -> b[at] ^= (byte) (1 << r.nextInt(8));
                case 1 -> b[at] = (byte) r.nextInt(256);
                case 2 -> {
                    long v = HOSTILE[r.nextInt(HOSTILE.length)];
                    for (int j = 0; j < 8 && at + j < b.length; j++) b[at + j] = (byte) (v >>> (8 * j));
                }
                case 3 -> b = java.util.Arrays.copyOf(b, at);
                case 4 -> b = CheckpointFuzzTest.splice(b, at, end, new byte[0]);
                case 5 -> b = CheckpointFuzzTest.splice(b, at, at, java.util.Arrays.copyOfRange(b, at, end));
                default -> {
                    byte[] other = SEEDS.get(r.nextInt(SEEDS.size()));
                    int from = r.nextInt(other.length);
                    b = CheckpointFuzzTest.splice(
                            b, at, end, java.util.Arrays.copyOfRange(other, from, Math.min(other.length, from + 64)));
                }
            }
        }
        return b;
    }

    /** The JSON with one to four of its integers replaced by hostile sizes. */
    private static byte[] hostileNumbers(byte[] json, Random r) {
        String text = new String(json, StandardCharsets.UTF_8);
        List<int[]> numbers = new ArrayList<>();
        var m = java.util.regex.Pattern.compile("-?\\d+").matcher(text);
        while (m.find()) numbers.add(new int[] {m.start(), m.end()});
        if (numbers.isEmpty()) return json;
        for (int k = 1 + r.nextInt(4); k > 0; k--) {
            int[] at = numbers.get(r.nextInt(numbers.size()));
            String v = Long.toString(HOSTILE[r.nextInt(HOSTILE.length)]);
            text = text.substring(0, at[0]) + v + text.substring(at[1]);
            numbers.clear();
            m = java.util.regex.Pattern.compile("-?\\d+").matcher(text);
            while (m.find()) numbers.add(new int[] {m.start(), m.end()});
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }
}

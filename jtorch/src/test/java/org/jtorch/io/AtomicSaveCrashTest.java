package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed with SIGKILL while it saves, again and again, over one checkpoint and one safetensors file never
 * leaves a damaged file: each always loads and holds one complete save (all tensors agree with its counter). A killed
 * save leaves its temporary file; the next save deletes it, so at most one temporary per target exists after any kill,
 * and none after a save that completes. Rounds are {@code -Djtorch.crash.rounds} (default 6; the reliability figures in
 * docs/reliability.md use 20).
 */
class AtomicSaveCrashTest {
    static final int ROUNDS = Integer.getInteger("jtorch.crash.rounds", 6);

    @Test
    void killedSavesLeaveWholeFilesAndAtMostOneTemporary(@TempDir Path dir) throws Exception {
        Path pt = dir.resolve("ckpt.pt"), st = dir.resolve("model.safetensors");
        Random random = new Random(7);
        int killedMidSave = 0;
        for (int round = 0; round < ROUNDS; round++) {
            Process child = start(pt, st);
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertNotNull(out.readLine(), "the child saved at least once");
            Thread.sleep(random.nextInt(300)); // somewhere inside a later save
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            long v = checkpointVersion(pt);
            assertWhole(Safetensors.load(st));
            if (temporaries(dir, pt) + temporaries(dir, st) > 0) killedMidSave++;
            assertTrue(
                    temporaries(dir, pt) <= 1, "round " + round + ": " + temporaries(dir, pt) + " temporaries of .pt");
            assertTrue(temporaries(dir, st) <= 1, "round " + round + ": " + temporaries(dir, st) + " of safetensors");
            assertTrue(v >= 1);
        }
        assertTrue(killedMidSave > 0, "some kill landed inside a save, so the sweep was exercised");
        Serialization.save(Map.of("v", 0L), pt);
        Safetensors.save(SaveLoop.tensors(0), st);
        assertEquals(0, temporaries(dir, pt) + temporaries(dir, st), "a completed save leaves no temporary");
    }

    @Test
    void aSaveSweepsOnlyTheUnlockedTemporariesOfItsOwnTarget(@TempDir Path dir) throws Exception {
        Path pt = dir.resolve("ckpt.pt");
        Path stale = Files.write(dir.resolve(".ckpt.pt.00ff00ff00ff00ff.tmp"), new byte[100]);
        Path otherTarget = Files.write(dir.resolve(".ckpt.pt.bak.0123456789abcdef.tmp"), new byte[1]);
        Path notOurs = Files.write(dir.resolve(".ckpt.pt.notes.tmp"), new byte[1]);
        Path live = Files.write(dir.resolve(".ckpt.pt.abcdef0123456789.tmp"), new byte[1]);
        try (var ch = java.nio.channels.FileChannel.open(live, java.nio.file.StandardOpenOption.WRITE);
                var _ = ch.lock()) { // a save in progress elsewhere in this process
            Serialization.save(Map.of("v", 1L), pt);
        }
        assertTrue(Files.notExists(stale), "the leftover of a killed save is deleted");
        assertTrue(Files.exists(live), "a temporary that a running save holds is kept");
        assertTrue(Files.exists(otherTarget) && Files.exists(notOurs), "other files are kept");
    }

    @Test
    void concurrentSavesOfOneTargetAllComplete(@TempDir Path dir) throws Exception {
        Path pt = dir.resolve("ckpt.pt");
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<?>> saves = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                long id = t;
                saves.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) Serialization.save(Map.of("v", id), pt);
                }));
            }
            for (var f : saves) f.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        long v = (Long) ((Map<?, ?>) Serialization.load(pt)).get("v");
        assertTrue(v >= 0 && v < 4);
        assertEquals(0, temporaries(dir, pt));
    }

    /** The checkpoint's counter, after checking that every tensor in it belongs to that save. */
    private static long checkpointVersion(Path pt) {
        Map<?, ?> m = (Map<?, ?>) Serialization.load(pt);
        long v = (Long) m.get("v");
        for (int i = 0; i < 4; i++) assertFilledWith(v, (Tensor) m.get("w" + i));
        return v;
    }

    private static void assertWhole(Map<String, Tensor> m) {
        double v = m.get("w0").toDoubleArray()[0];
        for (int i = 0; i < 4; i++) assertFilledWith((long) v, m.get("w" + i));
    }

    private static void assertFilledWith(long v, Tensor w) {
        assertEquals(1 << 20, w.numel());
        double[] values = w.toDoubleArray();
        assertEquals(v, values[0], "the tensor belongs to save " + v);
        assertEquals(v, values[values.length - 1]);
    }

    private static long temporaries(Path dir, Path target) throws IOException {
        String prefix = "." + target.getFileName() + ".";
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith(prefix) && n.endsWith(".tmp"))
                    .count();
        }
    }

    private static Process start(Path pt, Path st) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        // The child needs the library and this test's SaveLoop: both on its class path (the library comes from
        // the module path when the tests run on it, SaveLoop and OpenBLAS from the class path).
        String libraryPath = System.getProperty("jdk.module.path");
        String classPath = libraryPath == null
                ? System.getProperty("java.class.path")
                : libraryPath + File.pathSeparator + System.getProperty("java.class.path");
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "--enable-native-access=ALL-UNNAMED",
                "--add-modules=jdk.incubator.vector",
                "-Xshare:auto",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                classPath,
                SaveLoop.class.getName(),
                pt.toString(),
                st.toString()));
        return new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}

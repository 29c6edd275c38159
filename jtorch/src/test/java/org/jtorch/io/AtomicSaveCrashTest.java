package org.jtorch.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed with SIGKILL while it saves, again and again, over one checkpoint never leaves a damaged checkpoint:
 * the file always loads, and holds one complete save (all tensors agree with its counter). Temporary files of the
 * interrupted save may remain beside it.
 */
class AtomicSaveCrashTest {
    @Test
    void killedWhileSavingLeavesAWholeCheckpoint(@TempDir Path dir) throws Exception {
        Path ckpt = dir.resolve("ckpt.pt");
        Map<String, Object> initial = new java.util.LinkedHashMap<>();
        initial.put("v", 0L);
        for (int i = 0; i < 4; i++) initial.put("w" + i, Torch.full(new long[] {1 << 21}, 0.0));
        Serialization.save(initial, ckpt);
        Random random = new Random(7);
        for (int round = 0; round < 3; round++) {
            Process child = start(ckpt);
            BufferedReader out =
                    new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertTrue(out.readLine() != null, "the child saved at least once");
            Thread.sleep(50 + random.nextInt(400)); // somewhere inside a later save
            child.destroyForcibly(); // SIGKILL: no shutdown hooks, no finally blocks
            assertTrue(child.waitFor(30, TimeUnit.SECONDS));
            Map<?, ?> m = (Map<?, ?>) Serialization.load(ckpt);
            long v = (Long) m.get("v");
            for (int i = 0; i < 4; i++) {
                Tensor w = (Tensor) m.get("w" + i);
                assertEquals(1 << 21, w.numel());
                double[] values = w.toDoubleArray();
                assertEquals(v, values[0], "tensor w" + i + " belongs to save " + v);
                assertEquals(v, values[values.length - 1]);
            }
        }
        try (var files = java.nio.file.Files.list(dir)) {
            System.out.println("AtomicSaveCrashTest: interrupted saves left "
                    + files.filter(f -> f.toString().endsWith(".tmp")).count()
                    + " temporary files; the checkpoint was whole every time");
        }
    }

    private static Process start(Path ckpt) throws Exception {
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
                "-cp",
                classPath,
                SaveLoop.class.getName(),
                ckpt.toString()));
        return new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }
}

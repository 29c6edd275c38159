package org.jtorch.io;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.Torch;

/** The child process of {@link AtomicSaveCrashTest}: saves consistent checkpoints over one path until killed. */
public final class SaveLoop {
    private SaveLoop() {}

    /** {@code SaveLoop PATH}: checkpoint v holds {@code "v": v} and tensors filled with v. */
    public static void main(String[] args) {
        Path path = Path.of(args[0]);
        for (long v = 1; ; v++) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("v", v);
            for (int i = 0; i < 4; i++) m.put("w" + i, Torch.full(new long[] {1 << 21}, (double) v)); // 4 × 8 MiB
            Serialization.save(m, path);
            System.out.println(v);
        }
    }
}

package org.jtorch.io;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/** The child process of {@link AtomicSaveCrashTest}: saves consistent files over two paths until killed. */
public final class SaveLoop {
    private SaveLoop() {}

    /**
     * {@code SaveLoop PT SAFETENSORS}: save v writes {@code "v": v} and tensors filled with v to the checkpoint, and
     * the same tensors to the safetensors file; it prints v after both.
     */
    public static void main(String[] args) {
        Path pt = Path.of(args[0]), st = Path.of(args[1]);
        for (long v = 1; ; v++) {
            Map<String, Tensor> tensors = tensors(v);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("v", v);
            m.putAll(tensors);
            Serialization.save(m, pt);
            Safetensors.save(tensors, st);
            System.out.println(v);
        }
    }

    /** Four tensors of 8 MiB, all filled with v. */
    static Map<String, Tensor> tensors(long v) {
        Map<String, Tensor> m = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) m.put("w" + i, Torch.full(new long[] {1 << 20}, (double) v));
        return m;
    }
}

package org.jtorch.nn;

import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * The step buffers of the recurrent layers (gate pre-activations, previous states, cell states and their gradients: 16
 * MB for the gates of one LSTM layer at batch 32, hidden 256, 128 steps), kept for the next call instead of being left
 * to the collector. A fresh Java array is zero-filled, a pass over memory that every one of these buffers overwrites
 * before reading it, and arrays this large are humongous objects to G1; a training loop calls the layer with the same
 * shapes every step, so a buffer given back is the one the next call takes.
 *
 * <p>A layer call takes its buffers here and gives back those it never returns once nothing can read them: at the end
 * of a forward that records no graph, at the end of backward for backward's own buffers, and when the graph frees the
 * saved tensors for those forward saves ({@link org.jtorch.autograd.Function.Ctx#onRelease}). Buffers are held through
 * soft references, so the collector may still reclaim idle ones under memory pressure, and at most {@link #KEEP} of one
 * size are kept.
 */
final class RecurrentBuffers {
    private RecurrentBuffers() {}

    /** Buffers of one size kept at most: a layer call uses up to six of a size at once. */
    private static final int KEEP = 8;

    private record Size(DType dtype, long rows, long cols) {}

    private static final Map<Size, ArrayDeque<SoftReference<Tensor>>> FREE = new HashMap<>();

    /**
     * A contiguous (rows, cols) float32 or float64 matrix whose contents are unspecified (a reused buffer's old
     * values): the caller writes every element before reading it.
     */
    static Tensor take(DType dtype, long rows, long cols) {
        Tensor buffer = null;
        synchronized (FREE) {
            ArrayDeque<SoftReference<Tensor>> free = FREE.get(new Size(dtype, rows, cols));
            while (buffer == null && free != null && !free.isEmpty())
                buffer = free.pop().get();
        }
        return buffer != null ? buffer : Torch.empty(new long[] {rows, cols}, dtype, Device.CPU);
    }

    /** Gives back buffers from {@link #take} that nothing reads any more (null entries are skipped). */
    static void give(Tensor... buffers) {
        synchronized (FREE) {
            for (Tensor t : buffers) {
                if (t == null) continue;
                ArrayDeque<SoftReference<Tensor>> free =
                        FREE.computeIfAbsent(new Size(t.dtype(), t.size(0), t.size(1)), _ -> new ArrayDeque<>());
                free.removeIf(r -> r.get() == null);
                if (free.size() < KEEP) free.push(new SoftReference<>(t));
            }
        }
    }
}

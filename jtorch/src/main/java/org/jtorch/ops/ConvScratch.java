package org.jtorch.ops;

import java.lang.ref.SoftReference;
import org.jtorch.DType;

/**
 * The scratch matrices of {@link ConvKernels} (the column matrix and the [C_out, B·L] output/gradient buffer), kept per
 * calling thread between calls. A training step convolves the same shapes again and again, and a fresh Java array of
 * tens of MiB is zeroed on allocation, on the caller's thread alone, before the kernel overwrites every element it
 * reads: that zeroing cost about as much as an im2col pass. The kernels write every element of the part they use before
 * reading it (im2col, the layout copies, GEMMs with beta = 0), so a reused buffer's old contents never reach a result.
 *
 * <p>A buffer is taken out of its slot while in use and put back after, so a nested call on the same thread (a parallel
 * loop's caller running another task) gets a fresh one rather than sharing it. Slots hold soft references: the
 * collector may take a buffer back when memory runs short.
 */
final class ConvScratch {
    private ConvScratch() {}

    /** The two scratch matrices of a kernel call. */
    enum Slot {
        COLUMNS,
        ROWS
    }

    /** Buffers up to this many elements are not worth keeping: allocating them costs little. */
    private static final int KEEP_FROM = 1 << 16;

    private static final ThreadLocal<Object[]> SLOTS = ThreadLocal.withInitial(() -> new Object[4]);

    /** A float[] (float32 compute) or double[] (float64) of at least {@code size} elements, contents undefined. */
    static Object take(DType ct, Slot slot, long size) {
        int n = Math.toIntExact(size);
        boolean dbl = ct == DType.FLOAT64;
        if (n >= KEEP_FROM) {
            Object[] slots = SLOTS.get();
            int i = index(dbl, slot);
            Object kept = slots[i] instanceof SoftReference<?> ref ? ref.get() : null;
            slots[i] = null;
            if (kept != null && length(kept) >= n) return kept;
        }
        return dbl ? new double[n] : new float[n];
    }

    /** Returns a buffer from {@link #take} to the thread's slot, where the next call of the same size finds it. */
    static void give(DType ct, Slot slot, Object buffer) {
        if (length(buffer) < KEEP_FROM) return;
        SLOTS.get()[index(ct == DType.FLOAT64, slot)] = new SoftReference<>(buffer);
    }

    private static int index(boolean dbl, Slot slot) {
        return (dbl ? 2 : 0) + slot.ordinal();
    }

    private static int length(Object buffer) {
        return buffer instanceof float[] f ? f.length : ((double[]) buffer).length;
    }
}

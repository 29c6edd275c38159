package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.simd.ResampleSimd;

/**
 * The CPU kernels of {@link UpsampleOps}: a separable resampling of [planes, d₁, …, dₖ] by one {@link ResampleAxis} per
 * spatial dim, one pass per dim from the last to the first, and its adjoint (the backward) in the opposite order.
 *
 * <p>Why passes: the last dim's pass gathers along rows (once per input row, before the other dims grow), and every
 * other pass combines whole contiguous rows with a weight each, a vector loop. With planes enough for the threads, each
 * thread runs every pass of a plane before the next, its intermediates in two small scratch planes that stay in cache;
 * otherwise each pass runs in parallel over the blocks in front of its dim. Either way the passes and their sums are
 * the same, and threads write disjoint outputs, so results do not depend on the thread count. Half types are computed
 * in float32, as ATen's upsample kernels accumulate them.
 *
 * <p>Float32 linear rows of the last dim with an integer scale factor run by output phase ({@link ResamplePhases}):
 * contiguous runs of the input (forward) or of the output gradient split by phase (backward) instead of gathers and
 * scatters through the table, with the same sums in the same order.
 */
final class ResampleKernels {
    private ResampleKernels() {}

    /** Writes the resampling of {@code input} ([planes, in₁…]) by {@code axes} into {@code out} ([planes, out₁…]). */
    static void forward(Tensor input, Tensor out, long planes, ResampleAxis[] axes) {
        run(input, out, planes, axes, false);
    }

    /**
     * Writes the adjoint of {@link #forward} applied to {@code gradOutput} ([planes, out₁…]) into {@code out} ([planes,
     * in₁…]): each input position receives every output's gradient times the weight it was read with.
     */
    static void backward(Tensor gradOutput, Tensor out, long planes, ResampleAxis[] axes) {
        run(gradOutput, out, planes, axes, true);
    }

    /**
     * One pass per dim that is not an identity: forward from the last dim to the first, the adjoint from the first to
     * the last; intermediate results in fresh arrays, the final pass into the output.
     */
    private static void run(Tensor source, Tensor out, long planes, ResampleAxis[] axes, boolean adjoint) {
        if (out.numel() == 0) return;
        try (DispatchState.Scope _ = DispatchState.gradEnabled(false)) {
            DType ct = ComputeArrays.computeType(out.dtype());
            ComputeArrays.Dense x = ComputeArrays.dense(source, ct);
            ComputeArrays.Target t = ComputeArrays.Target.of(out, ct);
            ResamplePhases phases = ct == DType.FLOAT32 ? ResamplePhases.of(axes[axes.length - 1]) : null;
            if (byPlane(planes, axes, adjoint)) {
                runByPlane(x, t, ct, planes, axes, adjoint, phases);
                t.finish();
                return;
            }
            int k = axes.length;
            long[] sizes = new long[k];
            for (int i = 0; i < k; i++) sizes[i] = adjoint ? axes[i].out() : axes[i].in();
            Object src = x.array();
            int srcOffset = x.offset();
            int last = lastPass(axes, !adjoint);
            for (int step = 0; step < k; step++) {
                int a = adjoint ? step : k - 1 - step;
                if (a != last && axes[a].identity()) continue;
                long before = planes * product(sizes, 0, a), inner = product(sizes, a + 1, k);
                sizes[a] = adjoint ? axes[a].in() : axes[a].out();
                boolean toTarget = a == last;
                Object dst = toTarget ? t.array() : alloc(ct, before * sizes[a] * inner);
                int dstOffset = toTarget ? t.offset() : 0;
                if (adjoint) adjointPass(axes[a], src, srcOffset, dst, dstOffset, before, (int) inner, phases);
                else pass(axes[a], src, srcOffset, dst, dstOffset, before, (int) inner, phases);
                src = dst;
                srcOffset = dstOffset;
            }
            t.finish();
        }
    }

    /**
     * Whether to run every pass of a plane before the next plane ({@link #runByPlane}): when there are planes enough to
     * share out among the threads and a plane's intermediate results fit in a cache-sized scratch buffer. The passes
     * then read and write that buffer instead of whole-tensor intermediates, which cost an allocation (zeroed on the
     * caller's thread) and a trip through memory each.
     */
    private static boolean byPlane(long planes, ResampleAxis[] axes, boolean adjoint) {
        return planes >= 4L * Parallel.numThreads() && scratchSize(axes, adjoint) <= PLANE_SCRATCH_MAX;
    }

    /** Elements of the largest intermediate plane kept per thread: 256 KiB of float32, within a core's L2. */
    private static final long PLANE_SCRATCH_MAX = 1L << 16;

    /** The largest intermediate result of one plane over the passes in {@link #run}'s order. */
    private static long scratchSize(ResampleAxis[] axes, boolean adjoint) {
        int k = axes.length;
        long[] sizes = new long[k];
        for (int i = 0; i < k; i++) sizes[i] = adjoint ? axes[i].out() : axes[i].in();
        long most = 0;
        for (int step = 0; step < k - 1; step++) {
            int a = adjoint ? step : k - 1 - step;
            sizes[a] = adjoint ? axes[a].in() : axes[a].out();
            most = Math.max(most, product(sizes, 0, k));
        }
        return most;
    }

    /**
     * {@link #run} a plane at a time, planes in parallel: each plane's passes go through two scratch planes of the
     * thread (the same passes, in the same order, as the whole-tensor path, so the same sums), the last pass into the
     * output.
     */
    private static void runByPlane(
            ComputeArrays.Dense x,
            ComputeArrays.Target t,
            DType ct,
            long planes,
            ResampleAxis[] axes,
            boolean adjoint,
            ResamplePhases phases) {
        int k = axes.length;
        long inPlane = 1, outPlane = 1;
        for (ResampleAxis ax : axes) {
            inPlane *= adjoint ? ax.out() : ax.in();
            outPlane *= adjoint ? ax.in() : ax.out();
        }
        int scratch = (int) scratchSize(axes, adjoint), srcPlane = (int) inPlane, dstPlane = (int) outPlane;
        Parallel.forRange(planes, grain(outPlane), (p0, p1) -> {
            Object[] buffers = {alloc(ct, scratch), alloc(ct, scratch)};
            long[] sizes = new long[k];
            for (long p = p0; p < p1; p++) {
                for (int i = 0; i < k; i++) sizes[i] = adjoint ? axes[i].out() : axes[i].in();
                Object src = x.array();
                int srcOffset = x.offset() + (int) p * srcPlane, buffer = 0;
                for (int step = 0; step < k; step++) {
                    int a = adjoint ? step : k - 1 - step;
                    long before = product(sizes, 0, a), inner = product(sizes, a + 1, k);
                    sizes[a] = adjoint ? axes[a].in() : axes[a].out();
                    boolean toTarget = step == k - 1;
                    Object dst = toTarget ? t.array() : buffers[buffer];
                    int dstOffset = toTarget ? t.offset() + (int) p * dstPlane : 0;
                    for (long b = 0; b < before; b++) {
                        int in = adjoint ? axes[a].out() : axes[a].in(), out = adjoint ? axes[a].in() : axes[a].out();
                        int s = srcOffset + (int) (b * in * inner), d = dstOffset + (int) (b * out * inner);
                        if (adjoint) adjointBlock(axes[a], src, s, dst, d, (int) inner, phases);
                        else passBlock(axes[a], src, s, dst, d, (int) inner, phases);
                    }
                    src = dst;
                    srcOffset = dstOffset;
                    buffer ^= 1;
                }
            }
        });
    }

    /**
     * The dim whose pass writes the output: the last pass run (the first dim going forward, the last going backward)
     * that is not an identity, or that dim's end of the order when every dim is one (it then copies).
     */
    private static int lastPass(ResampleAxis[] axes, boolean forward) {
        int k = axes.length;
        for (int i = 0; i < k; i++) {
            int a = forward ? i : k - 1 - i;
            if (!axes[a].identity()) return a;
        }
        return forward ? 0 : k - 1;
    }

    private static long product(long[] sizes, int from, int to) {
        long p = 1;
        for (int i = from; i < to; i++) p *= sizes[i];
        return p;
    }

    private static Object alloc(DType ct, long size) {
        int n = Math.toIntExact(size);
        return ct == DType.FLOAT64 ? new double[n] : new float[n];
    }

    /** Blocks per parallel piece: about {@link Parallel#GRAIN} output elements each. */
    private static long grain(long blockElements) {
        return Math.max(1, Parallel.GRAIN / Math.max(1, blockElements));
    }

    // ---- one dim, forward ---------------------------------------------------------------------------------

    /** [before, in, inner] → [before, out, inner] along the middle dim. */
    private static void pass(
            ResampleAxis ax, Object src, int so, Object dst, int dOff, long before, int inner, ResamplePhases phases) {
        int in = ax.in(), out = ax.out();
        Parallel.forRange(before, grain((long) out * inner), (b0, b1) -> {
            for (long b = b0; b < b1; b++) {
                passBlock(ax, src, so + (int) (b * in * inner), dst, dOff + (int) (b * out * inner), inner, phases);
            }
        });
    }

    /**
     * One block of {@link #pass}: [in, inner] at {@code s} → [out, inner] at {@code d}; rows of the axis with
     * {@code phases} (or null) by phase.
     */
    private static void passBlock(
            ResampleAxis ax, Object src, int s, Object dst, int d, int inner, ResamplePhases phases) {
        if (src instanceof float[] sf) {
            if (inner == 1 && phases != null && phases.axis() == ax) phases.forwardRow(sf, s, (float[]) dst, d);
            else if (inner == 1) gatherRow(ax, sf, s, (float[]) dst, d);
            else combineRows(ax, sf, s, (float[]) dst, d, inner);
        } else {
            if (inner == 1) gatherRow(ax, (double[]) src, s, (double[]) dst, d);
            else combineRows(ax, (double[]) src, s, (double[]) dst, d, inner);
        }
    }

    private static void gatherRow(ResampleAxis ax, float[] src, int s, float[] dst, int d) {
        int[] idx = ax.idx();
        float[] w = ax.wf();
        int taps = ax.taps(), out = ax.out();
        if (taps == 1) {
            for (int o = 0; o < out; o++) dst[d + o] = src[s + idx[o]];
        } else if (taps == 2) {
            for (int o = 0; o < out; o++) {
                dst[d + o] = w[2 * o] * src[s + idx[2 * o]] + w[2 * o + 1] * src[s + idx[2 * o + 1]];
            }
        } else {
            for (int o = 0; o < out; o++) {
                float acc = 0;
                for (int t = 0; t < taps; t++) acc += w[o * taps + t] * src[s + idx[o * taps + t]];
                dst[d + o] = acc;
            }
        }
    }

    private static void gatherRow(ResampleAxis ax, double[] src, int s, double[] dst, int d) {
        int[] idx = ax.idx();
        double[] w = ax.w();
        int taps = ax.taps(), out = ax.out();
        if (taps == 1) {
            for (int o = 0; o < out; o++) dst[d + o] = src[s + idx[o]];
        } else {
            for (int o = 0; o < out; o++) {
                double acc = 0;
                for (int t = 0; t < taps; t++) acc += w[o * taps + t] * src[s + idx[o * taps + t]];
                dst[d + o] = acc;
            }
        }
    }

    /** Each output row (inner long) is the weighted sum of its taps' input rows. */
    private static void combineRows(ResampleAxis ax, float[] src, int s, float[] dst, int d, int inner) {
        int[] idx = ax.idx();
        float[] w = ax.wf();
        int taps = ax.taps();
        for (int o = 0; o < ax.out(); o++) {
            int to = d + o * inner;
            int r0 = s + idx[o * taps] * inner;
            float w0 = w[o * taps];
            if (taps == 1) {
                System.arraycopy(src, r0, dst, to, inner);
            } else if (taps == 2) {
                int r1 = s + idx[o * taps + 1] * inner;
                float w1 = w[o * taps + 1];
                ResampleSimd.blendRows(src, r0, w0, r1, w1, dst, to, inner);
            } else {
                for (int i = 0; i < inner; i++) dst[to + i] = w0 * src[r0 + i];
                for (int t = 1; t < taps; t++) {
                    int r = s + idx[o * taps + t] * inner;
                    float wt = w[o * taps + t];
                    for (int i = 0; i < inner; i++) dst[to + i] += wt * src[r + i];
                }
            }
        }
    }

    private static void combineRows(ResampleAxis ax, double[] src, int s, double[] dst, int d, int inner) {
        int[] idx = ax.idx();
        double[] w = ax.w();
        int taps = ax.taps();
        for (int o = 0; o < ax.out(); o++) {
            int to = d + o * inner;
            if (taps == 1) {
                System.arraycopy(src, s + idx[o] * inner, dst, to, inner);
                continue;
            }
            int r0 = s + idx[o * taps] * inner;
            double w0 = w[o * taps];
            for (int i = 0; i < inner; i++) dst[to + i] = w0 * src[r0 + i];
            for (int t = 1; t < taps; t++) {
                int r = s + idx[o * taps + t] * inner;
                double wt = w[o * taps + t];
                for (int i = 0; i < inner; i++) dst[to + i] += wt * src[r + i];
            }
        }
    }

    // ---- one dim, adjoint ---------------------------------------------------------------------------------

    /** [before, out, inner] → [before, in, inner]: zeroes each block, then adds every output where it was read. */
    private static void adjointPass(
            ResampleAxis ax, Object src, int so, Object dst, int dOff, long before, int inner, ResamplePhases phases) {
        int in = ax.in(), out = ax.out();
        Parallel.forRange(before, grain((long) out * inner), (b0, b1) -> {
            for (long b = b0; b < b1; b++) {
                adjointBlock(ax, src, so + (int) (b * out * inner), dst, dOff + (int) (b * in * inner), inner, phases);
            }
        });
    }

    /**
     * One block of {@link #adjointPass}: [out, inner] at {@code s} → [in, inner] at {@code d}; rows of the axis with
     * {@code phases} (or null) by phase.
     */
    private static void adjointBlock(
            ResampleAxis ax, Object src, int s, Object dst, int d, int inner, ResamplePhases phases) {
        int in = ax.in(), out = ax.out(), taps = ax.taps();
        int[] idx = ax.idx();
        if (src instanceof float[] sf) {
            float[] df = (float[]) dst, w = ax.wf();
            if (inner == 1 && phases != null && phases.axis() == ax && phases.hasBackward()) {
                phases.backwardRow(sf, s, df, d);
                return;
            }
            java.util.Arrays.fill(df, d, d + in * inner, 0f);
            if (inner == 1 && taps == 2) {
                scatterRow(idx, w, sf, s, df, d, out);
                return;
            }
            for (int o = 0; o < out; o++) {
                int from = s + o * inner;
                for (int t = 0; t < taps; t++) {
                    int to = d + idx[o * taps + t] * inner;
                    float wt = w[o * taps + t];
                    ResampleSimd.addScaledRow(sf, from, wt, df, to, inner);
                }
            }
        } else {
            double[] sd = (double[]) src, dd = (double[]) dst, w = ax.w();
            java.util.Arrays.fill(dd, d, d + in * inner, 0);
            for (int o = 0; o < out; o++) {
                int from = s + o * inner;
                for (int t = 0; t < taps; t++) {
                    int to = d + idx[o * taps + t] * inner;
                    double wt = w[o * taps + t];
                    for (int i = 0; i < inner; i++) dd[to + i] += wt * sd[from + i];
                }
            }
        }
    }

    /**
     * The last dim's adjoint for two taps (linear interpolation): each output gradient goes to its two input positions
     * with their weights. A row at a time, without the row loop of length one that the general case would run per tap;
     * the order of the additions is the general case's, so the sums are the same.
     */
    private static void scatterRow(int[] idx, float[] w, float[] src, int s, float[] dst, int d, int out) {
        for (int o = 0; o < out; o++) {
            float g = src[s + o];
            dst[d + idx[2 * o]] += w[2 * o] * g;
            dst[d + idx[2 * o + 1]] += w[2 * o + 1] * g;
        }
    }
}

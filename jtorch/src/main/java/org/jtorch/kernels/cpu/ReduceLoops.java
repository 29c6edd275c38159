package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.kernels.cpu.ReduceAccumulators.ComplexAcc;
import org.jtorch.kernels.cpu.ReduceAccumulators.DoubleAcc;
import org.jtorch.kernels.cpu.ReduceAccumulators.IndexAcc;
import org.jtorch.kernels.cpu.ReduceAccumulators.LongAcc;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.storage.TensorImpl;

/**
 * Reduction, scan and softmax loops: the entry points of the reduction family's kernels.
 *
 * <p><b>Geometry.</b> A reduction splits the input's dims into kept dims and reduced dims and conceptually moves the
 * reduced dims to the end ({@link ReduceLanes}): each output element owns a "lane", its reduced elements visited in
 * row-major order of the reduced dims. The position in that order is what argmax and max(dim) report, so ties and NaN
 * resolve to the first occurrence. Outputs are written in row-major order of the kept dims (keepdim or not) through
 * their own strides. Lanes are independent and run in parallel ({@link Parallel#forRange}) when the total work is
 * large; each lane is reduced by one thread, front to back.
 *
 * <p><b>Accumulation.</b> The generic path reads through {@link ElementIO} in one of three domains
 * ({@link ReduceAccumulators}): double (floating dtypes; float16, bfloat16 and float8 therefore accumulate in double
 * and round once, when the result is stored), long (bool and integers: sums and products wrap as int64 does) or complex
 * (a double pair).
 *
 * <p><b>Contiguous float32/float64 and determinism.</b> {@link ReduceFastPaths} handles contiguous heap tensors. A sum
 * (or mean) over all elements or over trailing dims splits each lane into fixed {@value #BLOCK}-element blocks, sums
 * each block (float32: {@link FloatSimd#sum}, float lanes; float64: four double accumulators), then adds the block sums
 * in block order in double. Block boundaries depend only on the lane length, never on the thread count or on how
 * {@link Parallel#forRange} splits the work (a full reduction computes its blocks in parallel into a per-block array
 * and combines them afterwards), so the result is bitwise identical for any number of threads. PyTorch instead
 * accumulates a float32 sum in float with a cascade over the whole lane; float within a block and double across blocks
 * is at least as accurate, so results may differ from PyTorch's in the last bits, and from the generic path (strided
 * inputs, which accumulate sequentially in double) in the last bits too. Every other path reduces each lane serially,
 * so every reduction here is deterministic.
 */
public final class ReduceLoops {
    private ReduceLoops() {}

    /** Elements per block of the contiguous sums; fixed so that results do not depend on threads. */
    public static final int BLOCK = 32_768;

    /** The value reductions. {@code param} of {@link #reduce} is the correction (VAR, STD) or the order (NORM). */
    public enum Op {
        SUM,
        NANSUM,
        PROD,
        MEAN,
        NANMEAN,
        AMAX,
        AMIN,
        ALL,
        ANY,
        VAR,
        STD,
        LOGSUMEXP,
        NORM
    }

    /**
     * Reduces {@code in} over the dims flagged in {@code reduced} into {@code out}. {@code compute} selects the domain
     * by its category (for sum with {@code dtype=}, the requested dtype; {@code UINT64} orders unsigned). SUM/MEAN/PROD
     * of complex input into a real dtype read the real parts; NORM, and ALL/ANY of complex input, read complex elements
     * as their magnitude; VAR/STD of complex input store a real result.
     */
    public static void reduce(Op op, TensorImpl out, TensorImpl in, boolean[] reduced, DType compute, double param) {
        long outputs = out.numel();
        if (outputs == 0) return;
        ReduceLanes lanes = new ReduceLanes(in, reduced);
        if (ReduceFastPaths.tryReduce(op, out, in, lanes)) return;
        MemorySegment src = in.storage().segment(), dst = out.storage().segment();
        ElementIO io = ElementIO.of(in.dtype()), oio = ElementIO.of(out.dtype());
        long grain = Math.max(1, Parallel.GRAIN / Math.max(1, lanes.size));
        boolean logical = op == Op.ALL || op == Op.ANY;
        PointwiseLoops.Domain domain = PointwiseLoops.domain(compute);
        if (op == Op.NORM || (logical && domain == PointwiseLoops.Domain.COMPLEX))
            domain = PointwiseLoops.Domain.DOUBLE;
        // sum/mean/prod (and the nan- variants) into a real dtype= cast each complex element first, which keeps
        // its real part (PyTorch's complex-to-real cast); the other reductions of complex input read its magnitude
        boolean magnitude = in.dtype().isComplex()
                && switch (op) {
                    case SUM, NANSUM, MEAN, NANMEAN, PROD -> false;
                    default -> true;
                };
        switch (domain) {
            case DOUBLE ->
                Parallel.forRange(outputs, grain, (s, e) -> {
                    DoubleAcc acc = new DoubleAcc(op, param, io, src, magnitude, lanes.size);
                    for (long o = s; o < e; o++) {
                        acc.reset();
                        lanes.forEachRun(lanes.base(o), acc);
                        if (logical) oio.setLong(dst, out.elementIndex(o), acc.truth() ? 1 : 0);
                        else oio.setDouble(dst, out.elementIndex(o), acc.result());
                    }
                });
            case LONG ->
                Parallel.forRange(outputs, grain, (s, e) -> {
                    LongAcc acc = new LongAcc(op, io, src, compute == DType.UINT64);
                    for (long o = s; o < e; o++) {
                        acc.reset();
                        lanes.forEachRun(lanes.base(o), acc);
                        oio.setLong(dst, out.elementIndex(o), acc.result());
                    }
                });
            case COMPLEX ->
                Parallel.forRange(outputs, grain, (s, e) -> {
                    ComplexAcc acc = new ComplexAcc(op, param, io, src, lanes.size);
                    for (long o = s; o < e; o++) {
                        long base = lanes.base(o);
                        acc.reset();
                        lanes.forEachRun(base, acc);
                        if (acc.secondPass()) lanes.forEachRun(base, acc);
                        acc.finish();
                        oio.setComplex(dst, out.elementIndex(o), acc.re, acc.im);
                    }
                });
        }
    }

    /**
     * max/min over the reduced dims with the position of the winner (first occurrence on ties; a NaN wins and the first
     * NaN sticks). {@code values} may be {@code null} (argmax/argmin); positions are row-major within the lane, so
     * reducing every dim gives the flat index.
     */
    public static void reduceWithIndex(
            boolean max, TensorImpl values, TensorImpl indices, TensorImpl in, boolean[] reduced, DType compute) {
        long outputs = indices.numel();
        if (outputs == 0) return;
        ReduceLanes lanes = new ReduceLanes(in, reduced);
        MemorySegment src = in.storage().segment(), iseg = indices.storage().segment();
        MemorySegment vseg = values == null ? null : values.storage().segment();
        ElementIO io = ElementIO.of(in.dtype()), iio = ElementIO.of(indices.dtype());
        ElementIO vio = values == null ? null : ElementIO.of(values.dtype());
        boolean floating = PointwiseLoops.domain(compute) == PointwiseLoops.Domain.DOUBLE;
        boolean unsigned = compute == DType.UINT64;
        Parallel.forRange(outputs, Math.max(1, Parallel.GRAIN / Math.max(1, lanes.size)), (s, e) -> {
            IndexAcc acc = new IndexAcc(max, floating, unsigned, io, src);
            for (long o = s; o < e; o++) {
                acc.reset();
                lanes.forEachRun(lanes.base(o), acc);
                iio.setLong(iseg, indices.elementIndex(o), acc.bestPos);
                if (vio == null) continue;
                if (floating) vio.setDouble(vseg, values.elementIndex(o), acc.bestD);
                else vio.setLong(vseg, values.elementIndex(o), acc.bestL);
            }
        });
    }

    /** cumsum ({@code prod == false}) or cumprod along {@code dim}, accumulating in {@code compute}'s domain. */
    public static void scan(boolean prod, TensorImpl out, TensorImpl in, int dim, DType compute) {
        if (out.numel() == 0) return;
        TensorImpl x = atLeast1d(in), y = atLeast1d(out);
        ReduceLanes inLanes = ReduceLanes.along(x, dim), outLanes = ReduceLanes.along(y, dim);
        long n = x.shapeRef()[dim], sx = x.strideRef()[dim], sy = y.strideRef()[dim];
        MemorySegment src = x.storage().segment(), dst = y.storage().segment();
        ElementIO io = ElementIO.of(x.dtype()), oio = ElementIO.of(y.dtype());
        PointwiseLoops.Domain domain = PointwiseLoops.domain(compute);
        Parallel.forRange(inLanes.outputs, Math.max(1, Parallel.GRAIN / Math.max(1, n)), (s, e) -> {
            for (long o = s; o < e; o++) {
                long bi = inLanes.base(o), bo = outLanes.base(o);
                switch (domain) {
                    case DOUBLE -> {
                        double acc = prod ? 1 : 0;
                        for (long j = 0; j < n; j++) {
                            double v = io.getDouble(src, bi + j * sx);
                            acc = prod ? acc * v : acc + v;
                            oio.setDouble(dst, bo + j * sy, acc);
                        }
                    }
                    case LONG -> {
                        long acc = prod ? 1 : 0;
                        for (long j = 0; j < n; j++) {
                            long v = io.getLong(src, bi + j * sx);
                            acc = prod ? acc * v : acc + v;
                            oio.setLong(dst, bo + j * sy, acc);
                        }
                    }
                    case COMPLEX -> {
                        double re = prod ? 1 : 0, im = 0;
                        for (long j = 0; j < n; j++) {
                            long k = bi + j * sx;
                            double vr = io.getDouble(src, k), vi = io.getImag(src, k);
                            if (prod) {
                                double r = re * vr - im * vi;
                                im = re * vi + im * vr;
                                re = r;
                            } else {
                                re += vr;
                                im += vi;
                            }
                            oio.setComplex(dst, bo + j * sy, re, im);
                        }
                    }
                }
            }
        });
    }

    /**
     * An inclusive scan along {@code dim} with the floating ({@code combine.d()}) or complex ({@code combine.c()})
     * formula of {@code combine}: out[0] = x[0], out[j] = combine(out[j - 1], x[j]), accumulated in double
     * ({@code logcumsumexp}'s running log-add-exp).
     */
    public static void scan(Fns.Binary combine, TensorImpl out, TensorImpl in, int dim) {
        if (out.numel() == 0) return;
        TensorImpl x = atLeast1d(in), y = atLeast1d(out);
        ReduceLanes inLanes = ReduceLanes.along(x, dim), outLanes = ReduceLanes.along(y, dim);
        long n = x.shapeRef()[dim], sx = x.strideRef()[dim], sy = y.strideRef()[dim];
        MemorySegment src = x.storage().segment(), dst = y.storage().segment();
        ElementIO io = ElementIO.of(x.dtype()), oio = ElementIO.of(y.dtype());
        boolean complex = y.dtype().isComplex();
        Parallel.forRange(inLanes.outputs, Math.max(1, Parallel.GRAIN / Math.max(1, n)), (s, e) -> {
            double[] acc = new double[2];
            for (long o = s; o < e; o++) {
                long bi = inLanes.base(o), bo = outLanes.base(o);
                for (long j = 0; j < n; j++) {
                    long k = bi + j * sx;
                    double vr = io.getDouble(src, k), vi = complex ? io.getImag(src, k) : 0;
                    if (j == 0) {
                        acc[0] = vr;
                        acc[1] = vi;
                    } else if (complex) {
                        combine.c().apply(acc[0], acc[1], vr, vi, acc);
                    } else {
                        acc[0] = combine.d().applyAsDouble(acc[0], vr);
                    }
                    if (complex) oio.setComplex(dst, bo + j * sy, acc[0], acc[1]);
                    else oio.setDouble(dst, bo + j * sy, acc[0]);
                }
            }
        });
    }

    /**
     * softmax (or log_softmax) along {@code dim}: subtract the lane maximum, exponentiate, normalise; in double here,
     * in float with the Vector API for contiguous float32 over the last dim. A lane whose maximum is NaN or infinite
     * gives NaN where x - max is NaN, as PyTorch's does.
     */
    public static void softmax(boolean log, TensorImpl out, TensorImpl in, int dim) {
        if (out.numel() == 0) return;
        TensorImpl x = atLeast1d(in), y = atLeast1d(out);
        if (ReduceFastPaths.trySoftmax(log, y, x, dim)) return;
        ReduceLanes inLanes = ReduceLanes.along(x, dim), outLanes = ReduceLanes.along(y, dim);
        long n = x.shapeRef()[dim], sx = x.strideRef()[dim], sy = y.strideRef()[dim];
        MemorySegment src = x.storage().segment(), dst = y.storage().segment();
        ElementIO io = ElementIO.of(x.dtype()), oio = ElementIO.of(y.dtype());
        Parallel.forRange(inLanes.outputs, Math.max(1, Parallel.GRAIN / (4 * n)), (s, e) -> {
            for (long o = s; o < e; o++) {
                long bi = inLanes.base(o), bo = outLanes.base(o);
                double max = Double.NEGATIVE_INFINITY;
                for (long j = 0; j < n && max == max; j++) {
                    double v = io.getDouble(src, bi + j * sx);
                    if (v > max || v != v) max = v;
                }
                double sum = 0;
                for (long j = 0; j < n; j++) sum += Math.exp(io.getDouble(src, bi + j * sx) - max);
                double logSum = Math.log(sum);
                for (long j = 0; j < n; j++) {
                    double z = io.getDouble(src, bi + j * sx) - max;
                    oio.setDouble(dst, bo + j * sy, log ? z - logSum : Math.exp(z) / sum);
                }
            }
        });
    }

    /**
     * The backward of softmax ({@code log} false: {@code y·(g - Σ g·y)}) or log_softmax ({@code g - exp(y)·Σ g}) along
     * {@code dim}, from the forward's output y; any dtype and layout, accumulated in double.
     */
    public static void softmaxBackward(boolean log, TensorImpl out, TensorImpl grad, TensorImpl output, int dim) {
        if (out.numel() == 0) return;
        TensorImpl g = atLeast1d(grad), y = atLeast1d(output), z = atLeast1d(out);
        if (ReduceFastPaths.trySoftmaxBackward(log, z, g, y, dim)) return;
        ReduceLanes gl = ReduceLanes.along(g, dim), yl = ReduceLanes.along(y, dim), zl = ReduceLanes.along(z, dim);
        long n = g.shapeRef()[dim], sg = g.strideRef()[dim], sy = y.strideRef()[dim], sz = z.strideRef()[dim];
        MemorySegment gs = g.storage().segment(),
                ys = y.storage().segment(),
                zs = z.storage().segment();
        ElementIO gio = ElementIO.of(g.dtype()), yio = ElementIO.of(y.dtype()), zio = ElementIO.of(z.dtype());
        Parallel.forRange(gl.outputs, Math.max(1, Parallel.GRAIN / (4 * n)), (s, e) -> {
            for (long o = s; o < e; o++) {
                long bg = gl.base(o), by = yl.base(o), bz = zl.base(o);
                double acc = 0;
                for (long j = 0; j < n; j++) {
                    double gj = gio.getDouble(gs, bg + j * sg);
                    acc += log ? gj : gj * yio.getDouble(ys, by + j * sy);
                }
                for (long j = 0; j < n; j++) {
                    double gj = gio.getDouble(gs, bg + j * sg), yj = yio.getDouble(ys, by + j * sy);
                    zio.setDouble(zs, bz + j * sz, log ? gj - Math.exp(yj) * acc : yj * (gj - acc));
                }
            }
        });
    }

    /** A 0-d tensor seen as shape [1], so that dim 0 exists for scans and softmax. */
    private static TensorImpl atLeast1d(TensorImpl t) {
        return t.dim() > 0 ? t : t.viewOf(t.storageOffset(), new long[] {1}, new long[] {1});
    }
}

package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.simd.FloatReduceSimd;
import org.jtorch.kernels.cpu.simd.FloatSimd;

/**
 * Reduction, scan and softmax loops.
 *
 * <p><b>Geometry.</b> A reduction splits the input's dims into kept dims (one output element each, in
 * row-major order, whether or not the output keeps size-1 dims) and reduced dims. Conceptually the
 * reduced dims move to the end: each output owns a "lane", the reduced elements visited in row-major
 * order of the reduced dims (adjacent reduced dims are coalesced into longer strided runs). The
 * position in that order is the index that argmax and max(dim) report, so ties and NaN resolve to
 * the first occurrence. Outputs are independent and run in parallel ({@link Parallel#forRange}) when
 * the total work is large; each lane is reduced by one thread, front to back.
 *
 * <p><b>Accumulation.</b> Elements are read through {@link ElementIO} in one of three domains: double
 * (floating dtypes, including float16/bfloat16/float8, which therefore accumulate in double and round
 * once when the result is stored), long (bool and integers: sums and products wrap as in int64) or
 * complex (a double pair). var/std use Welford's update; logsumexp keeps a running maximum and
 * rescales, so it never overflows and handles -inf lanes; vector norms accumulate in double.
 *
 * <p><b>Float32 fast path and determinism.</b> Contiguous heap float32 inputs reduced over all
 * elements or over trailing dims use the Vector API: sum (and mean) splits each lane into fixed
 * {@value #BLOCK}-element blocks, sums each block with {@link FloatSimd#sum} (float lanes), then adds
 * the block sums in block order in double. Block boundaries depend only on the lane length, never on
 * the thread count or on how {@link Parallel#forRange} splits the work (a full reduction sums its
 * blocks in parallel into a per-block array and combines them afterwards), so the result is bitwise
 * identical for any number of threads. PyTorch instead accumulates float32 sums in float with a
 * cascade over the whole lane; our float-within-a-block, double-across-blocks scheme is at least as
 * accurate, so results may differ from PyTorch's in the last bits. Strided inputs take the generic
 * path, which accumulates float32 in double. amax/amin use {@link FloatSimd#max} and
 * {@link FloatReduceSimd#min}, which are order-independent.
 */
public final class ReduceLoops {
    private ReduceLoops() {}

    /** Elements per block of the float32 fast sum; fixed so that results do not depend on threads. */
    public static final int BLOCK = 32_768;

    /** The value reductions. {@code param} of {@link #reduce} is the correction (VAR, STD) or the order (NORM). */
    public enum Op { SUM, NANSUM, PROD, MEAN, NANMEAN, AMAX, AMIN, ALL, ANY, VAR, STD, LOGSUMEXP, NORM }

    // ---- value reductions ---------------------------------------------------------------------------

    /**
     * Reduces {@code in} over the dims flagged in {@code reduced} into {@code out}, whose elements
     * follow the kept dims in row-major order. {@code compute} is the dtype whose category selects
     * the domain (for sum with {@code dtype=}, the requested dtype; {@code UINT64} orders unsigned).
     */
    public static void reduce(Op op, Tensor out, Tensor in, boolean[] reduced, DType compute, double param) {
        long outputs = out.numel();
        if (outputs == 0) return;
        Lanes lanes = new Lanes(in, reduced);
        if (FastFloat.tryReduce(op, out, in, lanes)) return;
        MemorySegment src = in.storage().segment(), dst = out.storage().segment();
        ElementIO io = ElementIO.of(in.dtype()), oio = ElementIO.of(out.dtype());
        long grain = Math.max(1, Parallel.GRAIN / Math.max(1, lanes.size));
        boolean bool = op == Op.ALL || op == Op.ANY;
        boolean complexIn = in.dtype().isComplex();
        PointwiseLoops.Domain domain = PointwiseLoops.domain(compute);
        if (op == Op.NORM || (bool && (domain == PointwiseLoops.Domain.COMPLEX))) domain = PointwiseLoops.Domain.DOUBLE;
        switch (domain) {
            case DOUBLE -> Parallel.forRange(outputs, grain, (s, e) -> {
                DoubleAcc acc = new DoubleAcc(op, param, io, src, complexIn, lanes.size);
                for (long o = s; o < e; o++) {
                    acc.reset();
                    lanes.forEachRun(lanes.base(o), acc);
                    if (bool) oio.setLong(dst, out.elementIndex(o), acc.truth() ? 1 : 0);
                    else oio.setDouble(dst, out.elementIndex(o), acc.result());
                }
            });
            case LONG -> Parallel.forRange(outputs, grain, (s, e) -> {
                LongAcc acc = new LongAcc(op, io, src, compute == DType.UINT64);
                for (long o = s; o < e; o++) {
                    acc.reset();
                    lanes.forEachRun(lanes.base(o), acc);
                    oio.setLong(dst, out.elementIndex(o), acc.result());
                }
            });
            case COMPLEX -> Parallel.forRange(outputs, grain, (s, e) -> {
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
     * max/min over the reduced dims with the position of the winner (first occurrence on ties; a NaN
     * wins and the first NaN sticks). {@code values} may be {@code null} (argmax/argmin); positions
     * are row-major within the lane, so reducing every dim gives the flat index.
     */
    public static void reduceWithIndex(boolean max, Tensor values, Tensor indices, Tensor in, boolean[] reduced, DType compute) {
        long outputs = indices.numel();
        if (outputs == 0) return;
        Lanes lanes = new Lanes(in, reduced);
        MemorySegment src = in.storage().segment(), iseg = indices.storage().segment();
        MemorySegment vseg = values == null ? null : values.storage().segment();
        ElementIO io = ElementIO.of(in.dtype()), iio = ElementIO.of(indices.dtype());
        ElementIO vio = values == null ? null : ElementIO.of(values.dtype());
        long grain = Math.max(1, Parallel.GRAIN / Math.max(1, lanes.size));
        boolean floating = PointwiseLoops.domain(compute) == PointwiseLoops.Domain.DOUBLE;
        boolean unsigned = compute == DType.UINT64;
        Parallel.forRange(outputs, grain, (s, e) -> {
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

    // ---- scans and softmax --------------------------------------------------------------------------

    /** cumsum ({@code prod == false}) or cumprod along {@code dim}, accumulating in {@code compute}'s domain. */
    public static void scan(boolean prod, Tensor out, Tensor in, int dim, DType compute) {
        if (out.numel() == 0) return;
        Tensor x = atLeast1d(in), y = atLeast1d(out);
        boolean[] mask = new boolean[x.dim()];
        mask[dim] = true;
        Lanes inLanes = new Lanes(x, mask), outLanes = new Lanes(y, mask);
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
     * softmax (or log_softmax) along {@code dim} in double: subtract the lane maximum, exponentiate,
     * normalise. A lane whose maximum is infinite or NaN gives NaN where x - max is NaN, as PyTorch's.
     */
    public static void softmax(boolean log, Tensor out, Tensor in, int dim) {
        if (out.numel() == 0) return;
        Tensor x = atLeast1d(in), y = atLeast1d(out);
        boolean[] mask = new boolean[x.dim()];
        mask[dim] = true;
        Lanes inLanes = new Lanes(x, mask), outLanes = new Lanes(y, mask);
        long n = x.shapeRef()[dim], sx = x.strideRef()[dim], sy = y.strideRef()[dim];
        MemorySegment src = x.storage().segment(), dst = y.storage().segment();
        ElementIO io = ElementIO.of(x.dtype()), oio = ElementIO.of(y.dtype());
        Parallel.forRange(inLanes.outputs, Math.max(1, Parallel.GRAIN / Math.max(1, 4 * n)), (s, e) -> {
            for (long o = s; o < e; o++) {
                long bi = inLanes.base(o), bo = outLanes.base(o);
                double max = Double.NEGATIVE_INFINITY;
                for (long j = 0; j < n; j++) {
                    double v = io.getDouble(src, bi + j * sx);
                    if (v > max || Double.isNaN(v)) max = v;
                    if (Double.isNaN(max)) break;
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

    /** A 0-d tensor seen as shape [1], so that dim 0 exists for scans and softmax. */
    private static Tensor atLeast1d(Tensor t) {
        return t.dim() > 0 ? t : t.viewOf(t.storageOffset(), new long[] {1}, new long[] {1});
    }

    // ---- geometry -----------------------------------------------------------------------------------

    /** Receives the strided runs of one lane, in order. */
    @FunctionalInterface
    interface RunSink {
        void run(long start, long stride, long len);
    }

    /** Kept dims (one lane each) and coalesced reduced dims of a tensor. */
    static final class Lanes {
        final long[] keptShape, keptStrides, redShape, redStrides;
        final long offset, size, outputs;

        Lanes(Tensor t, boolean[] reduced) {
            long[] shape = t.shapeRef(), strides = t.strideRef();
            int kept = 0, red = 0;
            for (int d = 0; d < shape.length; d++) {
                if (reduced[d]) red++;
                else kept++;
            }
            keptShape = new long[kept];
            keptStrides = new long[kept];
            long[] rs = new long[red], rst = new long[red];
            int k = 0, r = 0;
            long total = 1, outs = 1;
            for (int d = 0; d < shape.length; d++) {
                if (!reduced[d]) {
                    keptShape[k] = shape[d];
                    keptStrides[k++] = strides[d];
                    outs *= shape[d];
                    continue;
                }
                total *= shape[d];
                if (shape[d] == 1) continue; // contributes nothing to the order
                if (r > 0 && rst[r - 1] == strides[d] * shape[d]) { // merge with the previous reduced dim
                    rs[r - 1] *= shape[d];
                    rst[r - 1] = strides[d];
                } else {
                    rs[r] = shape[d];
                    rst[r++] = strides[d];
                }
            }
            redShape = java.util.Arrays.copyOf(rs, r);
            redStrides = java.util.Arrays.copyOf(rst, r);
            offset = t.storageOffset();
            size = total;
            outputs = outs;
        }

        /** Storage index of the first element of lane {@code o}. */
        long base(long o) {
            long idx = offset;
            for (int d = keptShape.length - 1; d >= 0; d--) {
                long s = keptShape[d];
                idx += (o % s) * keptStrides[d];
                o /= s;
            }
            return idx;
        }

        /** Visits the lane starting at {@code base} as strided runs, in row-major order of the reduced dims. */
        void forEachRun(long base, RunSink sink) {
            if (size == 0) return;
            int nd = redShape.length;
            if (nd == 0) {
                sink.run(base, 1, 1);
                return;
            }
            long inner = redShape[nd - 1], innerStride = redStrides[nd - 1];
            if (nd == 1) {
                sink.run(base, innerStride, inner);
                return;
            }
            long[] coord = new long[nd - 1];
            long pos = base;
            for (long r = 0, runs = size / inner; r < runs; r++) {
                sink.run(pos, innerStride, inner);
                for (int d = nd - 2; d >= 0; d--) {
                    pos += redStrides[d];
                    if (++coord[d] < redShape[d]) break;
                    pos -= coord[d] * redStrides[d];
                    coord[d] = 0;
                }
            }
        }
    }

    // ---- accumulators (one per task, reset per lane) ------------------------------------------------

    /** Floating-domain accumulator; complex inputs are read as their magnitude (norms, all/any). */
    static final class DoubleAcc implements RunSink {
        private final Op op;
        private final double p;
        private final ElementIO io;
        private final MemorySegment seg;
        private final boolean magnitude;
        private final long laneSize;
        private double a, b;
        private long n;
        private boolean flagNan, flagInf;

        DoubleAcc(Op op, double p, ElementIO io, MemorySegment seg, boolean magnitude, long laneSize) {
            this.op = op;
            this.p = p;
            this.io = io;
            this.seg = seg;
            this.magnitude = magnitude;
            this.laneSize = laneSize;
        }

        void reset() {
            n = 0;
            b = 0;
            flagNan = false;
            flagInf = false;
            a = switch (op) {
                case PROD, ALL -> 1;
                case AMAX -> Double.NEGATIVE_INFINITY;
                case AMIN -> Double.POSITIVE_INFINITY;
                case NORM -> p == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : 0;
                case LOGSUMEXP -> Double.NEGATIVE_INFINITY;
                default -> 0;
            };
        }

        private double read(long i) {
            return magnitude ? Math.hypot(io.getDouble(seg, i), io.getImag(seg, i)) : io.getDouble(seg, i);
        }

        @Override
        public void run(long start, long stride, long len) {
            switch (op) {
                case SUM, MEAN -> {
                    double s = a;
                    for (long i = 0; i < len; i++) s += read(start + i * stride);
                    a = s;
                }
                case NANSUM, NANMEAN -> {
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        if (v == v) {
                            a += v;
                            n++;
                        }
                    }
                }
                case PROD -> {
                    for (long i = 0; i < len; i++) a *= read(start + i * stride);
                }
                case AMAX -> {
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        if (v > a || v != v) a = v;
                        if (a != a) return;
                    }
                }
                case AMIN -> {
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        if (v < a || v != v) a = v;
                        if (a != a) return;
                    }
                }
                case ALL -> {
                    for (long i = 0; i < len && a != 0; i++) if (read(start + i * stride) == 0) a = 0;
                }
                case ANY -> {
                    for (long i = 0; i < len && a == 0; i++) if (read(start + i * stride) != 0) a = 1;
                }
                case VAR, STD -> { // Welford: a = mean, b = sum of squared deviations
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        n++;
                        double delta = v - a;
                        a += delta / n;
                        b += delta * (v - a);
                    }
                }
                case LOGSUMEXP -> { // a = running max of finite values, b = sum of exp(x - a)
                    for (long i = 0; i < len; i++) {
                        double v = read(start + i * stride);
                        if (v != v) flagNan = true;
                        else if (v == Double.POSITIVE_INFINITY) flagInf = true;
                        else if (v == Double.NEGATIVE_INFINITY) continue;
                        else if (v > a) {
                            b = b * Math.exp(a - v) + 1;
                            a = v;
                        } else {
                            b += Math.exp(v - a);
                        }
                    }
                }
                case NORM -> norm(start, stride, len);
            }
        }

        private void norm(long start, long stride, long len) {
            if (p == 2) {
                for (long i = 0; i < len; i++) {
                    double v = read(start + i * stride);
                    a += v * v;
                }
            } else if (p == 1) {
                for (long i = 0; i < len; i++) a += Math.abs(read(start + i * stride));
            } else if (p == 0) {
                for (long i = 0; i < len; i++) if (read(start + i * stride) != 0) a += 1;
            } else if (p == Double.POSITIVE_INFINITY) {
                for (long i = 0; i < len; i++) {
                    double v = Math.abs(read(start + i * stride));
                    if (v > a || v != v) a = v;
                }
            } else if (p == Double.NEGATIVE_INFINITY) {
                for (long i = 0; i < len; i++) {
                    double v = Math.abs(read(start + i * stride));
                    if (v < a || v != v) a = v;
                    if (a != a) return;
                }
            } else {
                for (long i = 0; i < len; i++) a += Math.pow(Math.abs(read(start + i * stride)), p);
            }
        }

        boolean truth() { return a != 0; }

        double result() {
            return switch (op) {
                case MEAN -> a / laneSize;
                case NANMEAN -> a / n;
                case VAR -> b / Math.max(0, laneSize - p);
                case STD -> Math.sqrt(b / Math.max(0, laneSize - p));
                case LOGSUMEXP -> flagNan ? Double.NaN : flagInf ? Double.POSITIVE_INFINITY : b == 0 ? Double.NEGATIVE_INFINITY
                        : a + Math.log(b);
                case NORM -> p == 2 ? Math.sqrt(a) : p == 1 || p == 0 || Double.isInfinite(p) ? a : Math.pow(a, 1 / p);
                default -> a;
            };
        }
    }

    /** Bool/integer-domain accumulator: sums and products wrap as int64 does. */
    static final class LongAcc implements RunSink {
        private final Op op;
        private final ElementIO io;
        private final MemorySegment seg;
        private final boolean unsigned;
        private long a;

        LongAcc(Op op, ElementIO io, MemorySegment seg, boolean unsigned) {
            this.op = op;
            this.io = io;
            this.seg = seg;
            this.unsigned = unsigned;
        }

        void reset() {
            a = switch (op) {
                case PROD, ALL -> 1;
                case AMAX -> unsigned ? 0 : Long.MIN_VALUE;
                case AMIN -> unsigned ? -1 : Long.MAX_VALUE;
                default -> 0;
            };
        }

        @Override
        public void run(long start, long stride, long len) {
            switch (op) {
                case SUM, NANSUM -> {
                    long s = a;
                    for (long i = 0; i < len; i++) s += io.getLong(seg, start + i * stride);
                    a = s;
                }
                case PROD -> {
                    for (long i = 0; i < len; i++) a *= io.getLong(seg, start + i * stride);
                }
                case AMAX -> {
                    for (long i = 0; i < len; i++) {
                        long v = io.getLong(seg, start + i * stride);
                        if (compare(v, a) > 0) a = v;
                    }
                }
                case AMIN -> {
                    for (long i = 0; i < len; i++) {
                        long v = io.getLong(seg, start + i * stride);
                        if (compare(v, a) < 0) a = v;
                    }
                }
                case ALL -> {
                    for (long i = 0; i < len && a != 0; i++) if (io.getLong(seg, start + i * stride) == 0) a = 0;
                }
                case ANY -> {
                    for (long i = 0; i < len && a == 0; i++) if (io.getLong(seg, start + i * stride) != 0) a = 1;
                }
                default -> throw new IllegalStateException(op + " has no integer kernel");
            }
        }

        private int compare(long x, long y) { return unsigned ? Long.compareUnsigned(x, y) : Long.compare(x, y); }

        long result() { return a; }
    }

    /** Complex-domain accumulator: sum, prod, mean, var/std (real result in {@code re}) and logsumexp. */
    static final class ComplexAcc implements RunSink {
        private final Op op;
        private final double p;
        private final ElementIO io;
        private final MemorySegment seg;
        private final long laneSize;
        double re, im;
        private double m2, max;
        private long n;
        private int pass;

        ComplexAcc(Op op, double p, ElementIO io, MemorySegment seg, long laneSize) {
            this.op = op;
            this.p = p;
            this.io = io;
            this.seg = seg;
            this.laneSize = laneSize;
        }

        void reset() {
            re = op == Op.PROD ? 1 : 0;
            im = 0;
            m2 = 0;
            n = 0;
            pass = 0;
            max = Double.NEGATIVE_INFINITY;
        }

        /**
         * Whether the lane must be visited again: logsumexp first finds the largest real part, then
         * sums exp(z - max) (the rule PyTorch uses for complex input).
         */
        boolean secondPass() {
            if (op != Op.LOGSUMEXP) return false;
            if (Double.isInfinite(max)) max = 0;
            pass = 1;
            return true;
        }

        @Override
        public void run(long start, long stride, long len) {
            for (long i = 0; i < len; i++) {
                long k = start + i * stride;
                double vr = io.getDouble(seg, k), vi = io.getImag(seg, k);
                switch (op) {
                    case SUM, MEAN -> {
                        re += vr;
                        im += vi;
                    }
                    case PROD -> {
                        double r = re * vr - im * vi;
                        im = re * vi + im * vr;
                        re = r;
                    }
                    case VAR, STD -> { // Welford on both parts; re/im hold the running mean
                        n++;
                        double dr = vr - re, di = vi - im;
                        re += dr / n;
                        im += di / n;
                        m2 += dr * (vr - re) + di * (vi - im);
                    }
                    case LOGSUMEXP -> {
                        if (pass == 0) {
                            if (vr > max || vr != vr) max = vr;
                        } else {
                            double e = Math.exp(vr - max);
                            re += e * Math.cos(vi);
                            im += e * Math.sin(vi);
                        }
                    }
                    default -> throw new IllegalStateException(op + " has no complex kernel");
                }
            }
        }

        /** Turns the accumulated state into the lane's result in {@code re}, {@code im}. */
        void finish() {
            switch (op) {
                case MEAN -> {
                    re /= laneSize;
                    im /= laneSize;
                }
                case VAR, STD -> {
                    double v = m2 / Math.max(0, laneSize - p);
                    re = op == Op.STD ? Math.sqrt(v) : v;
                    im = 0;
                }
                case LOGSUMEXP -> {
                    double mag = Math.hypot(re, im), arg = Math.atan2(im, re);
                    re = Math.log(mag) + max;
                    im = arg;
                }
                default -> { }
            }
        }
    }

    /** Running max/min with the row-major position of the winner. */
    static final class IndexAcc implements RunSink {
        private final boolean max, floating, unsigned;
        private final ElementIO io;
        private final MemorySegment seg;
        double bestD;
        long bestL, bestPos;
        private long pos;

        IndexAcc(boolean max, boolean floating, boolean unsigned, ElementIO io, MemorySegment seg) {
            this.max = max;
            this.floating = floating;
            this.unsigned = unsigned;
            this.io = io;
            this.seg = seg;
        }

        void reset() {
            pos = 0;
            bestPos = 0;
        }

        @Override
        public void run(long start, long stride, long len) {
            if (floating) {
                for (long i = 0; i < len; i++, pos++) {
                    double v = io.getDouble(seg, start + i * stride);
                    if (pos == 0 || (bestD == bestD && (v != v || (max ? v > bestD : v < bestD)))) {
                        bestD = v;
                        bestPos = pos;
                    }
                }
            } else {
                for (long i = 0; i < len; i++, pos++) {
                    long v = io.getLong(seg, start + i * stride);
                    int c = unsigned ? Long.compareUnsigned(v, bestL) : Long.compare(v, bestL);
                    if (pos == 0 || (max ? c > 0 : c < 0)) {
                        bestL = v;
                        bestPos = pos;
                    }
                }
            }
        }
    }

    // ---- float32 fast path --------------------------------------------------------------------------

    /** Contiguous heap float32 reduced over all elements or over trailing dims (see the class comment). */
    static final class FastFloat {
        private FastFloat() {}

        static boolean tryReduce(Op op, Tensor out, Tensor in, Lanes lanes) {
            if (op != Op.SUM && op != Op.MEAN && op != Op.AMAX && op != Op.AMIN) return false;
            if (in.dtype() != DType.FLOAT32 || out.dtype() != DType.FLOAT32 || !in.isContiguous() || !out.isContiguous()
                    || in.storage().array() == null || out.storage().array() == null) return false;
            long len = lanes.size;
            if (len == 0 || !trailing(lanes)) return false;
            float[] x = in.storage().floats(), y = out.storage().floats();
            int xo = (int) in.storageOffset(), yo = (int) out.storageOffset();
            long rows = lanes.outputs;
            if (rows == 1) {
                y[yo] = finish(op, full(op, x, xo, len), len);
                return true;
            }
            Parallel.forRange(rows, Math.max(1, Parallel.GRAIN / len), (s, e) -> {
                for (long r = s; r < e; r++) y[yo + (int) r] = finish(op, lane(op, x, xo + (int) (r * len), len), len);
            });
            return true;
        }

        /**
         * Whether each lane is one contiguous range at {@code r * size}: for a contiguous input that
         * holds when the reduced dims coalesce into at most one unit-stride run (they are the
         * trailing dims, size-1 dims aside).
         */
        private static boolean trailing(Lanes lanes) {
            return lanes.redShape.length == 0 || (lanes.redShape.length == 1 && lanes.redStrides[0] == 1);
        }

        private static float finish(Op op, double v, long len) {
            return (float) (op == Op.MEAN ? v / len : v);
        }

        /** One lane, serially: the block sums added in order (or the extremum). */
        private static double lane(Op op, float[] x, int off, long len) {
            double acc = op == Op.SUM || op == Op.MEAN ? 0 : Double.NaN;
            for (long b = 0; b < len; b += BLOCK) {
                double v = block(op, x, off + (int) b, (int) Math.min(BLOCK, len - b));
                acc = b == 0 ? v : combine(op, acc, v);
            }
            return acc;
        }

        /** One lane with its blocks computed in parallel; the same blocks and order as {@link #lane}. */
        private static double full(Op op, float[] x, int off, long len) {
            int blocks = (int) ((len + BLOCK - 1) / BLOCK);
            if (blocks == 1) return block(op, x, off, (int) len);
            double[] parts = new double[blocks];
            Parallel.forRange(blocks, 1, (s, e) -> {
                for (long b = s; b < e; b++) {
                    long start = b * BLOCK;
                    parts[(int) b] = block(op, x, off + (int) start, (int) Math.min(BLOCK, len - start));
                }
            });
            double acc = parts[0];
            for (int b = 1; b < blocks; b++) acc = combine(op, acc, parts[b]);
            return acc;
        }

        private static double block(Op op, float[] x, int off, int n) {
            return switch (op) {
                case AMAX -> FloatSimd.max(x, off, n);
                case AMIN -> FloatReduceSimd.min(x, off, n);
                default -> FloatSimd.sum(x, off, n);
            };
        }

        private static double combine(Op op, double acc, double v) {
            return switch (op) {
                case AMAX -> acc != acc || v != v ? Double.NaN : Math.max(acc, v);
                case AMIN -> acc != acc || v != v ? Double.NaN : Math.min(acc, v);
                default -> acc + v;
            };
        }
    }
}

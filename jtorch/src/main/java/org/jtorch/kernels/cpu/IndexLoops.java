package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.storage.TensorImpl;

/**
 * The loops of the indexing family (ATen's index and scatter/gather kernels). Every op of the family is one of two
 * loops over an iteration space, each operand already viewed over that space (the caller restrides it: the indexed dims
 * get stride 0, index tensors are broadcast):
 *
 * <pre>
 *   gather:  out[i]                               = src[src(i) + Σ_k idx_k[i] · stride_k]
 *   scatter: dst[dst(i) + Σ_k idx_k[i] · stride_k] ⊕= src[i]      (⊕ = assign, add, mul, max, min)
 * </pre>
 *
 * where {@code src(i)}/{@code dst(i)} is the operand's own strided offset of element {@code i}.
 *
 * <p>Gathers are parallel over the output (no two elements write one place). Scatters must stay deterministic with
 * duplicate indices, so they run in the sequential order unless the caller names an {@code indexedDim}: the one dim
 * along which the index moves the destination. Elements that differ in another coordinate then write disjoint places,
 * so the workers get disjoint ranges of another dim (the outermost, which leaves the inner loops contiguous); each
 * destination still receives its updates in the sequential order, and the result is bit-identical to the sequential
 * loop for any thread count.
 *
 * <p>Fast paths, for one index: a run along which the index does not move is a bulk copy (or an add loop the JIT
 * vectorises); float32/float64/int64 heap arrays get array loops with int indices and unit steps as constants.
 * Otherwise offsets are computed in chunks and each element is moved as its storage slots, or combined through
 * {@link ElementIO} in the dtype's compute domain.
 */
public final class IndexLoops {
    private IndexLoops() {}

    /** Builds the exception for an index value out of range; {@code which} is the indexer's position. */
    @FunctionalInterface
    public interface OutOfRange {
        RuntimeException error(long value, int which, long size);
    }

    /**
     * The index operands: int64 heap tensors viewed over the iteration space, the source (gather) or destination
     * (scatter) stride one step of each index moves, the size each index ranges over, and whether negative values count
     * from the end (else they are out of range).
     */
    public record Indexers(TensorImpl[] indices, long[] strides, long[] sizes, boolean wrapNegative, OutOfRange error) {
        public static Indexers one(TensorImpl index, long stride, long size, boolean wrapNegative, OutOfRange error) {
            return new Indexers(new TensorImpl[] {index}, new long[] {stride}, new long[] {size}, wrapNegative, error);
        }
    }

    /** How a scatter combines a value with the destination. */
    public enum Reduce {
        ASSIGN,
        ADD,
        MUL,
        MAX,
        MIN
    }

    /** Offsets computed per batch on the generic path. */
    private static final int CHUNK = 256;

    /** {@code out[i] = src[src(i) + Σ idx·stride]}: {@code src} and the indices are viewed with out's shape. */
    public static void gather(TensorImpl out, TensorImpl src, Indexers ix) {
        long n = out.numel();
        if (n == 0) return;
        StridedIter it = new StridedIter(out.shapeRef(), operands(out, src, ix));
        Parallel.forRange(n, Parallel.GRAIN, (s, e) -> {
            Run run = new Run(out, src, ix);
            it.forEachRun(s, e, run::gather);
        });
    }

    /**
     * {@code dst[dst(i) + Σ idx·stride] ⊕= alpha · src[i]} over src's shape ({@code alpha} only scales
     * {@link Reduce#ADD}; {@code null} is 1). {@code indexedDim} is the one dim along which the index moves the
     * destination (see the class comment), or -1 for the sequential loop.
     */
    public static void scatter(TensorImpl dst, TensorImpl src, Indexers ix, Reduce op, Scalar alpha, int indexedDim) {
        long n = src.numel();
        if (n == 0) return;
        TensorImpl[] ops = operands(dst, src, ix);
        long[] shape = src.shapeRef();
        int split = -1; // the outermost other dim: splitting it keeps the inner loops as they are
        for (int d = 0; d < shape.length && indexedDim >= 0; d++) {
            if (d != indexedDim && shape[d] > 1) {
                split = d;
                break;
            }
        }
        if (split < 0 || n < Parallel.GRAIN || Parallel.numThreads() == 1) {
            Run run = new Run(dst, src, ix);
            new StridedIter(shape, ops).forEachRun(0, n, (b, st, len) -> run.scatter(b, st, len, op, alpha));
            return;
        }
        int p = split;
        long perSlice = n / shape[p];
        Parallel.forRange(shape[p], Math.max(1, Parallel.GRAIN / perSlice), (s, e) -> {
            TensorImpl[] part = new TensorImpl[ops.length];
            for (int i = 0; i < ops.length; i++) part[i] = narrowed(ops[i], p, s, e);
            Run run = new Run(dst, src, ix);
            new StridedIter(part[1].shapeRef(), part)
                    .forEachRun(0, part[1].numel(), (b, st, len) -> run.scatter(b, st, len, op, alpha));
        });
    }

    /** Positions {@code [start, end)} of dim {@code d} of {@code t}, as a view. */
    private static TensorImpl narrowed(TensorImpl t, int d, long start, long end) {
        long[] shape = t.shapeRef().clone();
        shape[d] = end - start;
        return t.viewOf(
                t.storageOffset() + start * t.strideRef()[d],
                shape,
                t.strideRef().clone());
    }

    private static TensorImpl[] operands(TensorImpl a, TensorImpl b, Indexers ix) {
        TensorImpl[] ops = new TensorImpl[2 + ix.indices().length];
        ops[0] = a;
        ops[1] = b;
        System.arraycopy(ix.indices(), 0, ops, 2, ix.indices().length);
        return ops;
    }

    /** The state of one worker: the operands' arrays (or segments) and an offset buffer. */
    private static final class Run {
        private final DType dtype;
        private final Object outArray, inArray;
        private final MemorySegment outSeg, inSeg;
        private final long[][] idx;
        private final Indexers ix;
        private final long[] buf = new long[CHUNK];

        /** {@code out} is written (gather output or scatter destination), {@code in} is read. */
        Run(TensorImpl out, TensorImpl in, Indexers ix) {
            this.dtype = out.dtype();
            this.outArray = out.storage().array();
            this.inArray = in.storage().array();
            this.outSeg = out.storage().segment();
            this.inSeg = in.storage().segment();
            this.ix = ix;
            this.idx = new long[ix.indices().length][];
            for (int k = 0; k < idx.length; k++)
                idx[k] = (long[]) ix.indices()[k].storage().array();
        }

        /** An index value outside [0, size): wrapped when negatives count from the end, else the op's error. */
        private long fix(long v, int which) {
            long size = ix.sizes()[which];
            if (v >= 0 ? v < size : ix.wrapNegative() && v >= -size) return v < 0 ? v + size : v;
            throw ix.error().error(v, which, size);
        }

        /**
         * Fills {@code buf[0..m)} with the indexed side's offsets of elements {@code j0..j0+m} of the run: the
         * operand's own offset (operand {@code side}) plus every index times its stride.
         */
        private void offsets(long[] base, long[] stride, int side, long j0, int m) {
            long b = base[side] + j0 * stride[side], s = stride[side];
            for (int j = 0; j < m; j++) buf[j] = b + j * s;
            for (int k = 0; k < idx.length; k++) {
                long[] a = idx[k];
                long ib = base[2 + k] + j0 * stride[2 + k],
                        is = stride[2 + k],
                        st = ix.strides()[k],
                        size = ix.sizes()[k];
                for (int j = 0; j < m; j++) {
                    long v = a[(int) (ib + j * is)];
                    if (v < 0 || v >= size) v = fix(v, k);
                    buf[j] += v * st;
                }
            }
        }

        void gather(long[] base, long[] stride, long len) {
            if (idx.length == 1 && fusedGather(base, stride, len)) return;
            long ob = base[0], os = stride[0];
            for (long j0 = 0; j0 < len; j0 += CHUNK) {
                int m = (int) Math.min(CHUNK, len - j0);
                offsets(base, stride, 1, j0, m);
                for (int j = 0; j < m; j++) move(buf[j], ob + (j0 + j) * os);
            }
        }

        /**
         * One index: a run whose index does not move is a strided copy (a bulk copy when both sides are contiguous, as
         * in index_select); otherwise float32/float64/int64 arrays get array loops, with unit steps written as
         * constants (no multiplications, and the JIT drops their bounds checks). Array indices fit in ints (heap arrays
         * hold fewer than 2^31 slots). False if none applies.
         */
        private boolean fusedGather(long[] base, long[] stride, long len) {
            long[] a = idx[0];
            int n = (int) len, o = (int) base[0], oStep = (int) stride[0], s = (int) base[1], sStep = (int) stride[1];
            int i0 = (int) base[2], iStep = (int) stride[2], st = (int) ix.strides()[0];
            long size = ix.sizes()[0];
            if (iStep == 0 && oStep == 1 && sStep == 1 && outArray != null && inArray != null) {
                long v = a[i0];
                if (v < 0 || v >= size) v = fix(v, 0);
                int slots = dtype.slotsPerElement();
                System.arraycopy(inArray, (s + (int) v * st) * slots, outArray, o * slots, n * slots);
                return true;
            }
            if (dtype.isComplex()) return false;
            boolean unit = iStep == 1 && oStep == 1, flat = unit && sStep == 0 && st == 1; // flat: a 1-d gather
            if (outArray instanceof float[] out && inArray instanceof float[] src) {
                if (flat) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + (int) v];
                    }
                } else if (unit) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + i * sStep + (int) v * st];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i * oStep] = src[s + i * sStep + (int) v * st];
                    }
                }
                return true;
            }
            if (outArray instanceof double[] out && inArray instanceof double[] src) {
                if (flat) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + (int) v];
                    }
                } else if (unit) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + i * sStep + (int) v * st];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i * oStep] = src[s + i * sStep + (int) v * st];
                    }
                }
                return true;
            }
            if (outArray instanceof long[] out && inArray instanceof long[] src) {
                if (flat) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + (int) v];
                    }
                } else if (unit) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i] = src[s + i * sStep + (int) v * st];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        out[o + i * oStep] = src[s + i * sStep + (int) v * st];
                    }
                }
                return true;
            }
            return false;
        }

        /**
         * The fused scatters for one index, assign or unscaled add: a run whose index does not move writes one
         * contiguous row (bulk copy, or an add loop the JIT vectorises, as in index_add); otherwise
         * float32/float64/int64 arrays get array loops with unit index and source steps as constants (float[] holds
         * only float32 and double[] only float64 among real dtypes; int64 and uint64 add alike). False if none applies.
         */
        private boolean fusedScatter(long[] base, long[] stride, long len, Reduce op) {
            long[] a = idx[0];
            int n = (int) len, d = (int) base[0], dStep = (int) stride[0], s = (int) base[1], sStep = (int) stride[1];
            int i0 = (int) base[2], iStep = (int) stride[2], st = (int) ix.strides()[0];
            long size = ix.sizes()[0];
            boolean add = op == Reduce.ADD;
            if (iStep == 0 && dStep == 1 && sStep == 1 && outArray != null && inArray != null) {
                long v = a[i0];
                if (v < 0 || v >= size) v = fix(v, 0);
                int at = d + (int) v * st;
                if (!add) {
                    int slots = dtype.slotsPerElement();
                    System.arraycopy(inArray, s * slots, outArray, at * slots, n * slots);
                    return true;
                }
                if (outArray instanceof float[] dst && inArray instanceof float[] src && !dtype.isComplex()) {
                    for (int i = 0; i < n; i++) dst[at + i] += src[s + i];
                    return true;
                }
                if (outArray instanceof double[] dst && inArray instanceof double[] src && !dtype.isComplex()) {
                    for (int i = 0; i < n; i++) dst[at + i] += src[s + i];
                    return true;
                }
                if (outArray instanceof long[] dst && inArray instanceof long[] src) {
                    for (int i = 0; i < n; i++) dst[at + i] += src[s + i];
                    return true;
                }
                return false;
            }
            if (dtype.isComplex()) return false;
            boolean unit = iStep == 1 && sStep == 1, flat = unit && dStep == 0 && st == 1; // flat: a 1-d scatter
            if (outArray instanceof float[] dst && inArray instanceof float[] src) {
                if (flat && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + (int) v] += src[s + i];
                    }
                } else if (unit && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + i * dStep + (int) v * st] += src[s + i];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        int at = d + i * dStep + (int) v * st;
                        dst[at] = add ? dst[at] + src[s + i * sStep] : src[s + i * sStep];
                    }
                }
                return true;
            }
            if (outArray instanceof double[] dst && inArray instanceof double[] src) {
                if (flat && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + (int) v] += src[s + i];
                    }
                } else if (unit && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + i * dStep + (int) v * st] += src[s + i];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        int at = d + i * dStep + (int) v * st;
                        dst[at] = add ? dst[at] + src[s + i * sStep] : src[s + i * sStep];
                    }
                }
                return true;
            }
            if (outArray instanceof long[] dst && inArray instanceof long[] src) {
                if (flat && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + (int) v] += src[s + i];
                    }
                } else if (unit && add) {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        dst[d + i * dStep + (int) v * st] += src[s + i];
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        long v = a[i0 + i * iStep];
                        if (v < 0 || v >= size) v = fix(v, 0);
                        int at = d + i * dStep + (int) v * st;
                        dst[at] = add ? dst[at] + src[s + i * sStep] : src[s + i * sStep];
                    }
                }
                return true;
            }
            return false;
        }

        /** Copies element {@code from} of the read operand to element {@code to} of the written one. */
        private void move(long from, long to) {
            if (outArray != null && inArray != null) {
                int slots = dtype.slotsPerElement();
                System.arraycopy(inArray, (int) (from * slots), outArray, (int) (to * slots), slots);
            } else {
                long item = dtype.itemSize();
                MemorySegment.copy(inSeg, from * item, outSeg, to * item, item);
            }
        }

        void scatter(long[] base, long[] stride, long len, Reduce op, Scalar alpha) {
            long sb = base[1], ss = stride[1];
            if (idx.length == 1
                    && (op == Reduce.ASSIGN || (op == Reduce.ADD && alpha == null))
                    && fusedScatter(base, stride, len, op)) return;
            Combine combine = op == Reduce.ASSIGN ? null : Combine.of(dtype, op, alpha, outSeg, inSeg);
            for (long j0 = 0; j0 < len; j0 += CHUNK) {
                int m = (int) Math.min(CHUNK, len - j0);
                offsets(base, stride, 0, j0, m);
                long s0 = sb + j0 * ss;
                if (combine == null) {
                    for (int j = 0; j < m; j++) move(s0 + j * ss, buf[j]);
                } else {
                    for (int j = 0; j < m; j++) combine.apply(buf[j], s0 + j * ss);
                }
            }
        }
    }

    /**
     * {@code dst[d] = dst[d] ⊕ alpha·src[s]} for one dtype, in its compute domain (rounded to the dtype at every step,
     * as ATen).
     */
    private abstract static class Combine {
        abstract void apply(long d, long s);

        static Combine of(DType dtype, Reduce op, Scalar alpha, MemorySegment dst, MemorySegment src) {
            ElementIO io = ElementIO.of(dtype);
            return switch (dtype.category()) {
                case COMPLEX -> new ComplexCombine(io, op, alpha, dst, src);
                case FLOATING -> new RealCombine(io, op, alpha, dst, src);
                default -> new IntegralCombine(io, op, alpha, dst, src, dtype == DType.UINT64);
            };
        }
    }

    private static final class RealCombine extends Combine {
        private final ElementIO io;
        private final Reduce op;
        private final double alpha;
        private final boolean scaled;
        private final MemorySegment dst, src;

        RealCombine(ElementIO io, Reduce op, Scalar alpha, MemorySegment dst, MemorySegment src) {
            this.io = io;
            this.op = op;
            this.scaled = alpha != null;
            this.alpha = alpha == null ? 1 : alpha.doubleValue();
            this.dst = dst;
            this.src = src;
        }

        @Override
        void apply(long d, long s) {
            double a = io.getDouble(dst, d), b = io.getDouble(src, s);
            double r =
                    switch (op) {
                        case ADD -> scaled ? Math.fma(alpha, b, a) : a + b;
                        case MUL -> a * b;
                        case MAX -> Double.isNaN(b) || b > a ? b : a;
                        case MIN -> Double.isNaN(b) || b < a ? b : a;
                        case ASSIGN -> b;
                    };
            io.setDouble(dst, d, r);
        }
    }

    private static final class IntegralCombine extends Combine {
        private final ElementIO io;
        private final Reduce op;
        private final long alpha;
        private final boolean unsigned;
        private final MemorySegment dst, src;

        IntegralCombine(ElementIO io, Reduce op, Scalar alpha, MemorySegment dst, MemorySegment src, boolean unsigned) {
            this.io = io;
            this.op = op;
            this.alpha = alpha == null ? 1 : alpha.longValue();
            this.unsigned = unsigned;
            this.dst = dst;
            this.src = src;
        }

        @Override
        void apply(long d, long s) {
            long a = io.getLong(dst, d), b = io.getLong(src, s);
            long r =
                    switch (op) {
                        case ADD -> a + alpha * b;
                        case MUL -> a * b;
                        case MAX -> (unsigned ? Long.compareUnsigned(b, a) : Long.compare(b, a)) > 0 ? b : a;
                        case MIN -> (unsigned ? Long.compareUnsigned(b, a) : Long.compare(b, a)) < 0 ? b : a;
                        case ASSIGN -> b;
                    };
            io.setLong(dst, d, r);
        }
    }

    private static final class ComplexCombine extends Combine {
        private final ElementIO io;
        private final Reduce op;
        private final double alphaRe, alphaIm;
        private final MemorySegment dst, src;
        private final double[] tmp = new double[2];

        ComplexCombine(ElementIO io, Reduce op, Scalar alpha, MemorySegment dst, MemorySegment src) {
            this.io = io;
            this.op = op;
            this.alphaRe = alpha == null ? 1 : alpha.doubleValue();
            this.alphaIm = alpha == null ? 0 : alpha.imag();
            this.dst = dst;
            this.src = src;
        }

        @Override
        void apply(long d, long s) {
            double ar = io.getDouble(dst, d),
                    ai = io.getImag(dst, d),
                    br = io.getDouble(src, s),
                    bi = io.getImag(src, s);
            switch (op) {
                case ADD -> {
                    ComplexMath.mul(alphaRe, alphaIm, br, bi, tmp);
                    io.setComplex(dst, d, ar + tmp[0], ai + tmp[1]);
                }
                case MUL -> {
                    ComplexMath.mul(ar, ai, br, bi, tmp);
                    io.setComplex(dst, d, tmp[0], tmp[1]);
                }
                default -> throw new IllegalStateException(op + " is not defined for complex values");
            }
        }
    }
}

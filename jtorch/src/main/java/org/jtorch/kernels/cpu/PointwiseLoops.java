package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import org.jtorch.DType;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.simd.FloatSimd;
import org.jtorch.storage.TensorImpl;

/**
 * Elementwise loops. Operand 0 is the output; inputs may be of any dtype and any layout broadcastable to the output.
 * The compute domain (double, long or complex) is chosen by {@code compute}, the dtype the op's meta rule promoted to;
 * each operand is read through its own {@link ElementIO}, so no input is ever copied to convert it.
 *
 * <p>Fast paths: float32 heap operands that are contiguous (or a one-element operand) use the Vector API loop when the
 * op has one; float32/float64 contiguous operands otherwise use a direct array loop.
 */
public final class PointwiseLoops {
    private PointwiseLoops() {}

    /** Elements per task for ops costing a few cycles each; transcendental ops use a quarter. */
    private static final long GRAIN = Parallel.GRAIN * 2;

    public static void unary(Fns.Unary fn, DType compute, TensorImpl out, TensorImpl x) {
        long n = out.numel();
        if (n == 0) return;
        if (compute == DType.FLOAT32 && allDense(DType.FLOAT32, out, x) && x.numel() == n) {
            float[] o = out.storage().floats(), a = x.storage().floats();
            int oo = (int) out.storageOffset(), xo = (int) x.storageOffset();
            if (fn.simd() != null) {
                FloatSimd.Unary op = fn.simd();
                Parallel.forRange(
                        n, GRAIN / 4, (s, e) -> FloatSimd.unary(op, a, xo + (int) s, o, oo + (int) s, (int) (e - s)));
            } else {
                var f = fn.d();
                Parallel.forRange(n, GRAIN / 4, (s, e) -> {
                    for (int i = (int) s; i < e; i++) o[oo + i] = (float) f.applyAsDouble(a[xo + i]);
                });
            }
            return;
        }
        if (compute == DType.FLOAT64 && allDense(DType.FLOAT64, out, x) && x.numel() == n) {
            double[] o = out.storage().doubles(), a = x.storage().doubles();
            int oo = (int) out.storageOffset(), xo = (int) x.storageOffset();
            var f = fn.d();
            Parallel.forRange(n, GRAIN / 4, (s, e) -> {
                for (int i = (int) s; i < e; i++) o[oo + i] = f.applyAsDouble(a[xo + i]);
            });
            return;
        }
        StridedIter it = new StridedIter(out.shapeRef(), out, x);
        MemorySegment so = out.storage().segment(), sx = x.storage().segment();
        ElementIO io = ElementIO.of(out.dtype()), ix = ElementIO.of(x.dtype());
        switch (domain(compute)) {
            case DOUBLE -> {
                var f = compute == DType.FLOAT32 && fn.simd() != null ? twin(fn.simd()) : require(fn.d(), compute);
                Parallel.forRange(
                        n,
                        GRAIN / 4,
                        (s, e) -> it.forEachRun(s, e, (b, st, len) -> {
                            for (long i = 0; i < len; i++)
                                io.setDouble(so, b[0] + i * st[0], f.applyAsDouble(ix.getDouble(sx, b[1] + i * st[1])));
                        }));
            }
            case LONG -> {
                var f = require(compute == DType.UINT64 && fn.lu() != null ? fn.lu() : fn.l(), compute);
                Parallel.forRange(
                        n,
                        GRAIN,
                        (s, e) -> it.forEachRun(s, e, (b, st, len) -> {
                            for (long i = 0; i < len; i++)
                                io.setLong(so, b[0] + i * st[0], f.applyAsLong(ix.getLong(sx, b[1] + i * st[1])));
                        }));
            }
            case COMPLEX -> {
                var f = require(fn.c(), compute);
                Parallel.forRange(n, GRAIN / 4, (s, e) -> {
                    double[] r = new double[2];
                    it.forEachRun(s, e, (b, st, len) -> {
                        for (long i = 0; i < len; i++) {
                            long xi = b[1] + i * st[1];
                            f.apply(ix.getDouble(sx, xi), ix.getImag(sx, xi), r);
                            io.setComplex(so, b[0] + i * st[0], r[0], r[1]);
                        }
                    });
                });
            }
        }
    }

    public static void binary(Fns.Binary fn, DType compute, TensorImpl out, TensorImpl a, TensorImpl b) {
        long n = out.numel();
        if (n == 0) return;
        if (compute == DType.FLOAT32
                && allDense(DType.FLOAT32, out, a, b)
                && fn.simd() != null
                && (a.numel() == n || a.numel() == 1)
                && (b.numel() == n || b.numel() == 1)) {
            binaryFloatSimd(fn.simd(), out, a, b);
            return;
        }
        if (compute == DType.FLOAT32 && fn.simd() != null && allHeap(DType.FLOAT32, out, a, b)) {
            binaryFloatStrided(fn.simd(), out, a, b);
            return;
        }
        if (compute == DType.FLOAT64 && allDense(DType.FLOAT64, out, a, b) && a.numel() == n && b.numel() == n) {
            double[] o = out.storage().doubles(),
                    x = a.storage().doubles(),
                    y = b.storage().doubles();
            int oo = (int) out.storageOffset(), ao = (int) a.storageOffset(), bo = (int) b.storageOffset();
            var f = fn.d();
            Parallel.forRange(n, GRAIN, (s, e) -> {
                for (int i = (int) s; i < e; i++) o[oo + i] = f.applyAsDouble(x[ao + i], y[bo + i]);
            });
            return;
        }
        StridedIter it = new StridedIter(out.shapeRef(), out, a, b);
        MemorySegment so = out.storage().segment(),
                sa = a.storage().segment(),
                sb = b.storage().segment();
        ElementIO io = ElementIO.of(out.dtype()), ia = ElementIO.of(a.dtype()), ib = ElementIO.of(b.dtype());
        switch (domain(compute)) {
            case DOUBLE -> {
                var f = compute == DType.FLOAT32 && fn.simd() != null ? twin(fn.simd()) : require(fn.d(), compute);
                Parallel.forRange(
                        n,
                        GRAIN,
                        (s, e) -> it.forEachRun(s, e, (p, st, len) -> {
                            for (long i = 0; i < len; i++) {
                                io.setDouble(
                                        so,
                                        p[0] + i * st[0],
                                        f.applyAsDouble(
                                                ia.getDouble(sa, p[1] + i * st[1]),
                                                ib.getDouble(sb, p[2] + i * st[2])));
                            }
                        }));
            }
            case LONG -> {
                var f = require(compute == DType.UINT64 && fn.lu() != null ? fn.lu() : fn.l(), compute);
                Parallel.forRange(
                        n,
                        GRAIN,
                        (s, e) -> it.forEachRun(s, e, (p, st, len) -> {
                            for (long i = 0; i < len; i++) {
                                io.setLong(
                                        so,
                                        p[0] + i * st[0],
                                        f.applyAsLong(
                                                ia.getLong(sa, p[1] + i * st[1]), ib.getLong(sb, p[2] + i * st[2])));
                            }
                        }));
            }
            case COMPLEX -> {
                var f = require(fn.c(), compute);
                Parallel.forRange(n, GRAIN, (s, e) -> {
                    double[] r = new double[2];
                    it.forEachRun(s, e, (p, st, len) -> {
                        for (long i = 0; i < len; i++) {
                            long ai = p[1] + i * st[1], bi = p[2] + i * st[2];
                            f.apply(
                                    ia.getDouble(sa, ai),
                                    ia.getImag(sa, ai),
                                    ib.getDouble(sb, bi),
                                    ib.getImag(sb, bi),
                                    r);
                            io.setComplex(so, p[0] + i * st[0], r[0], r[1]);
                        }
                    });
                });
            }
        }
    }

    public static void ternary(
            Fns.Ternary fn, DType compute, TensorImpl out, TensorImpl a, TensorImpl b, TensorImpl c) {
        long n = out.numel();
        if (n == 0) return;
        if (compute == DType.FLOAT32 && fn.d() != null && denseOrScalar(DType.FLOAT32, n, out, a, b, c)) {
            ternaryFloat(fn, out, a, b, c);
            return;
        }
        StridedIter it = new StridedIter(out.shapeRef(), out, a, b, c);
        MemorySegment so = out.storage().segment(),
                sa = a.storage().segment(),
                sb = b.storage().segment(),
                sc = c.storage().segment();
        ElementIO io = ElementIO.of(out.dtype()),
                ia = ElementIO.of(a.dtype()),
                ib = ElementIO.of(b.dtype()),
                ic = ElementIO.of(c.dtype());
        switch (domain(compute)) {
            case DOUBLE -> {
                var f = require(fn.d(), compute);
                Parallel.forRange(
                        n,
                        GRAIN,
                        (s, e) -> it.forEachRun(s, e, (p, st, len) -> {
                            for (long i = 0; i < len; i++) {
                                io.setDouble(
                                        so,
                                        p[0] + i * st[0],
                                        f.apply(
                                                ia.getDouble(sa, p[1] + i * st[1]),
                                                ib.getDouble(sb, p[2] + i * st[2]),
                                                ic.getDouble(sc, p[3] + i * st[3])));
                            }
                        }));
            }
            case LONG -> {
                var f = require(fn.l(), compute);
                Parallel.forRange(
                        n,
                        GRAIN,
                        (s, e) -> it.forEachRun(s, e, (p, st, len) -> {
                            for (long i = 0; i < len; i++) {
                                io.setLong(
                                        so,
                                        p[0] + i * st[0],
                                        f.apply(
                                                ia.getLong(sa, p[1] + i * st[1]),
                                                ib.getLong(sb, p[2] + i * st[2]),
                                                ic.getLong(sc, p[3] + i * st[3])));
                            }
                        }));
            }
            case COMPLEX -> {
                var f = require(fn.c(), compute);
                Parallel.forRange(n, GRAIN, (s, e) -> {
                    double[] r = new double[2];
                    it.forEachRun(s, e, (p, st, len) -> {
                        for (long i = 0; i < len; i++) {
                            long ai = p[1] + i * st[1], bi = p[2] + i * st[2], ci = p[3] + i * st[3];
                            f.apply(
                                    ia.getDouble(sa, ai),
                                    ia.getImag(sa, ai),
                                    ib.getDouble(sb, bi),
                                    ib.getImag(sb, bi),
                                    ic.getDouble(sc, ci),
                                    ic.getImag(sc, ci),
                                    r);
                            io.setComplex(so, p[0] + i * st[0], r[0], r[1]);
                        }
                    });
                });
            }
        }
    }

    private static void binaryFloatSimd(FloatSimd.Binary op, TensorImpl out, TensorImpl a, TensorImpl b) {
        long n = out.numel();
        float[] o = out.storage().floats(),
                x = a.storage().floats(),
                y = b.storage().floats();
        int oo = (int) out.storageOffset(), ao = (int) a.storageOffset(), bo = (int) b.storageOffset();
        boolean aScalar = a.numel() == 1 && n > 1, bScalar = b.numel() == 1 && n > 1;
        if (n < GRAIN) { // skip the lambda and the split for small ops: the eager small-op path
            runSimd(op, x, ao, y, bo, o, oo, aScalar, bScalar, 0, (int) n);
            return;
        }
        Parallel.forRange(
                n, GRAIN, (s, e) -> runSimd(op, x, ao, y, bo, o, oo, aScalar, bScalar, (int) s, (int) (e - s)));
    }

    /**
     * Broadcast or strided float32 operands on heap arrays (x - mean[..., 1], x + bias, a transposed operand): each run
     * of the iterator goes to the vector loops when its inner strides allow (1, or 0 for an operand broadcast along the
     * run), else to a plain float loop. Same bits as the generic path.
     */
    private static void binaryFloatStrided(FloatSimd.Binary op, TensorImpl out, TensorImpl a, TensorImpl b) {
        float[] o = out.storage().floats(),
                x = a.storage().floats(),
                y = b.storage().floats();
        StridedIter it = new StridedIter(out.shapeRef(), out, a, b);
        Parallel.forRange(
                out.numel(),
                GRAIN,
                (s, e) -> it.forEachRun(s, e, (p, st, len) -> {
                    int n = (int) len, po = (int) p[0], pa = (int) p[1], pb = (int) p[2];
                    if (st[0] == 1 && st[1] == 1 && st[2] == 1) {
                        FloatSimd.binary(op, x, pa, y, pb, o, po, n);
                    } else if (st[0] == 1 && st[1] == 1 && st[2] == 0) {
                        FloatSimd.binaryScalarRight(op, x, pa, y[pb], o, po, n);
                    } else if (st[0] == 1 && st[1] == 0 && st[2] == 1) {
                        FloatSimd.binaryScalarLeft(op, x[pa], y, pb, o, po, n);
                    } else {
                        for (int i = 0; i < n; i++)
                            o[po + (int) (i * st[0])] = op.apply(x[pa + (int) (i * st[1])], y[pb + (int) (i * st[2])]);
                    }
                }));
    }

    private static void runSimd(
            FloatSimd.Binary op,
            float[] x,
            int ao,
            float[] y,
            int bo,
            float[] o,
            int oo,
            boolean aScalar,
            boolean bScalar,
            int s,
            int len) {
        if (bScalar) FloatSimd.binaryScalarRight(op, x, ao + s, y[bo], o, oo + s, len);
        else if (aScalar) FloatSimd.binaryScalarLeft(op, x[ao], y, bo + s, o, oo + s, len);
        else FloatSimd.binary(op, x, ao + s, y, bo + s, o, oo + s, len);
    }

    /**
     * The float formula of an op that has a vector loop: float32 elements get the same bits whether they are reached by
     * the vector body, its tail, or the strided path.
     */
    private static java.util.function.DoubleUnaryOperator twin(FloatSimd.Unary op) {
        return x -> op.apply((float) x);
    }

    private static java.util.function.DoubleBinaryOperator twin(FloatSimd.Binary op) {
        return (a, b) -> op.apply((float) a, (float) b);
    }

    /**
     * float32 operands that are contiguous, or single values broadcast to every element (the optimizer updates' scalar
     * weights): the op's vector loop where its operand pattern fits, else direct array loops instead of the per-element
     * segment path.
     */
    private static void ternaryFloat(Fns.Ternary fn, TensorImpl out, TensorImpl a, TensorImpl b, TensorImpl c) {
        long n = out.numel();
        float[] o = out.storage().floats(),
                x = a.storage().floats(),
                y = b.storage().floats(),
                z = c.storage().floats();
        int oo = (int) out.storageOffset(),
                ao = (int) a.storageOffset(),
                bo = (int) b.storageOffset(),
                co = (int) c.storageOffset();
        int as = a.numel() == n ? 1 : 0, bs = b.numel() == n ? 1 : 0, cs = c.numel() == n ? 1 : 0;
        Fns.FloatTernaryLoop simd = fn.simd();
        if (simd != null && as == 1 && bs == 1 && (simd.singleThird() ? c.numel() == 1 : cs == 1)) {
            Fns.FloatTernaryLoop.Body body = simd.body();
            Parallel.forRange(
                    n,
                    GRAIN,
                    (s, e) -> body.run(
                            x, ao + (int) s, y, bo + (int) s, z, co + (int) s * cs, o, oo + (int) s, (int) (e - s)));
            return;
        }
        Fns.DoubleTernary f = fn.d();
        Parallel.forRange(n, GRAIN, (s, e) -> {
            for (int i = (int) s; i < e; i++) {
                o[oo + i] = (float) f.apply(x[ao + i * as], y[bo + i * bs], z[co + i * cs]);
            }
        });
    }

    /** Output contiguous; each input contiguous with the output's element count, or a single element. */
    private static boolean denseOrScalar(DType dtype, long n, TensorImpl out, TensorImpl... ins) {
        if (out.dtype() != dtype || !out.isContiguous() || out.storage().array() == null) return false;
        for (TensorImpl t : ins) {
            if (t.dtype() != dtype || t.storage().array() == null) return false;
            if (!(t.numel() == 1 || (t.numel() == n && t.isContiguous()))) return false;
        }
        return true;
    }

    /** Whether every operand is a contiguous heap tensor of {@code dtype}. */
    private static boolean allHeap(DType dtype, TensorImpl... ts) {
        for (TensorImpl t : ts) {
            if (t.dtype() != dtype || t.storage().array() == null) return false;
        }
        return true;
    }

    private static boolean allDense(DType dtype, TensorImpl... ts) {
        for (TensorImpl t : ts) {
            if (t.dtype() != dtype || !t.isContiguous() || t.storage().array() == null) return false;
        }
        return true;
    }

    enum Domain {
        DOUBLE,
        LONG,
        COMPLEX
    }

    static Domain domain(DType compute) {
        return switch (compute.category()) {
            case BOOL, INTEGRAL -> Domain.LONG;
            case FLOATING -> Domain.DOUBLE;
            case COMPLEX -> Domain.COMPLEX;
        };
    }

    private static <F> F require(F f, DType compute) {
        if (f == null) throw new TorchException("kernel not implemented for '" + compute.cppName() + "'");
        return f;
    }
}

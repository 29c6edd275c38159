package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The matrix products against two independent references: a naive triple loop in double written here (which also
 * defines matmul's rank and broadcasting rules independently of ATen's decomposition), and PyTorch's own results in the
 * golden fixtures. Inputs are written element by element through {@link ElementIO}, so building them runs none of the
 * ops under test.
 */
class MatmulOpsTest {

    // ---- golden fixtures ------------------------------------------------------------------------

    static final Set<String> OPS = Set.of("matmul", "mm", "bmm", "addmm", "baddbmm", "dot", "outer", "mv");

    private static final String COMPLEX_DOT =
            "Debian's 1.13 returns 0 for every complex dot (its BLAS cdotu/zdotu return"
                    + " convention does not match); the naive-loop tests mvAndDotMatchTheNaiveLoop and "
                    + "vdotConjugatesItsFirstArgument"
                    + " cover complex dot";

    static final List<Deviation> DEVIATIONS = List.of(
            new Deviation(
                    "mv/error/shape",
                    Kind.NOT_COMPARED,
                    "2.15 words it \"size mismatch, got input (3), mat (3x4), "
                            + "vec (5)\" (1.13: \"size mismatch, got 3, 3x4,5\");"
                            + " see errorsCarryPyTorchMessages"),
            new Deviation("dot/complex64/5", Kind.NOT_COMPARED, COMPLEX_DOT),
            new Deviation("dot/complex128/5", Kind.NOT_COMPARED, COMPLEX_DOT),
            new Deviation("matmul/complex64/1d-1d", Kind.NOT_COMPARED, COMPLEX_DOT),
            new Deviation("matmul/complex128/1d-1d", Kind.NOT_COMPARED, COMPLEX_DOT),
            new Deviation(
                    "matmul/bfloat16/k64",
                    Kind.NOT_COMPARED,
                    "1.13 accumulates bfloat16 products in bfloat16 (34.5 where the exact sum is 33.93); "
                            + "2.15 accumulates in"
                            + " float and rounds once (34.0); see halfPrecisionAccumulatesInFloatAndRoundsOnce"));

    @TestFactory
    Stream<DynamicTest> goldenCasesMatchPyTorch() {
        Golden.assertLoaded(1000);
        List<Case> cases =
                Golden.cases().stream().filter(c -> OPS.contains(c.op())).toList();
        assertTrue(cases.size() >= 150, "only " + cases.size() + " matrix-product fixtures");
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> Golden.check(c, DEVIATIONS, false, () -> run(c))));
    }

    private static Object run(Case c) {
        Tensor a = c.tensorArg(0), b = c.tensorArg(1);
        return switch (c.op()) {
            case "matmul" -> MatmulOps.matmul(a, b);
            case "mm" -> MatmulOps.mm(a, b);
            case "bmm" -> MatmulOps.bmm(a, b);
            case "dot" -> MatmulOps.dot(a, b);
            case "outer" -> MatmulOps.outer(a, b);
            case "mv" -> MatmulOps.mv(a, b);
            case "addmm" -> MatmulOps.addmm(a, b, c.tensorArg(2), kwarg(c, "beta"), kwarg(c, "alpha"));
            case "baddbmm" -> MatmulOps.baddbmm(a, b, c.tensorArg(2), kwarg(c, "beta"), kwarg(c, "alpha"));
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    private static Object kwarg(Case c, String name) {
        return c.has(name) ? c.kwarg(name) : 1L;
    }

    // ---- inputs and the reference -----------------------------------------------------------------

    /** Random values the dtype holds exactly: small integers for integer dtypes, [-1, 1) otherwise. */
    static Tensor random(Random r, DType dtype, long... shape) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        MemorySegment s = t.impl().storage().segment();
        ElementIO io = ElementIO.of(dtype);
        for (long i = 0; i < t.numel(); i++) {
            if (dtype.isComplex()) io.setComplex(s, i, r.nextDouble() * 2 - 1, r.nextDouble() * 2 - 1);
            else if (dtype.isFloatingPoint()) io.setDouble(s, i, r.nextDouble() * 2 - 1);
            else io.setLong(s, i, dtype.isSigned() ? r.nextInt(11) - 5 : r.nextInt(6));
        }
        return t;
    }

    static Tensor filled(DType dtype, double value, long... shape) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (long i = 0; i < t.numel(); i++) io.setDouble(t.impl().storage().segment(), i, value);
        return t;
    }

    /** The transposed view of the last two dims (or of dims d0, d1). */
    static Tensor transpose(Tensor t, int d0, int d1) {
        long[] s = t.shape(), st = t.stride();
        long x = s[d0];
        s[d0] = s[d1];
        s[d1] = x;
        x = st[d0];
        st[d0] = st[d1];
        st[d1] = x;
        return Views.of(t, t.storageOffset(), s, st);
    }

    /** {@code t} laid out as the transpose of a contiguous tensor: same values, strides (1, rows). */
    static Tensor columnMajor(Tensor t) {
        int n = t.dim();
        Tensor dense = Tensor.of(TensorImpl.empty(transpose(t, n - 2, n - 1).shape(), t.dtype()));
        Tensor view = transpose(dense, n - 2, n - 1);
        copyElements(t, view);
        return view;
    }

    /** {@code t} as every other element of a larger buffer along the last dim: no BLAS-compatible layout. */
    static Tensor everyOther(Tensor t) {
        long[] big = t.shape();
        big[big.length - 1] *= 2;
        Tensor base = Tensor.of(TensorImpl.empty(big, t.dtype()));
        long[] st = base.stride();
        st[st.length - 1] = 2;
        Tensor view = Views.of(base, 0, t.shape(), st);
        copyElements(t, view);
        return view;
    }

    private static void copyElements(Tensor src, Tensor dst) {
        ElementIO io = ElementIO.of(src.dtype());
        MemorySegment s = src.impl().storage().segment(),
                d = dst.impl().storage().segment();
        for (long i = 0; i < src.numel(); i++) {
            long si = src.impl().elementIndex(i), di = dst.impl().elementIndex(i);
            if (src.dtype().isFloatingPoint() || src.dtype().isComplex())
                io.setComplex(d, di, io.getDouble(s, si), io.getImag(s, si));
            else io.setLong(d, di, io.getLong(s, si));
        }
    }

    /** A dense row-major copy of a tensor's values as (re, im) pairs, and its shape. */
    record Values(long[] shape, double[] re, double[] im) {
        static Values of(Tensor t) {
            int n = Math.toIntExact(t.numel());
            double[] re = new double[n], im = new double[n];
            ElementIO io = ElementIO.of(t.dtype());
            for (int i = 0; i < n; i++) {
                long e = t.impl().elementIndex(i);
                re[i] = t.dtype().isFloatingPoint() || t.dtype().isComplex()
                        ? io.getDouble(t.impl().storage().segment(), e)
                        : io.getLong(t.impl().storage().segment(), e);
                im[i] = io.getImag(t.impl().storage().segment(), e);
            }
            return new Values(t.shape(), re, im);
        }
    }

    /** The expected product, with the bound {@code sum |a||b|} that scales its rounding error. */
    record Expected(long[] shape, double[] re, double[] im, double[] magnitude) {}

    /**
     * torch.matmul by its documented rules, as plain loops: a 1-D first operand is a row and a 1-D second operand a
     * column, both removed from the result; batch dims broadcast; each output element is {@code sum_p a[.., i, p] *
     * b[.., p, j]} in double. {@code conjugateA} conjugates a (vdot).
     */
    static Expected reference(Tensor a, Tensor b, boolean conjugateA) {
        Values x = Values.of(a), y = Values.of(b);
        long[] as = a.dim() == 1 ? new long[] {1, a.size(0)} : a.shape();
        long[] bs = b.dim() == 1 ? new long[] {b.size(0), 1} : b.shape();
        int m = (int) as[as.length - 2], k = (int) as[as.length - 1], n = (int) bs[bs.length - 1];
        assertEquals(k, bs[bs.length - 2], "reference: inner sizes");
        long[] batchA = Arrays.copyOf(as, as.length - 2), batchB = Arrays.copyOf(bs, bs.length - 2);
        long[] batch = Shapes.broadcast(batchA, batchB);
        int batches = (int) Shapes.numel(batch);
        double[] re = new double[batches * m * n], im = new double[re.length], mag = new double[re.length];
        double sign = conjugateA ? -1 : 1;
        for (int bi = 0; bi < batches; bi++) {
            int ao = batchOffset(bi, batch, batchA) * m * k, bo = batchOffset(bi, batch, batchB) * k * n;
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double sr = 0, si = 0, sm = 0;
                    for (int p = 0; p < k; p++) {
                        double ar = x.re()[ao + i * k + p], ai = sign * x.im()[ao + i * k + p];
                        double br = y.re()[bo + p * n + j], bim = y.im()[bo + p * n + j];
                        sr += ar * br - ai * bim;
                        si += ar * bim + ai * br;
                        sm += Math.hypot(ar, ai) * Math.hypot(br, bim);
                    }
                    int o = (bi * m + i) * n + j;
                    re[o] = sr;
                    im[o] = si;
                    mag[o] = sm;
                }
            }
        }
        long[] shape = batch;
        if (a.dim() > 1) shape = append(shape, m);
        if (b.dim() > 1) shape = append(shape, n);
        return new Expected(shape, re, im, mag);
    }

    /** Index of broadcast batch {@code bi} (row-major over {@code batch}) in an operand with batch dims {@code own}. */
    private static int batchOffset(int bi, long[] batch, long[] own) {
        int index = 0, stride = 1;
        for (int d = batch.length - 1; d >= 0; d--) {
            long coord = bi % batch[d];
            bi /= (int) batch[d];
            int od = d - (batch.length - own.length);
            if (od >= 0) {
                if (own[od] != 1) index += (int) coord * stride;
                stride *= (int) own[od];
            }
        }
        return index;
    }

    private static long[] append(long[] a, long v) {
        long[] r = Arrays.copyOf(a, a.length + 1);
        r[a.length] = v;
        return r;
    }

    /** beta * bias (broadcast) + alpha * product, in place on {@code e}. */
    static Expected withBias(Expected e, Tensor bias, double beta, double alpha) {
        Values v = Values.of(bias);
        double[] re = new double[e.re().length], im = new double[re.length], mag = new double[re.length];
        long[] idx = new long[e.shape().length];
        for (int o = 0; o < re.length; o++) {
            int rem = o;
            for (int d = idx.length - 1; d >= 0; d--) {
                idx[d] = rem % e.shape()[d];
                rem /= (int) e.shape()[d];
            }
            int bo = 0, stride = 1;
            for (int d = v.shape().length - 1; d >= 0; d--) {
                int od = d + idx.length - v.shape().length;
                if (v.shape()[d] != 1) bo += (int) idx[od] * stride;
                stride *= (int) v.shape()[d];
            }
            double br = beta == 0 ? 0 : beta * v.re()[bo], bi = beta == 0 ? 0 : beta * v.im()[bo];
            re[o] = alpha * e.re()[o] + br;
            im[o] = alpha * e.im()[o] + bi;
            mag[o] = Math.abs(alpha) * e.magnitude()[o] + Math.abs(br) + Math.abs(bi);
        }
        return new Expected(e.shape(), re, im, mag);
    }

    /**
     * Relative error allowed per unit of {@code sum |a||b|}: accumulation in the compute type plus one rounding of the
     * result.
     */
    static double tolerance(DType d) {
        return switch (d.toReal()) {
            case FLOAT64 -> 1e-13;
            case FLOAT32 -> 2e-6;
            case FLOAT16 -> 2e-3;
            case BFLOAT16 -> 1.6e-2;
            default -> 0; // integers: exact
        };
    }

    static void assertMatches(Expected e, Tensor got, DType dtype) {
        assertEquals(dtype, got.dtype(), "dtype");
        assertArrayEquals(e.shape(), got.shape(), "shape");
        Values v = Values.of(got);
        double tol = tolerance(dtype);
        for (int i = 0; i < e.re().length; i++) {
            if (tol == 0) {
                assertEquals(narrow(dtype, Math.round(e.re()[i])), (long) v.re()[i], "element " + i);
            } else {
                double allowed = tol * e.magnitude()[i] + 1e-300;
                if (Math.abs(v.re()[i] - e.re()[i]) > allowed || Math.abs(v.im()[i] - e.im()[i]) > allowed) {
                    fail("element " + i + ": expected (" + e.re()[i] + ", " + e.im()[i] + ") but was (" + v.re()[i]
                            + ", " + v.im()[i] + "), allowed error " + allowed);
                }
            }
        }
    }

    /** An integer result wraps to the dtype's width, as PyTorch's integer GEMM does. */
    private static long narrow(DType d, long v) {
        return switch (d) {
            case INT8 -> (byte) v;
            case UINT8 -> v & 0xFF;
            case INT16 -> (short) v;
            case INT32 -> (int) v;
            default -> v;
        };
    }

    static final DType[] DTYPES = {
        DType.FLOAT32,
        DType.FLOAT64,
        DType.COMPLEX64,
        DType.COMPLEX128,
        DType.FLOAT16,
        DType.BFLOAT16,
        DType.INT64,
        DType.INT32,
        DType.INT16,
        DType.INT8,
        DType.UINT8
    };

    // ---- mm / bmm / mv / dot by dtype and layout ----------------------------------------------------

    /** Operand layouts: as is, column-major (BLAS transposed, no copy) and strided (copied first). */
    enum Layout {
        DENSE,
        COLUMN_MAJOR,
        STRIDED;

        Tensor apply(Tensor t) {
            return switch (this) {
                case DENSE -> t;
                case COLUMN_MAJOR -> columnMajor(t);
                case STRIDED -> everyOther(t);
            };
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {
                "FLOAT32",
                "FLOAT64",
                "COMPLEX64",
                "COMPLEX128",
                "FLOAT16",
                "BFLOAT16",
                "INT64",
                "INT32",
                "INT16",
                "INT8",
                "UINT8"
            })
    void mmMatchesTheNaiveLoopInEveryLayout(DType dtype) {
        Random r = new Random(1);
        for (Layout la : Layout.values()) {
            for (Layout lb : Layout.values()) {
                Tensor a = random(r, dtype, 7, 13), b = random(r, dtype, 13, 5);
                Expected e = reference(a, b, false);
                assertMatches(e, MatmulOps.mm(la.apply(a), lb.apply(b)), dtype);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT64", "COMPLEX128", "BFLOAT16", "INT32", "INT8"})
    void bmmMatchesTheNaiveLoopInEveryLayout(DType dtype) {
        Random r = new Random(2);
        for (Layout la : Layout.values()) {
            for (Layout lb : Layout.values()) {
                Tensor a = random(r, dtype, 3, 6, 9), b = random(r, dtype, 3, 9, 4);
                assertMatches(reference(a, b, false), MatmulOps.bmm(la.apply(a), lb.apply(b)), dtype);
            }
        }
        // Batch-major strides of a permuted tensor, and a batch broadcast with stride 0.
        Tensor base = random(r, dtype, 6, 3, 9);
        Tensor permuted = Views.of(base, 0, new long[] {3, 6, 9}, new long[] {9, 27, 1});
        Tensor b = random(r, dtype, 1, 9, 4);
        Tensor broadcastB = Views.of(b, 0, new long[] {3, 9, 4}, new long[] {0, 4, 1});
        assertMatches(reference(permuted, broadcastB, false), MatmulOps.bmm(permuted, broadcastB), dtype);
    }

    @Test
    void largeProductsCrossEveryBlockBoundary() {
        // Sizes beyond the Java GEMM's panels (256 columns, 128-deep blocks), rows not a multiple of 4,
        // and enough work to be split across threads; float32 through BLAS, bfloat16 and int64 in Java.
        Random r = new Random(3);
        for (DType dtype : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.INT64, DType.FLOAT64}) {
            Tensor a = random(r, dtype, 67, 300), b = random(r, dtype, 300, 261);
            assertMatches(reference(a, b, false), MatmulOps.mm(a, b), dtype);
            assertMatches(
                    reference(transpose(b, 0, 1), transpose(a, 0, 1), false),
                    MatmulOps.mm(transpose(b, 0, 1), transpose(a, 0, 1)),
                    dtype);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT64", "COMPLEX64", "FLOAT16", "INT64", "UINT8"})
    void mvAndDotMatchTheNaiveLoop(DType dtype) {
        Random r = new Random(4);
        Tensor m = random(r, dtype, 5, 8), v = random(r, dtype, 8);
        assertMatches(reference(m, v, false), MatmulOps.mv(m, v), dtype);
        assertMatches(
                reference(columnMajor(m), everyOther(v), false), MatmulOps.mv(columnMajor(m), everyOther(v)), dtype);
        Tensor w = random(r, dtype, 8);
        assertMatches(reference(v, w, false), MatmulOps.dot(v, w), dtype);
        assertMatches(
                reference(everyOther(v), everyOther(w), false), MatmulOps.dot(everyOther(v), everyOther(w)), dtype);
        // A broadcast vector (stride 0) has no BLAS layout and is copied.
        Tensor one = random(r, dtype, 1);
        Tensor expanded = Views.of(one, 0, new long[] {8}, new long[] {0});
        assertMatches(reference(expanded, w, false), MatmulOps.dot(expanded, w), dtype);
    }

    @Test
    void vdotConjugatesItsFirstArgument() {
        Random r = new Random(5);
        Tensor a = random(r, DType.COMPLEX128, 6), b = random(r, DType.COMPLEX128, 6);
        assertMatches(reference(a, b, true), MatmulOps.vdot(a, b), DType.COMPLEX128);
        Tensor c = random(r, DType.COMPLEX64, 6), d = random(r, DType.COMPLEX64, 6);
        assertMatches(reference(c, d, true), MatmulOps.vdot(c, d), DType.COMPLEX64);
        Tensor x = random(r, DType.FLOAT32, 6), y = random(r, DType.FLOAT32, 6);
        assertMatches(reference(x, y, false), MatmulOps.vdot(x, y), DType.FLOAT32);
        // (1 + 2i) conjugated times (3 + 4i) = 11 - 2i; without the conjugate it would be -5 + 10i.
        Tensor p = complexVector(1, 2), q = complexVector(3, 4);
        assertArrayEquals(new double[] {11, -2}, MatmulOps.vdot(p, q).toDoubleArray());
        assertArrayEquals(new double[] {-5, 10}, MatmulOps.dot(p, q).toDoubleArray());
    }

    private static Tensor complexVector(double re, double im) {
        Tensor t = Tensor.of(TensorImpl.empty(new long[] {1}, DType.COMPLEX128));
        ElementIO.of(DType.COMPLEX128).setComplex(t.impl().storage().segment(), 0, re, im);
        return t;
    }

    @Test
    void integerProductsWrapLikeTheNarrowType() {
        // 100 * 100 + 100 * 100 = 20000, which int8 holds as 20000 mod 256 = 32; uint8 the same bits.
        Tensor a = filled(DType.INT8, 100, 1, 2), b = filled(DType.INT8, 100, 2, 1);
        assertEquals(32, MatmulOps.mm(a, b).longItem());
        Tensor c = filled(DType.UINT8, 200, 1, 2), d = filled(DType.UINT8, 200, 2, 1);
        assertEquals(80_000 & 0xFF, MatmulOps.mm(c, d).longItem());
    }

    @Test
    void halfPrecisionAccumulatesInFloatAndRoundsOnce() {
        // A sum of 4097 ones: float16 accumulation would stall at 2048 (2048 + 1 rounds back to 2048);
        // accumulated in float it is 4097, which rounds once to float16's 4096.
        int k = 4097;
        Tensor a = filled(DType.FLOAT16, 1, 1, k), b = filled(DType.FLOAT16, 1, k, 1);
        assertEquals(4096, MatmulOps.mm(a, b).item());
        Tensor bf = filled(DType.BFLOAT16, 1, 1, 1000), bg = filled(DType.BFLOAT16, 1, 1000, 1);
        assertEquals(1000, MatmulOps.mm(bf, bg).item()); // bfloat16 accumulation would stall at 256
    }

    // ---- matmul's rank cases and broadcasting -------------------------------------------------------

    static final long[][][] RANK_CASES = {
        {{4}, {4}},
        {{3, 4}, {4}},
        {{4}, {4, 2}},
        {{3, 4}, {4, 2}},
        {{2, 3, 4}, {4}},
        {{2, 3, 4}, {4, 5}},
        {{5, 2, 3, 4}, {4}},
        {{4}, {2, 4, 3}},
        {{3, 4}, {2, 4, 5}},
        {{4}, {2, 2, 4, 3}},
        {{2, 3, 4}, {2, 4, 5}},
        {{2, 1, 3, 4}, {5, 4, 2}},
        {{1, 3, 4}, {3, 4, 2}},
        {{2, 3, 4}, {1, 4, 2}},
        {{6, 1, 3, 4}, {1, 5, 4, 2}},
        {{2, 3, 4}, {3, 2, 1, 4, 2}}
    };

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT64", "COMPLEX64", "INT64", "BFLOAT16"})
    void matmulFollowsEveryRankRule(DType dtype) {
        Random r = new Random(6);
        for (long[][] shapes : RANK_CASES) {
            Tensor a = random(r, dtype, shapes[0]), b = random(r, dtype, shapes[1]);
            String label = Shapes.str(shapes[0]) + " @ " + Shapes.str(shapes[1]);
            try {
                assertMatches(reference(a, b, false), MatmulOps.matmul(a, b), dtype);
                if (a.dim() >= 2 && b.dim() >= 2) {
                    // The same values, transposed in memory: folding then needs copies, or bmm reads transposed
                    // matrices.
                    assertMatches(reference(a, b, false), MatmulOps.matmul(columnMajor(a), columnMajor(b)), dtype);
                }
            } catch (AssertionError e) {
                throw new AssertionError(label + ": " + e.getMessage(), e);
            }
        }
    }

    @Test
    void matmulOfANonContiguousBatchTakesTheBatchedPath() {
        // [3, 2, 4] transposed from [2, 3, 4]: its batch cannot fold into rows without a copy.
        Random r = new Random(7);
        Tensor a = transpose(random(r, DType.FLOAT64, 2, 3, 4), 0, 1), b = random(r, DType.FLOAT64, 4, 5);
        assertMatches(reference(a, b, false), MatmulOps.matmul(a, b), DType.FLOAT64);
        Tensor v = random(r, DType.FLOAT64, 4);
        assertMatches(reference(a, v, false), MatmulOps.matmul(a, v), DType.FLOAT64);
    }

    @Test
    void operandsRequiringGradTakeTheFoldingPathsWithTheSameValues() {
        // With a small operand that requires grad, ATen folds even [m, k] @ [B, k, n] (one mm on the
        // transposed batch, then a copy) and squeezes a broadcast batch of one; the values must not change.
        Random r = new Random(11);
        Tensor m = random(r, DType.FLOAT64, 3, 4).requiresGrad(true), batch = random(r, DType.FLOAT64, 2, 4, 5);
        Tensor folded = MatmulOps.matmul(m, batch);
        assertMatches(reference(m, batch, false), folded, DType.FLOAT64);
        assertTrue(folded.isContiguous());
        Tensor one = random(r, DType.FLOAT64, 1, 3, 4).requiresGrad(true);
        assertMatches(reference(one, batch, false), MatmulOps.matmul(one, batch), DType.FLOAT64);
        Tensor rhs = random(r, DType.FLOAT64, 1, 5, 2).requiresGrad(true);
        assertMatches(reference(batch, rhs, false), MatmulOps.matmul(batch, rhs), DType.FLOAT64);
        Tensor v = random(r, DType.FLOAT64, 5).requiresGrad(true);
        assertMatches(reference(columnMajor(batch), v, false), MatmulOps.matmul(columnMajor(batch), v), DType.FLOAT64);
    }

    @Test
    void matmulReturnsAFreshContiguousResult() {
        Random r = new Random(8);
        Tensor a = random(r, DType.FLOAT32, 3, 4), b = random(r, DType.FLOAT32, 2, 4, 5);
        Tensor out = MatmulOps.matmul(a, b);
        assertTrue(out.isContiguous());
        Tensor x = random(r, DType.FLOAT32, 4), y = random(r, DType.FLOAT32, 2, 4, 3);
        assertTrue(MatmulOps.matmul(x, y).isContiguous());
    }

    // ---- empty shapes -------------------------------------------------------------------------------

    @Test
    void emptyContractionGivesZerosAndEmptyRowsGiveEmptyResults() {
        for (DType dtype : new DType[] {DType.FLOAT32, DType.COMPLEX128, DType.BFLOAT16, DType.INT32}) {
            Tensor zeros = MatmulOps.mm(filled(dtype, 1, 3, 0), filled(dtype, 1, 0, 2));
            assertArrayEquals(new long[] {3, 2}, zeros.shape());
            assertArrayEquals(new double[zeros.toDoubleArray().length], zeros.toDoubleArray());
            assertArrayEquals(
                    new long[] {0, 2},
                    MatmulOps.mm(filled(dtype, 1, 0, 4), filled(dtype, 1, 4, 2)).shape());
            assertArrayEquals(
                    new long[] {3, 0},
                    MatmulOps.mm(filled(dtype, 1, 3, 4), filled(dtype, 1, 4, 0)).shape());
            assertArrayEquals(
                    new long[] {0, 3, 2},
                    MatmulOps.bmm(filled(dtype, 1, 0, 3, 4), filled(dtype, 1, 0, 4, 2))
                            .shape());
            Tensor bz = MatmulOps.bmm(filled(dtype, 1, 2, 3, 0), filled(dtype, 1, 2, 0, 2));
            assertArrayEquals(new double[bz.toDoubleArray().length], bz.toDoubleArray());
            assertEquals(
                    0.0, MatmulOps.dot(filled(dtype, 1, 0), filled(dtype, 1, 0)).item());
            Tensor mv = MatmulOps.mv(filled(dtype, 1, 3, 0), filled(dtype, 1, 0));
            assertArrayEquals(new long[] {3}, mv.shape());
            assertArrayEquals(new double[mv.toDoubleArray().length], mv.toDoubleArray());
        }
        assertArrayEquals(
                new long[] {3, 5, 0},
                MatmulOps.matmul(filled(DType.FLOAT32, 1, 3, 5, 0), filled(DType.FLOAT32, 1, 0, 0))
                        .shape());
        assertArrayEquals(
                new long[] {2, 0, 4},
                MatmulOps.matmul(filled(DType.FLOAT32, 1, 2, 0, 3), filled(DType.FLOAT32, 1, 3, 4))
                        .shape());
        assertArrayEquals(
                new long[] {0, 2},
                MatmulOps.matmul(filled(DType.FLOAT32, 1, 0, 2, 3), filled(DType.FLOAT32, 1, 3))
                        .shape());
    }

    @Test
    void emptyContractionInAddmmScalesTheInput() {
        Tensor bias = filled(DType.FLOAT32, 3, 2, 2);
        Tensor out = MatmulOps.addmm(bias, filled(DType.FLOAT32, 1, 2, 0), filled(DType.FLOAT32, 1, 0, 2), 0.5, 2.0);
        assertArrayEquals(new double[] {1.5, 1.5, 1.5, 1.5}, out.toDoubleArray());
        Tensor b3 = filled(DType.FLOAT64, 3, 1, 2, 2);
        Tensor out3 =
                MatmulOps.baddbmm(b3, filled(DType.FLOAT64, 1, 1, 2, 0), filled(DType.FLOAT64, 1, 1, 0, 2), 2.0, 1.0);
        assertArrayEquals(new double[] {6, 6, 6, 6}, out3.toDoubleArray());
    }

    // ---- addmm / baddbmm ----------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT64", "COMPLEX128", "FLOAT16", "INT64"})
    void addmmScalesAndBroadcastsItsInput(DType dtype) {
        Random r = new Random(9);
        Tensor m1 = random(r, dtype, 4, 6), m2 = random(r, dtype, 6, 3);
        boolean integral = !dtype.isFloatingPoint() && !dtype.isComplex();
        double beta = integral ? 3 : 0.5, alpha = integral ? -2 : 1.5;
        for (long[] biasShape : new long[][] {{4, 3}, {3}, {4, 1}, {}, {1, 1}}) {
            Tensor bias = random(r, dtype, biasShape);
            Expected e = withBias(reference(m1, m2, false), bias, beta, alpha);
            assertMatches(e, MatmulOps.addmm(bias, m1, m2, beta, alpha), dtype);
            assertMatches(e, MatmulOps.addmm(bias, columnMajor(m1), everyOther(m2), beta, alpha), dtype);
        }
        Tensor b3 = random(r, dtype, 2, 4, 6), c3 = random(r, dtype, 2, 6, 3);
        for (long[] biasShape : new long[][] {{2, 4, 3}, {3}, {4, 1}, {1, 4, 3}}) {
            Tensor bias = random(r, dtype, biasShape);
            Expected e = withBias(reference(b3, c3, false), bias, beta, alpha);
            assertMatches(e, MatmulOps.baddbmm(bias, b3, c3, beta, alpha), dtype);
        }
    }

    @Test
    void betaZeroIgnoresTheInputEvenWhenItIsNaN() {
        Tensor nan = filled(DType.FLOAT32, Double.NaN, 2, 2);
        Tensor eye = Tensor.of(TensorImpl.empty(new long[] {2, 2}, DType.FLOAT32));
        eye.impl().storage().floats()[0] = 1;
        eye.impl().storage().floats()[3] = 1;
        assertArrayEquals(
                new double[] {1, 0, 0, 1},
                MatmulOps.addmm(nan, eye, eye, 0L, 1L).toDoubleArray());
        Tensor nan3 = filled(DType.FLOAT32, Double.NaN, 1, 2, 2);
        Tensor eye3 = Views.of(eye, 0, new long[] {1, 2, 2}, new long[] {4, 2, 1});
        assertArrayEquals(
                new double[] {2, 0, 0, 2},
                MatmulOps.baddbmm(nan3, eye3, eye3, 0.0, 2.0).toDoubleArray());
        // The Java kernel (bfloat16) honours the same rule.
        Tensor nanBf = filled(DType.BFLOAT16, Double.NaN, 2, 2), eyeBf = eye.to(DType.BFLOAT16);
        assertArrayEquals(
                new double[] {1, 0, 0, 1},
                MatmulOps.addmm(nanBf, eyeBf, eyeBf, 0L, 1L).toDoubleArray());
    }

    @Test
    void integerAlphaAndBetaTruncateLikeScalarToLong() {
        // PyTorch converts beta=0.5 to 0 and alpha=2.5 to 2 for int64 (ATen's Scalar::to<int64_t>).
        Tensor ones = filled(DType.INT64, 1, 2, 2);
        assertArrayEquals(
                new long[] {2, 2, 2, 2},
                MatmulOps.addmm(ones, ones, ones, 0.5, 1L).toLongArray());
        assertArrayEquals(
                new long[] {5, 5, 5, 5},
                MatmulOps.addmm(ones, ones, ones, 1L, 2.5).toLongArray());
    }

    @Test
    void complexAlphaAndBeta() {
        Tensor one = Views.of(complexVector(1, 0), 0, new long[] {1, 1}, new long[] {1, 1});
        Tensor bias = Views.of(complexVector(0, 1), 0, new long[] {1, 1}, new long[] {1, 1});
        // beta = i, alpha = 2i: i * i + 2i * 1 = -1 + 2i
        Tensor out = MatmulOps.addmm(bias, one, one, Scalar.complex(0, 1), Scalar.complex(0, 2));
        assertArrayEquals(new double[] {-1, 2}, out.toDoubleArray());
    }

    @Test
    void inPlaceFormsWriteIntoTheirInput() {
        Random r = new Random(10);
        Tensor bias = random(r, DType.FLOAT64, 3, 2),
                m1 = random(r, DType.FLOAT64, 3, 5),
                m2 = random(r, DType.FLOAT64, 5, 2);
        Expected e = withBias(reference(m1, m2, false), bias, 2, 3);
        int version = bias.version();
        assertSame(bias, MatmulOps.addmm_(bias, m1, m2, 2.0, 3.0));
        assertMatches(e, bias, DType.FLOAT64);
        assertTrue(bias.version() > version);
        // A transposed (non-contiguous) self is written through its strides.
        Tensor selfT = columnMajor(random(r, DType.FLOAT32, 3, 2)),
                a = random(r, DType.FLOAT32, 3, 4),
                b = random(r, DType.FLOAT32, 4, 2);
        Expected et = withBias(reference(a, b, false), selfT, 1, 1);
        MatmulOps.addmm_(selfT, a, b, 1L, 1L);
        assertMatches(et, selfT, DType.FLOAT32);
        Tensor b3 = random(r, DType.FLOAT32, 2, 3, 2),
                x = random(r, DType.FLOAT32, 2, 3, 4),
                y = random(r, DType.FLOAT32, 2, 4, 2);
        Expected e3 = withBias(reference(x, y, false), b3, 0.5, 1);
        MatmulOps.baddbmm_(b3, x, y, 0.5, 1L);
        assertMatches(e3, b3, DType.FLOAT32);
    }

    @Test
    void outerMultipliesAndPromotes() {
        Tensor a = Tensor.of(TensorImpl.empty(new long[] {2}, DType.FLOAT32)),
                b = Tensor.of(TensorImpl.empty(new long[] {3}, DType.FLOAT64));
        a.impl().storage().floats()[0] = 1;
        a.impl().storage().floats()[1] = 2;
        b.impl().storage().doubles()[0] = 3;
        b.impl().storage().doubles()[1] = 4;
        b.impl().storage().doubles()[2] = 5;
        Tensor out = MatmulOps.outer(a, b);
        assertEquals(DType.FLOAT64, out.dtype());
        assertArrayEquals(new long[] {2, 3}, out.shape());
        assertArrayEquals(new double[] {3, 4, 5, 6, 8, 10}, out.toDoubleArray());
        Tensor strided = everyOther(a);
        assertArrayEquals(
                new double[] {3, 4, 5, 6, 8, 10}, MatmulOps.outer(strided, b).toDoubleArray());
    }

    // ---- errors ---------------------------------------------------------------------------------------

    private static Tensor f32(long... shape) {
        return Tensor.of(TensorImpl.empty(shape, DType.FLOAT32));
    }

    private static Tensor of(DType d, long... shape) {
        return Tensor.of(TensorImpl.empty(shape, d));
    }

    private static void assertError(String message, Supplier<Object> call) {
        TorchException e = assertThrows(TorchException.class, call::get);
        assertEquals(message, e.getMessage());
    }

    @Test
    void float8MatrixProductsAreThoseOfPyTorchOnCpu() {
        // PyTorch 2.13 on CPU: mm, addmm and the matmuls that fold to mm take float8 (computed in float32, rounded
        // back); bmm, mv and dot refuse it. torch.mm(a, a) for a = [[1, 2], [3, 4]] in e4m3fn is [[7, 10], [15, 22]],
        // and for b = [[1.5, 2.25], [3, -4]] in e5m2 is [[8, -5], [-8, 24]].
        Tensor a = org.jtorch.Torch.tensor(new double[][] {{1, 2}, {3, 4}}).to(DType.FLOAT8_E4M3FN);
        Tensor mm = MatmulOps.mm(a, a);
        assertEquals(DType.FLOAT8_E4M3FN, mm.dtype());
        assertArrayEquals(new double[] {7, 10, 15, 22}, mm.toDoubleArray());
        Tensor b =
                org.jtorch.Torch.tensor(new double[][] {{1.5, 2.25}, {3, -4}}).to(DType.FLOAT8_E5M2);
        assertArrayEquals(new double[] {8, -5, -8, 24}, MatmulOps.mm(b, b).toDoubleArray());
        assertArrayEquals(new double[] {8, 12, 18, 26}, MatmulOps.addmm(a, a, a).toDoubleArray());
        assertError(
                "\"addmv_impl_cpu\" not implemented for 'Float8_e4m3fn'",
                () -> MatmulOps.mv(a, of(DType.FLOAT8_E4M3FN, 2)));
        assertError(
                "\"dot\" not implemented for 'Float8_e4m3fn'",
                () -> MatmulOps.dot(of(DType.FLOAT8_E4M3FN, 2), of(DType.FLOAT8_E4M3FN, 2)));
    }

    @Test
    void errorsCarryPyTorchMessages() {
        assertError(
                "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)", () -> MatmulOps.mm(f32(4, 3), f32(5, 6)));
        assertError("self must be a matrix", () -> MatmulOps.mm(f32(3), f32(3, 2)));
        assertError("mat2 must be a matrix", () -> MatmulOps.mm(f32(2, 3), f32(3)));
        assertError(
                "expected m1 and m2 to have the same dtype, but got: float != double",
                () -> MatmulOps.mm(f32(2, 2), of(DType.FLOAT64, 2, 2)));
        assertError(
                "expected m1 and m2 to have the same dtype, but got: long int != c10::BFloat16",
                () -> MatmulOps.mm(of(DType.INT64, 2, 2), of(DType.BFLOAT16, 2, 2)));
        assertError(
                "\"addmm_impl_cpu_\" not implemented for 'Bool'",
                () -> MatmulOps.mm(of(DType.BOOL, 2, 2), of(DType.BOOL, 2, 2)));
        assertError(
                "\"addmm_impl_cpu_\" not implemented for 'ComplexHalf'",
                () -> MatmulOps.mm(of(DType.COMPLEX32, 2, 2), of(DType.COMPLEX32, 2, 2)));

        assertError(
                "self and mat2 must have the same dtype, but got Double and Float",
                () -> MatmulOps.addmm(of(DType.FLOAT64, 2, 2), f32(2, 2), f32(2, 2)));
        assertError(
                "mat1 and mat2 must have the same dtype, but got Float and Double",
                () -> MatmulOps.addmm(of(DType.FLOAT64, 2, 2), f32(2, 2), of(DType.FLOAT64, 2, 2)));
        assertError("mat1 must be a matrix, got 1-D tensor", () -> MatmulOps.addmm(f32(2, 2), f32(2), f32(2, 2)));
        assertError("mat2 must be a matrix, got 3-D tensor", () -> MatmulOps.addmm(f32(2, 2), f32(2, 2), f32(1, 2, 2)));
        assertError(
                "mat1 and mat2 shapes cannot be multiplied (2x2 and 3x2)",
                () -> MatmulOps.addmm(f32(2, 2), f32(2, 2), f32(3, 2)));
        assertError(
                "The expanded size of the tensor (2) must match the existing size (4) at non-singleton dimension 1.  "
                        + "Target sizes: [2, 2].  Tensor sizes: [4]",
                () -> MatmulOps.addmm(f32(4), f32(2, 2), f32(2, 2)));
        assertError(
                "expand(torch.FloatTensor{[3, 2, 2]}, size=[2, "
                        + "2]): the number of sizes provided (2) must be greater or equal"
                        + " to the number of dimensions in the tensor (3)",
                () -> MatmulOps.addmm(f32(3, 2, 2), f32(2, 2), f32(2, 2)));

        assertError("batch1 must be a 3D tensor", () -> MatmulOps.bmm(f32(3, 4), f32(4, 2)));
        assertError("batch2 must be a 3D tensor", () -> MatmulOps.bmm(f32(1, 2, 2), f32(2, 2)));
        assertError(
                "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4].",
                () -> MatmulOps.bmm(f32(2, 3, 4), f32(3, 4, 2)));
        assertError(
                "expected scalar type Float but found Double",
                () -> MatmulOps.bmm(f32(1, 2, 2), of(DType.FLOAT64, 1, 2, 2)));
        assertError(
                "\"bmm\" not implemented for 'Bool'",
                () -> MatmulOps.bmm(of(DType.BOOL, 1, 2, 2), of(DType.BOOL, 1, 2, 2)));
        assertError(
                "\"bmm\" not implemented for 'Float8_e4m3fn'",
                () -> MatmulOps.bmm(of(DType.FLOAT8_E4M3FN, 1, 2, 2), of(DType.FLOAT8_E4M3FN, 1, 2, 2)));

        assertError(
                "Input dtypes must be the same, got: input float, batch1: double, batch2: double",
                () -> MatmulOps.baddbmm(f32(1, 2, 2), of(DType.FLOAT64, 1, 2, 2), of(DType.FLOAT64, 1, 2, 2)));
        assertError("batch2 must be a 3D tensor", () -> MatmulOps.baddbmm(f32(2, 2), f32(1, 2, 2), f32(2, 2)));
        assertError(
                "The expanded size of the tensor (2) must match the existing size (4) at non-singleton dimension 2.  "
                        + "Target sizes: [1, 2, 2].  Tensor sizes: [4]",
                () -> MatmulOps.baddbmm(f32(4), f32(1, 2, 2), f32(1, 2, 2)));
        assertError(
                "Expected size for first two dimensions of batch2 tensor to be: [1, 2] but got: [1, 3].",
                () -> MatmulOps.baddbmm(f32(1, 2, 2), f32(1, 2, 2), f32(1, 3, 2)));

        assertError("size mismatch, got input (3), mat (3x4), vec (5)", () -> MatmulOps.mv(f32(3, 4), f32(5)));
        assertError("vector + matrix @ vector expected, got 1, 1, 1", () -> MatmulOps.mv(f32(2), f32(2)));
        assertError("vector + matrix @ vector expected, got 1, 2, 2", () -> MatmulOps.mv(f32(2, 2), f32(2, 2)));
        assertError(
                "addmv input tensors must have the same dtype, but got Double, Float, and Double",
                () -> MatmulOps.mv(f32(2, 2), of(DType.FLOAT64, 2)));
        assertError(
                "\"addmv_impl_cpu\" not implemented for 'Bool'",
                () -> MatmulOps.mv(of(DType.BOOL, 2, 2), of(DType.BOOL, 2)));

        assertError("1D tensors expected, but got 2D and 2D tensors", () -> MatmulOps.dot(f32(2, 2), f32(2, 2)));
        assertError(
                "dot : expected both vectors to have same dtype, but found Float and Double",
                () -> MatmulOps.dot(f32(2), of(DType.FLOAT64, 2)));
        assertError(
                "inconsistent tensor size, expected tensor [3] and src [4] to have the same number of "
                        + "elements, but got 3"
                        + " and 4 elements respectively",
                () -> MatmulOps.dot(f32(3), f32(4)));
        assertError("\"dot\" not implemented for 'Bool'", () -> MatmulOps.dot(of(DType.BOOL, 2), of(DType.BOOL, 2)));
        assertError(
                "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of "
                        + "elements, but got 2"
                        + " and 3 elements respectively",
                () -> MatmulOps.vdot(f32(2), f32(3)));
        assertError(
                "\"vdot\" not implemented for 'ComplexHalf'",
                () -> MatmulOps.vdot(of(DType.COMPLEX32, 2), of(DType.COMPLEX32, 2)));

        assertError("outer: Expected 1-D argument self, but got 2-D", () -> MatmulOps.outer(f32(2, 2), f32(2)));
        assertError("outer: Expected 1-D argument vec2, but got 2-D", () -> MatmulOps.outer(f32(2), f32(2, 2)));

        assertError(
                "both arguments to matmul need to be at least 1D, but they are 0D and 2D",
                () -> MatmulOps.matmul(f32(), f32(2, 2)));
        assertError(
                "both arguments to matmul need to be at least 1D, but they are 1D and 0D",
                () -> MatmulOps.matmul(f32(2), f32()));
        assertError("size mismatch, got input (6), mat (6x4), vec (5)", () -> MatmulOps.matmul(f32(2, 3, 4), f32(5)));
        assertError(
                "mat1 and mat2 shapes cannot be multiplied (6x4 and 5x6)",
                () -> MatmulOps.matmul(f32(2, 3, 4), f32(5, 6)));
        assertError(
                "mat1 and mat2 shapes cannot be multiplied (1x4 and 5x6)", () -> MatmulOps.matmul(f32(4), f32(5, 6)));
        assertError(
                "Expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5].",
                () -> MatmulOps.matmul(f32(2, 3, 4), f32(2, 5, 6)));
        assertError(
                "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
                () -> MatmulOps.matmul(f32(2, 3, 4), f32(3, 4, 2)));
        assertError(
                "expected m1 and m2 to have the same dtype, but got: float != double",
                () -> MatmulOps.matmul(f32(2, 3, 4), of(DType.FLOAT64, 4, 2)));
    }

    // ---- meta device ----------------------------------------------------------------------------------

    private static Tensor meta(DType d, long... shape) {
        return Tensor.of(TensorImpl.meta(shape, d));
    }

    private static void assertMeta(long[] shape, DType dtype, Tensor t) {
        assertEquals(Device.META, t.device());
        assertArrayEquals(shape, t.shape());
        assertEquals(dtype, t.dtype());
    }

    @Test
    void metaTensorsGetShapesAndDtypesWithoutData() {
        DType f = DType.FLOAT32, h = DType.BFLOAT16, z = DType.COMPLEX64;
        assertMeta(new long[] {4, 6}, f, MatmulOps.mm(meta(f, 4, 3), meta(f, 3, 6)));
        assertMeta(new long[] {4, 6}, h, MatmulOps.addmm(meta(h, 6), meta(h, 4, 3), meta(h, 3, 6)));
        assertMeta(new long[] {2, 4, 6}, z, MatmulOps.bmm(meta(z, 2, 4, 3), meta(z, 2, 3, 6)));
        assertMeta(new long[] {2, 4, 6}, f, MatmulOps.baddbmm(meta(f, 4, 1), meta(f, 2, 4, 3), meta(f, 2, 3, 6)));
        assertMeta(new long[] {4}, f, MatmulOps.mv(meta(f, 4, 3), meta(f, 3)));
        assertMeta(new long[] {}, z, MatmulOps.dot(meta(z, 3), meta(z, 3)));
        assertMeta(new long[] {}, z, MatmulOps.vdot(meta(z, 3), meta(z, 3)));
        assertMeta(new long[] {3, 5}, DType.FLOAT64, MatmulOps.outer(meta(f, 3), meta(DType.FLOAT64, 5)));
        assertMeta(new long[] {7, 5, 3, 2}, f, MatmulOps.matmul(meta(f, 7, 1, 3, 4), meta(f, 5, 4, 2)));
        assertMeta(new long[] {2, 3}, f, MatmulOps.matmul(meta(f, 2, 3, 4), meta(f, 4)));
        assertMeta(new long[] {2, 3}, f, MatmulOps.matmul(meta(f, 4), meta(f, 2, 4, 3)));
        assertMeta(new long[] {2, 5, 3}, f, MatmulOps.matmul(meta(f, 5, 4), meta(f, 2, 4, 3)));
        assertMeta(new long[] {}, f, MatmulOps.matmul(meta(f, 4), meta(f, 4)));
        assertError(
                "mat1 and mat2 shapes cannot be multiplied (4x3 and 5x6)",
                () -> MatmulOps.mm(meta(f, 4, 3), meta(f, 5, 6)));
        assertError(
                "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
                () -> MatmulOps.matmul(meta(f, 2, 3, 4), meta(f, 3, 4, 2)));
    }
}

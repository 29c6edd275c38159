package org.jtorch.kernels.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.JavaGemm.Operand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pure-Java GEMM against a naive triple loop in double, called directly so that float32, float64 and complex (which
 * the ops send to OpenBLAS when it is present) are covered too, on heap and native memory, with arbitrary strides,
 * several batches, and sizes that cross the kernel's panel and block boundaries and its thread split.
 */
class JavaGemmTest {

    /** A [batch, rows, cols] buffer of one dtype with the given strides, filled with random values. */
    record Buffer(
            DType dtype,
            MemorySegment data,
            long offset,
            long batchStride,
            long rowStride,
            long colStride,
            long batch,
            long rows,
            long cols) {
        Operand operand() {
            return new Operand(data, dtype, offset, batchStride, rowStride, colStride);
        }

        long index(long b, long i, long j) {
            return offset + b * batchStride + i * rowStride + j * colStride;
        }

        double re(long b, long i, long j) {
            ElementIO io = ElementIO.of(dtype);
            return dtype.isFloatingPoint() || dtype.isComplex()
                    ? io.getDouble(data, index(b, i, j))
                    : io.getLong(data, index(b, i, j));
        }

        double im(long b, long i, long j) {
            return ElementIO.of(dtype).getImag(data, index(b, i, j));
        }
    }

    /** Row-major [batch, rows, cols] (or column-major matrices when {@code transposed}) in a heap or native segment. */
    static Buffer buffer(
            Random r, DType dtype, long batch, long rows, long cols, boolean transposed, boolean nativeMemory) {
        long elements = batch * rows * cols;
        long slots = elements * dtype.slotsPerElement();
        MemorySegment data = nativeMemory
                ? Arena.ofAuto().allocate(slots * (dtype.itemSize() / dtype.slotsPerElement()), 8)
                : switch (dtype.storageKind()) {
                    case FLOAT -> MemorySegment.ofArray(new float[(int) slots]);
                    case DOUBLE -> MemorySegment.ofArray(new double[(int) slots]);
                    case SHORT -> MemorySegment.ofArray(new short[(int) slots]);
                    case INT -> MemorySegment.ofArray(new int[(int) slots]);
                    case LONG -> MemorySegment.ofArray(new long[(int) slots]);
                    case BYTE -> MemorySegment.ofArray(new byte[(int) slots]);
                };
        ElementIO io = ElementIO.of(dtype);
        for (long e = 0; e < elements; e++) {
            if (dtype.isComplex()) io.setComplex(data, e, r.nextDouble() * 2 - 1, r.nextDouble() * 2 - 1);
            else if (dtype.isFloatingPoint()) io.setDouble(data, e, r.nextDouble() * 2 - 1);
            else io.setLong(data, e, r.nextInt(11) - 5);
        }
        return transposed
                ? new Buffer(dtype, data, 0, rows * cols, 1, rows, batch, rows, cols)
                : new Buffer(dtype, data, 0, rows * cols, cols, 1, batch, rows, cols);
    }

    /** Checks c (after the call) against beta * c0 + alpha * op(a) b computed in double. */
    static void check(
            Buffer a, Buffer b, Buffer c, double[][] c0, Scalar alpha, Scalar beta, boolean conjugateA, double tol) {
        int m = (int) a.rows(), k = (int) a.cols(), n = (int) b.cols();
        double ar = alpha.doubleValue(), ai = alpha.imag(), br = beta.doubleValue(), bi = beta.imag();
        for (long bt = 0; bt < c.batch(); bt++) {
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < n; j++) {
                    double sr = 0, si = 0, mag = 0;
                    for (int p = 0; p < k; p++) {
                        double xr = a.re(bt, i, p), xi = (conjugateA ? -1 : 1) * a.im(bt, i, p);
                        double yr = b.re(bt, p, j), yi = b.im(bt, p, j);
                        sr += xr * yr - xi * yi;
                        si += xr * yi + xi * yr;
                        mag += Math.hypot(xr, xi) * Math.hypot(yr, yi);
                    }
                    int o = (int) ((bt * m + i) * n + j);
                    double er = ar * sr - ai * si, ei = ar * si + ai * sr;
                    if (br != 0 || bi != 0) {
                        er += br * c0[0][o] - bi * c0[1][o];
                        ei += br * c0[1][o] + bi * c0[0][o];
                    }
                    double allowed =
                            tol * (Math.hypot(ar, ai) * mag + Math.hypot(br, bi) * Math.hypot(c0[0][o], c0[1][o]))
                                    + 1e-300;
                    double gr = c.re(bt, i, j), gi = c.im(bt, i, j);
                    if (tol == 0) {
                        assertEquals(wrap(c.dtype(), Math.round(er)), gr, "c[" + bt + ", " + i + ", " + j + "]");
                    } else {
                        assertTrue(
                                Math.abs(gr - er) <= allowed && Math.abs(gi - ei) <= allowed,
                                "c[" + bt + ", " + i + ", " + j + "] = (" + gr + ", " + gi + "), expected (" + er + ", "
                                        + ei + ")");
                    }
                }
            }
        }
    }

    /** An integer as the dtype holds it (wrapped to its width). */
    static long wrap(DType dtype, long v) {
        MemorySegment scratch = MemorySegment.ofArray(new long[1]);
        ElementIO.of(dtype).setLong(scratch, 0, v);
        return ElementIO.of(dtype).getLong(scratch, 0);
    }

    static double[][] snapshot(Buffer c) {
        int n = (int) (c.batch() * c.rows() * c.cols());
        double[][] v = new double[2][n];
        for (long b = 0; b < c.batch(); b++) {
            for (long i = 0; i < c.rows(); i++) {
                for (long j = 0; j < c.cols(); j++) {
                    int o = (int) ((b * c.rows() + i) * c.cols() + j);
                    v[0][o] = c.re(b, i, j);
                    v[1][o] = c.im(b, i, j);
                }
            }
        }
        return v;
    }

    static double tolerance(DType d) {
        return switch (d.toReal()) {
            case FLOAT64 -> 1e-13;
            case FLOAT32 -> 2e-6;
            case FLOAT16 -> 2e-3;
            case BFLOAT16 -> 1.6e-2;
            default -> d.isFloatingPoint() ? 0.07 : 0; // float8: 3 mantissa bits
        };
    }

    static void run(
            Random r,
            DType dtype,
            long batch,
            int m,
            int n,
            int k,
            boolean ta,
            boolean tb,
            boolean nativeMemory,
            Scalar alpha,
            Scalar beta) {
        Buffer a = buffer(r, dtype, batch, m, k, ta, nativeMemory), b = buffer(r, dtype, batch, k, n, tb, nativeMemory);
        Buffer c = buffer(r, dtype, batch, m, n, false, nativeMemory);
        double[][] c0 = snapshot(c);
        JavaGemm.gemm(batch, m, n, k, alpha, beta, a.operand(), b.operand(), c.operand(), false);
        check(a, b, c, c0, alpha, beta, false, tolerance(dtype));
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
                "FLOAT8_E4M3FN",
                "INT64",
                "INT32",
                "INT8"
            })
    void matchesTheNaiveLoop(DType dtype) {
        Random r = new Random(11);
        Scalar one = Scalar.of(1L), zero = Scalar.of(0L);
        run(r, dtype, 1, 5, 7, 3, false, false, false, one, zero);
        run(r, dtype, 1, 6, 9, 11, true, true, false, one, zero);
        run(r, dtype, 3, 4, 5, 6, true, false, true, one, zero);
        // Crosses the 256-column panel and 128-deep block, with 3 leftover rows.
        run(r, dtype, 1, 7, 300, 200, false, true, false, one, zero);
    }

    @Test
    void floatKernelsReadHeapOperandsInPlaceInEveryLayout() {
        Random r = new Random(13);
        for (boolean ta : new boolean[] {false, true}) {
            for (boolean tb : new boolean[] {false, true}) {
                // 43 rows: five groups of eight and three single rows; 77 columns: two 32-column panels, one partial;
                // a transposed B of 150 x 77 is packed column by column; batch 2 offsets both in place.
                run(r, DType.FLOAT32, 2, 43, 77, 150, ta, tb, false, Scalar.of(1L), Scalar.of(0L));
                // alpha and beta through the direct float32 store
                run(r, DType.FLOAT32, 1, 64, 96, 40, ta, tb, false, Scalar.of(0.5), Scalar.of(2.0));
            }
        }
    }

    @Test
    void aFloatRowHasTheSameBitsWhicheverKernelComputesIt() {
        // Row 3 of a 16-row product comes from the eight-row kernel; alone (m = 1), from the one-row kernel. Both must
        // take the same chain of fused multiply-adds, or results would depend on where a thread's rows start.
        Random r = new Random(14);
        int k = 300, n = 70;
        Buffer a = buffer(r, DType.FLOAT32, 1, 16, k, false, false);
        Buffer b = buffer(r, DType.FLOAT32, 1, k, n, false, false);
        Buffer c = buffer(r, DType.FLOAT32, 1, 16, n, false, false);
        Buffer row = buffer(r, DType.FLOAT32, 1, 1, n, false, false);
        Scalar one = Scalar.of(1L), zero = Scalar.of(0L);
        JavaGemm.gemm(1, 16, n, k, one, zero, a.operand(), b.operand(), c.operand(), false);
        Operand third = new Operand(a.data(), DType.FLOAT32, a.index(0, 3, 0), 0, k, 1);
        JavaGemm.gemm(1, 1, n, k, one, zero, third, b.operand(), row.operand(), false);
        for (int j = 0; j < n; j++) assertEquals(c.re(0, 3, j), row.re(0, 0, j), "column " + j);
    }

    @Test
    void aPackedMatrixGivesTheBitsOfTheUnpackedProductAndKeepsItsValues() {
        Random r = new Random(15);
        Scalar one = Scalar.of(1L), zero = Scalar.of(0L), half = Scalar.of(0.5);
        for (boolean tb : new boolean[] {false, true}) {
            for (DType dtype : new DType[] {DType.FLOAT32, DType.BFLOAT16}) {
                // 77 columns: two full panels and a partial one; 150 deep: two contraction blocks.
                int m = 19, n = 77, k = 150;
                Buffer a = buffer(r, dtype, 1, m, k, false, false), b = buffer(r, dtype, 1, k, n, tb, false);
                Buffer direct = buffer(r, dtype, 1, m, n, false, false),
                        packed = buffer(r, dtype, 1, m, n, false, false);
                ElementIO io = ElementIO.of(dtype);
                for (int e = 0; e < m * n; e++) io.setDouble(packed.data(), e, io.getDouble(direct.data(), e));
                double[][] c0 = snapshot(direct);
                JavaGemm.gemm(1, m, n, k, half, one, a.operand(), b.operand(), direct.operand(), false);
                JavaGemm.PackedFloat p = JavaGemm.packFloat(b.operand(), k, n);
                // The packed copy does not see later writes to the source.
                Buffer original = buffer(new Random(0), dtype, 1, k, n, tb, false);
                for (long e = 0; e < (long) k * n; e++) {
                    io.setDouble(original.data(), e, io.getDouble(b.data(), e));
                    io.setDouble(b.data(), e, 7.0);
                }
                JavaGemm.gemmPacked(m, half, one, a.operand(), p, packed.operand());
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < n; j++) assertEquals(direct.re(0, i, j), packed.re(0, i, j), i + ", " + j);
                }
                check(a, original, packed, c0, half, one, false, tolerance(dtype));
            }
        }
        Buffer ints = buffer(r, DType.INT64, 1, 3, 3, false, false);
        TorchException e = assertThrows(TorchException.class, () -> JavaGemm.packFloat(ints.operand(), 3, 3));
        assertTrue(e.getMessage().contains("int64"), e.getMessage());
        Buffer a = buffer(r, DType.FLOAT32, 1, 2, 3, false, false), c = buffer(r, DType.INT32, 1, 2, 3, false, false);
        JavaGemm.PackedFloat p = JavaGemm.packFloat(
                buffer(r, DType.FLOAT32, 1, 3, 3, false, false).operand(), 3, 3);
        assertThrows(TorchException.class, () -> JavaGemm.gemmPacked(2, zero, zero, a.operand(), p, c.operand()));
    }

    @Test
    void largeFloatProductsSplitAcrossThreadsGiveTheSameSums() {
        Random r = new Random(12);
        run(r, DType.FLOAT32, 1, 130, 270, 140, false, false, false, Scalar.of(1L), Scalar.of(0L));
        run(r, DType.FLOAT64, 1, 130, 270, 140, true, false, true, Scalar.of(1L), Scalar.of(0L));
        // Many small matrices: split by batch.
        run(r, DType.FLOAT32, 200, 5, 6, 7, false, true, false, Scalar.of(1L), Scalar.of(0L));
    }

    @ParameterizedTest
    @EnumSource(
            value = DType.class,
            names = {"FLOAT32", "FLOAT64", "COMPLEX128", "BFLOAT16", "INT64"})
    void alphaAndBetaScaleTheProductAndTheOutput(DType dtype) {
        Random r = new Random(13);
        boolean integral = !dtype.isFloatingPoint() && !dtype.isComplex();
        Scalar alpha = integral ? Scalar.of(3L) : dtype.isComplex() ? Scalar.complex(0.5, -2) : Scalar.of(-1.5);
        Scalar beta = integral ? Scalar.of(-2L) : dtype.isComplex() ? Scalar.complex(0, 1) : Scalar.of(0.25);
        run(r, dtype, 2, 9, 10, 11, false, true, false, alpha, beta);
    }

    @Test
    void betaZeroDoesNotReadTheOutput() {
        for (DType dtype : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.BFLOAT16, DType.COMPLEX64}) {
            Buffer a = buffer(new Random(14), dtype, 1, 2, 3, false, false),
                    b = buffer(new Random(15), dtype, 1, 3, 2, false, false);
            Buffer c = buffer(new Random(16), dtype, 1, 2, 2, false, false);
            ElementIO io = ElementIO.of(dtype);
            for (long e = 0; e < 4; e++) io.setComplex(c.data(), e, Double.NaN, Double.NaN);
            JavaGemm.gemm(1, 2, 2, 3, Scalar.of(1L), Scalar.of(0L), a.operand(), b.operand(), c.operand(), false);
            check(a, b, c, new double[2][4], Scalar.of(1L), Scalar.of(0L), false, tolerance(dtype));
        }
    }

    @Test
    void emptyContractionScalesTheOutput() {
        Buffer a = buffer(new Random(17), DType.FLOAT32, 1, 2, 0, false, false),
                b = buffer(new Random(18), DType.FLOAT32, 1, 0, 3, false, false);
        Buffer c = buffer(new Random(19), DType.FLOAT32, 1, 2, 3, false, false);
        double[][] c0 = snapshot(c);
        JavaGemm.gemm(1, 2, 3, 0, Scalar.of(1L), Scalar.of(2L), a.operand(), b.operand(), c.operand(), false);
        for (int o = 0; o < 6; o++) assertEquals(2 * c0[0][o], c.re(0, o / 3, o % 3), 1e-6);
        JavaGemm.gemm(1, 2, 3, 0, Scalar.of(1L), Scalar.of(0L), a.operand(), b.operand(), c.operand(), false);
        for (int o = 0; o < 6; o++) assertEquals(0.0, c.re(0, o / 3, o % 3));
    }

    @Test
    void conjugatesAOnRequest() {
        Random r = new Random(20);
        Buffer a = buffer(r, DType.COMPLEX128, 1, 3, 4, false, false),
                b = buffer(r, DType.COMPLEX128, 1, 4, 2, false, false);
        Buffer c = buffer(r, DType.COMPLEX128, 1, 3, 2, false, false);
        JavaGemm.gemm(1, 3, 2, 4, Scalar.of(1L), Scalar.of(0L), a.operand(), b.operand(), c.operand(), true);
        check(a, b, c, new double[2][6], Scalar.of(1L), Scalar.of(0L), true, 1e-13);
    }

    @Test
    void broadcastOperandsWithZeroStrides() {
        // A single row repeated over all rows and batches (strides 0), as an expanded tensor presents it.
        Random r = new Random(21);
        Buffer row = buffer(r, DType.FLOAT64, 1, 1, 5, false, false);
        Buffer a = new Buffer(DType.FLOAT64, row.data(), 0, 0, 0, 1, 2, 4, 5);
        Buffer b = buffer(r, DType.FLOAT64, 2, 5, 3, false, false), c = buffer(r, DType.FLOAT64, 2, 4, 3, false, false);
        JavaGemm.gemm(2, 4, 3, 5, Scalar.of(1L), Scalar.of(0L), a.operand(), b.operand(), c.operand(), false);
        check(a, b, c, new double[2][24], Scalar.of(1L), Scalar.of(0L), false, 1e-13);
    }
}

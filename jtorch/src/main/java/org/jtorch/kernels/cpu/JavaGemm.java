package org.jtorch.kernels.cpu;

import java.lang.foreign.MemorySegment;
import java.lang.ref.SoftReference;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.simd.GemmSimd;

/**
 * Pure-Java batched GEMM, {@code C[b] = alpha * op(A[b]) * B[b] + beta * C[b]}, for every dtype JTorch multiplies. It
 * is the only path for float16, bfloat16, float8 and the integer dtypes, and the fallback for float32/float64/complex
 * when OpenBLAS is absent.
 *
 * <p>Arithmetic follows PyTorch's CPU kernels: reduced-precision floats are widened to float, accumulated in float and
 * rounded once at the store; float32 accumulates in float, float64 in double; integers accumulate in 64-bit wrapping
 * arithmetic, which, truncated at the store, equals the narrow type's own wrapping arithmetic; complex64/complex128
 * accumulate in double. Products use fused multiply-add, as BLAS kernels do. With {@code beta == 0} C is not read, so
 * NaN in C does not propagate (the BLAS convention PyTorch relies on for {@code addmm(beta=0)}).
 *
 * <p>Operands may have any strides (0 included). Float and double (the dtypes whose speed matters) are blocked for the
 * caches and run the Vector API kernels of {@link GemmSimd}. For float, B is packed once per matrix into panels of
 * {@link GemmSimd#FLOAT_PANEL} columns (transposing a transposed B on the way), and each panel of a contraction block
 * of {@link #KC} stays in L1 while every row of A passes it; A is read in place when it is float32 on the heap with
 * contiguous rows or columns (packing it cost a tenth of TrainGpt's GEMM time), and packed per chunk of {@link #MC}
 * rows otherwise. The output is computed in blocks of {@link #NC} columns. Double operands are packed row-major (B once
 * per matrix, A per chunk) and a KC x NC block of B stays in L2 while four rows of accumulators are updated from it.
 * Integer and complex products are plain loops. Rows are split across threads with {@link Parallel#forRange} once a
 * matrix is large; many small matrices are split by batch instead. The summation order of every output element is fixed
 * (k ascending), whatever the thread count.
 */
public final class JavaGemm {
    private JavaGemm() {}

    /** Columns of C per block of accumulators. */
    static final int NC = 256;
    /** Contraction length per block. */
    static final int KC = 128;
    /** Rows packed and accumulated at a time, which bounds the scratch arrays of a task. */
    static final int MC = 128;
    /** Multiply-adds worth a task of their own (about 20-50 µs here). */
    private static final long TASK_WORK = 1L << 18;

    /**
     * A batch of strided matrices of one dtype: element (b, i, j) is at element index {@code offset + b * batchStride +
     * i * rowStride + j * colStride} of {@code data} (complex elements count as one).
     */
    public record Operand(
            MemorySegment data, DType dtype, long offset, long batchStride, long rowStride, long colStride) {}

    /** The arithmetic a dtype is computed in. */
    private enum Domain {
        FLOAT,
        DOUBLE,
        LONG,
        COMPLEX
    }

    private static Domain domain(DType d) {
        if (d.isComplex()) return Domain.COMPLEX;
        if (d == DType.FLOAT64) return Domain.DOUBLE;
        if (d.isFloatingPoint()) return Domain.FLOAT;
        if (d.isIntegral(true)) return Domain.LONG;
        throw new TorchException("JavaGemm: unsupported dtype " + d);
    }

    /**
     * {@code C[b] = alpha * op(A[b]) B[b] + beta * C[b]} for {@code b < batch}, where A[b] is m x k, B[b] is k x n and
     * C[b] m x n; op conjugates A when {@code conjugateA} (complex dtypes only). The compute dtype is C's. C must not
     * overlap A or B. Alpha and beta are converted to the compute type (integers truncate, as ATen's
     * {@code Scalar::to<int64_t>}).
     */
    public static void gemm(
            long batch,
            int m,
            int n,
            int k,
            Scalar alpha,
            Scalar beta,
            Operand a,
            Operand b,
            Operand c,
            boolean conjugateA) {
        if (batch <= 0 || m == 0 || n == 0) return;
        long work = (long) m * n * Math.max(k, 1);
        if (batch > 1 && work < TASK_WORK) {
            // Small matrices: one task per group of whole matrices, each computed on one thread.
            Parallel.forRange(batch, Math.max(1, TASK_WORK / work), (s, e) -> {
                for (long i = s; i < e; i++) matrix(i, m, n, k, alpha, beta, a, b, c, conjugateA, false);
            });
        } else {
            for (long i = 0; i < batch; i++) matrix(i, m, n, k, alpha, beta, a, b, c, conjugateA, true);
        }
    }

    private static void matrix(
            long i,
            int m,
            int n,
            int k,
            Scalar alpha,
            Scalar beta,
            Operand a,
            Operand b,
            Operand c,
            boolean conjugateA,
            boolean parallel) {
        long ao = a.offset() + i * a.batchStride(),
                bo = b.offset() + i * b.batchStride(),
                co = c.offset() + i * c.batchStride();
        switch (domain(c.dtype())) {
            case FLOAT ->
                floatGemm(
                        m,
                        n,
                        k,
                        (float) alpha.doubleValue(),
                        (float) beta.doubleValue(),
                        a,
                        ao,
                        b,
                        bo,
                        c,
                        co,
                        parallel);
            case DOUBLE -> doubleGemm(m, n, k, alpha.doubleValue(), beta.doubleValue(), a, ao, b, bo, c, co, parallel);
            case LONG -> longGemm(m, n, k, alpha.longValue(), beta.longValue(), a, ao, b, bo, c, co, parallel);
            case COMPLEX -> complexGemm(m, n, k, alpha, beta, a, ao, b, bo, c, co, conjugateA, parallel);
        }
    }

    /**
     * Runs {@code body} over the rows of one matrix in chunks of at most {@link #MC} rows, split into tasks when the
     * matrix is worth it.
     */
    private static void forRows(int m, int n, int k, boolean parallel, Parallel.RangeBody body) {
        Parallel.RangeBody chunked = (s, e) -> {
            for (long r = s; r < e; r += MC) body.run(r, Math.min(e, r + MC));
        };
        long perRow = (long) n * Math.max(k, 1);
        if (!parallel) chunked.run(0, m);
        else Parallel.forRange(m, Math.max(4, (TASK_WORK + perRow - 1) / perRow), chunked);
    }

    /**
     * Whether the JVM's float vectors here are 512 bits wide (AVX-512), the width {@link GemmSimd#float8} is built for.
     */
    public static boolean hasWideFloatVectors() {
        return GemmSimd.floatLanes() == 16;
    }

    /** Size of a packed buffer, which must fit a Java array. */
    private static int packedSize(long rows, long cols, int components) {
        long n = rows * cols * components;
        if (n > Integer.MAX_VALUE - 8) {
            throw new TorchException("matmul: a " + rows + "x" + cols + " operand is too large for the Java GEMM");
        }
        return (int) n;
    }

    // ---- float: float32, float16, bfloat16, float8 --------------------------------------------------

    /**
     * A float k x n matrix B packed once for many products {@code C = alpha * A B + beta * C} with the same B (a
     * recurrent layer multiplies its hidden-state weight once per time step): see {@link #packFloat} and
     * {@link #gemmPacked}. Holds a copy: later writes to the source matrix do not reach it.
     */
    public static final class PackedFloat {
        private final float[] panels;
        private final int k, n;

        private PackedFloat(float[] panels, int k, int n) {
            this.panels = panels;
            this.k = k;
            this.n = n;
        }
    }

    /** Packs the k x n matrix {@code b} (any strides; float32, float16, bfloat16 or float8 elements). */
    public static PackedFloat packFloat(Operand b, int k, int n) {
        if (domain(b.dtype()) != Domain.FLOAT)
            throw new TorchException("JavaGemm: cannot pack " + b.dtype() + " as float");
        float[] panels = new float[panelsSize(k, n)];
        packFloatPanels(b, b.offset(), k, n, panels);
        return new PackedFloat(panels, k, n);
    }

    /**
     * {@code C = alpha * A B + beta * C} for one m x k matrix A and the packed B; C's dtype must be a float one. The
     * same bits as {@link #gemm} with B unpacked.
     */
    public static void gemmPacked(int m, Scalar alpha, Scalar beta, Operand a, PackedFloat b, Operand c) {
        if (domain(c.dtype()) != Domain.FLOAT) throw new TorchException("JavaGemm: a float product into " + c.dtype());
        if (m == 0 || b.n == 0) return;
        floatRows(
                m,
                b.n,
                b.k,
                (float) alpha.doubleValue(),
                (float) beta.doubleValue(),
                a,
                a.offset(),
                b.panels,
                c,
                c.offset(),
                true);
    }

    private static void floatGemm(
            int m,
            int n,
            int k,
            float alpha,
            float beta,
            Operand a,
            long ao,
            Operand b,
            long bo,
            Operand c,
            long co,
            boolean parallel) {
        float[] panels = packFloatPanels(b, bo, k, n);
        try {
            floatRows(m, n, k, alpha, beta, a, ao, panels, c, co, parallel);
        } finally {
            PANEL_SCRATCH.set(new SoftReference<>(panels));
        }
    }

    /** C's rows from A and B's packed panels (see {@link #packFloatPanels}). */
    private static void floatRows(
            int m,
            int n,
            int k,
            float alpha,
            float beta,
            Operand a,
            long ao,
            float[] panels,
            Operand c,
            long co,
            boolean parallel) {
        // A is read in place when its rows or its columns are contiguous (a weight gradient's transposed dY included).
        float[] aHeap = a.dtype() == DType.FLOAT32 ? heapFloats(a.data()) : null;
        boolean aInPlace = aHeap != null
                && (a.colStride() == 1 || a.rowStride() == 1)
                && a.rowStride() <= Integer.MAX_VALUE
                && a.colStride() <= Integer.MAX_VALUE;
        int width = GemmSimd.FLOAT_PANEL;
        forRows(m, n, k, parallel, (r0, r1) -> {
            int rows = (int) (r1 - r0);
            float[] as = aInPlace ? aHeap : new float[packedSize(rows, k, 1)];
            if (!aInPlace) packFloat(a, ao, (int) r0, rows, k, as);
            int a0 = aInPlace ? (int) (ao + r0 * a.rowStride()) : 0;
            int aRow = aInPlace ? (int) a.rowStride() : k, aCol = aInPlace ? (int) a.colStride() : 1;
            int ldc = roundUp(Math.min(NC, n), width);
            float[] acc = new float[rows * ldc];
            for (int jc = 0; jc < n; jc += NC) {
                int nc = Math.min(NC, n - jc);
                Arrays.fill(acc, 0f);
                for (int pc = 0; pc < k; pc += KC) {
                    int kc = Math.min(k, pc + KC) - pc, ac = a0 + pc * aCol;
                    // Panel by panel, every row: the panel stays in L1 while A's rows stream past it.
                    for (int j = 0; j < nc; j += width) {
                        int p0 = (jc + j) * k + pc * width;
                        int r = 0;
                        for (; r + GemmSimd.FLOAT_ROWS <= rows; r += GemmSimd.FLOAT_ROWS) {
                            GemmSimd.float8(as, ac + r * aRow, aRow, aCol, panels, p0, kc, acc, r * ldc + j, ldc);
                        }
                        for (; r < rows; r++)
                            GemmSimd.float1(as, ac + r * aRow, aCol, panels, p0, kc, acc, r * ldc + j);
                    }
                }
                storeFloat(c, co, (int) r0, rows, jc, nc, acc, ldc, alpha, beta);
            }
        });
    }

    private static int roundUp(int x, int multiple) {
        return (x + multiple - 1) / multiple * multiple;
    }

    /**
     * The packed panels of the last float product on this thread, reused by the next one: a training step multiplies
     * the same shapes again and again, and a fresh array of megabytes is zeroed on allocation, on the caller's thread
     * alone. Taken out while in use, so a nested product on the same thread gets its own.
     */
    private static final ThreadLocal<SoftReference<float[]>> PANEL_SCRATCH = new ThreadLocal<>();

    /**
     * B (k x n, any strides and float dtype) as the float kernels read it: panels of {@link GemmSimd#FLOAT_PANEL}
     * columns, panel {@code q} at {@code q * k * FLOAT_PANEL}, its row {@code p} {@code FLOAT_PANEL} floats from there
     * on. Columns past n hold whatever the array held: the accumulator lanes they feed are never stored. Packed once
     * per matrix, by all threads when it is large (a transposed B, as in {@code x @ W^T}, is transposed by the same
     * pass). The array comes from {@link #PANEL_SCRATCH} when it is large enough; the caller puts it back.
     */
    private static float[] packFloatPanels(Operand b, long bo, int k, int n) {
        int size = panelsSize(k, n);
        SoftReference<float[]> kept = PANEL_SCRATCH.get();
        float[] reused = kept == null ? null : kept.get();
        PANEL_SCRATCH.remove();
        float[] panels = reused != null && reused.length >= size ? reused : new float[size];
        packFloatPanels(b, bo, k, n, panels);
        return panels;
    }

    private static int panelsSize(int k, int n) {
        int width = GemmSimd.FLOAT_PANEL;
        return packedSize(k, (long) (n + width - 1) / width * width, 1);
    }

    private static void packFloatPanels(Operand b, long bo, int k, int n, float[] panels) {
        int width = GemmSimd.FLOAT_PANEL, count = (n + width - 1) / width;
        if (k == 0) return; // nothing to read, and row offsets may point past the storage
        long perPanel = (long) k * width;
        Parallel.forRange(count, Math.max(1, TASK_WORK / 4 / perPanel), (q0, q1) -> {
            for (int q = (int) q0; q < q1; q++)
                packFloatPanel(b, bo, k, q * width, Math.min(width, n - q * width), panels);
        });
    }

    /** Columns {@code [j0, j0 + w)} of B into their panel. */
    private static void packFloatPanel(Operand b, long bo, int k, int j0, int w, float[] panels) {
        int width = GemmSimd.FLOAT_PANEL, dst = j0 * k;
        long rs = b.rowStride(), cs = b.colStride(), first = bo + j0 * cs;

        float[] heap = b.dtype() == DType.FLOAT32 ? heapFloats(b.data()) : null;
        if (heap != null && cs == 1) {
            for (int p = 0; p < k; p++) System.arraycopy(heap, (int) (first + p * rs), panels, dst + p * width, w);
        } else if (heap != null) { // columns strided (a transposed B): walk each column down, along its rows
            for (int j = 0; j < w; j++) {
                long e = first + j * cs;
                for (int p = 0; p < k; p++) panels[dst + p * width + j] = heap[(int) (e + p * rs)];
            }
        } else {
            ElementIO io = ElementIO.of(b.dtype());
            MemorySegment s = b.data();
            for (int p = 0; p < k; p++) {
                for (int j = 0; j < w; j++)
                    panels[dst + p * width + j] = (float) io.getDouble(s, first + p * rs + j * cs);
            }
        }
    }

    /** Rows {@code [r0, r0 + rows)} of x, columns {@code [0, cols)}, into {@code dst} row-major. */
    private static void packFloat(Operand x, long base, int r0, int rows, int cols, float[] dst) {
        if (cols == 0 || rows == 0) return; // k == 0: nothing to read, and row offsets may point past the storage
        long rs = x.rowStride(), cs = x.colStride(), start = base + r0 * rs;
        float[] heap = x.dtype() == DType.FLOAT32 ? heapFloats(x.data()) : null;
        if (heap != null) {
            for (int i = 0; i < rows; i++) {
                long e = start + i * rs;
                if (cs == 1) System.arraycopy(heap, (int) e, dst, i * cols, cols);
                else for (int j = 0; j < cols; j++) dst[i * cols + j] = heap[(int) (e + j * cs)];
            }
            return;
        }
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.data();
        for (int i = 0; i < rows; i++) {
            long e = start + i * rs;
            for (int j = 0; j < cols; j++) dst[i * cols + j] = (float) io.getDouble(s, e + j * cs);
        }
    }

    /**
     * Columns {@code [jc, jc + nc)} of C's rows {@code [r0, r0 + rows)} from the accumulators (row i at {@code i *
     * ldc}).
     */
    private static void storeFloat(
            Operand c, long co, int r0, int rows, int jc, int nc, float[] acc, int ldc, float alpha, float beta) {
        long rs = c.rowStride(), cs = c.colStride();
        float[] heap = c.dtype() == DType.FLOAT32 && cs == 1 ? heapFloats(c.data()) : null;
        if (heap != null) { // the common float32 output, without a per-element dtype dispatch
            for (int i = 0; i < rows; i++) {
                int e = (int) (co + (r0 + i) * rs + jc), from = i * ldc;
                if (alpha == 1 && beta == 0) System.arraycopy(acc, from, heap, e, nc);
                else if (beta == 0) for (int j = 0; j < nc; j++) heap[e + j] = alpha * acc[from + j];
                else for (int j = 0; j < nc; j++) heap[e + j] = alpha * acc[from + j] + beta * heap[e + j];
            }
            return;
        }
        ElementIO io = ElementIO.of(c.dtype());
        MemorySegment s = c.data();
        for (int i = 0; i < rows; i++) {
            long e = co + (r0 + i) * rs + jc * cs;
            for (int j = 0; j < nc; j++) {
                long idx = e + j * cs;
                float v = alpha * acc[i * ldc + j];
                if (beta != 0) v += beta * (float) io.getDouble(s, idx);
                io.setDouble(s, idx, v); // v is a float, so a narrower storage format rounds it exactly once
            }
        }
    }

    // ---- double: float64 ----------------------------------------------------------------------------

    private static void doubleGemm(
            int m,
            int n,
            int k,
            double alpha,
            double beta,
            Operand a,
            long ao,
            Operand b,
            long bo,
            Operand c,
            long co,
            boolean parallel) {
        double[] bp = new double[packedSize(k, n, 1)];
        packDouble(b, bo, 0, k, n, bp);
        forRows(m, n, k, parallel, (r0, r1) -> {
            int rows = (int) (r1 - r0);
            double[] ap = new double[packedSize(rows, k, 1)];
            packDouble(a, ao, (int) r0, rows, k, ap);
            double[] acc = new double[rows * Math.min(NC, n)];
            for (int jc = 0; jc < n; jc += NC) {
                int nc = Math.min(NC, n - jc);
                Arrays.fill(acc, 0.0);
                for (int pc = 0; pc < k; pc += KC) {
                    int pe = Math.min(k, pc + KC);
                    int r = 0;
                    for (; r + 4 <= rows; r += 4) GemmSimd.double4(ap, r * k, k, bp, n, jc, nc, pc, pe, acc, r * nc);
                    for (; r < rows; r++) GemmSimd.double1(ap, r * k, bp, n, jc, nc, pc, pe, acc, r * nc);
                }
                storeDouble(c, co, (int) r0, rows, jc, nc, acc, alpha, beta);
            }
        });
    }

    private static void packDouble(Operand x, long base, int r0, int rows, int cols, double[] dst) {
        if (cols == 0) return; // k == 0: nothing to read, and row offsets may point past the storage
        long rs = x.rowStride(), cs = x.colStride(), start = base + r0 * rs;
        double[] heap = x.dtype() == DType.FLOAT64 ? heapDoubles(x.data()) : null;
        if (heap != null) {
            for (int i = 0; i < rows; i++) {
                long e = start + i * rs;
                if (cs == 1) System.arraycopy(heap, (int) e, dst, i * cols, cols);
                else for (int j = 0; j < cols; j++) dst[i * cols + j] = heap[(int) (e + j * cs)];
            }
            return;
        }
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.data();
        for (int i = 0; i < rows; i++) {
            long e = start + i * rs;
            for (int j = 0; j < cols; j++) dst[i * cols + j] = io.getDouble(s, e + j * cs);
        }
    }

    private static void storeDouble(
            Operand c, long co, int r0, int rows, int jc, int nc, double[] acc, double alpha, double beta) {
        long rs = c.rowStride(), cs = c.colStride();
        ElementIO io = ElementIO.of(c.dtype());
        MemorySegment s = c.data();
        for (int i = 0; i < rows; i++) {
            long e = co + (r0 + i) * rs + jc * cs;
            for (int j = 0; j < nc; j++) {
                long idx = e + j * cs;
                double v = alpha * acc[i * nc + j];
                if (beta != 0) v += beta * io.getDouble(s, idx);
                io.setDouble(s, idx, v);
            }
        }
    }

    // ---- long: integers -----------------------------------------------------------------------------

    private static void longGemm(
            int m,
            int n,
            int k,
            long alpha,
            long beta,
            Operand a,
            long ao,
            Operand b,
            long bo,
            Operand c,
            long co,
            boolean parallel) {
        long[] bp = new long[packedSize(k, n, 1)];
        packLong(b, bo, 0, k, n, bp);
        forRows(m, n, k, parallel, (r0, r1) -> {
            int rows = (int) (r1 - r0);
            long[] ap = new long[packedSize(rows, k, 1)];
            packLong(a, ao, (int) r0, rows, k, ap);
            long[] acc = new long[rows * Math.min(NC, n)];
            for (int jc = 0; jc < n; jc += NC) {
                int nc = Math.min(NC, n - jc);
                Arrays.fill(acc, 0L);
                for (int r = 0; r < rows; r++) {
                    int c0 = r * nc;
                    for (int p = 0; p < k; p++) {
                        long x = ap[r * k + p];
                        int row = p * n + jc;
                        for (int j = 0; j < nc; j++) acc[c0 + j] += x * bp[row + j];
                    }
                }
                ElementIO io = ElementIO.of(c.dtype());
                MemorySegment s = c.data();
                for (int i = 0; i < rows; i++) {
                    long e = co + (r0 + i) * c.rowStride() + jc * c.colStride();
                    for (int j = 0; j < nc; j++) {
                        long idx = e + j * c.colStride();
                        long v = alpha * acc[i * nc + j];
                        if (beta != 0) v += beta * io.getLong(s, idx);
                        io.setLong(s, idx, v);
                    }
                }
            }
        });
    }

    private static void packLong(Operand x, long base, int r0, int rows, int cols, long[] dst) {
        if (cols == 0) return; // k == 0: nothing to read, and row offsets may point past the storage
        long rs = x.rowStride(), cs = x.colStride(), start = base + r0 * rs;
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.data();
        for (int i = 0; i < rows; i++) {
            long e = start + i * rs;
            for (int j = 0; j < cols; j++) dst[i * cols + j] = io.getLong(s, e + j * cs);
        }
    }

    // ---- complex: (re, im) pairs in double ------------------------------------------------------------

    private static void complexGemm(
            int m,
            int n,
            int k,
            Scalar alpha,
            Scalar beta,
            Operand a,
            long ao,
            Operand b,
            long bo,
            Operand c,
            long co,
            boolean conjugateA,
            boolean parallel) {
        double[] bp = new double[packedSize(k, n, 2)];
        packComplex(b, bo, 0, k, n, bp, false);
        double alphaRe = alpha.doubleValue(), alphaIm = alpha.imag(), betaRe = beta.doubleValue(), betaIm = beta.imag();
        boolean readC = betaRe != 0 || betaIm != 0;
        forRows(m, n, k, parallel, (r0, r1) -> {
            int rows = (int) (r1 - r0);
            double[] ap = new double[packedSize(rows, k, 2)];
            packComplex(a, ao, (int) r0, rows, k, ap, conjugateA);
            double[] acc = new double[2 * Math.min(NC, n)];
            ElementIO io = ElementIO.of(c.dtype());
            MemorySegment s = c.data();
            for (int jc = 0; jc < n; jc += NC) {
                int nc = Math.min(NC, n - jc);
                for (int r = 0; r < rows; r++) {
                    Arrays.fill(acc, 0.0);
                    for (int p = 0; p < k; p++) {
                        double xr = ap[2 * (r * k + p)], xi = ap[2 * (r * k + p) + 1];
                        int row = 2 * (p * n + jc);
                        for (int j = 0; j < nc; j++) {
                            double yr = bp[row + 2 * j], yi = bp[row + 2 * j + 1];
                            acc[2 * j] = Math.fma(xr, yr, Math.fma(-xi, yi, acc[2 * j]));
                            acc[2 * j + 1] = Math.fma(xr, yi, Math.fma(xi, yr, acc[2 * j + 1]));
                        }
                    }
                    long e = co + (r0 + r) * c.rowStride() + jc * c.colStride();
                    for (int j = 0; j < nc; j++) {
                        long idx = e + j * c.colStride();
                        double sr = acc[2 * j], si = acc[2 * j + 1];
                        double vr = alphaRe * sr - alphaIm * si, vi = alphaRe * si + alphaIm * sr;
                        if (readC) {
                            double or = io.getDouble(s, idx), oi = io.getImag(s, idx);
                            vr += betaRe * or - betaIm * oi;
                            vi += betaRe * oi + betaIm * or;
                        }
                        io.setComplex(s, idx, vr, vi);
                    }
                }
            }
        });
    }

    private static void packComplex(Operand x, long base, int r0, int rows, int cols, double[] dst, boolean conjugate) {
        if (cols == 0) return; // k == 0: nothing to read, and row offsets may point past the storage
        long rs = x.rowStride(), cs = x.colStride(), start = base + r0 * rs;
        ElementIO io = ElementIO.of(x.dtype());
        MemorySegment s = x.data();
        double sign = conjugate ? -1 : 1;
        for (int i = 0; i < rows; i++) {
            long e = start + i * rs;
            for (int j = 0; j < cols; j++) {
                int d = 2 * (i * cols + j);
                dst[d] = io.getDouble(s, e + j * cs);
                dst[d + 1] = sign * io.getImag(s, e + j * cs);
            }
        }
    }

    // A heap segment that spans its whole array has element indices equal to array indices: the
    // packers then copy rows with System.arraycopy instead of reading element by element.

    private static float[] heapFloats(MemorySegment s) {
        return s.heapBase().orElse(null) instanceof float[] f && s.byteSize() == (long) f.length * Float.BYTES
                ? f
                : null;
    }

    private static double[] heapDoubles(MemorySegment s) {
        return s.heapBase().orElse(null) instanceof double[] d && s.byteSize() == (long) d.length * Double.BYTES
                ? d
                : null;
    }
}

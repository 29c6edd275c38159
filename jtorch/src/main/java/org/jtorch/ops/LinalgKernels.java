package org.jtorch.ops;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.IntFunction;
import org.jtorch.DType;
import org.jtorch.LinAlgException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DeterministicAlgorithms;
import org.jtorch.kernels.blas.IdleCores;
import org.jtorch.kernels.blas.Lapack;
import org.jtorch.kernels.blas.OpenBlas;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * CPU kernels of {@link LinalgOps}: each batch element is copied into column-major native scratch (float64, or
 * complex128 as interleaved doubles), factorised by LAPACK and copied out; float32 and complex64 are computed in double
 * precision and rounded. Batches are spread over the LAPACK workers. Kernels return LAPACK's info per batch element;
 * the callers turn it into PyTorch's error or the {@code info} tensor of an {@code *_ex} op.
 */
final class LinalgKernels {
    private LinalgKernels() {}

    static long batches(Tensor a) {
        long count = 1;
        for (int d = 0; d < a.dim() - 2; d++) count *= a.size(d);
        return count;
    }

    /**
     * LAPACK runs with one OpenBLAS thread per call, batches spread over the workers. Measured on this project's shared
     * 2-core machine under load: cholesky / eigh / svd of 512 x 512 float64 took 24 / 174 / 490 ms with one OpenBLAS
     * thread and 380-810 / 2200-4200 / 3700-4600 ms with two, whose hand-offs stall whenever another process holds a
     * core.
     */
    private static void forEach(long count, Lapack.Range body) {
        Lapack.forEach(count, count > 1, true, body);
    }

    /**
     * As {@link #forEach}, except that a single matrix of order at least {@link #THREADED_ORDER} runs with OpenBLAS's
     * own threads when they would find idle cores ({@link IdleCores}): sampled at idle moments of the 2-core machine,
     * order 512 took 22 ms with 2 threads and 31 ms with 1 (dsyevd), 65 and 75 ms (dgesdd). dpotrf's two threads
     * measured 1.2 ms in one run and 2.3 in another against a steady 1.5 single-threaded, and its 2.5 ms total is
     * already under PyTorch's, so cholesky does not ask. Never in deterministic mode: OpenBLAS's threaded routines
     * round differently from its single-threaded ones, so the result would depend on the machine's load.
     */
    private static void forEachThreadedWhenIdle(long count, long order, Lapack.Range body) {
        boolean threaded = count == 1
                && order >= THREADED_ORDER
                && !DeterministicAlgorithms.enabled()
                && IdleCores.available(OpenBlas.numThreads());
        Lapack.forEach(count, count > 1, !threaded, body);
    }

    private static final long THREADED_ORDER = 256;

    static int order(String api, long n) {
        if (n > 46340) throw new TorchException(api + ": matrices of order " + n + " exceed LAPACK's int32 indexing");
        return (int) n;
    }

    /** Storage index of element (0, 0) of matrix {@code b} (row-major over the batch dims) of {@code t}. */
    private static long matrixOffset(Tensor t, long b) {
        long off = t.storageOffset();
        long[] shape = t.impl().shapeRef(), strides = t.impl().strideRef();
        for (int d = t.dim() - 3; d >= 0; d--) {
            off += (b % shape[d]) * strides[d];
            b /= shape[d];
        }
        return off;
    }

    /** Column-major scratch for {@code count} elements of the given kind. */
    static MemorySegment scratch(Arena arena, long count, boolean complex) {
        return arena.allocate(Math.max(1, count) * (complex ? 2 : 1) * Double.BYTES, Double.BYTES);
    }

    /**
     * Copies matrix {@code b} of {@code t} (any strides) into {@code dst} column-major with leading dimension ld; with
     * {@code transpose} its transpose (so a row-major read of t). Matrices of the four LAPACK dtypes whose rows or
     * columns are contiguous move run by run (float64 / complex128 by bulk copies), or by a blocked transpose; the
     * per-element path (any dtype, any strides) took ~10 ns an element, longer than a 512 x 512 Cholesky factorisation
     * itself.
     */
    static void load(Tensor t, long b, MemorySegment dst, int ld, boolean complex, boolean transpose) {
        int rows = (int) t.size(-2), cols = (int) t.size(-1);
        if (rows == 0 || cols == 0) return; // an empty matrix of a batch may sit past the end of its storage
        long rs = t.stride(-2), cs = t.stride(-1), base = matrixOffset(t, b);
        Object src = t.impl().storage().array();
        if (plainArray(t.dtype(), complex, src)) {
            int w = complex ? 2 : 1;
            if (transpose ? cs == 1 : rs == 1) { // each destination column is a contiguous source run
                int runs = transpose ? rows : cols, len = (transpose ? cols : rows) * w;
                long step = transpose ? rs : cs;
                for (int r = 0; r < runs; r++) {
                    int from = Math.toIntExact((base + r * step) * w);
                    long to = (long) r * ld * w;
                    if (src instanceof double[] d) {
                        MemorySegment.copy(d, from, dst, JAVA_DOUBLE, to * Double.BYTES, len);
                    } else {
                        float[] f = (float[]) src;
                        for (int e = 0; e < len; e++) dst.setAtIndex(JAVA_DOUBLE, to + e, f[from + e]);
                    }
                }
                return;
            }
            if (transpose ? rs == 1 : cs == 1) {
                // dst(i, j) = src(i * step + j), i over the destination's rows, in tiles that stay in cache
                int dRows = transpose ? cols : rows, dCols = transpose ? rows : cols;
                long step = transpose ? cs : rs;
                for (int j0 = 0; j0 < dCols; j0 += TILE) {
                    int j1 = Math.min(dCols, j0 + TILE);
                    for (int i0 = 0; i0 < dRows; i0 += TILE) {
                        int i1 = Math.min(dRows, i0 + TILE);
                        for (int j = j0; j < j1; j++) {
                            long d = (i0 + (long) j * ld) * w;
                            for (int i = i0; i < i1; i++, d += w) {
                                int at = Math.toIntExact((base + i * step + j) * w);
                                dst.setAtIndex(JAVA_DOUBLE, d, get(src, at));
                                if (complex) dst.setAtIndex(JAVA_DOUBLE, d + 1, get(src, at + 1));
                            }
                        }
                    }
                }
                return;
            }
        }
        ElementIO io = ElementIO.of(t.dtype());
        MemorySegment data = t.impl().storage().segment();
        for (long j = 0; j < cols; j++) {
            for (long i = 0; i < rows; i++) {
                long from = base + i * rs + j * cs, at = transpose ? j + i * ld : i + j * ld;
                if (complex) {
                    dst.setAtIndex(JAVA_DOUBLE, 2 * at, io.getDouble(data, from));
                    dst.setAtIndex(JAVA_DOUBLE, 2 * at + 1, io.getImag(data, from));
                } else {
                    dst.setAtIndex(JAVA_DOUBLE, at, io.getDouble(data, from));
                }
            }
        }
    }

    /** Side of the square tiles the blocked transposes copy at a time (2 x 32 x 32 doubles fit in L1). */
    private static final int TILE = 32;

    /**
     * Whether the storage is a plain array of the dtype's components: double[] for float64 / complex128, float[] for
     * float32 / complex64 (complex as (re, im) pairs), so element k is component(s) at k * w.
     */
    private static boolean plainArray(DType dtype, boolean complex, Object array) {
        if (array instanceof double[]) return complex ? dtype == DType.COMPLEX128 : dtype == DType.FLOAT64;
        if (array instanceof float[]) return complex ? dtype == DType.COMPLEX64 : dtype == DType.FLOAT32;
        return false;
    }

    private static double get(Object array, int i) {
        return array instanceof double[] d ? d[i] : ((float[]) array)[i];
    }

    private static void set(Object array, int i, double v) {
        if (array instanceof double[] d) d[i] = v;
        else ((float[]) array)[i] = (float) v;
    }

    /**
     * Writes the rows x cols column-major {@code src} (transposed if asked: then src is cols x rows) as matrix
     * {@code b} of the contiguous {@code out}; {@code triangle} -1 keeps only the lower triangle, 1 only the upper one
     * (the other is written as zero), 0 everything. Outputs of the four LAPACK dtypes take row copies (transposed; bulk
     * for float64 / complex128) or a blocked transpose.
     */
    static void store(MemorySegment src, int ld, boolean complex, Tensor out, long b, boolean transpose, int triangle) {
        int rows = (int) out.size(-2), cols = (int) out.size(-1);
        long base = out.storageOffset() + b * rows * cols;
        if (rows == 0 || cols == 0) return;
        Object dst = out.impl().storage().array();
        if (plainArray(out.dtype(), complex, dst)) {
            int w = complex ? 2 : 1;
            if (transpose) { // row i of out is src's column i
                for (int i = 0; i < rows; i++) {
                    long from = (long) i * ld * w;
                    int to = Math.toIntExact((base + (long) i * cols) * w);
                    if (dst instanceof double[] d) {
                        MemorySegment.copy(src, JAVA_DOUBLE, from * Double.BYTES, d, to, cols * w);
                    } else {
                        float[] f = (float[]) dst;
                        for (int e = 0; e < cols * w; e++) f[to + e] = (float) src.getAtIndex(JAVA_DOUBLE, from + e);
                    }
                }
            } else {
                for (int i0 = 0; i0 < rows; i0 += TILE) {
                    int i1 = Math.min(rows, i0 + TILE);
                    for (int j0 = 0; j0 < cols; j0 += TILE) {
                        int j1 = Math.min(cols, j0 + TILE);
                        for (int i = i0; i < i1; i++) {
                            int d = Math.toIntExact((base + (long) i * cols + j0) * w);
                            for (int j = j0; j < j1; j++, d += w) {
                                long at = (i + (long) j * ld) * w;
                                set(dst, d, src.getAtIndex(JAVA_DOUBLE, at));
                                if (complex) set(dst, d + 1, src.getAtIndex(JAVA_DOUBLE, at + 1));
                            }
                        }
                    }
                }
            }
            if (triangle != 0) {
                for (int i = 0; i < rows; i++) {
                    int from = triangle < 0 ? Math.min(cols, i + 1) : 0, to = triangle < 0 ? cols : Math.min(cols, i);
                    if (from >= to) continue;
                    int lo = Math.toIntExact((base + (long) i * cols + from) * w),
                            hi = Math.toIntExact((base + (long) i * cols + to) * w);
                    if (dst instanceof double[] d) Arrays.fill(d, lo, hi, 0.0);
                    else Arrays.fill((float[]) dst, lo, hi, 0f);
                }
            }
            return;
        }
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment data = out.impl().storage().segment();
        for (long i = 0; i < rows; i++) {
            for (long j = 0; j < cols; j++) {
                long to = base + i * cols + j;
                if ((triangle < 0 && j > i) || (triangle > 0 && j < i)) {
                    io.setComplex(data, to, 0, 0);
                    continue;
                }
                long at = transpose ? j + i * ld : i + j * ld;
                if (complex)
                    io.setComplex(
                            data, to, src.getAtIndex(JAVA_DOUBLE, 2 * at), src.getAtIndex(JAVA_DOUBLE, 2 * at + 1));
                else io.setDouble(data, to, src.getAtIndex(JAVA_DOUBLE, at));
            }
        }
    }

    /** True when the first {@code doubles} doubles of a scratch matrix (ld = rows) include a NaN or infinity. */
    static boolean nonFinite(MemorySegment m, long doubles) {
        for (long i = 0; i < doubles; i++) {
            if (!Double.isFinite(m.getAtIndex(JAVA_DOUBLE, i))) return true;
        }
        return false;
    }

    /** Fills {@code out} (contiguous) rows of batch element b with NaN. */
    private static void fillNaN(Tensor out, long b, long perBatch) {
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment data = out.impl().storage().segment();
        for (long i = 0; i < perBatch; i++)
            io.setComplex(data, out.storageOffset() + b * perBatch + i, Double.NaN, Double.NaN);
    }

    /** PyTorch's "(Batch element i): " prefix, only for batched inputs. */
    static String where(int batchDims, long b) {
        return batchDims > 0 ? "(Batch element " + b + "): " : "";
    }

    /** The first failing batch element, or -1. */
    static int firstFailure(int[] info) {
        for (int b = 0; b < info.length; b++) if (info[b] != 0) return b;
        return -1;
    }

    /** Writes the int32 info codes into {@code out} (contiguous, one per batch element). */
    static void storeInfo(int[] info, Tensor out) {
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment data = out.impl().storage().segment();
        for (int b = 0; b < info.length; b++) io.setLong(data, out.storageOffset() + b, info[b]);
    }

    // ---------------------------------------------------------------- factorisations

    /**
     * Cholesky factor per matrix into {@code out}; the info codes (k: leading minor of order k not positive-definite).
     */
    static int[] cholesky(Tensor a, boolean upper, Tensor out) {
        int n = order("linalg.cholesky", a.size(-1)), ld = Math.max(1, n);
        boolean complex = a.isComplex();
        int[] info = new int[Math.toIntExact(batches(a))];
        forEach(info.length, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, (long) n * n, complex);
                for (long b = from; b < to; b++) {
                    // Read row-major, the scratch holds A^T = conj(A), whose other triangle is A's chosen one:
                    // its factor in that triangle, read back row-major, is A's (the factor is unique), so
                    // neither copy transposes.
                    load(a, b, m, ld, complex, true);
                    int i = Lapack.potrf(complex, !upper, n, m, ld);
                    info[(int) b] = i == 0 ? firstNanPivot(m, n, ld, complex) : i;
                    store(m, ld, complex, out, b, true, upper ? 1 : -1);
                }
            }
        });
        return info;
    }

    /**
     * Reference LAPACK's potrf stops at the first pivot that is not positive or is NaN (info = its order), and PyTorch
     * reports that; OpenBLAS's tests only {@code <= 0}, so a NaN pivot passes and the factor fills with NaN under info
     * 0. A NaN pivot leaves a NaN on the factor's diagonal and every later pivot depends on the earlier ones, so the
     * first NaN diagonal entry is the pivot at which reference LAPACK would have stopped. 0 when there is none.
     */
    private static int firstNanPivot(MemorySegment m, int n, int ld, boolean complex) {
        int width = complex ? 2 : 1;
        for (int j = 0; j < n; j++) {
            long at = ((long) j * ld + j) * width;
            if (Double.isNaN(m.getAtIndex(JAVA_DOUBLE, at))) return j + 1;
            if (complex && Double.isNaN(m.getAtIndex(JAVA_DOUBLE, at + 1))) return j + 1;
        }
        return 0;
    }

    /** Inverse per matrix; info k: {@code U[k-1, k-1]} of the LU is zero. */
    static int[] inv(Tensor a, Tensor out) {
        int n = order("linalg.inv", a.size(-1)), ld = Math.max(1, n);
        boolean complex = a.isComplex();
        int[] info = new int[Math.toIntExact(batches(a))];
        forEach(info.length, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, (long) n * n, complex), piv = arena.allocate(JAVA_INT, Math.max(1, n));
                for (long b = from; b < to; b++) {
                    load(a, b, m, ld, complex, false);
                    int i = Lapack.getrf(complex, n, n, m, ld, piv);
                    if (i == 0) i = Lapack.getri(complex, n, m, ld, piv);
                    info[(int) b] = i;
                    store(m, ld, complex, out, b, false, 0);
                }
            }
        });
        return info;
    }

    /**
     * det (when {@code logabs} is null: into {@code first}) or slogdet (sign into {@code first}, log|det| into
     * {@code logabs}) from an LU factorisation; a singular matrix gives 0, or (0, -inf).
     */
    static void det(Tensor a, Tensor first, Tensor logabs) {
        int n = order("linalg.det", a.size(-1)), ld = Math.max(1, n);
        boolean complex = a.isComplex();
        ElementIO io = ElementIO.of(first.dtype());
        ElementIO logIo = logabs == null ? null : ElementIO.of(logabs.dtype());
        MemorySegment data = first.impl().storage().segment(),
                logData = logabs == null ? null : logabs.impl().storage().segment();
        forEach(batches(a), (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, (long) n * n, complex), piv = arena.allocate(JAVA_INT, Math.max(1, n));
                for (long b = from; b < to; b++) {
                    load(a, b, m, ld, complex, false);
                    Lapack.getrf(complex, n, n, m, ld, piv);
                    // product of U's diagonal as sign (unit modulus) times exp(sum of log|u|), which cannot overflow
                    double sr = 1, si = 0, log = 0;
                    for (int i = 0; i < n; i++) {
                        long at = (long) i * ld + i;
                        double ur = complex ? m.getAtIndex(JAVA_DOUBLE, 2 * at) : m.getAtIndex(JAVA_DOUBLE, at);
                        double ui = complex ? m.getAtIndex(JAVA_DOUBLE, 2 * at + 1) : 0;
                        if (piv.getAtIndex(JAVA_INT, i) != i + 1) {
                            sr = -sr;
                            si = -si;
                        }
                        double abs = Math.hypot(ur, ui);
                        double pr = abs == 0 ? 0 : ur / abs, pi = abs == 0 ? 0 : ui / abs;
                        if (Double.isNaN(abs)) pr = pi = Double.NaN;
                        double nr = sr * pr - si * pi, ni = sr * pi + si * pr;
                        sr = nr;
                        si = ni;
                        log += Math.log(abs);
                    }
                    long at = first.storageOffset() + b;
                    if (logabs == null) {
                        double mag = Math.exp(log);
                        io.setComplex(data, at, sr * mag, si * mag);
                    } else {
                        io.setComplex(data, at, sr, si);
                        boolean singular = sr == 0 && si == 0;
                        logIo.setDouble(logData, logabs.storageOffset() + b, singular ? Double.NEGATIVE_INFINITY : log);
                    }
                }
            }
        });
    }

    /**
     * Solves per broadcast batch element {@code A X = B} (left) or {@code X A = B} as {@code A^T X^T = B^T}; {@code as}
     * and {@code bs} are A and B expanded to the output's batch, B as matrices {@code (*, n, k)} (left) or {@code (*,
     * k, n)}, and out has B's matrix shape. Info k: the LU's pivot k is zero.
     */
    static int[] solve(Tensor as, Tensor bs, boolean left, Tensor out) {
        int n = order("linalg.solve", as.size(-1)), ld = Math.max(1, n);
        int k = Math.toIntExact(left ? bs.size(-1) : bs.size(-2));
        boolean complex = as.isComplex();
        int[] info = new int[Math.toIntExact(batches(as))];
        forEach(info.length, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, (long) n * n, complex), piv = arena.allocate(JAVA_INT, Math.max(1, n));
                MemorySegment rhs = scratch(arena, (long) n * k, complex);
                for (long b = from; b < to; b++) {
                    load(as, b, m, ld, complex, false);
                    int i = Lapack.getrf(complex, n, n, m, ld, piv);
                    info[(int) b] = i;
                    load(bs, b, rhs, ld, complex, !left);
                    if (i == 0) Lapack.getrs(complex, left ? 'N' : 'T', n, k, m, ld, piv, rhs, ld);
                    store(rhs, ld, complex, out, b, !left, 0);
                }
            }
        });
        return info;
    }

    /**
     * Eigen-decomposition of the Hermitian matrices of a read from one triangle: ascending eigenvalues into
     * {@code values}, eigenvectors as columns of {@code vectors} (null: values only). Non-finite input gives NaN
     * outputs without calling LAPACK (as PyTorch's results; LAPACK may not terminate).
     */
    static int[] eigh(Tensor a, boolean upper, Tensor values, Tensor vectors) {
        int n = order("linalg.eigh", a.size(-1)), ld = Math.max(1, n);
        boolean complex = a.isComplex();
        ElementIO io = ElementIO.of(values.dtype());
        MemorySegment data = values.impl().storage().segment();
        int[] info = new int[Math.toIntExact(batches(a))];
        forEachThreadedWhenIdle(info.length, n, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, (long) n * n, complex), w = scratch(arena, n, false);
                for (long b = from; b < to; b++) {
                    load(a, b, m, ld, complex, false);
                    if (nonFinite(m, (long) n * n * (complex ? 2 : 1))) {
                        fillNaN(values, b, n);
                        if (vectors != null) fillNaN(vectors, b, (long) n * n);
                        continue;
                    }
                    info[(int) b] = Lapack.heevd(complex, vectors != null, upper, n, m, ld, w);
                    for (int i = 0; i < n; i++)
                        io.setDouble(data, values.storageOffset() + b * n + i, w.getAtIndex(JAVA_DOUBLE, i));
                    if (vectors != null) store(m, ld, complex, vectors, b, false, 0);
                }
            }
        });
        return info;
    }

    /**
     * SVD per matrix: descending singular values into s; with u and vh (both null for values only) the full
     * ({@code full}) or reduced factors. Returns -1 for a batch element with non-finite entries (PyTorch refuses
     * those), else LAPACK's info.
     */
    static int[] svd(Tensor a, boolean full, Tensor s, Tensor u, Tensor vh) {
        int m = order("linalg.svd", a.size(-2)), n = order("linalg.svd", a.size(-1)), k = Math.min(m, n);
        int lda = Math.max(1, m);
        boolean complex = a.isComplex(), vectors = u != null;
        char jobz = !vectors ? 'N' : full ? 'A' : 'S';
        int uCols = full ? m : k, vRows = full ? n : k;
        int ldu = Math.max(1, m), ldvt = Math.max(1, vRows);
        ElementIO io = ElementIO.of(s.dtype());
        MemorySegment sData = s.impl().storage().segment();
        int[] info = new int[Math.toIntExact(batches(a))];
        forEachThreadedWhenIdle(info.length, Math.min(m, n), (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment am = scratch(arena, (long) m * n, complex), sv = scratch(arena, k, false);
                MemorySegment um = scratch(arena, vectors ? (long) m * uCols : 1, complex);
                MemorySegment vm = scratch(arena, vectors ? (long) vRows * n : 1, complex);
                for (long b = from; b < to; b++) {
                    load(a, b, am, lda, complex, false);
                    if (nonFinite(am, (long) m * n * (complex ? 2 : 1))) {
                        info[(int) b] = -1;
                        continue;
                    }
                    int i = Lapack.gesdd(complex, jobz, m, n, am, lda, sv, um, ldu, vm, ldvt);
                    info[(int) b] = i;
                    for (int j = 0; j < k; j++)
                        io.setDouble(sData, s.storageOffset() + b * k + j, sv.getAtIndex(JAVA_DOUBLE, j));
                    if (vectors) {
                        store(um, ldu, complex, u, b, false, 0);
                        store(vm, ldvt, complex, vh, b, false, 0);
                    }
                }
            }
        });
        return info;
    }

    /**
     * {@code matrix_sqrth} per matrix, fused: dsyevd/zheevd of the lower triangle, the eigenvectors' columns scaled by
     * {@code max(lambda, 0)^(1/4)} into W, then one GEMM {@code W W^H}, all in the worker's scratch, so a batch runs
     * wholly in parallel and no eigenvector tensor is made. Non-finite input gives NaN (as eigh's NaN outputs would).
     * Returns the eigensolver's info per matrix.
     */
    static int[] matrixSqrth(Tensor a, Tensor out) {
        int n = order("linalg.matrix_sqrth", a.size(-1)), ld = Math.max(1, n);
        boolean complex = a.isComplex();
        long nn = (long) n * n;
        int[] info = new int[Math.toIntExact(batches(a))];
        forEachThreadedWhenIdle(info.length, n, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment m = scratch(arena, nn, complex),
                        w = scratch(arena, n, false),
                        x = scratch(arena, nn, complex);
                for (long b = from; b < to; b++) {
                    load(a, b, m, ld, complex, false);
                    if (nonFinite(m, nn * (complex ? 2 : 1))) {
                        fillNaN(out, b, nn);
                        continue;
                    }
                    info[(int) b] = Lapack.heevd(complex, true, false, n, m, ld, w);
                    if (info[(int) b] != 0) continue;
                    // W = Q diag(max(lambda, 0)^(1/4)), so W W^H = Q diag(sqrt(max(lambda, 0))) Q^H. Read row-major
                    // the scratch is R = W^T; conjugated, R'^H R' = W W^H (real: R^T R)
                    for (int j = 0; j < n; j++) {
                        double root = Math.sqrt(Math.sqrt(Math.max(w.getAtIndex(JAVA_DOUBLE, j), 0.0)));
                        scaleRun(m, (long) j * ld, n, root, complex);
                    }
                    gram(complex, n, m, x);
                    store(x, ld, complex, out, b, true, 0);
                }
            }
        });
        return info;
    }

    /**
     * {@code linalg.polar} per matrix (m >= n), fused: the reduced SVD {@code A = W S V^H} (gesdd), then {@code U = W
     * V^H} and {@code H = V S V^H} by GEMMs in the worker's scratch, H re-symmetrised as {@code (H + H^H) / 2}. Info as
     * {@link #svd}'s: -1 for non-finite input, else gesdd's.
     */
    static int[] polar(Tensor a, Tensor uOut, Tensor hOut) {
        int m = order("linalg.polar", a.size(-2)), n = order("linalg.polar", a.size(-1));
        int lda = Math.max(1, m), ldn = Math.max(1, n);
        boolean complex = a.isComplex();
        int[] info = new int[Math.toIntExact(batches(a))];
        forEachThreadedWhenIdle(info.length, n, (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment am = scratch(arena, (long) m * n, complex), sv = scratch(arena, n, false);
                MemorySegment wm = scratch(arena, (long) m * n, complex), vt = scratch(arena, (long) n * n, complex);
                MemorySegment um = scratch(arena, (long) m * n, complex), hm = scratch(arena, (long) n * n, complex);
                for (long b = from; b < to; b++) {
                    load(a, b, am, lda, complex, false);
                    if (nonFinite(am, (long) m * n * (complex ? 2 : 1))) {
                        info[(int) b] = -1;
                        continue;
                    }
                    int i = Lapack.gesdd(complex, 'S', m, n, am, lda, sv, wm, lda, vt, ldn);
                    info[(int) b] = i;
                    if (i != 0) continue;
                    // Row-major, the column-major W and V^H read as their transposes: U = W V^H = (W^T)^T (V^H^T)^T
                    gemm(
                            complex,
                            OpenBlas.Transpose.TRANSPOSE,
                            OpenBlas.Transpose.TRANSPOSE,
                            m,
                            n,
                            n,
                            wm,
                            lda,
                            vt,
                            ldn,
                            um,
                            n);
                    store(um, n, complex, uOut, b, true, 0);
                    // H = V^H^H diag(S) V^H; with P = (V^H)^T and Q = (diag(S) V^H)^T row-major, P Q^H = conj(H) = H^T,
                    // which read column-major is H
                    MemorySegment p = vt;
                    for (int j = 0; j < n; j++) {
                        for (int r = 0; r < n; r++) {
                            long at = (r + (long) j * ldn) * (complex ? 2 : 1);
                            double sr = sv.getAtIndex(JAVA_DOUBLE, r);
                            am.setAtIndex(JAVA_DOUBLE, at, p.getAtIndex(JAVA_DOUBLE, at) * sr);
                            if (complex) am.setAtIndex(JAVA_DOUBLE, at + 1, p.getAtIndex(JAVA_DOUBLE, at + 1) * sr);
                        }
                    }
                    gemm(
                            complex,
                            OpenBlas.Transpose.NONE,
                            OpenBlas.Transpose.CONJ_TRANSPOSE,
                            n,
                            n,
                            n,
                            p,
                            ldn,
                            am,
                            ldn,
                            hm,
                            n);
                    symmetrize(hm, n, complex);
                    store(hm, n, complex, hOut, b, false, 0);
                }
            }
        });
        return info;
    }

    /** Scales {@code len} elements from element {@code start} by {@code c}, conjugating complex ones. */
    private static void scaleRun(MemorySegment m, long start, int len, double c, boolean complex) {
        if (complex) {
            for (long i = 2 * start, end = 2 * (start + len); i < end; i += 2) {
                m.setAtIndex(JAVA_DOUBLE, i, m.getAtIndex(JAVA_DOUBLE, i) * c);
                m.setAtIndex(JAVA_DOUBLE, i + 1, -m.getAtIndex(JAVA_DOUBLE, i + 1) * c);
            }
        } else {
            for (long i = start, end = start + len; i < end; i++)
                m.setAtIndex(JAVA_DOUBLE, i, m.getAtIndex(JAVA_DOUBLE, i) * c);
        }
    }

    /** {@code x = r^H r} for the row-major n x n r (leading dimension n). */
    private static void gram(boolean complex, int n, MemorySegment r, MemorySegment x) {
        gemm(
                complex,
                complex ? OpenBlas.Transpose.CONJ_TRANSPOSE : OpenBlas.Transpose.TRANSPOSE,
                OpenBlas.Transpose.NONE,
                n,
                n,
                n,
                r,
                n,
                r,
                n,
                x,
                n);
    }

    /** Row-major {@code c = op(a) op(b)}, c m x n, in float64 or complex128. */
    private static void gemm(
            boolean complex,
            OpenBlas.Transpose ta,
            OpenBlas.Transpose tb,
            int m,
            int n,
            int k,
            MemorySegment a,
            int lda,
            MemorySegment b,
            int ldb,
            MemorySegment c,
            int ldc) {
        if (complex) OpenBlas.zgemm(ta, tb, m, n, k, 1, 0, a, 0, lda, b, 0, ldb, 0, 0, c, 0, ldc);
        else OpenBlas.dgemm(ta, tb, m, n, k, 1, a, 0, lda, b, 0, ldb, 0, c, 0, ldc);
    }

    /**
     * {@code (H + H^H) / 2} in place for the n x n h (leading dimension n): round-off leaves H slightly non-Hermitian.
     */
    private static void symmetrize(MemorySegment h, int n, boolean complex) {
        int w = complex ? 2 : 1;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                long ij = ((long) i * n + j) * w, ji = ((long) j * n + i) * w;
                double re = 0.5 * (h.getAtIndex(JAVA_DOUBLE, ij) + h.getAtIndex(JAVA_DOUBLE, ji));
                h.setAtIndex(JAVA_DOUBLE, ij, re);
                h.setAtIndex(JAVA_DOUBLE, ji, re);
                if (complex) {
                    double im = 0.5 * (h.getAtIndex(JAVA_DOUBLE, ij + 1) - h.getAtIndex(JAVA_DOUBLE, ji + 1));
                    h.setAtIndex(JAVA_DOUBLE, ij + 1, im);
                    h.setAtIndex(JAVA_DOUBLE, ji + 1, -im);
                }
            }
        }
    }

    /**
     * Householder QR per matrix (LAPACK's signs): R ({@code r}, k x n or m x n) and, unless q is null, Q (m x k, or m x
     * m when {@code complete}).
     */
    static void qr(Tensor a, boolean complete, Tensor q, Tensor r) {
        int m = order("linalg.qr", a.size(-2)), n = order("linalg.qr", a.size(-1)), k = Math.min(m, n);
        int ld = Math.max(1, m), qCols = complete ? m : k;
        int width = Math.max(n, qCols); // room for the m x m Q of a tall complete QR
        boolean complex = a.isComplex();
        forEach(batches(a), (from, to) -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment am = scratch(arena, (long) ld * width, complex), tau = scratch(arena, k, complex);
                for (long b = from; b < to; b++) {
                    load(a, b, am, ld, complex, false);
                    Lapack.geqrf(complex, m, n, am, ld, tau);
                    store(am, ld, complex, r, b, false, 1); // R's rows beyond k (complete, m > n) are zero
                    if (q != null) {
                        Lapack.ungqr(complex, m, qCols, k, am, ld, tau);
                        store(am, ld, complex, q, b, false, 0);
                    }
                }
            }
        });
    }

    /**
     * Throws the LinAlgException for the first failing batch element, if any: {@code message} gets the element's index
     * and may contain {@code {where}}, replaced by PyTorch's "(Batch element i): " prefix.
     */
    static void raise(int[] info, int batchDims, IntFunction<String> message) {
        int b = firstFailure(info);
        if (b >= 0) throw new LinAlgException(message.apply(b).replace("{where}", where(batchDims, b)));
    }
}

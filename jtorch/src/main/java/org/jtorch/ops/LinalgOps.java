package org.jtorch.ops;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.blas.Lapack;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * The {@code torch.linalg} family: factorisation-based ops on batches of matrices {@code (*, n, n)},
 * computed per matrix by LAPACK (float64 working precision; float32 results are rounded from it).
 * Complex inputs are refused for now.
 */
public final class LinalgOps {
    private LinalgOps() {}

    /** {@code linalg.cholesky(A, upper=False)}: lower L with {@code A = L L^H} (upper: {@code U = L^H}); reads one triangle. */
    public static final OpDef CHOLESKY = OpDef.structured("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor",
            args -> sameShape("linalg.cholesky", (Tensor) args[0]),
            (args, outs, spec) -> cholesky((Tensor) args[0], (Boolean) args[1], outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {choleskyBackward(o[0], g[0], (Boolean) a[1])})
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : choleskyJvp(o[0], t[0], (Boolean) a[1])});

    /** {@code linalg.inv(A)}: the inverse; a singular matrix is an error. */
    public static final OpDef INV = OpDef.structured("linalg_inv(Tensor A) -> Tensor",
            args -> sameShape("linalg.inv", (Tensor) args[0]),
            (args, outs, spec) -> inv((Tensor) args[0], outs[0]))
            // d(A^-1) = -A^-1 dA A^-1, so gA = -C^H g C^H with C = A^-1
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {o[0].mH().matmul(g[0]).matmul(o[0].mH()).neg()})
            // d(A^-1) = -A^-1 dA A^-1, from the output (itself differentiable at lower levels), never from cached factors
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : o[0].matmul(t[0]).matmul(o[0]).neg()});

    /** {@code linalg.det(A)}: determinants, shape {@code *}, from an LU factorisation; singular gives 0. */
    public static final OpDef DET = OpDef.structured("linalg_det(Tensor A) -> Tensor",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.det", a);
                return Spec.of(Arrays.copyOf(a.shapeRef(), a.dim() - 2), a.dtype(), a.device(), null);
            },
            (args, outs, spec) -> det((Tensor) args[0], outs[0]))
            // d det = det tr(A^-1 dA): gA = (g det) A^-H; needs A invertible (PyTorch switches to an SVD formula otherwise)
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {
                g[0].mul(o[0]).unsqueeze(-1).unsqueeze(-1).mul(inv((Tensor) a[0]).mH())})
            // d det = det · tr(A^-1 dA)
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : o[0].mul(traceOfInverseTimes((Tensor) a[0], t[0]))});

    /** {@code linalg.slogdet(A)}: (sign, log|det|) from an LU factorisation; singular gives (0, -inf). */
    public static final OpDef SLOGDET = OpDef.structured("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.slogdet", a);
                long[] batch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
                return new Spec(new long[][] {batch, batch}, new DType[] {a.dtype(), a.dtype()}, a.device(), null);
            },
            (args, outs, spec) -> slogdet((Tensor) args[0], outs[0], outs[1]))
            // the sign is locally constant (real inputs); d log|det| = tr(A^-1 dA), so gA = g A^-H
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                g[1].unsqueeze(-1).unsqueeze(-1).mul(inv((Tensor) a[0]).mH())})
            // d logabsdet = Re tr(A^-1 dA); d sign = sign · i·Im tr(A^-1 dA) (zero for real A)
            .defineJvp((a, o, t) -> {
                if (t[0] == null) return new Tensor[2];
                Tensor tr = traceOfInverseTimes((Tensor) a[0], t[0]);
                Tensor sign = tr.isComplex() ? o[0].mul(tr.sub(tr.conj()).mul(0.5)) : null;
                return new Tensor[] {sign, tr.isComplex() ? tr.real() : tr};
            });

    /** {@code linalg.solve(A, B, left=True)}: X with {@code A X = B} (left=False: {@code X A = B}); batch dims broadcast. */
    public static final OpDef SOLVE = OpDef.structured("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor",
            args -> solveMeta((Tensor) args[0], (Tensor) args[1], (Boolean) args[2]),
            (args, outs, spec) -> solve((Tensor) args[0], (Tensor) args[1], (Boolean) args[2], outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> solveBackward((Tensor) a[0], (Tensor) a[1], (Boolean) a[2], o[0], g[0]))
            .defineJvp((a, o, t) -> new Tensor[] {solveJvp((Tensor) a[0], (Boolean) a[2], o[0], t[0], t[1])});

    // ---------------------------------------------------------------- forward-mode rules

    /** {@code tr(A^-1 dA)} per matrix of the batch, with a differentiable inverse of A. */
    private static Tensor traceOfInverseTimes(Tensor a, Tensor dA) {
        return inv(a).matmul(dA).diagonal(0, -2, -1).sum(new long[] {-1}, false);
    }

    /** {@code dL = L Φ(L^-1 dA L^-H)}, Φ = lower triangle with the diagonal halved; upper: {@code dU = dL^H}. */
    private static Tensor choleskyJvp(Tensor out, Tensor dA, Boolean upper) {
        boolean up = Boolean.TRUE.equals(upper);
        Tensor l = up ? out.mH() : out;
        Tensor lInv = inv(l);
        Tensor x = lInv.matmul(dA).matmul(lInv.mH());
        Tensor lower = Dispatcher.call1(JoinOps.TRIL, x, 0L);
        Tensor phi = lower.sub(Dispatcher.call1(JoinOps.TRIU, lower, 0L).mul(0.5));
        Tensor dL = l.matmul(phi);
        return up ? dL.mH() : dL;
    }

    /** {@code dX = A^-1 (dB - dA X)} (left) or {@code (dB - X dA) A^-1} (right); X may be a (batch of) vector(s). */
    private static Tensor solveJvp(Tensor a, Boolean left, Tensor x, Tensor dA, Tensor dB) {
        boolean l = !Boolean.FALSE.equals(left);
        boolean vector = x.dim() == a.dim() - 1;
        Tensor rhs = dB;
        if (dA != null) {
            Tensor prod = l ? (vector ? dA.matmul(x.unsqueeze(-1)).squeeze(-1) : dA.matmul(x))
                    : (vector ? x.unsqueeze(-2).matmul(dA).squeeze(-2) : x.matmul(dA));
            rhs = rhs == null ? prod.neg() : rhs.sub(prod);
        }
        return rhs == null ? null : solve(a, rhs, l);
    }

    // ---------------------------------------------------------------- entry points

    /** {@code torch.linalg.cholesky(A)}. */
    public static Tensor cholesky(Tensor a) { return Dispatcher.call1(CHOLESKY, a, false); }

    /** {@code torch.linalg.cholesky(A, upper=upper)}. */
    public static Tensor cholesky(Tensor a, boolean upper) { return Dispatcher.call1(CHOLESKY, a, upper); }

    /** {@code torch.linalg.inv(A)}. */
    public static Tensor inv(Tensor a) { return Dispatcher.call1(INV, a); }

    /** {@code torch.linalg.det(A)}. */
    public static Tensor det(Tensor a) { return Dispatcher.call1(DET, a); }

    /** {@code torch.linalg.slogdet(A)}: {@code {sign, logabsdet}}. */
    public static Tensor[] slogdet(Tensor a) { return (Tensor[]) Dispatcher.call(SLOGDET, a); }

    /** {@code torch.linalg.solve(A, B)}. */
    public static Tensor solve(Tensor a, Tensor b) { return Dispatcher.call1(SOLVE, a, b, true); }

    /** {@code torch.linalg.solve(A, B, left=left)}. */
    public static Tensor solve(Tensor a, Tensor b, boolean left) { return Dispatcher.call1(SOLVE, a, b, left); }

    // ---------------------------------------------------------------- meta

    private static Spec sameShape(String api, Tensor a) {
        requireSquare(api, a);
        return Spec.of(a.shape(), a.dtype(), a.device(), null);
    }

    /**
     * PyTorch's vector case: B is a (batch of) vector(s) when it is 1-D, or has A's shape without its
     * last dim; it is then solved as a one-column matrix and the column dropped again.
     */
    private static boolean vectorCase(Tensor a, Tensor b) {
        return b.dim() == 1 || (b.dim() == a.dim() - 1 && Arrays.equals(b.shapeRef(), Arrays.copyOf(a.shapeRef(), a.dim() - 1)));
    }

    private static Spec solveMeta(Tensor a, Tensor b, boolean left) {
        Device device = Devices.common("linalg.solve", a, b);
        requireSquare("linalg.solve", a);
        if (a.dtype() != b.dtype()) {
            throw new TorchException("linalg.solve: Expected A and B to have the same dtype, but found A of type "
                    + a.dtype().cppName() + " and B of type " + b.dtype().cppName() + " instead");
        }
        boolean vector = vectorCase(a, b);
        long n = a.size(-1);
        if (vector) {
            if (b.size(-1) != n) throw incompatible(a, b, left, left ? new long[] {b.size(-1), 1} : new long[] {1, b.size(-1)});
        } else {
            if (b.dim() < 2) throw new TorchException("linalg.solve: The input tensor B must have at least 2 dimensions.");
            long rows = left ? b.size(-2) : b.size(-1);
            if (rows != n) throw incompatible(a, b, left, new long[] {b.size(-2), b.size(-1)});
        }
        long[] aBatch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
        long[] bBatch = Arrays.copyOf(b.shapeRef(), b.dim() - (vector ? 1 : 2));
        long[] batch = Shapes.broadcast(aBatch, bBatch);
        long[] shape = Arrays.copyOf(batch, batch.length + (vector ? 1 : 2));
        if (vector) shape[batch.length] = n;
        else {
            shape[batch.length] = b.size(-2);
            shape[batch.length + 1] = b.size(-1);
        }
        return Spec.of(shape, a.dtype(), device, null);
    }

    private static TorchException incompatible(Tensor a, Tensor b, boolean left, long[] bMatrix) {
        long n = a.size(-1);
        return new TorchException("linalg.solve: Incompatible shapes of A and B for the equation "
                + (left ? "AX = B (" : "XA = B (") + n + "x" + n + " and " + bMatrix[0] + "x" + bMatrix[1] + ")");
    }

    /** ATen's squareCheckInputs then checkFloatingOrComplex, in that order. */
    private static void requireSquare(String api, Tensor a) {
        if (a.dim() < 2) throw new TorchException(api + ": The input tensor A must have at least 2 dimensions.");
        long m = a.size(-2), n = a.size(-1);
        if (m != n) throw new TorchException(api + ": A must be batches of square matrices, but they are " + m + " by " + n + " matrices");
        DType t = a.dtype();
        if (!t.isFloatingPoint() && !t.isComplex()) {
            throw new TorchException(api + ": Expected a floating point or complex tensor as input. Got " + t.cppName());
        }
        if (t.isReducedPrecision()) throw new TorchException(api + ": Low precision dtypes not supported. Got " + t.cppName());
        if (t.isComplex()) throw new UnsupportedOperationException(api + ": complex inputs are not supported by JTorch yet");
        if (a.device() != Device.CPU && a.device() != Device.META) {
            throw new TorchException(api + ": only CPU tensors are supported, got " + a.device());
        }
    }

    // ---------------------------------------------------------------- kernels

    /** One n x n matrix of a batch, copied into native float64 scratch for LAPACK. */
    private static final class Scratch implements AutoCloseable {
        final Arena arena = Arena.ofShared(); // Lapack runs on its own thread
        final int n;
        final MemorySegment matrix, pivots;

        Scratch(long n) {
            if (n > 46340) throw new TorchException("linalg: matrices of order " + n + " exceed LAPACK's int32 indexing");
            this.n = (int) n;
            matrix = arena.allocate(Math.max(1, n * n) * Double.BYTES, Double.BYTES);
            pivots = arena.allocate(Math.max(1, n) * Integer.BYTES, Integer.BYTES);
        }

        /** Loads batch element {@code b} of {@code a} (any strides), row-major. */
        void load(Tensor a, long b) {
            ElementIO io = ElementIO.of(a.dtype());
            MemorySegment data = a.storage().segment();
            long base = b * n * n;
            for (long i = 0; i < (long) n * n; i++) matrix.setAtIndex(JAVA_DOUBLE, i, io.getDouble(data, a.elementIndex(base + i)));
        }

        /** Stores the scratch matrix (transposed if asked) as batch element {@code b} of the contiguous {@code out}. */
        void store(Tensor out, long b, boolean transpose) {
            ElementIO io = ElementIO.of(out.dtype());
            MemorySegment data = out.storage().segment();
            long base = out.storageOffset() + b * n * n;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    double v = matrix.getAtIndex(JAVA_DOUBLE, transpose ? (long) j * n + i : (long) i * n + j);
                    io.setDouble(data, base + (long) i * n + j, v);
                }
            }
        }

        @Override public void close() { arena.close(); }
    }

    private static long batches(Tensor a) {
        long count = 1;
        for (int d = 0; d < a.dim() - 2; d++) count *= a.size(d);
        return count;
    }

    /** PyTorch's "(Batch element i): " prefix, only for batched inputs. */
    private static String where(Tensor a, long b) { return a.dim() > 2 ? "(Batch element " + b + "): " : ""; }

    private static void cholesky(Tensor a, boolean upper, Tensor out) {
        try (Scratch s = new Scratch(a.size(-1))) {
            int n = s.n;
            for (long b = 0, count = batches(a); b < count; b++) {
                s.load(a, b);
                // upper=True factors the upper triangle: A = U^H U with U^T the lower factor of A^T,
                // so factor in the triangle asked for and zero the other one.
                int info = Lapack.dpotrf(upper, n, s.matrix, 0, Math.max(1, n));
                if (info > 0) {
                    throw new TorchException("linalg.cholesky: " + where(a, b) + "The factorization could not be completed because"
                            + " the input is not positive-definite (the leading minor of order " + info + " is not positive-definite).");
                }
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < n; j++) {
                        if (upper ? j < i : j > i) s.matrix.setAtIndex(JAVA_DOUBLE, (long) i * n + j, 0.0);
                    }
                }
                s.store(out, b, false);
            }
        }
    }

    private static void inv(Tensor a, Tensor out) {
        try (Scratch s = new Scratch(a.size(-1))) {
            int n = s.n, ld = Math.max(1, n);
            for (long b = 0, count = batches(a); b < count; b++) {
                s.load(a, b);
                int info = Lapack.dgetrf(n, n, s.matrix, 0, ld, s.pivots, 0);
                if (info == 0) info = Lapack.dgetri(n, s.matrix, 0, ld, s.pivots, 0);
                if (info > 0) {
                    throw new TorchException("linalg.inv: " + where(a, b) + "The diagonal element " + info
                            + " is zero, the inversion could not be completed because the input matrix is singular.");
                }
                s.store(out, b, false);
            }
        }
    }

    private static void det(Tensor a, Tensor out) {
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment data = out.storage().segment();
        try (Scratch s = new Scratch(a.size(-1))) {
            int n = s.n;
            for (long b = 0, count = batches(a); b < count; b++) {
                s.load(a, b);
                Lapack.dgetrf(n, n, s.matrix, 0, Math.max(1, n), s.pivots, 0);
                double det = 1; // also the determinant of the empty matrix
                for (int i = 0; i < n; i++) {
                    det *= s.matrix.getAtIndex(JAVA_DOUBLE, (long) i * n + i);
                    if (s.pivots.getAtIndex(JAVA_INT, i) != i + 1) det = -det; // each row swap flips the sign
                }
                io.setDouble(data, out.storageOffset() + b, det);
            }
        }
    }

    private static void slogdet(Tensor a, Tensor sign, Tensor logabsdet) {
        ElementIO signIo = ElementIO.of(sign.dtype()), logIo = ElementIO.of(logabsdet.dtype());
        MemorySegment signData = sign.storage().segment(), logData = logabsdet.storage().segment();
        try (Scratch s = new Scratch(a.size(-1))) {
            int n = s.n;
            for (long b = 0, count = batches(a); b < count; b++) {
                s.load(a, b);
                Lapack.dgetrf(n, n, s.matrix, 0, Math.max(1, n), s.pivots, 0);
                double sgn = 1, log = 0; // a sum of logs, which does not overflow where the product would
                for (int i = 0; i < n; i++) {
                    double u = s.matrix.getAtIndex(JAVA_DOUBLE, (long) i * n + i);
                    if (s.pivots.getAtIndex(JAVA_INT, i) != i + 1) sgn = -sgn;
                    sgn *= Math.signum(u);
                    log += Math.log(Math.abs(u));
                }
                signIo.setDouble(signData, sign.storageOffset() + b, sgn);
                logIo.setDouble(logData, logabsdet.storageOffset() + b, sgn == 0 ? Double.NEGATIVE_INFINITY : log);
            }
        }
    }

    /**
     * Per broadcast batch element: LU of A, then getrs on B's columns. left=False solves
     * {@code X A = B} as {@code A^T X^T = B^T}: the right-hand sides are B's rows.
     */
    private static void solve(Tensor a, Tensor b, boolean left, Tensor out) {
        boolean vector = vectorCase(a, b);
        int batchDims = out.dim() - (vector ? 1 : 2);
        long[] batch = Arrays.copyOf(out.shapeRef(), batchDims);
        long n = a.size(-1), k = vector ? 1 : (left ? b.size(-1) : b.size(-2));
        long[] aShape = Arrays.copyOf(batch, batchDims + 2);
        aShape[batchDims] = n;
        aShape[batchDims + 1] = n;
        Strided as = Strided.of(a, aShape);
        // B as (*, n, k) for left, (*, k, n) otherwise; a vector is a one-column matrix
        long[] bShape = Arrays.copyOf(batch, batchDims + 2);
        bShape[batchDims] = left ? n : k;
        bShape[batchDims + 1] = left ? k : n;
        Strided bs = Strided.of(vector ? asMatrix(b, left) : b, bShape);
        long count = Shapes.numel(batch);
        ElementIO outIo = ElementIO.of(out.dtype());
        MemorySegment outData = out.storage().segment();
        try (Scratch s = new Scratch(n); Arena arena = Arena.ofShared()) {
            int ni = s.n, ki = Math.toIntExact(k);
            MemorySegment rhs = arena.allocate(Math.max(1, n * k) * Double.BYTES, Double.BYTES);
            for (long e = 0; e < count; e++) {
                as.load(e * n * n, n * n, s.matrix);
                if (Lapack.dgetrf(ni, ni, s.matrix, 0, Math.max(1, ni), s.pivots, 0) > 0) {
                    throw new TorchException("linalg.solve: " + (batchDims > 0 ? "(Batch element " + e + "): " : "")
                            + "The solver failed because the input matrix is singular.");
                }
                // rhs is n x k row-major: B itself (left) or B^T (right)
                for (long i = 0; i < n; i++) {
                    for (long j = 0; j < k; j++) {
                        long src = left ? i * k + j : j * n + i;
                        rhs.setAtIndex(JAVA_DOUBLE, i * k + j, bs.get(e * n * k + src));
                    }
                }
                Lapack.dgetrs(!left, ni, ki, s.matrix, 0, Math.max(1, ni), s.pivots, 0, rhs, 0, Math.max(1, ki));
                for (long i = 0; i < n; i++) {
                    for (long j = 0; j < k; j++) {
                        long dst = left ? i * k + j : j * n + i;
                        outIo.setDouble(outData, out.storageOffset() + e * n * k + dst, rhs.getAtIndex(JAVA_DOUBLE, i * k + j));
                    }
                }
            }
        }
    }

    /** A vector batch as one-column matrices (left) or one-row matrices (right), as a view of the same storage. */
    private static Tensor asMatrix(Tensor v, boolean left) {
        int r = v.dim();
        long[] shape = Arrays.copyOf(v.shapeRef(), r + 1), strides = Arrays.copyOf(v.strideRef(), r + 1);
        int unit = left ? r : r - 1; // the new size-1 dim: after the vector dim, or before it
        if (!left) {
            shape[r] = shape[r - 1];
            strides[r] = strides[r - 1];
        }
        shape[unit] = 1;
        strides[unit] = 1;
        return v.viewOf(v.storageOffset(), shape, strides);
    }

    /** A tensor read as if broadcast to a larger shape, element by row-major linear index, as float64. */
    private record Strided(Tensor t, long[] shape, long[] strides, ElementIO io, MemorySegment data) {
        static Strided of(Tensor t, long[] target) {
            return new Strided(t, target, Shapes.broadcastStrides(t.shapeRef(), t.strideRef(), target),
                    ElementIO.of(t.dtype()), t.storage().segment());
        }

        double get(long linear) {
            long idx = t.storageOffset();
            for (int d = shape.length - 1; d >= 0; d--) {
                idx += (linear % shape[d]) * strides[d];
                linear /= shape[d];
            }
            return io.getDouble(data, idx);
        }

        void load(long base, long count, MemorySegment into) {
            for (long i = 0; i < count; i++) into.setAtIndex(JAVA_DOUBLE, i, get(base + i));
        }
    }

    // ---------------------------------------------------------------- backward

    /**
     * {@code X = A^-1 B}: {@code gB = A^-H gX}, {@code gA = -gB X^H}; for left=False ({@code X = B A^-1}):
     * {@code gB = gX A^-H}, {@code gA = -X^H gB}. Vectors are one-column matrices; the engine sums
     * broadcast batch dims back down.
     */
    private static Tensor[] solveBackward(Tensor a, Tensor b, boolean left, Tensor x, Tensor g) {
        Tensor gb = solve(a.mH(), g, left);
        boolean vector = vectorCase(a, b);
        int unit = left ? -1 : -2; // vectors are columns for left, rows otherwise
        Tensor gbm = vector ? gb.unsqueeze(unit) : gb, xm = vector ? x.unsqueeze(unit) : x;
        Tensor ga = (left ? gbm.matmul(xm.mH()) : xm.mH().matmul(gbm)).neg();
        return new Tensor[] {ga, gb};
    }

    /**
     * PyTorch's cholesky_backward: with {@code Φ(X)} = lower triangle of X with its diagonal halved,
     * {@code gA = L^-H Φ(L^H gL) L^-1}, symmetrised. Written with differentiable ops (inv, matmul,
     * tril) so it can be differentiated again.
     */
    private static Tensor choleskyBackward(Tensor factor, Tensor g, boolean upper) {
        Tensor l = upper ? factor.mH() : factor, gl = upper ? g.mH() : g;
        Tensor p = l.mH().matmul(gl);
        Tensor phi = p.tril(-1).add(p.triu().tril().mul(0.5));
        Tensor lInv = inv(l);
        Tensor ga = lInv.mH().matmul(phi).matmul(lInv);
        return ga.add(ga.mH()).mul(0.5);
    }
}

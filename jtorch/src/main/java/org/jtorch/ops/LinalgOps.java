package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;

/**
 * The {@code torch.linalg} family: factorisation-based ops on batches of matrices {@code (*, m, n)} of
 * float32, float64, complex64 or complex128, computed per matrix by LAPACK ({@link LinalgKernels}), and
 * the decompositions' backward rules (conjugate-Wirtinger for complex inputs).
 */
public final class LinalgOps {
    private LinalgOps() {}

    private static final String SOLVE_ERROR_TEXT = "linalg.solve: {where}The solver failed because the input matrix is singular.";

    /** {@code linalg.cholesky(A, upper=False)}: lower L with {@code A = L L^H} (upper: {@code U = L^H}); reads one triangle. */
    public static final OpDef CHOLESKY = OpDef.structured("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor",
            args -> sameShape("linalg.cholesky", (Tensor) args[0]),
            (args, outs, spec) -> cholesky((Tensor) args[0], (Boolean) args[1], outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {choleskyBackward(o[0], g[0], (Boolean) a[1])});

    /** {@code linalg.cholesky_ex(A, upper, check_errors)}: (L, info) with info k > 0 where the minor of order k is not positive-definite. */
    public static final OpDef CHOLESKY_EX = OpDef.structured(
            "linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)",
            args -> withInfo("linalg.cholesky_ex", (Tensor) args[0], ((Tensor) args[0]).shape()),
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = LinalgKernels.cholesky(a, (Boolean) args[1], outs[0]);
                LinalgKernels.storeInfo(info, outs[1]);
                if ((Boolean) args[2]) LinalgKernels.raise(info, batchDims(a), b -> choleskyError(info[b]));
            })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {choleskyBackward(o[0], g[0], (Boolean) a[1])});

    /** {@code linalg.inv(A)}: the inverse; a singular matrix is an error. */
    public static final OpDef INV = OpDef.structured("linalg_inv(Tensor A) -> Tensor",
            args -> sameShape("linalg.inv", (Tensor) args[0]),
            (args, outs, spec) -> inv((Tensor) args[0], outs[0]))
            // d(A^-1) = -A^-1 dA A^-1, so gA = -C^H g C^H with C = A^-1
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {o[0].mH().matmul(g[0]).matmul(o[0].mH()).neg()});

    /** {@code linalg.inv_ex(A, check_errors)}: (inverse, info) with info k > 0 where the LU's pivot k is zero. */
    public static final OpDef INV_EX = OpDef.structured(
            "linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)",
            args -> withInfo("linalg.inv_ex", (Tensor) args[0], ((Tensor) args[0]).shape()),
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = LinalgKernels.inv(a, outs[0]);
                LinalgKernels.storeInfo(info, outs[1]);
                if ((Boolean) args[1]) LinalgKernels.raise(info, batchDims(a), b -> invError(info[b]));
            })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {o[0].mH().matmul(g[0]).matmul(o[0].mH()).neg()});

    /** {@code linalg.det(A)}: determinants, shape {@code *}, from an LU factorisation; singular gives 0. */
    public static final OpDef DET = OpDef.structured("linalg_det(Tensor A) -> Tensor",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.det", a);
                return Spec.of(Arrays.copyOf(a.shapeRef(), a.dim() - 2), a.dtype(), a.device(), null);
            },
            (args, outs, spec) -> LinalgKernels.det((Tensor) args[0], outs[0], null))
            // d det = det tr(A^-1 dA): gA = conj(g det)... in Wirtinger form (g conj(det)) A^-H; needs A invertible
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {
                g[0].mul(o[0].conj()).unsqueeze(-1).unsqueeze(-1).mul(inv((Tensor) a[0]).mH())});

    /** {@code linalg.slogdet(A)}: (sign, log|det|) from an LU factorisation; singular gives (0, -inf). */
    public static final OpDef SLOGDET = OpDef.structured("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.slogdet", a);
                long[] batch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
                return new Spec(new long[][] {batch, batch}, new DType[] {a.dtype(), a.dtype().toReal()}, a.device(), null);
            },
            (args, outs, spec) -> LinalgKernels.det((Tensor) args[0], outs[0], outs[1]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {slogdetBackward((Tensor) a[0], o[0], g[0], g[1])});

    /** {@code linalg.solve(A, B, left=True)}: X with {@code A X = B} (left=False: {@code X A = B}); batch dims broadcast. */
    public static final OpDef SOLVE = OpDef.structured("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor",
            args -> solveMeta("linalg.solve", (Tensor) args[0], (Tensor) args[1], (Boolean) args[2]),
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = solve(a, (Tensor) args[1], (Boolean) args[2], outs[0]);
                LinalgKernels.raise(info, solveBatchDims(a, (Tensor) args[1], outs[0]), b -> SOLVE_ERROR_TEXT);
            })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> solveBackward((Tensor) a[0], (Tensor) a[1], (Boolean) a[2], o[0], g[0]));

    /** {@code linalg.solve_ex(A, B, left, check_errors)}: (result, info) with info k > 0 where the LU's pivot k is zero. */
    public static final OpDef SOLVE_EX = OpDef.structured(
            "linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> (Tensor result, Tensor info)",
            args -> {
                Spec x = solveMeta("linalg.solve_ex", (Tensor) args[0], (Tensor) args[1], (Boolean) args[2]);
                long[] shape = x.shapes()[0];
                long[] batch = Arrays.copyOf(shape, shape.length - (vectorCase((Tensor) args[0], (Tensor) args[1]) ? 1 : 2));
                return new Spec(new long[][] {shape, batch}, new DType[] {x.dtypes()[0], DType.INT32}, x.device(), null);
            },
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = solve(a, (Tensor) args[1], (Boolean) args[2], outs[0]);
                LinalgKernels.storeInfo(info, outs[1]);
                if ((Boolean) args[3]) LinalgKernels.raise(info, solveBatchDims(a, (Tensor) args[1], outs[0]), b -> SOLVE_ERROR_TEXT);
            })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> solveBackward((Tensor) a[0], (Tensor) a[1], (Boolean) a[2], o[0], g[0]));

    // ---------------------------------------------------------------- decompositions and norms

    /** {@code linalg.eigh(A, UPLO='L')}: ascending real eigenvalues and orthonormal eigenvectors (columns) of a Hermitian A. */
    public static final OpDef EIGH = OpDef.structured(
            "linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.eigh", a);
                boolean upper = uplo((String) args[1]);
                long[] values = Arrays.copyOf(a.shapeRef(), a.dim() - 1);
                return new Spec(new long[][] {values, a.shape()}, new DType[] {a.dtype().toReal(), a.dtype()}, a.device(), upper);
            },
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = LinalgKernels.eigh(a, (Boolean) spec.plan(), outs[0], outs[1]);
                LinalgKernels.raise(info, batchDims(a), b -> eighError("linalg.eigh", info[b]));
            })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.eigh(o[0], o[1], g[0], g[1])});

    /** {@code linalg.eigvalsh(A, UPLO='L')}: the ascending eigenvalues of a Hermitian A. */
    public static final OpDef EIGVALSH = OpDef.structured("linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor",
            args -> {
                Tensor a = (Tensor) args[0];
                requireSquare("linalg.eigvalsh", a);
                boolean upper = uplo((String) args[1]);
                return Spec.of(Arrays.copyOf(a.shapeRef(), a.dim() - 1), a.dtype().toReal(), a.device(), upper);
            },
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                int[] info = LinalgKernels.eigh(a, (Boolean) spec.plan(), outs[0], null);
                LinalgKernels.raise(info, batchDims(a), b -> eighError("linalg.eigvalsh", info[b]));
            })
            // d lambda_i = q_i^H dA q_i: gA = Q diag(g) Q^H, with Q from a differentiable eigh (second order)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor q = eigh((Tensor) a[0], (String) a[1])[1];
                return new Tensor[] {q.mul(g[0].unsqueeze(-2)).matmul(q.mH())};
            });

    /** {@code linalg.svd(A, full_matrices=True)}: (U, S, Vh) with S real and descending. */
    public static final OpDef SVD = OpDef.structured("linalg_svd(Tensor A, bool full_matrices=True) -> (Tensor U, Tensor S, Tensor Vh)",
            args -> svdMeta("linalg.svd", (Tensor) args[0], (Boolean) args[1], true),
            (args, outs, spec) -> svd((Tensor) args[0], (Boolean) args[1], outs[1], outs[0], outs[2]))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.svd((Boolean) a[1], o[0], o[1], o[2], g[0], g[1], g[2])});

    /** {@code linalg.svdvals(A)}: the singular values, descending. */
    public static final OpDef SVDVALS = OpDef.structured("linalg_svdvals(Tensor A) -> Tensor",
            args -> svdMeta("linalg.svdvals", (Tensor) args[0], false, false),
            (args, outs, spec) -> svd((Tensor) args[0], false, outs[0], null, null))
            // d s_i = Re(u_i^H dA v_i): gA = U diag(g) V^H, with U, V^H from a differentiable svd (second order)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor[] usv = svd((Tensor) a[0], false);
                return new Tensor[] {usv[0].mul(g[0].unsqueeze(-2)).matmul(usv[2])};
            });

    /** {@code linalg.qr(A, mode='reduced')}: Householder QR, LAPACK's signs; modes reduced, complete, r (Q empty). */
    public static final OpDef QR = OpDef.structured("linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)",
            args -> qrMeta((Tensor) args[0], (String) args[1]),
            (args, outs, spec) -> {
                String mode = (String) args[1];
                LinalgKernels.qr((Tensor) args[0], mode.equals("complete"), mode.equals("r") ? null : outs[0], outs[1]);
            })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.qr((String) a[1], o[0], o[1], g[0], g[1])});

    /**
     * {@code linalg.matrix_sqrth(A)} (2.14): the principal square root of a Hermitian positive-definite A,
     * {@code Q diag(sqrt(max(lambda, 0))) Q^H} from the eigen-decomposition of A's lower triangle.
     * Backward solves the Sylvester equation {@code X gA + gA X = sym(G)} in the eigenbasis.
     */
    public static final OpDef MATRIX_SQRTH = OpDef.structured("linalg_matrix_sqrth(Tensor A) -> Tensor",
            args -> sameShape("linalg.matrix_sqrth", (Tensor) args[0]),
            (args, outs, spec) -> {
                Tensor a = (Tensor) args[0];
                if (a.numel() == 0) return;
                try (GradMode.Scope off = GradMode.set(false)) {
                    Tensor[] lq = eigh(a, "L");
                    outs[0].copy_(sqrthFrom(lq[0], lq[1]));
                }
            })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.matrixSqrth((Tensor) a[0], g[0])});

    /**
     * {@code linalg.polar(A)} (2.14): {@code A = U H} for m >= n, U with orthonormal columns, H Hermitian
     * positive semi-definite, from the reduced SVD {@code A = W S V^H}: {@code U = W V^H}, {@code H = V S V^H}
     * (re-symmetrised). A composite: its gradient is the SVD's.
     */
    public static final OpDef POLAR = OpDef.composite("linalg_polar(Tensor A) -> (Tensor U, Tensor H)", args -> {
        Tensor a = (Tensor) args[0];
        polarCheck(a);
        Tensor[] wsv = svd(a, false);
        Tensor vh = wsv[2], v = vh.mH();
        Tensor u = wsv[0].matmul(vh);
        Tensor h = v.matmul(wsv[1].unsqueeze(-1).mul(vh));
        h = h.add(h.mH()).mul(0.5);
        return new Tensor[] {u.contiguous(), h.contiguous()};
    });

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

    /** {@code torch.linalg.cholesky_ex(A, upper=upper, check_errors=checkErrors)}: {@code {L, info}}. */
    public static Tensor[] choleskyEx(Tensor a, boolean upper, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(CHOLESKY_EX, a, upper, checkErrors);
    }

    /** {@code torch.linalg.inv_ex(A, check_errors=checkErrors)}: {@code {inverse, info}}. */
    public static Tensor[] invEx(Tensor a, boolean checkErrors) { return (Tensor[]) Dispatcher.call(INV_EX, a, checkErrors); }

    /** {@code torch.linalg.solve_ex(A, B, left=left, check_errors=checkErrors)}: {@code {result, info}}. */
    public static Tensor[] solveEx(Tensor a, Tensor b, boolean left, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(SOLVE_EX, a, b, left, checkErrors);
    }

    /** {@code torch.linalg.eigh(A, UPLO=uplo)}: {@code {eigenvalues, eigenvectors}}. */
    public static Tensor[] eigh(Tensor a, String uplo) { return (Tensor[]) Dispatcher.call(EIGH, a, uplo); }

    /** {@code torch.linalg.eigvalsh(A, UPLO=uplo)}. */
    public static Tensor eigvalsh(Tensor a, String uplo) { return Dispatcher.call1(EIGVALSH, a, uplo); }

    /** {@code torch.linalg.svd(A, full_matrices=fullMatrices)}: {@code {U, S, Vh}}. */
    public static Tensor[] svd(Tensor a, boolean fullMatrices) { return (Tensor[]) Dispatcher.call(SVD, a, fullMatrices); }

    /** {@code torch.linalg.svdvals(A)}. */
    public static Tensor svdvals(Tensor a) { return Dispatcher.call1(SVDVALS, a); }

    /** {@code torch.linalg.qr(A, mode=mode)} with mode "reduced", "complete" or "r": {@code {Q, R}}. */
    public static Tensor[] qr(Tensor a, String mode) { return (Tensor[]) Dispatcher.call(QR, a, mode); }

    /** {@code torch.linalg.matrix_sqrth(A)}. */
    public static Tensor matrixSqrth(Tensor a) { return Dispatcher.call1(MATRIX_SQRTH, a); }

    /** {@code torch.linalg.polar(A)}: {@code {U, H}}. */
    public static Tensor[] polar(Tensor a) { return (Tensor[]) Dispatcher.call(POLAR, a); }

    // ---------------------------------------------------------------- meta

    /** The output of shape {@code shape} and an int32 info per matrix. */
    private static Spec withInfo(String api, Tensor a, long[] shape) {
        requireSquare(api, a);
        long[] batch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
        return new Spec(new long[][] {shape, batch}, new DType[] {a.dtype(), DType.INT32}, a.device(), null);
    }

    /** UPLO: true for "U"; PyTorch's check. */
    private static boolean uplo(String uplo) {
        if (!"L".equals(uplo) && !"U".equals(uplo)) {
            throw new TorchException("Expected UPLO argument to be 'L' or 'U', but got " + uplo);
        }
        return uplo.equals("U");
    }

    private static String eighError(String api, int info) {
        return api + ": {where}The algorithm failed to converge because the input matrix is ill-conditioned or has too many"
                + " repeated eigenvalues (error code: " + info + ").";
    }

    /** dim, dtype and device checks shared by the ops that take any {@code (*, m, n)} matrices. */
    private static void requireMatrix(String api, Tensor a) {
        if (a.dim() < 2) throw new TorchException(api + ": The input tensor A must have at least 2 dimensions.");
        requireFloatingOrComplex(api, a);
    }

    private static Spec svdMeta(String api, Tensor a, boolean full, boolean vectors) {
        requireMatrix(api, a);
        long m = a.size(-2), n = a.size(-1), k = Math.min(m, n);
        long[] batch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
        long[] s = concat(batch, k);
        if (!vectors) return Spec.of(s, a.dtype().toReal(), a.device(), null);
        long[] u = concat(batch, m, full ? m : k), vh = concat(batch, full ? n : k, n);
        return new Spec(new long[][] {u, s, vh}, new DType[] {a.dtype(), a.dtype().toReal(), a.dtype()}, a.device(), null);
    }

    private static Spec qrMeta(Tensor a, String mode) {
        requireMatrix("linalg.qr", a);
        if (!mode.equals("reduced") && !mode.equals("complete") && !mode.equals("r")) {
            throw new TorchException("qr received unrecognized mode '" + mode
                    + "' but expected one of 'reduced' (default), 'r', or 'complete'");
        }
        long m = a.size(-2), n = a.size(-1), k = Math.min(m, n);
        long[] batch = Arrays.copyOf(a.shapeRef(), a.dim() - 2);
        boolean complete = mode.equals("complete");
        long[] q = mode.equals("r") ? new long[] {0} : concat(batch, m, complete ? m : k);
        long[] r = concat(batch, complete ? m : k, n);
        return new Spec(new long[][] {q, r}, new DType[] {a.dtype(), a.dtype()}, a.device(), null);
    }

    private static void polarCheck(Tensor a) {
        requireMatrix("linalg.polar", a);
        long m = a.size(-2), n = a.size(-1);
        if (m < n) {
            throw new TorchException("linalg.polar: input must have at least as many rows as columns, but got "
                    + m + " by " + n + " matrices");
        }
    }

    private static long[] concat(long[] batch, long... tail) {
        long[] r = Arrays.copyOf(batch, batch.length + tail.length);
        System.arraycopy(tail, 0, r, batch.length, tail.length);
        return r;
    }

    /** The batch dims of a solve's broadcast output. */
    private static int solveBatchDims(Tensor a, Tensor b, Tensor out) { return out.dim() - (vectorCase(a, b) ? 1 : 2); }

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

    private static Spec solveMeta(String api, Tensor a, Tensor b, boolean left) {
        Device device = Devices.common(api, a, b);
        requireSquare(api, a);
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
        requireFloatingOrComplex(api, a);
    }

    private static void requireFloatingOrComplex(String api, Tensor a) {
        DType t = a.dtype();
        if (!t.isFloatingPoint() && !t.isComplex()) {
            throw new TorchException(api + ": Expected a floating point or complex tensor as input. Got " + t.cppName());
        }
        if (t.isReducedPrecision()) throw new TorchException(api + ": Low precision dtypes not supported. Got " + t.cppName());
        if (a.device() != Device.CPU && a.device() != Device.META) {
            throw new TorchException(api + ": only CPU tensors are supported, got " + a.device());
        }
    }

    // ---------------------------------------------------------------- kernels

    private static int batchDims(Tensor a) { return a.dim() - 2; }

    private static String choleskyError(int info) {
        return "linalg.cholesky: {where}The factorization could not be completed because the input is not positive-definite"
                + " (the leading minor of order " + info + " is not positive-definite).";
    }

    private static String invError(int info) {
        return "linalg.inv: {where}The diagonal element " + info
                + " is zero, the inversion could not be completed because the input matrix is singular.";
    }

    private static void cholesky(Tensor a, boolean upper, Tensor out) {
        int[] info = LinalgKernels.cholesky(a, upper, out);
        LinalgKernels.raise(info, batchDims(a), b -> choleskyError(info[b]));
    }

    private static void inv(Tensor a, Tensor out) {
        int[] info = LinalgKernels.inv(a, out);
        LinalgKernels.raise(info, batchDims(a), b -> invError(info[b]));
    }

    /**
     * Per broadcast batch element: LU of A, then getrs on B's columns; left=False solves
     * {@code X A = B} as {@code A^T X^T = B^T}. A vector B is a one-column (left) or one-row matrix.
     */
    private static int[] solve(Tensor a, Tensor b, boolean left, Tensor out) {
        boolean vector = vectorCase(a, b);
        int batchDims = out.dim() - (vector ? 1 : 2);
        long[] batch = Arrays.copyOf(out.shapeRef(), batchDims);
        long n = a.size(-1), k = vector ? 1 : (left ? b.size(-1) : b.size(-2));
        Tensor as = expandTo(a, batch, n, n);
        Tensor bm = vector ? asMatrix(b, left) : b;
        Tensor bs = expandTo(bm, batch, left ? n : k, left ? k : n);
        Tensor om = vector ? asMatrix(out, left) : out;
        return LinalgKernels.solve(as, bs, left, om);
    }

    private static void svd(Tensor a, boolean full, Tensor s, Tensor u, Tensor vh) {
        int[] info = LinalgKernels.svd(a, full, s, u, vh);
        LinalgKernels.raise(info, batchDims(a), b -> info[b] < 0
                ? "linalg.svd: {where}The algorithm failed to converge because the input matrix contained non-finite values."
                : "linalg.svd: {where}The algorithm failed to converge because the input matrix is ill-conditioned or has too many"
                        + " repeated singular values (error code: " + info[b] + ").");
    }

    /** {@code Q diag(sqrt(max(lambda, 0))) Q^H}. */
    static Tensor sqrthFrom(Tensor lambda, Tensor q) {
        return q.mul(lambda.clampMin(0.0).sqrt().unsqueeze(-2)).matmul(q.mH());
    }

    /** t (its last two dims {@code rows x cols}) broadcast to {@code batch}, as a view. */
    private static Tensor expandTo(Tensor t, long[] batch, long rows, long cols) {
        long[] shape = Arrays.copyOf(batch, batch.length + 2);
        shape[batch.length] = rows;
        shape[batch.length + 1] = cols;
        return t.viewOf(t.storageOffset(), shape, Shapes.broadcastStrides(t.shapeRef(), t.strideRef(), shape));
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
     * slogdet: {@code d log|det| = Re tr(A^-1 dA)}, and for complex A the sign's gradient enters as
     * {@code g = g_logabsdet + i Im(g_sign conj(sign))}; {@code gA = g A^-H}. The real sign is locally constant.
     */
    private static Tensor slogdetBackward(Tensor a, Tensor sign, Tensor gSign, Tensor gLog) {
        Tensor g = gLog;
        if (a.isComplex() && gSign != null) {
            Tensor im = gSign.mul(sign.conj()).imag();
            Tensor term = ComplexOps.complex(im.mul(0.0), im);
            g = g == null ? term : term.add(g);
        }
        if (g == null) return null;
        return g.unsqueeze(-1).unsqueeze(-1).mul(inv(a).mH());
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

package org.jtorch.ops;

import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;

/**
 * The {@code torch.linalg} family: factorisation-based ops on batches of matrices {@code (*, m, n)} of float32,
 * float64, complex64 or complex128, computed per matrix by LAPACK ({@link LinalgKernels}), and the decompositions'
 * backward rules (conjugate-Wirtinger for complex inputs).
 */
public final class LinalgOps {
    private LinalgOps() {}

    private static final String SOLVE_ERROR_TEXT =
            "torch.linalg.solve: {where}The solver failed because the input matrix is singular.";

    /**
     * {@code linalg.cholesky(A, upper=False)}: lower L with {@code A = L L^H} (upper: {@code U = L^H}); reads one
     * triangle.
     */
    public static final OpDef CHOLESKY = OpDef.structured(
                    "linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor",
                    args -> sameShape("linalg.cholesky", (Tensor) args[0]),
                    (args, outs, spec) -> cholesky((Tensor) args[0], (Boolean) args[1], outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {choleskyBackward(o[0], g[0], (Boolean) a[1])})
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : choleskyJvp(o[0], t[0], (Boolean) a[1])});

    /**
     * {@code linalg.cholesky_ex(A, upper, check_errors)}: (L, info) with info k > 0 where the minor of order k is not
     * positive-definite.
     */
    public static final OpDef CHOLESKY_EX = OpDef.structured(
                    "linalg_cholesky_ex(Tensor self, *, bool upper=False, "
                            + "bool check_errors=False) -> (Tensor L, Tensor info)",
                    args -> withInfo("linalg.cholesky_ex", (Tensor) args[0], ((Tensor) args[0]).shape()),
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        int[] info = LinalgKernels.cholesky(a, (Boolean) args[1], outs[0]);
                        LinalgKernels.storeInfo(info, outs[1]);
                        if ((Boolean) args[2]) LinalgKernels.raise(info, batchDims(a), b -> choleskyError(info[b]));
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {choleskyBackward(o[0], g[0], (Boolean) a[1])})
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.inv(A)}: the inverse; a singular matrix is an error. */
    public static final OpDef INV = OpDef.structured(
                    "linalg_inv(Tensor A) -> Tensor",
                    args -> sameShape("linalg.inv", (Tensor) args[0]),
                    (args, outs, spec) -> inv((Tensor) args[0], outs[0]))
            // d(A^-1) = -A^-1 dA A^-1, so gA = -C^H g C^H with C = A^-1
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {o[0].mH().matmul(g[0]).matmul(o[0].mH()).neg()})
            .defineJvp((a, o, t) -> new Tensor[] {
                t[0] == null ? null : o[0].matmul(t[0]).matmul(o[0]).neg()
            });

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
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {o[0].mH().matmul(g[0]).matmul(o[0].mH()).neg()})
            .defineJvp((a, o, t) -> new Tensor[] {
                t[0] == null ? null : o[0].matmul(t[0]).matmul(o[0]).neg(), null
            });

    /** {@code linalg.det(A)}: determinants, shape {@code *}, from an LU factorisation; singular gives 0. */
    public static final OpDef DET = OpDef.structured(
                    "linalg_det(Tensor A) -> Tensor",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        requireSquare("linalg.det", a);
                        return Spec.of(Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2), a.dtype(), a.device(), null);
                    },
                    (args, outs, spec) -> LinalgKernels.det((Tensor) args[0], outs[0], null))
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> new Tensor[] {detBackward((Tensor) a[0], o[0], g[0])})
            .defineJvp((a, o, t) ->
                    new Tensor[] {t[0] == null ? null : o[0].mul(traceOfInverseTimes((Tensor) a[0], t[0]))});

    /**
     * {@code logdet(A)}: log det A from {@code slogdet}, as ATen composes it: NaN for a negative determinant of a real
     * matrix, −inf for a singular one; log(sign) + log|det| for complex A.
     */
    public static final OpDef LOGDET = OpDef.composite("logdet(Tensor self) -> Tensor", args -> {
        Tensor a = (Tensor) args[0];
        requireSquare("logdet", a);
        Tensor[] s = (Tensor[]) Dispatcher.call(LinalgOps.SLOGDET, a);
        if (a.isComplex()) return s[0].log().add(s[1]);
        return TernaryOps.where(s[0].eq(-1.0), Double.NaN, s[1]);
    });

    /**
     * {@code trace(A)}: the sum of a matrix's main diagonal, with {@code sum}'s dtype (integers give int64); bool is
     * refused, as ATen's kernel.
     */
    public static final OpDef TRACE = OpDef.composite("trace(Tensor self) -> Tensor", args -> {
        Tensor a = (Tensor) args[0];
        if (a.dim() != 2) throw new TorchException("trace: expected a matrix, but got tensor with dim " + a.dim());
        if (a.dtype() == DType.BOOL) throw new UnsupportedOperationException("\"trace\" not implemented for 'Bool'");
        return a.diagonal().sum();
    });

    /** {@code linalg.slogdet(A)}: (sign, log|det|) from an LU factorisation; singular gives (0, -inf). */
    public static final OpDef SLOGDET = OpDef.structured(
                    "linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        requireSquare("linalg.slogdet", a);
                        long[] batch = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2);
                        return new Spec(
                                new long[][] {batch, batch},
                                new DType[] {a.dtype(), a.dtype().toReal()},
                                a.device(),
                                null);
                    },
                    (args, outs, spec) -> LinalgKernels.det((Tensor) args[0], outs[0], outs[1]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {slogdetBackward((Tensor) a[0], o[0], g[0], g[1])})
            .defineJvp((a, o, t) -> {
                // d logabsdet = Re tr(A^-1 dA); d sign = sign · i·Im tr(A^-1 dA) (zero for real A)
                if (t[0] == null) return new Tensor[2];
                Tensor tr = traceOfInverseTimes((Tensor) a[0], t[0]);
                Tensor sign = tr.isComplex() ? o[0].mul(tr.sub(tr.conj()).mul(0.5)) : null;
                return new Tensor[] {sign, tr.isComplex() ? tr.real() : tr};
            });

    /**
     * {@code linalg.solve(A, B, left=True)}: X with {@code A X = B} (left=False: {@code X A = B}); batch dims
     * broadcast.
     */
    public static final OpDef SOLVE = OpDef.structured(
                    "linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor",
                    args -> solveMeta("linalg.solve", (Tensor) args[0], (Tensor) args[1], (Boolean) args[2]),
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        int[] info = solve(a, (Tensor) args[1], (Boolean) args[2], outs[0]);
                        LinalgKernels.raise(info, solveBatchDims(a, (Tensor) args[1], outs[0]), b -> SOLVE_ERROR_TEXT);
                    })
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g) -> solveBackward((Tensor) a[0], (Tensor) a[1], (Boolean) a[2], o[0], g[0]))
            .defineJvp((a, o, t) -> new Tensor[] {solveJvp((Tensor) a[0], (Boolean) a[2], o[0], t[0], t[1])});

    /**
     * {@code linalg.solve_ex(A, B, left, check_errors)}: (result, info) with info k > 0 where the LU's pivot k is zero.
     * info has A's batch shape, not the broadcast one: as in ATen, it describes the LU of each matrix of A, which is
     * factored once however many right-hand sides share it.
     */
    public static final OpDef SOLVE_EX = OpDef.structured(
                    "linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, "
                            + "bool check_errors=False) -> (Tensor result, Tensor info)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        Spec x = solveMeta("linalg.solve_ex", a, (Tensor) args[1], (Boolean) args[2]);
                        return new Spec(
                                new long[][] {
                                    x.shapes()[0], Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2)
                                },
                                new DType[] {x.dtypes()[0], DType.INT32},
                                x.device(),
                                null);
                    },
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        int[] broadcastInfo = solve(a, (Tensor) args[1], (Boolean) args[2], outs[0]);
                        long[] out = outs[0].impl().shapeRef();
                        long[] batch = Arrays.copyOf(out, solveBatchDims(a, (Tensor) args[1], outs[0]));
                        int[] info = Shapes.numel(batch) == 0 && outs[1].numel() > 0
                                // B broadcasts A's batch away: no solve ran, yet info describes A's LU
                                ? Arrays.stream(LinalgSolveOps.luFactorEx(a, true, false)[2].toLongArray())
                                        .mapToInt(Math::toIntExact)
                                        .toArray()
                                : infoPerMatrixOfA(
                                        broadcastInfo, batch, outs[1].impl().shapeRef());
                        LinalgKernels.storeInfo(info, outs[1]);
                        if ((Boolean) args[3]) LinalgKernels.raise(info, a.dim() - 2, b -> SOLVE_ERROR_TEXT);
                    })
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g) -> solveBackward((Tensor) a[0], (Tensor) a[1], (Boolean) a[2], o[0], g[0]))
            .defineJvp((a, o, t) -> new Tensor[] {solveJvp((Tensor) a[0], (Boolean) a[2], o[0], t[0], t[1]), null});

    // ---------------------------------------------------------------- decompositions and norms

    /**
     * {@code linalg.eigh(A, UPLO='L')}: ascending real eigenvalues and orthonormal eigenvectors (columns) of a
     * Hermitian A.
     */
    public static final OpDef EIGH = OpDef.structured(
                    "linalg_eigh(Tensor self, str UPLO=\"L\") -> (Tensor eigenvalues, Tensor eigenvectors)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        requireSquare("linalg.eigh", a);
                        boolean upper = uplo((String) args[1]);
                        long[] values = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 1);
                        return new Spec(
                                new long[][] {values, a.shape()},
                                new DType[] {a.dtype().toReal(), a.dtype()},
                                a.device(),
                                upper);
                    },
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        int[] info = LinalgKernels.eigh(a, (Boolean) spec.plan(), outs[0], outs[1]);
                        LinalgKernels.raise(info, batchDims(a), b -> eighError("linalg.eigh", info[b]));
                    })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.eigh(o[0], o[1], g[0], g[1])})
            // only the outputs that were used contribute: eigenvalues alone take the shortcut that stays finite for
            // repeated eigen- or singular values, as PyTorch's undefined gradients do
            .vjpTakesMissingGrads()
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.eigvalsh(A, UPLO='L')}: the ascending eigenvalues of a Hermitian A. */
    public static final OpDef EIGVALSH = OpDef.structured(
                    "linalg_eigvalsh(Tensor self, str UPLO=\"L\") -> Tensor",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        requireSquare("linalg.eigvalsh", a);
                        boolean upper = uplo((String) args[1]);
                        return Spec.of(
                                Arrays.copyOf(a.impl().shapeRef(), a.dim() - 1),
                                a.dtype().toReal(),
                                a.device(),
                                upper);
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
            })
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.svd(A, full_matrices=True)}: (U, S, Vh) with S real and descending. */
    public static final OpDef SVD = OpDef.structured(
                    "linalg_svd(Tensor A, bool full_matrices=True) -> (Tensor U, Tensor S, Tensor Vh)",
                    args -> svdMeta("linalg.svd", (Tensor) args[0], (Boolean) args[1], true),
                    (args, outs, spec) -> svd((Tensor) args[0], (Boolean) args[1], outs[1], outs[0], outs[2]))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {LinalgGrads.svd((Boolean) a[1], o[0], o[1], o[2], g[0], g[1], g[2])})
            // only the outputs that were used contribute: eigenvalues alone take the shortcut that stays finite for
            // repeated eigen- or singular values, as PyTorch's undefined gradients do
            .vjpTakesMissingGrads()
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.svdvals(A)}: the singular values, descending. */
    public static final OpDef SVDVALS = OpDef.structured(
                    "linalg_svdvals(Tensor A) -> Tensor",
                    args -> svdMeta("linalg.svdvals", (Tensor) args[0], false, false),
                    (args, outs, spec) -> svd((Tensor) args[0], false, outs[0], null, null))
            // d s_i = Re(u_i^H dA v_i): gA = U diag(g) V^H, with U, V^H from a differentiable svd (second order)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor[] usv = svd((Tensor) a[0], false);
                return new Tensor[] {usv[0].mul(g[0].unsqueeze(-2)).matmul(usv[2])};
            })
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.qr(A, mode='reduced')}: Householder QR, LAPACK's signs; modes reduced, complete, r (Q empty). */
    public static final OpDef QR = OpDef.structured(
                    "linalg_qr(Tensor A, str mode=\"reduced\") -> (Tensor Q, Tensor R)",
                    args -> qrMeta((Tensor) args[0], (String) args[1]),
                    (args, outs, spec) -> {
                        String mode = (String) args[1];
                        LinalgKernels.qr(
                                (Tensor) args[0], mode.equals("complete"), mode.equals("r") ? null : outs[0], outs[1]);
                    })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                    new Tensor[] {LinalgGrads.qr((String) a[1], o[0], o[1], g[0], g[1])})
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.matrix_sqrth(A)} (2.14): the principal square root of a Hermitian positive-definite A, {@code Q
     * diag(sqrt(max(lambda, 0))) Q^H} from the eigen-decomposition of A's lower triangle. Backward solves the Sylvester
     * equation {@code X gA + gA X = sym(G)} in the eigenbasis.
     */
    public static final OpDef MATRIX_SQRTH = OpDef.structured(
                    "linalg_matrix_sqrth(Tensor A) -> Tensor",
                    args -> sameShape("linalg.matrix_sqrth", (Tensor) args[0]),
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        if (a.numel() == 0) return;
                        int[] info = LinalgKernels.matrixSqrth(a, outs[0]);
                        LinalgKernels.raise(info, batchDims(a), b -> eighError("linalg.eigh", info[b]));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {LinalgGrads.matrixSqrth((Tensor) a[0], g[0])})
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.polar(A)} (2.14): {@code A = U H} for m >= n, U with orthonormal columns, H Hermitian positive
     * semi-definite, from the reduced SVD {@code A = W S V^H}: {@code U = W V^H}, {@code H = V S V^H} (re-symmetrised).
     * Its own backward (spec/linalg.md, PR #189732) solves Sylvester equations in H's eigenbasis, dividing by
     * {@code s_i + s_j}: unlike the SVD's rule it stays finite for repeated singular values (an orthogonal A, for one).
     */
    public static final OpDef POLAR = OpDef.structured(
                    "linalg_polar(Tensor A) -> (Tensor U, Tensor H)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        polarCheck(a);
                        long n = a.size(-1);
                        long[] h = Arrays.copyOf(a.impl().shapeRef(), a.dim());
                        h[a.dim() - 2] = n;
                        return new Spec(
                                new long[][] {a.shape(), h}, new DType[] {a.dtype(), a.dtype()}, a.device(), null);
                    },
                    (args, outs, spec) -> {
                        Tensor a = (Tensor) args[0];
                        if (a.numel() == 0) return;
                        raiseSvdFailure(LinalgKernels.polar(a, outs[0], outs[1]), batchDims(a));
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {LinalgGrads.polar((Tensor) a[0], o[0], o[1], g[0], g[1])})
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.matrix_norm(A, ord)} for a numeric ord: 2 / -2 (largest / smallest singular value), 1 / -1, inf /
     * -inf.
     */
    public static final OpDef MATRIX_NORM = OpDef.composite(
            "linalg_matrix_norm(Tensor A, Scalar ord, int[] dim=[-2,-1], bool keepdim=False) -> Tensor",
            args -> matrixNormOf(
                    (Tensor) args[0], ordName(((Number) args[1]).doubleValue()), (long[]) args[2], (Boolean) args[3]));

    /** {@code linalg.matrix_norm(A, ord='fro')} for a string ord: 'fro' (Frobenius) or 'nuc' (nuclear). */
    public static final OpDef MATRIX_NORM_STR = OpDef.composite(
            "linalg_matrix_norm.str_ord(Tensor A, str ord=\"fro\", int[] dim=[-2,-1], bool keepdim=False) -> Tensor",
            args -> matrixNormOf((Tensor) args[0], (String) args[1], (long[]) args[2], (Boolean) args[3]));

    /**
     * {@code linalg.pinv(A, atol, rtol, hermitian)}: the pseudo-inverse from the SVD (or, hermitian, the
     * eigen-decomposition), dropping singular values at or below {@code max(atol, rtol * sigma_max)}. Its own
     * derivative (PyTorch's {@code pinv_backward} / {@code pinv_jvp}) is written with the result alone, so it holds for
     * rank-deficient A, where differentiating through the SVD gives NaN.
     */
    public static final OpDef PINV = OpDef.structured(
                    "linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
                            + "bool hermitian=False) -> Tensor",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        pinvCheck(a);
                        long[] shape = a.shape();
                        shape[shape.length - 2] = a.size(-1);
                        shape[shape.length - 1] = a.size(-2);
                        return Spec.of(shape, a.dtype(), a.device(), null);
                    },
                    (args, outs, spec) -> {
                        if (outs[0].numel() == 0) return;
                        try (var _ = DispatchState.gradEnabled(false)) {
                            outs[0].copy_(
                                    pinvOf((Tensor) args[0], (Double) args[1], (Double) args[2], (Boolean) args[3]));
                        }
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {LinalgGrads.pinv(g[0], o[0], (Tensor) a[0])})
            .defineJvp(
                    (a, o, t) -> new Tensor[] {t[0] == null ? null : LinalgGrads.pinvJvp((Tensor) a[0], o[0], t[0])});

    /**
     * {@code linalg.matrix_rank(A, atol, rtol, hermitian)}: singular values above {@code max(atol, rtol * sigma_max)},
     * int64.
     */
    public static final OpDef MATRIX_RANK = OpDef.composite(
            "linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, "
                    + "bool hermitian=False) -> Tensor",
            args -> {
                Tensor a = (Tensor) args[0];
                if (a.dim() < 2) {
                    throw new TorchException(
                            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.");
                }
                requireFloatingOrComplex("torch.linalg.matrix_rank", a);
                Tensor s = (Boolean) args[3] ? eigvalsh(a, "L").abs() : svdvals(a);
                return s.gt(tolerance(a, s, (Double) args[1], (Double) args[2])).sum(-1);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /**
     * {@code linalg.cond(A, p)} for p = None (2), 2, -2, 1, -1, inf, -inf; ±2 from the singular values, others via the
     * inverse.
     */
    public static final OpDef COND = OpDef.composite(
            "linalg_cond(Tensor self, Scalar? p=None) -> Tensor",
            args -> condOf((Tensor) args[0], args[1] == null ? "2" : ordName(((Number) args[1]).doubleValue())));

    /** {@code linalg.cond(A, p)} for p = 'fro' or 'nuc'. */
    public static final OpDef COND_STR = OpDef.composite(
            "linalg_cond.p_str(Tensor self, str p) -> Tensor", args -> condOf((Tensor) args[0], (String) args[1]));

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
        Tensor lower = JoinOps.TRIL.call1(x, 0L);
        Tensor phi = lower.sub(JoinOps.TRIU.call1(lower, 0L).mul(0.5));
        Tensor dL = l.matmul(phi);
        return up ? dL.mH() : dL;
    }

    /** {@code dX = A^-1 (dB - dA X)} (left) or {@code (dB - X dA) A^-1} (right); X may be a (batch of) vector(s). */
    private static Tensor solveJvp(Tensor a, Boolean left, Tensor x, Tensor dA, Tensor dB) {
        boolean l = !Boolean.FALSE.equals(left);
        boolean vector = x.dim() == a.dim() - 1;
        Tensor rhs = dB;
        if (dA != null) {
            Tensor prod = l
                    ? (vector ? dA.matmul(x.unsqueeze(-1)).squeeze(-1) : dA.matmul(x))
                    : (vector ? x.unsqueeze(-2).matmul(dA).squeeze(-2) : x.matmul(dA));
            rhs = rhs == null ? prod.neg() : rhs.sub(prod);
        }
        return rhs == null ? null : solve(a, rhs, l);
    }

    // ---------------------------------------------------------------- entry points

    /** {@code torch.linalg.cholesky(A)}. */
    public static Tensor cholesky(Tensor a) {
        return CHOLESKY.call1(a, false);
    }

    /** {@code torch.linalg.cholesky(A, upper=upper)}. */
    public static Tensor cholesky(Tensor a, boolean upper) {
        return CHOLESKY.call1(a, upper);
    }

    /** {@code torch.linalg.inv(A)}. */
    public static Tensor inv(Tensor a) {
        return INV.call1(a);
    }

    /** {@code torch.linalg.det(A)}. */
    public static Tensor det(Tensor a) {
        return DET.call1(a);
    }

    /** {@code torch.logdet(A)}. */
    public static Tensor logdet(Tensor a) {
        return LOGDET.call1(a);
    }

    /** {@code torch.trace(A)}. */
    public static Tensor trace(Tensor a) {
        return TRACE.call1(a);
    }

    /** {@code torch.linalg.slogdet(A)}: {@code {sign, logabsdet}}. */
    public static Tensor[] slogdet(Tensor a) {
        return (Tensor[]) Dispatcher.call(SLOGDET, a);
    }

    /** {@code torch.linalg.solve(A, B)}. */
    public static Tensor solve(Tensor a, Tensor b) {
        return SOLVE.call1(a, b, true);
    }

    /** {@code torch.linalg.solve(A, B, left=left)}. */
    public static Tensor solve(Tensor a, Tensor b, boolean left) {
        return SOLVE.call1(a, b, left);
    }

    /** {@code torch.linalg.cholesky_ex(A, upper=upper, check_errors=checkErrors)}: {@code {L, info}}. */
    public static Tensor[] choleskyEx(Tensor a, boolean upper, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(CHOLESKY_EX, a, upper, checkErrors);
    }

    /** {@code torch.linalg.inv_ex(A, check_errors=checkErrors)}: {@code {inverse, info}}. */
    public static Tensor[] invEx(Tensor a, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(INV_EX, a, checkErrors);
    }

    /** {@code torch.linalg.solve_ex(A, B, left=left, check_errors=checkErrors)}: {@code {result, info}}. */
    public static Tensor[] solveEx(Tensor a, Tensor b, boolean left, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(SOLVE_EX, a, b, left, checkErrors);
    }

    /** {@code torch.linalg.eigh(A, UPLO=uplo)}: {@code {eigenvalues, eigenvectors}}. */
    public static Tensor[] eigh(Tensor a, String uplo) {
        return (Tensor[]) Dispatcher.call(EIGH, a, uplo);
    }

    /** {@code torch.linalg.eigvalsh(A, UPLO=uplo)}. */
    public static Tensor eigvalsh(Tensor a, String uplo) {
        return EIGVALSH.call1(a, uplo);
    }

    /** {@code torch.linalg.svd(A, full_matrices=fullMatrices)}: {@code {U, S, Vh}}. */
    public static Tensor[] svd(Tensor a, boolean fullMatrices) {
        return (Tensor[]) Dispatcher.call(SVD, a, fullMatrices);
    }

    /** {@code torch.linalg.svdvals(A)}. */
    public static Tensor svdvals(Tensor a) {
        return SVDVALS.call1(a);
    }

    /** {@code torch.linalg.qr(A, mode=mode)} with mode "reduced", "complete" or "r": {@code {Q, R}}. */
    public static Tensor[] qr(Tensor a, String mode) {
        return (Tensor[]) Dispatcher.call(QR, a, mode);
    }

    /** {@code torch.linalg.matrix_sqrth(A)}. */
    public static Tensor matrixSqrth(Tensor a) {
        return MATRIX_SQRTH.call1(a);
    }

    /** {@code torch.linalg.polar(A)}: {@code {U, H}}. */
    public static Tensor[] polar(Tensor a) {
        return (Tensor[]) Dispatcher.call(POLAR, a);
    }

    /** {@code torch.linalg.matrix_norm(A, ord, dim, keepdim)}, ord numeric (2, -2, 1, -1, inf, -inf). */
    public static Tensor matrixNorm(Tensor a, double ord, long[] dim, boolean keepdim) {
        return MATRIX_NORM.call1(a, ord, dim, keepdim);
    }

    /** {@code torch.linalg.matrix_norm(A, ord, dim, keepdim)}, ord "fro" or "nuc". */
    public static Tensor matrixNorm(Tensor a, String ord, long[] dim, boolean keepdim) {
        return MATRIX_NORM_STR.call1(a, ord, dim, keepdim);
    }

    /**
     * {@code torch.linalg.pinv(A, atol=atol, rtol=rtol, hermitian=hermitian)}; null tolerances take PyTorch's defaults.
     */
    public static Tensor pinv(Tensor a, Double atol, Double rtol, boolean hermitian) {
        return PINV.call1(a, atol, rtol, hermitian);
    }

    /** {@code torch.linalg.matrix_rank(A, atol=atol, rtol=rtol, hermitian=hermitian)}. */
    public static Tensor matrixRank(Tensor a, Double atol, Double rtol, boolean hermitian) {
        return MATRIX_RANK.call1(a, atol, rtol, hermitian);
    }

    /** {@code torch.linalg.cond(A, p)}; null p is the 2-norm condition number. */
    public static Tensor cond(Tensor a, Double p) {
        return COND.call1(a, p);
    }

    /** {@code torch.linalg.cond(A, p)} for p "fro" or "nuc". */
    public static Tensor cond(Tensor a, String p) {
        return COND_STR.call1(a, p);
    }

    /**
     * {@code torch.linalg.norm(A, ord, dim, keepdim)}: a vector norm over one dim (or, with neither ord nor dim, over
     * all elements), a matrix norm over two; ord is null, a Double or a String ("fro", "nuc").
     */
    public static Tensor norm(Tensor a, Object ord, long[] dim, boolean keepdim) {
        if (dim != null && dim.length != 1 && dim.length != 2) {
            throw new TorchException(
                    "linalg.norm: If dim is specified, it must be of length 1 or 2. Got " + Arrays.toString(dim));
        }
        if (dim == null && ord != null && a.dim() != 1 && a.dim() != 2) {
            throw new TorchException("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                    + a.dim() + "D.");
        }
        boolean matrix = dim != null ? dim.length == 2 : ord != null && a.dim() == 2;
        if (matrix) {
            long[] dims = dim != null ? dim : new long[] {-2, -1};
            if (ord == null || ord instanceof String)
                return matrixNorm(a, ord == null ? "fro" : (String) ord, dims, keepdim);
            return matrixNorm(a, ((Number) ord).doubleValue(), dims, keepdim);
        }
        if (ord instanceof String s) {
            throw new TorchException(
                    "linalg.vector_norm: ord '" + s + "' is a matrix norm; it needs a 2-D input or two dims");
        }
        double p = ord == null ? 2 : ((Number) ord).doubleValue();
        return dim == null ? ReductionOps.vectorNorm(a, p) : ReductionOps.vectorNorm(a, p, dim, keepdim);
    }

    // ---------------------------------------------------------------- meta

    /** The output of shape {@code shape} and an int32 info per matrix. */
    private static Spec withInfo(String api, Tensor a, long[] shape) {
        requireSquare(api, a);
        long[] batch = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2);
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
        return api + ": {where}The algorithm failed to converge because the input matrix is ill-conditioned or "
                + "has too many"
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
        long[] batch = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2);
        long[] s = concat(batch, k);
        if (!vectors) return Spec.of(s, a.dtype().toReal(), a.device(), null);
        long[] u = concat(batch, m, full ? m : k), vh = concat(batch, full ? n : k, n);
        return new Spec(
                new long[][] {u, s, vh}, new DType[] {a.dtype(), a.dtype().toReal(), a.dtype()}, a.device(), null);
    }

    private static Spec qrMeta(Tensor a, String mode) {
        requireMatrix("linalg.qr", a);
        if (!mode.equals("reduced") && !mode.equals("complete") && !mode.equals("r")) {
            throw new TorchException("qr received unrecognized mode '" + mode
                    + "' but expected one of 'reduced' (default), 'r', or 'complete'");
        }
        long m = a.size(-2), n = a.size(-1), k = Math.min(m, n);
        long[] batch = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2);
        boolean complete = mode.equals("complete");
        long[] q = mode.equals("r") ? new long[] {0} : concat(batch, m, complete ? m : k);
        long[] r = concat(batch, complete ? m : k, n);
        return new Spec(new long[][] {q, r}, new DType[] {a.dtype(), a.dtype()}, a.device(), null);
    }

    private static void polarCheck(Tensor a) {
        requireMatrix("linalg.polar", a);
        long m = a.size(-2), n = a.size(-1);
        if (m < n) {
            throw new TorchException("linalg.polar: input must have at least as many rows as columns, but got " + m
                    + " by " + n + " matrices");
        }
    }

    private static long[] concat(long[] batch, long... tail) {
        long[] r = Arrays.copyOf(batch, batch.length + tail.length);
        System.arraycopy(tail, 0, r, batch.length, tail.length);
        return r;
    }

    /**
     * The info codes of a solve over the broadcast batch {@code batch}, one per matrix of A (batch shape
     * {@code aBatch}, aligned to the right of {@code batch}): every broadcast copy of a matrix has the same LU, so the
     * first copy's code stands for it.
     */
    private static int[] infoPerMatrixOfA(int[] broadcastInfo, long[] batch, long[] aBatch) {
        int[] info = new int[Math.toIntExact(Shapes.numel(aBatch))];
        int lead = batch.length - aBatch.length;
        long[] strides = Shapes.contiguousStrides(batch);
        for (int k = 0; k < info.length; k++) {
            long rem = k, at = 0;
            for (int d = aBatch.length - 1; d >= 0; d--) {
                at += rem % aBatch[d] * strides[lead + d];
                rem /= aBatch[d];
            }
            info[k] = broadcastInfo[Math.toIntExact(at)];
        }
        return info;
    }

    /** The batch dims of a solve's broadcast output. */
    private static int solveBatchDims(Tensor a, Tensor b, Tensor out) {
        return out.dim() - (vectorCase(a, b) ? 1 : 2);
    }

    private static Spec sameShape(String api, Tensor a) {
        requireSquare(api, a);
        return Spec.of(a.shape(), a.dtype(), a.device(), null);
    }

    /**
     * PyTorch's vector case: B is a (batch of) vector(s) when it is 1-D, or has A's shape without its last dim; it is
     * then solved as a one-column matrix and the column dropped again.
     */
    private static boolean vectorCase(Tensor a, Tensor b) {
        return b.dim() == 1
                || (b.dim() == a.dim() - 1
                        && Arrays.equals(
                                b.impl().shapeRef(), Arrays.copyOf(a.impl().shapeRef(), a.dim() - 1)));
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
            if (b.size(-1) != n)
                throw incompatible(a, b, left, left ? new long[] {b.size(-1), 1} : new long[] {1, b.size(-1)});
        } else {
            if (b.dim() < 2)
                throw new TorchException("linalg.solve: The input tensor B must have at least 2 dimensions.");
            long rows = left ? b.size(-2) : b.size(-1);
            if (rows != n) throw incompatible(a, b, left, new long[] {b.size(-2), b.size(-1)});
        }
        long[] aBatch = Arrays.copyOf(a.impl().shapeRef(), a.dim() - 2);
        long[] bBatch = Arrays.copyOf(b.impl().shapeRef(), b.dim() - (vector ? 1 : 2));
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
        if (m != n)
            throw new TorchException(
                    api + ": A must be batches of square matrices, but they are " + m + " by " + n + " matrices");
        requireFloatingOrComplex(api, a);
    }

    private static void requireFloatingOrComplex(String api, Tensor a) {
        requireFloatingOrComplex(api, a, false);
    }

    /** {@code halfPrecision}: float16 and bfloat16 pass too (ATen's low_precision flag; float8 never does). */
    private static void requireFloatingOrComplex(String api, Tensor a, boolean halfPrecision) {
        DType t = a.dtype();
        if (!t.isFloatingPoint() && !t.isComplex()) {
            throw new TorchException(
                    api + ": Expected a floating point or complex tensor as input. Got " + t.cppName());
        }
        boolean half = t == DType.FLOAT16 || t == DType.BFLOAT16;
        if (t.isReducedPrecision() && !(halfPrecision && half))
            throw new TorchException(api + ": Low precision dtypes not supported. Got " + t.cppName());
        if (a.device() != Device.CPU && a.device() != Device.META) {
            throw new TorchException(api + ": only CPU tensors are supported, got " + a.device());
        }
    }

    // ---------------------------------------------------------------- kernels

    private static int batchDims(Tensor a) {
        return a.dim() - 2;
    }

    private static String choleskyError(int info) {
        return "linalg.cholesky: {where}The factorization could not be completed because the input is not "
                + "positive-definite"
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
     * Per broadcast batch element: LU of A, then getrs on B's columns; left=False solves {@code X A = B} as {@code A^T
     * X^T = B^T}. A vector B is a one-column (left) or one-row matrix.
     */
    private static int[] solve(Tensor a, Tensor b, boolean left, Tensor out) {
        boolean vector = vectorCase(a, b);
        int batchDims = out.dim() - (vector ? 1 : 2);
        long[] batch = Arrays.copyOf(out.impl().shapeRef(), batchDims);
        long n = a.size(-1), k = vector ? 1 : (left ? b.size(-1) : b.size(-2));
        Tensor as = expandTo(a, batch, n, n);
        Tensor bm = vector ? asMatrix(b, left) : b;
        Tensor bs = expandTo(bm, batch, left ? n : k, left ? k : n);
        Tensor om = vector ? asMatrix(out, left) : out;
        return LinalgKernels.solve(as, bs, left, om);
    }

    private static void svd(Tensor a, boolean full, Tensor s, Tensor u, Tensor vh) {
        raiseSvdFailure(LinalgKernels.svd(a, full, s, u, vh), batchDims(a));
    }

    /** linalg.svd's errors (also polar's, which runs the same SVD): -1 for non-finite input, else gesdd's info. */
    private static void raiseSvdFailure(int[] info, int batchDims) {
        LinalgKernels.raise(
                info,
                batchDims,
                b -> info[b] < 0
                        ? "linalg.svd: {where}The algorithm failed to converge because the input matrix "
                                + "contained non-finite values."
                        : "linalg.svd: {where}The algorithm failed to converge because the input matrix is "
                                + "ill-conditioned or has too many"
                                + " repeated singular values (error code: " + info[b] + ").");
    }

    /** t (its last two dims {@code rows x cols}) broadcast to {@code batch}, as a view. */
    private static Tensor expandTo(Tensor t, long[] batch, long rows, long cols) {
        long[] shape = Arrays.copyOf(batch, batch.length + 2);
        shape[batch.length] = rows;
        shape[batch.length + 1] = cols;
        return Tensor.viewOf(
                t,
                t.impl()
                        .viewOf(
                                t.storageOffset(),
                                shape,
                                Shapes.broadcastStrides(
                                        t.impl().shapeRef(), t.impl().strideRef(), shape)));
    }

    /** A vector batch as one-column matrices (left) or one-row matrices (right), as a view of the same storage. */
    private static Tensor asMatrix(Tensor v, boolean left) {
        int r = v.dim();
        long[] shape = Arrays.copyOf(v.impl().shapeRef(), r + 1),
                strides = Arrays.copyOf(v.impl().strideRef(), r + 1);
        int unit = left ? r : r - 1; // the new size-1 dim: after the vector dim, or before it
        if (!left) {
            shape[r] = shape[r - 1];
            strides[r] = strides[r - 1];
        }
        shape[unit] = 1;
        strides[unit] = 1;
        return Tensor.viewOf(v, v.impl().viewOf(v.storageOffset(), shape, strides));
    }

    // ---------------------------------------------------------------- norms, rank, pseudo-inverse

    private static String ordName(double ord) {
        if (ord == Double.POSITIVE_INFINITY) return "inf";
        if (ord == Double.NEGATIVE_INFINITY) return "-inf";
        return ord == Math.rint(ord) && Math.abs(ord) < 1e15 ? Long.toString((long) ord) : Double.toString(ord);
    }

    /**
     * PyTorch's linalg_matrix_norm: the singular-value norms on A with the two dims moved last, the others by abs sums.
     * float16 and bfloat16 take the norms that need no SVD (1, -1, inf, -inf, fro), reduced as ATen's vector_norm does
     * (in float32, rounded once); 2, -2 and nuc refuse them, as in ATen.
     */
    private static Tensor matrixNormOf(Tensor a, String ord, long[] dim, boolean keepdim) {
        boolean singularValues =
                switch (ord) {
                    case "nuc", "2", "-2" -> true;
                    case "fro", "1", "-1", "inf", "-inf" -> false;
                    default -> throw new TorchException("linalg.matrix_norm: Order " + ord + " not supported.");
                };
        if (a.dim() < 2)
            throw new TorchException("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.");
        requireFloatingOrComplex("linalg.matrix_norm", a, !singularValues);
        if (dim.length != 2)
            throw new TorchException("linalg.matrix_norm: dim must be a 2-tuple. Got " + Arrays.toString(dim));
        int d0 = Shapes.wrapDim(dim[0], a.dim()), d1 = Shapes.wrapDim(dim[1], a.dim());
        if (d0 == d1)
            throw new TorchException(
                    "linalg.matrix_norm: dims must be different. Got (" + dim[0] + ", " + dim[1] + ")");
        switch (ord) {
            case "fro" -> {
                return ReductionOps.vectorNorm(a, 2, new long[] {d0, d1}, keepdim);
            }
            case "nuc", "2", "-2" -> {
                Tensor s = svdvals(ShapeOps.movedim(a, new int[] {d0, d1}, new int[] {-2, -1}));
                Tensor r = ord.equals("nuc") ? s.sum(-1) : ord.equals("2") ? s.amax(-1) : s.amin(-1);
                if (keepdim) {
                    r = r.unsqueeze(Math.min(d0, d1)).unsqueeze(Math.max(d0, d1));
                }
                return r;
            }
            case "1", "-1", "inf", "-inf" -> {
                boolean rows = ord.endsWith("inf");
                int sumDim = rows ? d1 : d0, extremeDim = rows ? d0 : d1;
                if (!keepdim && sumDim < extremeDim) extremeDim--;
                Tensor sums = a.abs().sum(new long[] {sumDim}, keepdim);
                long[] e = {extremeDim};
                return ord.startsWith("-") ? sums.amin(e, keepdim) : sums.amax(e, keepdim);
            }
            default -> throw new TorchException("linalg.matrix_norm: Order " + ord + " not supported.");
        }
    }

    /** {@code max(atol, rtol * max(s))} per matrix, with PyTorch's defaults, shaped to compare against s. */
    private static Tensor tolerance(Tensor a, Tensor s, Double atol, Double rtol) {
        double eps = a.dtype().toReal() == DType.FLOAT32 ? 1.1920928955078125e-07 : 2.220446049250313e-16;
        double r = rtol != null ? rtol : (atol != null && atol > 0 ? 0 : eps * Math.max(a.size(-2), a.size(-1)));
        Tensor smax = s.size(-1) == 0 ? s.sum(-1, true) : s.amax(new long[] {-1}, true);
        return smax.mul(r).clampMin(atol == null ? 0.0 : atol);
    }

    private static void pinvCheck(Tensor a) {
        DType t = a.dtype();
        if (a.dim() < 2 || (!t.isComplex() && t != DType.FLOAT32 && t != DType.FLOAT64) || t == DType.COMPLEX32) {
            throw new TorchException("linalg.pinv(" + t.cppName()
                    + Arrays.toString(a.impl().shapeRef()).replace(" ", "")
                    + "): expected a tensor with 2 or more dimensions of float, double, cfloat or cdouble types");
        }
    }

    /** The pseudo-inverse's value, without a derivative of its own (the caller runs it with grad mode off). */
    private static Tensor pinvOf(Tensor a, Double atol, Double rtol, boolean hermitian) {
        if (hermitian) {
            Tensor[] lq = eigh(a, "L");
            Tensor l = lq[0], q = lq[1];
            Tensor keep = l.abs().gt(tolerance(a, l.abs(), atol, rtol));
            Tensor inverse = TernaryOps.where(keep, l.reciprocal(), l.mul(0.0));
            return q.mul(inverse.unsqueeze(-2)).matmul(q.mH());
        }
        Tensor[] usv = svd(a, false);
        Tensor s = usv[1];
        Tensor keep = s.gt(tolerance(a, s, atol, rtol));
        Tensor inverse = TernaryOps.where(keep, s.reciprocal(), s.mul(0.0));
        return usv[2].mH().mul(inverse.unsqueeze(-2)).matmul(usv[0].mH());
    }

    private static Tensor condOf(Tensor a, String p) {
        if (!List.of("2", "-2", "1", "-1", "inf", "-inf", "fro", "nuc").contains(p)) {
            throw new TorchException("linalg.cond got an invalid norm type: " + p);
        }
        if (a.dim() < 2) throw new TorchException("linalg.cond: The input tensor A must have at least 2 dimensions.");
        if (p.equals("2") || p.equals("-2")) {
            Tensor s = svdvals(a);
            if (s.size(-1) == 0) return s.sum(-1);
            Tensor big = s.narrow(-1, 0, 1).squeeze(-1),
                    small = s.narrow(-1, s.size(-1) - 1, 1).squeeze(-1);
            return p.equals("2") ? big.div(small) : small.div(big);
        }
        requireSquare("linalg.cond(ord=" + p + ")", a);
        long[] last = {-2, -1};
        Tensor[] inverse = invEx(a, false);
        Tensor na = matrixNormOf(a, p, last, false);
        Tensor ni = matrixNormOf(inverse[0], p, last, false);
        // a singular matrix has infinite condition number (its LU met a zero pivot)
        return TernaryOps.where(inverse[1].gt(0L), na.mul(0.0).add(Double.POSITIVE_INFINITY), na.mul(ni));
    }

    // ---------------------------------------------------------------- backward

    /**
     * {@code X = A^-1 B}: {@code gB = A^-H gX}, {@code gA = -gB X^H}; for left=False ({@code X = B A^-1}): {@code gB =
     * gX A^-H}, {@code gA = -X^H gB}. Vectors are one-column matrices; the engine sums broadcast batch dims back down.
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
     * det: {@code d det = det tr(A^-1 dA)}, so (conjugate-Wirtinger) {@code gA = g conj(det) A^-H}, computed as PyTorch
     * does so that a singular A gives what PyTorch gives rather than an error. A first-order backward solves {@code A^H
     * X = g conj(det) I} with A's LU factors, an exactly zero pivot nudged to the dtype's epsilon: the right-hand side
     * is zero when det is, so an exactly singular A gets a zero gradient and no inverse is ever needed. A backward that
     * records a graph (double backward) uses {@code solve} while every matrix is invertible, else the singular-value
     * form {@code det A = det U det V^H ∏ S}, whose product rule needs no division: {@code gA = U diag(D) V^H},
     * {@code D} the gradient of {@code ∏ S} at {@code g conj(det U det V^H)} (products of the other singular values).
     */
    private static Tensor detBackward(Tensor a, Tensor det, Tensor g) {
        Tensor scaled = g.mul(det.conj());
        if (!DispatchState.current().isGradEnabled()) {
            boolean transposed = factorsTranspose(a);
            Tensor[] lu = LinalgSolveOps.luFactorEx(transposed ? a.mT() : a, true, false);
            Tensor pivotsDiagonal = lu[0].diagonal(0, -2, -1);
            double eps = a.dtype().toReal() == DType.FLOAT64 ? 0x1.0p-52 : 0x1.0p-23;
            Tensor nudge = TernaryOps.where(pivotsDiagonal.eq(0.0), eps, 0.0);
            Tensor rhs = ArrangeOps.diagEmbed(scaled.unsqueeze(-1).expand(pivotsDiagonal.shape()));
            return LinalgSolveOps.luSolve(lu[0].add(ArrangeOps.diagEmbed(nudge)), lu[1], rhs, true, !transposed);
        }
        if (det.eq(0.0).any().item() == 0) {
            long[] diagonal = Arrays.copyOf(det.shape(), det.dim() + 1);
            diagonal[det.dim()] = a.size(-1);
            Tensor eye = ArrangeOps.diagEmbed(scaled.unsqueeze(-1).expand(diagonal));
            return solve(a.mH(), eye, true);
        }
        Tensor[] usv = svd(a, false);
        Tensor alpha = DET.call1(usv[0]).mul(DET.call1(usv[2])).conj();
        Tensor s = usv[1];
        Tensor d = ReduceGrads.prod(g.mul(alpha).unsqueeze(-1), s, s.prod(-1, true), new long[] {-1}, true);
        return usv[0].mul(d.unsqueeze(-2)).matmul(usv[2]);
    }

    /**
     * slogdet: {@code d log|det| = Re tr(A^-1 dA)}, and for complex A the sign's gradient enters as {@code g =
     * g_logabsdet + i Im(g_sign conj(sign))}; {@code gA = g A^-H}. The real sign is locally constant.
     */
    private static Tensor slogdetBackward(Tensor a, Tensor sign, Tensor gSign, Tensor gLog) {
        Tensor g = gLog;
        if (a.isComplex() && gSign != null) {
            Tensor im = gSign.mul(sign.conj()).imag();
            Tensor term = ComplexOps.complex(im.mul(0.0), im);
            g = g == null ? term : term.add(g);
        }
        if (g == null) return null;
        // g A^-H through A's LU factors, as PyTorch computes it: a singular A gives infinities (log|det| is -inf there)
        // rather than an error
        boolean transposed = factorsTranspose(a);
        Tensor[] lu = LinalgSolveOps.luFactorEx(transposed ? a.mT() : a, true, false);
        Tensor rhs = ArrangeOps.diagEmbed(g.unsqueeze(-1).expand(lu[1].shape()));
        return LinalgSolveOps.luSolve(lu[0], lu[1], rhs, true, !transposed);
    }

    /**
     * Whether det's backward factors {@code A^T} rather than A, as ATen does for a contiguous real A (whose row-major
     * storage is {@code A^T} to LAPACK): {@code A^H X = B} is then {@code (A^T) X = B}, and a singular A's infinities
     * and NaNs land where PyTorch's do.
     */
    private static boolean factorsTranspose(Tensor a) {
        return a.isContiguous() && !a.isComplex();
    }

    /**
     * PyTorch's cholesky_backward: {@code P = tril(L^H gL)}, {@code gA = L^-H ½(P + tril(P, -1)^H) L^-1}. The middle
     * factor is Hermitian off the diagonal only: its diagonal keeps P's (for complex A, imaginary parts included), as
     * PyTorch's does, so the result is not symmetrised afterwards. Triangular solves with differentiable ops, so it can
     * be differentiated again.
     */
    private static Tensor choleskyBackward(Tensor factor, Tensor g, boolean upper) {
        Tensor l = upper ? factor.mH() : factor, gl = upper ? g.mH() : g;
        Tensor p = l.mH().matmul(gl).tril();
        Tensor middle = p.add(p.tril(-1).mH()).mul(0.5);
        Tensor right = LinalgSolveOps.solveTriangular(l.mH(), middle, true, true, false);
        return LinalgSolveOps.solveTriangular(l, right, false, false, false);
    }
}

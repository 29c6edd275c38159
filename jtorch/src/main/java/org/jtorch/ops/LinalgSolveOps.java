package org.jtorch.ops;

import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.LinAlgException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DeterministicAlgorithms;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.blas.LapackSolvers;
import org.jtorch.kernels.blas.LapackSolvers.Op;
import org.jtorch.kernels.blas.MatrixExponential;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The solvers, factorisations and matrix functions of {@code torch.linalg}: matrix_exp, eig/eigvals, solve_triangular,
 * the LU family (lu, lu_factor, lu_factor_ex, lu_solve), matrix_power, cross, vecdot and multi_dot, on batches of
 * matrices in float32, float64, complex64 and complex128. LAPACK computes in float64 / complex128 (float32 and
 * complex64 results are rounded from it). Backward rules follow PyTorch's FunctionsManual and are written in
 * differentiable ops, so they can be differentiated again. Forward-mode (JVP) rules are not defined yet.
 */
public final class LinalgSolveOps {
    private LinalgSolveOps() {}

    /**
     * {@code linalg.matrix_exp(A)}: scaling and squaring with optimised Taylor polynomials (see
     * {@link MatrixExponential}), computed in float64 and rounded once to A's dtype. float16 and bfloat16 are taken as
     * in ATen, but their results are the exponential rounded to the dtype: PyTorch 2.13 reads its float64 Taylor
     * coefficients as half-precision bytes there, so every matrix whose norm needs degree 4 or more comes out wrong
     * (often inf or NaN).
     */
    public static final OpDef MATRIX_EXP = OpDef.structured(
                    "linalg_matrix_exp(Tensor self) -> Tensor",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        square("linalg.matrix_exp", a, "A");
                        if (a.dtype() != DType.FLOAT16 && a.dtype() != DType.BFLOAT16)
                            floatingOrComplex("linalg.matrix_exp", a);
                        return Spec.of(a.shape(), a.dtype(), a.device(), null);
                    },
                    (args, outs, spec) -> matrixExp((Tensor) args[0], outs[0]))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {matrixExpBackward((Tensor) a[0], g[0])})
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.solve_triangular(A, B, *, upper, left=True, unitriangular=False)}; batch dims broadcast. The result
     * has A's dtype, which must be float32/64 or complex64/128; B of any other dtype is first converted to it, as
     * PyTorch 2.13 does (a complex B for a real A loses its imaginary part, with PyTorch's warning). B's gradient comes
     * back in B's dtype.
     */
    public static final OpDef SOLVE_TRIANGULAR = OpDef.structured(
                    "linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, "
                            + "bool unitriangular=False) -> Tensor",
                    args -> solveTriangularMeta((Tensor) args[0], (Tensor) args[1], (Boolean) args[3]),
                    (args, outs, spec) -> solveTriangular(
                            (Tensor) args[0],
                            (Tensor) args[1],
                            (Boolean) args[2],
                            (Boolean) args[3],
                            (Boolean) args[4],
                            outs[0]))
            .defineVjp(
                    OpDef.Save.INPUTS_AND_OUTPUTS,
                    (a, o, g, mask) -> solveTriangularBackward(
                            (Tensor) a[0], (Boolean) a[2], (Boolean) a[3], (Boolean) a[4], o[0], g[0], mask))
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.lu_factor_ex(A, *, pivot=True, check_errors=False)}: packed LU, int32 1-based pivots, int32 info.
     */
    public static final OpDef LU_FACTOR_EX = OpDef.structured(
                    "linalg_lu_factor_ex(Tensor A, *, bool pivot=True, "
                            + "bool check_errors=False) -> (Tensor LU, Tensor pivots, Tensor info)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        luInputs("torch.linalg.lu_factor_ex", a, (Boolean) args[1]);
                        long[] batch = batchShape(a, 2);
                        long k = Math.min(a.size(-2), a.size(-1));
                        return new Spec(
                                new long[][] {a.shape(), append(batch, k), batch},
                                new DType[] {a.dtype(), DType.INT32, DType.INT32},
                                a.device(),
                                null);
                    },
                    (args, outs, spec) ->
                            luFactor((Tensor) args[0], (Boolean) args[2] ? "torch.linalg.lu_factor_ex" : null, outs))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {luFactorBackward(g[0], o[0], o[1])})
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.lu_factor(A, *, pivot=True)}: {@link #LU_FACTOR_EX} that throws when U has a zero on its diagonal.
     */
    public static final OpDef LU_FACTOR =
            OpDef.composite("linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", args -> {
                Tensor a = (Tensor) args[0];
                luInputs("torch.linalg.lu_factor", a, (Boolean) args[1]);
                Tensor[] r = (Tensor[]) Dispatcher.call(LU_FACTOR_EX, a, (Boolean) args[1], false);
                if (a.impl().hasData()) checkLuInfo("torch.linalg.lu_factor", r[2], a.dim() > 2);
                return new Tensor[] {r[0], r[1]};
            });

    /**
     * {@code linalg.lu(A, *, pivot=True)}: {@code A = P L U} with P a permutation, L unit lower (m x k), U upper (k x
     * n).
     */
    public static final OpDef LU = OpDef.structured(
                    "linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        luInputs("torch.linalg.lu", a, (Boolean) args[1]);
                        long[] batch = batchShape(a, 2);
                        long m = a.size(-2), n = a.size(-1), k = Math.min(m, n);
                        DType t = a.dtype();
                        return new Spec(
                                new long[][] {append(batch, m, m), append(batch, m, k), append(batch, k, n)},
                                new DType[] {t, t, t},
                                a.device(),
                                null);
                    },
                    (args, outs, spec) -> lu((Tensor) args[0], outs))
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {luBackward(g[1], g[2], o[0], o[1], o[2])})
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.lu_solve(LU, pivots, B, *, left=True, adjoint=False)}: solves with the factors of lu_factor. */
    public static final OpDef LU_SOLVE = OpDef.structured(
                    "linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, "
                            + "bool adjoint=False) -> Tensor",
                    args -> luSolveMeta((Tensor) args[0], (Tensor) args[1], (Tensor) args[2], (Boolean) args[3]),
                    (args, outs, spec) -> luSolve(
                            (Tensor) args[0],
                            (Tensor) args[1],
                            (Tensor) args[2],
                            (Boolean) args[3],
                            (Boolean) args[4],
                            outs[0]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g, mask) -> {
                Tensor lu = (Tensor) a[0], piv = (Tensor) a[1];
                boolean left = (Boolean) a[3], adjoint = (Boolean) a[4];
                Tensor gLu = mask.needs(0) ? luSolveLuBackward(g[0], lu, piv, o[0], left, adjoint) : null;
                Tensor gB = mask.needs(2) ? luSolve(lu, piv, g[0], left, !adjoint) : null;
                return new Tensor[] {gLu, null, gB};
            })
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.eig(A)}: eigenvalues and unit-norm right eigenvectors, always complex, in LAPACK geev's order. */
    public static final OpDef EIG = OpDef.structured(
                    "linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        square("linalg.eig", a, "A");
                        floatingOrComplex("linalg.eig", a);
                        DType c = a.dtype().isComplex() ? a.dtype() : a.dtype().toComplex();
                        return new Spec(
                                new long[][] {batchShape(a, 1), a.shape()}, new DType[] {c, c}, a.device(), null);
                    },
                    (args, outs, spec) -> eig((Tensor) args[0], outs[0], outs[1]))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {eigBackward((Tensor) a[0], o[0], o[1], g[0], g[1])})
            // only the outputs that were used contribute: eigenvalues alone take the shortcut that stays finite for
            // repeated eigen- or singular values, as PyTorch's undefined gradients do
            .vjpTakesMissingGrads()
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code linalg.eigvals(A)}: the eigenvalues of {@link #EIG} without computing eigenvectors (backward recomputes
     * them).
     */
    public static final OpDef EIGVALS = OpDef.structured(
                    "linalg_eigvals(Tensor self) -> Tensor",
                    args -> {
                        Tensor a = (Tensor) args[0];
                        square("linalg.eigvals", a, "A");
                        floatingOrComplex("linalg.eigvals", a);
                        return Spec.of(
                                batchShape(a, 1),
                                a.dtype().isComplex() ? a.dtype() : a.dtype().toComplex(),
                                a.device(),
                                null);
                    },
                    (args, outs, spec) -> eig((Tensor) args[0], outs[0], null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                Tensor[] lv = (Tensor[]) Dispatcher.call(EIG, a[0]);
                return new Tensor[] {eigBackward((Tensor) a[0], lv[0], lv[1], g[0], null)};
            })
            .deriveJvp(Jvps::transposedVjp);

    /** {@code linalg.matrix_power(A, n)}: repeated squaring; a negative n inverts A first. */
    public static final OpDef MATRIX_POWER = OpDef.composite(
            "linalg_matrix_power(Tensor self, int n) -> Tensor", args -> power((Tensor) args[0], (Long) args[1]));

    /** {@code linalg.cross(x, y, *, dim=-1)}: cross product of 3-vectors along dim, broadcasting the other dims. */
    public static final OpDef CROSS = OpDef.composite(
            "linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor",
            args -> crossProduct((Tensor) args[0], (Tensor) args[1], (Long) args[2]));

    /** {@code linalg.vecdot(x, y, *, dim=-1)}: {@code sum(conj(x) * y, dim)}. */
    public static final OpDef VECDOT =
            OpDef.composite("linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", args -> {
                Tensor x = (Tensor) args[0], y = (Tensor) args[1];
                if (!x.dtype().isFloatingPoint() && !x.dtype().isComplex()) { // ATen's checkFloatingOrComplex
                    throw new TorchException("linalg.vecdot: Expected a floating point or complex tensor as input. Got "
                            + x.dtype().cppName());
                }
                if (x.dtype() != y.dtype()) {
                    throw new TorchException(
                            "linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                                    + x.dtype().cppName() + " and y of type "
                                    + y.dtype().cppName() + " instead");
                }
                return x.conj().mul(y).sum((Long) args[2]);
            });

    /**
     * {@code linalg.multi_dot(tensors)}: the chain product in the cheapest parenthesisation; the ends may be vectors.
     */
    public static final OpDef MULTI_DOT =
            OpDef.composite("linalg_multi_dot(Tensor[] tensors) -> Tensor", args -> multiDot((Tensor[]) args[0]));

    /**
     * {@code linalg.householder_product(A, tau)}: the first n columns of {@code H_1 ... H_k} (LAPACK orgqr / ungqr).
     */
    public static final OpDef HOUSEHOLDER_PRODUCT = OpDef.structured(
                    "linalg_householder_product(Tensor input, Tensor tau) -> Tensor",
                    args -> householderMeta((Tensor) args[0], (Tensor) args[1]),
                    (args, outs, spec) -> householderProduct((Tensor) args[0], (Tensor) args[1], outs[0]))
            .defineVjp(
                    OpDef.Save.INPUTS, (a, o, g, mask) -> householderBackward((Tensor) a[0], (Tensor) a[1], g[0], mask))
            .deriveJvp(Jvps::transposedVjp);

    /**
     * The LAPACK half of {@link #LSTSQ}: for each matrix the driver's output B, {@code (*, max(m, n), k)} (the solution
     * in its first n rows, residual information below when m > n), the effective rank (int64, gelsy/gelsd/gelss; empty
     * for gels) and the singular values (gelsd/gelss; empty otherwise). B must be a matrix here; batch dims broadcast.
     * Differentiable in the solution rows, as the minimum-norm solution {@code pinv(A) B} (PyTorch's
     * {@code linalg_lstsq_backward}), so also for rank-deficient A.
     */
    public static final OpDef LSTSQ_SOLVE = OpDef.structured(
                    "_linalg_lstsq_solve(Tensor self, Tensor b, float? rcond, str driver) -> (Tensor raw, "
                            + "Tensor rank, Tensor singular_values)",
                    args -> lstsqMeta((Tensor) args[0], (Tensor) args[1], (String) args[3]),
                    (args, outs, spec) ->
                            lstsq((Tensor) args[0], (Tensor) args[1], (Double) args[2], (String) args[3], outs))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, mask) -> lstsqBackward((Tensor) a[0], (Tensor) a[1], g[0], mask))
            .defineJvp((a, o, t) -> new Tensor[] {lstsqJvp((Tensor) a[0], (Tensor) a[1], t[0], t[1]), null, null});

    /** {@code linalg.lstsq(A, B, rcond=None, *, driver=None)}: least squares (minimum norm with gelsy/gelsd/gelss). */
    public static final OpDef LSTSQ = OpDef.composite(
            "linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> "
                    + "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)",
            args -> lstsqComposite((Tensor) args[0], (Tensor) args[1], (Double) args[2], (String) args[3]));

    // ---------------------------------------------------------------- entry points

    /** {@code torch.linalg.matrix_exp(A)}. */
    public static Tensor matrixExp(Tensor a) {
        return MATRIX_EXP.call1(a);
    }

    /** {@code torch.linalg.solve_triangular(A, B, upper=upper)}. */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper) {
        return solveTriangular(a, b, upper, true, false);
    }

    /** {@code torch.linalg.solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)}. */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper, boolean left, boolean unitriangular) {
        return SOLVE_TRIANGULAR.call1(a, b, upper, left, unitriangular);
    }

    /** {@code torch.linalg.lu_factor_ex(A, pivot=pivot, check_errors=checkErrors)}: {@code {LU, pivots, info}}. */
    public static Tensor[] luFactorEx(Tensor a, boolean pivot, boolean checkErrors) {
        return (Tensor[]) Dispatcher.call(LU_FACTOR_EX, a, pivot, checkErrors);
    }

    /** {@code torch.linalg.lu_factor(A, pivot=pivot)}: {@code {LU, pivots}}. */
    public static Tensor[] luFactor(Tensor a, boolean pivot) {
        return (Tensor[]) Dispatcher.call(LU_FACTOR, a, pivot);
    }

    /** {@code torch.linalg.lu(A, pivot=pivot)}: {@code {P, L, U}}. */
    public static Tensor[] lu(Tensor a, boolean pivot) {
        return (Tensor[]) Dispatcher.call(LU, a, pivot);
    }

    /** {@code torch.linalg.lu_solve(LU, pivots, B, left=left, adjoint=adjoint)}. */
    public static Tensor luSolve(Tensor lu, Tensor pivots, Tensor b, boolean left, boolean adjoint) {
        return LU_SOLVE.call1(lu, pivots, b, left, adjoint);
    }

    /** {@code torch.linalg.eig(A)}: {@code {eigenvalues, eigenvectors}}. */
    public static Tensor[] eig(Tensor a) {
        return (Tensor[]) Dispatcher.call(EIG, a);
    }

    /** {@code torch.linalg.eigvals(A)}. */
    public static Tensor eigvals(Tensor a) {
        return EIGVALS.call1(a);
    }

    /** {@code torch.linalg.matrix_power(A, n)}. */
    public static Tensor matrixPower(Tensor a, long n) {
        return MATRIX_POWER.call1(a, n);
    }

    /** {@code torch.linalg.cross(x, y, dim=dim)}. */
    public static Tensor cross(Tensor x, Tensor y, long dim) {
        return CROSS.call1(x, y, dim);
    }

    /** {@code torch.linalg.vecdot(x, y, dim=dim)}. */
    public static Tensor vecdot(Tensor x, Tensor y, long dim) {
        return VECDOT.call1(x, y, dim);
    }

    /** {@code torch.linalg.multi_dot(tensors)}. */
    public static Tensor multiDot(List<Tensor> tensors) {
        return MULTI_DOT.call1((Object) tensors.toArray(Tensor[]::new));
    }

    /** {@code torch.linalg.householder_product(A, tau)}. */
    public static Tensor householderProduct(Tensor a, Tensor tau) {
        return HOUSEHOLDER_PRODUCT.call1(a, tau);
    }

    /**
     * {@code torch.linalg.lstsq(A, B, rcond=rcond, driver=driver)}: {@code {solution, residuals, rank,
     * singular_values}}; nulls are defaults.
     */
    public static Tensor[] lstsq(Tensor a, Tensor b, Double rcond, String driver) {
        return (Tensor[]) Dispatcher.call(LSTSQ, a, b, rcond, driver);
    }

    // ---------------------------------------------------------------- errors and checks

    /**
     * The error for a numerical failure (singular or non-convergent input): PyTorch's {@code torch.linalg.LinAlgError},
     * a RuntimeError.
     */
    private static TorchException linAlgError(String message) {
        return new LinAlgException(message);
    }

    /** ATen's squareCheckInputs: at least 2 dims, square, CPU or meta. */
    private static void square(String api, Tensor a, String name) {
        if (a.dim() < 2)
            throw new TorchException(api + ": The input tensor " + name + " must have at least 2 dimensions.");
        long m = a.size(-2), n = a.size(-1);
        if (m != n) {
            throw new TorchException(api + ": " + name + " must be batches of square matrices, but they are " + m
                    + " by " + n + " matrices");
        }
        cpu(api, a);
    }

    private static void cpu(String api, Tensor a) {
        if (a.device() != Device.CPU && a.device() != Device.META) {
            throw new TorchException(api + ": only CPU tensors are supported, got " + a.device());
        }
    }

    /** ATen's checkFloatingOrComplex without low-precision dtypes (LAPACK has none). */
    private static void floatingOrComplex(String api, Tensor a) {
        DType t = a.dtype();
        if (!t.isFloatingPoint() && !t.isComplex()) {
            throw new TorchException(
                    api + ": Expected a floating point or complex tensor as input. Got " + t.cppName());
        }
        if (t.isReducedPrecision())
            throw new TorchException(api + ": Low precision dtypes not supported. Got " + t.cppName());
    }

    private static void sameDtype(String api, Tensor a, Tensor b, String aName, String bName) {
        if (a.dtype() != b.dtype()) {
            throw new TorchException(
                    api + ": Expected " + aName + " and " + bName + " to have the same dtype, but found " + aName
                            + " of type " + a.dtype().cppName() + " and " + bName + " of type "
                            + b.dtype().cppName() + " instead");
        }
    }

    private static void luInputs(String api, Tensor a, boolean pivot) {
        if (a.dim() < 2) {
            throw new TorchException(api + ": Expected tensor with 2 or more dimensions. Got size: "
                    + Arrays.toString(a.impl().shapeRef()) + " instead");
        }
        cpu(api, a);
        floatingOrComplex(api, a);
        if (!pivot) throw new TorchException(api + ": LU without pivoting is not implemented on the CPU");
    }

    /** The shape of {@code a} without its last {@code drop} dims. */
    private static long[] batchShape(Tensor a, int drop) {
        return Arrays.copyOf(a.impl().shapeRef(), a.dim() - drop);
    }

    private static long[] append(long[] batch, long... tail) {
        long[] r = Arrays.copyOf(batch, batch.length + tail.length);
        System.arraycopy(tail, 0, r, batch.length, tail.length);
        return r;
    }

    /**
     * Shared by solve_triangular and lu_solve: A {@code (*, n, n)}, B {@code (*, n, k)} (left) or {@code (*, k, n)}
     * (right), batch dims broadcast; the result has B's matrix shape.
     */
    private static Spec solverMeta(String api, Tensor a, Tensor b, boolean left, String aName) {
        Device device = Devices.common(api, a, b);
        square(api, a, aName);
        if (b.dim() < 2) throw new TorchException(api + ": The input tensor B must have at least 2 dimensions.");
        sameDtype(api, a, b, aName, "B");
        floatingOrComplex(api, a);
        return solverShape(api, a, b, left, device);
    }

    /**
     * solve_triangular's checks: those of {@link #solverMeta} but B's dtype, which the kernel converts to A's; A's
     * dtype must be one LAPACK's trsm has (ATen's dispatch error otherwise).
     */
    private static Spec solveTriangularMeta(Tensor a, Tensor b, boolean left) {
        String api = "linalg.solve_triangular";
        Device device = Devices.common(api, a, b);
        square(api, a, "A");
        if (b.dim() < 2) throw new TorchException(api + ": The input tensor B must have at least 2 dimensions.");
        DType t = a.dtype();
        if (t != DType.FLOAT32 && t != DType.FLOAT64 && t != DType.COMPLEX64 && t != DType.COMPLEX128) {
            throw new TorchException(api + ": \"triangular_solve_cpu\" not implemented for '" + t.cppName() + "'");
        }
        return solverShape(api, a, b, left, device);
    }

    /** The broadcast output shape of A {@code (*, n, n)} and B {@code (*, n, k)} or {@code (*, k, n)}. */
    private static Spec solverShape(String api, Tensor a, Tensor b, boolean left, Device device) {
        long n = a.size(-1), rows = left ? b.size(-2) : b.size(-1);
        if (rows != n) {
            throw new TorchException(
                    api + ": Incompatible shapes of A and B for the equation " + (left ? "AX = B" : "XA = B") + " (" + n
                            + "x" + n + " and " + b.size(-2) + "x" + b.size(-1) + ")");
        }
        long[] batch = Shapes.broadcast(batchShape(a, 2), batchShape(b, 2));
        return Spec.of(append(batch, b.size(-2), b.size(-1)), a.dtype(), device, null);
    }

    private static Spec luSolveMeta(Tensor lu, Tensor pivots, Tensor b, boolean left) {
        String api = "linalg.lu_solve";
        if (lu.dim() < 2)
            throw new TorchException(api + ": Expected LU to have at least 2 dimensions, but it has " + lu.dim());
        if (b.dim() < 2)
            throw new TorchException(api + ": Expected B to have at least 2 dimensions, but it has " + b.dim());
        if (lu.size(-1) != lu.size(-2)) {
            throw new TorchException(
                    api + ": Expected LU to be square, but got " + lu.size(-2) + " by " + lu.size(-1) + " matrices");
        }
        if (pivots.dtype() != DType.INT32)
            throw new TorchException(api + ": pivots should be a Tensor of scalar type torch.int32");
        Devices.common(api, lu, pivots, b);
        if (!Arrays.equals(batchShape(lu, 1), pivots.impl().shapeRef())) {
            throw new TorchException(
                    api + ": Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape "
                            + Arrays.toString(pivots.impl().shapeRef()) + " instead");
        }
        return solverMeta(api, lu, b, left, "LU");
    }

    // ---------------------------------------------------------------- native scratch

    private static long batches(Tensor a, int matrixDims) {
        return Shapes.numel(batchShape(a, matrixDims));
    }

    /** {@code t} read as if broadcast to {@code shape} (a view of the same storage; stride 0 on expanded dims). */
    private static Tensor broadcastView(Tensor t, long[] shape) {
        return Tensor.viewOf(
                t,
                t.impl()
                        .viewOf(
                                t.storageOffset(),
                                shape,
                                Shapes.broadcastStrides(
                                        t.impl().shapeRef(), t.impl().strideRef(), shape)));
    }

    /** A native float64 (or complex128 pair) buffer of {@code count} elements, at least one. */
    private static MemorySegment doubles(Arena arena, long count, boolean complex) {
        return arena.allocate(Math.max(1, count) * (complex ? 2 : 1) * Double.BYTES, Double.BYTES);
    }

    private static MemorySegment ints(Arena arena, long count) {
        return arena.allocate(Math.max(1, count) * Integer.BYTES, Integer.BYTES);
    }

    /**
     * Copies {@code rows x cols} elements of {@code t} (any strides), starting at its logical element {@code base},
     * into {@code dst} row-major, transposed and/or conjugated if asked.
     */
    private static void load(
            Tensor t,
            long base,
            int rows,
            int cols,
            MemorySegment dst,
            boolean complex,
            boolean transpose,
            boolean conj) {
        if (rows == 0 || cols == 0) return; // an empty matrix of a batch may sit past the end of its storage
        ElementIO io = ElementIO.of(t.dtype());
        MemorySegment data = t.impl().storage().segment();
        if (!transpose && !conj && t.isContiguous() && wideDouble(t.dtype(), complex)) {
            long count = (long) rows * cols * (complex ? 2 : 1), from = (t.storageOffset() + base) * (complex ? 2 : 1);
            MemorySegment.copy(data, STORED_DOUBLE, from * Double.BYTES, dst, JAVA_DOUBLE, 0, count);
            return;
        }
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                long src = t.impl().elementIndex(base + (long) i * cols + j);
                long d = transpose ? (long) j * rows + i : (long) i * cols + j;
                if (complex) {
                    dst.setAtIndex(JAVA_DOUBLE, 2 * d, io.getDouble(data, src));
                    double im = io.getImag(data, src);
                    dst.setAtIndex(JAVA_DOUBLE, 2 * d + 1, conj ? -im : im);
                } else {
                    dst.setAtIndex(JAVA_DOUBLE, d, io.getDouble(data, src));
                }
            }
        }
    }

    /**
     * Writes {@code rows x cols} row-major elements of {@code src} (transposed/conjugated if asked) to the contiguous
     * {@code out} at {@code base}.
     */
    private static void store(
            MemorySegment src,
            int rows,
            int cols,
            Tensor out,
            long base,
            boolean complex,
            boolean transpose,
            boolean conj) {
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment data = out.impl().storage().segment();
        long origin = out.storageOffset() + base;
        if (!transpose && !conj && wideDouble(out.dtype(), complex)) {
            long count = (long) rows * cols * (complex ? 2 : 1), to = origin * (complex ? 2 : 1);
            MemorySegment.copy(src, JAVA_DOUBLE, 0, data, STORED_DOUBLE, to * Double.BYTES, count);
            return;
        }
        // src is rows x cols, unless transposed, when it is cols x rows and is read across
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j < cols; j++) {
                long s = transpose ? (long) j * rows + i : (long) i * cols + j;
                long d = origin + (long) i * cols + j;
                if (complex) {
                    double im = src.getAtIndex(JAVA_DOUBLE, 2 * s + 1);
                    io.setComplex(data, d, src.getAtIndex(JAVA_DOUBLE, 2 * s), conj ? -im : im);
                } else {
                    io.setDouble(data, d, src.getAtIndex(JAVA_DOUBLE, s));
                }
            }
        }
    }

    /** How storages hold doubles (as ElementIO reads them: little-endian, any alignment). */
    private static final java.lang.foreign.ValueLayout.OfDouble STORED_DOUBLE =
            java.lang.foreign.ValueLayout.JAVA_DOUBLE_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * Whether elements of {@code dtype} are stored exactly as the scratch holds them (float64, or complex128 pairs).
     */
    private static boolean wideDouble(DType dtype, boolean complex) {
        return complex ? dtype == DType.COMPLEX128 : dtype == DType.FLOAT64;
    }

    private static int order(String api, long n) {
        if (n > 46340) throw new TorchException(api + ": matrices of order " + n + " exceed LAPACK's int32 indexing");
        return (int) n;
    }

    private static boolean allFinite(MemorySegment m, long doubles) {
        for (long i = 0; i < doubles; i++) {
            if (!Double.isFinite(m.getAtIndex(JAVA_DOUBLE, i))) return false;
        }
        return true;
    }

    // ---------------------------------------------------------------- kernels

    /**
     * Per matrix in float64 / complex128, so the degree thresholds are float64's for every dtype (float32 results are
     * then within float32 round-off, where PyTorch's float32 thresholds give ~1e-7).
     */
    private static void matrixExp(Tensor a, Tensor out) {
        int n = order("linalg.matrix_exp", a.size(-1));
        long count = batches(a, 2), nn = (long) n * n;
        if (n == 0 || count == 0) return;
        boolean complex = a.dtype().isComplex();
        boolean mayThread = !DeterministicAlgorithms.enabled(); // threaded OpenBLAS rounds differently
        try (MatrixExponential work = new MatrixExponential(n, complex)) {
            for (long b = 0; b < count; b++) {
                load(a, b * nn, n, n, work.input(), complex, false, false);
                store(work.compute(count > 1, mayThread), n, n, out, b * nn, complex, false, false);
            }
        }
    }

    private static void solveTriangular(Tensor a, Tensor b, boolean upper, boolean left, boolean unit, Tensor out) {
        if (b.dtype() != a.dtype()) {
            Tensor converted = Tensor.of(TensorImpl.empty(b.impl().shapeRef(), a.dtype()));
            CopyOps.convert(b, converted);
            b = converted;
        }
        long[] batch = batchShape(out, 2);
        int n = order("linalg.solve_triangular", a.size(-1));
        int rows = order("linalg.solve_triangular", out.size(-2)),
                cols = order("linalg.solve_triangular", out.size(-1));
        Tensor as = broadcastView(a, append(batch, n, n)),
                bs = broadcastView(b, out.impl().shapeRef());
        boolean complex = a.dtype().isComplex();
        long count = Shapes.numel(batch);
        if (count == 0 || rows == 0 || cols == 0) return;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, (long) n * n, complex), bm = doubles(arena, (long) rows * cols, complex);
            for (long e = 0; e < count; e++) {
                load(as, e * n * n, n, n, am, complex, false, false);
                load(bs, e * rows * cols, rows, cols, bm, complex, false, false);
                LapackSolvers.trsm(complex, left, upper, Op.NONE, unit, rows, cols, am, bm);
                store(bm, rows, cols, out, e * rows * cols, complex, false, false);
            }
        }
    }

    /** getrf per matrix into LU, pivots and info; {@code checkApi} non-null raises on a zero pivot, naming that api. */
    private static void luFactor(Tensor a, String checkApi, Tensor[] outs) {
        Tensor lu = outs[0], pivots = outs[1], info = outs[2];
        int m = order("torch.linalg.lu_factor", a.size(-2)),
                n = order("torch.linalg.lu_factor", a.size(-1)),
                k = Math.min(m, n);
        long count = batches(a, 2), mn = (long) m * n;
        boolean complex = a.dtype().isComplex();
        ElementIO intIo = ElementIO.of(DType.INT32);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, mn, complex), piv = ints(arena, k);
            for (long e = 0; e < count; e++) {
                load(a, e * mn, m, n, am, complex, false, false);
                int status = LapackSolvers.getrf(complex, m, n, am, piv);
                store(am, m, n, lu, e * mn, complex, false, false);
                for (int i = 0; i < k; i++)
                    intIo.setLong(
                            pivots.impl().storage().segment(),
                            pivots.storageOffset() + e * k + i,
                            piv.getAtIndex(JAVA_INT, i));
                intIo.setLong(info.impl().storage().segment(), info.storageOffset() + e, status);
            }
        }
        if (checkApi != null) checkLuInfo(checkApi, info, a.dim() > 2);
    }

    /** PyTorch's _linalg_check_errors for the lu_factor family. */
    private static void checkLuInfo(String api, Tensor info, boolean batched) {
        long[] codes = info.toLongArray();
        for (int b = 0; b < codes.length; b++) {
            if (codes[b] > 0) {
                throw linAlgError(
                        api + (batched ? ": (Batch element " + b + ")" : "") + ": U[" + codes[b] + "," + codes[b]
                                + "] is zero and using it on lu_solve would result in a division by zero. "
                                + "If you still want to perform the"
                                + " factorization, consider calling linalg.lu(A, "
                                + "pivot) or linalg.lu_factor_ex(A, pivot)");
            }
        }
    }

    private static void lu(Tensor a, Tensor[] outs) {
        Tensor p = outs[0], l = outs[1], u = outs[2];
        int m = order("torch.linalg.lu", a.size(-2)), n = order("torch.linalg.lu", a.size(-1)), k = Math.min(m, n);
        long count = batches(a, 2), mn = (long) m * n;
        boolean complex = a.dtype().isComplex();
        ElementIO io = ElementIO.of(a.dtype());
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, mn, complex), piv = ints(arena, k);
            int[] perm = new int[m];
            for (long e = 0; e < count; e++) {
                load(a, e * mn, m, n, am, complex, false, false);
                LapackSolvers.getrf(complex, m, n, am, piv);
                // A = P L U: row i of P^T A is row perm[i] of A, so P[perm[i], i] = 1
                permutation(piv, k, perm);
                MemorySegment pData = p.impl().storage().segment(),
                        lData = l.impl().storage().segment(),
                        uData = u.impl().storage().segment();
                long pBase = p.storageOffset() + e * m * m,
                        lBase = l.storageOffset() + e * m * k,
                        uBase = u.storageOffset() + e * k * n;
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) io.setDouble(pData, pBase + (long) i * m + j, 0);
                }
                for (int i = 0; i < m; i++) io.setDouble(pData, pBase + (long) perm[i] * m + i, 1);
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < k; j++) {
                        long s = (long) i * n + j, d = lBase + (long) i * k + j;
                        if (i > j) setFrom(io, lData, d, am, s, complex);
                        else io.setDouble(lData, d, i == j ? 1 : 0);
                    }
                }
                for (int i = 0; i < k; i++) {
                    for (int j = 0; j < n; j++) {
                        long s = (long) i * n + j, d = uBase + (long) i * n + j;
                        if (j >= i) setFrom(io, uData, d, am, s, complex);
                        else io.setDouble(uData, d, 0);
                    }
                }
            }
        }
    }

    private static void setFrom(ElementIO io, MemorySegment data, long d, MemorySegment src, long s, boolean complex) {
        if (complex) io.setComplex(data, d, src.getAtIndex(JAVA_DOUBLE, 2 * s), src.getAtIndex(JAVA_DOUBLE, 2 * s + 1));
        else io.setDouble(data, d, src.getAtIndex(JAVA_DOUBLE, s));
    }

    /** The row order LAPACK's 1-based interchanges {@code piv[0..k)} produce on the rows {@code 0..perm.length)}. */
    private static void permutation(MemorySegment piv, int k, int[] perm) {
        for (int i = 0; i < perm.length; i++) perm[i] = i;
        for (int i = 0; i < k; i++) {
            int j = piv.getAtIndex(JAVA_INT, i) - 1;
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
    }

    /**
     * getrs per broadcast batch element. Right-sided solves go through the adjoint: {@code X A = B} is {@code A^H X^H =
     * B^H}, and {@code X A^H = B} is {@code A X^H = B^H}. Pivots are checked to lie in [1, n] before LAPACK sees them,
     * since out-of-range interchanges would make it read out of bounds.
     */
    private static void luSolve(Tensor lu, Tensor pivots, Tensor b, boolean left, boolean adjoint, Tensor out) {
        long[] batch = batchShape(out, 2);
        int n = order("linalg.lu_solve", lu.size(-1));
        int rows = (int) out.size(-2), cols = (int) out.size(-1);
        int k = left ? cols : rows; // right-hand sides
        Tensor ls = broadcastView(lu, append(batch, n, n)), ps = broadcastView(pivots, append(batch, n));
        Tensor bs = broadcastView(b, out.impl().shapeRef());
        boolean complex = lu.dtype().isComplex();
        long count = Shapes.numel(batch);
        if (count == 0 || rows == 0 || cols == 0) return;
        ElementIO pivIo = ElementIO.of(DType.INT32);
        MemorySegment pivData = pivots.impl().storage().segment();
        Op op = left == adjoint ? Op.CONJ_TRANSPOSE : Op.NONE;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, (long) n * n, complex),
                    bm = doubles(arena, (long) n * k, complex),
                    piv = ints(arena, n);
            for (long e = 0; e < count; e++) {
                for (int i = 0; i < n; i++) {
                    long p = pivIo.getLong(pivData, ps.impl().elementIndex(e * n + i));
                    if (p < 1 || p > n) {
                        throw new TorchException("linalg.lu_solve: pivots must be 1-based row indices in [1, " + n
                                + "], got " + p + (batch.length > 0 ? " in batch element " + e : ""));
                    }
                    piv.setAtIndex(JAVA_INT, i, (int) p);
                }
                load(ls, e * n * n, n, n, am, complex, false, false);
                // right: B^H (n x k) from B (k x n)
                load(bs, e * rows * cols, rows, cols, bm, complex, !left, !left);
                LapackSolvers.getrs(complex, op, n, k, am, piv, bm);
                store(bm, rows, cols, out, e * rows * cols, complex, !left, !left);
            }
        }
    }

    /**
     * geev per matrix. Real input uses dgeev, whose conjugate pairs come as (re, ±im) and whose vectors are packed: for
     * a pair at (j, j+1), columns j and j+1 hold the real and imaginary parts. Inputs with NaN or infinity give NaN
     * results without calling LAPACK, whose QR iteration is not meant for them.
     */
    private static void eig(Tensor a, Tensor values, Tensor vectors) {
        int n = order("linalg.eig", a.size(-1));
        long count = batches(a, 2), nn = (long) n * n;
        if (n == 0 || count == 0) return;
        boolean complex = a.dtype().isComplex();
        ElementIO valIo = ElementIO.of(values.dtype());
        MemorySegment valData = values.impl().storage().segment();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, nn, complex), w = doubles(arena, n, true);
            MemorySegment wr = doubles(arena, n, false), wi = doubles(arena, n, false);
            MemorySegment vr = vectors == null ? null : doubles(arena, nn, complex);
            MemorySegment vc = vectors == null || complex ? vr : doubles(arena, nn, true);
            for (long e = 0; e < count; e++) {
                load(a, e * nn, n, n, am, complex, false, false);
                if (!allFinite(am, nn * (complex ? 2 : 1))) {
                    for (int i = 0; i < n; i++)
                        valIo.setComplex(valData, values.storageOffset() + e * n + i, Double.NaN, Double.NaN);
                    if (vectors != null) {
                        for (long i = 0; i < nn; i++) {
                            valIo.setComplex(
                                    vectors.impl().storage().segment(),
                                    vectors.storageOffset() + e * nn + i,
                                    Double.NaN,
                                    Double.NaN);
                        }
                    }
                    continue;
                }
                int info;
                if (complex) {
                    info = LapackSolvers.zgeev(n, am, w, vr);
                } else {
                    info = LapackSolvers.dgeev(n, am, wr, wi, vr);
                    for (int i = 0; i < n; i++) {
                        w.setAtIndex(JAVA_DOUBLE, 2L * i, wr.getAtIndex(JAVA_DOUBLE, i));
                        w.setAtIndex(JAVA_DOUBLE, 2L * i + 1, wi.getAtIndex(JAVA_DOUBLE, i));
                    }
                    if (vr != null) unpackRealEigenvectors(n, wi, vr, vc);
                }
                if (info > 0) {
                    throw linAlgError("linalg.eig: " + (a.dim() > 2 ? "(Batch element " + e + "): " : "")
                            + "The algorithm failed to"
                            + " converge because the input matrix is ill-conditioned or has too many "
                            + "repeated eigenvalues (error code: "
                            + info + ").");
                }
                for (int i = 0; i < n; i++) {
                    valIo.setComplex(
                            valData,
                            values.storageOffset() + e * n + i,
                            w.getAtIndex(JAVA_DOUBLE, 2L * i),
                            w.getAtIndex(JAVA_DOUBLE, 2L * i + 1));
                }
                if (vectors != null) store(vc, n, n, vectors, e * nn, true, false, false);
            }
        }
    }

    private static void unpackRealEigenvectors(int n, MemorySegment wi, MemorySegment vr, MemorySegment vc) {
        for (int j = 0; j < n; j++) {
            double im = wi.getAtIndex(JAVA_DOUBLE, j);
            if (im != 0 && j + 1 < n) {
                for (int i = 0; i < n; i++) {
                    double re = vr.getAtIndex(JAVA_DOUBLE, (long) i * n + j),
                            imv = vr.getAtIndex(JAVA_DOUBLE, (long) i * n + j + 1);
                    long c0 = 2 * ((long) i * n + j), c1 = 2 * ((long) i * n + j + 1);
                    vc.setAtIndex(JAVA_DOUBLE, c0, re);
                    vc.setAtIndex(JAVA_DOUBLE, c0 + 1, imv);
                    vc.setAtIndex(JAVA_DOUBLE, c1, re);
                    vc.setAtIndex(JAVA_DOUBLE, c1 + 1, -imv);
                }
                j++;
            } else {
                for (int i = 0; i < n; i++) {
                    long c = 2 * ((long) i * n + j);
                    vc.setAtIndex(JAVA_DOUBLE, c, vr.getAtIndex(JAVA_DOUBLE, (long) i * n + j));
                    vc.setAtIndex(JAVA_DOUBLE, c + 1, 0);
                }
            }
        }
    }

    private static Spec householderMeta(Tensor a, Tensor tau) {
        String api = "torch.linalg.householder_product";
        Device device = Devices.common(api, a, tau);
        if (a.dim() < 2) throw new TorchException(api + ": input must have at least 2 dimensions.");
        if (a.size(-2) < a.size(-1))
            throw new TorchException(api + ": input.shape[-2] must be greater than or equal to input.shape[-1]");
        if (tau.dim() != a.dim() - 1) {
            throw new TorchException(
                    api + ": Expected tau to have one dimension less than input, but got tau.ndim equal to " + tau.dim()
                            + " and input.ndim is equal to " + a.dim());
        }
        if (a.size(-1) < tau.size(-1))
            throw new TorchException(api + ": input.shape[-1] must be greater than or equal to tau.shape[-1]");
        if (!Arrays.equals(batchShape(a, 2), batchShape(tau, 1))) {
            throw new TorchException(
                    api + ": Expected batch dimensions of tau to be equal to input.shape[:-2], but got "
                            + Arrays.toString(batchShape(tau, 1)));
        }
        if (tau.dtype() != a.dtype()) {
            throw new TorchException(api + ": tau dtype " + tau.dtype().cppName() + " does not match input dtype "
                    + a.dtype().cppName());
        }
        cpu(api, a);
        floatingOrComplex(api, a);
        return Spec.of(a.shape(), a.dtype(), device, null);
    }

    private static void householderProduct(Tensor a, Tensor tau, Tensor out) {
        String api = "torch.linalg.householder_product";
        int m = order(api, a.size(-2)), n = order(api, a.size(-1)), k = (int) tau.size(-1);
        long count = batches(a, 2), mn = (long) m * n;
        if (count == 0 || mn == 0) return;
        boolean complex = a.dtype().isComplex();
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, mn, complex), tm = doubles(arena, k, complex);
            for (long e = 0; e < count; e++) {
                load(a, e * mn, m, n, am, complex, false, false);
                load(tau, e * k, 1, k, tm, complex, false, false);
                if (allFinite(am, mn * (complex ? 2 : 1)) && allFinite(tm, (long) k * (complex ? 2 : 1))) {
                    LapackSolvers.orgqr(complex, m, n, k, am, tm);
                } else {
                    for (long i = 0; i < mn * (complex ? 2 : 1); i++) am.setAtIndex(JAVA_DOUBLE, i, Double.NaN);
                }
                store(am, m, n, out, e * mn, complex, false, false);
            }
        }
    }

    private static LapackSolvers.LstsqDriver driver(String name) {
        return switch (name) {
            case "gels" -> LapackSolvers.LstsqDriver.GELS;
            case "gelsy" -> LapackSolvers.LstsqDriver.GELSY;
            case "gelsd" -> LapackSolvers.LstsqDriver.GELSD;
            case "gelss" -> LapackSolvers.LstsqDriver.GELSS;
            default ->
                throw new TorchException(
                        "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
        };
    }

    private static Spec lstsqMeta(Tensor a, Tensor b, String driverName) {
        String api = "torch.linalg.lstsq";
        Device device = Devices.common(api, a, b);
        if (a.dim() < 2) throw new TorchException(api + ": input must have at least 2 dimensions.");
        if (b.dim() < 2) throw new TorchException(api + ": other must have at least 2 dimensions.");
        if (a.dtype() != b.dtype()) {
            throw new TorchException(api + ": Expected input and other to have the same dtype, but got input's dtype "
                    + a.dtype().cppName() + " and other's dtype " + b.dtype().cppName());
        }
        cpu(api, a);
        floatingOrComplex(api, a);
        if (a.size(-2) != b.size(-2)) throw new TorchException(api + ": input.size(-2) should match other.size(-2)");
        LapackSolvers.LstsqDriver d = driver(driverName);
        long m = a.size(-2), n = a.size(-1), k = b.size(-1);
        long[] batch = Shapes.broadcast(batchShape(a, 2), batchShape(b, 2));
        long[] rank = d == LapackSolvers.LstsqDriver.GELS ? new long[] {0} : batch;
        boolean sv = d == LapackSolvers.LstsqDriver.GELSD || d == LapackSolvers.LstsqDriver.GELSS;
        long[] svShape = sv ? append(batch, Math.min(m, n)) : new long[] {0};
        return new Spec(
                new long[][] {append(batch, Math.max(m, n), k), rank, svShape},
                new DType[] {a.dtype(), DType.INT64, a.dtype().toReal()},
                device,
                null);
    }

    private static void lstsq(Tensor a, Tensor b, Double rcond, String driverName, Tensor[] outs) {
        String api = "torch.linalg.lstsq";
        LapackSolvers.LstsqDriver d = driver(driverName);
        Tensor raw = outs[0], rank = outs[1], sv = outs[2];
        long[] batch = batchShape(raw, 2);
        int m = order(api, a.size(-2)), n = order(api, a.size(-1)), k = order(api, b.size(-1)), rows = Math.max(m, n);
        Tensor as = broadcastView(a, append(batch, m, n)), bs = broadcastView(b, append(batch, m, k));
        boolean complex = a.dtype().isComplex();
        // PyTorch's default: the input dtype's machine epsilon times max(m, n)
        double rc = rcond != null
                ? rcond
                : (a.dtype() == DType.FLOAT32 || a.dtype() == DType.COMPLEX64 ? 0x1.0p-23 : 0x1.0p-52) * rows;
        long count = Shapes.numel(batch);
        int p = Math.min(m, n);
        ElementIO rankIo = ElementIO.of(DType.INT64), svIo = ElementIO.of(sv.dtype());
        try (Arena arena = Arena.ofShared()) {
            MemorySegment am = doubles(arena, (long) m * n, complex), bm = doubles(arena, (long) rows * k, complex);
            MemorySegment jpvt = ints(arena, n), s = doubles(arena, p, false), r = ints(arena, 1);
            for (long e = 0; e < count; e++) {
                load(as, e * m * n, m, n, am, complex, false, false);
                bm.fill((byte) 0);
                load(bs, e * m * k, m, k, bm, complex, false, false);
                jpvt.fill((byte) 0);
                boolean finite = allFinite(am, (long) m * n * (complex ? 2 : 1))
                        && allFinite(bm, (long) m * k * (complex ? 2 : 1));
                int info = 0;
                if (finite) {
                    info = LapackSolvers.gels(complex, d, m, n, k, am, bm, jpvt, s, rc, r);
                } else {
                    // LAPACKE refuses NaN as an illegal argument; the solution of a NaN problem is NaN
                    for (long i = 0; i < (long) rows * k * (complex ? 2 : 1); i++)
                        bm.setAtIndex(JAVA_DOUBLE, i, Double.NaN);
                    for (int i = 0; i < p; i++) s.setAtIndex(JAVA_DOUBLE, i, Double.NaN);
                    r.setAtIndex(JAVA_INT, 0, 0);
                }
                if (info > 0) {
                    String where = batch.length > 0 ? "(Batch element " + e + "): " : "";
                    throw linAlgError(
                            d == LapackSolvers.LstsqDriver.GELS
                                    ? api + ": " + where
                                            + "The least squares solution could not be computed because the "
                                            + "input matrix does not"
                                            + " have full rank (error code: " + info + ")."
                                    : api + ": " + where
                                            + "The algorithm failed to converge because the input matrix is "
                                            + "ill-conditioned or has"
                                            + " too many repeated singular values (error code: " + info + ").");
                }
                store(bm, rows, k, raw, e * rows * k, complex, false, false);
                if (d != LapackSolvers.LstsqDriver.GELS)
                    rankIo.setLong(
                            rank.impl().storage().segment(), rank.storageOffset() + e, r.getAtIndex(JAVA_INT, 0));
                if (sv.numel() > 0) {
                    for (int i = 0; i < p; i++)
                        svIo.setDouble(
                                sv.impl().storage().segment(),
                                sv.storageOffset() + e * p + i,
                                s.getAtIndex(JAVA_DOUBLE, i));
                }
            }
        }
    }

    // ---------------------------------------------------------------- composites

    private static Tensor power(Tensor a, long n) {
        square("linalg.matrix_power", a, "A");
        if (n < 0) {
            floatingOrComplex("linalg.inv", a);
            a = inverse(a);
            n = -n;
        }
        if (n == 0) {
            // ATen copies the identity into a clone of A: the result stays in A's graph, and A's gradient is zeros
            long k = a.size(-1);
            Tensor eye = Creation.EYE.call1(k, k, a.dtype(), a.device()).expand(a.shape());
            Tensor everywhere = Creation.FULL.call1(a.shape(), true, DType.BOOL, a.device());
            return TernaryOps.where(everywhere, eye, a);
        }
        if (n == 1) return a.clone();
        // binary decomposition of n, as ATen's linalg_matrix_power_impl
        Tensor z = null, result = null;
        while (n > 0) {
            z = z == null ? a : z.matmul(z);
            if ((n & 1) == 1) result = result == null ? z : result.matmul(z);
            n >>= 1;
        }
        return result;
    }

    /** A^-1 through lu_factor and lu_solve, differentiable, with linalg.inv's error for a singular A. */
    private static Tensor inverse(Tensor a) {
        Tensor[] f = luFactorEx(a, true, false);
        if (a.impl().hasData()) {
            long[] codes = f[2].toLongArray();
            for (int b = 0; b < codes.length; b++) {
                if (codes[b] > 0) {
                    throw linAlgError("linalg.inv: " + (a.dim() > 2 ? "(Batch element " + b + "): " : "")
                            + "The diagonal element " + codes[b]
                            + " is zero, the inversion could not be completed because the input matrix is singular.");
                }
            }
        }
        long n = a.size(-1);
        Tensor eye = Creation.EYE.call1(n, n, a.dtype(), a.device()).expand(a.shape());
        return luSolve(f[0], f[1], eye, true, false);
    }

    /** A^-1 B for the backward rules, differentiable in A and B. */
    private static Tensor solve(Tensor a, Tensor b) {
        Tensor[] f = luFactorEx(a, true, false);
        return luSolve(f[0], f[1], b, true, false);
    }

    /**
     * PyTorch's linalg_lstsq: B may be a (batch of) vector(s); residuals (squared norms of the residual rows) only when
     * m > n and the driver is not gelsy, and for gelsd/gelss only when every matrix has full rank (the meta device,
     * which cannot see the rank, assumes it). The solution and the residuals are differentiable; rank and singular
     * values are not, as in PyTorch.
     */
    private static Tensor[] lstsqComposite(Tensor a, Tensor b, Double rcond, String driverName) {
        String api = "torch.linalg.lstsq";
        if (a.dim() < 2) throw new TorchException(api + ": input must have at least 2 dimensions.");
        if (b.dim() < 1) throw new TorchException(api + ": other must have at least 1 dimension.");
        // PyTorch's linalg_solve_is_vector_rhs: B is 1-D, or has exactly A's shape without its last dim
        boolean vector = b.dim() == 1
                || (b.dim() == a.dim() - 1 && Arrays.equals(b.impl().shapeRef(), batchShape(a, 1)));
        if (vector && a.size(-2) != b.size(-1))
            throw new TorchException(api + ": input.size(-2) should match other.size(-1)");
        String resolved = driverName != null ? driverName : "gelsy"; // PyTorch's CPU default
        LapackSolvers.LstsqDriver d = driver(resolved);
        Tensor bm = vector ? b.unsqueeze(-1) : b;
        Tensor[] r = (Tensor[]) Dispatcher.call(LSTSQ_SOLVE, a, bm, rcond, resolved);
        long m = a.size(-2), n = a.size(-1);
        Tensor solution = r[0].narrow(-2, 0, n);
        if (vector) solution = solution.squeeze(-1);
        boolean residuals = m > n && d != LapackSolvers.LstsqDriver.GELSY;
        if (residuals
                && (d == LapackSolvers.LstsqDriver.GELSD || d == LapackSolvers.LstsqDriver.GELSS)
                && a.impl().hasData()) {
            for (long rk : r[1].toLongArray()) residuals &= rk == n;
        }
        Tensor res = residuals
                ? residuals(a, bm, r[0])
                : Creation.full(new long[] {0}, 0L, a.dtype().toReal(), a.device());
        return new Tensor[] {solution, res, r[1], r[2]};
    }

    /**
     * The squared residual norms per column, from the driver's rows below the solution (as PyTorch computes them),
     * differentiable as {@code sum |A X - B|^2} over rows (PyTorch 2.7+, #148526): the value is LAPACK's, the
     * derivative that of the expression, added as {@code f - f.detach()} (exactly zero). With the solution X in it,
     * second derivatives see X move too; the first derivative is Danskin's {@code 2 (A X - B) X^H} for A and {@code -2
     * (A X - B)} for B, since {@code A^H (A X - B) = 0} at the optimum.
     */
    private static Tensor residuals(Tensor a, Tensor bm, Tensor raw) {
        long m = a.size(-2), n = a.size(-1);
        Tensor value = raw.detach().narrow(-2, n, m - n).abs().square().sum(-2);
        Tensor f = a.matmul(raw.narrow(-2, 0, n)).sub(bm).abs().square().sum(-2);
        return value.add(f.sub(f.detach()));
    }

    private static Tensor crossProduct(Tensor x, Tensor y, long dim) {
        if (x.dim() != y.dim())
            throw new TorchException("linalg.cross: inputs must have the same number of dimensions.");
        long[] shape = Shapes.broadcast(x.impl().shapeRef(), y.impl().shapeRef());
        int d = Shapes.wrapDim(dim, shape.length);
        if (x.size(d) != 3 || y.size(d) != 3) {
            throw new TorchException("linalg.cross: inputs dimension " + dim + " must have length 3. Got " + x.size(d)
                    + " and " + y.size(d));
        }
        Tensor x0 = x.select(d, 0), x1 = x.select(d, 1), x2 = x.select(d, 2);
        Tensor y0 = y.select(d, 0), y1 = y.select(d, 1), y2 = y.select(d, 2);
        return JoinOps.stack(
                List.of(
                        x1.mul(y2).sub(x2.mul(y1)),
                        x2.mul(y0).sub(x0.mul(y2)),
                        x0.mul(y1).sub(x1.mul(y0))),
                d);
    }

    private static Tensor multiDot(Tensor[] ts) {
        int k = ts.length;
        if (k < 2) throw new TorchException("multi_dot(): expected at least 2 tensors but got " + k);
        for (int i = 0; i < k; i++) {
            int d = ts[i].dim();
            boolean end = i == 0 || i == k - 1;
            if (end ? d < 1 || d > 2 : d != 2) {
                String which = i == 0 ? "the first tensor" : i == k - 1 ? "the last tensor" : "tensor " + i;
                throw new TorchException(
                        "multi_dot(): " + which + " must be " + (end ? "1D or 2D" : "2D") + " but got " + d + "D");
            }
            if (ts[i].dtype() != ts[0].dtype()) {
                throw new TorchException("multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                        + ts[0].dtype().cppName() + " and tensor " + i + " is "
                        + ts[i].dtype().cppName());
            }
        }
        boolean firstVector = ts[0].dim() == 1, lastVector = ts[k - 1].dim() == 1;
        Tensor[] ms = ts.clone();
        if (firstVector) ms[0] = ms[0].unsqueeze(0);
        if (lastVector) ms[k - 1] = ms[k - 1].unsqueeze(1);
        for (int i = 0; i + 1 < k; i++) {
            if (ms[i].size(1) != ms[i + 1].size(0)) {
                throw new TorchException("multi_dot(): tensors " + i + " and " + (i + 1) + " with shapes "
                        + Arrays.toString(ts[i].impl().shapeRef()) + " and "
                        + Arrays.toString(ts[i + 1].impl().shapeRef()) + " cannot be multiplied");
            }
        }
        long[] p = new long[k + 1];
        for (int i = 0; i < k; i++) p[i] = ms[i].size(0);
        p[k] = ms[k - 1].size(1);
        Tensor r = chain(ms, chainOrder(p), 0, k - 1);
        if (firstVector) r = r.squeeze(0);
        if (lastVector) r = r.squeeze(-1);
        return r;
    }

    /** The matrix-chain dynamic programme: {@code split[i][j]} is where the cheapest product of ms[i..j] splits. */
    private static int[][] chainOrder(long[] p) {
        int k = p.length - 1;
        double[][] cost = new double[k][k];
        int[][] split = new int[k][k];
        for (int len = 1; len < k; len++) {
            for (int i = 0; i + len < k; i++) {
                int j = i + len;
                cost[i][j] = Double.POSITIVE_INFINITY;
                for (int s = i; s < j; s++) {
                    double c = cost[i][s] + cost[s + 1][j] + (double) p[i] * p[s + 1] * p[j + 1];
                    if (c < cost[i][j]) {
                        cost[i][j] = c;
                        split[i][j] = s;
                    }
                }
            }
        }
        return split;
    }

    private static Tensor chain(Tensor[] ms, int[][] split, int i, int j) {
        if (i == j) return ms[i];
        int s = split[i][j];
        return chain(ms, split, i, s).matmul(chain(ms, split, s + 1, j));
    }

    // ---------------------------------------------------------------- backward

    /**
     * The gradient of {@code Q = H_0 ... H_{k-1} E} ({@code H_i = I - tau_i v_i v_i^H}, E the first n columns of I) by
     * walking the reflectors in order: with {@code S_i = H_i S_{i+1}} and G the gradient at {@code S_i}, reflector i
     * contributes {@code g_tau_i = -v^H G w^H} and {@code g_v = -conj(tau) G w^H - tau S_{i+1} G^H v} where {@code w =
     * v^H S_{i+1}}, and passes {@code H_i^H G} on. All in differentiable ops.
     */
    private static Tensor[] householderBackward(Tensor a, Tensor tau, Tensor g, InputMask mask) {
        long m = a.size(-2), n = a.size(-1);
        int k = (int) tau.size(-1);
        if (k == 0 || a.numel() == 0) return new Tensor[] {Creation.zerosLike(a), Creation.zerosLike(tau)};
        Tensor v = a.tril(-1).add(Creation.EYE.call1(m, n, a.dtype(), a.device()));
        Tensor[] states = new Tensor[k + 1];
        states[k] = Creation.EYE.call1(m, n, a.dtype(), a.device()).expand(a.shape());
        for (int i = k - 1; i >= 0; i--) {
            Tensor vi = v.narrow(-1, i, 1), ti = tau.narrow(-1, i, 1).unsqueeze(-1);
            states[i] = states[i + 1].sub(ti.mul(vi).matmul(vi.mH().matmul(states[i + 1])));
        }
        Tensor grad = g;
        Tensor[] gv = new Tensor[(int) n], gt = new Tensor[k];
        for (int i = 0; i < k; i++) {
            Tensor vi = v.narrow(-1, i, 1), ti = tau.narrow(-1, i, 1).unsqueeze(-1), x = states[i + 1];
            Tensor w = vi.mH().matmul(x);
            gt[i] = vi.mH().matmul(grad).matmul(w.mH()).neg().squeeze(-1);
            gv[i] = ti.conj()
                    .mul(grad.matmul(w.mH()))
                    .add(ti.mul(x.matmul(grad.mH().matmul(vi))))
                    .neg();
            grad = grad.sub(ti.conj().mul(vi).matmul(vi.mH().matmul(grad)));
        }
        for (int i = k; i < n; i++) gv[i] = Creation.zerosLike(v.narrow(-1, i, 1));
        Tensor gA = JoinOps.cat(List.of(gv), -1).tril(-1);
        Tensor gTau = JoinOps.cat(List.of(gt), -1);
        return new Tensor[] {mask.needs(0) ? gA : null, mask.needs(1) ? gTau : null};
    }

    /**
     * Least squares backward, PyTorch's {@code linalg_lstsq_backward}: the solution is {@code X = P B} with {@code P =
     * pinv(A)} (what gelsy, gelsd and gelss return, and gels for full rank), so {@code gA = pinv_backward(gX B^H)} and
     * {@code gB = P^H gX}. Unlike the normal equations this needs no inverse of {@code A^H A}, so a rank-deficient A
     * has a gradient too (that of its constant-rank pinv).
     */
    private static Tensor[] lstsqBackward(Tensor a, Tensor b, Tensor gRaw, InputMask mask) {
        if (gRaw == null) return new Tensor[] {null, null};
        Tensor gX = gRaw.narrow(-2, 0, a.size(-1));
        Tensor p = LinalgOps.pinv(a, null, null, false);
        Tensor gA = mask.needs(0) ? LinalgGrads.pinv(gX.matmul(b.mH()), p, a) : null;
        Tensor gB = mask.needs(1) ? p.mH().matmul(gX) : null;
        return new Tensor[] {gA, gB};
    }

    /**
     * Least squares forward AD, PyTorch's {@code linalg_lstsq_jvp}: {@code dX = dP B + P dB} with dP from pinv_jvp. The
     * rows below the solution (residual information when m > n) carry no derivative.
     */
    private static Tensor lstsqJvp(Tensor a, Tensor b, Tensor da, Tensor db) {
        if (da == null && db == null) return null;
        Tensor p = LinalgOps.pinv(a, null, null, false);
        Tensor dx = da == null ? null : LinalgGrads.pinvJvp(a, p, da).matmul(b);
        if (db != null) dx = dx == null ? p.matmul(db) : dx.add(p.matmul(db));
        long m = a.size(-2), n = a.size(-1);
        if (m <= n) return dx;
        long[] below = dx.shape();
        below[below.length - 2] = m - n;
        return JoinOps.cat(List.of(dx, Creation.full(below, 0L, dx.dtype(), dx.device())), -2);
    }

    /**
     * Mathias' block trick: the top-right n x n block of {@code exp([[A^H, G], [0, A^H]])}, which is itself
     * differentiable.
     */
    private static Tensor matrixExpBackward(Tensor a, Tensor g) {
        long n = a.size(-1);
        Tensor ah = a.mH();
        Tensor zeros = Creation.zerosLike(ah);
        Tensor block = JoinOps.cat(List.of(JoinOps.cat(List.of(ah, g), -1), JoinOps.cat(List.of(zeros, ah), -1)), -2);
        return matrixExp(block).narrow(-2, 0, n).narrow(-1, n, n);
    }

    /**
     * PyTorch's linalg_solve_triangular backward: {@code gB = A^-H g}, {@code gA = -gB X^H} restricted to A's triangle.
     */
    private static Tensor[] solveTriangularBackward(
            Tensor a, boolean upper, boolean left, boolean unit, Tensor x, Tensor g, InputMask mask) {
        Tensor gB = solveTriangular(a.mH(), g, !upper, left, unit);
        Tensor gA = null;
        if (mask.needs(0)) {
            gA = (left ? gB.matmul(x.mH()) : x.mH().matmul(gB)).neg();
            gA = upper ? gA.triu(unit ? 1 : 0) : gA.tril(unit ? -1 : 0);
        }
        // B was converted to A's dtype on the way in: the engine casts its gradient back to B's dtype (the real part
        // for a real B of a complex A, the derivative with respect to a real input; PyTorch 2.13's engine refuses
        // that complex gradient instead)
        return new Tensor[] {gA, mask.needs(1) ? gB : null};
    }

    /** L (m x k, unit diagonal) and U (k x n) from the packed factors, differentiable in LU. */
    private static Tensor[] unpack(Tensor lu) {
        long m = lu.size(-2), n = lu.size(-1), k = Math.min(m, n);
        Tensor eye = Creation.EYE.call1(m, k, lu.dtype(), lu.device());
        Tensor l = lu.narrow(-1, 0, k).tril(-1).add(eye);
        Tensor u = lu.narrow(-2, 0, k).triu();
        return new Tensor[] {l, u};
    }

    /** The permutation matrices P of {@code A = P L U} from LAPACK pivots (data; not differentiable). */
    private static Tensor permutationMatrix(Tensor pivots, long m, DType dtype) {
        long[] piv = pivots.contiguous().toLongArray();
        int k = (int) pivots.size(-1), size = (int) m;
        long count = k == 0 ? Shapes.numel(batchShape(pivots, 1)) : piv.length / k;
        double[] data = new double[(int) (count * m * m)];
        int[] perm = new int[size];
        for (long e = 0; e < count; e++) {
            for (int i = 0; i < size; i++) perm[i] = i;
            for (int i = 0; i < k; i++) {
                int j = (int) piv[(int) (e * k + i)] - 1;
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int i = 0; i < size; i++) data[(int) (e * m * m + (long) perm[i] * m + i)] = 1;
        }
        long[] shape = append(batchShape(pivots, 1), m, m);
        return Creation.fromStorage(Storage.wrap(data), new long[] {data.length}, DType.FLOAT64)
                .view(shape)
                .to(dtype);
    }

    private static Tensor luFactorBackward(Tensor g, Tensor lu, Tensor pivots) {
        long m = lu.size(-2), n = lu.size(-1), k = Math.min(m, n);
        Tensor[] f = unpack(lu);
        Tensor p = permutationMatrix(pivots, m, lu.dtype());
        return luBackward(g.narrow(-1, 0, k), g.narrow(-2, 0, k), p, f[0], f[1]);
    }

    /** PyTorch's linalg_lu_backward (square, wide and tall cases), for {@code A = P L U}. */
    private static Tensor luBackward(Tensor gL, Tensor gU, Tensor p, Tensor l, Tensor u) {
        if (gL == null && gU == null) return null;
        long m = l.size(-2), n = u.size(-1), k = Math.min(m, n);
        Tensor gA;
        if (m == n) {
            // gA = P L^-H [(L^H gL) o tril(-1) + (gU U^H) o triu] U^-H
            gA = gL != null ? l.mH().matmul(gL).tril(-1) : null;
            if (gU != null) gA = plus(gA, gU.matmul(u.mH()).triu());
            gA = solveTriangular(u.mH(), gA, false, false, false);
            gA = solveTriangular(l.mH(), gA, true, true, true);
        } else if (m < n) {
            Tensor u1 = u.narrow(-1, 0, k);
            gA = gL != null ? l.mH().matmul(gL) : null;
            if (gU != null) gA = plus(gA, gU.triu().matmul(u.mH()).neg());
            gA = solveTriangular(u1.mH(), gA.tril(-1), false, false, false);
            if (gU != null) gA = JoinOps.cat(List.of(gA.add(gU.narrow(-1, 0, k).triu()), gU.narrow(-1, k, n - k)), -1);
            gA = solveTriangular(l.mH(), gA, true, true, true);
            if (gU == null) gA = JoinOps.cat(List.of(gA, Creation.zerosLike(u.narrow(-1, k, n - k))), -1);
        } else {
            Tensor l1 = l.narrow(-2, 0, k);
            gA = gU != null ? gU.matmul(u.mH()) : null;
            if (gL != null) gA = plus(gA, l.mH().matmul(gL.tril(-1)).neg());
            gA = solveTriangular(l1.mH(), gA.triu(), true, true, true);
            if (gL != null)
                gA = JoinOps.cat(List.of(gA.add(gL.narrow(-2, 0, k).tril(-1)), gL.narrow(-2, k, m - k)), -2);
            gA = solveTriangular(u.mH(), gA, false, false, false);
            if (gL == null) gA = JoinOps.cat(List.of(gA, Creation.zerosLike(l.narrow(-2, k, m - k))), -2);
        }
        return p.matmul(gA);
    }

    private static Tensor plus(Tensor a, Tensor b) {
        return a == null ? b : a.add(b);
    }

    /** PyTorch's linalg_lu_solve_LU: the gradient with respect to the packed factors. */
    private static Tensor luSolveLuBackward(
            Tensor gX, Tensor lu, Tensor pivots, Tensor x, boolean left, boolean adjoint) {
        Tensor[] f = unpack(lu);
        Tensor l = f[0], u = f[1];
        if (left != adjoint) {
            Tensor gR = solveTriangular(
                    u.mH(), (left ? gX : gX.mH()).matmul(left ? x.mH() : x).neg(), false, true, false);
            Tensor gL =
                    solveTriangular(l.mH(), gR.matmul(u.mH()), true, true, true).tril(-1);
            return gL.add(gR.triu());
        }
        Tensor p = permutationMatrix(pivots, lu.size(-1), lu.dtype());
        Tensor gR = p.mT().matmul(left ? x : x.mH())
                .matmul(left ? gX.mH() : gX)
                .matmul(p)
                .neg();
        gR = solveTriangular(l.mH(), gR, true, false, true);
        Tensor gU =
                solveTriangular(u.mH(), l.mH().matmul(gR), false, false, false).triu();
        return gR.tril(-1).add(gU);
    }

    /**
     * PyTorch's linalg_eig_backward (non-Hermitian case), including its check that the loss does not depend on the
     * eigenvectors' phases. A real A gets the real part of the complex gradient.
     */
    private static Tensor eigBackward(Tensor a, Tensor values, Tensor vectors, Tensor gL, Tensor gV) {
        if (gL == null && gV == null) return null;
        Tensor v = vectors, vh = v.mH();
        Tensor gA;
        if (gV == null) {
            gA = solve(vh, gL.unsqueeze(-1).mul(vh));
        } else {
            Tensor vhgv = vh.matmul(gV);
            Tensor diag = vhgv.diagonal(0, -2, -1);
            if (diag.impl().hasData() && diag.numel() > 0) {
                double worst = diag.imag().abs().max().item();
                if (!(worst <= 1e-2)) {
                    throw new TorchException(
                            "linalg_eig_backward: The eigenvectors in the complex case are specified up to"
                                    + " multiplication by e^{i phi}. The specified loss function depends on "
                                    + "this quantity, so it is ill-defined.");
                }
            }
            // project onto the skew-Hermitian tangent space at the identity of U(n)
            vhgv = vhgv.sub(vh.matmul(v.mul(diag.real().unsqueeze(-2))));
            Tensor lc = values.conj();
            long n = values.size(-1);
            Tensor econj = lc.unsqueeze(-2)
                    .sub(lc.unsqueeze(-1))
                    .add(Creation.EYE.call1(n, n, values.dtype(), values.device()));
            Tensor inner = vhgv.div(econj);
            if (gL != null) inner = inner.add(gL.diagEmbed());
            gA = solve(vh, inner.matmul(vh));
        }
        return a.dtype().isComplex() ? gA : gA.real();
    }
}

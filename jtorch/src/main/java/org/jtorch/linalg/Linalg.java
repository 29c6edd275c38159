package org.jtorch.linalg;

import org.jtorch.Tensor;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.LinalgSolveOps;
import org.jtorch.ops.ReductionOps;

/**
 * {@code torch.linalg}: the public entry points, one per PyTorch function, delegating to the ops of {@link LinalgOps}.
 * Inputs are batches of matrices {@code (*, m, n)} of float32, float64, complex64 or complex128; failures that depend
 * on the values throw {@link org.jtorch.LinAlgException}.
 */
public final class Linalg {
    private Linalg() {}

    /** {@code torch.linalg.cholesky(A)}: lower-triangular L with {@code A = L L^H}; reads only A's lower triangle. */
    public static Tensor cholesky(Tensor a) {
        return LinalgOps.cholesky(a);
    }

    /** {@code torch.linalg.cholesky(A, upper=upper)}: with upper, U with {@code A = U^H U}, from A's upper triangle. */
    public static Tensor cholesky(Tensor a, boolean upper) {
        return LinalgOps.cholesky(a, upper);
    }

    /** {@code torch.linalg.inv(A)}: the inverse; singular A throws. */
    public static Tensor inv(Tensor a) {
        return LinalgOps.inv(a);
    }

    /**
     * {@code torch.linalg.slogdet(A)}: sign and natural log of the absolute determinant; singular A gives (0, -inf).
     */
    public static Slogdet slogdet(Tensor a) {
        Tensor[] r = LinalgOps.slogdet(a);
        return new Slogdet(r[0], r[1]);
    }

    /** {@code torch.linalg.solve(A, B)}: X with {@code A X = B}; B is {@code (*, n, k)} or a (batch of) vector(s). */
    public static Tensor solve(Tensor a, Tensor b) {
        return LinalgOps.solve(a, b);
    }

    /** {@code torch.linalg.solve(A, B, left=left)}: with left false, X with {@code X A = B}. */
    public static Tensor solve(Tensor a, Tensor b, boolean left) {
        return LinalgOps.solve(a, b, left);
    }

    /** {@code torch.linalg.det(A)}: the determinant of each matrix, shape {@code *}. */
    public static Tensor det(Tensor a) {
        return LinalgOps.det(a);
    }

    // ---- solvers, factorizations, matrix functions

    /**
     * {@code torch.linalg.matrix_exp(A)}: the matrix exponential of each matrix (scaling and squaring, Taylor degree by
     * norm).
     */
    public static Tensor matrixExp(Tensor a) {
        return LinalgSolveOps.matrixExp(a);
    }

    /**
     * {@code torch.linalg.eig(A)}: complex eigenvalues and unit-norm eigenvectors of a general matrix, in LAPACK's
     * order.
     */
    public static Eig eig(Tensor a) {
        Tensor[] r = LinalgSolveOps.eig(a);
        return new Eig(r[0], r[1]);
    }

    /** {@code torch.linalg.eigvals(A)}: the complex eigenvalues of a general matrix. */
    public static Tensor eigvals(Tensor a) {
        return LinalgSolveOps.eigvals(a);
    }

    /** {@code torch.linalg.solve_triangular(A, B, upper=upper)}: X with {@code A X = B}, A triangular. */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper) {
        return LinalgSolveOps.solveTriangular(a, b, upper);
    }

    /**
     * {@code torch.linalg.solve_triangular(A, B, upper=, left=, unitriangular=)}: left false solves {@code X A = B}.
     */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper, boolean left, boolean unitriangular) {
        return LinalgSolveOps.solveTriangular(a, b, upper, left, unitriangular);
    }

    /** {@code torch.linalg.lu(A)}: {@code A = P L U} with partial pivoting. */
    public static Lu lu(Tensor a) {
        return lu(a, true);
    }

    /** {@code torch.linalg.lu(A, pivot=pivot)}; pivot=false is not available on the CPU (as in PyTorch). */
    public static Lu lu(Tensor a, boolean pivot) {
        Tensor[] r = LinalgSolveOps.lu(a, pivot);
        return new Lu(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.lu_factor(A)}: packed LU factors and pivots; a zero on U's diagonal throws. */
    public static LuFactor luFactor(Tensor a) {
        return luFactor(a, true);
    }

    /** {@code torch.linalg.lu_factor(A, pivot=pivot)}. */
    public static LuFactor luFactor(Tensor a, boolean pivot) {
        Tensor[] r = LinalgSolveOps.luFactor(a, pivot);
        return new LuFactor(r[0], r[1]);
    }

    /**
     * {@code torch.linalg.lu_factor_ex(A)}: {@link #luFactor} that reports failures in {@code info} instead of
     * throwing.
     */
    public static LuFactorEx luFactorEx(Tensor a) {
        return luFactorEx(a, true, false);
    }

    /** {@code torch.linalg.lu_factor_ex(A, pivot=pivot, check_errors=checkErrors)}. */
    public static LuFactorEx luFactorEx(Tensor a, boolean pivot, boolean checkErrors) {
        Tensor[] r = LinalgSolveOps.luFactorEx(a, pivot, checkErrors);
        return new LuFactorEx(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.lu_solve(LU, pivots, B)}: X with {@code A X = B} from A's LU factors. */
    public static Tensor luSolve(Tensor lu, Tensor pivots, Tensor b) {
        return LinalgSolveOps.luSolve(lu, pivots, b, true, false);
    }

    /**
     * {@code torch.linalg.lu_solve(LU, pivots, B, left=left, adjoint=adjoint)}: left false solves {@code X A = B};
     * adjoint uses A^H.
     */
    public static Tensor luSolve(Tensor lu, Tensor pivots, Tensor b, boolean left, boolean adjoint) {
        return LinalgSolveOps.luSolve(lu, pivots, b, left, adjoint);
    }

    /** {@code torch.linalg.matrix_power(A, n)}: A to an integer power; negative powers invert A. */
    public static Tensor matrixPower(Tensor a, long n) {
        return LinalgSolveOps.matrixPower(a, n);
    }

    /** {@code torch.linalg.cross(x, y)}: the cross product along the last dim (of size 3), broadcasting. */
    public static Tensor cross(Tensor x, Tensor y) {
        return LinalgSolveOps.cross(x, y, -1);
    }

    /** {@code torch.linalg.cross(x, y, dim=dim)}. */
    public static Tensor cross(Tensor x, Tensor y, long dim) {
        return LinalgSolveOps.cross(x, y, dim);
    }

    /** {@code torch.linalg.vecdot(x, y)}: {@code sum(conj(x) * y)} along the last dim, broadcasting. */
    public static Tensor vecdot(Tensor x, Tensor y) {
        return LinalgSolveOps.vecdot(x, y, -1);
    }

    /** {@code torch.linalg.vecdot(x, y, dim=dim)}. */
    public static Tensor vecdot(Tensor x, Tensor y, long dim) {
        return LinalgSolveOps.vecdot(x, y, dim);
    }

    /**
     * {@code torch.linalg.multi_dot(tensors)}: the product of a chain of matrices, multiplied in the cheapest order.
     */
    public static Tensor multiDot(java.util.List<Tensor> tensors) {
        return LinalgSolveOps.multiDot(tensors);
    }

    /** {@code torch.linalg.multi_dot(tensors)}. */
    public static Tensor multiDot(Tensor... tensors) {
        return LinalgSolveOps.multiDot(java.util.List.of(tensors));
    }
    // ---- decompositions and norms

    /** {@code torch.linalg.cholesky_ex(A)}: the factor and info codes, never raising for a non-positive-definite A. */
    public static CholeskyEx choleskyEx(Tensor a) {
        return choleskyEx(a, false, false);
    }

    /** {@code torch.linalg.cholesky_ex(A, upper=upper, check_errors=checkErrors)}. */
    public static CholeskyEx choleskyEx(Tensor a, boolean upper, boolean checkErrors) {
        Tensor[] r = LinalgOps.choleskyEx(a, upper, checkErrors);
        return new CholeskyEx(r[0], r[1]);
    }

    /** {@code torch.linalg.inv_ex(A)}: the inverse and info codes, never raising for a singular A. */
    public static InvEx invEx(Tensor a) {
        return invEx(a, false);
    }

    /** {@code torch.linalg.inv_ex(A, check_errors=checkErrors)}. */
    public static InvEx invEx(Tensor a, boolean checkErrors) {
        Tensor[] r = LinalgOps.invEx(a, checkErrors);
        return new InvEx(r[0], r[1]);
    }

    /** {@code torch.linalg.solve_ex(A, B)}: the solution and info codes, never raising for a singular A. */
    public static SolveEx solveEx(Tensor a, Tensor b) {
        return solveEx(a, b, true, false);
    }

    /** {@code torch.linalg.solve_ex(A, B, left=left, check_errors=checkErrors)}. */
    public static SolveEx solveEx(Tensor a, Tensor b, boolean left, boolean checkErrors) {
        Tensor[] r = LinalgOps.solveEx(a, b, left, checkErrors);
        return new SolveEx(r[0], r[1]);
    }

    /**
     * {@code torch.linalg.eigh(A)}: eigenvalues (ascending) and eigenvectors of a Hermitian A from its lower triangle.
     */
    public static Eigh eigh(Tensor a) {
        return eigh(a, "L");
    }

    /** {@code torch.linalg.eigh(A, UPLO=uplo)}: uplo "L" or "U" names the triangle read. */
    public static Eigh eigh(Tensor a, String uplo) {
        Tensor[] r = LinalgOps.eigh(a, uplo);
        return new Eigh(r[0], r[1]);
    }

    /** {@code torch.linalg.eigvalsh(A)}: the ascending eigenvalues of a Hermitian A from its lower triangle. */
    public static Tensor eigvalsh(Tensor a) {
        return LinalgOps.eigvalsh(a, "L");
    }

    /** {@code torch.linalg.eigvalsh(A, UPLO=uplo)}. */
    public static Tensor eigvalsh(Tensor a, String uplo) {
        return LinalgOps.eigvalsh(a, uplo);
    }

    /** {@code torch.linalg.svd(A)}: the full SVD {@code A = U diag(S) Vh}. */
    public static Svd svd(Tensor a) {
        return svd(a, true);
    }

    /** {@code torch.linalg.svd(A, full_matrices=fullMatrices)}. */
    public static Svd svd(Tensor a, boolean fullMatrices) {
        Tensor[] r = LinalgOps.svd(a, fullMatrices);
        return new Svd(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.svdvals(A)}: the singular values, descending. */
    public static Tensor svdvals(Tensor a) {
        return LinalgOps.svdvals(a);
    }

    /** {@code torch.linalg.qr(A)}: the reduced QR decomposition. */
    public static QR qr(Tensor a) {
        return qr(a, QrMode.REDUCED);
    }

    /** {@code torch.linalg.qr(A, mode=mode)}. */
    public static QR qr(Tensor a, QrMode mode) {
        Tensor[] r = LinalgOps.qr(a, mode.pyName());
        return new QR(r[0], r[1]);
    }

    /** {@code torch.linalg.polar(A)} (2.14): {@code A = U H} for m >= n, from the SVD. */
    public static Polar polar(Tensor a) {
        Tensor[] r = LinalgOps.polar(a);
        return new Polar(r[0], r[1]);
    }

    /** {@code torch.linalg.matrix_sqrth(A)} (2.14): the principal square root of a Hermitian positive-definite A. */
    public static Tensor matrixSqrth(Tensor a) {
        return LinalgOps.matrixSqrth(a);
    }

    /** {@code torch.linalg.vector_norm(x, ord)} over all elements. */
    public static Tensor vectorNorm(Tensor x, double ord) {
        return ReductionOps.vectorNorm(x, ord);
    }

    /** {@code torch.linalg.vector_norm(x, ord, dim, keepdim)}. */
    public static Tensor vectorNorm(Tensor x, double ord, long[] dim, boolean keepdim) {
        return ReductionOps.vectorNorm(x, ord, dim, keepdim);
    }

    /** {@code torch.linalg.matrix_norm(A)}: the Frobenius norm of each matrix. */
    public static Tensor matrixNorm(Tensor a) {
        return matrixNorm(a, "fro");
    }

    /** {@code torch.linalg.matrix_norm(A, ord)}, ord "fro" or "nuc". */
    public static Tensor matrixNorm(Tensor a, String ord) {
        return LinalgOps.matrixNorm(a, ord, new long[] {-2, -1}, false);
    }

    /** {@code torch.linalg.matrix_norm(A, ord)}, ord 2, -2, 1, -1, inf or -inf ({@link Double#POSITIVE_INFINITY}). */
    public static Tensor matrixNorm(Tensor a, double ord) {
        return LinalgOps.matrixNorm(a, ord, new long[] {-2, -1}, false);
    }

    /** {@code torch.linalg.matrix_norm(A, ord, dim, keepdim)} with a string ord. */
    public static Tensor matrixNorm(Tensor a, String ord, long[] dim, boolean keepdim) {
        return LinalgOps.matrixNorm(a, ord, dim, keepdim);
    }

    /** {@code torch.linalg.matrix_norm(A, ord, dim, keepdim)} with a numeric ord. */
    public static Tensor matrixNorm(Tensor a, double ord, long[] dim, boolean keepdim) {
        return LinalgOps.matrixNorm(a, ord, dim, keepdim);
    }

    /** {@code torch.linalg.norm(A)}: the 2-norm of all elements, whatever the shape. */
    public static Tensor norm(Tensor a) {
        return LinalgOps.norm(a, null, null, false);
    }

    /** {@code torch.linalg.norm(A, ord)}: a vector norm of a 1-D input, a matrix norm of a 2-D one. */
    public static Tensor norm(Tensor a, double ord) {
        return LinalgOps.norm(a, ord, null, false);
    }

    /** {@code torch.linalg.norm(A, ord)} with ord "fro" or "nuc" (2-D input). */
    public static Tensor norm(Tensor a, String ord) {
        return LinalgOps.norm(a, ord, null, false);
    }

    /**
     * {@code torch.linalg.norm(A, ord, dim, keepdim)}: ord null, a Double or "fro"/"nuc"; dim of length 1 (vector) or 2
     * (matrix).
     */
    public static Tensor norm(Tensor a, Object ord, long[] dim, boolean keepdim) {
        return LinalgOps.norm(a, ord, dim, keepdim);
    }

    /** {@code torch.linalg.cond(A)}: the 2-norm condition number, {@code sigma_max / sigma_min}. */
    public static Tensor cond(Tensor a) {
        return LinalgOps.cond(a, (Double) null);
    }

    /** {@code torch.linalg.cond(A, p)}, p 2, -2, 1, -1, inf or -inf; infinite for a singular square A and p not ±2. */
    public static Tensor cond(Tensor a, double p) {
        return LinalgOps.cond(a, p);
    }

    /** {@code torch.linalg.cond(A, p)}, p "fro" or "nuc". */
    public static Tensor cond(Tensor a, String p) {
        return LinalgOps.cond(a, p);
    }

    /** {@code torch.linalg.matrix_rank(A)}: the number of singular values above {@code eps * max(m, n) * sigma_max}. */
    public static Tensor matrixRank(Tensor a) {
        return LinalgOps.matrixRank(a, null, null, false);
    }

    /**
     * {@code torch.linalg.matrix_rank(A, atol=atol, rtol=rtol, hermitian=hermitian)}; null tolerances take PyTorch's
     * defaults.
     */
    public static Tensor matrixRank(Tensor a, Double atol, Double rtol, boolean hermitian) {
        return LinalgOps.matrixRank(a, atol, rtol, hermitian);
    }

    /** {@code torch.linalg.pinv(A)}: the Moore-Penrose pseudo-inverse. */
    public static Tensor pinv(Tensor a) {
        return LinalgOps.pinv(a, null, null, false);
    }

    /**
     * {@code torch.linalg.pinv(A, atol=atol, rtol=rtol, hermitian=hermitian)}; null tolerances take PyTorch's defaults.
     */
    public static Tensor pinv(Tensor a, Double atol, Double rtol, boolean hermitian) {
        return LinalgOps.pinv(a, atol, rtol, hermitian);
    }

    /**
     * {@code torch.linalg.householder_product(A, tau)}: the first n columns of the product of the Householder
     * reflectors in A and tau.
     */
    public static Tensor householderProduct(Tensor a, Tensor tau) {
        return LinalgSolveOps.householderProduct(a, tau);
    }

    /** {@code torch.linalg.lstsq(A, B)}: least-squares solution with the default driver (gelsy on the CPU). */
    public static Lstsq lstsq(Tensor a, Tensor b) {
        return lstsq(a, b, null, null);
    }

    /**
     * {@code torch.linalg.lstsq(A, B, rcond=rcond, driver=driver)}; driver one of "gels", "gelsy", "gelsd", "gelss"
     * (null: gelsy), rcond null for the dtype's epsilon times max(m, n).
     */
    public static Lstsq lstsq(Tensor a, Tensor b, Double rcond, String driver) {
        Tensor[] r = LinalgSolveOps.lstsq(a, b, rcond, driver);
        return new Lstsq(r[0], r[1], r[2], r[3]);
    }
}

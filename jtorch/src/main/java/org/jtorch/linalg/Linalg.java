package org.jtorch.linalg;

import org.jtorch.Tensor;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.LinalgSolveOps;

/**
 * {@code torch.linalg}: the public entry points, one per PyTorch function, delegating to the ops of
 * {@link LinalgOps}. Inputs are batches of matrices {@code (*, n, n)} of float32 or float64.
 */
public final class Linalg {
    private Linalg() {}

    /** {@code torch.linalg.cholesky(A)}: lower-triangular L with {@code A = L L^H}; reads only A's lower triangle. */
    public static Tensor cholesky(Tensor a) { return LinalgOps.cholesky(a); }

    /** {@code torch.linalg.cholesky(A, upper=upper)}: with upper, U with {@code A = U^H U}, from A's upper triangle. */
    public static Tensor cholesky(Tensor a, boolean upper) { return LinalgOps.cholesky(a, upper); }

    /** {@code torch.linalg.inv(A)}: the inverse; singular A throws. */
    public static Tensor inv(Tensor a) { return LinalgOps.inv(a); }

    /** {@code torch.linalg.slogdet(A)}: sign and natural log of the absolute determinant; singular A gives (0, -inf). */
    public static Slogdet slogdet(Tensor a) {
        Tensor[] r = LinalgOps.slogdet(a);
        return new Slogdet(r[0], r[1]);
    }

    /** {@code torch.linalg.solve(A, B)}: X with {@code A X = B}; B is {@code (*, n, k)} or a (batch of) vector(s). */
    public static Tensor solve(Tensor a, Tensor b) { return LinalgOps.solve(a, b); }

    /** {@code torch.linalg.solve(A, B, left=left)}: with left false, X with {@code X A = B}. */
    public static Tensor solve(Tensor a, Tensor b, boolean left) { return LinalgOps.solve(a, b, left); }

    /** {@code torch.linalg.det(A)}: the determinant of each matrix, shape {@code *}. */
    public static Tensor det(Tensor a) { return LinalgOps.det(a); }


    // ---- solvers, factorizations, matrix functions

    /** {@code torch.linalg.matrix_exp(A)}: the matrix exponential of each matrix (scaling and squaring, Taylor degree by norm). */
    public static Tensor matrixExp(Tensor a) { return LinalgSolveOps.matrixExp(a); }

    /** {@code torch.linalg.eig(A)}: complex eigenvalues and unit-norm eigenvectors of a general matrix, in LAPACK's order. */
    public static Eig eig(Tensor a) {
        Tensor[] r = LinalgSolveOps.eig(a);
        return new Eig(r[0], r[1]);
    }

    /** {@code torch.linalg.eigvals(A)}: the complex eigenvalues of a general matrix. */
    public static Tensor eigvals(Tensor a) { return LinalgSolveOps.eigvals(a); }

    /** {@code torch.linalg.solve_triangular(A, B, upper=upper)}: X with {@code A X = B}, A triangular. */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper) { return LinalgSolveOps.solveTriangular(a, b, upper); }

    /** {@code torch.linalg.solve_triangular(A, B, upper=, left=, unitriangular=)}: left false solves {@code X A = B}. */
    public static Tensor solveTriangular(Tensor a, Tensor b, boolean upper, boolean left, boolean unitriangular) {
        return LinalgSolveOps.solveTriangular(a, b, upper, left, unitriangular);
    }

    /** {@code torch.linalg.lu(A)}: {@code A = P L U} with partial pivoting. */
    public static Lu lu(Tensor a) { return lu(a, true); }

    /** {@code torch.linalg.lu(A, pivot=pivot)}; pivot=false is not available on the CPU (as in PyTorch). */
    public static Lu lu(Tensor a, boolean pivot) {
        Tensor[] r = LinalgSolveOps.lu(a, pivot);
        return new Lu(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.lu_factor(A)}: packed LU factors and pivots; a zero on U's diagonal throws. */
    public static LuFactor luFactor(Tensor a) { return luFactor(a, true); }

    /** {@code torch.linalg.lu_factor(A, pivot=pivot)}. */
    public static LuFactor luFactor(Tensor a, boolean pivot) {
        Tensor[] r = LinalgSolveOps.luFactor(a, pivot);
        return new LuFactor(r[0], r[1]);
    }

    /** {@code torch.linalg.lu_factor_ex(A)}: {@link #luFactor} that reports failures in {@code info} instead of throwing. */
    public static LuFactorEx luFactorEx(Tensor a) { return luFactorEx(a, true, false); }

    /** {@code torch.linalg.lu_factor_ex(A, pivot=pivot, check_errors=checkErrors)}. */
    public static LuFactorEx luFactorEx(Tensor a, boolean pivot, boolean checkErrors) {
        Tensor[] r = LinalgSolveOps.luFactorEx(a, pivot, checkErrors);
        return new LuFactorEx(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.lu_solve(LU, pivots, B)}: X with {@code A X = B} from A's LU factors. */
    public static Tensor luSolve(Tensor lu, Tensor pivots, Tensor b) { return LinalgSolveOps.luSolve(lu, pivots, b, true, false); }

    /** {@code torch.linalg.lu_solve(LU, pivots, B, left=left, adjoint=adjoint)}: left false solves {@code X A = B}; adjoint uses A^H. */
    public static Tensor luSolve(Tensor lu, Tensor pivots, Tensor b, boolean left, boolean adjoint) {
        return LinalgSolveOps.luSolve(lu, pivots, b, left, adjoint);
    }

    /** {@code torch.linalg.matrix_power(A, n)}: A to an integer power; negative powers invert A. */
    public static Tensor matrixPower(Tensor a, long n) { return LinalgSolveOps.matrixPower(a, n); }

    /** {@code torch.linalg.cross(x, y)}: the cross product along the last dim (of size 3), broadcasting. */
    public static Tensor cross(Tensor x, Tensor y) { return LinalgSolveOps.cross(x, y, -1); }

    /** {@code torch.linalg.cross(x, y, dim=dim)}. */
    public static Tensor cross(Tensor x, Tensor y, long dim) { return LinalgSolveOps.cross(x, y, dim); }

    /** {@code torch.linalg.vecdot(x, y)}: {@code sum(conj(x) * y)} along the last dim, broadcasting. */
    public static Tensor vecdot(Tensor x, Tensor y) { return LinalgSolveOps.vecdot(x, y, -1); }

    /** {@code torch.linalg.vecdot(x, y, dim=dim)}. */
    public static Tensor vecdot(Tensor x, Tensor y, long dim) { return LinalgSolveOps.vecdot(x, y, dim); }

    /** {@code torch.linalg.multi_dot(tensors)}: the product of a chain of matrices, multiplied in the cheapest order. */
    public static Tensor multiDot(java.util.List<Tensor> tensors) { return LinalgSolveOps.multiDot(tensors); }

    /** {@code torch.linalg.multi_dot(tensors)}. */
    public static Tensor multiDot(Tensor... tensors) { return LinalgSolveOps.multiDot(java.util.List.of(tensors)); }

    /** {@code torch.linalg.householder_product(A, tau)}: the first n columns of the product of the Householder reflectors in A and tau. */
    public static Tensor householderProduct(Tensor a, Tensor tau) { return LinalgSolveOps.householderProduct(a, tau); }

    /** {@code torch.linalg.lstsq(A, B)}: least-squares solution with the default driver (gelsy on the CPU). */
    public static Lstsq lstsq(Tensor a, Tensor b) { return lstsq(a, b, null, null); }

    /**
     * {@code torch.linalg.lstsq(A, B, rcond=rcond, driver=driver)}; driver one of "gels", "gelsy", "gelsd",
     * "gelss" (null: gelsy), rcond null for the dtype's epsilon times max(m, n).
     */
    public static Lstsq lstsq(Tensor a, Tensor b, Double rcond, String driver) {
        Tensor[] r = LinalgSolveOps.lstsq(a, b, rcond, driver);
        return new Lstsq(r[0], r[1], r[2], r[3]);
    }
}

package org.jtorch.linalg;

import org.jtorch.Tensor;
import org.jtorch.ops.LinalgOps;

/**
 * {@code torch.linalg}: the public entry points, one per PyTorch function, delegating to the ops of
 * {@link LinalgOps}. Inputs are batches of matrices {@code (*, m, n)} of float32, float64, complex64 or
 * complex128; failures that depend on the values throw {@link org.jtorch.LinAlgException}.
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

    // ---- decompositions and norms

    /** {@code torch.linalg.cholesky_ex(A)}: the factor and info codes, never raising for a non-positive-definite A. */
    public static CholeskyEx choleskyEx(Tensor a) { return choleskyEx(a, false, false); }

    /** {@code torch.linalg.cholesky_ex(A, upper=upper, check_errors=checkErrors)}. */
    public static CholeskyEx choleskyEx(Tensor a, boolean upper, boolean checkErrors) {
        Tensor[] r = LinalgOps.choleskyEx(a, upper, checkErrors);
        return new CholeskyEx(r[0], r[1]);
    }

    /** {@code torch.linalg.inv_ex(A)}: the inverse and info codes, never raising for a singular A. */
    public static InvEx invEx(Tensor a) { return invEx(a, false); }

    /** {@code torch.linalg.inv_ex(A, check_errors=checkErrors)}. */
    public static InvEx invEx(Tensor a, boolean checkErrors) {
        Tensor[] r = LinalgOps.invEx(a, checkErrors);
        return new InvEx(r[0], r[1]);
    }

    /** {@code torch.linalg.solve_ex(A, B)}: the solution and info codes, never raising for a singular A. */
    public static SolveEx solveEx(Tensor a, Tensor b) { return solveEx(a, b, true, false); }

    /** {@code torch.linalg.solve_ex(A, B, left=left, check_errors=checkErrors)}. */
    public static SolveEx solveEx(Tensor a, Tensor b, boolean left, boolean checkErrors) {
        Tensor[] r = LinalgOps.solveEx(a, b, left, checkErrors);
        return new SolveEx(r[0], r[1]);
    }

    /** {@code torch.linalg.eigh(A)}: eigenvalues (ascending) and eigenvectors of a Hermitian A from its lower triangle. */
    public static Eigh eigh(Tensor a) { return eigh(a, "L"); }

    /** {@code torch.linalg.eigh(A, UPLO=uplo)}: uplo "L" or "U" names the triangle read. */
    public static Eigh eigh(Tensor a, String uplo) {
        Tensor[] r = LinalgOps.eigh(a, uplo);
        return new Eigh(r[0], r[1]);
    }

    /** {@code torch.linalg.eigvalsh(A)}: the ascending eigenvalues of a Hermitian A from its lower triangle. */
    public static Tensor eigvalsh(Tensor a) { return LinalgOps.eigvalsh(a, "L"); }

    /** {@code torch.linalg.eigvalsh(A, UPLO=uplo)}. */
    public static Tensor eigvalsh(Tensor a, String uplo) { return LinalgOps.eigvalsh(a, uplo); }

    /** {@code torch.linalg.svd(A)}: the full SVD {@code A = U diag(S) Vh}. */
    public static Svd svd(Tensor a) { return svd(a, true); }

    /** {@code torch.linalg.svd(A, full_matrices=fullMatrices)}. */
    public static Svd svd(Tensor a, boolean fullMatrices) {
        Tensor[] r = LinalgOps.svd(a, fullMatrices);
        return new Svd(r[0], r[1], r[2]);
    }

    /** {@code torch.linalg.svdvals(A)}: the singular values, descending. */
    public static Tensor svdvals(Tensor a) { return LinalgOps.svdvals(a); }

    /** {@code torch.linalg.qr(A)}: the reduced QR decomposition. */
    public static QR qr(Tensor a) { return qr(a, QrMode.REDUCED); }

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
    public static Tensor matrixSqrth(Tensor a) { return LinalgOps.matrixSqrth(a); }
}

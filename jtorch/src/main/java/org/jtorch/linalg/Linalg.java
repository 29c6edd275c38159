package org.jtorch.linalg;

import org.jtorch.Tensor;
import org.jtorch.ops.LinalgOps;

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
}

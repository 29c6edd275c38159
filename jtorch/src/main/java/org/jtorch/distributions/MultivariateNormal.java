package org.jtorch.distributions;

import java.util.Arrays;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.Shapes;
import org.jtorch.linalg.Linalg;

/**
 * {@code torch.distributions.MultivariateNormal(loc, covariance_matrix=.. | precision_matrix=.. | scale_tril=..)}: the
 * Gaussian over vectors, parameterised through the lower Cholesky factor {@code L} of the covariance, as PyTorch does
 * it: {@link #rsample} is {@code loc + L eps}, the log-density uses a triangular solve.
 */
public final class MultivariateNormal extends Distribution {
    private final Tensor loc;
    private final Tensor scaleTril;
    private final String given;
    private final Tensor givenMatrix;

    private MultivariateNormal(Tensor loc, Tensor matrix, String kind, Boolean validateArgs) {
        this(loc, matrix, kind, batchShape(loc, matrix), validateArgs);
    }

    private MultivariateNormal(Tensor loc, Tensor matrix, String kind, long[] batch, Boolean validateArgs) {
        super(batch, new long[] {loc.size(-1)}, validateArgs);
        long n = loc.size(-1);
        long[] matrixShape = Arrays.copyOf(batch, batch.length + 2);
        matrixShape[batch.length] = n;
        matrixShape[batch.length + 1] = n;
        this.given = kind;
        this.givenMatrix = matrix.expand(matrixShape);
        this.loc = loc.expand(extendedShape());
        validateParameters();
        this.scaleTril = switch (kind) {
            case "scale_tril" -> matrix;
            case "covariance_matrix" -> Linalg.cholesky(matrix);
            default -> precisionToScaleTril(matrix);
        };
    }

    private static long[] batchShape(Tensor loc, Tensor matrix) {
        if (loc.dim() < 1) throw new IllegalArgumentException("loc must be at least one-dimensional.");
        if (matrix.dim() < 2) {
            throw new IllegalArgumentException(
                    "scale_tril matrix must be at least two-dimensional, with optional leading batch dimensions");
        }
        long[] l = loc.shape(), m = matrix.shape();
        return Shapes.broadcast(Arrays.copyOf(m, m.length - 2), Arrays.copyOf(l, l.length - 1));
    }

    /** {@code MultivariateNormal(loc, covariance_matrix=cov)}. */
    public static MultivariateNormal ofCovariance(Tensor loc, Tensor covarianceMatrix) {
        return new MultivariateNormal(loc, covarianceMatrix, "covariance_matrix", null);
    }

    /** {@code MultivariateNormal(loc, precision_matrix=precision)}. */
    public static MultivariateNormal ofPrecision(Tensor loc, Tensor precisionMatrix) {
        return new MultivariateNormal(loc, precisionMatrix, "precision_matrix", null);
    }

    /** {@code MultivariateNormal(loc, scale_tril=L)}. */
    public static MultivariateNormal ofScaleTril(Tensor loc, Tensor scaleTril) {
        return new MultivariateNormal(loc, scaleTril, "scale_tril", null);
    }

    /** {@code _precision_to_scale_tril}: L with {@code L L^T = P^-1}, through the Cholesky factor of the flipped P. */
    private static Tensor precisionToScaleTril(Tensor p) {
        Tensor lf = Linalg.cholesky(p.flip(-2, -1));
        Tensor lInv = lf.flip(-2, -1).mT();
        Tensor id = Torch.eye(p.size(-1), p.size(-1), p.dtype(), p.device());
        return Linalg.solveTriangular(lInv, id, false);
    }

    /** The mean vector. */
    public Tensor loc() {
        return loc;
    }

    /** The lower Cholesky factor of the covariance, broadcast to the batch shape. */
    public Tensor scaleTril() {
        return scaleTril.expand(matrixShape());
    }

    /** The covariance matrix {@code L L^T}. */
    public Tensor covarianceMatrix() {
        return scaleTril.matmul(scaleTril.mT()).expand(matrixShape());
    }

    private long[] matrixShape() {
        long[] s = extendedShape();
        long[] r = Arrays.copyOf(s, s.length + 1);
        r[s.length] = s[s.length - 1];
        return r;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return constraints(
                "loc",
                Constraint.REAL_VECTOR,
                "covariance_matrix",
                Constraint.POSITIVE_DEFINITE,
                "precision_matrix",
                Constraint.POSITIVE_DEFINITE,
                "scale_tril",
                Constraint.LOWER_CHOLESKY);
    }

    @Override
    Tensor parameter(String name) {
        if (name.equals("loc")) return loc;
        return name.equals(given) ? givenMatrix : null;
    }

    @Override
    public Constraint support() {
        return Constraint.REAL_VECTOR;
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        Tensor eps = Torch.empty(extendedShape(sampleShape), loc.dtype(), loc.device())
                .normal_();
        return loc.add(scaleTril.matmul(eps.unsqueeze(-1)).squeeze(-1));
    }

    /** {@code _batch_mahalanobis(L, x)}: {@code |L^-1 x|^2} over the last dim. */
    private static Tensor mahalanobis(Tensor l, Tensor x) {
        long[] xs = x.shape(), ls = l.shape();
        long[] batch = Shapes.broadcast(Arrays.copyOf(xs, xs.length - 1), Arrays.copyOf(ls, ls.length - 2));
        long n = ls[ls.length - 1];
        long[] lShape = Arrays.copyOf(batch, batch.length + 2), xShape = Arrays.copyOf(batch, batch.length + 1);
        lShape[batch.length] = n;
        lShape[batch.length + 1] = n;
        xShape[batch.length] = n;
        Tensor solved =
                Linalg.solveTriangular(l.expand(lShape), x.expand(xShape).unsqueeze(-1), false);
        return solved.squeeze(-1).pow(2L).sum(-1);
    }

    private Tensor halfLogDet() {
        return scaleTril.diagonal(0, -2, -1).log().sum(-1);
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor m = mahalanobis(scaleTril, value.sub(loc));
        return m.add(eventShape()[0] * Math.log(2 * Math.PI)).mul(-0.5).sub(halfLogDet());
    }

    @Override
    public Tensor entropy() {
        Tensor h = halfLogDet().add(0.5 * eventShape()[0] * (1.0 + Math.log(2 * Math.PI)));
        return batchShape().length == 0 ? h : h.expand(batchShape());
    }

    @Override
    public Tensor mean() {
        return loc;
    }

    /** The mode: the mean. */
    @Override
    public Tensor mode() {
        return loc;
    }

    @Override
    public Tensor variance() {
        return scaleTril.pow(2L).sum(-1).expand(extendedShape());
    }

    /** {@code KL(p || q)} of two multivariate normals of one event size. */
    static Tensor kl(MultivariateNormal p, MultivariateNormal q) {
        if (p.eventShape()[0] != q.eventShape()[0]) {
            throw new IllegalArgumentException(
                    "KL-divergence between two Multivariate Normals with different event shapes cannot be computed");
        }
        long n = p.eventShape()[0];
        Tensor halfTerm1 = q.halfLogDet().sub(p.halfLogDet());
        long[] batch = Shapes.broadcast(q.scaleTril.shape(), p.scaleTril.shape());
        Tensor solved = Linalg.solveTriangular(q.scaleTril.expand(batch), p.scaleTril.expand(batch), false);
        Tensor term2 = solved.pow(2L).sum(new long[] {-2, -1}, false);
        Tensor term3 = mahalanobis(q.scaleTril, q.loc.sub(p.loc));
        return halfTerm1.add(term2.add(term3).sub((double) n).mul(0.5));
    }
}

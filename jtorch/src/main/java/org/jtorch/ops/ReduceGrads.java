package org.jtorch.ops;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.internal.Shapes;

/**
 * Backward formulas of the reductions, scans and copying shape ops (ATen's {@code FunctionsManual} counterparts:
 * {@code prod_backward}, {@code cumprod_backward}, {@code var_backward}, {@code norm_backward},
 * {@code evenly_distribute_backward}...). Every formula is written with differentiable ops, so the rules built on them
 * can be differentiated again.
 */
final class ReduceGrads {
    private ReduceGrads() {}

    // ---- reduced dims -------------------------------------------------------------------------------

    /** The reduced dims of an input of rank {@code rank} as a mask; {@code null} or empty means all. */
    static boolean[] mask(int rank, long[] dims) {
        boolean[] m = new boolean[rank];
        if (dims == null || dims.length == 0) Arrays.fill(m, true);
        else for (long d : dims) if (rank > 0) m[Shapes.wrapDim(d, rank)] = true;
        return m;
    }

    /**
     * A reduction's result (or its gradient) with the reduced dims restored as size 1, so it broadcasts against the
     * input: the identity when the reduction kept its dims.
     */
    static Tensor keep(Tensor t, long[] inputShape, long[] dims, boolean keepdim) {
        if (keepdim || t.dim() == inputShape.length) return t;
        boolean[] m = mask(inputShape.length, dims);
        long[] kept = inputShape.clone();
        for (int d = 0; d < kept.length; d++) if (m[d]) kept[d] = 1;
        return t.reshape(kept);
    }

    /** Number of input elements reduced into each output element. */
    static long count(long[] inputShape, long[] dims) {
        boolean[] m = mask(inputShape.length, dims);
        long n = 1;
        for (int d = 0; d < m.length; d++) if (m[d]) n *= inputShape[d];
        return n;
    }

    /** {@code sum(t, dims, keepdim=True)}, with the reduction's meaning of {@code dims} (null or empty: all). */
    private static Tensor sumKeep(Tensor t, long[] dims) {
        return ReductionOps.sum(t, dims, true);
    }

    private static boolean anyZero(Tensor x) {
        return ReductionOps.any(x.eq(0L)).item() != 0;
    }

    // ---- sums, means, extrema ---------------------------------------------------------------------

    /** {@code nansum}: the gradient of every non-NaN element. */
    static Tensor nansum(Tensor g, Tensor x, long[] dims, boolean keepdim) {
        return TernaryOps.where(x.isnan(), 0L, keep(g, x.impl().shapeRef(), dims, keepdim));
    }

    /** {@code nanmean}: the gradient shared by the non-NaN elements of each reduced slice. */
    static Tensor nanmean(Tensor g, Tensor x, long[] dims, boolean keepdim) {
        Tensor nan = x.isnan();
        Tensor n = sumKeep(nan.logicalNot(), dims);
        return TernaryOps.where(
                nan, 0L, keep(g, x.impl().shapeRef(), dims, keepdim).div(n));
    }

    /**
     * {@code amax}/{@code amin}/{@code max()}/{@code min()}: the gradient distributed evenly over the elements equal to
     * the result (spec §3.5); when the result is NaN the NaN elements are the ties.
     */
    static Tensor evenlyDistribute(Tensor g, Tensor x, Tensor value, long[] dims, boolean keepdim) {
        Tensor v = keep(value, x.impl().shapeRef(), dims, keepdim);
        Tensor ties = PointwiseOps.LOGICAL_OR.call1(x.eq(v), PointwiseOps.LOGICAL_AND.call1(x.isnan(), v.isnan()));
        return TernaryOps.where(
                ties, keep(g, x.impl().shapeRef(), dims, keepdim).div(sumKeep(ties, dims)), 0L);
    }

    // ---- products ---------------------------------------------------------------------------------

    /**
     * {@code prod}: {@code g * result / x} without zeros; with zeros, the product of the other elements of each slice
     * from exclusive cumulative products (ATen's {@code prod_safe_zeros_backward}), which is right for any number of
     * zeros and differentiable again.
     */
    static Tensor prod(Tensor g, Tensor x, Tensor result, long[] dims, boolean keepdim) {
        if (x.dim() == 0) return g;
        Tensor gk = keep(g, x.impl().shapeRef(), dims, keepdim);
        if (x.numel() == 0) return gk.expand(x.shape());
        if (!anyZero(x))
            return gk.mul(
                    Grads.conj(keep(result, x.impl().shapeRef(), dims, keepdim).div(x)));
        // Move the reduced dims last and merge them, so the products of the others run along one dim.
        boolean[] m = mask(x.dim(), dims);
        int[] perm = new int[x.dim()];
        int k = 0;
        for (int d = 0; d < m.length; d++) if (!m[d]) perm[k++] = d;
        int kept = k;
        for (int d = 0; d < m.length; d++) if (m[d]) perm[k++] = d;
        Tensor moved = x.permute(perm);
        long[] movedShape = moved.shape();
        long[] merged = Arrays.copyOf(movedShape, kept + 1);
        merged[kept] = count(x.impl().shapeRef(), dims);
        Tensor others = exclusiveProducts(moved.reshape(merged), kept)
                .reshape(movedShape)
                .permute(inverse(perm));
        return gk.mul(Grads.conj(others));
    }

    private static int[] inverse(int[] perm) {
        int[] inv = new int[perm.length];
        for (int i = 0; i < perm.length; i++) inv[perm[i]] = i;
        return inv;
    }

    /** For each element, the product of the other elements along {@code dim} (size at least 1). */
    private static Tensor exclusiveProducts(Tensor x, int dim) {
        long n = x.size(dim);
        long[] oneShape = x.shape();
        oneShape[dim] = 1;
        Tensor ones = Creation.full(oneShape, 1L, x.dtype(), Device.CPU);
        Tensor before = JoinOps.cat(List.of(ones, x.narrow(dim, 0, n - 1)), dim).cumprod(dim);
        Tensor after = JoinOps.cat(List.of(ones, x.narrow(dim, 1, n - 1).flip(dim)), dim)
                .cumprod(dim)
                .flip(dim);
        return before.mul(after);
    }

    /** {@code flip(cumsum(flip(t)))}: the sum of each element and those after it along {@code dim}. */
    static Tensor reversedCumsum(Tensor t, int dim) {
        return t.flip(dim).cumsum(dim).flip(dim);
    }

    /** {@code cumsum}: the reversed cumulative sum of the gradient. */
    static Tensor cumsum(Tensor g, Tensor x, long dim) {
        if (x.dim() == 0) return g;
        return reversedCumsum(g, Shapes.wrapDim(dim, x.dim()));
    }

    /**
     * {@code cumprod} (ATen's {@code cumprod_backward}): {@code reversed_cumsum(g * out) / x} without zeros. With
     * zeros, only the elements up to the first zero of each line get a gradient; when no graph is being built this uses
     * an O(n) masked formula whose own derivative is not cumprod's second derivative, so under create_graph an O(n²)
     * formula of products and cumprods is used instead.
     */
    static Tensor cumprod(Tensor g, Tensor x, Tensor out, long dimArg) {
        if (x.dim() == 0 || x.numel() <= 1) return g;
        int dim = Shapes.wrapDim(dimArg, x.dim());
        if (x.size(dim) == 1) return g;
        if (!anyZero(x)) return reversedCumsum(g.mul(Grads.conj(out)), dim).div(Grads.conj(x));
        return DispatchState.current().isGradEnabled()
                ? cumprodWithZerosTwice(g, x, dim)
                : cumprodWithZeros(g, x, out, dim);
    }

    /**
     * Before the first zero z1 the usual formula holds (later outputs are 0). At z1 the derivative of out[k] (z1 ≤ k <
     * z2) is the product of the other factors up to k: the product before z1 times the cumulative product of the
     * elements strictly between z1 and z2. Everything after z1 gets 0.
     */
    private static Tensor cumprodWithZeros(Tensor g, Tensor x, Tensor out, int dim) {
        Tensor zero = x.eq(0L);
        Tensor zerosSoFar = zero.cumsum(dim);
        Tensor beforeFirst = zerosSoFar.eq(0L), untilSecond = zerosSoFar.eq(1L);
        Tensor firstZero = PointwiseOps.LOGICAL_AND.call1(zero, untilSecond);
        Tensor between = PointwiseOps.LOGICAL_AND.call1(untilSecond, zero.logicalNot());
        Tensor head = reversedCumsum(TernaryOps.where(beforeFirst, g.mul(Grads.conj(out)), 0L), dim)
                .div(Grads.conj(TernaryOps.where(beforeFirst, x, 1L)));
        Tensor prefix = ReductionOps.prod(TernaryOps.where(beforeFirst, x, 1L), dim, true);
        Tensor atZero = TernaryOps.where(untilSecond, g, 0L)
                .mul(Grads.conj(TernaryOps.where(between, x, 1L).cumprod(dim)))
                .sum(new long[] {dim}, true)
                .mul(Grads.conj(prefix));
        return TernaryOps.where(beforeFirst, head, 0L).add(TernaryOps.where(firstZero, atZero, 0L));
    }

    /** grad[k] = Σ_{j≥k} g[j] · Π_{i≤j, i≠k} x[i], one slice of {@code dim} at a time. */
    private static Tensor cumprodWithZerosTwice(Tensor g, Tensor x, int dim) {
        long n = x.size(dim);
        long[] oneShape = x.shape();
        oneShape[dim] = 1;
        Tensor ones = Creation.full(oneShape, 1L, x.dtype(), Device.CPU);
        List<Tensor> pieces = new ArrayList<>();
        for (long k = 0; k < n; k++) {
            Tensor omitted; // Π_{i≤j, i≠k} x[i] for j = k..n-1
            if (k == 0) {
                omitted = JoinOps.cat(List.of(ones, x.narrow(dim, 1, n - 1).cumprod(dim)), dim);
            } else {
                Tensor until = ReductionOps.prod(x.narrow(dim, 0, k), dim, true);
                omitted = k == n - 1
                        ? until
                        : JoinOps.cat(
                                List.of(
                                        until,
                                        until.mul(
                                                x.narrow(dim, k + 1, n - k - 1).cumprod(dim))),
                                dim);
            }
            pieces.add(g.narrow(dim, k, n - k).mul(Grads.conj(omitted)).sum(new long[] {dim}, true));
        }
        return JoinOps.cat(pieces, dim);
    }

    // ---- statistics -------------------------------------------------------------------------------

    /**
     * {@code var}: {@code 2 / (N - correction) · g · (x - mean)}. A reduction over the whole tensor with no degrees of
     * freedom left ({@code N <= correction}) takes ATen's branch: {@code g} times NaN where x equals the mean and inf
     * elsewhere, a constant of x, so that the second derivative there is 0 as in PyTorch (the formula would give inf ·
     * 0).
     */
    static Tensor var(Tensor g, Tensor x, long[] dims, Object correction, boolean keepdim) {
        double c = correction == null ? 1 : ((Number) correction).doubleValue();
        if (x.dim() == 0 || dims == null) {
            double all = x.numel() - c;
            if (all <= 0) {
                Tensor atMean = x.detach().eq(ReductionOps.mean(x.detach()));
                return g.mul(TernaryOps.where(atMean, Double.NaN, Double.POSITIVE_INFINITY));
            }
        }
        double dof = count(x.impl().shapeRef(), dims) - c;
        Tensor centred = x.sub(ReductionOps.mean(x, dims, true));
        return keep(g, x.impl().shapeRef(), dims, keepdim).mul(2.0 / dof).mul(centred);
    }

    /** {@code std}: var's gradient of {@code g / (2 std)}, with 0 where the std is 0 (its subgradient). */
    static Tensor std(Tensor g, Tensor x, Tensor result, long[] dims, Object correction, boolean keepdim) {
        Tensor zero = result.eq(0L);
        Tensor safe = TernaryOps.where(zero, 1L, result);
        return var(TernaryOps.where(zero, 0L, g.div(safe.mul(2L))), x, dims, correction, keepdim);
    }

    /** {@code logsumexp}: {@code g · exp(x - result)}. */
    static Tensor logsumexp(Tensor g, Tensor x, Tensor result, long[] dims, boolean keepdim) {
        long[] s = x.impl().shapeRef();
        return keep(g, s, dims, keepdim)
                .mul(Grads.conj(x.sub(keep(result, s, dims, keepdim)).exp()));
    }

    /** {@code softmax} from its output y: {@code y · (g - Σ g·y)}, one fused op. */
    static Tensor softmax(Tensor g, Tensor y, long dim) {
        return ReductionOps.softmaxBackwardData(g, y, dim, g.dtype());
    }

    /** {@code log_softmax} from its output y: {@code g - exp(y) · Σ g}, one fused op. */
    static Tensor logSoftmax(Tensor g, Tensor y, long dim) {
        return ReductionOps.logSoftmaxBackwardData(g, y, dim, g.dtype());
    }

    // ---- norms ------------------------------------------------------------------------------------

    /**
     * {@code linalg.vector_norm} (ATen's {@code norm_backward}). Ord 0 has gradient 0; ±inf distributes evenly over the
     * elements whose magnitude is the norm; ord 2 gives the subgradient 0 at a zero vector (and p > 1 likewise).
     * Denominators are made safe before the masking {@code where}, so that its derivative at the masked points stays 0
     * instead of 0·inf.
     */
    static Tensor vectorNorm(Tensor g, Tensor x, Tensor norm, Object ordArg, long[] dims, boolean keepdim) {
        double p = ordArg == null ? 2 : ((Number) ordArg).doubleValue();
        if (p == 0) return null;
        long[] s = x.impl().shapeRef();
        Tensor gk = keep(g, s, dims, keepdim), nk = keep(norm, s, dims, keepdim);
        if (p == 1) return PointwiseOps.SGN.call1(x).mul(gk);
        Tensor normZero = nk.eq(0L);
        Tensor safeNorm = TernaryOps.where(normZero, 1L, nk);
        if (p == 2) return TernaryOps.where(normZero, 0L, gk.mul(x.div(safeNorm)));
        Tensor a = x.abs();
        if (Double.isInfinite(p)) {
            Tensor ties = PointwiseOps.LOGICAL_OR.call1(a.eq(nk), a.isnan());
            return PointwiseOps.SGN.call1(x).mul(TernaryOps.where(ties, gk.div(sumKeep(ties, dims)), 0L));
        }
        if (p < 1) {
            Tensor xZero = x.eq(0L);
            Tensor scaled = PointwiseOps.SGN
                    .call1(x)
                    .mul(TernaryOps.where(
                            xZero, 0L, TernaryOps.where(xZero, 1L, a).pow(p - 1)));
            return scaled.mul(gk).mul(nk.pow(1 - p));
        }
        Tensor scaled = p < 2 ? PointwiseOps.SGN.call1(x).mul(a.pow(p - 1)) : x.mul(a.pow(p - 2));
        return scaled.mul(TernaryOps.where(normZero, 0L, gk.div(safeNorm.pow(p - 1))));
    }

    // ---- copying shape ops ------------------------------------------------------------------------

    /** {@code cat}: each input's slab of the gradient; skipped 1-d empty inputs get none. */
    static Tensor[] cat(Tensor g, Tensor[] inputs, long dimArg) {
        Tensor[] out = new Tensor[inputs.length];
        int first = 0;
        while (first < inputs.length && JoinOps.skipInCat(inputs[first])) first++;
        if (first == inputs.length) return out;
        int dim = Shapes.wrapDim(dimArg, inputs[first].dim());
        long at = 0;
        for (int i = 0; i < inputs.length; i++) {
            if (JoinOps.skipInCat(inputs[i])) continue;
            long size = inputs[i].size(dim);
            out[i] = g.narrow(dim, at, size);
            at += size;
        }
        return out;
    }

    /** {@code repeat}: the gradient viewed as (r0, p0, r1, p1, ...) summed over the repeat dims. */
    static Tensor repeat(Tensor g, long[] inputShape, long[] repeats) {
        int rank = repeats.length;
        if (rank == 0) return g;
        long[] split = new long[2 * rank];
        long[] sumDims = new long[rank];
        for (int i = 0; i < rank; i++) {
            int d = i - (rank - inputShape.length);
            split[2 * i] = repeats[i];
            split[2 * i + 1] = d >= 0 ? inputShape[d] : 1;
            sumDims[i] = 2L * i;
        }
        return g.reshape(split).sum(sumDims, false).reshape(inputShape);
    }

    /**
     * ATen's {@code logcumsumexp_backward}: Σ_{i≥j} g_i e^{x_j − out_i}, formed as a reversed logcumsumexp of log|g| −
     * out so that nothing overflows; real gradients split into their positive and negative parts (each a log), complex
     * ones take the log of conj(g) directly.
     */
    static Tensor logcumsumexp(Tensor g, Tensor self, Tensor result, long dim) {
        if (g.dim() == 0 || g.numel() == 0) return g;
        int d = (int) dim;
        java.util.function.UnaryOperator<Tensor> reversed =
                x -> ReductionOps.logcumsumexp(x.flip(d), dim).flip(d);
        if (!g.isComplex()) {
            double lowest = g.dtype() == DType.FLOAT64 ? -Double.MAX_VALUE : -Float.MAX_VALUE;
            Tensor logAbs = g.abs().log();
            Tensor positive = TernaryOps.where(g.gt(0L), logAbs, lowest);
            Tensor negative = TernaryOps.where(g.lt(0L), logAbs, lowest);
            Tensor outPositive = reversed.apply(positive.sub(result)).add(self).exp();
            Tensor outNegative = reversed.apply(negative.sub(result)).add(self).exp();
            return outPositive.sub(outNegative);
        }
        Tensor logGrad = g.conj().log();
        return reversed.apply(logGrad.sub(result)).add(self).exp().conj();
    }

    /**
     * ATen's {@code logcumsumexp_jvp}: cumsum(e^{x − max} t) / (cumsum(e^{x − max}) + 1e-13), the maximum over the
     * whole dim (none for complex input, as ATen).
     */
    static Tensor logcumsumexpJvp(Tensor x, Tensor t, long dim) {
        if (t == null || x.numel() == 0) return t;
        Tensor e =
                x.isComplex() ? x.exp() : x.sub(x.amax(new long[] {dim}, true)).exp();
        return e.mul(t).cumsum(dim).div(e.cumsum(dim).add(1e-13));
    }
}

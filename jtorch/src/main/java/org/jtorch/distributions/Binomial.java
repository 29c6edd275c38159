package org.jtorch.distributions;

import java.util.Arrays;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Binomial(total_count, probs=..)} or {@code (total_count, logits=..)}: the number of
 * successes in {@code total_count} trials. Samples are {@code torch.binomial}: PyTorch's numbers for the same seed.
 */
public final class Binomial extends Distribution {
    private static final Map<String, Constraint> ARGS = constraints(
            "total_count",
            Constraint.NONNEGATIVE_INTEGER,
            "probs",
            Constraint.UNIT_INTERVAL,
            "logits",
            Constraint.REAL);

    private final Tensor totalCount;
    private final Tensor probs;
    private final Tensor logits;
    private final boolean fromProbs;

    private Binomial(Tensor[] countAndParam, boolean fromProbs, Boolean validateArgs) {
        super(countAndParam[1].shape(), new long[0], validateArgs);
        Tensor param = countAndParam[1];
        this.totalCount = countAndParam[0].to(param.dtype());
        this.fromProbs = fromProbs;
        this.probs = fromProbs ? param : Params.logitsToProbs(param, true);
        this.logits = fromProbs ? Params.probsToLogits(param, true) : param;
        validateParameters();
    }

    /** {@code Binomial(total_count, probs=probs)}. */
    public static Binomial ofProbs(Tensor totalCount, Tensor probs) {
        return of(totalCount, probs, true, null);
    }

    /** {@code Binomial(total_count, probs=probs)} with a Python number of trials. */
    public static Binomial ofProbs(double totalCount, Tensor probs) {
        return of(Params.scalar(totalCount), probs, true, null);
    }

    /** {@code Binomial(total_count, logits=logits)}. */
    public static Binomial ofLogits(Tensor totalCount, Tensor logits) {
        return of(totalCount, logits, false, null);
    }

    /**
     * {@code Binomial(total_count, probs=.., validate_args=..)} or {@code (total_count, logits=..)}; the counts and the
     * parameter broadcast together and the counts take the parameter's dtype.
     */
    public static Binomial of(Tensor totalCount, Tensor param, boolean isProbs, Boolean validateArgs) {
        if (param == null) {
            throw new IllegalArgumentException("Either `probs` or `logits` must be specified, but not both.");
        }
        return new Binomial(Params.broadcastAll(totalCount, param), isProbs, validateArgs);
    }

    /** The number of trials. */
    public Tensor totalCount() {
        return totalCount;
    }

    /** The probability of success of one trial. */
    public Tensor probs() {
        return probs;
    }

    /** The log-odds of success of one trial. */
    public Tensor logits() {
        return logits;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return switch (name) {
            case "total_count" -> totalCount;
            case "probs" -> fromProbs ? probs : null;
            default -> fromProbs ? null : logits;
        };
    }

    @Override
    public Constraint support() {
        return Constraint.integerInterval(0, totalCount);
    }

    @Override
    public Tensor sample(long... sampleShape) {
        long[] shape = extendedShape(sampleShape);
        try (var _ = Torch.noGrad()) {
            return Torch.binomial(totalCount.expand(shape), probs.expand(shape));
        }
    }

    /** {@code k logit - n max(logit, 0) - n log1p(exp(-|logit|))} plus the log binomial coefficient: stable. */
    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor logFactorialN = totalCount.add(1.0).lgamma();
        Tensor logFactorialK = value.add(1.0).lgamma();
        Tensor logFactorialNmK = totalCount.sub(value).add(1.0).lgamma();
        Tensor clampedByZero =
                logits.clampMin(0.0).add(logits).sub(logits.clampMax(0.0)).div(2.0);
        Tensor normalize = totalCount
                .mul(clampedByZero)
                .add(totalCount.mul(Torch.log1p(logits.abs().neg().exp())))
                .sub(logFactorialN);
        return value.mul(logits).sub(logFactorialK).sub(logFactorialNmK).sub(normalize);
    }

    /** Sums over the support, which must be the same for the whole batch (PyTorch's restriction). */
    @Override
    public Tensor entropy() {
        double max = totalCount.max().item(), min = totalCount.min().item();
        long n = (long) max;
        if (min != n) {
            throw new UnsupportedOperationException("Inhomogeneous total count not supported by `entropy`.");
        }
        long[] view = new long[batchShape().length + 1];
        Arrays.fill(view, 1);
        view[0] = -1;
        Tensor values = Torch.arange(n + 1, probs.dtype()).view(view);
        Tensor logProb = logProb(values);
        return logProb.exp().mul(logProb).sum(0).neg();
    }

    @Override
    public Tensor mean() {
        return totalCount.mul(probs);
    }

    @Override
    public Tensor mode() {
        return totalCount.add(1.0).mul(probs).floor().clampMax(totalCount);
    }

    @Override
    public Tensor variance() {
        return totalCount.mul(probs).mul(probs.neg().add(1.0));
    }
}

package org.jtorch.distributions;

import java.util.Arrays;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Categorical(probs=..)} or {@code (logits=..)}: one of {@code K} categories, the last dim
 * of the parameter indexing them (normalised: probs to sum 1, logits by their logsumexp). Samples come from
 * {@code torch.multinomial(probs_2d, n, True).T}, as PyTorch draws them, so the same seed gives the same indices.
 */
public final class Categorical extends Distribution {
    private final Tensor probs;
    private final Tensor logits;
    private final boolean fromProbs;
    private final long numEvents;

    private Categorical(Tensor param, boolean fromProbs, Boolean validateArgs) {
        super(batchOf(param), new long[0], validateArgs);
        this.fromProbs = fromProbs;
        if (fromProbs) {
            this.probs = param.div(param.sum(-1, true));
            this.logits = Params.probsToLogits(probs, false);
        } else {
            this.logits = param.sub(Torch.logsumexp(param, -1, true));
            this.probs = Params.logitsToProbs(logits, false);
        }
        this.numEvents = param.size(-1);
        validateParameters();
    }

    private static long[] batchOf(Tensor param) {
        if (param.dim() < 1) throw new IllegalArgumentException("`probs` parameter must be at least one-dimensional.");
        long[] s = param.shape();
        return Arrays.copyOf(s, s.length - 1);
    }

    /** {@code Categorical(probs=probs)}: non-negative weights over the last dim. */
    public static Categorical ofProbs(Tensor probs) {
        return new Categorical(probs, true, null);
    }

    /** {@code Categorical(logits=logits)}: unnormalised log-probabilities over the last dim. */
    public static Categorical ofLogits(Tensor logits) {
        return new Categorical(logits, false, null);
    }

    /** {@code Categorical(probs=.., validate_args=..)} or {@code (logits=..)}. */
    public static Categorical of(Tensor param, boolean isProbs, Boolean validateArgs) {
        return new Categorical(param, isProbs, validateArgs);
    }

    /** The normalised probabilities. */
    public Tensor probs() {
        return probs;
    }

    /** The normalised log-probabilities. */
    public Tensor logits() {
        return logits;
    }

    /** The number of categories ({@code _num_events}). */
    public long numEvents() {
        return numEvents;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return constraints("probs", Constraint.SIMPLEX, "logits", Constraint.REAL);
    }

    @Override
    Tensor parameter(String name) {
        return name.equals("probs") == fromProbs ? (fromProbs ? probs : logits) : null;
    }

    @Override
    public Constraint support() {
        return Constraint.integerInterval(0, numEvents - 1);
    }

    @Override
    public Tensor sample(long... sampleShape) {
        long count = 1;
        for (long s : sampleShape) count *= s;
        try (var _ = Torch.noGrad()) {
            Tensor probs2d = probs.reshape(-1, numEvents);
            Tensor samples2d = Torch.multinomial(probs2d, count, true).t();
            return samples2d.reshape(extendedShape(sampleShape));
        }
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor v = value.to(DType.INT64).unsqueeze(-1);
        long[] shape = org.jtorch.internal.Shapes.broadcast(v.shape(), logits.shape());
        Tensor index = v.expand(shape).narrow(-1, 0, 1);
        return logits.expand(shape).gather(-1, index).squeeze(-1);
    }

    @Override
    public Tensor entropy() {
        Tensor clamped = logits.clampMin(Params.min(logits.dtype()));
        return clamped.mul(probs).sum(-1).neg();
    }

    @Override
    public Tensor mean() {
        return Torch.full(extendedShape(), Double.NaN, probs.dtype(), probs.device());
    }

    /** The mode: the most probable category (the first at a tie). */
    @Override
    public Tensor mode() {
        return probs.argmax(-1L, false);
    }

    @Override
    public Tensor variance() {
        return mean();
    }
}

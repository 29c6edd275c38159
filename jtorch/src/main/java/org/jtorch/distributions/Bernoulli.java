package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Reduction;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.distributions.Bernoulli(probs=..)} or {@code (logits=..)}: 1 with probability {@code probs}. Samples are
 * {@code torch.bernoulli(probs)}: PyTorch's numbers for the same seed.
 */
public final class Bernoulli extends Distribution {
    private static final Map<String, Constraint> ARGS =
            constraints("probs", Constraint.UNIT_INTERVAL, "logits", Constraint.REAL);

    private final Tensor probs;
    private final Tensor logits;
    private final boolean fromProbs;

    private Bernoulli(Tensor param, boolean fromProbs, Boolean validateArgs) {
        super(param.shape(), new long[0], validateArgs);
        this.fromProbs = fromProbs;
        this.probs = fromProbs ? param : Params.logitsToProbs(param, true);
        this.logits = fromProbs ? Params.probsToLogits(param, true) : param;
        validateParameters();
    }

    /** {@code Bernoulli(probs=probs)}. */
    public static Bernoulli ofProbs(Tensor probs) {
        return new Bernoulli(probs, true, null);
    }

    /** {@code Bernoulli(logits=logits)}. */
    public static Bernoulli ofLogits(Tensor logits) {
        return new Bernoulli(logits, false, null);
    }

    /** {@code Bernoulli(probs=.., validate_args=..)} or {@code (logits=..)}. */
    public static Bernoulli of(Tensor param, boolean isProbs, Boolean validateArgs) {
        return new Bernoulli(param, isProbs, validateArgs);
    }

    /** The probability of 1. */
    public Tensor probs() {
        return probs;
    }

    /** The log-odds of 1. */
    public Tensor logits() {
        return logits;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    @Override
    Tensor parameter(String name) {
        return name.equals("probs") == fromProbs ? (fromProbs ? probs : logits) : null;
    }

    @Override
    public Constraint support() {
        return Constraint.BOOLEAN;
    }

    @Override
    public Tensor sample(long... sampleShape) {
        try (var _ = Torch.noGrad()) {
            return probs.expand(extendedShape(sampleShape)).bernoulli();
        }
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        Tensor[] lv = Params.broadcastAll(logits, value);
        return F.binaryCrossEntropyWithLogits(lv[0], lv[1], null, null, Reduction.NONE)
                .neg();
    }

    @Override
    public Tensor entropy() {
        return F.binaryCrossEntropyWithLogits(logits, probs, null, null, Reduction.NONE);
    }

    @Override
    public Tensor mean() {
        return probs;
    }

    /** The mode: 1 where {@code p > 1/2}, 0 where {@code p < 1/2}, NaN at a tie. */
    @Override
    public Tensor mode() {
        return probs.ge(0.5).to(probs.dtype()).maskedFill(probs.eq(0.5), Double.NaN);
    }

    @Override
    public Tensor variance() {
        return probs.mul(probs.neg().add(1.0));
    }
}

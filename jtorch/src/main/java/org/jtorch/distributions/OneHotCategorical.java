package org.jtorch.distributions;

import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.distributions.OneHotCategorical}: a {@link Categorical} whose samples are one-hot vectors over the last
 * dim (the event shape is {@code [K]}).
 */
public final class OneHotCategorical extends Distribution {
    private final Categorical categorical;

    private OneHotCategorical(Tensor param, boolean fromProbs, Boolean validateArgs) {
        this(Categorical.of(param, fromProbs, validateArgs), validateArgs);
    }

    private OneHotCategorical(Categorical c, Boolean validateArgs) {
        super(c.batchShape(), new long[] {c.numEvents()}, validateArgs);
        this.categorical = c;
    }

    /** {@code OneHotCategorical(probs=probs)}. */
    public static OneHotCategorical ofProbs(Tensor probs) {
        return new OneHotCategorical(probs, true, null);
    }

    /** {@code OneHotCategorical(logits=logits)}. */
    public static OneHotCategorical ofLogits(Tensor logits) {
        return new OneHotCategorical(logits, false, null);
    }

    /** The underlying categorical distribution over indices. */
    public Categorical categorical() {
        return categorical;
    }

    /** The normalised probabilities. */
    public Tensor probs() {
        return categorical.probs();
    }

    /** The normalised log-probabilities. */
    public Tensor logits() {
        return categorical.logits();
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return categorical.argConstraints();
    }

    @Override
    Tensor parameter(String name) {
        return categorical.parameter(name);
    }

    @Override
    public Constraint support() {
        return Constraint.ONE_HOT;
    }

    @Override
    public Tensor sample(long... sampleShape) {
        Tensor indices = categorical.sample(sampleShape);
        return F.oneHot(indices, categorical.numEvents()).to(probs().dtype());
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return categorical.logProb(value.argmax(-1));
    }

    @Override
    public Tensor entropy() {
        return categorical.entropy();
    }

    @Override
    public Tensor mean() {
        return probs();
    }

    /** The mode: the one-hot vector of the most probable category. */
    @Override
    public Tensor mode() {
        return F.oneHot(probs().argmax(-1L, false), categorical.numEvents()).to(probs().dtype());
    }

    @Override
    public Tensor variance() {
        return probs().mul(probs().neg().add(1.0));
    }
}

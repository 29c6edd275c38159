package org.jtorch.distributions;

import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.Beta(concentration1, concentration0)}: density proportional to {@code x^(c1-1) (1 -
 * x)^(c0-1)} on [0, 1], the first coordinate of a two-category {@link Dirichlet} (so sampling, reparameterised
 * gradients, entropy and validation are the Dirichlet's, as in PyTorch).
 */
public final class Beta extends Distribution {
    private static final Map<String, Constraint> ARGS =
            constraints("concentration1", Constraint.POSITIVE, "concentration0", Constraint.POSITIVE);

    private final Tensor concentration1;
    private final Tensor concentration0;
    private final Dirichlet dirichlet;

    /** {@code Beta(concentration1, concentration0)}, broadcast together. */
    public Beta(Tensor concentration1, Tensor concentration0) {
        this(concentration1, concentration0, null);
    }

    /** {@code Beta(concentration1, concentration0)} with Python numbers. */
    public Beta(double concentration1, double concentration0) {
        this(Params.scalar(concentration1), Params.scalar(concentration0), null);
    }

    /** {@code Beta(concentration1, concentration0, validate_args)}; a null {@code validateArgs} takes the default. */
    public Beta(Tensor concentration1, Tensor concentration0, Boolean validateArgs) {
        this(Params.broadcastAll(concentration1, concentration0), validateArgs);
    }

    private Beta(Tensor[] p, Boolean validateArgs) {
        this(p, new Dirichlet(Torch.stack(List.of(p[0], p[1]), -1), validateArgs), validateArgs);
    }

    private Beta(Tensor[] p, Dirichlet dirichlet, Boolean validateArgs) {
        super(dirichlet.batchShape(), new long[0], validateArgs);
        this.concentration1 = p[0];
        this.concentration0 = p[1];
        this.dirichlet = dirichlet;
    }

    /** The first concentration (of x). */
    public Tensor concentration1() {
        return concentration1;
    }

    /** The second concentration (of 1 - x). */
    public Tensor concentration0() {
        return concentration0;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return ARGS;
    }

    /** None: PyTorch's repr lists none ({@code Beta()}), and the inner Dirichlet validated the concentrations. */
    @Override
    Tensor parameter(String name) {
        return null;
    }

    @Override
    public Constraint support() {
        return Constraint.UNIT_INTERVAL;
    }

    @Override
    public boolean hasRsample() {
        return true;
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        return dirichlet.rsample(sampleShape).select(-1, 0);
    }

    @Override
    public Tensor logProb(Tensor value) {
        validateSample(value);
        return dirichlet.logProb(Torch.stack(List.of(value, value.neg().add(1.0)), -1));
    }

    @Override
    public Tensor entropy() {
        return dirichlet.entropy();
    }

    @Override
    public Tensor mean() {
        return concentration1.div(concentration1.add(concentration0));
    }

    @Override
    public Tensor mode() {
        return dirichlet.mode().select(-1, 0);
    }

    @Override
    public Tensor variance() {
        Tensor total = concentration1.add(concentration0);
        return concentration1.mul(concentration0).div(total.pow(2L).mul(total.add(1.0)));
    }
}

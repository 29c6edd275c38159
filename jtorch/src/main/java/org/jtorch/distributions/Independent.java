package org.jtorch.distributions;

import java.util.Arrays;
import java.util.Map;
import org.jtorch.Tensor;

/**
 * {@code torch.distributions.Independent(base, reinterpreted_batch_ndims)}: the rightmost batch dims of the base become
 * event dims, so {@link #logProb} and {@link #entropy} sum over them.
 */
public final class Independent extends Distribution {
    private final Distribution base;
    private final int reinterpreted;

    /** {@code Independent(base, reinterpreted_batch_ndims)}. */
    public Independent(Distribution base, int reinterpretedBatchNdims) {
        this(base, reinterpretedBatchNdims, null);
    }

    /**
     * {@code Independent(base, reinterpreted_batch_ndims, validate_args)}; a null {@code validateArgs}: the default.
     */
    public Independent(Distribution base, int reinterpretedBatchNdims, Boolean validateArgs) {
        super(split(base, reinterpretedBatchNdims)[0], split(base, reinterpretedBatchNdims)[1], validateArgs);
        this.base = base;
        this.reinterpreted = reinterpretedBatchNdims;
    }

    private static long[][] split(Distribution base, int n) {
        long[] batch = base.batchShape();
        if (n > batch.length) {
            throw new IllegalArgumentException(
                    "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), " + "actual " + n
                            + " vs " + batch.length);
        }
        long[] shape = base.extendedShape();
        int eventDim = n + base.eventShape().length, cut = shape.length - eventDim;
        return new long[][] {Arrays.copyOf(shape, cut), Arrays.copyOfRange(shape, cut, shape.length)};
    }

    /** The base distribution. */
    public Distribution baseDist() {
        return base;
    }

    /** How many batch dims became event dims. */
    public int reinterpretedBatchNdims() {
        return reinterpreted;
    }

    @Override
    Map<String, Constraint> argConstraints() {
        return Map.of();
    }

    @Override
    Tensor parameter(String name) {
        return null;
    }

    @Override
    public Constraint support() {
        Constraint inner = base.support();
        return new Constraint(inner.eventDim() + reinterpreted) {
            @Override
            Tensor elementwise(Tensor value) {
                return inner.elementwise(value);
            }

            @Override
            public Tensor check(Tensor value) {
                Tensor ok = inner.check(value);
                for (int i = 0; i < reinterpreted; i++) ok = ok.all(-1);
                return ok;
            }

            @Override
            public String toString() {
                return "IndependentConstraint(" + inner + ", " + reinterpreted + ")";
            }
        };
    }

    @Override
    public boolean hasRsample() {
        return base.hasRsample();
    }

    @Override
    public Tensor sample(long... sampleShape) {
        return base.sample(sampleShape);
    }

    @Override
    public Tensor rsample(long... sampleShape) {
        return base.rsample(sampleShape);
    }

    @Override
    public Tensor logProb(Tensor value) {
        return Params.sumRightmost(base.logProb(value), reinterpreted);
    }

    @Override
    public Tensor entropy() {
        return Params.sumRightmost(base.entropy(), reinterpreted);
    }

    @Override
    public Tensor mean() {
        return base.mean();
    }

    /** The mode: the base distribution's. */
    @Override
    public Tensor mode() {
        return base.mode();
    }

    @Override
    public Tensor variance() {
        return base.variance();
    }
}

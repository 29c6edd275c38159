package org.jtorch.distributions;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.Shapes;

/**
 * {@code torch.distributions.Distribution}: a batch of distributions of one family, with {@link #batchShape()} and
 * {@link #eventShape()}. Parameters are checked against their constraints when made and values against the support in
 * {@link #logProb} (PyTorch's {@code validate_args}, on by default as in Python without {@code -O}; see
 * {@link #setDefaultValidateArgs}). A failed check raises {@link IllegalArgumentException} (Python's ValueError) with
 * PyTorch's message. Methods a family does not define raise {@link UnsupportedOperationException}
 * (NotImplementedError).
 */
public abstract class Distribution {
    private static volatile boolean defaultValidateArgs = true;

    private final long[] batchShape;
    private final long[] eventShape;
    final boolean validateArgs;

    Distribution(long[] batchShape, long[] eventShape, Boolean validateArgs) {
        this.batchShape = batchShape.clone();
        this.eventShape = eventShape.clone();
        this.validateArgs = validateArgs != null ? validateArgs : defaultValidateArgs;
    }

    /** {@code Distribution.set_default_validate_args(value)}: whether new distributions check their arguments. */
    public static void setDefaultValidateArgs(boolean value) {
        defaultValidateArgs = value;
    }

    /** The shape over which parameters are batched. */
    public long[] batchShape() {
        return batchShape.clone();
    }

    /** The shape of one sample. */
    public long[] eventShape() {
        return eventShape.clone();
    }

    /** The parameters and their constraints, in PyTorch's order ({@code arg_constraints}). */
    abstract Map<String, Constraint> argConstraints();

    /** The parameter named {@code name}, as a tensor. */
    abstract Tensor parameter(String name);

    /** The values the distribution gives positive density or mass ({@code support}). */
    public abstract Constraint support();

    /** Whether {@link #rsample} is implemented ({@code has_rsample}). */
    public boolean hasRsample() {
        return false;
    }

    /** {@code sample_shape + batch_shape + event_shape}. */
    public long[] extendedShape(long... sampleShape) {
        long[] r = Arrays.copyOf(sampleShape, sampleShape.length + batchShape.length + eventShape.length);
        System.arraycopy(batchShape, 0, r, sampleShape.length, batchShape.length);
        System.arraycopy(eventShape, 0, r, sampleShape.length + batchShape.length, eventShape.length);
        return r;
    }

    /** Samples of shape {@code sampleShape + batch_shape + event_shape}, not differentiable. */
    public Tensor sample(long... sampleShape) {
        try (var _ = Torch.noGrad()) {
            return rsample(sampleShape);
        }
    }

    /** Reparameterised samples: differentiable in the parameters. */
    public Tensor rsample(long... sampleShape) {
        throw new UnsupportedOperationException(name() + " does not implement rsample");
    }

    /** The log of the density or mass at {@code value}. */
    public abstract Tensor logProb(Tensor value);

    /** The cumulative distribution function at {@code value}. */
    public Tensor cdf(Tensor value) {
        throw new UnsupportedOperationException(name() + " does not implement cdf");
    }

    /** The inverse of {@link #cdf}. */
    public Tensor icdf(Tensor value) {
        throw new UnsupportedOperationException(name() + " does not implement icdf");
    }

    /** The entropy, over the batch shape. */
    public Tensor entropy() {
        throw new UnsupportedOperationException(name() + " does not implement entropy");
    }

    /** The mean. */
    public Tensor mean() {
        throw new UnsupportedOperationException(name() + " does not implement mean");
    }

    /** The mode: the most likely value. */
    public Tensor mode() {
        throw new UnsupportedOperationException(name() + " does not implement mode");
    }

    /** The variance. */
    public Tensor variance() {
        throw new UnsupportedOperationException(name() + " does not implement variance");
    }

    /** The standard deviation, {@code variance.sqrt()}. */
    public Tensor stddev() {
        return variance().sqrt();
    }

    /** {@code perplexity}: {@code exp(entropy)}. */
    public Tensor perplexity() {
        return entropy().exp();
    }

    String name() {
        return getClass().getSimpleName();
    }

    /** PyTorch's repr: {@code Normal(loc: torch.Size([2]), scale: torch.Size([2]))}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(name()).append('(');
        boolean first = true;
        for (String p : argConstraints().keySet()) {
            Tensor t = parameter(p);
            if (t == null) continue;
            if (!first) sb.append(", ");
            first = false;
            sb.append(p).append(": ");
            sb.append(t.numel() == 1 ? String.valueOf(t.item()) : "torch.Size(" + pyList(t.shape()) + ")");
        }
        return sb.append(')').toString();
    }

    /** Checks every parameter given against its constraint, as {@code Distribution.__init__} does. */
    final void validateParameters() {
        if (!validateArgs) return;
        for (Map.Entry<String, Constraint> e : argConstraints().entrySet()) {
            Tensor value = parameter(e.getKey());
            if (value == null) continue;
            if (Torch.all(e.getValue().check(value)).item() == 0) {
                throw new IllegalArgumentException("Expected parameter " + e.getKey() + " (Tensor of shape "
                        + pyTuple(value.shape()) + ") of distribution " + this + " to satisfy the constraint "
                        + e.getValue() + ", but found invalid values:\n" + value);
            }
        }
    }

    /**
     * {@code _validate_sample}: the value broadcasts with the batch and event shapes and lies in the support. Its
     * trailing dims must equal the event shape.
     */
    final void validateSample(Tensor value) {
        if (!validateArgs) return;
        long[] actual = value.shape();
        int eventDims = eventShape.length;
        if (actual.length < eventDims
                || !Arrays.equals(Arrays.copyOfRange(actual, actual.length - eventDims, actual.length), eventShape)) {
            throw new IllegalArgumentException("The right-most size of value must match event_shape: " + pyList(actual)
                    + " vs " + pyList(eventShape) + ".");
        }
        long[] batchPart = Arrays.copyOf(actual, actual.length - eventDims);
        try {
            Shapes.broadcast(batchPart, batchShape);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Value is not broadcastable with batch_shape+event_shape: "
                    + pyList(actual) + " vs " + pyList(extendedShape()) + ".");
        }
        if (Torch.all(support().check(value)).item() == 0) {
            throw new IllegalArgumentException("Expected value argument (Tensor of shape " + pyTuple(actual)
                    + ") to be within the support (" + support() + ") of the distribution " + this
                    + ", but found invalid values:\n" + value);
        }
    }

    static Map<String, Constraint> constraints(Object... nameConstraintPairs) {
        Map<String, Constraint> m = new LinkedHashMap<>();
        for (int i = 0; i < nameConstraintPairs.length; i += 2)
            m.put((String) nameConstraintPairs[i], (Constraint) nameConstraintPairs[i + 1]);
        return m;
    }

    static String pyList(long[] shape) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < shape.length; i++) sb.append(i == 0 ? "" : ", ").append(shape[i]);
        return sb.append(']').toString();
    }

    static String pyTuple(long[] shape) {
        if (shape.length == 1) return "(" + shape[0] + ",)";
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) sb.append(i == 0 ? "" : ", ").append(shape[i]);
        return sb.append(')').toString();
    }
}

package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;

/** {@code torch.nn.Linear}: {@code y = x Wᵀ + b} with W of shape (out_features, in_features). */
public class Linear extends Module {
    private final long inFeatures;
    private final long outFeatures;

    /** {@code Linear(in_features, out_features)} with a bias, in the default dtype. */
    public Linear(long inFeatures, long outFeatures) {
        this(inFeatures, outFeatures, true);
    }

    /** {@code Linear(in_features, out_features, bias)}. */
    public Linear(long inFeatures, long outFeatures, boolean bias) {
        this(inFeatures, outFeatures, bias, Torch.getDefaultDtype());
    }

    /**
     * {@code Linear(in_features, out_features, bias, dtype=dtype)}.
     *
     * <p>Linear stays open to subclasses ({@link NonDynamicallyQuantizableLinear}, and user layers as in PyTorch), so
     * {@code this} escapes here by design: the registrations only fill {@link Module}'s own (final) tables, and
     * {@link #resetParameters()} runs from the constructor as PyTorch's {@code __init__} calls
     * {@code reset_parameters()}, overrides included. An override that reads its own fields assigns them before calling
     * this constructor.
     */
    @SuppressWarnings("this-escape")
    public Linear(long inFeatures, long outFeatures, boolean bias, DType dtype) {
        this.inFeatures = inFeatures;
        this.outFeatures = outFeatures;
        registerParameter("weight", Torch.empty(new long[] {outFeatures, inFeatures}, dtype, Device.CPU));
        registerParameter("bias", bias ? Torch.empty(new long[] {outFeatures}, dtype, Device.CPU) : null);
        resetParameters();
    }

    /**
     * {@code reset_parameters()}: kaiming_uniform_(a=√5) on the weight, i.e. U(±1/√in_features), and the same bound for
     * the bias, drawn from the default generator in PyTorch's order.
     */
    public void resetParameters() {
        Init.kaimingUniform_(weight(), Math.sqrt(5), "fan_in", "leaky_relu", null);
        if (bias() != null) {
            double bound = inFeatures > 0 ? 1 / Math.sqrt(inFeatures) : 0;
            Init.uniform_(bias(), -bound, bound);
        }
    }

    /** {@code weight}. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null when built without one. */
    public Tensor bias() {
        return getParameter("bias");
    }

    /** {@code in_features}. */
    public long inFeatures() {
        return inFeatures;
    }

    /** {@code out_features}. */
    public long outFeatures() {
        return outFeatures;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.linear(input, weight(), bias());
    }

    @Override
    protected String extraRepr() {
        return "in_features=" + inFeatures + ", out_features=" + outFeatures + ", bias=" + PyRepr.of(bias() != null);
    }
}

package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.init.Init;

/** {@code torch.nn.Bilinear}: {@code y = x1ᵀ A x2 + b} with A of shape (out, in1, in2). */
public final class Bilinear extends Module {
    private final long in1Features;
    private final long in2Features;
    private final long outFeatures;

    /** {@code Bilinear(in1_features, in2_features, out_features)} with a bias. */
    public Bilinear(long in1Features, long in2Features, long outFeatures) {
        this(in1Features, in2Features, outFeatures, true);
    }

    /** {@code Bilinear(in1_features, in2_features, out_features, bias)}. */
    public Bilinear(long in1Features, long in2Features, long outFeatures, boolean bias) {
        this.in1Features = in1Features;
        this.in2Features = in2Features;
        this.outFeatures = outFeatures;
        registerParameter(
                "weight",
                Torch.empty(new long[] {outFeatures, in1Features, in2Features}, Torch.getDefaultDtype(), Device.CPU));
        registerParameter(
                "bias", bias ? Torch.empty(new long[] {outFeatures}, Torch.getDefaultDtype(), Device.CPU) : null);
        resetParameters();
    }

    /** {@code reset_parameters()}: weight and bias from U(±1/√in1_features). */
    public void resetParameters() {
        double bound = 1 / Math.sqrt(weight().size(1));
        Init.uniform_(weight(), -bound, bound);
        if (bias() != null) Init.uniform_(bias(), -bound, bound);
    }

    /** {@code weight}. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null. */
    public Tensor bias() {
        return getParameter("bias");
    }

    /** {@code forward(input1, input2)}. */
    public Tensor forward(Tensor input1, Tensor input2) {
        return F.bilinear(input1, input2, weight(), bias());
    }

    @Override
    protected String extraRepr() {
        return "in1_features=" + in1Features + ", in2_features=" + in2Features + ", out_features=" + outFeatures
                + ", bias=" + PyRepr.of(bias() != null);
    }
}

package org.jtorch.nn;

import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.GroupNorm}: normalises each group of channels of each sample, then scales and shifts per channel. */
public final class GroupNorm extends Module {
    private final long numGroups;
    private final long numChannels;
    private final double eps;
    private final boolean affine;

    /** {@code GroupNorm(num_groups, num_channels)}: eps 1e-5, affine. */
    public GroupNorm(long numGroups, long numChannels) {
        this(numGroups, numChannels, 1e-5, true);
    }

    /** {@code GroupNorm(num_groups, num_channels, eps, affine)}. */
    public GroupNorm(long numGroups, long numChannels, double eps, boolean affine) {
        if (numGroups <= 0 || numChannels % numGroups != 0) {
            throw new IllegalArgumentException("num_channels must be divisible by num_groups");
        }
        this.numGroups = numGroups;
        this.numChannels = numChannels;
        this.eps = eps;
        this.affine = affine;
        registerParameter(
                "weight", affine ? Torch.ones(new long[] {numChannels}, Torch.getDefaultDtype(), Device.CPU) : null);
        registerParameter(
                "bias", affine ? Torch.zeros(new long[] {numChannels}, Torch.getDefaultDtype(), Device.CPU) : null);
    }

    /** {@code weight}, or null. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null. */
    public Tensor bias() {
        return getParameter("bias");
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.groupNorm(input, numGroups, weight(), bias(), eps);
    }

    @Override
    protected String extraRepr() {
        return numGroups + ", " + numChannels + ", eps=" + PyRepr.of(eps) + ", affine=" + PyRepr.of(affine) + ", bias="
                + PyRepr.of(getParameter("bias") != null);
    }
}

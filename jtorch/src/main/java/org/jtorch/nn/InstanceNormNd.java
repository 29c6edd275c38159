package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.modules.instancenorm._InstanceNorm}: each sample's channels normalised over their spatial dims.
 * Without {@code track_running_stats} the input statistics are used in training and evaluation alike; with it, the
 * {@code running_mean}/{@code running_var} buffers are updated in training and used in evaluation
 * ({@code num_batches_tracked} is registered, as in PyTorch's {@code _NormBase}, but never advanced). An input without
 * the batch dim is normalised as a batch of one.
 */
public abstract class InstanceNormNd extends Module {
    private final long numFeatures;
    private final double eps;
    private final Double momentum;
    private final boolean affine;
    private final boolean trackRunningStats;
    private final int noBatchDim;

    InstanceNormNd(
            long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats, int noBatchDim) {
        this.numFeatures = numFeatures;
        this.eps = eps;
        this.momentum = momentum;
        this.affine = affine;
        this.trackRunningStats = trackRunningStats;
        this.noBatchDim = noBatchDim;
        DType dtype = Torch.getDefaultDtype();
        long[] shape = {numFeatures};
        registerParameter("weight", affine ? Torch.ones(shape, dtype, Device.CPU) : null);
        registerParameter("bias", affine ? Torch.zeros(shape, dtype, Device.CPU) : null);
        registerBuffer("running_mean", trackRunningStats ? Torch.zeros(shape, dtype, Device.CPU) : null);
        registerBuffer("running_var", trackRunningStats ? Torch.ones(shape, dtype, Device.CPU) : null);
        registerBuffer(
                "num_batches_tracked", trackRunningStats ? Torch.zeros(new long[0], DType.INT64, Device.CPU) : null);
    }

    /** {@code weight}, or null without affine parameters. */
    public Tensor weight() {
        return getParameter("weight");
    }

    /** {@code bias}, or null. */
    public Tensor bias() {
        return getParameter("bias");
    }

    /** {@code running_mean}, or null without running stats. */
    public Tensor runningMean() {
        return getBuffer("running_mean");
    }

    /** {@code running_var}, or null. */
    public Tensor runningVar() {
        return getBuffer("running_var");
    }

    @Override
    public Tensor forward(Tensor input) {
        int dim = input.dim();
        if (dim != noBatchDim && dim != noBatchDim + 1) {
            throw new IllegalArgumentException(
                    "expected " + noBatchDim + "D or " + (noBatchDim + 1) + "D input (got " + dim + "D input)");
        }
        int featureDim = dim - noBatchDim;
        if (input.size(featureDim) != numFeatures) {
            if (affine) {
                throw new IllegalArgumentException("expected input's size at dim=" + featureDim
                        + " to match num_features (" + numFeatures + "), but got: " + input.size(featureDim) + ".");
            }
            Warnings.warn("input's size at dim=" + featureDim + " does not match num_features. You can silence this "
                    + "warning by not passing in num_features, which is not used because affine=False");
        }
        if (dim == noBatchDim) return normalize(input.unsqueeze(0)).squeeze(0);
        return normalize(input);
    }

    private Tensor normalize(Tensor input) {
        return F.instanceNorm(
                input,
                runningMean(),
                runningVar(),
                weight(),
                bias(),
                isTraining() || !trackRunningStats,
                momentum == null ? 0.0 : momentum,
                eps);
    }

    @Override
    protected String extraRepr() {
        return numFeatures + ", eps=" + PyRepr.of(eps) + ", momentum="
                + (momentum == null ? "None" : PyRepr.of(momentum)) + ", affine=" + PyRepr.of(affine) + ", bias="
                + PyRepr.of(getParameter("bias") != null) + ", track_running_stats=" + PyRepr.of(trackRunningStats);
    }
}

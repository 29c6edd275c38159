package org.jtorch.nn;

import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.functional.F;

/**
 * {@code torch.nn.modules.batchnorm._BatchNorm}: per-channel normalisation with batch statistics while training and
 * running statistics ({@code running_mean}, {@code running_var}, {@code num_batches_tracked} buffers) in evaluation. A
 * null momentum makes the running statistics a cumulative average.
 *
 * <p>Public, as PyTorch's base class is reachable, so that code written over every batch-norm flavour (such as
 * {@code swa_utils.update_bn}, which resets the statistics and sets the momentum) can name it.
 */
public abstract class BatchNormNd extends Module {
    private final long numFeatures;
    private final double eps;
    private Double momentum;
    private final boolean affine;
    private final boolean trackRunningStats;

    BatchNormNd(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        this.numFeatures = numFeatures;
        this.eps = eps;
        this.momentum = momentum;
        this.affine = affine;
        this.trackRunningStats = trackRunningStats;
        DType dtype = Torch.getDefaultDtype();
        registerParameter("weight", affine ? Torch.ones(new long[] {numFeatures}, dtype, Device.CPU) : null);
        registerParameter("bias", affine ? Torch.zeros(new long[] {numFeatures}, dtype, Device.CPU) : null);
        registerBuffer(
                "running_mean", trackRunningStats ? Torch.zeros(new long[] {numFeatures}, dtype, Device.CPU) : null);
        registerBuffer(
                "running_var", trackRunningStats ? Torch.ones(new long[] {numFeatures}, dtype, Device.CPU) : null);
        registerBuffer(
                "num_batches_tracked", trackRunningStats ? Torch.zeros(new long[0], DType.INT64, Device.CPU) : null);
    }

    // The settings extraRepr prints; the flavours print them through PyRepr.batchNorm, so that this class, which other
    // packages name, depends on nothing of nn's modules.
    long numFeatures() {
        return numFeatures;
    }

    double eps() {
        return eps;
    }

    boolean affine() {
        return affine;
    }

    boolean trackRunningStats() {
        return trackRunningStats;
    }

    /** PyTorch's {@code _check_input_dim}: the ranks this flavour accepts (a ValueError naming the rank). */
    abstract void checkInputDim(Tensor input);

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

    /** {@code num_batches_tracked}, or null. */
    public Tensor numBatchesTracked() {
        return getBuffer("num_batches_tracked");
    }

    /** {@code momentum}: the running statistics' update factor, or null for a cumulative average. */
    public Double momentum() {
        return momentum;
    }

    /** {@code module.momentum = value}: null makes the running statistics a cumulative average from now on. */
    public void momentum(Double value) {
        this.momentum = value;
    }

    /** {@code reset_running_stats()}. */
    public void resetRunningStats() {
        if (!trackRunningStats) return;
        try (var _ = Torch.noGrad()) {
            runningMean().fill_(0.0);
            runningVar().fill_(1.0);
            numBatchesTracked().fill_(0.0);
        }
    }

    @Override
    public Tensor forward(Tensor input) {
        checkInputDim(input);
        double factor = momentum == null ? 0.0 : momentum;
        if (isTraining() && trackRunningStats) {
            try (var _ = Torch.noGrad()) {
                numBatchesTracked().add_(Torch.ones(new long[0], DType.INT64, Device.CPU));
            }
            factor = momentum == null ? 1.0 / numBatchesTracked().item() : momentum;
        }
        Tensor rm = runningMean(), rv = runningVar();
        boolean bnTraining = isTraining() || (rm == null && rv == null);
        boolean useStats = !isTraining() || trackRunningStats;
        return F.batchNorm(
                input, useStats ? rm : null, useStats ? rv : null, weight(), bias(), bnTraining, factor, eps);
    }
}

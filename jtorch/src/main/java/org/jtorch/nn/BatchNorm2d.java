package org.jtorch.nn;

import org.jtorch.Tensor;

/** {@code torch.nn.BatchNorm2d}: batch normalisation of [N, C, H, W] inputs. */
public class BatchNorm2d extends BatchNormNd {
    /** {@code BatchNorm2d(num_features)}: eps 1e-5, momentum 0.1, affine, tracking running stats. */
    public BatchNorm2d(long numFeatures) {
        this(numFeatures, 1e-5, 0.1, true, true);
    }

    /**
     * {@code BatchNorm2d(num_features, eps, momentum, affine, track_running_stats)}; a null momentum is a cumulative
     * average.
     */
    public BatchNorm2d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats);
    }

    @Override
    void checkInputDim(Tensor input) {
        if (input.dim() != 4) throw new IllegalArgumentException("expected 4D input (got " + input.dim() + "D input)");
    }

    @Override
    protected String extraRepr() {
        return PyRepr.batchNorm(this);
    }
}

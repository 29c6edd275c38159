package org.jtorch.nn;

import org.jtorch.Tensor;

/** {@code torch.nn.BatchNorm1d}: batch normalisation of [N, C] or [N, C, L] inputs. */
public class BatchNorm1d extends BatchNormNd {
    /** {@code BatchNorm1d(num_features)}: eps 1e-5, momentum 0.1, affine, tracking running stats. */
    public BatchNorm1d(long numFeatures) {
        this(numFeatures, 1e-5, 0.1, true, true);
    }

    /**
     * {@code BatchNorm1d(num_features, eps, momentum, affine, track_running_stats)}; a null momentum is a cumulative
     * average.
     */
    public BatchNorm1d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats);
    }

    @Override
    void checkInputDim(Tensor input) {
        if (input.dim() != 2 && input.dim() != 3) {
            throw new IllegalArgumentException("expected 2D or 3D input (got " + input.dim() + "D input)");
        }
    }

    @Override
    protected String extraRepr() {
        return PyRepr.batchNorm(this);
    }
}

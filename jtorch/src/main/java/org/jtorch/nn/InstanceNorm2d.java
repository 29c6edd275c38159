package org.jtorch.nn;

/** {@code torch.nn.InstanceNorm2d}: instance normalisation of [N, C, H, W] or unbatched [C, H, W] inputs. */
public class InstanceNorm2d extends InstanceNormNd {
    /** {@code InstanceNorm2d(num_features)}: eps 1e-5, momentum 0.1, no affine parameters, no running stats. */
    public InstanceNorm2d(long numFeatures) {
        this(numFeatures, 1e-5, 0.1, false, false);
    }

    /**
     * {@code InstanceNorm2d(num_features, eps, momentum, affine, track_running_stats)}; a null momentum leaves the
     * running statistics unchanged (PyTorch passes 0 for None).
     */
    public InstanceNorm2d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats, 3);
    }
}

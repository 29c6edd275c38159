package org.jtorch.nn;

/** {@code torch.nn.InstanceNorm3d}: instance normalisation of [N, C, D, H, W] or unbatched [C, D, H, W] inputs. */
public class InstanceNorm3d extends InstanceNormNd {
    /** {@code InstanceNorm3d(num_features)}: eps 1e-5, momentum 0.1, no affine parameters, no running stats. */
    public InstanceNorm3d(long numFeatures) {
        this(numFeatures, 1e-5, 0.1, false, false);
    }

    /**
     * {@code InstanceNorm3d(num_features, eps, momentum, affine, track_running_stats)}; a null momentum leaves the
     * running statistics unchanged (PyTorch passes 0 for None).
     */
    public InstanceNorm3d(long numFeatures, double eps, Double momentum, boolean affine, boolean trackRunningStats) {
        super(numFeatures, eps, momentum, affine, trackRunningStats, 4);
    }
}

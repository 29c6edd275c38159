package org.jtorch.nn.parallel;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.distributed.Work;

/**
 * Parameters whose gradients are all-reduced together: one flat tensor holds their gradients back to back, and its
 * all-reduce starts as soon as the last of them has arrived in backward.
 */
final class Bucket {
    final List<Tensor> params;
    /** Where each parameter's gradient starts in {@link #flat}. */
    final long[] offsets;

    final Tensor flat;
    /** Parameters of this bucket whose gradient has not arrived yet in this backward. */
    int pending;

    Work work;

    Bucket(List<Tensor> params, DType dtype) {
        this.params = List.copyOf(params);
        this.offsets = new long[params.size()];
        long n = 0;
        for (int i = 0; i < params.size(); i++) {
            offsets[i] = n;
            n += params.get(i).numel();
        }
        this.flat = Torch.zeros(new long[] {n}, dtype, org.jtorch.Device.CPU);
        this.pending = params.size();
    }

    /** The part of {@link #flat} that holds parameter {@code i}'s gradient, in the parameter's shape. */
    Tensor view(int i) {
        Tensor p = params.get(i);
        return flat.narrow(0, offsets[i], p.numel()).view(p.shape());
    }

    long bytes() {
        return flat.numel() * flat.dtype().itemSize();
    }

    void reset() {
        pending = params.size();
        work = null;
    }
}

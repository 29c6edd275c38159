package org.jtorch.nn.parallel;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.distributed.Work;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * Parameters whose gradients are all-reduced together: one flat tensor holds their gradients back to back, and its
 * all-reduce starts as soon as the last of them has arrived in backward.
 *
 * <p>The flat tensor lives in native memory, made once per bucket: the garbage collector never moves it, so MPI reduces
 * it in place, with no staging copy and no allocation per step.
 */
final class Bucket {
    final List<Tensor> params;
    /** Each parameter's part of {@link #flat}, in the parameter's shape. */
    private final Tensor[] views;

    final Tensor flat;
    /** Parameters of this bucket whose gradient has not arrived yet in this backward. */
    int pending;

    Work work;

    Bucket(List<Tensor> params, DType dtype) {
        this.params = List.copyOf(params);
        long n = 0;
        for (Tensor p : params) n += p.numel();
        this.flat = nativeZeros(n, dtype);
        this.views = new Tensor[params.size()];
        long offset = 0;
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            views[i] = flat.narrow(0, offset, p.numel()).view(p.shape());
            offset += p.numel();
        }
        this.pending = params.size();
    }

    /** A zero-filled one-dimensional tensor of {@code n} elements over native memory, freed with the tensor. */
    private static Tensor nativeZeros(long n, DType dtype) {
        long bytes = n * dtype.itemSize();
        MemorySegment memory = Arena.ofAuto().allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
        return Tensor.of(TensorImpl.contiguous(Storage.ofSegment(dtype.storageKind(), memory), new long[] {n}, dtype));
    }

    /** The part of {@link #flat} that holds parameter {@code i}'s gradient, in the parameter's shape. */
    Tensor view(int i) {
        return views[i];
    }

    long bytes() {
        return flat.numel() * flat.dtype().itemSize();
    }

    void reset() {
        pending = params.size();
        work = null;
    }
}

package org.jtorch.testing;

import org.jtorch.Tensor;

/** Test inputs with arbitrary geometry: views of a tensor's storage that no op would produce. */
public final class Views {
    private Views() {}

    /**
     * A view of {@code base} with the given geometry, unchecked (as {@code TensorImpl.viewOf} is): the caller keeps it
     * inside the storage.
     */
    public static Tensor of(Tensor base, long offset, long[] shape, long[] strides) {
        return Tensor.viewOf(base, base.impl().viewOf(offset, shape, strides));
    }
}

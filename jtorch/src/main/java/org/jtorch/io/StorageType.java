package org.jtorch.io;

import org.jtorch.DType;

/**
 * A storage class named in a persistent id: a legacy typed class ({@code torch.FloatStorage}: its elements have a
 * dtype) or {@code torch.storage.UntypedStorage} (bytes; the tensor's dtype comes with {@code _rebuild_tensor_v3}).
 * {@code dtype} is null for classes JTorch has no dtype for (quantized).
 */
record StorageType(String name, DType dtype, boolean untyped) {
    /** Bytes per counted element of a persistent id's {@code numel}. */
    int elementSize() {
        return untyped ? 1 : dtype.itemSize();
    }

    @Override
    public String toString() {
        return untyped ? StorageTypes.UNTYPED : "torch." + name;
    }
}

package org.jtorch.fx;

import java.util.Arrays;
import java.util.Objects;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;

/**
 * What a graph records about a tensor value without keeping the tensor (PyTorch's {@code TensorMetadata}, the
 * {@code meta["val"]} of a node): shape, strides, dtype, device and whether it requires grad. Immutable: the arrays are
 * copied in and out.
 */
public record TensorMeta(long[] shape, long[] stride, DType dtype, Device device, boolean requiresGrad) {
    /** Copies the shape and stride, so the record stays immutable; requires dtype and device. */
    public TensorMeta {
        shape = shape.clone();
        stride = stride.clone();
        Objects.requireNonNull(dtype, "dtype");
        Objects.requireNonNull(device, "device");
    }

    /** The metadata of {@code t}. */
    public static TensorMeta of(Tensor t) {
        return new TensorMeta(t.shape(), t.stride(), t.dtype(), t.device(), t.requiresGrad());
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public long[] stride() {
        return stride.clone();
    }

    /** The number of elements: the product of the shape. */
    public long numel() {
        long n = 1;
        for (long s : shape) n *= s;
        return n;
    }

    /** The same metadata on another device: what a meta-device trace records for a CPU one. */
    public TensorMeta on(Device other) {
        return new TensorMeta(shape, stride, dtype, other, requiresGrad);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TensorMeta m
                && Arrays.equals(shape, m.shape)
                && Arrays.equals(stride, m.stride)
                && dtype == m.dtype
                && device.equals(m.device)
                && requiresGrad == m.requiresGrad;
    }

    @Override
    public int hashCode() {
        return Objects.hash(Arrays.hashCode(shape), Arrays.hashCode(stride), dtype, device, requiresGrad);
    }

    /** {@code f32[2, 3]}, as {@code print_readable()} annotates a node. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(dtype.abbreviation()).append('[');
        for (int i = 0; i < shape.length; i++) sb.append(i > 0 ? ", " : "").append(shape[i]);
        return sb.append(']').toString();
    }
}

package org.jtorch.dispatch;

import org.jtorch.DType;
import org.jtorch.Device;

/**
 * What a meta rule decides: the shape and dtype of each output, the device they live on, and an op-specific plan (the
 * compute dtype, normalised dims...) handed to the kernel so that it never recomputes what the meta rule already worked
 * out.
 */
public record Spec(long[][] shapes, DType[] dtypes, Device device, Object plan) {

    public static Spec of(long[] shape, DType dtype, Device device, Object plan) {
        return new Spec(new long[][] {shape}, new DType[] {dtype}, device, plan);
    }

    public int outputs() {
        return shapes.length;
    }
}

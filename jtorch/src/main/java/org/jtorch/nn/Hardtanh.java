package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.nn.functional.F;

/** {@code torch.nn.Hardtanh}: the input clamped to [min_val, max_val]. */
public class Hardtanh extends Module {
    private final double minVal, maxVal;

    /** {@code Hardtanh()}: [-1, 1]. */
    public Hardtanh() {
        this(-1.0, 1.0);
    }

    /** {@code Hardtanh(min_val, max_val)}; PyTorch requires max_val > min_val. */
    public Hardtanh(double minVal, double maxVal) {
        if (!(maxVal > minVal))
            throw new IllegalArgumentException(
                    "Hardtanh: max_val (" + maxVal + ") must be greater than min_val (" + minVal + ")");
        this.minVal = minVal;
        this.maxVal = maxVal;
    }

    @Override
    public Tensor forward(Tensor input) {
        return F.hardtanh(input, minVal, maxVal);
    }

    @Override
    protected String extraRepr() {
        return "min_val=" + PyRepr.of(minVal) + ", max_val=" + PyRepr.of(maxVal);
    }
}

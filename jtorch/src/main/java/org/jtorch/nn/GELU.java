package org.jtorch.nn;

import org.jtorch.Tensor;
import org.jtorch.Torch;

/** {@code torch.nn.GELU}: x · Φ(x), exact ({@code "none"}) or with the tanh approximation ({@code "tanh"}). */
public class GELU extends Module {
    private final String approximate;

    /** {@code GELU()}: the exact form. */
    public GELU() {
        this("none");
    }

    /** {@code GELU(approximate)}: {@code "none"} or {@code "tanh"}. */
    public GELU(String approximate) {
        if (!approximate.equals("none") && !approximate.equals("tanh")) {
            throw new IllegalArgumentException("approximate argument must be either none or tanh.");
        }
        this.approximate = approximate;
    }

    @Override
    public Tensor forward(Tensor input) {
        return Torch.gelu(input, approximate);
    }

    @Override
    protected String extraRepr() {
        return "approximate='" + approximate + "'";
    }
}

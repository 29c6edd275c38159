package org.jtorch.internal;

import org.jtorch.Tensor;

/** Placeholder replaced by the PyTorch-style printer. */
public final class TensorFormatter {
    private TensorFormatter() {}

    public static String format(Tensor t) {
        return "tensor(shape=" + Shapes.str(t.shapeRef()) + ", dtype=" + t.dtype() + ")";
    }
}

package org.jtorch.nn;

import java.util.Locale;

/** A loss's {@code reduction} argument: PyTorch's strings {@code 'none'}, {@code 'mean'}, {@code 'sum'}. */
public enum Reduction {
    /** {@code reduction="none"}: one loss per element. */
    NONE,
    /** {@code reduction="mean"}: the mean of the losses (the default). */
    MEAN,
    /** {@code reduction="sum"}: the sum of the losses. */
    SUM;

    /** The PyTorch spelling ("none", "mean", "sum"). */
    public String pytorchName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses PyTorch's string; anything else is the ValueError PyTorch raises. */
    public static Reduction of(String name) {
        for (Reduction r : values()) {
            if (r.pytorchName().equals(name)) return r;
        }
        throw new IllegalArgumentException(name + " is not a valid value for reduction");
    }
}

package org.jtorch.io;

/** A Python {@code complex} number. */
public record PyComplex(double real, double imag) {
    /** Seeded per process, so that a file cannot fill a dict with complex keys of one hash. */
    @Override
    public int hashCode() {
        return KeyHash.fold(KeyHash.of(this));
    }

    @Override
    public String toString() {
        return "(" + real + (imag < 0 || Double.valueOf(imag).equals(-0.0) ? "" : "+") + imag + "j)";
    }
}

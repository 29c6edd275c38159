package org.jtorch.io;

/** A Python {@code complex} number. */
public record PyComplex(double real, double imag) {
    @Override
    public String toString() {
        return "(" + real + (imag < 0 || Double.valueOf(imag).equals(-0.0) ? "" : "+") + imag + "j)";
    }
}

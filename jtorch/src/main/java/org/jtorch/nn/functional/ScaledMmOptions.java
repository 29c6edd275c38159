package org.jtorch.nn.functional;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Tensor;

/**
 * Keyword arguments of {@code F.scaled_mm} / {@code F.scaled_addmm} (2.15): {@code bias} (scaled_mm only, null = none),
 * {@code output_dtype} (scaled_mm only; null = bfloat16), {@code contraction_dim} (empty or (1, 0)),
 * {@code use_fast_accum} (accepted and ignored on the CPU, as it only trades accuracy on GPUs), and scaled_addmm's
 * {@code beta}/{@code alpha}.
 */
public record ScaledMmOptions(
        Tensor bias, DType outputDtype, int[] contractionDim, boolean useFastAccum, double beta, double alpha) {

    /** Copies {@code contractionDim}; null means empty. */
    public ScaledMmOptions {
        contractionDim = contractionDim == null ? new int[0] : contractionDim.clone();
    }

    /** PyTorch's defaults: no bias, bfloat16 output, no contraction_dim, no fast accumulation, beta = alpha = 1. */
    public static ScaledMmOptions defaults() {
        return new ScaledMmOptions(null, null, new int[0], false, 1.0, 1.0);
    }

    /** Copy with {@code bias}. */
    public ScaledMmOptions bias(Tensor b) {
        return new ScaledMmOptions(b, outputDtype, contractionDim, useFastAccum, beta, alpha);
    }

    /** Copy with {@code output_dtype}. */
    public ScaledMmOptions outputDtype(DType d) {
        return new ScaledMmOptions(bias, d, contractionDim, useFastAccum, beta, alpha);
    }

    /** Copy with {@code contraction_dim}. */
    public ScaledMmOptions contractionDim(int... dims) {
        return new ScaledMmOptions(bias, outputDtype, dims, useFastAccum, beta, alpha);
    }

    /** Copy with {@code use_fast_accum}. */
    public ScaledMmOptions useFastAccum(boolean b) {
        return new ScaledMmOptions(bias, outputDtype, contractionDim, b, beta, alpha);
    }

    /** Copy with {@code beta} (scaled_addmm). */
    public ScaledMmOptions beta(double b) {
        return new ScaledMmOptions(bias, outputDtype, contractionDim, useFastAccum, b, alpha);
    }

    /** Copy with {@code alpha} (scaled_addmm). */
    public ScaledMmOptions alpha(double a) {
        return new ScaledMmOptions(bias, outputDtype, contractionDim, useFastAccum, beta, a);
    }

    @Override
    public int[] contractionDim() {
        return contractionDim.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ScaledMmOptions s
                && s.bias == bias
                && s.outputDtype == outputDtype
                && Arrays.equals(s.contractionDim, contractionDim)
                && s.useFastAccum == useFastAccum
                && Double.compare(s.beta, beta) == 0
                && Double.compare(s.alpha, alpha) == 0;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(contractionDim) * 31 + Double.hashCode(beta) * 7 + Double.hashCode(alpha);
    }

    @Override
    public String toString() {
        return "ScaledMmOptions[bias=" + bias + ", outputDtype=" + outputDtype + ", contractionDim="
                + Arrays.toString(contractionDim) + ", useFastAccum=" + useFastAccum + ", beta=" + beta + ", alpha="
                + alpha + "]";
    }
}

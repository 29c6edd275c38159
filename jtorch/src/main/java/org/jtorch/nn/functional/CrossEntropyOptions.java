package org.jtorch.nn.functional;

import org.jtorch.Tensor;
import org.jtorch.nn.Reduction;

/**
 * Keyword arguments of {@code F.cross_entropy} / {@code F.nll_loss}: class {@code weight} (null = all ones),
 * {@code ignoreIndex} (default -100), {@code reduction} (default MEAN) and {@code labelSmoothing} (default 0, cross
 * entropy only).
 */
public record CrossEntropyOptions(Tensor weight, long ignoreIndex, Reduction reduction, double labelSmoothing) {

    /** PyTorch's defaults: no weight, ignore_index=-100, reduction='mean', label_smoothing=0. */
    public static CrossEntropyOptions defaults() {
        return new CrossEntropyOptions(null, -100, Reduction.MEAN, 0.0);
    }

    /** Copy with {@code weight}. */
    public CrossEntropyOptions weight(Tensor w) {
        return new CrossEntropyOptions(w, ignoreIndex, reduction, labelSmoothing);
    }

    /** Copy with {@code ignore_index}. */
    public CrossEntropyOptions ignoreIndex(long i) {
        return new CrossEntropyOptions(weight, i, reduction, labelSmoothing);
    }

    /** Copy with {@code reduction}. */
    public CrossEntropyOptions reduction(Reduction r) {
        return new CrossEntropyOptions(weight, ignoreIndex, r, labelSmoothing);
    }

    /** Copy with {@code label_smoothing}. */
    public CrossEntropyOptions labelSmoothing(double e) {
        return new CrossEntropyOptions(weight, ignoreIndex, reduction, e);
    }
}

package org.jtorch.nn.functional;

import java.util.OptionalLong;
import org.jtorch.Tensor;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Reduction;

/**
 * Keyword arguments of {@code F.linear_cross_entropy} (2.15): {@code linear_bias} (null = none), class {@code weight}
 * (null = all ones), {@code reduction} (default MEAN), {@code ignore_index} (empty = -100 for class-index targets),
 * {@code label_smoothing} (default 0) and {@code options} (null = the reference path; set = opt into the chunked path).
 */
public record LinearCrossEntropyArgs(
        Tensor linearBias,
        Tensor weight,
        Reduction reduction,
        OptionalLong ignoreIndex,
        double labelSmoothing,
        LinearCrossEntropyOptions options) {

    /** Validates the reduction (the other fields are checked against the inputs at call time). */
    public LinearCrossEntropyArgs {
        if (reduction == null) throw new IllegalArgumentException("None is not a valid value for reduction");
        if (ignoreIndex == null) ignoreIndex = OptionalLong.empty();
    }

    /** PyTorch's defaults: no bias, no weight, 'mean', ignore_index None, no smoothing, reference path. */
    public static LinearCrossEntropyArgs defaults() {
        return new LinearCrossEntropyArgs(null, null, Reduction.MEAN, OptionalLong.empty(), 0.0, null);
    }

    /** Copy with {@code linear_bias}. */
    public LinearCrossEntropyArgs linearBias(Tensor b) {
        return new LinearCrossEntropyArgs(b, weight, reduction, ignoreIndex, labelSmoothing, options);
    }

    /** Copy with the class {@code weight}. */
    public LinearCrossEntropyArgs weight(Tensor w) {
        return new LinearCrossEntropyArgs(linearBias, w, reduction, ignoreIndex, labelSmoothing, options);
    }

    /** Copy with {@code reduction}. */
    public LinearCrossEntropyArgs reduction(Reduction r) {
        return new LinearCrossEntropyArgs(linearBias, weight, r, ignoreIndex, labelSmoothing, options);
    }

    /** Copy with {@code ignore_index}. */
    public LinearCrossEntropyArgs ignoreIndex(long index) {
        return new LinearCrossEntropyArgs(
                linearBias, weight, reduction, OptionalLong.of(index), labelSmoothing, options);
    }

    /** Copy with {@code label_smoothing}. */
    public LinearCrossEntropyArgs labelSmoothing(double eps) {
        return new LinearCrossEntropyArgs(linearBias, weight, reduction, ignoreIndex, eps, options);
    }

    /** Copy with {@code options} (null = reference path). */
    public LinearCrossEntropyArgs options(LinearCrossEntropyOptions o) {
        return new LinearCrossEntropyArgs(linearBias, weight, reduction, ignoreIndex, labelSmoothing, o);
    }

    /** The effective ignore index: -100 when unset, as for {@code cross_entropy}. */
    long effectiveIgnoreIndex() {
        return ignoreIndex.orElse(-100);
    }
}

package org.jtorch.utils.data;

import java.util.Iterator;
import java.util.stream.LongStream;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.utils.data.WeightedRandomSampler}: {@code num_samples} indices drawn with probabilities proportional to
 * {@code weights} (which need not sum to one), one {@code torch.multinomial(weights, num_samples, replacement,
 * generator=generator)} per epoch, the weights as float64.
 */
public final class WeightedRandomSampler implements Sampler<Integer> {
    private final Tensor weights;
    private final int numSamples;
    private final boolean replacement;
    private final Generator generator;

    /** {@code WeightedRandomSampler(weights, num_samples)}: with replacement, from the default generator. */
    public WeightedRandomSampler(double[] weights, int numSamples) {
        this(Torch.tensor(weights), numSamples, true, null);
    }

    /** {@code WeightedRandomSampler(weights, num_samples, replacement, generator)}; weights a 1-d tensor. */
    public WeightedRandomSampler(Tensor weights, int numSamples, boolean replacement, Generator generator) {
        if (numSamples <= 0) {
            throw new IllegalArgumentException(
                    "num_samples should be a positive integer value, but got num_samples=" + numSamples);
        }
        if (weights.dim() != 1) {
            throw new IllegalArgumentException(
                    "weights should be a 1d sequence but given weights have shape " + pythonTuple(weights.shape()));
        }
        this.weights = weights.to(DType.FLOAT64);
        this.numSamples = numSamples;
        this.replacement = replacement;
        this.generator = generator;
    }

    @Override
    public int size() {
        return numSamples;
    }

    @Override
    public Iterator<Integer> iterator() {
        long[] drawn =
                Torch.multinomial(weights, numSamples, replacement, generator).toLongArray();
        return LongStream.of(drawn).mapToObj(Math::toIntExact).iterator();
    }

    /** Python's repr of a tuple of sizes: {@code (2, 2)}, {@code (3,)}, {@code ()}. */
    private static String pythonTuple(long[] shape) {
        StringBuilder sb = new StringBuilder("(");
        for (int i = 0; i < shape.length; i++) sb.append(i > 0 ? ", " : "").append(shape[i]);
        return sb.append(shape.length == 1 ? ",)" : ")").toString();
    }
}

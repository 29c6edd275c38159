package org.jtorch.utils.data;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.jtorch.Generator;
import org.jtorch.Torch;

/**
 * {@code torch.utils.data.RandomSampler}: a random order of the dataset's indices, drawn as PyTorch draws it, so that
 * the same seed gives the same order, epoch after epoch:
 *
 * <ul>
 *   <li>without replacement, {@code num_samples // n} full permutations ({@code randperm(n, generator)}), then one more
 *       permutation cut to the remaining {@code num_samples % n} indices (drawn even when none remain, which is the
 *       permutation PyTorch computes and discards at the end of each epoch);
 *   <li>with replacement, {@code randint(0, n, (32,))} chunks, then one chunk of {@code num_samples % 32};
 *   <li>without a generator, each epoch seeds a fresh {@code torch.Generator()} with a 64-bit draw of the default
 *       generator ({@code torch.empty((), dtype=torch.int64).random_()}).
 * </ul>
 *
 * Each draw happens when the iteration reaches it, as in PyTorch's lazily run {@code __iter__}.
 */
public final class RandomSampler implements Sampler<Integer> {
    private static final int REPLACEMENT_CHUNK = 32;

    private final Dataset<?> dataSource;
    private final boolean replacement;
    private final Integer numSamples;
    private final Generator generator;

    /** {@code RandomSampler(data_source)}: a permutation per epoch from the default generator. */
    public RandomSampler(Dataset<?> dataSource) {
        this(dataSource, false, null, null);
    }

    /**
     * {@code RandomSampler(data_source, replacement, num_samples, generator)}; {@code numSamples} null means the
     * dataset's length, {@code generator} null means a fresh one per epoch seeded from the default generator.
     */
    public RandomSampler(Dataset<?> dataSource, boolean replacement, Integer numSamples, Generator generator) {
        this.dataSource = dataSource;
        this.replacement = replacement;
        this.numSamples = numSamples;
        this.generator = generator;
        int n = size();
        if (n <= 0) {
            throw new IllegalArgumentException(
                    "num_samples should be a positive integer value, but got num_samples=" + n);
        }
    }

    /** {@code replacement}. */
    public boolean replacement() {
        return replacement;
    }

    /** {@code num_samples}: the given number, or the dataset's length. */
    @Override
    public int size() {
        return numSamples != null ? numSamples : dataSource.size();
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Epoch();
    }

    /**
     * A 64-bit seed drawn from {@code g} (null: the default generator), as {@code torch.empty((), int64).random_()}.
     */
    static long drawSeed(Generator g) {
        return Torch.random_(Torch.empty(new long[0], org.jtorch.DType.INT64, org.jtorch.Device.CPU), g)
                .toLongArray()[0];
    }

    /** One epoch: chunks drawn one at a time, when the previous one is used up. */
    private final class Epoch implements Iterator<Integer> {
        private final int n = dataSource.size();
        private final int total = size();
        private final int chunkLength = replacement ? REPLACEMENT_CHUNK : n;
        private final int chunks = total / chunkLength + 1;
        private Generator g;
        private long[] chunk = new long[0];
        private int position;
        private int drawn;

        @Override
        public boolean hasNext() {
            while (position == chunk.length && drawn < chunks) {
                if (g == null) g = generator != null ? generator : new Generator().manualSeed(drawSeed(null));
                int length = drawn == chunks - 1 ? total % chunkLength : chunkLength;
                chunk = replacement
                        ? Torch.randint(0, n, new long[] {length}, g).toLongArray()
                        : java.util.Arrays.copyOf(Torch.randperm(n, g).toLongArray(), length);
                position = 0;
                drawn++;
            }
            return position < chunk.length;
        }

        @Override
        public Integer next() {
            if (!hasNext()) throw new NoSuchElementException();
            return Math.toIntExact(chunk[position++]);
        }
    }
}

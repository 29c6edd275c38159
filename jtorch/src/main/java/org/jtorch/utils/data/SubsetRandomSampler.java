package org.jtorch.utils.data;

import java.util.Iterator;
import java.util.NoSuchElementException;
import org.jtorch.Generator;
import org.jtorch.Torch;

/**
 * {@code torch.utils.data.SubsetRandomSampler}: the given indices in a random order, a fresh
 * {@code randperm(len(indices), generator)} per epoch (null generator: the default one).
 */
public final class SubsetRandomSampler implements Sampler<Integer> {
    private final int[] indices;
    private final Generator generator;

    /** {@code SubsetRandomSampler(indices)}. */
    public SubsetRandomSampler(int[] indices) {
        this(indices, null);
    }

    /** {@code SubsetRandomSampler(indices, generator)}. */
    public SubsetRandomSampler(int[] indices, Generator generator) {
        this.indices = indices.clone();
        this.generator = generator;
    }

    @Override
    public int size() {
        return indices.length;
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private long[] order;
            private int position;

            @Override
            public boolean hasNext() {
                if (order == null)
                    order = Torch.randperm(indices.length, generator).toLongArray();
                return position < order.length;
            }

            @Override
            public Integer next() {
                if (!hasNext()) throw new NoSuchElementException();
                return indices[(int) order[position++]];
            }
        };
    }
}

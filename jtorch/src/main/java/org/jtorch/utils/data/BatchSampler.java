package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * {@code torch.utils.data.BatchSampler}: groups the indices of another sampler into lists of {@code batch_size}; the
 * last, shorter list is kept unless {@code drop_last}. The inner sampler is read to its end in both cases, as PyTorch
 * reads it, so a random inner sampler makes the same draws either way.
 */
public final class BatchSampler implements Sampler<List<Integer>> {
    private final Sampler<Integer> sampler;
    private final int batchSize;
    private final boolean dropLast;

    /** {@code BatchSampler(sampler, batch_size, drop_last)}. */
    public BatchSampler(Sampler<Integer> sampler, int batchSize, boolean dropLast) {
        if (batchSize <= 0) {
            throw new IllegalArgumentException(
                    "batch_size should be a positive integer value, but got batch_size=" + batchSize);
        }
        this.sampler = sampler;
        this.batchSize = batchSize;
        this.dropLast = dropLast;
    }

    /** {@code batch_size}. */
    public int batchSize() {
        return batchSize;
    }

    /** {@code drop_last}. */
    public boolean dropLast() {
        return dropLast;
    }

    @Override
    public int size() {
        int n = sampler.size();
        return dropLast ? n / batchSize : (n + batchSize - 1) / batchSize;
    }

    @Override
    public Iterator<List<Integer>> iterator() {
        Iterator<Integer> indices = sampler.iterator();
        return new Iterator<>() {
            private List<Integer> batch;

            @Override
            public boolean hasNext() {
                if (batch == null) {
                    List<Integer> b = new ArrayList<>(batchSize);
                    while (b.size() < batchSize && indices.hasNext()) b.add(indices.next());
                    batch = b.isEmpty() || (dropLast && b.size() < batchSize) ? List.of() : List.copyOf(b);
                }
                return !batch.isEmpty();
            }

            @Override
            public List<Integer> next() {
                if (!hasNext()) throw new NoSuchElementException();
                List<Integer> b = batch;
                batch = null;
                return b;
            }
        };
    }
}

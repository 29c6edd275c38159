package org.jtorch.utils.data;

import java.util.Iterator;
import java.util.stream.IntStream;

/** {@code torch.utils.data.SequentialSampler}: indices {@code 0, 1, ..., len(data_source) - 1}. */
public final class SequentialSampler implements Sampler<Integer> {
    private final Dataset<?> dataSource;

    /** {@code SequentialSampler(data_source)}. */
    public SequentialSampler(Dataset<?> dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Iterator<Integer> iterator() {
        return IntStream.range(0, dataSource.size()).iterator();
    }

    @Override
    public int size() {
        return dataSource.size();
    }
}

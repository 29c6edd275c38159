package org.jtorch.utils.data;

/**
 * {@code torch.utils.data.IterableDataset}: a stream of items, read in order, with no index.
 *
 * <p>With workers, each worker thread calls {@link #iterator()} itself and batches what its own iterator yields, as
 * each PyTorch worker iterates its own replica: an implementation that must not repeat items across workers shards its
 * stream with {@link Data#getWorkerInfo()} ({@code id()} of {@code numWorkers()}).
 *
 * @param <T> the item type
 */
public interface IterableDataset<T> extends Iterable<T> {}

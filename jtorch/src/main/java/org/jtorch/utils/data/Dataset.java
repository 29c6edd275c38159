package org.jtorch.utils.data;

/**
 * {@code torch.utils.data.Dataset} (map-style): items by index, {@code dataset[i]}, and a length, {@code len(dataset)}.
 *
 * <p>{@link #get} may be called from several loader workers at once, so an implementation must be safe to read
 * concurrently (a PyTorch worker process has its own copy; a worker here is a thread sharing this object).
 *
 * @param <T> the item type
 */
public interface Dataset<T> {
    /** {@code __getitem__(index)}: the item at {@code index}, for {@code 0 <= index < size()}. */
    T get(int index);

    /** {@code __len__()}: the number of items. */
    int size();
}

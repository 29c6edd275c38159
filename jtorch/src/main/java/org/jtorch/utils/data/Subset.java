package org.jtorch.utils.data;

/** {@code torch.utils.data.Subset}: the items of {@code dataset} at the given indices, in that order. */
public final class Subset<T> implements Dataset<T> {
    private final Dataset<T> dataset;
    private final int[] indices;

    /** {@code Subset(dataset, indices)}. */
    public Subset(Dataset<T> dataset, int[] indices) {
        this.dataset = dataset;
        this.indices = indices.clone();
    }

    /** {@code subset.dataset}. */
    public Dataset<T> dataset() {
        return dataset;
    }

    /** {@code subset.indices}. */
    public int[] indices() {
        return indices.clone();
    }

    @Override
    public T get(int index) {
        return dataset.get(indices[index]);
    }

    @Override
    public int size() {
        return indices.length;
    }
}

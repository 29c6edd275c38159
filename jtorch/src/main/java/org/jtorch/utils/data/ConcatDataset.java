package org.jtorch.utils.data;

import java.util.List;

/**
 * {@code torch.utils.data.ConcatDataset}: the items of several map-style datasets, one after another. Index {@code i}
 * is found by a binary search over the cumulative sizes, as PyTorch's {@code bisect_right}; negative indices count from
 * the end, as in PyTorch.
 */
public final class ConcatDataset<T> implements Dataset<T> {
    private final List<Dataset<? extends T>> datasets;
    private final int[] cumulativeSizes;

    /** {@code ConcatDataset(datasets)}: at least one dataset. */
    public ConcatDataset(List<? extends Dataset<? extends T>> datasets) {
        if (datasets.isEmpty()) throw new IllegalArgumentException("datasets should not be an empty iterable");
        this.datasets = List.copyOf(datasets);
        this.cumulativeSizes = new int[datasets.size()];
        int total = 0;
        for (int i = 0; i < datasets.size(); i++)
            cumulativeSizes[i] = total = Math.addExact(total, datasets.get(i).size());
    }

    /** {@code cumulative_sizes}. */
    public int[] cumulativeSizes() {
        return cumulativeSizes.clone();
    }

    @Override
    public T get(int index) {
        int n = size();
        if (index < 0) {
            if (-index > n)
                throw new IllegalArgumentException("absolute value of index should not exceed dataset length");
            index += n;
        }
        if (index >= n)
            throw new IndexOutOfBoundsException("ConcatDataset: index " + index + " out of range for length " + n);
        int which = bisectRight(cumulativeSizes, index);
        int start = which == 0 ? 0 : cumulativeSizes[which - 1];
        return datasets.get(which).get(index - start);
    }

    @Override
    public int size() {
        return cumulativeSizes[cumulativeSizes.length - 1];
    }

    /** Python's {@code bisect.bisect_right}: the first position whose value exceeds {@code x}. */
    private static int bisectRight(int[] sorted, int x) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (x < sorted[mid]) hi = mid;
            else lo = mid + 1;
        }
        return lo;
    }
}

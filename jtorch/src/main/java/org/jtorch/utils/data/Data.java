package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.Generator;
import org.jtorch.Torch;
import org.jtorch.Warnings;

/**
 * The functions of {@code torch.utils.data}: {@code random_split}, {@code get_worker_info} and {@code default_collate}
 * (the classes of that module are classes of this package).
 */
public final class Data {
    private Data() {}

    static final ScopedValue<WorkerInfo> WORKER_INFO = ScopedValue.newInstance();

    /** {@code get_worker_info()}: the calling loader worker's {@link WorkerInfo}, or null outside a worker. */
    public static WorkerInfo getWorkerInfo() {
        return WORKER_INFO.isBound() ? WORKER_INFO.get() : null;
    }

    /** {@code default_collate(batch)}: see {@link Collate#defaultCollate}. */
    public static Object defaultCollate(List<?> batch) {
        return Collate.defaultCollate(batch);
    }

    /** {@code random_split(dataset, lengths)} with the default generator. */
    public static <T> List<Subset<T>> randomSplit(Dataset<T> dataset, int[] lengths) {
        return randomSplit(dataset, lengths, Torch.defaultGenerator());
    }

    /**
     * {@code random_split(dataset, lengths, generator)}: non-overlapping subsets of the given lengths, which must sum
     * to the dataset's length, from one {@code randperm(len(dataset), generator)}.
     */
    public static <T> List<Subset<T>> randomSplit(Dataset<T> dataset, int[] lengths, Generator generator) {
        long sum = Arrays.stream(lengths).asLongStream().sum();
        if (sum != dataset.size()) {
            throw new IllegalArgumentException("Sum of input lengths does not equal the length of the input dataset!");
        }
        long[] order = Torch.randperm(sum, generator).toLongArray();
        List<Subset<T>> out = new ArrayList<>(lengths.length);
        int offset = 0;
        for (int length : lengths) {
            int[] indices = new int[length];
            for (int i = 0; i < length; i++) indices[i] = (int) order[offset + i];
            out.add(new Subset<>(dataset, indices));
            offset += length;
        }
        return out;
    }

    /** {@code random_split(dataset, fractions)} with the default generator. */
    public static <T> List<Subset<T>> randomSplit(Dataset<T> dataset, double[] fractions) {
        return randomSplit(dataset, fractions, Torch.defaultGenerator());
    }

    /**
     * {@code random_split(dataset, fractions, generator)}: fractions summing to 1 become lengths {@code floor(len *
     * fraction)}, the remainder handed out one by one from the first split on (PyTorch's round-robin); a split of
     * length 0 warns.
     */
    public static <T> List<Subset<T>> randomSplit(Dataset<T> dataset, double[] fractions, Generator generator) {
        double total = Arrays.stream(fractions).sum();
        // math.isclose(sum, 1) with its default rel_tol=1e-9, and sum <= 1.
        if (!(Math.abs(total - 1) <= 1e-9 * Math.max(1, Math.abs(total)) && total <= 1)) {
            throw new IllegalArgumentException("Sum of input lengths does not equal the length of the input dataset!");
        }
        int n = dataset.size();
        int[] lengths = new int[fractions.length];
        int assigned = 0;
        for (int i = 0; i < fractions.length; i++) {
            if (fractions[i] < 0 || fractions[i] > 1)
                throw new IllegalArgumentException("Fraction at index " + i + " is not between 0 and 1");
            lengths[i] = (int) Math.floor(n * fractions[i]);
            assigned += lengths[i];
        }
        for (int i = 0; i < n - assigned; i++) lengths[i % lengths.length]++;
        for (int i = 0; i < lengths.length; i++) {
            if (lengths[i] == 0)
                Warnings.warn("Length of split at index " + i + " is 0. This might result in an empty dataset.");
        }
        return randomSplit(dataset, lengths, generator);
    }
}

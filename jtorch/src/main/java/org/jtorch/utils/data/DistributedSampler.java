package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.jtorch.Generator;
import org.jtorch.Torch;
import org.jtorch.distributed.Distributed;

/**
 * {@code torch.utils.data.distributed.DistributedSampler}: each rank's share of the dataset's indices, drawn exactly as
 * PyTorch draws them, so that a JTorch job and a PyTorch job with the same seed see the same shards.
 *
 * <p>An epoch's order is {@code randperm(len, generator seeded with seed + epoch)} (or {@code 0..len-1} without
 * shuffling). Without {@code drop_last}, the order is padded with its own first indices (repeated as needed) up to a
 * multiple of the number of replicas; with it, the tail that does not divide evenly is dropped. Rank r takes the
 * indices at r, r + replicas, r + 2 replicas, … Call {@link #setEpoch} at the start of every epoch, or every epoch
 * repeats the same order.
 */
public final class DistributedSampler implements Sampler<Integer> {
    private final Dataset<?> dataset;
    private final int numReplicas;
    private final int rank;
    private final boolean shuffle;
    private final long seed;
    private final boolean dropLast;
    private final int numSamples;
    private final int totalSize;
    private volatile long epoch;

    /**
     * {@code DistributedSampler(dataset)}: the default process group's world size and rank, shuffled with seed 0,
     * padded rather than dropped.
     */
    public DistributedSampler(Dataset<?> dataset) {
        this(dataset, null, null, true, 0, false);
    }

    /**
     * {@code DistributedSampler(dataset, num_replicas, rank, shuffle, seed, drop_last)}; null {@code numReplicas} or
     * {@code rank} are taken from the default process group.
     *
     * @throws IllegalArgumentException for a rank outside {@code [0, numReplicas - 1]} (PyTorch's ValueError)
     */
    public DistributedSampler(
            Dataset<?> dataset, Integer numReplicas, Integer rank, boolean shuffle, long seed, boolean dropLast) {
        this.dataset = dataset;
        this.numReplicas = numReplicas != null ? numReplicas : Distributed.worldSize();
        this.rank = rank != null ? rank : Distributed.rank();
        if (this.rank >= this.numReplicas || this.rank < 0) {
            throw new IllegalArgumentException("Invalid rank " + this.rank + ", rank should be in the interval [0, "
                    + (this.numReplicas - 1) + "]");
        }
        this.shuffle = shuffle;
        this.seed = seed;
        this.dropLast = dropLast;
        int n = dataset.size();
        this.numSamples = dropLast && n % this.numReplicas != 0
                ? ceilDiv(n - this.numReplicas, this.numReplicas)
                : ceilDiv(n, this.numReplicas);
        this.totalSize = numSamples * this.numReplicas;
    }

    /** {@code math.ceil(a / b)} for a possibly negative numerator, as Python computes it. */
    private static int ceilDiv(int a, int b) {
        return -Math.floorDiv(-a, b);
    }

    /** {@code set_epoch(epoch)}: the next epoch's shuffle uses {@code seed + epoch}. */
    public void setEpoch(long epoch) {
        this.epoch = epoch;
    }

    /** {@code num_samples}: the indices this rank takes per epoch. */
    @Override
    public int size() {
        return numSamples;
    }

    @Override
    public Iterator<Integer> iterator() {
        int n = dataset.size();
        List<Integer> indices = new ArrayList<>(Math.max(totalSize, n));
        if (shuffle) {
            Generator g = new Generator().manualSeed(seed + epoch);
            for (long i : Torch.randperm(n, g).toLongArray()) indices.add((int) i);
        } else {
            for (int i = 0; i < n; i++) indices.add(i);
        }
        if (!dropLast) {
            int padding = totalSize - indices.size();
            List<Integer> original = List.copyOf(indices);
            for (int i = 0; i < padding; i++) indices.add(original.get(i % original.size()));
        } else {
            indices.subList(totalSize, indices.size()).clear();
        }
        List<Integer> mine = new ArrayList<>(numSamples);
        for (int i = rank; i < totalSize; i += numReplicas) mine.add(indices.get(i));
        return mine.iterator();
    }
}

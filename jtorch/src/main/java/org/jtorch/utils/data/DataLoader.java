package org.jtorch.utils.data;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.jtorch.Generator;
import org.jtorch.TorchTypeException;
import org.jtorch.Warnings;
import org.jtorch.accelerator.Accelerator;

/**
 * {@code torch.utils.data.DataLoader}: batches of a dataset, in the order of a sampler, loaded by the caller's thread
 * ({@code numWorkers(0)}) or by worker threads; {@code for (var batch : loader)} runs one epoch.
 *
 * <p>With workers, the calling thread draws the indices (so the order is the sampler's, whatever the workers' speeds),
 * hands index batches to the workers round-robin, keeps at most {@code prefetchFactor * numWorkers} batches in flight,
 * and yields them in order. Each worker thread runs with its {@link WorkerInfo} ({@link Data#getWorkerInfo()}) and a
 * default generator seeded with {@code base_seed + worker_id}, where {@code base_seed} is drawn from the loader's
 * generator when an epoch's iterator is made, as PyTorch seeds its worker processes. An exception thrown in a worker
 * ends the epoch and reaches the caller as a {@link org.jtorch.TorchException} whose cause is the worker's exception,
 * with the worker's stack.
 *
 * <p>Workers are daemon platform threads (see {@code docs/benchmarks.md} for the comparison with virtual threads); they
 * stop when an epoch ends (or, with {@code persistentWorkers}, when the loader closes). {@link #close()} stops every
 * worker of every open iterator, so a loop left early leaves no thread behind: use the loader in try-with-resources.
 *
 * @param <B> the batch type
 */
public final class DataLoader<B> implements Iterable<B>, AutoCloseable {
    private static final AtomicInteger LOADERS = new AtomicInteger();

    final Dataset<?> dataset;
    final IterableDataset<?> iterableDataset;
    final Sampler<List<Integer>> batchSampler;
    final int batchSize;
    final boolean dropLast;
    final Function<List<Object>, Object> collateFn;
    final int numWorkers;
    final int prefetchFactor;
    final boolean persistentWorkers;
    final Duration timeout;
    final IntConsumer workerInitFn;
    final Generator generator;
    final int id = LOADERS.incrementAndGet();

    private final Set<LoaderIterator<B>> open = ConcurrentHashMap.newKeySet();
    private LoaderIterator<B> persistent;
    private volatile boolean closed;

    private DataLoader(Builder<?, B> b) {
        this.dataset = b.dataset;
        this.iterableDataset = b.iterableDataset;
        this.batchSize = b.batchSize;
        this.dropLast = b.dropLast;
        this.collateFn = b.collateFn;
        this.numWorkers = b.numWorkers;
        this.prefetchFactor = b.prefetchFactor == null ? 2 : b.prefetchFactor;
        this.persistentWorkers = b.persistentWorkers;
        this.timeout = b.timeout;
        this.workerInitFn = b.workerInitFn;
        this.generator = b.generator;
        this.batchSampler = dataset == null ? null : b.indexBatches();
    }

    /** A builder over a map-style dataset ({@code DataLoader(dataset, ...)}); the batch type is the item type. */
    public static <T> Builder<T, T> builder(Dataset<T> dataset) {
        return new Builder<>(dataset, null);
    }

    /** A builder over an iterable-style dataset; the batch type is the item type. */
    public static <T> Builder<T, T> builder(IterableDataset<T> dataset) {
        return new Builder<>(null, dataset);
    }

    /** {@code len(loader)}: the number of batches of an epoch (map-style datasets only). */
    public int size() {
        if (batchSampler == null) throw new TorchTypeException("object of type 'IterableDataset' has no len()");
        return batchSampler.size();
    }

    /** {@code loader.batch_size}. */
    public int batchSize() {
        return batchSize;
    }

    /** {@code loader.num_workers}. */
    public int numWorkers() {
        return numWorkers;
    }

    /**
     * {@code iter(loader)}: one epoch. With {@code persistentWorkers} the same workers serve every epoch, and the base
     * seed is drawn once, when the first epoch starts (as PyTorch resets its one persistent iterator).
     */
    @Override
    public synchronized Iterator<B> iterator() {
        if (closed) throw new IllegalStateException("DataLoader is closed");
        if (persistentWorkers) {
            if (persistent == null) {
                persistent = new LoaderIterator<>(this, true);
                open.add(persistent);
            } else {
                persistent.reset();
            }
            return persistent;
        }
        LoaderIterator<B> it = new LoaderIterator<>(this, false);
        if (numWorkers > 0) open.add(it);
        return it;
    }

    void finished(LoaderIterator<B> it) {
        open.remove(it);
    }

    /**
     * Stops every worker thread of this loader and waits for them to end (PyTorch shuts its worker processes down when
     * the iterator is deleted); iterating afterwards is an error.
     */
    @Override
    public synchronized void close() {
        closed = true;
        for (LoaderIterator<B> it : List.copyOf(open)) it.shutdown();
        open.clear();
        persistent = null;
    }

    /**
     * The keyword arguments of {@code DataLoader(...)}.
     *
     * @param <T> the dataset's item type
     * @param <B> the batch type: {@code T} with the default collate, else what {@link #collateFn} returns
     */
    public static final class Builder<T, B> {
        private final Dataset<T> dataset;
        private final IterableDataset<T> iterableDataset;
        private int batchSize = 1;
        private boolean shuffle;
        private Sampler<Integer> sampler;
        private Sampler<List<Integer>> batchSamplerOption;
        private boolean dropLast;
        private Function<List<Object>, Object> collateFn = Builder::collateSameType;
        private int numWorkers;
        private Integer prefetchFactor;
        private boolean persistentWorkers;
        private boolean pinMemory;
        private Duration timeout = Duration.ZERO;
        private IntConsumer workerInitFn;
        private Generator generator;

        private Builder(Dataset<T> dataset, IterableDataset<T> iterableDataset) {
            this.dataset = dataset;
            this.iterableDataset = iterableDataset;
        }

        /** {@code batch_size} (default 1). */
        public Builder<T, B> batchSize(int batchSize) {
            this.batchSize = batchSize;
            return this;
        }

        /** {@code shuffle}: a {@link RandomSampler} over the dataset, with the loader's generator. */
        public Builder<T, B> shuffle(boolean shuffle) {
            this.shuffle = shuffle;
            return this;
        }

        /** {@code sampler}: the order of indices (exclusive with {@code shuffle}). */
        public Builder<T, B> sampler(Sampler<Integer> sampler) {
            this.sampler = sampler;
            return this;
        }

        /** {@code batch_sampler}: lists of indices (exclusive with batch size, shuffle, sampler and drop last). */
        public Builder<T, B> batchSampler(Sampler<List<Integer>> batchSampler) {
            this.batchSamplerOption = batchSampler;
            return this;
        }

        /** {@code drop_last}: drop the last batch when it is shorter than the batch size. */
        public Builder<T, B> dropLast(boolean dropLast) {
            this.dropLast = dropLast;
            return this;
        }

        /** {@code collate_fn}: turns a list of items into a batch (default: {@link Data#defaultCollate}). */
        @SuppressWarnings("unchecked")
        public <C> Builder<T, C> collateFn(Function<? super List<T>, ? extends C> collateFn) {
            Builder<T, C> self = (Builder<T, C>) this;
            self.collateFn = items -> collateFn.apply((List<T>) items);
            return self;
        }

        /** {@code num_workers}: worker threads (0, the default: load in the calling thread). */
        public Builder<T, B> numWorkers(int numWorkers) {
            this.numWorkers = numWorkers;
            return this;
        }

        /** {@code prefetch_factor}: batches in flight per worker (default 2; only with workers). */
        public Builder<T, B> prefetchFactor(int prefetchFactor) {
            this.prefetchFactor = prefetchFactor;
            return this;
        }

        /** {@code persistent_workers}: keep the workers between epochs (needs workers). */
        public Builder<T, B> persistentWorkers(boolean persistentWorkers) {
            this.persistentWorkers = persistentWorkers;
            return this;
        }

        /**
         * {@code pin_memory}: accepted; CPU batches need no pinning, so it changes nothing, and with no accelerator it
         * warns as PyTorch does.
         */
        public Builder<T, B> pinMemory(boolean pinMemory) {
            this.pinMemory = pinMemory;
            return this;
        }

        /** {@code timeout}: how long to wait for a worker's batch (zero, the default: for ever). */
        public Builder<T, B> timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** {@code worker_init_fn(worker_id)}: runs on each worker thread after its seeding, before it loads. */
        public Builder<T, B> workerInitFn(IntConsumer workerInitFn) {
            this.workerInitFn = workerInitFn;
            return this;
        }

        /** {@code generator}: draws the workers' base seed and, with {@code shuffle}, the order. */
        public Builder<T, B> generator(Generator generator) {
            this.generator = generator;
            return this;
        }

        /** Checks the options as {@code DataLoader.__init__} does and makes the loader. */
        public DataLoader<B> build() {
            if (numWorkers < 0) {
                throw new IllegalArgumentException("num_workers option should be non-negative; use num_workers=0 to "
                        + "disable multiprocessing.");
            }
            if (timeout.isNegative()) throw new IllegalArgumentException("timeout option should be non-negative");
            if (numWorkers == 0 && prefetchFactor != null) {
                throw new IllegalArgumentException("prefetch_factor option could only be specified in multiprocessing."
                        + "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.");
            }
            if (prefetchFactor != null && prefetchFactor <= 0)
                throw new IllegalArgumentException("prefetch_factor option should be positive");
            if (persistentWorkers && numWorkers == 0)
                throw new IllegalArgumentException("persistent_workers option needs num_workers > 0");
            if (iterableDataset != null) {
                if (shuffle) {
                    throw new IllegalArgumentException("DataLoader with IterableDataset: expected unspecified shuffle "
                            + "option, but got shuffle=True");
                }
                if (sampler != null) {
                    throw new IllegalArgumentException(
                            "DataLoader with IterableDataset: expected unspecified sampler option, but got sampler="
                                    + sampler);
                }
                if (batchSamplerOption != null) {
                    throw new IllegalArgumentException("DataLoader with IterableDataset: expected unspecified "
                            + "batch_sampler option, but got batch_sampler=" + batchSamplerOption);
                }
            }
            if (sampler != null && shuffle)
                throw new IllegalArgumentException("sampler option is mutually exclusive with shuffle");
            if (batchSamplerOption != null && (batchSize != 1 || shuffle || sampler != null || dropLast)) {
                throw new IllegalArgumentException(
                        "batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last");
            }
            if (batchSize <= 0) {
                throw new IllegalArgumentException(
                        "batch_size should be a positive integer value, but got batch_size=" + batchSize);
            }
            if (pinMemory && !Accelerator.isAvailable()) {
                Warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device pinned "
                        + "memory won't be used.");
            }
            return new DataLoader<>(this);
        }

        private Sampler<List<Integer>> indexBatches() {
            if (batchSamplerOption != null) return batchSamplerOption;
            Sampler<Integer> order = sampler != null
                    ? sampler
                    : shuffle ? new RandomSampler(dataset, false, null, generator) : new SequentialSampler(dataset);
            return new BatchSampler(order, batchSize, dropLast);
        }

        /**
         * The default collate as the builder's {@code B = T}: a batch keeps the structure of its items when their
         * leaves are tensors (a {@code List<Tensor>} item gives a {@code List<Tensor>} batch). An item that is itself a
         * number or a string would become a tensor or a list, which a loader of that item type cannot yield.
         */
        private static Object collateSameType(List<Object> items) {
            Object first = items.getFirst();
            if (first instanceof Number || first instanceof Boolean || first instanceof CharSequence) {
                throw new TorchTypeException("DataLoader: the default collate turns a batch of "
                        + first.getClass().getSimpleName() + " into a "
                        + (first instanceof CharSequence ? "List" : "Tensor")
                        + ", which a DataLoader of that item type cannot yield; pass "
                        + "collateFn(Data::defaultCollate) or a typed collate function");
            }
            return Collate.defaultCollate(items);
        }
    }
}

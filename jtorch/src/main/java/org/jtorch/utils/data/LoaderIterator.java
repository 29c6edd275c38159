package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jtorch.TorchException;

/**
 * One epoch of a {@link DataLoader} (PyTorch's {@code _SingleProcessDataLoaderIter} and
 * {@code _MultiProcessingDataLoaderIter}): the calling thread draws the index batches; without workers it loads them
 * itself, with workers it sends them round-robin to the workers' queues, at most {@code prefetchFactor * numWorkers}
 * ahead of the batch it yields next, and puts the results back in order.
 *
 * <p>An iterable-style dataset has no indices: each task asks a worker for its next batch, and a worker whose own
 * iterator is used up answers "exhausted" and gets no more tasks; the epoch ends when no worker is left.
 */
final class LoaderIterator<B> implements Iterator<B> {
    private static final long POLL_MILLIS = 100;

    private final DataLoader<B> loader;
    private final boolean persistent;
    private final WorkerThreads workers;
    private final BlockingQueue<WorkerThreads.Result> results = new LinkedBlockingQueue<>();
    private final Map<Long, WorkerThreads.Result> reorder = new HashMap<>();

    private long epoch;
    private Iterator<List<Integer>> indexBatches;
    private Iterator<?> singleThreadItems;
    private boolean[] active;
    private int nextWorker;
    private long sent;
    private long received;
    private B ready;
    private boolean done;

    LoaderIterator(DataLoader<B> loader, boolean persistent) {
        this.loader = loader;
        this.persistent = persistent;
        long baseSeed = RandomSampler.drawSeed(loader.generator);
        this.workers = loader.numWorkers > 0 ? new WorkerThreads(loader, baseSeed, results) : null;
        start();
    }

    /** The next epoch of persistent workers: a new index order, the same workers and seeds. */
    void reset() {
        epoch++;
        reorder.clear();
        ready = null;
        done = false;
        start();
    }

    private void start() {
        indexBatches = loader.batchSampler == null ? null : loader.batchSampler.iterator();
        if (workers == null) {
            singleThreadItems = loader.iterableDataset == null ? null : loader.iterableDataset.iterator();
            return;
        }
        active = new boolean[loader.numWorkers];
        java.util.Arrays.fill(active, true);
        nextWorker = 0;
        sent = received = 0;
        for (int i = 0; i < loader.prefetchFactor * loader.numWorkers; i++) tryPut();
    }

    @Override
    public boolean hasNext() {
        if (ready == null && !done) {
            ready = workers == null ? loadHere() : receive();
            if (ready == null) finish();
        }
        return ready != null;
    }

    @Override
    public B next() {
        if (!hasNext()) throw new NoSuchElementException();
        B b = ready;
        ready = null;
        return b;
    }

    // ---- without workers ---------------------------------------------------------------------------

    private B loadHere() {
        List<Object> items = new ArrayList<>();
        if (indexBatches != null) {
            if (!indexBatches.hasNext()) return null;
            for (int i : indexBatches.next()) items.add(loader.dataset.get(i));
        } else {
            while (items.size() < loader.batchSize && singleThreadItems.hasNext()) items.add(singleThreadItems.next());
            if (items.isEmpty() || (loader.dropLast && items.size() < loader.batchSize)) return null;
        }
        return collate(items);
    }

    @SuppressWarnings("unchecked") // the builder types collateFn as List<T> -> B
    B collate(List<Object> items) {
        return (B) loader.collateFn.apply(items);
    }

    // ---- with workers ------------------------------------------------------------------------------

    /** Sends the next task to the next active worker, unless the queue of tasks is full or nothing is left. */
    private void tryPut() {
        if (sent - received >= (long) loader.prefetchFactor * loader.numWorkers) return;
        List<Integer> indices = null;
        if (indexBatches != null) {
            if (!indexBatches.hasNext()) return;
            indices = indexBatches.next();
        }
        for (int k = 0; k < active.length; k++) {
            int w = nextWorker;
            nextWorker = (nextWorker + 1) % active.length;
            if (active[w]) {
                workers.send(w, new WorkerThreads.Task(epoch, sent++, indices));
                return;
            }
        }
    }

    private B receive() {
        while (true) {
            WorkerThreads.Result r = reorder.remove(received);
            if (r != null) {
                received++;
                if (r.exhausted()) {
                    active[r.worker()] = false;
                    tryPut();
                    continue;
                }
                tryPut();
                if (r.error() != null) {
                    finish();
                    throw workerError(r);
                }
                return collateDone(r);
            }
            if (received == sent) {
                tryPut();
                if (received == sent) return null;
            }
            WorkerThreads.Result got = poll();
            if (got.epoch() == epoch) reorder.put(got.seq(), got);
        }
    }

    @SuppressWarnings("unchecked") // the worker ran the loader's collateFn, typed List<T> -> B
    private B collateDone(WorkerThreads.Result r) {
        return (B) r.batch();
    }

    private WorkerThreads.Result poll() {
        long waited = 0;
        long limit = loader.timeout.isZero() ? Long.MAX_VALUE : loader.timeout.toMillis();
        try {
            while (true) {
                WorkerThreads.Result got = results.poll(Math.min(POLL_MILLIS, limit - waited), TimeUnit.MILLISECONDS);
                if (got != null) return got;
                waited += POLL_MILLIS;
                if (!workers.running()) throw new TorchException("DataLoader: its workers were stopped (closed)");
                if (waited >= limit) {
                    finish();
                    throw new TorchException("DataLoader timed out after " + loader.timeout.toSeconds() + " seconds");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            finish();
            throw new TorchException("DataLoader: interrupted while waiting for a worker", e);
        }
    }

    private static TorchException workerError(WorkerThreads.Result r) {
        Throwable cause = r.error();
        java.io.StringWriter trace = new java.io.StringWriter();
        cause.printStackTrace(new java.io.PrintWriter(trace));
        return new TorchException(
                "Caught " + cause.getClass().getSimpleName() + " in DataLoader worker " + r.worker()
                        + ".\nOriginal traceback (the worker's stack):\n" + trace,
                cause);
    }

    /** The end of an epoch: a non-persistent iterator stops its workers. */
    private void finish() {
        done = true;
        if (workers != null && !persistent) {
            workers.stop();
            loader.finished(this);
        }
    }

    /** Stops the workers for good (the loader is closing). */
    void shutdown() {
        done = true;
        if (workers != null) workers.stop();
    }
}

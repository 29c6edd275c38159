package org.jtorch.utils.data;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.jtorch.Generator;
import org.jtorch.Warnings;

/**
 * The worker threads of one loader iterator (PyTorch's worker processes and {@code _worker_loop}): each has its own
 * task queue, runs with its {@link WorkerInfo} and a default generator seeded with {@code baseSeed + id}, calls the
 * loader's {@code workerInitFn}, then loads a batch per task until it is stopped. Whatever a task throws is sent back
 * as its result, so that the caller raises it in order; an exception of {@code workerInitFn} answers every task.
 */
final class WorkerThreads {
    /** A batch to load: dataset indices, or null for the next batch of an iterable dataset. */
    record Task(long epoch, long seq, List<Integer> indices) {}

    /** A loaded batch, an error, or (iterable datasets) the news that this worker's iterator is used up. */
    record Result(long epoch, long seq, int worker, Object batch, Throwable error, boolean exhausted) {}

    private static final Task STOP = new Task(-1, -1, null);

    /**
     * Workers are platform threads unless {@code -Djtorch.dataloader.virtualThreads=true}: a worker computes (collates,
     * runs tensor ops with intra-op parallelism) as much as it waits, and the two kinds of thread delivered the same
     * rate for waiting items ({@code DataLoaderRun}, {@code docs/benchmarks.md}); the switch exists for that
     * comparison.
     */
    private static final boolean VIRTUAL = Boolean.getBoolean("jtorch.dataloader.virtualThreads");

    private static final long JOIN_MILLIS = 10_000;

    private final DataLoader<?> loader;
    private final BlockingQueue<Result> results;
    private final List<BlockingQueue<Task>> queues = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running = true;

    WorkerThreads(DataLoader<?> loader, long baseSeed, BlockingQueue<Result> results) {
        this.loader = loader;
        this.results = results;
        for (int w = 0; w < loader.numWorkers; w++) {
            BlockingQueue<Task> queue = new LinkedBlockingQueue<>();
            queues.add(queue);
            long seed = baseSeed + w;
            WorkerInfo info = new WorkerInfo(
                    w,
                    loader.numWorkers,
                    seed,
                    loader.dataset != null ? loader.dataset : loader.iterableDataset,
                    new Generator().manualSeed(seed));
            Thread t = (VIRTUAL ? Thread.ofVirtual() : Thread.ofPlatform().daemon())
                    .name("DataLoader-" + loader.id + " worker " + w)
                    .unstarted(() ->
                            Generator.runWithDefault(info.generator(), () -> ScopedValue.where(Data.WORKER_INFO, info)
                                    .run(() -> loop(info, queue))));
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    void send(int worker, Task task) {
        queues.get(worker).add(task);
    }

    boolean running() {
        return running;
    }

    private void loop(WorkerInfo info, BlockingQueue<Task> queue) {
        Throwable initError = null;
        if (loader.workerInitFn != null) {
            try {
                loader.workerInitFn.accept(info.id());
            } catch (Throwable t) {
                initError = t;
            }
        }
        long epoch = -1;
        Iterator<?> items = null;
        boolean exhausted = false;
        while (running) {
            Task task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == STOP) return;
            if (initError != null) {
                results.add(new Result(task.epoch(), task.seq(), info.id(), null, initError, false));
                continue;
            }
            if (task.epoch() != epoch) {
                epoch = task.epoch();
                items = null;
                exhausted = false;
            }
            try {
                if (task.indices() != null) {
                    List<Object> batch = new ArrayList<>(task.indices().size());
                    for (int i : task.indices()) batch.add(loader.dataset.get(i));
                    results.add(new Result(task.epoch(), task.seq(), info.id(), collate(batch), null, false));
                    continue;
                }
                if (items == null) items = loader.iterableDataset.iterator();
                List<Object> batch = new ArrayList<>(loader.batchSize);
                while (!exhausted && batch.size() < loader.batchSize) {
                    if (items.hasNext()) batch.add(items.next());
                    else exhausted = true;
                }
                boolean none = batch.isEmpty() || (loader.dropLast && batch.size() < loader.batchSize);
                results.add(new Result(task.epoch(), task.seq(), info.id(), none ? null : collate(batch), null, none));
            } catch (Throwable t) {
                results.add(new Result(task.epoch(), task.seq(), info.id(), null, t, false));
            }
        }
    }

    private Object collate(List<Object> batch) {
        return loader.collateFn.apply(batch);
    }

    /** Stops every worker and waits for it to end (a worker busy in user code is interrupted). */
    void stop() {
        if (!running) return;
        running = false;
        for (BlockingQueue<Task> q : queues) q.add(STOP);
        for (Thread t : threads) t.interrupt();
        for (Thread t : threads) {
            try {
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            if (t.isAlive()) Warnings.warn("DataLoader: worker thread '" + t.getName() + "' did not stop");
        }
    }
}

package org.jtorch.examples.serve;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * Groups concurrent requests into one forward pass. Connections (virtual threads) submit single examples; one worker
 * thread takes the oldest, adds every queued example of the same shape up to {@code maxBatch}, stacks them, runs the
 * model once and hands each caller its row. While a forward runs, new requests queue, so the busier the server the
 * larger its batches. A batch that is not full waits (at most {@code maxWaitNanos}) only for examples known to be on
 * their way: a connection {@linkplain #announce() announces} a request when it starts reading it and
 * {@linkplain #withdraw() withdraws} the announcement once its example is queued or refused. So one client pays no
 * waiting (nothing else is coming), while under load a batch gathers the requests still being read. Examples of another
 * shape wait for the next round, oldest first. When a batch's forward fails, its examples run again one by one, so only
 * the examples the model refuses fail.
 *
 * <p>{@link #close()} is graceful: it refuses new work, finishes every example already queued, then stops the worker.
 */
public final class BatchingQueue implements AutoCloseable {
    private record Job(Tensor example, CompletableFuture<Result> result) {}

    /** A caller's row of the batched output, and how many examples its batch had. */
    public record Result(Tensor output, int batchSize) {}

    private final ServedModel model;
    private final int maxBatch;
    private final long maxWaitNanos;
    private final LinkedBlockingQueue<Job> queue = new LinkedBlockingQueue<>();
    private final Deque<Job> deferred = new ArrayDeque<>();
    private final Thread worker;
    private final AtomicLong batches = new AtomicLong();
    private final AtomicLong examples = new AtomicLong();
    private final AtomicInteger announced = new AtomicInteger();
    private volatile boolean closed;

    public BatchingQueue(ServedModel model, int maxBatch, long maxWaitNanos) {
        if (maxBatch < 1) throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        if (maxWaitNanos < 0) throw new IllegalArgumentException("maxWaitNanos must be >= 0, got " + maxWaitNanos);
        this.model = model;
        this.maxBatch = maxBatch;
        this.maxWaitNanos = maxWaitNanos;
        // a platform thread: the forward is CPU-bound and runs JTorch's own parallel loops
        this.worker = Thread.ofPlatform().name("batcher").daemon(true).start(this::run);
    }

    /** Queues one (already validated) example; the future completes with its row of the batch's output. */
    public synchronized CompletableFuture<Result> submit(Tensor example) {
        CompletableFuture<Result> f = new CompletableFuture<>();
        if (closed) {
            f.completeExceptionally(new IllegalStateException("the server is shutting down"));
            return f;
        }
        queue.add(new Job(example, f));
        return f;
    }

    /** A request has started arriving: a batch that is not full may wait for its example. */
    public void announce() {
        announced.incrementAndGet();
    }

    /** An announced request's example is queued, or the request was refused: nothing more to wait for from it. */
    public void withdraw() {
        announced.decrementAndGet();
    }

    /** Forward passes run so far. */
    public long batches() {
        return batches.get();
    }

    /** Examples served so far. */
    public long examples() {
        return examples.get();
    }

    private void run() {
        try {
            while (!closed || !queue.isEmpty() || !deferred.isEmpty()) {
                Job first = deferred.isEmpty() ? queue.poll(50, TimeUnit.MILLISECONDS) : deferred.poll();
                if (first == null) continue;
                runBatch(collect(first));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        failRemaining();
    }

    /** The first job and every queued one of its shape, up to the batch limit. */
    private List<Job> collect(Job first) throws InterruptedException {
        List<Job> batch = new ArrayList<>(List.of(first));
        long[] shape = first.example().shape();
        // the examples deferred earlier first (they are the oldest), then the queue
        for (var it = deferred.iterator(); it.hasNext() && batch.size() < maxBatch; ) {
            Job j = it.next();
            if (Arrays.equals(j.example().shape(), shape)) {
                batch.add(j);
                it.remove();
            }
        }
        long deadline = System.nanoTime() + maxWaitNanos;
        while (batch.size() < maxBatch) {
            Job j = queue.poll();
            if (j == null) {
                // wait only for examples on their way: with none announced, the batch runs now
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed || announced.get() == 0) break;
                j = queue.poll(left, TimeUnit.NANOSECONDS);
                if (j == null) break;
            }
            if (Arrays.equals(j.example().shape(), shape)) batch.add(j);
            else deferred.add(j);
        }
        return batch;
    }

    private void runBatch(List<Job> batch) {
        try {
            List<Tensor> inputs = batch.stream().map(Job::example).toList();
            Tensor out = model.forward().apply(Torch.stack(inputs));
            if (out.dim() == 0 || out.size(0) != batch.size()) {
                throw new IllegalStateException(
                        "the model returned shape " + Arrays.toString(out.shape()) + " for a batch of " + batch.size());
            }
            batches.incrementAndGet();
            examples.addAndGet(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).result().complete(new Result(out.select(0, i).contiguous(), batch.size()));
            }
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.getFirst().result().completeExceptionally(e);
                return;
            }
            // one example the model refuses (a token id past its vocabulary) must not fail the others: each alone
            for (Job j : batch) runBatch(List.of(j));
        }
    }

    private void failRemaining() {
        List<Job> left = new ArrayList<>(deferred);
        queue.drainTo(left);
        for (Job j : left) j.result().completeExceptionally(new IllegalStateException("the server stopped"));
    }

    /** Refuses new examples, serves the queued ones, and stops the worker. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true; // under the lock submit takes: nothing is queued after this
        }
        try {
            worker.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

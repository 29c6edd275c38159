package org.jtorch.nn.parallel;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.graph.Edge;
import org.jtorch.autograd.graph.Node;
import org.jtorch.distributed.Distributed;
import org.jtorch.distributed.DistributedException;
import org.jtorch.distributed.ProcessGroup;
import org.jtorch.distributed.ReduceOp;
import org.jtorch.utils.hooks.RemovableHandle;

/**
 * DDP's gradient reducer, after PyTorch's {@code Reducer}: parameters are grouped into buckets, each bucket's gradients
 * are copied into one flat tensor as backward produces them, and the bucket is all-reduced (summed) asynchronously as
 * soon as it is complete, so that communication overlaps the rest of backward. Buckets are launched strictly in order,
 * so every rank issues the same sequence of collectives whatever order its hooks fire in. A bucket whose all-reduce has
 * finished is written back into {@code .grad} at the next hook; when the last bucket has been launched, the reducer
 * waits for the rest and writes them back divided by the world size, so backward returns with averaged gradients.
 *
 * <p>As in PyTorch, the buckets are rebuilt once, at the forward after the first synchronised backward (unless
 * {@code find_unused_parameters}): the parameters are then bucketed in the order their gradients arrived, as rank 0 saw
 * it, so each bucket is complete as early as backward allows. Until then, without {@code find_unused_parameters}, all
 * parameters of a dtype share one bucket, since the registration order only guesses the gradients' order. Beyond
 * PyTorch, the rebuilt buckets can end with a small final bucket, so that little remains to reduce after the last
 * gradient ({@link BucketAssignment#withFinalBucket}).
 */
final class Reducer {
    /** Where a parameter's gradient goes: bucket, place in the bucket, and the parameter's registration position. */
    private record Slot(int bucket, int index, int position) {}

    private final ProcessGroup group;
    private final int worldSize;
    private final boolean findUnusedParameters;
    private final long firstBucketBytes;
    private final long bucketCapBytes;
    /** The last rebuilt bucket's limit; 0 for none (PyTorch's buckets). */
    private final long finalBucketBytes;
    /** In reduction order. */
    private List<Bucket> buckets;

    /** Registration order: the same on every rank, unlike an identity map's. */
    private final List<Tensor> params;

    private final Map<Tensor, Slot> slots = new IdentityHashMap<>();
    /** Registration positions in the order the first synchronised backward produced their gradients. */
    private final List<Integer> readyOrder = new ArrayList<>();

    private boolean rebuilt;
    private final List<RemovableHandle> hooks = new ArrayList<>();

    /** Set by a forward that will be followed by a synchronised backward. */
    private boolean expectingGradients;

    private int nextBucket;
    /** The first bucket whose averaged gradients are not yet in {@code .grad}. */
    private int nextToWriteBack;

    private final Set<Tensor> marked = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Tensor> locallyUnused = Collections.newSetFromMap(new IdentityHashMap<>());

    private long lastGradientAt;
    private volatile DistributedDataParallel.BackwardTimeline timeline;

    /**
     * @param firstBucketBytes the first bucket's limit when buckets are assigned by size (PyTorch's
     *     {@code first_bucket_bytes_cap}: 1 MiB with the default cap, else the cap)
     * @param finalBucketBytes when positive, the rebuilt buckets end with one of at most this size (see
     *     {@link BucketAssignment#withFinalBucket})
     */
    Reducer(
            List<Tensor> params,
            ProcessGroup group,
            long firstBucketBytes,
            long bucketCapBytes,
            long finalBucketBytes,
            boolean findUnusedParameters) {
        this.group = group;
        this.worldSize = Distributed.worldSize(group);
        this.findUnusedParameters = findUnusedParameters;
        this.firstBucketBytes = firstBucketBytes;
        this.bucketCapBytes = bucketCapBytes;
        this.finalBucketBytes = finalBucketBytes;
        this.params = List.copyOf(params);
        // PyTorch's BucketCapacityConfig.compute_bucket_size_limits for the first iteration.
        long[] limits = !findUnusedParameters
                ? new long[] {Long.MAX_VALUE}
                : firstBucketBytes < bucketCapBytes
                        ? new long[] {firstBucketBytes, bucketCapBytes}
                        : new long[] {bucketCapBytes};
        List<List<Tensor>> assigned = BucketAssignment.bySize(this.params, limits);
        // Ordered by their first parameter's position, as PyTorch sorts them, then reversed: the reverse registration
        // order approximates the order in which backward produces gradients.
        Map<Tensor, Integer> position = new IdentityHashMap<>();
        for (int i = 0; i < params.size(); i++) position.put(params.get(i), i);
        assigned.sort((a, b) -> Integer.compare(position.get(a.getFirst()), position.get(b.getFirst())));
        Collections.reverse(assigned);
        installBuckets(assigned);
        for (Tensor p : params) hooks.add(p.registerPostAccumulateGradHook(this::markReady));
    }

    private void installBuckets(List<List<Tensor>> assigned) {
        List<Bucket> made = new ArrayList<>();
        for (List<Tensor> members : assigned)
            made.add(new Bucket(members, members.getFirst().dtype()));
        buckets = List.copyOf(made);
        slots.clear();
        for (int b = 0; b < buckets.size(); b++) {
            List<Tensor> members = buckets.get(b).params;
            for (int i = 0; i < members.size(); i++) {
                slots.put(members.get(i), new Slot(b, i, params.indexOf(members.get(i))));
            }
        }
    }

    /**
     * PyTorch's {@code Reducer::rebuild_buckets}, called at every forward with grad enabled: once, after the first
     * synchronised backward, rank 0's order of gradient arrival is broadcast and the parameters are bucketed in that
     * order (limits: the first bucket's, then the cap; and the final bucket's, when set), so every rank holds the same
     * buckets. Does nothing with {@code find_unused_parameters}, or before a synchronised backward has completed.
     *
     * @return whether the buckets were rebuilt
     */
    synchronized boolean rebuildBuckets() {
        checkPriorReductionFinished();
        if (rebuilt || findUnusedParameters || readyOrder.size() != params.size()) return false;
        Tensor order =
                Torch.tensor(readyOrder.stream().mapToLong(Integer::longValue).toArray());
        Distributed.broadcast(order, group.ranks().getFirst(), group);
        List<Tensor> ordered = new ArrayList<>();
        for (long position : order.toLongArray()) ordered.add(params.get((int) position));
        installBuckets(BucketAssignment.withFinalBucket(
                ordered, new long[] {firstBucketBytes, bucketCapBytes}, finalBucketBytes));
        rebuilt = true;
        readyOrder.clear();
        return true;
    }

    /** The bucket sizes in bytes, in reduction order (for diagnostics and tests). */
    List<Long> bucketBytes() {
        List<Long> sizes = new ArrayList<>();
        for (Bucket b : buckets) sizes.add(b.bytes());
        return sizes;
    }

    /** Each bucket's parameters' registration positions, in reduction order (for diagnostics and tests). */
    List<List<Integer>> bucketPositions() {
        List<List<Integer>> positions = new ArrayList<>();
        for (Bucket b : buckets) {
            List<Integer> members = new ArrayList<>();
            for (Tensor p : b.params) members.add(slots.get(p).position());
            positions.add(List.copyOf(members));
        }
        return List.copyOf(positions);
    }

    /**
     * Called after a forward whose backward must be synchronised. Fails as PyTorch does when the previous backward left
     * a reduction unfinished (a parameter got no gradient and {@code find_unused_parameters} is off). With
     * {@code find_unused_parameters}, marks the parameters the output does not depend on as ready, with zero gradient.
     */
    synchronized void prepareForBackward(Tensor output) {
        checkPriorReductionFinished();
        expectingGradients = true;
        nextBucket = 0;
        nextToWriteBack = 0;
        marked.clear();
        locallyUnused.clear();
        for (Bucket b : buckets) b.reset();
        if (!findUnusedParameters) return;
        Set<Node<Tensor>> reachable = reachableFrom(output);
        for (Tensor p : params) {
            if (!reachable.contains(p.gradAccumulator())) locallyUnused.add(p);
        }
        for (Tensor p : params) if (locallyUnused.contains(p)) ready(p, null);
    }

    private void checkPriorReductionFinished() {
        if (expectingGradients && !marked.isEmpty()) {
            throw new DistributedException("DistributedDataParallel: Expected to have finished reduction in the prior"
                    + " iteration before starting a new one. This error indicates that your module has parameters that"
                    + " were not used in producing loss (" + unreadyNames() + "). You can enable unused parameter"
                    + " detection by passing findUnusedParameters(true), and by making sure all forward function"
                    + " outputs participate in calculating loss.");
        }
    }

    /** The nodes of the backward graph reachable from {@code output}. */
    private static Set<Node<Tensor>> reachableFrom(Tensor output) {
        Set<Node<Tensor>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Node<Tensor>> todo = new ArrayDeque<>();
        if (output.gradFn() != null) todo.push(output.gradFn());
        while (!todo.isEmpty()) {
            Node<Tensor> n = todo.pop();
            if (!seen.add(n)) continue;
            for (Edge<Tensor> e : n.nextFunctions()) if (e != null && e.node() != null) todo.push(e.node());
        }
        return seen;
    }

    /** The post-accumulate-grad hook of every parameter. */
    private synchronized void markReady(Tensor param) {
        if (!expectingGradients) return; // no_sync, or a backward of a forward that did not go through DDP
        if (locallyUnused.contains(param)) {
            throw new DistributedException("DistributedDataParallel: a parameter found unused in forward received a"
                    + " gradient; its output was not part of the module's forward output");
        }
        lastGradientAt = System.nanoTime();
        ready(param, param.grad());
    }

    private void ready(Tensor param, Tensor grad) {
        if (!marked.add(param)) {
            throw new DistributedException("DistributedDataParallel: Expected to mark a variable ready only once. This"
                    + " error is caused by a parameter that participates in backward more than once per iteration"
                    + " (reentrant backward or a shared parameter used by two backward passes)");
        }
        Slot s = slots.get(param);
        // Recorded until the rebuild; one backward's worth (the next forward with grad enabled rebuilds).
        if (!rebuilt && !findUnusedParameters && readyOrder.size() < params.size()) readyOrder.add(s.position());
        Bucket bucket = buckets.get(s.bucket());
        try (var _ = Torch.noGrad()) {
            Tensor view = bucket.view(s.index());
            // A plain memory copy into the native bucket; the division by the world size is done in .grad, on the
            // heap, where JTorch's fast kernels run (see writeBack).
            if (grad == null) view.zero_();
            else view.copy_(grad);
        }
        bucket.pending--;
        while (nextBucket < buckets.size() && buckets.get(nextBucket).pending == 0) {
            Bucket b = buckets.get(nextBucket++);
            b.work = Distributed.allReduceAsync(b.flat, ReduceOp.SUM, group);
        }
        if (nextBucket == buckets.size()) {
            finishBackward();
            return;
        }
        // Buckets already reduced are written back now, between hooks, rather than in the tail after backward (with
        // findUnusedParameters the write-back needs the used map, known only at the end).
        while (!findUnusedParameters
                && nextToWriteBack < nextBucket
                && buckets.get(nextToWriteBack).work.isCompleted()) {
            writeBack(buckets.get(nextToWriteBack++), null);
        }
    }

    /** Waits for every bucket and writes the averaged gradients into the parameters' {@code .grad}. */
    private void finishBackward() {
        expectingGradients = false;
        marked.clear();
        Tensor globallyUsed = null;
        List<Tensor> ordered = params;
        if (findUnusedParameters) {
            // A parameter unused on every rank keeps its .grad untouched, as in PyTorch.
            globallyUsed = Torch.zeros(new long[] {ordered.size()}, DType.INT32, org.jtorch.Device.CPU);
            for (int i = 0; i < ordered.size(); i++) {
                if (!locallyUnused.contains(ordered.get(i)))
                    globallyUsed.select(0, i).fill_(1);
            }
            Distributed.allReduce(globallyUsed, ReduceOp.MAX, group);
        }
        long[] used = globallyUsed == null ? null : globallyUsed.toLongArray();
        while (nextToWriteBack < buckets.size()) writeBack(buckets.get(nextToWriteBack++), used);
        long communication = 0, firstStart = Long.MAX_VALUE;
        for (Bucket b : buckets) {
            communication += b.work.communicationNanos();
            firstStart = Math.min(firstStart, b.work.communicationStartNanos());
        }
        long end = System.nanoTime();
        timeline = new DistributedDataParallel.BackwardTimeline(
                buckets.size(), communication, Math.max(0, end - lastGradientAt), Math.max(0, end - firstStart));
    }

    /**
     * Waits for a bucket's all-reduce and puts its averaged gradients in {@code .grad} (skipping unused ones): the sum
     * over ranks divided by the world size. PyTorch's reducer divides while copying into the bucket instead; for a
     * world size that is a power of two both give the same bits (the division is exact), for others they may differ in
     * the last bit.
     */
    private void writeBack(Bucket b, long[] used) {
        b.work.await();
        try (var _ = Torch.noGrad()) {
            for (int i = 0; i < b.params.size(); i++) {
                Tensor p = b.params.get(i);
                if (used != null && used[slots.get(p).position()] == 0) continue;
                Tensor summed = b.view(i);
                if (p.grad() == null) p.setGrad(summed.clone());
                else p.grad().copy_(summed);
                if (worldSize > 1) p.grad().mul_(1.0 / worldSize);
            }
        }
    }

    DistributedDataParallel.BackwardTimeline timeline() {
        return timeline;
    }

    private String unreadyNames() {
        List<String> shapes = new ArrayList<>();
        for (Tensor p : params) {
            if (!marked.contains(p)) shapes.add(java.util.Arrays.toString(p.shape()));
        }
        return "parameters without gradient, by shape: " + String.join(", ", shapes);
    }

    /** Removes the gradient hooks. */
    void close() {
        for (RemovableHandle h : hooks) h.remove();
    }
}

package org.jtorch.nn.parallel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradMode;
import org.jtorch.distributed.Distributed;
import org.jtorch.distributed.DistributedException;
import org.jtorch.distributed.ProcessGroup;
import org.jtorch.distributed.ReduceOp;
import org.jtorch.distributed.Work;
import org.jtorch.nn.Module;

/**
 * {@code torch.nn.parallel.DistributedDataParallel}: wraps a module so that each rank of a process group trains a
 * replica on its own shard of the batch and every replica takes the same optimizer step.
 *
 * <p>At construction the ranks check they hold the same parameters and take rank 0's parameters and buffers. In
 * backward, each parameter's gradient is copied into its bucket divided by the world size, and each bucket is
 * all-reduced (summed) asynchronously as soon as it is complete, overlapping the rest of backward; at the end of
 * backward the parameters' {@code .grad} hold the average over ranks, exactly as PyTorch's DDP computes it. Buckets are
 * PyTorch's: one per dtype in the first iteration (with {@code find_unused_parameters}: 25 MiB by default, the first
 * one 1 MiB, in reverse registration order), rebuilt at the second forward in the order the first backward produced the
 * gradients; {@link Options#finalBucketCapMb} adds a small final bucket to the rebuilt ones, for a short tail after
 * backward. Buffers are broadcast from rank 0 before every forward ({@code broadcast_buffers}). Inside
 * {@link #noSync()} gradients accumulate locally, for gradient accumulation.
 *
 * <p>The wrapped module is registered as {@code module}, so state-dict keys gain the {@code module.} prefix as in
 * PyTorch; save {@link #module()}'s state dict for a checkpoint a single process can load.
 */
public final class DistributedDataParallel extends Module {
    /**
     * DDP's keyword arguments.
     *
     * @param processGroup the group to reduce over; null for the default group
     * @param bucketCapMb bucket size in MiB ({@code bucket_cap_mb}); null for PyTorch's default, 25 MiB with a 1 MiB
     *     first bucket (an explicit cap applies to the first bucket too, as in PyTorch)
     * @param broadcastBuffers whether buffers are broadcast from rank 0 before every forward (default true)
     * @param findUnusedParameters whether forward's output is traversed to find parameters that will get no gradient
     *     (default false)
     * @param finalBucketCapMb no PyTorch counterpart: when given, the rebuilt buckets end with a bucket of at most this
     *     many MiB (at least the last gradient's parameter) holding the gradients that arrive last, so that little is
     *     left to all-reduce after backward; null for PyTorch's buckets (the default). Without effect under
     *     {@code findUnusedParameters}, whose buckets are never rebuilt.
     */
    public record Options(
            ProcessGroup processGroup,
            Double bucketCapMb,
            boolean broadcastBuffers,
            boolean findUnusedParameters,
            Double finalBucketCapMb) {
        /** PyTorch's defaults: default group, default buckets, buffers broadcast, no unused-parameter search. */
        public static Options defaults() {
            return new Options(null, null, true, false, null);
        }

        /** {@code process_group}. */
        public Options processGroup(ProcessGroup group) {
            return new Options(group, bucketCapMb, broadcastBuffers, findUnusedParameters, finalBucketCapMb);
        }

        /** {@code bucket_cap_mb}; null for the default. */
        public Options bucketCapMb(Double mb) {
            return new Options(processGroup, mb, broadcastBuffers, findUnusedParameters, finalBucketCapMb);
        }

        /** {@code broadcast_buffers}. */
        public Options broadcastBuffers(boolean on) {
            return new Options(processGroup, bucketCapMb, on, findUnusedParameters, finalBucketCapMb);
        }

        /** {@code find_unused_parameters}. */
        public Options findUnusedParameters(boolean on) {
            return new Options(processGroup, bucketCapMb, broadcastBuffers, on, finalBucketCapMb);
        }

        /** The final bucket's cap in MiB; null for none (PyTorch's buckets). */
        public Options finalBucketCapMb(Double mb) {
            return new Options(processGroup, bucketCapMb, broadcastBuffers, findUnusedParameters, mb);
        }
    }

    private static final double MIB = 1 << 20;
    /** PyTorch's {@code _DEFAULT_BUCKET_CAP_MB}. */
    private static final double DEFAULT_BUCKET_CAP_MB = 25;
    /** PyTorch's {@code _DEFAULT_FIRST_BUCKET_BYTES}: a small first bucket keeps the tail after backward short. */
    private static final long DEFAULT_FIRST_BUCKET_BYTES = 1L << 20;

    private final Module module;
    private final Options options;
    private final ProcessGroup group;
    private final Reducer reducer;
    private boolean requireBackwardGradSync = true;

    /** {@code DistributedDataParallel(module)} with PyTorch's defaults. */
    public DistributedDataParallel(Module module) {
        this(module, Options.defaults());
    }

    /** {@code DistributedDataParallel(module, **options)}. */
    public DistributedDataParallel(Module module, Options options) {
        if (options.bucketCapMb() != null && !(options.bucketCapMb() > 0)) {
            throw new DistributedException(
                    "DistributedDataParallel: bucketCapMb must be positive, got " + options.bucketCapMb());
        }
        if (options.finalBucketCapMb() != null && !(options.finalBucketCapMb() > 0)) {
            throw new DistributedException(
                    "DistributedDataParallel: finalBucketCapMb must be positive, got " + options.finalBucketCapMb());
        }
        this.module = register("module", module);
        this.options = options;
        this.group = options.processGroup() != null ? options.processGroup() : Distributed.worldGroup();
        List<Tensor> params = trainableParameters(module);
        if (params.isEmpty()) {
            throw new DistributedException("DistributedDataParallel is not needed when a module doesn't have any"
                    + " parameter that requires a gradient.");
        }
        verifySameParameters(params);
        List<Tensor> state = new ArrayList<>(module.parameters());
        state.addAll(module.buffers());
        broadcastFromRankZero(state);
        long capBytes = (long) ((options.bucketCapMb() == null ? DEFAULT_BUCKET_CAP_MB : options.bucketCapMb()) * MIB);
        long firstBytes = options.bucketCapMb() == null ? DEFAULT_FIRST_BUCKET_BYTES : capBytes;
        long finalBytes =
                options.finalBucketCapMb() == null ? 0 : Math.max(1, (long) (options.finalBucketCapMb() * MIB));
        this.reducer = new Reducer(params, group, firstBytes, capBytes, finalBytes, options.findUnusedParameters());
    }

    private static List<Tensor> trainableParameters(Module module) {
        Set<Tensor> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Tensor> params = new ArrayList<>();
        for (Tensor p : module.parameters()) if (p.requiresGrad() && seen.add(p)) params.add(p);
        return params;
    }

    /**
     * PyTorch's {@code _verify_param_shape_across_processes}: the ranks must hold the same number of parameters with
     * the same shapes and dtypes, else the buckets would not line up.
     */
    private void verifySameParameters(List<Tensor> params) {
        long signature = params.size();
        long elements = 0;
        for (Tensor p : params) {
            signature = signature * 31 + java.util.Arrays.hashCode(p.shape());
            signature = signature * 31 + p.dtype().ordinal();
            elements += p.numel();
        }
        Tensor mine = Torch.tensor(new long[] {signature, elements});
        Tensor min = mine.clone(), max = mine.clone();
        Distributed.allReduce(min, ReduceOp.MIN, group);
        Distributed.allReduce(max, ReduceOp.MAX, group);
        if (!java.util.Arrays.equals(min.toLongArray(), max.toLongArray())) {
            throw new DistributedException("DistributedDataParallel: the ranks' modules differ (number, shapes or"
                    + " dtypes of parameters); this rank has " + params.size() + " trainable parameters with "
                    + elements + " elements");
        }
    }

    private void broadcastFromRankZero(List<Tensor> tensors) {
        int root = group.ranks().getFirst();
        List<Work> works = new ArrayList<>();
        try (var _ = Torch.noGrad()) {
            for (Tensor t : tensors) works.add(Distributed.broadcastAsync(t, root, group));
            for (Work w : works) w.await();
        }
    }

    /** The wrapped module ({@code ddp.module}). */
    public Module module() {
        return module;
    }

    /** The options this wrapper was made with. */
    public Options options() {
        return options;
    }

    /**
     * The forward of the wrapped module, after broadcasting its buffers from rank 0 ({@code broadcast_buffers}); with
     * grad enabled, first rebuilds the buckets if this is the first forward after a synchronised backward, and outside
     * {@link #noSync()} prepares the reduction of the coming backward.
     */
    @Override
    public Tensor forward(Tensor input) {
        if (GradMode.isEnabled()) reducer.rebuildBuckets();
        if (options.broadcastBuffers() && !module.buffers().isEmpty()) broadcastFromRankZero(module.buffers());
        Tensor output = module.call(input);
        if (GradMode.isEnabled() && requireBackwardGradSync) reducer.prepareForBackward(output);
        return output;
    }

    /**
     * {@code no_sync()}: within the scope, backward accumulates gradients locally without communication; the first
     * forward-backward after it reduces the accumulated gradients.
     */
    public NoSync noSync() {
        boolean before = requireBackwardGradSync;
        requireBackwardGradSync = false;
        return () -> requireBackwardGradSync = before;
    }

    /** The scope {@link #noSync()} opens; closing it restores synchronisation. */
    public interface NoSync extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Where the time of the last synchronised backward went, for tuning buckets and checking overlap.
     *
     * @param buckets the number of buckets all-reduced
     * @param allReduceNanos the MPI all-reduce time of all buckets together, on the communication thread
     * @param tailNanos from the arrival of the last gradient to the averaged gradients being in {@code .grad}: the
     *     communication backward could not hide
     * @param communicationSpanNanos from the first bucket's all-reduce starting to the gradients being written back
     */
    public record BackwardTimeline(int buckets, long allReduceNanos, long tailNanos, long communicationSpanNanos) {}

    /** The timeline of the last synchronised backward, or null before the first one. */
    public BackwardTimeline lastBackward() {
        return reducer.timeline();
    }

    /**
     * The gradient buckets' sizes in bytes, in the order they are reduced (PyTorch's {@code bucket_sizes}, then
     * {@code rebuilt_bucket_sizes} of {@code _get_ddp_logging_data()}).
     */
    public List<Long> bucketSizes() {
        return reducer.bucketBytes();
    }

    /**
     * The registration positions (in {@link #parameters()} order, trainable parameters only) of each bucket's
     * parameters, in reduction order (PyTorch's {@code rebuilt_per_bucket_param_indices} once rebuilt).
     */
    public List<List<Integer>> bucketParameterIndices() {
        return reducer.bucketPositions();
    }
}

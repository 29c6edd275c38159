package org.jtorch.examples.gpt;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.distributed.Distributed;
import org.jtorch.distributed.ReduceOp;
import org.jtorch.nn.Module;
import org.jtorch.nn.parallel.DistributedDataParallel;

/**
 * TrainGpt's {@code --ddp}: the process group, each rank's shard of the batch, the DDP wrapper, and what rank 0
 * reports. Every rank draws the same global batch from the same data generator and keeps its rows, so that N ranks see
 * exactly the samples one process would, in the same order, and a checkpoint resumes under any number of ranks. Off, it
 * is the identity: one rank, the whole batch, the model itself.
 */
public final class DataParallel implements AutoCloseable {
    private final boolean on;
    private final boolean initialisedHere;
    private final int rank;
    private final int world;
    private DistributedDataParallel ddp;

    /** Per timed step: the all-reduce time and the tail (nanoseconds), interleaved. */
    private final List<Long> stepFigures = new ArrayList<>();

    private int buckets;

    private DataParallel(boolean on, boolean initialisedHere, int rank, int world) {
        this.on = on;
        this.initialisedHere = initialisedHere;
        this.rank = rank;
        this.world = world;
    }

    /** Joins the MPI process group when {@code --ddp mpi}; checks that the batch splits evenly over the ranks. */
    public static DataParallel start(TrainOptions opts) {
        if (opts.ddp.equals("off")) return new DataParallel(false, false, 0, 1);
        boolean init = !Distributed.isInitialized();
        if (init) Distributed.initProcessGroup("mpi");
        DataParallel dp = new DataParallel(true, init, Distributed.rank(), Distributed.worldSize());
        if (opts.batch % dp.world != 0) {
            dp.close();
            throw new TorchException(
                    "--batch " + opts.batch + " does not split evenly over the " + dp.world + " ranks of --ddp");
        }
        return dp;
    }

    /** Whether this process prints and writes the outputs (rank 0, or the only process). */
    public boolean isLeader() {
        return rank == 0;
    }

    /** The number of ranks. */
    public int world() {
        return world;
    }

    /**
     * The model the training step calls: DDP around {@code model} under {@code --ddp} (buckets of {@code bucketMb} MiB,
     * or PyTorch's default when null; a final bucket of at most {@code finalBucketMb} MiB when given), else
     * {@code model}.
     */
    public Module wrap(Module model, Double bucketMb, Double finalBucketMb) {
        if (!on) return model;
        ddp = new DistributedDataParallel(
                model,
                DistributedDataParallel.Options.defaults().bucketCapMb(bucketMb).finalBucketCapMb(finalBucketMb));
        return ddp;
    }

    /** This rank's rows of a global batch (inputs and targets). */
    public Tensor[] shard(Tensor[] xy) {
        if (!on) return xy;
        long rows = xy[0].size(0) / world;
        return new Tensor[] {xy[0].narrow(0, rows * rank, rows), xy[1].narrow(0, rows * rank, rows)};
    }

    /** The loss over the whole global batch: the mean of the ranks' shard losses (equal shards). */
    public double meanOverRanks(Tensor loss) {
        if (!on) return loss.item();
        Tensor value = loss.detach().clone();
        Distributed.allReduce(value, ReduceOp.AVG);
        return value.item();
    }

    /** Adds the last backward's communication figures to the run's totals (after the warm-up). */
    public void recordStep() {
        if (ddp == null || ddp.lastBackward() == null) return;
        DistributedDataParallel.BackwardTimeline t = ddp.lastBackward();
        stepFigures.add(t.allReduceNanos());
        stepFigures.add(t.tailNanos());
        buckets = t.buckets();
    }

    /**
     * The gradient buckets, then lines on the communication per step, one per rank and one for the critical path (every
     * rank must call this, once: it gathers the figures), or an empty list when not distributed.
     *
     * <p>A rank's tail runs from its last gradient to the averaged gradients. A rank that finishes backward early also
     * waits there for the slower ones, which is load imbalance, not communication; the rank that finishes last waits
     * only for what backward could not hide. So the critical-path line takes, step by step, the rank with the shortest
     * tail (the last to finish) and reports its tail against its all-reduce time: the overlap the step achieved.
     */
    public List<String> summary() {
        if (ddp == null) return List.of();
        int steps = stepFigures.size() / 2;
        long[] mine = new long[stepFigures.size()];
        for (int i = 0; i < mine.length; i++) mine[i] = stepFigures.get(i);
        List<Tensor> all = new ArrayList<>();
        for (int r = 0; r < world; r++) all.add(Torch.zeros(new long[] {mine.length}, DType.INT64));
        Distributed.allGather(all, Torch.tensor(mine));
        long[][] figures = new long[world][];
        for (int r = 0; r < world; r++) figures[r] = all.get(r).toLongArray();
        List<String> lines = new ArrayList<>();
        lines.add("ddp: gradient buckets of " + ddp.bucketSizes() + " bytes, in the order they are all-reduced");
        if (steps == 0) return lines;
        for (int r = 0; r < world; r++) {
            double allReduce = 0, tail = 0;
            for (int s = 0; s < steps; s++) {
                allReduce += figures[r][2 * s] / 1e6 / steps;
                tail += figures[r][2 * s + 1] / 1e6 / steps;
            }
            lines.add(String.format(
                    "ddp rank %d: %d gradient buckets; all-reduce %.1f ms/step, last gradient to averaged gradients"
                            + " %.1f ms/step (%.0f%% of the all-reduce time)",
                    r, buckets, allReduce, tail, 100 * tail / allReduce));
        }
        double criticalAllReduce = 0, criticalTail = 0;
        for (int s = 0; s < steps; s++) {
            int last = 0;
            for (int r = 1; r < world; r++) if (figures[r][2 * s + 1] < figures[last][2 * s + 1]) last = r;
            criticalAllReduce += figures[last][2 * s] / 1e6 / steps;
            criticalTail += figures[last][2 * s + 1] / 1e6 / steps;
        }
        lines.add(String.format(
                "ddp critical path: the last rank to finish backward, last gradient to averaged gradients %.1f ms/step"
                        + " (%.0f%% of its all-reduce time, %.1f ms/step)",
                criticalTail, 100 * criticalTail / criticalAllReduce, criticalAllReduce));
        return lines;
    }

    /** Waits until every rank gets here (around checkpoint writes: nobody reads a half-written file). */
    public void barrier() {
        if (on) Distributed.barrier();
    }

    /** Leaves the process group if this run joined it. */
    @Override
    public void close() {
        if (initialisedHere && Distributed.isInitialized()) Distributed.destroyProcessGroup();
    }
}

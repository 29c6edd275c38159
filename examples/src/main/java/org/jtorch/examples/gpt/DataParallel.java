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

    private long timedSteps;
    private long allReduceNanos;
    private long tailNanos;
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
     * or PyTorch's default when null), else {@code model}.
     */
    public Module wrap(Module model, Double bucketMb) {
        if (!on) return model;
        ddp = new DistributedDataParallel(
                model, DistributedDataParallel.Options.defaults().bucketCapMb(bucketMb));
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
        timedSteps++;
        allReduceNanos += t.allReduceNanos();
        tailNanos += t.tailNanos();
        buckets = t.buckets();
    }

    /**
     * The gradient buckets, then lines on the communication per step, one per rank (every rank must call this, once: it
     * gathers the figures), or an empty list when not distributed. The tail differs between ranks: a rank that finishes
     * backward early also waits there for the slower ones, so the last rank to finish shows the communication backward
     * could not hide.
     */
    public List<String> summary() {
        if (ddp == null) return List.of();
        Tensor mine = Torch.tensor(new long[] {allReduceNanos, tailNanos, timedSteps});
        List<Tensor> all = new ArrayList<>();
        for (int r = 0; r < world; r++) all.add(Torch.zeros(new long[] {3}, DType.INT64));
        Distributed.allGather(all, mine);
        List<String> lines = new ArrayList<>();
        lines.add("ddp: gradient buckets of " + ddp.bucketSizes() + " bytes, in the order they are all-reduced");
        for (int r = 0; r < world; r++) {
            long[] f = all.get(r).toLongArray();
            if (f[2] == 0) continue;
            double allReduce = f[0] / 1e6 / f[2], tail = f[1] / 1e6 / f[2];
            lines.add(String.format(
                    "ddp rank %d: %d gradient buckets; all-reduce %.1f ms/step, last gradient to averaged gradients"
                            + " %.1f ms/step (%.0f%% of the all-reduce time)",
                    r, buckets, allReduce, tail, 100 * tail / allReduce));
        }
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

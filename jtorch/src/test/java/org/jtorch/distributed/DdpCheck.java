package org.jtorch.distributed;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.Tanh;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.parallel.DistributedDataParallel;
import org.jtorch.optim.SGD;
import org.jtorch.utils.data.DistributedSampler;
import org.jtorch.utils.data.TensorDataset;

/**
 * Run under {@code mpirun -np N} by {@link MpiLaunchTest}: DDP against one process. Every rank also trains a local,
 * non-distributed replica on the whole batch, and compares: after 20 SGD steps with N ranks × batch 8, the DDP model's
 * parameters must equal the replica's after 20 steps of batch 8·N over the same samples. Then gradient accumulation
 * under {@code noSync}, {@code findUnusedParameters}, and the {@link DistributedSampler}'s defaults.
 */
public final class DdpCheck {
    private DdpCheck() {}

    private static final int STEPS = 20, PER_RANK = 8;

    public static void main(String[] args) {
        Distributed.initProcessGroup("mpi", Duration.ofSeconds(60));
        int rank = Distributed.rank(), size = Distributed.worldSize();
        try {
            bucketsMatchPyTorch();
            trainingMatchesOneProcess(rank, size, (Double) null);
            trainingMatchesOneProcess(rank, size, 25.0);
            trainingMatchesOneProcess(rank, size, 0.0005); // several buckets, reduced in order
            trainingWithAFinalBucketMatchesOneProcess(rank, size);
            frozenParametersHaveNoBucketAndNoGradient(rank, size);
            aParameterWithoutGradientFailsTheNextForward(rank);
            noSyncAccumulates(rank, size);
            unusedParameters(rank, size);
            samplerShards(rank, size);
        } catch (Throwable t) {
            System.out.println("FAILED on rank " + rank + ": " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            Runtime.getRuntime().halt(1);
        }
        System.out.println("ddp: passed on rank " + rank + " of " + size);
        Distributed.destroyProcessGroup();
    }

    private static Module mlp() {
        return new Sequential(new Linear(6, 32), new Tanh(), new Linear(32, 32), new Tanh(), new Linear(32, 3));
    }

    /** Step {@code s}'s global batch (the same on every rank): PER_RANK × size samples. */
    private static Tensor[] batch(int s, int size) {
        Generator g = new Generator().manualSeed(1000 + s);
        Tensor x = Torch.randn(new long[] {(long) PER_RANK * size, 6}, g);
        Tensor y = Torch.randn(new long[] {(long) PER_RANK * size, 3}, g);
        return new Tensor[] {x, y};
    }

    /** Registered a, b, c, d; used d, c, a, b: backward produces b's gradient first, then a's, c's and d's. */
    private static final class Layers extends Module {
        final Linear a = register("a", new Linear(512, 512, false));
        final Linear b = register("b", new Linear(512, 256, false));
        final Linear c = register("c", new Linear(256, 512, false));
        final Linear d = register("d", new Linear(256, 256, false));

        @Override
        public Tensor forward(Tensor x) {
            return b.call(a.call(c.call(d.call(x).relu())).relu());
        }
    }

    /**
     * The buckets of the first iteration and, rebuilt at the second forward, in gradient-arrival order, against PyTorch
     * 2.13's for the same model ({@code python jtorch/src/test/python/print_ddp_buckets.py}).
     */
    private static void bucketsMatchPyTorch() {
        List<Integer> all = List.of(0, 1, 2, 3);
        checkBuckets(
                null,
                false,
                null,
                List.of(all),
                List.of(2359296L),
                List.of(List.of(1, 0), List.of(2, 3)),
                List.of(1572864L, 786432L));
        checkBuckets(
                0.3,
                false,
                null,
                List.of(all),
                List.of(2359296L),
                List.of(List.of(1), List.of(0), List.of(2), List.of(3)),
                List.of(524288L, 1048576L, 524288L, 262144L));
        checkBuckets(
                2.0,
                false,
                null,
                List.of(all),
                List.of(2359296L),
                List.of(List.of(1, 0, 2), List.of(3)),
                List.of(2097152L, 262144L));
        // find_unused_parameters: sized buckets in reverse registration order from the start, never rebuilt.
        List<List<Integer>> unused = List.of(List.of(1, 2, 3), List.of(0));
        checkBuckets(null, true, null, unused, List.of(1310720L, 1048576L), unused, List.of(1310720L, 1048576L));
        // A final bucket (no PyTorch counterpart), from the definition: the last gradients (d, then c, a, b) that fit
        // its cap, the rest as PyTorch assigns them. 0.3 MiB holds d (256 KiB); 2 MiB holds a, c and d (1.75 MiB).
        checkBuckets(
                null,
                false,
                0.3,
                List.of(all),
                List.of(2359296L),
                List.of(List.of(1, 0), List.of(2), List.of(3)),
                List.of(1572864L, 524288L, 262144L));
        checkBuckets(
                null,
                false,
                2.0,
                List.of(all),
                List.of(2359296L),
                List.of(List.of(1), List.of(0, 2, 3)),
                List.of(524288L, 1835008L));
        // Under find_unused_parameters the buckets are never rebuilt, so the final cap changes nothing.
        checkBuckets(null, true, 0.3, unused, List.of(1310720L, 1048576L), unused, List.of(1310720L, 1048576L));
    }

    private static void checkBuckets(
            Double capMb,
            boolean findUnused,
            Double finalMb,
            List<List<Integer>> first,
            List<Long> firstBytes,
            List<List<Integer>> rebuilt,
            List<Long> rebuiltBytes) {
        Torch.manualSeed(0);
        DistributedDataParallel ddp = new DistributedDataParallel(
                new Layers(),
                DistributedDataParallel.Options.defaults()
                        .bucketCapMb(capMb)
                        .findUnusedParameters(findUnused)
                        .finalBucketCapMb(finalMb));
        String what = "buckets, bucket_cap_mb=" + capMb + " find_unused_parameters=" + findUnused + " final bucket "
                + finalMb + " MiB";
        expectEqual(what + ", first iteration", first, ddp.bucketParameterIndices());
        expectEqual(what + ", first iteration's bytes", firstBytes, ddp.bucketSizes());
        for (int step = 0; step < 3; step++) ddp.call(Torch.randn(4, 256)).sum().backward();
        expectEqual(what + ", rebuilt", rebuilt, ddp.bucketParameterIndices());
        expectEqual(what + ", rebuilt bytes", rebuiltBytes, ddp.bucketSizes());
    }

    private static void expectEqual(String what, Object expected, Object actual) {
        if (!expected.equals(actual)) throw new AssertionError(what + ": expected " + expected + ", got " + actual);
    }

    private static void trainingMatchesOneProcess(int rank, int size, Double bucketMb) {
        trainingMatchesOneProcess(
                rank, size, DistributedDataParallel.Options.defaults().bucketCapMb(bucketMb));
    }

    /** The default buckets with a final one of 1,000 bytes: the first layer's bias and weight (896 bytes). */
    private static void trainingWithAFinalBucketMatchesOneProcess(int rank, int size) {
        DistributedDataParallel ddp = trainingMatchesOneProcess(
                rank, size, DistributedDataParallel.Options.defaults().finalBucketCapMb(1000.0 / (1 << 20)));
        expectEqual("buckets with a final one", List.of(4620L, 896L), ddp.bucketSizes());
    }

    private static DistributedDataParallel trainingMatchesOneProcess(
            int rank, int size, DistributedDataParallel.Options options) {
        Double bucketMb = options.bucketCapMb();
        Torch.manualSeed(rank); // different initial weights per rank: DDP must take rank 0's
        Module replicaOfMine = mlp();
        Torch.manualSeed(0);
        Module reference = mlp();
        DistributedDataParallel ddp = new DistributedDataParallel(replicaOfMine, options);
        assertParamsEqual("after construction (rank 0's weights)", reference, replicaOfMine, 0);
        SGD sgdDdp = new SGD(ddp.parameters(), 0.1);
        SGD sgdRef = new SGD(reference.parameters(), 0.1);
        for (int s = 0; s < STEPS; s++) {
            Tensor[] xy = batch(s, size);
            Tensor x = xy[0].narrow(0, (long) PER_RANK * rank, PER_RANK);
            Tensor y = xy[1].narrow(0, (long) PER_RANK * rank, PER_RANK);
            sgdDdp.zeroGrad();
            F.mseLoss(ddp.call(x), y).backward();
            sgdDdp.step();
            sgdRef.zeroGrad();
            F.mseLoss(reference.call(xy[0]), xy[1]).backward();
            sgdRef.step();
            // From the second step on, the buckets are the rebuilt ones.
            if (s == 1 && bucketMb != null && bucketMb < 1 && ddp.bucketSizes().size() < 3) {
                throw new AssertionError("expected several rebuilt buckets, got " + ddp.bucketSizes());
            }
        }
        assertParamsEqual("after " + STEPS + " steps, " + options, reference, replicaOfMine, 2e-6);
        return ddp;
    }

    /**
     * Parameters that do not require a gradient are in no bucket and keep no gradient; the others are averaged as
     * usual, against each rank's replica on its shard.
     */
    private static void frozenParametersHaveNoBucketAndNoGradient(int rank, int size) {
        Torch.manualSeed(0);
        Linear frozen = new Linear(6, 32);
        frozen.weight().requiresGrad(false);
        Module model = new Sequential(frozen, new Tanh(), new Linear(32, 3));
        DistributedDataParallel ddp = new DistributedDataParallel(
                model, DistributedDataParallel.Options.defaults().finalBucketCapMb(0.0001));
        Tensor[] xy = batch(11, size);
        for (int step = 0; step < 2; step++) { // the second backward runs on the rebuilt buckets
            ddp.zeroGrad();
            F.mseLoss(
                            ddp.call(xy[0].narrow(0, (long) PER_RANK * rank, PER_RANK)),
                            xy[1].narrow(0, (long) PER_RANK * rank, PER_RANK))
                    .backward();
        }
        // Trainable: the first bias (32), the second weight (96) and bias (3), in float32.
        long bytes = ddp.bucketSizes().stream().mapToLong(Long::longValue).sum();
        expectEqual("bytes in buckets with a frozen weight", 4L * (32 + 96 + 3), bytes);
        if (frozen.weight().grad() != null) throw new AssertionError("a frozen parameter got a gradient");
        Torch.manualSeed(0);
        Module reference = new Sequential(new Linear(6, 32), new Tanh(), new Linear(32, 3));
        F.mseLoss(reference.call(xy[0]), xy[1]).backward();
        List<Tensor> e = reference.parameters(), a = model.parameters();
        for (int i = 1; i < e.size(); i++)
            assertClose(
                    "grad " + i + " next to a frozen weight",
                    e.get(i).grad(),
                    a.get(i).grad(),
                    2e-6);
    }

    /**
     * Without {@code findUnusedParameters}, a trainable parameter that got no gradient leaves its bucket unreduced, and
     * the next forward fails, as PyTorch's does, naming the parameter by shape (every rank fails alike, before any
     * collective).
     */
    private static void aParameterWithoutGradientFailsTheNextForward(int rank) {
        Torch.manualSeed(0);
        DistributedDataParallel ddp = new DistributedDataParallel(new Branches(false));
        Tensor x = Torch.randn(4, 6);
        ddp.call(x).sum().backward();
        try {
            ddp.call(x);
        } catch (DistributedException expected) {
            if (!expected.getMessage().contains("Expected to have finished reduction in the prior iteration")
                    || !expected.getMessage().contains("[3, 6]")) {
                throw new AssertionError("rank " + rank + ": unexpected message " + expected.getMessage());
            }
            return;
        }
        throw new AssertionError("a parameter without gradient must fail the next forward");
    }

    private static void noSyncAccumulates(int rank, int size) {
        Torch.manualSeed(0);
        Module model = mlp();
        Torch.manualSeed(0);
        Module reference = mlp();
        DistributedDataParallel ddp = new DistributedDataParallel(model);
        Tensor[] xy = batch(99, size);
        int half = PER_RANK / 2;
        try (var _ = ddp.noSync()) {
            F.mseLoss(
                            ddp.call(xy[0].narrow(0, (long) PER_RANK * rank, half)),
                            xy[1].narrow(0, (long) PER_RANK * rank, half))
                    .backward();
        }
        F.mseLoss(
                        ddp.call(xy[0].narrow(0, (long) PER_RANK * rank + half, half)),
                        xy[1].narrow(0, (long) PER_RANK * rank + half, half))
                .backward();
        // Two half-batch means accumulated per rank, averaged over ranks: twice the gradient of the whole batch's mean.
        F.mseLoss(reference.call(xy[0]), xy[1]).mul(2.0).backward();
        assertGradsEqual("noSync accumulation", reference, model);
    }

    /** Uses its second layer only on rank 0, and never its third. */
    private static final class Branches extends Module {
        final Linear a = register("a", new Linear(6, 3));
        final Linear b = register("b", new Linear(6, 3));
        final Linear never = register("never", new Linear(6, 3));
        final boolean useB;

        Branches(boolean useB) {
            this.useB = useB;
        }

        @Override
        public Tensor forward(Tensor x) {
            Tensor y = a.call(x);
            return useB ? y.add(b.call(x)) : y;
        }
    }

    private static void unusedParameters(int rank, int size) {
        Torch.manualSeed(0);
        Branches mine = new Branches(rank == 0);
        DistributedDataParallel ddp = new DistributedDataParallel(
                mine, DistributedDataParallel.Options.defaults().findUnusedParameters(true));
        Tensor[] xy = batch(7, size);
        F.mseLoss(
                        ddp.call(xy[0].narrow(0, (long) PER_RANK * rank, PER_RANK)),
                        xy[1].narrow(0, (long) PER_RANK * rank, PER_RANK))
                .backward();
        // The reference: each rank's replica on its shard, gradients summed and divided by the number of ranks.
        List<Branches> replicas = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            Torch.manualSeed(0);
            Branches replica = new Branches(r == 0);
            F.mseLoss(
                            replica.call(xy[0].narrow(0, (long) PER_RANK * r, PER_RANK)),
                            xy[1].narrow(0, (long) PER_RANK * r, PER_RANK))
                    .backward();
            replicas.add(replica);
        }
        for (String name : List.of("a.weight", "a.bias", "b.weight", "b.bias")) {
            Tensor sum = Torch.zerosLike(mine.getParameter(name));
            for (Branches replica : replicas) {
                Tensor g = replica.getParameter(name).grad();
                if (g != null) sum = sum.add(g);
            }
            assertClose(
                    "findUnusedParameters grad of " + name,
                    sum.div((long) size),
                    mine.getParameter(name).grad(),
                    2e-6);
        }
        if (mine.never.weight().grad() != null) {
            throw new AssertionError("a parameter unused on every rank must keep no gradient");
        }
    }

    /** The sampler's defaults come from the process group (its shards are checked against PyTorch elsewhere). */
    private static void samplerShards(int rank, int size) {
        DistributedSampler defaults = new DistributedSampler(new TensorDataset(Torch.arange(10L)));
        if (defaults.size() != (10 + size - 1) / size)
            throw new AssertionError("default shard size " + defaults.size());
        List<Integer> all = new ArrayList<>();
        for (int r = 0; r < size; r++)
            new DistributedSampler(new TensorDataset(Torch.arange(10L)), size, r, true, 0, false).forEach(all::add);
        List<Integer> mine = new ArrayList<>();
        defaults.forEach(mine::add);
        for (int k = 0; k < mine.size(); k++) {
            if (!mine.get(k).equals(all.get(rank * defaults.size() + k))) {
                throw new AssertionError("rank " + rank + "'s default shard " + mine);
            }
        }
    }

    private static void assertParamsEqual(String what, Module expected, Module actual, double tol) {
        List<Tensor> e = expected.parameters(), a = actual.parameters();
        for (int i = 0; i < e.size(); i++) assertClose(what + " param " + i, e.get(i), a.get(i), tol);
    }

    private static void assertGradsEqual(String what, Module expected, Module actual) {
        List<Tensor> e = expected.parameters(), a = actual.parameters();
        for (int i = 0; i < e.size(); i++)
            assertClose(what + " grad " + i, e.get(i).grad(), a.get(i).grad(), 2e-6);
    }

    private static void assertClose(String what, Tensor expected, Tensor actual, double tol) {
        double[] e = expected.detach().contiguous().toDoubleArray(),
                a = actual.detach().contiguous().toDoubleArray();
        double worst = 0;
        for (int i = 0; i < e.length; i++) worst = Math.max(worst, Math.abs(e[i] - a[i]) / Math.max(1, Math.abs(e[i])));
        if (!(worst <= tol)) throw new AssertionError(what + ": largest relative difference " + worst);
    }
}

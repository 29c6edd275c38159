package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.dispatch.Spec;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.RandomOps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Activation checkpointing: equal gradients, recomputation counts, RNG replay, selective policies, errors. */
class CheckpointTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static Tensor matrix(int rows, int cols, double seed) {
        double[] v = new double[rows * cols];
        for (int i = 0; i < v.length; i++) v[i] = Math.sin(seed + 0.7 * i) * 0.9;
        return Torch.tensor(v, DType.FLOAT64, rows, cols);
    }

    /**
     * Counts the kernels the dispatcher runs below it, by op name (composites and views run no kernel of their own).
     */
    private static final class Counter implements Dispatcher.Mode {
        final Map<String, Integer> counts = new HashMap<>();

        @Override
        public Object process(Operator op, Object[] args, Dispatcher.Next next) {
            if (((OpDef) op).kernel() != null) counts.merge(op.name(), 1, Integer::sum);
            return next.call(op, args);
        }

        int get(String name) {
            return counts.getOrDefault(name, 0);
        }
    }

    private static Map<String, Integer> counting(Runnable body) {
        Counter c = new Counter();
        try (var _ = DispatchState.enter(DispatchState.Kind.MODE, c)) {
            body.run();
        }
        return c.counts;
    }

    @Test
    void specExampleGradientsAndCallCounts() {
        AtomicInteger calls = new AtomicInteger();
        Function<List<Tensor>, Tensor> f = xs -> {
            calls.incrementAndGet();
            return xs.get(0).sin().mul(2.0).exp().sum();
        };
        Tensor x1 = leaf(0.5, 1.0), x2 = leaf(0.5, 1.0);
        Tensor plain = f.apply(List.of(x1));
        plain.backward();
        assertEquals(1, calls.getAndSet(0));
        Tensor loss = Checkpoint.checkpoint(f, x2);
        assertEquals(1, calls.get());
        assertEquals("CheckpointFunctionBackward", loss.gradFn().name());
        loss.backward();
        assertEquals(2, calls.get()); // forward + recompute
        assertEquals(7.9900621, loss.item(), 1e-7);
        assertEquals(plain.item(), loss.item(), 0);
        assertArrayEquals(new double[] {4.5786950, 5.8151273}, x2.grad().toDoubleArray(), 1e-7);
        assertArrayEquals(x1.grad().toDoubleArray(), x2.grad().toDoubleArray(), 0);
    }

    /** A 3-layer MLP; the weights are read from the closure, so the checkpoint must find them itself. */
    private static Tensor mlp(Tensor x, List<Tensor> ws, boolean checkpointEachLayer) {
        Tensor h = x;
        for (Tensor w : ws) {
            Function<List<Tensor>, Tensor> layer = xs -> xs.get(0).matmul(w).relu();
            h = checkpointEachLayer ? Checkpoint.checkpoint(layer, h) : layer.apply(List.of(h));
        }
        return h.sum();
    }

    @Test
    void mlpGradientsAreBitwiseEqual() {
        for (int mode = 0; mode < 3; mode++) {
            List<Tensor> wsPlain = List.of(
                    matrix(4, 5, 0.1).requiresGrad(true),
                    matrix(5, 5, 1.1).requiresGrad(true),
                    matrix(5, 3, 2.1).requiresGrad(true));
            List<Tensor> wsCk = new ArrayList<>();
            for (Tensor w : wsPlain) wsCk.add(w.detach().clone().requiresGrad(true));
            Tensor xPlain = matrix(6, 4, 3.3).requiresGrad(true),
                    xCk = xPlain.detach().clone().requiresGrad(true);
            Tensor lossPlain = mlp(xPlain, wsPlain, false);
            Tensor lossCk =
                    switch (mode) {
                        case 0 -> mlp(xCk, wsCk, true);
                        case 1 -> Checkpoint.checkpoint(xs -> mlp(xs.get(0), wsCk, false), xCk); // the whole network
                        default -> Checkpoint.checkpoint(xs -> mlp(xs.get(0), wsCk, true), xCk); // nested checkpoints
                    };
            assertEquals(lossPlain.item(), lossCk.item(), 0);
            lossPlain.backward();
            lossCk.backward();
            assertArrayEquals(xPlain.grad().toDoubleArray(), xCk.grad().toDoubleArray(), 0, "mode " + mode);
            for (int i = 0; i < wsPlain.size(); i++) {
                assertArrayEquals(
                        wsPlain.get(i).grad().toDoubleArray(),
                        wsCk.get(i).grad().toDoubleArray(),
                        0,
                        "mode " + mode);
            }
        }
    }

    @Test
    void gradAndHigherOrderThroughACheckpoint() {
        Tensor x = leaf(0.3, -1.2, 0.8);
        Tensor w = leaf(0.5, 0.25, -2.0);
        Function<List<Tensor>, Tensor> body =
                xs -> xs.get(0).sin().mul(xs.get(0)).mul(w);
        assertTrue(Autograd.gradcheck(t -> Checkpoint.checkpoint(body, t), x));
        assertTrue(Autograd.gradgradcheck(t -> Checkpoint.checkpoint(body, t).sum(), x));
        // Autograd.grad leaves .grad alone and gives the captured (closure) tensor its gradient too.
        Tensor y = Checkpoint.checkpoint(body, x).sum();
        List<Tensor> g = Autograd.grad(List.of(y), List.of(x, w), Autograd.GradOptions.defaults());
        double[] xv = {0.3, -1.2, 0.8}, wv = {0.5, 0.25, -2.0};
        for (int i = 0; i < 3; i++) {
            assertEquals(
                    (Math.cos(xv[i]) * xv[i] + Math.sin(xv[i])) * wv[i],
                    g.get(0).toDoubleArray()[i],
                    1e-14);
            assertEquals(Math.sin(xv[i]) * xv[i], g.get(1).toDoubleArray()[i], 1e-14);
        }
        assertNull(x.grad());
        assertNull(w.grad());
        // An input passed twice, and read from the closure as well: every use is counted once.
        Tensor z = leaf(1.5, -0.5);
        Checkpoint.checkpoint(xs -> xs.get(0).mul(xs.get(1)).mul(z), z, z).sum().backward();
        assertArrayEquals(new double[] {3 * 2.25, 3 * 0.25}, z.grad().toDoubleArray(), 1e-14);
    }

    @Test
    void gradWithRespectToANonLeafNeitherRunsNorFreesItsHistory() {
        // The engine property the recompute relies on when it captures gradients at the region's inputs.
        Tensor x = leaf(0.2, -0.7);
        Tensor h = x.exp();
        Tensor g = Autograd.grad(h.sin().sum(), h, false);
        assertArrayEquals(new double[] {Math.cos(Math.exp(0.2)), Math.cos(Math.exp(-0.7))}, g.toDoubleArray(), 1e-15);
        assertNull(x.grad());
        h.sum().backward(); // ExpBackward0 was not run by grad(), so its saved output is still there
        assertArrayEquals(new double[] {Math.exp(0.2), Math.exp(-0.7)}, x.grad().toDoubleArray(), 1e-15);
    }

    @Test
    void randomOpsReplayTheForwardsNumbers() {
        Function<List<Tensor>, Tensor> dropoutLike = xs -> xs.get(0)
                .mul(RandomOps.rand(new long[] {4}, DType.FLOAT64))
                .exp()
                .sum();
        Generator gen = Generator.defaultGenerator();
        gen.manualSeed(1234);
        Tensor xPlain = leaf(0.1, 0.2, 0.3, 0.4);
        dropoutLike.apply(List.of(xPlain)).backward();
        double nextPlain = RandomOps.rand(new long[] {1}, DType.FLOAT64).item();

        gen.manualSeed(1234);
        Tensor xCk = leaf(0.1, 0.2, 0.3, 0.4);
        Checkpoint.checkpoint(dropoutLike, xCk).backward();
        double nextCk = RandomOps.rand(new long[] {1}, DType.FLOAT64).item();
        assertArrayEquals(xPlain.grad().toDoubleArray(), xCk.grad().toDoubleArray(), 0);
        assertEquals(nextPlain, nextCk, 0); // the recompute leaves the generator where the forward left it
    }

    @Test
    void selectivePolicySavesListedOpsAndRecomputesTheRest() {
        Tensor a = matrix(3, 4, 0.2), b = matrix(4, 2, 1.3);
        Function<List<Tensor>, Tensor> g =
                xs -> xs.get(0).matmul(xs.get(1)).sin().sum();
        Map<String, Tensor[]> grads = new HashMap<>();
        Map<String, Map<String, Integer>> counts = new HashMap<>();
        Map<String, Function<List<Tensor>, Tensor>> variants = Map.of(
                "plain", g,
                "full", xs -> Checkpoint.checkpoint(g, xs.get(0), xs.get(1)),
                "saveMm",
                        xs -> Checkpoint.checkpoint(g, CheckpointOptions.saveOnly(MatmulOps.MM), xs.get(0), xs.get(1)),
                "saveAll",
                        xs -> Checkpoint.checkpoint(
                                g,
                                CheckpointOptions.withPolicy(op -> CheckpointPolicy.MUST_SAVE),
                                xs.get(0),
                                xs.get(1)),
                "preferRecompute",
                        xs -> Checkpoint.checkpoint(
                                g,
                                CheckpointOptions.withPolicy(op -> CheckpointPolicy.PREFER_RECOMPUTE),
                                xs.get(0),
                                xs.get(1)));
        for (var v : variants.entrySet()) {
            Tensor x = a.detach().requiresGrad(true), y = b.detach().requiresGrad(true);
            counts.put(
                    v.getKey(), counting(() -> v.getValue().apply(List.of(x, y)).backward()));
            grads.put(v.getKey(), new Tensor[] {x.grad(), y.grad()});
        }
        Map<String, Integer> plain = counts.get("plain");
        assertEquals(plain.get("mm") + 1, counts.get("full").get("mm"));
        assertEquals(plain.get("sin") + 1, counts.get("full").get("sin"));
        assertEquals(plain.get("mm"), counts.get("saveMm").get("mm")); // saved: never run again
        assertEquals(plain.get("sin") + 1, counts.get("saveMm").get("sin"));
        assertEquals(plain, counts.get("saveAll")); // every op hands back its cached output
        assertEquals(counts.get("full"), counts.get("preferRecompute"));
        for (var e : grads.entrySet()) {
            assertArrayEquals(grads.get("plain")[0].toDoubleArray(), e.getValue()[0].toDoubleArray(), 0, e.getKey());
            assertArrayEquals(grads.get("plain")[1].toDoubleArray(), e.getValue()[1].toDoubleArray(), 0, e.getKey());
        }
    }

    @Test
    void policySeesBothPasses() {
        List<String> seen = new ArrayList<>();
        CheckpointOptions opts = CheckpointOptions.withPolicy((ctx, op, args) -> {
            seen.add((ctx.isRecompute() ? "recompute:" : "forward:") + op.name());
            return CheckpointPolicy.PREFER_SAVE;
        });
        Checkpoint.checkpoint(xs -> xs.get(0).exp().sum(), opts, leaf(1, 2)).backward();
        assertEquals(List.of("forward:exp", "forward:sum", "recompute:exp", "recompute:sum"), seen);
    }

    /** A test op with a side effect: doubles its input and counts how often its kernel ran. */
    private static final AtomicInteger EFFECTS = new AtomicInteger();

    private static final OpDef COUNTED_DOUBLE = OpDef.Unregistered.structured(
                    "counted_double(Tensor self) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), null);
                    },
                    (args, outs, spec) -> {
                        EFFECTS.incrementAndGet();
                        Tensor self = (Tensor) args[0], out = outs[0];
                        ElementIO io = ElementIO.of(out.dtype());
                        double[] v = self.toDoubleArray();
                        java.lang.foreign.MemorySegment data =
                                out.impl().storage().segment();
                        for (int i = 0; i < v.length; i++)
                            io.setDouble(data, out.impl().elementIndex(i), 2 * v[i]);
                    },
                    OpDef.Flag.SIDE_EFFECTS)
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0].mul(2.0)});

    @Test
    void sideEffectOpsRunOnceUnlessMustRecompute() {
        Function<List<Tensor>, Tensor> body =
                xs -> COUNTED_DOUBLE.call1(xs.get(0).exp()).sin().sum();
        Map<CheckpointPolicy, Integer> effects = new HashMap<>();
        for (CheckpointPolicy p : CheckpointPolicy.values()) {
            Tensor x = leaf(0.4, -0.3);
            EFFECTS.set(0);
            Checkpoint.checkpoint(body, CheckpointOptions.withPolicy(op -> p), x)
                    .backward();
            effects.put(p, EFFECTS.get());
            for (int i = 0; i < 2; i++) {
                double xi = new double[] {0.4, -0.3}[i];
                assertEquals(
                        Math.cos(2 * Math.exp(xi)) * 2 * Math.exp(xi), x.grad().toDoubleArray()[i], 1e-14, p.name());
            }
        }
        assertEquals(
                1, effects.get(CheckpointPolicy.PREFER_RECOMPUTE)); // saved even though the policy prefers recompute
        assertEquals(1, effects.get(CheckpointPolicy.MUST_SAVE));
        assertEquals(1, effects.get(CheckpointPolicy.PREFER_SAVE));
        assertEquals(2, effects.get(CheckpointPolicy.MUST_RECOMPUTE)); // explicit MUST_RECOMPUTE stays authoritative
        EFFECTS.set(0);
        Checkpoint.checkpoint(body, leaf(0.4, -0.3)).backward(); // plain checkpointing has no policy: everything reruns
        assertEquals(2, EFFECTS.get());
    }

    @Test
    void savedRandomOpsKeepTheStreamOfRecomputedOnes() {
        // The first rand is saved (not drawn again), the second recomputed: it must still draw the forward's numbers.
        Function<List<Tensor>, Tensor> body = xs -> xs.get(0)
                .mul(RandomOps.rand(new long[] {3}, DType.FLOAT64))
                .exp()
                .mul(RandomOps.rand(new long[] {3}, DType.FLOAT64))
                .sum();
        AtomicInteger randCalls = new AtomicInteger();
        CheckpointOptions firstSaved = CheckpointOptions.withPolicy(
                (ctx, op, args) -> op == RandomOps.RAND && randCalls.getAndIncrement() % 2 == 0
                        ? CheckpointPolicy.MUST_SAVE
                        : CheckpointPolicy.PREFER_RECOMPUTE);
        Generator.defaultGenerator().manualSeed(99);
        Tensor xPlain = leaf(0.5, 1.0, 1.5);
        body.apply(List.of(xPlain)).backward();
        Generator.defaultGenerator().manualSeed(99);
        Tensor xCk = leaf(0.5, 1.0, 1.5);
        Checkpoint.checkpoint(body, firstSaved, xCk).backward();
        assertArrayEquals(xPlain.grad().toDoubleArray(), xCk.grad().toDoubleArray(), 0);
    }

    @Test
    void mutatedCacheEntriesAndExtraBackwardsAreRefused() {
        Function<List<Tensor>, Tensor> body = xs -> {
            Tensor m = xs.get(0).mm(xs.get(1));
            m.mul_(2.0); // modifies the cached mm output
            return m.sin().sum();
        };
        Tensor a = matrix(2, 2, 0.4).requiresGrad(true), b = matrix(2, 2, 0.9).requiresGrad(true);
        Tensor loss = Checkpoint.checkpoint(body, CheckpointOptions.saveOnly(MatmulOps.MM), a, b);
        TorchException mutated = assertThrows(TorchException.class, loss::backward);
        assertEquals("Tensor cached during selective activation checkpoint has been mutated", mutated.getMessage());
        Checkpoint.checkpoint(body, CheckpointOptions.saveOnly(MatmulOps.MM).allowCacheEntryMutation(true), a, b)
                .backward();
        assertTrue(a.grad() != null);

        Tensor x = leaf(1, 2);
        Tensor y = Checkpoint.checkpoint(xs -> xs.get(0).exp().sum(), CheckpointOptions.saveOnly(PointwiseOps.EXP), x);
        Autograd.backward(List.of(y), null, true, false, null);
        TorchException extra = assertThrows(TorchException.class, y::backward);
        assertTrue(extra.getMessage().startsWith("Trying to backward an extra time."));
        Tensor z = Checkpoint.checkpoint(xs -> xs.get(0).exp().sum(), x);
        Autograd.backward(List.of(z), null, true, false, null);
        z.backward(); // plain checkpointing recomputes as often as asked
        assertArrayEquals(
                new double[] {3 * Math.exp(1), 3 * Math.exp(2)}, x.grad().toDoubleArray(), 1e-12);
    }

    @Test
    void recomputationThatDiffersIsAnError() {
        AtomicInteger calls = new AtomicInteger();
        Tensor x = leaf(1, 2, 3, 4);
        Tensor y = Checkpoint.checkpoint(
                xs -> calls.getAndIncrement() == 0
                        ? xs.get(0).exp()
                        : xs.get(0).exp().view(2, 2),
                x);
        CheckpointError e = assertThrows(CheckpointError.class, () -> y.sum().backward());
        assertTrue(e.getMessage()
                .startsWith(
                        "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata"));
        assertTrue(e.getMessage().contains("saved metadata: {'shape': [4]"));
    }

    @Test
    void withoutGradModeItIsAPlainCall() {
        Tensor x = leaf(1, 2);
        try (var _ = Torch.noGrad()) {
            Tensor y = Checkpoint.checkpoint(xs -> xs.get(0).exp(), x);
            assertFalse(y.requiresGrad());
        }
        Tensor c = Checkpoint.checkpoint(xs -> xs.get(0).exp(), Torch.tensor(new double[] {0}));
        assertFalse(c.requiresGrad());
        assertEquals(1.0, c.item(), 0);
        Tensor same = Checkpoint.checkpoint(xs -> xs.get(0), x); // returned as is: an alias gets the history
        assertTrue(x.isLeaf());
        same.mul(3.0).sum().backward();
        assertArrayEquals(new double[] {3, 3}, x.grad().toDoubleArray(), 0);
    }

    /**
     * Memory measurement (not asserted): live heap of a 16-layer MLP ({@code relu(h @ W)}, width 1024, batch 256,
     * float32) after the forward and at its peak during backward, above the heap holding the weights and the input,
     * without checkpointing, with each layer checkpointed, and with segments of four layers checkpointed. Run with
     * {@code -Djtorch.measure=true}.
     */
    @Test
    @EnabledIfSystemProperty(named = "jtorch.measure", matches = "true")
    void liveHeapDuringBackward() {
        measureMlp(1, false); // warm-up: class loading and the BLAS library leave heap behind on the first run
        System.out.println("16x1024 MLP, batch 256, float32 (weights 64 MiB, "
                + "one activation 1 MiB); live heap above weights and input"
                + " (peak: all / without the weight gradients accumulated so far):");
        for (int segment : new int[] {0, 1, 4}) {
            long[] r = measureMlp(segment == 0 ? 1 : segment, segment != 0);
            System.out.printf(
                    "  %-30s after forward %5.1f MiB, peak during backward %5.1f / %5.1f MiB%n",
                    segment == 0 ? "no checkpointing:" : "checkpoint every " + segment + " layer(s):",
                    r[0] / 1048576.0,
                    r[1] / 1048576.0,
                    r[2] / 1048576.0);
        }
    }

    private static long liveHeap() {
        System.gc();
        // Runtime, not MemoryMXBean: tests run inside module org.jtorch, which does not read java.management
        Runtime heap = Runtime.getRuntime();
        return heap.totalMemory() - heap.freeMemory();
    }

    /**
     * {after forward, peak during backward, peak during backward without the accumulated weight gradients}, in bytes
     * above the live heap holding the weights and the input.
     */
    private static long[] measureMlp(int segment, boolean checkpointing) {
        int layers = 16, width = 1024, batch = 256;
        Generator.defaultGenerator().manualSeed(0);
        List<Tensor> ws = new ArrayList<>();
        for (int i = 0; i < layers; i++) {
            ws.add(RandomOps.randn(new long[] {width, width}, DType.FLOAT32)
                    .mul(1.0 / Math.sqrt(width))
                    .requiresGrad(true));
        }
        Tensor x = RandomOps.randn(new long[] {batch, width}, DType.FLOAT32);
        long base = liveHeap();
        long[] peak = {0, 0};
        boolean[] backward = {false};
        Runnable sample = () -> {
            if (!backward[0]) return;
            long live = liveHeap() - base, grads = 0;
            for (Tensor w : ws)
                if (w.grad() != null) grads += w.grad().numel() * w.grad().elementSize();
            peak[0] = Math.max(peak[0], live);
            peak[1] = Math.max(peak[1], live - grads);
        };
        Tensor h = x;
        for (int s = 0; s < layers; s += segment) {
            List<Tensor> part = ws.subList(s, s + segment);
            Function<List<Tensor>, Tensor> body = xs -> {
                Tensor t = xs.get(0);
                for (Tensor w : part) t = t.matmul(w).relu();
                sample.run(); // during backward only in a recompute: its activations are live here
                return t;
            };
            h = checkpointing ? Checkpoint.checkpoint(body, h) : body.apply(List.of(h));
            h.registerHook(
                    g -> { // the gradient reached this segment's output: before its backward
                        sample.run();
                        return g;
                    });
        }
        for (Tensor w : ws)
            w.registerHook(
                    g -> { // a weight's gradient arrived: after its layer's backward
                        sample.run();
                        return g;
                    });
        Tensor loss = h.sum();
        long afterForward = liveHeap() - base;
        backward[0] = true;
        loss.backward();
        sample.run();
        return new long[] {afterForward, peak[0], peak[1]};
    }
}

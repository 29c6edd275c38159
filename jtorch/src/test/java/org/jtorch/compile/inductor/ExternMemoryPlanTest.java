package org.jtorch.compile.inductor;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradMode;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileCounters;
import org.jtorch.compile.CompileOptions;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.GraphModule;
import org.jtorch.nn.Linear;
import org.jtorch.nn.Module;
import org.jtorch.nn.functional.F;
import org.jtorch.ops.AttentionOps;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Extern calls (matrix products, fused attention) write their results into the compiled plan's storage through the ops'
 * {@code out=} path: counts of allocated bytes, reused buffers and op-allocated results are computed by hand from each
 * graph's steps (4×4 float32 buffers of 64 bytes), and every result is compared bit for bit with eager code, whose ops
 * run the same kernels into storage they allocate.
 */
class ExternMemoryPlanTest {
    private static final long BUFFER = 4 * 4 * Float.BYTES;
    private static final InductorConfig KEEP_OUTPUTS = InductorConfig.DEFAULT.withKeepOutputs(true);

    @BeforeEach
    void reset() {
        Compile.reset();
    }

    /** Bytes the plan allocated, buffers reused and results the ops allocated, over one call. */
    private static long[] countsOf(GraphCompiler.CompiledGraph g, Tensor... inputs) {
        CompileCounters before = Compile.counters();
        g.call(inputs);
        CompileCounters after = Compile.counters();
        return new long[] {
            after.planBytesAllocated() - before.planBytesAllocated(),
            after.buffersReused() - before.buffersReused(),
            after.externOutputsAllocated() - before.externOutputsAllocated()
        };
    }

    private static Tensor[] square(int n) {
        Tensor[] t = new Tensor[n];
        for (int i = 0; i < n; i++) t[i] = Torch.randn(4, 4);
        return t;
    }

    /** Projections of {@code x} by three matrices, fused attention over them, then a residual through relu. */
    private static Tensor attention(Tensor x, Tensor wq, Tensor wk, Tensor wv) {
        Tensor y = F.scaledDotProductAttention(x.matmul(wq), x.matmul(wk), x.matmul(wv));
        return y.relu().add(x);
    }

    @Test
    void matrixProductsAndAttentionAllocateNothingAfterTheFirstCall() {
        Torch.manualSeed(5);
        Tensor[] in = {Torch.randn(2, 3, 6, 8), Torch.randn(8, 8), Torch.randn(8, 8), Torch.randn(8, 8)};
        GraphModule gm =
                AttentionOps.capturingFused(() -> Fx.makeFx(a -> new Tensor[] {attention(a[0], a[1], a[2], a[3])}, in));
        String code = gm.printReadable();
        assertTrue(code.contains("_scaled_dot_product_flash_attention_for_cpu"), code);
        assertTrue(code.contains("aten.mm"), code);
        GraphCompiler.CompiledGraph g = Inductor.compile(gm);
        long outputBytes = 2 * 3 * 6 * 8 * Float.BYTES;

        long[] first = countsOf(g, in);
        assertEquals(0, first[2], "the first call's extern results are in the plan's storage");
        assertTrue(first[0] > outputBytes, "the first call allocates the intermediates: " + first[0]);
        Tensor[] other = {Torch.randn(2, 3, 6, 8), Torch.randn(8, 8), Torch.randn(8, 8), Torch.randn(8, 8)};
        // three products, the attention's output and log-sum-exp: all in kept storage, only the output is new
        long[] steady = countsOf(g, other);
        assertEquals(outputBytes, steady[0]);
        assertEquals(0, steady[2]);
        assertTrue(steady[1] >= 5, "reused: " + steady[1]);

        Tensor[] third = {Torch.randn(2, 3, 6, 8), Torch.randn(8, 8), Torch.randn(8, 8), Torch.randn(8, 8)};
        Tensor compiled = g.call(third)[0];
        assertArrayEquals(bits(attention(third[0], third[1], third[2], third[3])), bits(compiled));
    }

    @Test
    void twoDeadProductResultsShareStorage() {
        // mm1 → slot 0, mm2 → slot 1 (it reads mm1), mm3 → slot 0 (mm1 is dead), relu's output is the graph's
        GraphModule gm =
                Fx.makeFx(a -> new Tensor[] {a[0].mm(a[1]).mm(a[1]).mm(a[1]).relu()}, square(2));
        GraphCompiler.CompiledGraph g = Inductor.compile(gm);
        assertArrayEquals(new long[] {3 * BUFFER, 1, 0}, countsOf(g, square(2)));
        assertArrayEquals(new long[] {BUFFER, 3, 0}, countsOf(g, square(2)));
        Tensor[] in = square(2);
        Tensor expected = in[0].mm(in[1]).mm(in[1]).mm(in[1]).relu();
        assertArrayEquals(bits(expected), bits(g.call(in)[0]));
    }

    @Test
    void withoutBufferReuseTheOpsAllocateTheirResults() {
        GraphModule gm =
                Fx.makeFx(a -> new Tensor[] {a[0].mm(a[1]).mm(a[1]).mm(a[1]).relu()}, square(2));
        GraphCompiler.CompiledGraph g = Inductor.compile(gm, new InductorConfig(false, false, false));
        assertArrayEquals(new long[] {BUFFER, 0, 3}, countsOf(g, square(2)));
        assertArrayEquals(new long[] {BUFFER, 0, 3}, countsOf(g, square(2)));
    }

    @Test
    void eachInputSizeOfADynamicGraphHasItsOwnPlannedStorage() {
        // one graph with a symbolic batch size; each concrete size gets a plan whose products live in its storage
        BiFunction<Tensor, Tensor, Tensor> f = (x, w) -> x.mm(w).mm(w).relu();
        BiFunction<Tensor, Tensor, Tensor> compiled =
                Torch.compile(f, CompileOptions.defaults().dynamic(true).backend("inductor"));
        Tensor w = Torch.randn(4, 4);
        for (long rows : new long[] {3, 5, 3, 5}) {
            Tensor x = Torch.randn(rows, 4);
            CompileCounters before = Compile.counters();
            Tensor y = compiled.apply(x, w);
            CompileCounters after = Compile.counters();
            assertArrayEquals(bits(f.apply(x, w)), bits(y), rows + " rows");
            assertEquals(0, after.externOutputsAllocated() - before.externOutputsAllocated());
            assertEquals(1, after.graphs(), "one graph for every batch size");
        }
        // the second call of each size: only the output is new
        Tensor x = Torch.randn(3, 4);
        assertArrayEquals(new long[] {3 * 4 * Float.BYTES, 2, 0}, countsOf(x, w, compiled));
    }

    /** {@link #countsOf(GraphCompiler.CompiledGraph, Tensor...)} for a compiled function of two tensors. */
    private static long[] countsOf(Tensor x, Tensor w, BiFunction<Tensor, Tensor, Tensor> f) {
        CompileCounters before = Compile.counters();
        f.apply(x, w);
        CompileCounters after = Compile.counters();
        return new long[] {
            after.planBytesAllocated() - before.planBytesAllocated(),
            after.buffersReused() - before.buffersReused(),
            after.externOutputsAllocated() - before.externOutputsAllocated()
        };
    }

    @Test
    void callsAutogradRecordsLetTheOpsAllocate() {
        // autograd would record an out= call as a write into the plan's storage: with grad enabled and an input that
        // requires it, the three products allocate their results as eager code does
        GraphModule gm =
                Fx.makeFx(a -> new Tensor[] {a[0].mm(a[1]).mm(a[1]).mm(a[1]).relu()}, square(2));
        GraphCompiler.CompiledGraph g = Inductor.compile(gm);
        Tensor[] in = square(2);
        in[1].requiresGrad(true);
        assertArrayEquals(new long[] {BUFFER, 0, 3}, countsOf(g, in));
        in[1].requiresGrad(false);
        assertArrayEquals(new long[] {3 * BUFFER, 1, 0}, countsOf(g, in));
    }

    @Test
    void aProductReturnedByTheGraphIsNeverShared() {
        // mm(x, w) is an output: new on each call; sin → slot 0, mm(sin) → slot 1, the next product → slot 0
        GraphModule gm = Fx.makeFx(
                a -> new Tensor[] {a[0].mm(a[1]), a[0].sin().mm(a[1]).mm(a[1]).relu()}, square(2));
        GraphCompiler.CompiledGraph g = Inductor.compile(gm);
        assertArrayEquals(new long[] {4 * BUFFER, 1, 0}, countsOf(g, square(2)));
        Tensor[] in = square(2);
        Tensor[] first = g.call(in);
        long[] firstBits = bits(first[0]).clone();
        Tensor[] again = square(2);
        assertArrayEquals(new long[] {2 * BUFFER, 3, 0}, countsOf(g, again));
        Tensor[] second = g.call(again);
        assertArrayEquals(firstBits, bits(first[0]), "an output of the default mode is the caller's");
        assertArrayEquals(bits(in[0].mm(in[1])), firstBits);
        assertArrayEquals(bits(again[0].mm(again[1])), bits(second[0]));
        assertNotSame(
                first[0].impl().storage().array(), second[0].impl().storage().array());
    }

    @Test
    void aKeptProductOutputIsOverwrittenByTheNextCallUnlessFedBack() {
        GraphModule gm = Fx.makeFx(a -> new Tensor[] {a[0].relu().mm(a[1])}, square(2));
        GraphCompiler.CompiledGraph g = Inductor.compile(gm, KEEP_OUTPUTS);
        Tensor[] in = square(2);
        assertArrayEquals(new long[] {2 * BUFFER, 0, 0}, countsOf(g, in));
        assertArrayEquals(new long[] {0, 2, 0}, countsOf(g, in));

        Tensor y1 = g.call(in)[0];
        Tensor x2 = Torch.randn(4, 4);
        Tensor y2 = g.call(x2, in[1])[0];
        assertArrayEquals(bits(x2.relu().mm(in[1])), bits(y2));
        TorchException e = assertThrows(TorchException.class, y1::toDoubleArray);
        assertTrue(e.getMessage().contains("overwritten by a subsequent run"), e.getMessage());

        // y2 is an input of the next call, which therefore writes its output to new storage: y2 still reads
        long[] y2Bits = bits(y2).clone();
        Tensor y3 = g.call(y2, in[1])[0];
        assertArrayEquals(y2Bits, bits(y2));
        assertArrayEquals(bits(y2.relu().mm(in[1])), bits(y3));
    }

    /** Self-attention as TrainGpt's blocks compute it, then a projection: products, attention and their backwards. */
    private static final class Block extends Module {
        private final Linear qkv = register("qkv", new Linear(16, 48, false));
        private final Linear proj = register("proj", new Linear(16, 16));

        @Override
        public Tensor forward(Tensor x) {
            var parts = qkv.call(x).split(16, 2);
            Tensor q = heads(parts.get(0)), k = heads(parts.get(1)), v = heads(parts.get(2));
            Tensor y = F.scaledDotProductAttention(q, k, v, null, 0.0, true, null, false);
            return proj.call(y.transpose(1, 2).contiguous().view(x.size(0), x.size(1), 16));
        }

        private static Tensor heads(Tensor t) {
            return t.view(t.size(0), t.size(1), 4, 4).transpose(1, 2);
        }
    }

    /**
     * Training steps of the compiled block equal those of a compilation that lets every op allocate, bit for bit, and
     * eager's up to the order of the generated reductions' sums (the bias gradient's).
     */
    @Test
    void compiledTrainingStepsEqualAllocatingOnesAndEager() {
        Torch.manualSeed(9);
        Block model = new Block();
        Module compiled = Torch.compile(model, CompileOptions.defaults().backend("inductor"));
        Module allocating = Torch.compile(
                model, CompileOptions.defaults().backend("inductor").option("allow_buffer_reuse", false));
        List<Tensor> params = new ArrayList<>(model.parameters());
        for (int step = 0; step < 3; step++) {
            Tensor x = Torch.randn(2, 6, 16).requiresGrad(true);
            Tensor target = Torch.randn(2, 6, 16);
            List<Tensor> wrt = new ArrayList<>(params);
            wrt.add(x);
            Tensor eagerLoss = model.call(x).sub(target).square().mean();
            List<Tensor> eagerGrads = Autograd.grad(List.of(eagerLoss), wrt, Autograd.GradOptions.defaults());
            Tensor freshLoss = allocating.call(x).sub(target).square().mean();
            List<Tensor> freshGrads = Autograd.grad(List.of(freshLoss), wrt, Autograd.GradOptions.defaults());
            CompileCounters before = Compile.counters();
            Tensor loss = compiled.call(x).sub(target).square().mean();
            List<Tensor> grads = Autograd.grad(List.of(loss), wrt, Autograd.GradOptions.defaults());
            CompileCounters after = Compile.counters();
            assertEquals(0, after.graphBreaks());
            if (step > 0) {
                // forward and backward: products, attention and its backward write into the plans' storage
                assertEquals(0, after.externOutputsAllocated() - before.externOutputsAllocated());
                assertTrue(after.buffersReused() - before.buffersReused() >= 6, "reused in a step");
            }
            assertArrayEquals(bits(freshLoss), bits(loss), "loss at step " + step);
            assertEquals(eagerLoss.item(), loss.item(), 1e-6);
            for (int i = 0; i < wrt.size(); i++) {
                String what = "gradient " + i + " at step " + step;
                assertArrayEquals(bits(freshGrads.get(i)), bits(grads.get(i)), what);
                assertArrayEquals(
                        eagerGrads.get(i).toDoubleArray(), grads.get(i).toDoubleArray(), 1e-6, what);
            }
            try (GradMode.Scope _ = GradMode.set(false)) {
                for (int i = 0; i < params.size(); i++)
                    params.get(i).sub_(grads.get(i).mul(0.1));
            }
        }
    }
}

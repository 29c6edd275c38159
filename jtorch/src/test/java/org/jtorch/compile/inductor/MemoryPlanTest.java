package org.jtorch.compile.inductor;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileCounters;
import org.jtorch.compile.CompileMode;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.compile.trace.TraceFile;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.GraphModule;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Memory planning against hand-computed counts: on {@code relu(mm(cos(mm(sin(x), w)), w))} with 4×4 float32 tensors (64
 * bytes each) the kernels are sin, cos and relu, the matrix products extern calls written into the plan's storage too.
 * sin's buffer is dead once the first product has read it, so cos's output takes its storage; the first product's is
 * dead once cos has read it, so the second product's takes it; relu's output is the graph's. Results stay those of
 * allocating every buffer anew (bit for bit) and of eager code.
 */
class MemoryPlanTest {
    private static final long BUFFER = 4 * 4 * Float.BYTES;
    private static final InductorConfig NO_REUSE = new InductorConfig(false, false, false);
    private static final InductorConfig KEEP_OUTPUTS = InductorConfig.DEFAULT.withKeepOutputs(true);

    @BeforeEach
    void reset() {
        Compile.reset();
    }

    private static Tensor[] graphInputs() {
        Torch.manualSeed(11);
        return new Tensor[] {Torch.randn(4, 4), Torch.randn(4, 4)};
    }

    private static GraphModule chain() {
        return Fx.makeFx(
                in -> new Tensor[] {in[0].sin().mm(in[1]).cos().mm(in[1]).relu()}, graphInputs());
    }

    private static Tensor eager(Tensor x, Tensor w) {
        return x.sin().mm(w).cos().mm(w).relu();
    }

    /** Bytes allocated and buffers reused by one call. */
    private static long[] countsOf(GraphCompiler.CompiledGraph g, Tensor... inputs) {
        CompileCounters before = Compile.counters();
        g.call(inputs);
        CompileCounters after = Compile.counters();
        return new long[] {
            after.planBytesAllocated() - before.planBytesAllocated(), after.buffersReused() - before.buffersReused()
        };
    }

    @Test
    void aDeadIntermediatesStorageIsReusedAndKeptBetweenCalls() {
        Tensor[] in = graphInputs();
        GraphCompiler.CompiledGraph g = Inductor.compile(chain());
        // first call: sin's and the first product's buffers and the output allocated, cos and the second product reuse
        assertArrayEquals(new long[] {3 * BUFFER, 2}, countsOf(g, in));
        // steady state: all four intermediates in the kept storage, only the output is new
        assertArrayEquals(new long[] {BUFFER, 4}, countsOf(g, in));
        assertEquals(6, Compile.counters().buffersReused());
        assertEquals(0, Compile.counters().externOutputsAllocated());
    }

    @Test
    void withoutBufferReuseEveryKernelOutputIsAllocatedOnEveryCall() {
        Tensor[] in = graphInputs();
        GraphCompiler.CompiledGraph g = Inductor.compile(chain(), NO_REUSE);
        assertArrayEquals(new long[] {3 * BUFFER, 0}, countsOf(g, in));
        assertArrayEquals(new long[] {3 * BUFFER, 0}, countsOf(g, in));
    }

    @Test
    void keptOutputsMakeTheSteadyStateAllocateNothing() {
        Tensor[] in = graphInputs();
        GraphCompiler.CompiledGraph g = Inductor.compile(chain(), KEEP_OUTPUTS);
        assertArrayEquals(new long[] {3 * BUFFER, 2}, countsOf(g, in));
        assertArrayEquals(new long[] {0, 5}, countsOf(g, in));
    }

    @Test
    void reusedStorageGivesTheSameBitsAsNewStorageAndEagersValues() {
        GraphModule gm = chain();
        GraphCompiler.CompiledGraph reuse = Inductor.compile(gm), fresh = Inductor.compile(gm, NO_REUSE);
        Tensor[] in = graphInputs();
        Tensor first = reuse.call(in)[0];
        long[] firstBits = bits(first).clone();
        // other values through the same kept storage: nothing of the first call may show through
        Tensor x2 = Torch.randn(4, 4), w2 = Torch.randn(4, 4);
        Tensor second = reuse.call(x2, w2)[0];
        assertArrayEquals(bits(fresh.call(x2, w2)[0]), bits(second));
        assertArrayEquals(eager(x2, w2).toDoubleArray(), second.toDoubleArray(), 1e-5);
        assertArrayEquals(firstBits, bits(first), "an output of the default mode is the caller's");
    }

    @Test
    void anIntermediateReturnedThroughAViewIsNeverShared() {
        // cos's buffer is returned as its transpose (a view, run as an extern call): it escapes with the output
        GraphModule gm =
                Fx.makeFx(in -> new Tensor[] {in[0].sin().mm(in[1]).cos().t()}, graphInputs());
        GraphCompiler.CompiledGraph g = Inductor.compile(gm);
        Tensor[] in = graphInputs();
        Tensor first = g.call(in)[0];
        long[] firstBits = bits(first.contiguous()).clone();
        // sin's and the product's buffers kept, cos's new on each call
        assertArrayEquals(new long[] {BUFFER, 2}, countsOf(g, Torch.randn(4, 4), Torch.randn(4, 4)));
        assertArrayEquals(firstBits, bits(first.contiguous()));
        assertArrayEquals(in[0].sin().mm(in[1]).cos().t().toDoubleArray(), first.toDoubleArray(), 1e-5);
    }

    @Test
    void aKeptOutputReadAfterTheNextCallThrows() {
        GraphCompiler.CompiledGraph g = Inductor.compile(chain(), KEEP_OUTPUTS);
        Tensor[] in = graphInputs();
        Tensor first = g.call(in)[0];
        Tensor view = first.t();
        Tensor x2 = Torch.randn(4, 4);
        Tensor second = g.call(x2, in[1])[0];
        assertArrayEquals(eager(x2, in[1]).toDoubleArray(), second.toDoubleArray(), 1e-5);
        TorchException e = assertThrows(TorchException.class, first::toDoubleArray);
        assertTrue(e.getMessage().contains("overwritten by a subsequent run"), e.getMessage());
        assertThrows(TorchException.class, () -> view.add(1));
    }

    @Test
    void aKeptOutputFedBackInIsNotOverwrittenWhileRead() {
        GraphCompiler.CompiledGraph g = Inductor.compile(chain(), KEEP_OUTPUTS);
        Tensor[] in = graphInputs();
        Tensor y1 = g.call(in)[0];
        Tensor y2 = g.call(y1, in[1])[0];
        assertArrayEquals(eager(eager(in[0], in[1]), in[1]).toDoubleArray(), y2.toDoubleArray(), 1e-4);
        // y1 was an input of that call, which therefore wrote y2 to new storage: y1 still reads
        assertArrayEquals(eager(in[0], in[1]).toDoubleArray(), y1.toDoubleArray(), 1e-5);
    }

    @Test
    void theTraceRecordsWhichBufferReusesWhosStorage(@TempDir Path dir) throws Exception {
        Tensor[] in = graphInputs();
        try (TraceFile _ = StructuredTrace.start(dir)) {
            Torch.compile((BiFunction<Tensor, Tensor, Tensor>) MemoryPlanTest::eager, CompileOptions.defaults())
                    .apply(in[0], in[1]);
        }
        String log;
        try (var files = Files.list(dir)) {
            log = Files.readString(files.findFirst().orElseThrow());
        }
        assertTrue(log.contains("inductor_fusion_decisions"), log);
        assertTrue(log.matches("(?s).*buffer cos\\w* reuses the storage of sin.*"), log);
    }

    @Test
    void reduceOverheadTrainsAsTheDefaultModeAndOverwritesTheLastLoss() {
        BiFunction<Tensor, Tensor, Tensor> f =
                (x, w) -> x.sin().mm(w).cos().mul(w).sum();
        BiFunction<Tensor, Tensor, Tensor> compiled =
                Torch.compile(f, CompileOptions.defaults().mode(CompileMode.REDUCE_OVERHEAD));
        Tensor[] in = graphInputs();
        Tensor x = in[0].requiresGrad(true), w = in[1].requiresGrad(true);
        Tensor expected = f.apply(x, w);
        expected.backward();
        double[] gx = x.grad().toDoubleArray(), gw = w.grad().toDoubleArray();
        Tensor lastLoss = null;
        for (int step = 0; step < 3; step++) {
            x.setGrad(null);
            w.setGrad(null);
            Tensor loss = compiled.apply(x, w);
            assertEquals(expected.item(), loss.item(), 1e-5);
            loss.backward();
            assertArrayEquals(gx, x.grad().toDoubleArray(), 1e-5);
            assertArrayEquals(gw, w.grad().toDoubleArray(), 1e-5);
            if (lastLoss != null) assertThrows(TorchException.class, lastLoss::item);
            lastLoss = loss;
        }
    }
}

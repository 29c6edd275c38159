package org.jtorch.compile.inductor;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.compile.trace.TraceFile;
import org.jtorch.fx.Fx;
import org.jtorch.fx.GraphModule;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend against eager: fused kernels compute eager's values within float rounding (exactly for integers and
 * booleans), each row op is one kernel, intermediates read only by fused consumers are not stored, combo kernels group
 * independent kernels without changing a bit, and results do not depend on the thread count.
 */
class InductorTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    private static void assertClose(Tensor expected, Tensor actual, double tol) {
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        assertEquals(expected.dtype(), actual.dtype(), "dtype");
        assertArrayEquals(expected.toDoubleArray(), actual.toDoubleArray(), tol);
    }

    private static long kernelsOf(Function<Tensor, Tensor> fn, Tensor x) {
        long before = Compile.counters().kernels();
        Torch.compile(fn, CompileOptions.defaults()).apply(x);
        return Compile.counters().kernels() - before;
    }

    @Test
    void aPointwiseChainIsOneKernelAndMatchesEager() {
        Torch.manualSeed(0);
        Tensor x = Torch.randn(300, 70), b = Torch.randn(70);
        Function<Tensor, Tensor> f = t -> t.mul(1.5)
                .add(b)
                .relu()
                .sub(0.5)
                .mul(t)
                .exp()
                .tanh()
                .abs()
                .neg()
                .sigmoid();
        assertClose(f.apply(x), Torch.compile(f, CompileOptions.defaults()).apply(x), 1e-6);
        assertEquals(1, kernelsOf(f, x));
    }

    @Test
    void softmaxLayerNormAndGeluRowsAreOnePassEach() {
        Torch.manualSeed(1);
        Tensor x = Torch.randn(64, 96), w = Torch.randn(96), b = Torch.randn(96);
        List<Function<Tensor, Tensor>> rows = List.of(
                t -> F.softmax(t, -1),
                t -> F.logSoftmax(t, 0),
                t -> F.layerNorm(t, new long[] {96}, w, b, 1e-5),
                t -> F.gelu(t.add(b)),
                // softmax spelled out: max, subtract, exp, sum, divide fuse into one row kernel
                t -> {
                    Tensor e = t.sub(t.amax(new long[] {-1}, true)).exp();
                    return e.div(e.sum(new long[] {-1}, true));
                });
        for (Function<Tensor, Tensor> f : rows) {
            assertClose(f.apply(x), Torch.compile(f, CompileOptions.defaults()).apply(x), 2e-6);
            assertEquals(1, kernelsOf(f, x));
        }
    }

    @Test
    void reductionsOverAnyDimensionsMatchEager() {
        Torch.manualSeed(2);
        Tensor x = Torch.randn(5, 7, 9);
        List<Function<Tensor, Tensor>> fns = List.of(
                t -> t.sum(new long[] {0}, false),
                t -> t.mean(new long[] {0, 2}, true),
                t -> t.amax(new long[] {1}, false),
                t -> t.transpose(0, 2).sum(),
                t -> t.gt(0).all(new long[] {2}, false).to(DType.FLOAT32));
        for (Function<Tensor, Tensor> f : fns) {
            assertClose(f.apply(x), Torch.compile(f, CompileOptions.defaults()).apply(x), 1e-5);
        }
    }

    @Test
    void everyDtypeTheGraphUsesComputesAsEagerDoes() {
        Torch.manualSeed(3);
        Tensor x = Torch.randn(33, 17);
        for (DType dtype : List.of(DType.FLOAT16, DType.BFLOAT16, DType.FLOAT64)) {
            Tensor in = x.to(dtype);
            Function<Tensor, Tensor> f = t -> t.mul(0.5).add(1).exp().sum(new long[] {1}, false);
            Tensor expected = f.apply(in),
                    actual = Torch.compile(f, CompileOptions.defaults()).apply(in);
            assertEquals(dtype, actual.dtype());
            // eager rounds every op to 16 bits, the fused kernel once: a few units in the last place of the sums
            double relative = dtype == DType.FLOAT64 ? 1e-12 : dtype == DType.FLOAT16 ? 4e-3 : 3e-2;
            double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
            for (int i = 0; i < e.length; i++) assertEquals(e[i], a[i], relative * Math.abs(e[i]), dtype + " " + i);
        }
        Tensor ints = Torch.randint(-50, 50, 40, 3).to(DType.INT32);
        Function<Tensor, Tensor> g = t -> t.mul(t).mul(t).add(7).remainder(5).sum(new long[] {1}, false);
        Tensor expected = g.apply(ints),
                actual = Torch.compile(g, CompileOptions.defaults()).apply(ints);
        assertEquals(expected.dtype(), actual.dtype());
        assertArrayEquals(expected.toDoubleArray(), actual.toDoubleArray(), 0);
        Tensor bytes = Torch.randint(0, 255, 50).to(DType.UINT8);
        Function<Tensor, Tensor> h = t -> t.mul(t); // wraps at 256, as eager's uint8 multiply
        assertArrayEquals(
                h.apply(bytes).toDoubleArray(),
                Torch.compile(h, CompileOptions.defaults()).apply(bytes).toDoubleArray(),
                0);
    }

    @Test
    void stridedAndBroadcastInputsAndViewsOfFusedValues() {
        Torch.manualSeed(4);
        Tensor x = Torch.randn(16, 24), y = Torch.randn(24, 16);
        Function<Tensor, Tensor> f =
                t -> t.add(y.t()).mul(2).view(4, 4, 24).permute(2, 0, 1).exp().sum(new long[] {1}, false);
        assertClose(f.apply(x), Torch.compile(f, CompileOptions.defaults()).apply(x), 1e-4);
        Tensor strided = Torch.randn(40, 30).t();
        Function<Tensor, Tensor> g = t -> t.mul(t).add(1);
        assertClose(
                g.apply(strided), Torch.compile(g, CompileOptions.defaults()).apply(strided), 1e-6);
    }

    @Test
    void trainingThroughTheCompiledForwardAndBackwardMatchesEager() {
        Torch.manualSeed(5);
        Tensor w1 = Torch.randn(20, 12).mul(0.3).requiresGrad(true),
                b1 = Torch.randn(20).requiresGrad(true);
        Tensor w2 = Torch.randn(5, 20).mul(0.3).requiresGrad(true);
        Tensor x = Torch.randn(8, 12), target = Torch.randint(0, 5, 8);
        Function<Tensor, Tensor> loss = t -> F.crossEntropy(
                F.linear(F.layerNorm(F.gelu(F.linear(t, w1, b1)), new long[] {20}, null, null, 1e-5), w2, null),
                target);
        Tensor eager = loss.apply(x);
        eager.backward();
        List<Tensor> grads =
                List.of(w1.grad().clone(), b1.grad().clone(), w2.grad().clone());
        for (Tensor p : List.of(w1, b1, w2)) p.grad().zero_();
        Tensor compiled = Torch.compile(loss, CompileOptions.defaults()).apply(x);
        compiled.backward();
        assertClose(eager, compiled, 1e-5);
        assertClose(grads.get(0), w1.grad(), 1e-5);
        assertClose(grads.get(1), b1.grad(), 1e-5);
        assertClose(grads.get(2), w2.grad(), 1e-5);
        assertTrue(Compile.counters().kernels() > 0);
    }

    @Test
    void comboKernelsGroupIndependentKernelsBitForBit() {
        Torch.manualSeed(6);
        Tensor x = Torch.randn(50, 40), y = Torch.randn(30, 70), z = Torch.randn(1000);
        GraphModule gm = Fx.makeFx(
                in -> new Tensor[] {
                    in[0].sum(new long[] {0}, true),
                    in[1].exp().amax(new long[] {1}, false),
                    in[2].mul(3).add(1)
                },
                x,
                y,
                z);
        Tensor[] plain = Inductor.compile(gm).call(x, y, z);
        assertEquals(0, Compile.counters().comboKernels());
        Tensor[] combo = Inductor.compile(gm, new InductorConfig(true)).call(x, y, z);
        assertEquals(1, Compile.counters().comboKernels());
        for (int i = 0; i < 3; i++) assertArrayEquals(bits(plain[i]), bits(combo[i]));
        assertThrows(
                IllegalArgumentException.class, () -> CompileOptions.defaults().option("combo_kernels", "yes"));
    }

    @Test
    void resultsAreBitwiseTheSameOnOneAndTwoThreads() {
        Torch.manualSeed(7);
        Tensor x = Torch.randn(257, 1031), w = Torch.randn(1031);
        Function<Tensor, Tensor> f = t -> F.layerNorm(t.mul(w), new long[] {1031}, null, null, 1e-5)
                .softmax(-1)
                .sum(new long[] {0}, false)
                .add(t.sum());
        int threads = Torch.getNumThreads();
        try {
            Torch.setNumThreads(1);
            Tensor one = Torch.compile(f, CompileOptions.defaults()).apply(x);
            Compile.reset();
            Torch.setNumThreads(2);
            Tensor two = Torch.compile(f, CompileOptions.defaults()).apply(x);
            assertArrayEquals(bits(one), bits(two));
        } finally {
            Torch.setNumThreads(threads);
        }
    }

    @Test
    void aGraphCompiledDirectlyRunsAndItsGatherChecksIndices() {
        Torch.manualSeed(8);
        Tensor table = Torch.randn(10, 4);
        GraphModule gm = Fx.makeFx(
                in -> new Tensor[] {F.embedding(in[0], in[1]).mul(2)}, Torch.tensor(new long[] {1, 3, 9}), table);
        Tensor out = Inductor.compile(gm).call(Torch.tensor(new long[] {1, 3, 9}), table)[0];
        assertClose(F.embedding(Torch.tensor(new long[] {1, 3, 9}), table).mul(2), out, 0);
        TorchException e = assertThrows(
                TorchException.class, () -> Inductor.compile(gm).call(Torch.tensor(new long[] {1, 3, 10}), table));
        assertTrue(e.getMessage().contains("out of"), e.getMessage());
    }

    @Test
    void theTraceRecordsEachKernelsSourceAndTheFusionDecisions(@TempDir Path dir) throws Exception {
        Tensor x = Torch.randn(8, 8);
        try (TraceFile _ = StructuredTrace.start(dir)) {
            Torch.compile((Function<Tensor, Tensor>) t -> F.softmax(t.mul(3), -1), CompileOptions.defaults())
                    .apply(x);
        }
        String log;
        try (var files = Files.list(dir)) {
            log = Files.readString(files.findFirst().orElseThrow());
        }
        assertTrue(log.contains("inductor_output_code"), log);
        assertTrue(log.contains("FloatVector"), "the kernel's source");
        assertTrue(log.contains("inductor_fusion_decisions"), log);
    }
}

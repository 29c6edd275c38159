package org.jtorch.compile;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.Flatten;
import org.jtorch.nn.Linear;
import org.jtorch.nn.MaxPool2d;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An MLP and a conv net compiled with {@code dynamic(true)} on each backend: across three batch sizes one graph serves
 * every call, and the outputs, the losses and every parameter's gradient equal eager's bit for bit (the graphs run the
 * kernels eager code runs). The conv net's channel and spatial sizes are specialized (its weights and its flattening
 * fix them), its batch stays symbolic.
 */
class CompiledModelsTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    private static void assertSame(Tensor expected, Tensor actual, double tolerance, String what) {
        if (tolerance == 0) assertArrayEquals(bits(expected), bits(actual), what);
        else assertArrayEquals(expected.toDoubleArray(), actual.toDoubleArray(), tolerance, what);
    }

    /**
     * Bitwise for the backends that run eager's kernels; within float32 rounding for {@code "inductor"}, whose fused
     * kernels round once per kernel instead of once per op and sum rows in vector lanes.
     */
    private static void assertCompiledMatchesEager(Module model, String backend, long[]... inputShapes) {
        assertCompiledMatchesEager(model, backend, backend.equals("inductor") ? 1e-5 : 0, inputShapes);
    }

    /** Bitwise when {@code tolerance} is 0, else within it (when eager and the graph run different kernels). */
    private static void assertCompiledMatchesEager(
            Module model, String backend, double tolerance, long[]... inputShapes) {
        Module compiled =
                Torch.compile(model, CompileOptions.defaults().dynamic(true).backend(backend));
        List<Tensor> params = model.parameters();
        for (long[] shape : inputShapes) {
            Tensor x = Torch.randn(shape);
            Tensor eagerOut = model.call(x);
            Tensor target = Torch.randn(eagerOut.shape());
            F.mseLoss(eagerOut, target).backward();
            List<Tensor> eagerGrads = params.stream().map(p -> p.grad().clone()).toList();
            model.zeroGrad();
            Tensor out = compiled.call(x);
            F.mseLoss(out, target).backward();
            assertSame(eagerOut, out, tolerance, backend + " " + Arrays.toString(shape));
            for (int i = 0; i < params.size(); i++) {
                assertSame(eagerGrads.get(i), params.get(i).grad(), tolerance, backend + " parameter " + i);
            }
            model.zeroGrad();
        }
        assertEquals(1, Compile.counters().graphs(), Compile.graphBreakReasons().toString());
        assertEquals(0, Compile.counters().recompiles());
    }

    @Test
    void mlpOnEveryBackend() {
        for (String backend : List.of("eager", "aot_eager", "inductor")) {
            Compile.reset();
            Torch.manualSeed(0);
            Module mlp = new Sequential(new Linear(6, 16), new ReLU(), new Linear(16, 3));
            assertCompiledMatchesEager(mlp, backend, new long[] {5, 6}, new long[] {9, 6}, new long[] {2, 6});
        }
    }

    @Test
    void convNetOnEveryBackend() {
        for (String backend : List.of("eager", "aot_eager", "inductor")) {
            Compile.reset();
            Torch.manualSeed(1);
            Module net = new Sequential(
                    new Conv2d(2, 4, 3), new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(4 * 3 * 3, 3));
            assertCompiledMatchesEager(
                    net, backend, new long[] {5, 2, 8, 8}, new long[] {3, 2, 8, 8}, new long[] {7, 2, 8, 8});
        }
    }

    @Test
    void anLstmCompilesWithItsLengthSpecializedAndItsBatchSymbolic() {
        Torch.manualSeed(2);
        org.jtorch.nn.LSTM lstm = new org.jtorch.nn.LSTM(5, 3);
        Module last = new Module() {
            @Override
            public Tensor forward(Tensor x) {
                return lstm.call(x).select(0, -1);
            }
        };
        last.register("lstm", lstm);
        // Under capture the layer runs op by op (the fused node is no op a graph could hold), looping over the sequence
        // in Java, so the length is specialized and the batch stays symbolic. Eager runs the fused node, whose float32
        // gates are vector kernels within 3 ulp of the ops': equal to rounding, not bitwise.
        assertCompiledMatchesEager(
                last, "aot_eager", 1e-6, new long[] {4, 2, 5}, new long[] {4, 6, 5}, new long[] {4, 3, 5});
    }
}

package org.jtorch.compile;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.nn.Linear;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code torch.compile}'s front end: capture, guards and the cache, dynamic sizes, graph breaks, counters. */
class CompileTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    private static Tensor randn(long... shape) {
        return Torch.randn(shape);
    }

    /** A function whose ops take sizes: a view of the batch, a slice to the last position, a sum. */
    private static Tensor shapeHeavy(Tensor x) {
        long b = x.size(0), t = x.size(1), c = x.size(2);
        Tensor flat = x.view(b * t, c).relu();
        Tensor last = flat.view(b, t, c).slice(1, t - 1, t, 1);
        return last.reshape(b, c).mul(2.0).add(flat.view(b, t * c).sum(1, true));
    }

    @Test
    void compiledFunctionGivesEagerResultBitwise() {
        Torch.manualSeed(0);
        Tensor x = randn(4, 5, 3);
        Function<Tensor, Tensor> compiled =
                Torch.compile(CompileTest::shapeHeavy, CompileOptions.defaults().backend("eager"));
        assertArrayEquals(bits(shapeHeavy(x)), bits(compiled.apply(x)));
        assertArrayEquals(bits(shapeHeavy(x)), bits(compiled.apply(x)));
        CompileCounters c = Compile.counters();
        assertEquals(1, c.frames());
        assertEquals(1, c.graphs());
        assertEquals(0, c.recompiles());
    }

    @Test
    void dynamicTrueServesEveryBatchAndLengthWithOneGraph() {
        Function<Tensor, Tensor> compiled = Torch.compile(
                CompileTest::shapeHeavy, CompileOptions.defaults().dynamic(true).backend("eager"));
        Torch.manualSeed(1);
        for (long[] shape : new long[][] {{4, 5, 3}, {7, 2, 3}, {2, 9, 3}, {3, 3, 3}}) {
            Tensor x = randn(shape);
            assertArrayEquals(bits(shapeHeavy(x)), bits(compiled.apply(x)), Arrays.toString(shape));
        }
        CompileCounters c = Compile.counters();
        // {3, 3, 3} gives three symbols one value: distinct symbols are not guarded unequal (nor are they in PyTorch)
        assertEquals(1, c.graphs());
        assertEquals(0, c.recompiles());
    }

    @Test
    void automaticDynamicRecompilesOnceWithTheChangedDimensionSymbolic() {
        Function<Tensor, Tensor> compiled =
                Torch.compile(CompileTest::shapeHeavy, CompileOptions.defaults().backend("eager"));
        Torch.manualSeed(2);
        for (long batch : new long[] {4, 6, 9, 13}) {
            Tensor x = randn(batch, 5, 3);
            assertArrayEquals(bits(shapeHeavy(x)), bits(compiled.apply(x)));
        }
        CompileCounters c = Compile.counters();
        assertEquals(2, c.graphs());
        assertEquals(1, c.recompiles());
    }

    @Test
    void dynamicFalseSpecializesEachShape() {
        Function<Tensor, Tensor> compiled = Torch.compile(
                CompileTest::shapeHeavy,
                CompileOptions.defaults().dynamic(false).backend("eager"));
        for (long batch : new long[] {4, 6, 4}) compiled.apply(randn(batch, 5, 3));
        assertEquals(2, Compile.counters().graphs());
    }

    @Test
    void recompileLimitFallsBackToEagerWithAWarning() {
        Compile.setRecompileLimit(2);
        try (var caught = Warnings.catchWarnings()) {
            Function<Tensor, Tensor> compiled = Torch.compile(
                    CompileTest::shapeHeavy,
                    CompileOptions.defaults().dynamic(false).backend("eager"));
            for (long batch = 2; batch < 6; batch++) {
                Tensor x = randn(batch, 5, 3);
                assertArrayEquals(bits(shapeHeavy(x)), bits(compiled.apply(x)));
            }
            assertEquals(2, Compile.counters().graphs());
            assertTrue(caught.records().stream().anyMatch(w -> w.message().contains("recompile_limit (2)")));
        } finally {
            Compile.setRecompileLimit(8);
        }
    }

    @Test
    void guardsCoverDtypeAndRequiresGrad() {
        Function<Tensor, Tensor> compiled =
                Torch.compile(x -> x.sin().mul(3.0), CompileOptions.defaults().backend("eager"));
        Tensor x = randn(3);
        compiled.apply(x);
        compiled.apply(x.to(DType.FLOAT64));
        compiled.apply(x.detach().requiresGrad(true));
        compiled.apply(randn(3));
        assertEquals(3, Compile.counters().graphs());
        assertEquals(2, Compile.counters().recompiles());
    }

    @Test
    void javaSideEffectsRunAtCaptureOnly() {
        AtomicInteger calls = new AtomicInteger();
        Function<Tensor, Tensor> compiled = Torch.compile(
                x -> {
                    calls.incrementAndGet();
                    return x.exp();
                },
                CompileOptions.defaults().backend("eager"));
        for (int i = 0; i < 5; i++) compiled.apply(randn(2, 2));
        assertEquals(1, calls.get());
    }

    @Test
    void fullGraphItemThrowsUnsupportedNamingItAndTheCallSite() {
        Function<Tensor, Tensor> fn = x -> x.sum().item() > 0 ? x.mul(2.0) : x.neg();
        Function<Tensor, Tensor> strict =
                Torch.compile(fn, CompileOptions.defaults().fullGraph(true).backend("eager"));
        Unsupported e = assertThrows(Unsupported.class, () -> strict.apply(randn(3)));
        assertEquals("item", e.operation());
        assertTrue(e.callSite().contains("CompileTest"), e.callSite());
        assertTrue(e.getMessage().contains("item"), e.getMessage());
        assertEquals(1, Compile.counters().graphBreaks());
    }

    @Test
    void graphBreakWithoutFullGraphGivesTheEagerAnswer() {
        Compile.reset();
        Function<Tensor, Tensor> fn = x -> x.sum().item() > 0 ? x.mul(2.0) : x.neg();
        Function<Tensor, Tensor> lenient =
                Torch.compile(fn, CompileOptions.defaults().backend("eager"));
        Tensor pos = Torch.tensor(new double[] {1, 2, 3}), neg = Torch.tensor(new double[] {-1, -2, -3});
        assertArrayEquals(new double[] {2, 4, 6}, lenient.apply(pos).toDoubleArray());
        assertArrayEquals(new double[] {1, 2, 3}, lenient.apply(neg).toDoubleArray());
        assertEquals(1, Compile.counters().graphBreaks());
        assertEquals(0, Compile.counters().graphs());
    }

    @Test
    void dataDependentShapeIsAGraphBreakToo() {
        Function<Tensor, Tensor> strict = Torch.compile(
                x -> x.nonzero(), CompileOptions.defaults().fullGraph(true).backend("eager"));
        Unsupported e = assertThrows(Unsupported.class, () -> strict.apply(Torch.tensor(new double[] {0, 1, 2})));
        assertTrue(e.operation().contains("nonzero"), e.operation());
    }

    @Test
    void eagerErrorsStayEagerErrors() {
        BiFunction<Tensor, Tensor, Tensor> compiled =
                Torch.compile((a, b) -> a.matmul(b), CompileOptions.defaults().backend("eager"));
        RuntimeException eager =
                assertThrows(RuntimeException.class, () -> randn(2, 3).matmul(randn(2, 3)));
        RuntimeException viaCompile =
                assertThrows(RuntimeException.class, () -> compiled.apply(randn(2, 3), randn(2, 3)));
        assertEquals(eager.getMessage(), viaCompile.getMessage());
    }

    @Test
    void anOpWithoutAFakeRuleRunsEagerlyOncePerCall() {
        AtomicInteger kernelRuns = new AtomicInteger();
        org.jtorch.library.CustomOp noFake =
                org.jtorch.library.Library.customOp("compiletest::twice", "(Tensor x) -> Tensor", args -> {
                    kernelRuns.incrementAndGet();
                    return ((Tensor) args[0]).mul(2.0);
                });
        Function<Tensor, Tensor> compiled = Torch.compile(
                x -> ((Tensor) noFake.call(x)).add(1.0),
                CompileOptions.defaults().backend("eager"));
        Tensor x = Torch.tensor(new double[] {1, 2});
        assertArrayEquals(new double[] {3, 5}, compiled.apply(x).toDoubleArray());
        assertEquals(1, kernelRuns.get());
        assertEquals(1, Compile.counters().graphBreaks());
        assertTrue(Compile.graphBreakReasons().keySet().iterator().next().contains("capture failed"));
        Function<Tensor, Tensor> strict = Torch.compile(
                x2 -> ((Tensor) noFake.call(x2)).add(1.0),
                CompileOptions.defaults().fullGraph(true));
        assertEquals(
                "capture",
                assertThrows(Unsupported.class, () -> strict.apply(x)).operation());
    }

    @Test
    void modeAndOptionsTogetherAreRefused() {
        assertThrows(
                IllegalArgumentException.class,
                () -> CompileOptions.defaults().mode(CompileMode.MAX_AUTOTUNE).option("combo_kernels", true));
        assertThrows(
                IllegalArgumentException.class,
                () -> CompileOptions.defaults().option("combo_kernels", true).mode(CompileMode.DEFAULT));
    }

    @Test
    void disableReturnsTheFunctionItself() {
        Function<Tensor, Tensor> fn = Tensor::exp;
        assertSame(fn, Torch.compile(fn, CompileOptions.defaults().disable(true)));
    }

    @Test
    void unknownBackendIsRefused() {
        var e = assertThrows(
                org.jtorch.TorchException.class,
                () -> Torch.compile(Tensor::exp, CompileOptions.defaults().backend("tvm")));
        assertTrue(e.getMessage().contains("Invalid backend: 'tvm'"), e.getMessage());
    }

    @Test
    void compiledModuleMatchesEagerOutputsAndGradients() {
        Torch.manualSeed(3);
        Sequential model = new Sequential(new Linear(4, 8), new ReLU(), new Linear(8, 2));
        Sequential compiled =
                (Sequential) Torch.compile(model, CompileOptions.defaults().backend("eager"));
        Tensor x = randn(5, 4), y = randn(5, 2);
        Tensor eagerLoss = F.mseLoss(model.call(x), y);
        eagerLoss.backward();
        Tensor[] eagerGrads =
                model.parameters().stream().map(p -> p.grad().clone()).toArray(Tensor[]::new);
        model.zeroGrad();
        Tensor loss = F.mseLoss(compiled.call(x), y);
        loss.backward();
        assertArrayEquals(bits(eagerLoss), bits(loss));
        for (int i = 0; i < eagerGrads.length; i++) {
            assertArrayEquals(
                    bits(eagerGrads[i]), bits(model.parameters().get(i).grad()), "parameter " + i);
        }
        assertEquals(model.stateDict().keySet(), compiled.stateDict().keySet());
        assertEquals(1, Compile.counters().graphs());
    }

    @Test
    void moduleCompileInPlaceRecompilesWhenTrainingFlagChanges() {
        Torch.manualSeed(4);
        Sequential model = new Sequential(new Linear(3, 3), new org.jtorch.nn.Dropout(0.5));
        model.compile(CompileOptions.defaults().backend("eager"));
        Tensor x = randn(4, 3);
        model.call(x);
        model.eval();
        Tensor evalOut = model.call(x);
        assertEquals(2, Compile.counters().graphs());
        Tensor expected = x.matmul(((Linear) model.getSubmodule("0")).weight().t())
                .add(((Linear) model.getSubmodule("0")).bias());
        assertArrayEquals(bits(expected), bits(evalOut));
    }
}

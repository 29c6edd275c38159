package org.jtorch.optim;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileCounters;
import org.jtorch.compile.CompileOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code Optimizer.compileStep()}: the compiled multi-tensor update against the eager foreach step (an independent
 * implementation: one foreach kernel per op, each itself checked against PyTorch in the optimizer tests) over several
 * steps with weight decay, amsgrad, maximize, momentum and a learning rate changing every step, bit for bit; a closed
 * form for plain SGD; the guards (what recompiles and what does not) and the counters.
 */
class CompiledStepTest {
    private static final long[][] SHAPES = {{7, 5}, {33}, {4, 3, 9}, {1}, {129}, {16, 16}};

    @BeforeEach
    void reset() {
        Compile.reset();
    }

    @AfterEach
    void deterministicOff() {
        Torch.useDeterministicAlgorithms(false);
    }

    /** Parameters of several shapes (the same values on every call with the same seed). */
    private static List<Tensor> params(long seed, DType dtype) {
        Torch.manualSeed(seed);
        List<Tensor> ps = new ArrayList<>();
        for (long[] shape : SHAPES) ps.add(Torch.randn(shape).to(dtype).requiresGrad(true));
        return ps;
    }

    /** Sets the same pseudo-random gradients on both lists, different at each step. */
    private static void grads(List<Tensor> a, List<Tensor> b, int step) {
        Torch.manualSeed(1000 + step);
        for (int i = 0; i < a.size(); i++) {
            Tensor g = Torch.randn(a.get(i).shape()).to(a.get(i).dtype());
            a.get(i).setGrad(g.clone());
            b.get(i).setGrad(g.clone());
        }
    }

    private static void assertSameBits(List<Tensor> expected, List<Tensor> actual, String what) {
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(bits(expected.get(i)), bits(actual.get(i)), what + " " + i);
        }
    }

    /** Steps an eager and a compiled optimizer side by side, the lr changed before each step; compares every step. */
    private static void compareSteps(
            Function<List<Tensor>, Optimizer> make, int steps, DType dtype, List<String> stateKeys) {
        List<Tensor> eagerParams = params(7, dtype), compiledParams = params(7, dtype);
        Optimizer eager = make.apply(eagerParams), compiled = make.apply(compiledParams);
        compiled.compileStep();
        assertTrue(compiled.isStepCompiled());
        for (int s = 0; s < steps; s++) {
            double lr = 0.01 / (1 + s);
            eager.paramGroups().getFirst().lr(lr);
            compiled.paramGroups().getFirst().lr(lr);
            grads(eagerParams, compiledParams, s);
            eager.step();
            compiled.step();
            assertSameBits(eagerParams, compiledParams, "parameter after step " + s);
            for (String key : stateKeys) {
                for (int i = 0; i < eagerParams.size(); i++) {
                    Object e = eager.state(eagerParams.get(i)).get(key);
                    Object c = compiled.state(compiledParams.get(i)).get(key);
                    assertArrayEquals(bits((Tensor) e), bits((Tensor) c), key + " " + i + " after step " + s);
                }
            }
        }
    }

    @Test
    void adamWMatchesTheEagerForeachStepBitForBitWithALearningRateChangingEveryStep() {
        compareSteps(
                ps -> new AdamW(ps, AdamW.Options.defaults().weightDecay(0.1)),
                6,
                DType.FLOAT32,
                List.of("step", "exp_avg", "exp_avg_sq"));
        CompileCounters c = Compile.counters();
        assertEquals(1, c.frames(), "one compilation: the lr is an input, not a constant");
        assertEquals(0, c.recompiles());
        assertTrue(c.comboKernels() > 0, "per-parameter kernels grouped into combo kernels");
        assertEquals(SHAPES.length, c.kernels(), "one kernel per parameter, writing parameter and moments in place");
    }

    @Test
    void adamWithAmsgradWeightDecayAndMaximizeMatchesEagerBitForBit() {
        compareSteps(
                ps -> new Adam(
                        ps,
                        Adam.Options.defaults()
                                .weightDecay(0.05)
                                .amsgrad(true)
                                .maximize(true)
                                .betas(0.8, 0.99)),
                5,
                DType.FLOAT32,
                List.of("exp_avg", "exp_avg_sq", "max_exp_avg_sq"));
        assertEquals(0, Compile.counters().recompiles());
    }

    @Test
    void float64AdamWMatchesEagerBitForBit() {
        compareSteps(
                ps -> new AdamW(ps, AdamW.Options.defaults().amsgrad(true)),
                4,
                DType.FLOAT64,
                List.of("exp_avg", "exp_avg_sq", "max_exp_avg_sq"));
    }

    @Test
    void sgdWithNesterovMomentumAndWeightDecayMatchesEagerBitForBit() {
        compareSteps(
                ps -> new SGD(
                        ps,
                        SGD.Options.defaults()
                                .lr(0.1)
                                .momentum(0.9)
                                .nesterov(true)
                                .weightDecay(1e-3)),
                5,
                DType.FLOAT32,
                List.of("momentum_buffer"));
        // the first step creates the buffers eagerly; the other four run one compiled graph
        assertEquals(1, Compile.counters().frames());
    }

    @Test
    void sgdWithDampenedMomentumAndMaximizeMatchesEager() {
        compareSteps(
                ps -> new SGD(
                        ps,
                        SGD.Options.defaults()
                                .lr(0.05)
                                .momentum(0.5)
                                .dampening(0.25)
                                .maximize(true)),
                4,
                DType.FLOAT32,
                List.of("momentum_buffer"));
    }

    @Test
    void deterministicModeGivesTheSameBitsAsEager() {
        Torch.useDeterministicAlgorithms(true);
        compareSteps(
                ps -> new AdamW(ps, AdamW.Options.defaults().weightDecay(0.1).amsgrad(true)),
                3,
                DType.FLOAT32,
                List.of("exp_avg", "exp_avg_sq", "max_exp_avg_sq"));
    }

    @Test
    void plainSgdIsTheClosedFormUpdate() {
        Tensor p = Torch.tensor(new float[] {1f, -2f, 3f, 0.5f}).requiresGrad(true);
        SGD opt = new SGD(List.of(p), SGD.Options.defaults().lr(0.25));
        opt.compileStep();
        p.setGrad(Torch.tensor(new float[] {4f, 8f, -2f, 1f}));
        opt.step();
        assertArrayEquals(new float[] {0f, -4f, 3.5f, 0.25f}, p.detach().toFloatArray());
        assertEquals(1, Compile.counters().frames());
    }

    @Test
    void recompilesOnlyWhenTheParameterSetShapesOrOptionsChange() {
        List<Tensor> ps = params(3, DType.FLOAT32);
        AdamW opt = new AdamW(ps, AdamW.Options.defaults());
        opt.compileStep();
        for (Tensor p : ps) p.setGrad(Torch.onesLike(p));
        opt.step();
        opt.paramGroups().getFirst().lr(0.5); // an input: no recompile
        opt.step();
        assertEquals(0, Compile.counters().recompiles());
        opt.paramGroups().getFirst().set("betas", List.of(0.8, 0.9)); // a constant of the graph
        opt.step();
        assertEquals(1, Compile.counters().recompiles());
        ps.getFirst().setGrad(null); // the set of parameters with gradients
        opt.step();
        assertEquals(2, Compile.counters().recompiles());
        opt.step();
        assertEquals(2, Compile.counters().recompiles(), "the graph for that set is reused");
    }

    @Test
    void disablingReturnsToEagerStepsAndOtherOptimizersRefuse() {
        List<Tensor> ps = params(4, DType.FLOAT32);
        AdamW opt = new AdamW(ps, AdamW.Options.defaults());
        opt.compileStep(CompileOptions.defaults().disable(true));
        assertFalse(opt.isStepCompiled());
        for (Tensor p : ps) p.setGrad(Torch.onesLike(p));
        opt.step();
        assertEquals(0, Compile.counters().frames());
        TorchException e =
                assertThrows(TorchException.class, () -> new LBFGS(ps, LBFGS.Options.defaults()).compileStep());
        assertTrue(e.getMessage().contains("LBFGS.compileStep()"), e.getMessage());
    }
}

package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * TrainGpt's model with a cross-entropy loss under {@code Torch.compile(dynamic=true)}: one graph serves three (batch,
 * length) shapes, and the loss and every parameter's gradient equal eager's bit for bit (the graph runs the same
 * kernels).
 */
class CompiledGptTest {
    private static long[] bits(Tensor t) {
        return Arrays.stream(t.to(DType.FLOAT64).toDoubleArray())
                .mapToLong(Double::doubleToRawLongBits)
                .toArray();
    }

    @Test
    void oneDynamicGraphMatchesEagerLossAndGradientsAcrossShapes() {
        Torch.manualSeed(0);
        Gpt model = new Gpt(new GptConfig(40, 16, 2, 2, 16, "layernorm"));
        model.eval(); // no dropout draws, so eager and compiled runs see the same values
        BiFunction<Tensor, Tensor, Tensor> step =
                (idx, targets) -> F.crossEntropy(model.logits(idx).flatten(0, 1), targets.flatten());
        Compile.reset();
        BiFunction<Tensor, Tensor, Tensor> compiled =
                Torch.compile(step, CompileOptions.defaults().dynamic(true).backend("eager"));
        List<Tensor> params = model.parameters();
        for (long[] bt : new long[][] {{4, 16}, {2, 9}, {3, 12}}) {
            Tensor idx = Torch.randint(0, 40, bt), targets = Torch.randint(0, 40, bt);
            Tensor eagerLoss = step.apply(idx, targets);
            eagerLoss.backward();
            List<Tensor> eagerGrads = params.stream().map(p -> p.grad().clone()).toList();
            model.zeroGrad();
            Tensor loss = compiled.apply(idx, targets);
            loss.backward();
            assertArrayEquals(bits(eagerLoss), bits(loss), Arrays.toString(bt));
            for (int i = 0; i < params.size(); i++) {
                assertArrayEquals(bits(eagerGrads.get(i)), bits(params.get(i).grad()), "parameter " + i);
            }
            model.zeroGrad();
        }
        assertEquals(1, Compile.counters().graphs(), Compile.graphBreakReasons().toString());
        assertEquals(0, Compile.counters().recompiles());
    }
}

package org.jtorch.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DataDependentOutputException;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.Autograd;
import org.jtorch.examples.gpt.Gpt;
import org.jtorch.examples.gpt.GptConfig;
import org.jtorch.fx.AotAutograd;
import org.jtorch.fx.AotFunction;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.PartitionedGraphs;
import org.jtorch.fx.SavePolicy;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * TrainGpt's training step (the GPT's forward and its language-model loss) through AOT autograd: the loss and every
 * parameter gradient equal eager autograd's bitwise; the capture time and the partitioners' saved bytes at TrainGpt's
 * default size.
 *
 * <p>The loss is {@code F.linearCrossEntropy}'s reference path (linear, then cross entropy), the same function as
 * {@link TrainGpt#lmLoss}: that one takes the chunked path, a Java kernel over the tensors' data that no graph can
 * hold, and tracing it fails naming the read.
 */
class AotGptTest {
    /** TrainGpt's loss through ops a graph records: mean cross entropy of {@code hidden · weightᵀ}. */
    private static Tensor loss(Tensor hidden, Tensor weight, Tensor target) {
        return F.linearCrossEntropy(hidden.reshape(-1, hidden.size(-1)), weight, target.reshape(-1));
    }

    /**
     * The step as a function of (tokens, targets, parameters...): the parameters stand in for the model's own during
     * the call, as {@code torch.func.functional_call} does, and the head's weight feeds the loss.
     */
    private static Function<Tensor[], Tensor[]> step(Gpt model, List<String> names, LossFunction loss) {
        return args -> {
            Map<String, Tensor> params = new LinkedHashMap<>();
            for (int i = 0; i < names.size(); i++) params.put(names.get(i), args[2 + i]);
            try (AutoCloseable _ = model.substituteTensors(params)) {
                return new Tensor[] {loss.apply(model.call(args[0]), params.get("lm_head.weight"), args[1])};
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private interface LossFunction {
        Tensor apply(Tensor hidden, Tensor weight, Tensor target);
    }

    private static Tensor[] inputs(Tensor[] batch, List<Tensor> params) {
        List<Tensor> all = new ArrayList<>(List.of(batch));
        all.addAll(params);
        return all.toArray(Tensor[]::new);
    }

    private static List<Tensor> clonedParameters(Gpt model) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor p : model.parameters()) out.add(p.detach().clone().requiresGrad(true));
        return out;
    }

    private static Tensor[] batch(GptConfig config, int batch) {
        Tensor idx = Torch.randint(0, config.vocabSize(), batch, config.blockSize());
        Tensor targets = Torch.randint(0, config.vocabSize(), batch, config.blockSize());
        return new Tensor[] {idx, targets};
    }

    /**
     * Against eager autograd that runs the same kernels, bitwise: with {@code rmsnorm} a plain {@code backward()}, with
     * TrainGpt's default {@code layernorm} a backward with {@code createGraph}, since a plain first-order backward of
     * layer norm runs a fused Java kernel that is not an op (so no graph can hold it) and rounds differently; against
     * that plain backward the layernorm gradients agree to float32 rounding.
     */
    @ParameterizedTest
    @CsvSource({"rmsnorm,SAVE_ALL", "rmsnorm,RECOMPUTE", "layernorm,SAVE_ALL", "layernorm,RECOMPUTE"})
    void gptLossAndEveryParameterGradientMatchEagerToRounding(String norm, SavePolicy policy) {
        Torch.manualSeed(7);
        GptConfig config = new GptConfig(23, 16, 2, 2, 32, norm);
        Gpt model = new Gpt(config);
        List<String> names = List.copyOf(model.namedParameters().keySet());
        Tensor[] batch = batch(config, 3);

        Tensor eagerLoss = loss(model.call(batch[0]), model.lmHeadWeight(), batch[1]);
        List<Tensor> sameKernels = Autograd.grad(
                List.of(eagerLoss),
                model.parameters(),
                Autograd.GradOptions.defaults().createGraph(true));
        eagerLoss.backward();

        List<Tensor> params = clonedParameters(model);
        AotFunction aot = AotAutograd.compile(
                step(model, names, AotGptTest::loss),
                policy,
                GraphCompiler.INTERPRETER,
                GraphCompiler.INTERPRETER,
                inputs(batch, clonedParameters(model)));
        Tensor aotLoss = aot.call(inputs(batch, params))[0];
        aotLoss.backward();

        assertEquals(eagerLoss.item(), aotLoss.item(), 1e-6);
        List<Tensor> eagerParams = model.parameters();
        for (int i = 0; i < params.size(); i++) {
            Tensor actual = params.get(i).grad(), plain = eagerParams.get(i).grad();
            assertNotNull(actual, names.get(i));
            // eager's fused attention rounds differently from the decomposition AOT records, as in PyTorch
            assertArrayEquals(sameKernels.get(i).toDoubleArray(), actual.toDoubleArray(), 1e-6, names.get(i));
            assertArrayEquals(plain.toDoubleArray(), actual.toDoubleArray(), 1e-6, names.get(i));
        }
    }

    /** The chunked loss reads the targets in Java: the trace (on fake tensors) refuses it, naming the read. */
    @Test
    void chunkedLossCannotBeTraced() {
        Torch.manualSeed(8);
        GptConfig config = new GptConfig(11, 8, 1, 1, 8, "layernorm");
        Gpt model = new Gpt(config);
        List<String> names = List.copyOf(model.namedParameters().keySet());
        DataDependentOutputException e = assertThrows(
                DataDependentOutputException.class,
                () -> AotAutograd.traceJoint(
                        step(model, names, TrainGpt::lmLoss), inputs(batch(config, 2), clonedParameters(model))));
        assertTrue(e.getMessage().contains("toLongArray()"), e.getMessage());
    }

    /**
     * At TrainGpt's default size: the joint graph's capture time, and what each partitioner saves; recomputing never
     * saves more than saving everything.
     */
    @Test
    void defaultSizeCaptureTimeAndSavedBytes() {
        Torch.manualSeed(1337);
        GptConfig config = new GptConfig(65, 128, 4, 4, 128, "layernorm");
        Gpt model = new Gpt(config);
        List<String> names = List.copyOf(model.namedParameters().keySet());
        Tensor[] in = inputs(batch(config, 16), clonedParameters(model));
        long[] nanos = new long[3];
        GraphModule joint = null;
        for (int i = 0; i < nanos.length; i++) {
            long start = System.nanoTime();
            joint = AotAutograd.traceJoint(step(model, names, AotGptTest::loss), in);
            nanos[i] = System.nanoTime() - start;
        }
        PartitionedGraphs saveAll = AotAutograd.partition(joint, SavePolicy.SAVE_ALL);
        PartitionedGraphs recompute = AotAutograd.partition(joint, SavePolicy.RECOMPUTE);
        System.out.printf(
                "GPT joint capture: %.2f s cold, %.2f s, %.2f s warm; %d joint nodes%n",
                nanos[0] / 1e9,
                nanos[1] / 1e9,
                nanos[2] / 1e9,
                joint.graph().nodes().size());
        System.out.printf(
                "GPT saved values: save-all %d (%,d bytes), recompute %d (%,d bytes)%n",
                saveAll.savedValues().size(),
                saveAll.savedBytes(),
                recompute.savedValues().size(),
                recompute.savedBytes());
        assertTrue(recompute.savedBytes() <= saveAll.savedBytes());
    }
}

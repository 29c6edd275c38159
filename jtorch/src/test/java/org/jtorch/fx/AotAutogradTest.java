package org.jtorch.fx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.Conv2d;
import org.jtorch.nn.Flatten;
import org.jtorch.nn.Linear;
import org.jtorch.nn.MaxPool2d;
import org.jtorch.nn.Module;
import org.jtorch.nn.ReLU;
import org.jtorch.nn.Sequential;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * AOT autograd against eager autograd run separately: the same step through the compiled graphs gives bitwise the same
 * loss and parameter gradients, since the graphs run the kernels eager code runs.
 */
class AotAutogradTest {
    private static FunctionalModule mlp() {
        Torch.manualSeed(1);
        Module mlp = new Sequential(new Linear(12, 32), new ReLU(), new Linear(32, 5));
        return FunctionalModule.of(mlp, 2, (out, batch) -> F.crossEntropy(out, batch[1]));
    }

    private static Tensor[] mlpBatch() {
        return new Tensor[] {Torch.randn(7, 12), Torch.randint(0, 5, 7)};
    }

    private static FunctionalModule convNet() {
        Torch.manualSeed(2);
        Module net = new Sequential(
                new Conv2d(2, 4, 3), new ReLU(), new MaxPool2d(2), new Flatten(), new Linear(4 * 3 * 3, 3));
        return FunctionalModule.of(net, 2, (out, batch) -> F.mseLoss(out, batch[1]));
    }

    private static Tensor[] convBatch() {
        return new Tensor[] {Torch.randn(3, 2, 8, 8), Torch.randn(3, 3)};
    }

    /** Eager autograd on the module's own parameters: the loss, then each parameter's gradient. */
    private static List<Tensor> eager(FunctionalModule fm, Tensor[] batch) {
        Module m = fm.module();
        for (Tensor p : m.parameters()) p.setGrad(null);
        Tensor loss = fm.loss().apply(m.call(batch[0]), batch);
        loss.backward();
        List<Tensor> result = new ArrayList<>(List.of(loss.detach()));
        for (Tensor p : m.parameters()) result.add(p.grad());
        return result;
    }

    /** The same through {@code aot}, on copies of the parameters: the loss, then each copy's gradient. */
    private static List<Tensor> compiled(AotFunction aot, Tensor[] batch, List<Tensor> params) {
        Tensor loss = aot.call(FunctionalModule.inputs(batch, params))[0];
        assertEquals("CompiledFunctionBackward", loss.gradFn().name());
        loss.backward();
        List<Tensor> result = new ArrayList<>(List.of(loss.detach()));
        for (Tensor p : params) result.add(p.grad());
        return result;
    }

    private static void assertBitwise(List<Tensor> expected, List<Tensor> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertNotNull(actual.get(i), "value " + i);
            assertArrayEquals(expected.get(i).shape(), actual.get(i).shape(), "shape of value " + i);
            assertArrayEquals(expected.get(i).toDoubleArray(), actual.get(i).toDoubleArray(), "value " + i);
        }
    }

    private static void assertSameStepAsEager(FunctionalModule fm, Tensor[] batch, SavePolicy policy) {
        List<Tensor> params = fm.clonedParameters();
        AotFunction aot = AotAutograd.compile(
                fm.step(),
                policy,
                GraphCompiler.INTERPRETER,
                GraphCompiler.INTERPRETER,
                FunctionalModule.inputs(batch, params));
        assertBitwise(eager(fm, batch), compiled(aot, batch, params));
    }

    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void mlpWithCrossEntropyMatchesEagerBitwise(SavePolicy policy) {
        assertSameStepAsEager(mlp(), mlpBatch(), policy);
    }

    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void convNetWithMseMatchesEagerBitwise(SavePolicy policy) {
        assertSameStepAsEager(convNet(), convBatch(), policy);
    }

    /**
     * The graph is traced on fake tensors, so cross entropy cannot specialise on the traced targets: a later batch with
     * ignored targets ({@code -100}) still gets eager's loss and gradients.
     */
    @Test
    void crossEntropyGraphServesTargetsWithIgnoredEntries() {
        FunctionalModule fm = mlp();
        AotFunction aot = AotAutograd.compile(fm.step(), FunctionalModule.inputs(mlpBatch(), fm.clonedParameters()));
        Tensor[] batch = mlpBatch();
        batch[1] = Torch.tensor(new long[] {0, -100, 4, 1, -100, 2, 3});
        List<Tensor> params = fm.clonedParameters();
        assertBitwise(eager(fm, batch), compiled(aot, batch, params));
    }

    /**
     * What each partitioner saves for one training step of an MLP (784-256-10, batch 64, ReLU, cross entropy); the
     * figures are printed for the {@link AotAutograd} javadoc.
     */
    @Test
    void savedBytesOfAnMlpStep() {
        Torch.manualSeed(5);
        Module mlp = new Sequential(new Linear(784, 256), new ReLU(), new Linear(256, 10));
        FunctionalModule fm = FunctionalModule.of(mlp, 2, (out, batch) -> F.crossEntropy(out, batch[1]));
        Tensor[] batch = {Torch.randn(64, 784), Torch.randint(0, 10, 64)};
        GraphModule joint = AotAutograd.traceJoint(fm.step(), FunctionalModule.inputs(batch, fm.clonedParameters()));
        PartitionedGraphs saveAll = AotAutograd.partition(joint, SavePolicy.SAVE_ALL);
        PartitionedGraphs recompute = AotAutograd.partition(joint, SavePolicy.RECOMPUTE);
        System.out.printf(
                "MLP saved values: save-all %d (%,d bytes), recompute %d (%,d bytes)%n",
                saveAll.savedValues().size(),
                saveAll.savedBytes(),
                recompute.savedValues().size(),
                recompute.savedBytes());
        assertTrue(recompute.savedBytes() <= saveAll.savedBytes());
    }

    /** Traced once, the graphs serve new batches and new parameter values of the same shapes. */
    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void partitionedGraphsRerunOnNewValues(SavePolicy policy) {
        FunctionalModule fm = convNet();
        AotFunction aot = AotAutograd.compile(
                fm.step(),
                policy,
                GraphCompiler.INTERPRETER,
                GraphCompiler.INTERPRETER,
                FunctionalModule.inputs(convBatch(), fm.clonedParameters()));
        for (int round = 0; round < 3; round++) {
            try (var _ = Torch.noGrad()) {
                for (Tensor p : fm.module().parameters())
                    p.add_(Torch.randn(p.shape()).mul(0.1));
            }
            Tensor[] batch = convBatch();
            List<Tensor> params = fm.clonedParameters();
            assertBitwise(eager(fm, batch), compiled(aot, batch, params));
        }
    }

    /** The two graphs run by hand, without the runtime wrapper: forward, then backward on its saved values. */
    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void forwardAndBackwardGraphsRunByHandGiveEagerGradients(SavePolicy policy) {
        FunctionalModule fm = mlp();
        Tensor[] traceInputs = FunctionalModule.inputs(mlpBatch(), fm.clonedParameters());
        PartitionedGraphs graphs = AotAutograd.partition(AotAutograd.traceJoint(fm.step(), traceInputs), policy);
        Tensor[] batch = mlpBatch();
        List<Tensor> expected = eager(fm, batch);
        Tensor[] inputs = FunctionalModule.inputs(batch, fm.clonedParameters());
        Tensor[] fwd;
        try (var _ = Torch.noGrad()) {
            fwd = graphs.forward().call(inputs);
        }
        assertEquals(1 + graphs.savedValues().size(), fwd.length);
        Tensor[] bwdInputs = java.util.Arrays.copyOf(fwd, fwd.length);
        bwdInputs[0] = Torch.ones(); // the saved values follow the loss; the tangent of the loss is 1
        List<Tensor> bwdArgs = new ArrayList<>(List.of(bwdInputs).subList(1, bwdInputs.length));
        bwdArgs.add(bwdInputs[0]);
        Tensor[] grads;
        try (var _ = Torch.noGrad()) {
            grads = graphs.backward().call(bwdArgs.toArray(Tensor[]::new));
        }
        assertEquals(inputs.length, grads.length);
        assertNull(grads[0], "the batch does not require grad");
        assertNull(grads[1], "the targets are integers");
        List<Tensor> actual = new ArrayList<>(List.of(fwd[0]));
        actual.addAll(java.util.Arrays.asList(grads).subList(2, grads.length));
        assertBitwise(expected, actual);
    }

    @Test
    void jointGraphHasPrimalsThenTangentsAndAForwardFreeOfTangents() {
        FunctionalModule fm = mlp();
        Tensor[] inputs = FunctionalModule.inputs(mlpBatch(), fm.clonedParameters());
        GraphModule joint = AotAutograd.traceJoint(fm.step(), inputs);
        joint.graph().lint();
        List<String> placeholders = joint.graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .map(Node::name)
                .toList();
        assertEquals(
                List.of("primals_1", "primals_2", "primals_3", "primals_4", "primals_5", "primals_6", "tangents_1"),
                placeholders);
        Node output = joint.graph().nodes().getLast();
        assertEquals(1 + inputs.length, output.args().size());
        assertNull(output.args().get(1), "x does not require grad: None");
        assertNull(output.args().get(2), "y does not require grad: None");
        Node tangent = joint.graph().nodes().get(6);
        Set<Node> forward = Partitioner.ancestors(List.of((Node) output.args().get(0)));
        assertFalse(forward.contains(tangent));
        for (Node n : forward) for (Node in : n.inputNodes()) assertFalse(in == tangent, n + " reads the tangent");

        // Run as it is, with the tangent 1, the joint graph returns the loss and eager's gradients.
        Tensor[] batch = {inputs[0], inputs[1]};
        List<Tensor> expected = eager(fm, batch);
        Tensor[] withTangent = java.util.Arrays.copyOf(inputs, inputs.length + 1);
        withTangent[inputs.length] = Torch.ones();
        Tensor[] results;
        try (var _ = Torch.noGrad()) {
            results = joint.call(withTangent);
        }
        List<Tensor> actual = new ArrayList<>(List.of(results[0]));
        actual.addAll(java.util.Arrays.asList(results).subList(3, results.length));
        assertBitwise(expected, actual);
    }

    /**
     * {@code sin(cos(x @ w))}: saving everything keeps the product and its cosine; recomputing keeps only the product
     * (the matrix product may not be recomputed) and computes the cosine again in the backward.
     */
    @Test
    void recomputePolicySavesFewerBytesByRecomputingPointwiseOps() {
        Torch.manualSeed(3);
        Tensor x = Torch.randn(6, 5).requiresGrad(true), w = Torch.randn(5, 4).requiresGrad(true);
        java.util.function.Function<Tensor[], Tensor[]> fn =
                a -> new Tensor[] {a[0].matmul(a[1]).cos().sin().sum()};
        GraphModule joint = AotAutograd.traceJoint(fn, x, w);
        PartitionedGraphs saveAll = AotAutograd.partition(joint, SavePolicy.SAVE_ALL);
        PartitionedGraphs recompute = AotAutograd.partition(joint, SavePolicy.RECOMPUTE);
        assertEquals(
                List.of("primals_1", "primals_2", "mm", "cos"),
                placeholderNames(saveAll.backward()).subList(0, 4));
        assertEquals(List.of("primals_1", "primals_2", "mm", "tangents_1"), placeholderNames(recompute.backward()));
        assertEquals(4 * (6 * 5 + 5 * 4 + 6 * 4 + 6 * 4), saveAll.savedBytes());
        assertEquals(4 * (6 * 5 + 5 * 4 + 6 * 4), recompute.savedBytes());
        assertTrue(recompute.backward().graph().nodes().stream()
                .anyMatch(n -> n.target().equals("aten.cos.default")));

        Tensor xe = x.detach().clone().requiresGrad(true),
                we = w.detach().clone().requiresGrad(true);
        fn.apply(new Tensor[] {xe, we})[0].backward();
        for (PartitionedGraphs graphs : List.of(saveAll, recompute)) {
            Tensor xa = x.detach().clone().requiresGrad(true),
                    wa = w.detach().clone().requiresGrad(true);
            AotAutograd.runtime(graphs).call(xa, wa)[0].backward();
            assertBitwise(List.of(xe.grad(), we.grad()), List.of(xa.grad(), wa.grad()));
        }
    }

    private static List<String> placeholderNames(GraphModule gm) {
        return gm.graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .map(Node::name)
                .toList();
    }

    /** Two outputs, one of them integer: only the float one gets a tangent, and backward through it works. */
    @Test
    void outputsThatDoNotRequireGradGetNoTangent() {
        Torch.manualSeed(4);
        Tensor x = Torch.randn(3, 4).requiresGrad(true);
        java.util.function.Function<Tensor[], Tensor[]> fn =
                a -> new Tensor[] {a[0].argmax(1), a[0].exp().sum()};
        AotFunction aot = AotAutograd.compile(fn, x);
        assertArrayEquals(new boolean[] {false, true}, aot.graphs().outputsWithTangent());
        assertEquals(
                List.of("primals_1", "tangents_1"),
                placeholderNames(aot.graphs().backward())); // exp recomputed
        Tensor[] out = aot.call(x);
        assertFalse(out[0].requiresGrad());
        assertEquals(DType.INT64, out[0].dtype());
        out[1].backward();
        assertArrayEquals(x.detach().exp().toDoubleArray(), x.grad().toDoubleArray());
    }

    /** In-place ops on intermediates (ReLU(inplace=True)) are functionalized away before the partition. */
    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void inPlaceOpsOnIntermediatesAreFunctionalized(SavePolicy policy) {
        Torch.manualSeed(6);
        Tensor x = Torch.randn(4, 3).requiresGrad(true), w = Torch.randn(3, 5).requiresGrad(true);
        java.util.function.Function<Tensor[], Tensor[]> fn = a -> {
            Tensor h = a[0].matmul(a[1]);
            h.clampMin_(0.0);
            h.mul_(3.0);
            return new Tensor[] {h.sum()};
        };
        Tensor xe = x.detach().clone().requiresGrad(true),
                we = w.detach().clone().requiresGrad(true);
        fn.apply(new Tensor[] {xe, we})[0].backward();
        AotFunction aot = AotAutograd.compile(fn, policy, GraphCompiler.INTERPRETER, GraphCompiler.INTERPRETER, x, w);
        aot.call(x, w)[0].backward();
        assertBitwise(List.of(xe.grad(), we.grad()), List.of(x.grad(), w.grad()));
    }

    @Test
    void graphCompilersCompileEachGraphOnceAndRunIt() {
        AtomicInteger compiled = new AtomicInteger(),
                forwardRuns = new AtomicInteger(),
                backwardRuns = new AtomicInteger();
        GraphCompiler forward = gm -> {
            compiled.incrementAndGet();
            return in -> {
                forwardRuns.incrementAndGet();
                return gm.call(in);
            };
        };
        GraphCompiler backward = gm -> {
            compiled.incrementAndGet();
            return in -> {
                backwardRuns.incrementAndGet();
                return gm.call(in);
            };
        };
        Tensor x = Torch.randn(4).requiresGrad(true);
        AotFunction aot =
                AotAutograd.compile(a -> new Tensor[] {a[0].tanh().sum()}, SavePolicy.RECOMPUTE, forward, backward, x);
        assertEquals(2, compiled.get());
        aot.call(x)[0].backward();
        aot.call(x)[0].backward();
        assertEquals(2, forwardRuns.get());
        assertEquals(2, backwardRuns.get());
        assertEquals(2, compiled.get());
    }

    @Test
    void noGradCallRunsOnlyTheForward() {
        Tensor x = Torch.randn(4).requiresGrad(true);
        AotFunction aot = AotAutograd.compile(a -> new Tensor[] {a[0].mul(a[0]).sum()}, x);
        Tensor out;
        try (var _ = Torch.noGrad()) {
            out = aot.call(x)[0];
        }
        assertFalse(out.requiresGrad());
        assertEquals(x.detach().mul(x.detach()).sum().item(), out.item());
    }

    /**
     * Double backward is refused with PyTorch's message, when the second backward reaches the compiled node; also when
     * the backward reads only forward intermediates (save-all keeps {@code exp(x)}), which do not require grad.
     */
    @ParameterizedTest
    @EnumSource(SavePolicy.class)
    void doubleBackwardThroughTheCompiledNodeRaises(SavePolicy policy) {
        Tensor x = Torch.randn(5).requiresGrad(true);
        AotFunction aot = AotAutograd.compile(
                a -> new Tensor[] {a[0].exp().sum()}, policy, GraphCompiler.INTERPRETER, GraphCompiler.INTERPRETER, x);
        Tensor g = Autograd.grad(aot.call(x)[0], x, true);
        assertArrayEquals(x.detach().exp().toDoubleArray(), g.detach().toDoubleArray());
        assertTrue(g.requiresGrad(), "the gradient is connected, so that a second backward cannot pass silently");
        TorchException e = assertThrows(TorchException.class, () -> g.sum().backward());
        assertTrue(e.getMessage().contains("does not currently support double backward"), e.getMessage());
    }

    @Test
    void badFunctionsAndInputsRaiseTorchExceptions() {
        Tensor x = Torch.randn(3).requiresGrad(true);
        TorchException noOutputGrad = assertThrows(
                TorchException.class,
                () -> AotAutograd.traceJoint(a -> new Tensor[] {a[0].detach().sum()}, x));
        assertTrue(noOutputGrad.getMessage().contains("none of the 1 outputs"), noOutputGrad.getMessage());
        TorchException noInputGrad = assertThrows(
                TorchException.class, () -> AotAutograd.traceJoint(a -> new Tensor[] {a[0].sum()}, Torch.randn(3)));
        assertTrue(noInputGrad.getMessage().contains("no example input requires grad"), noInputGrad.getMessage());
        TorchException nullInput = assertThrows(TorchException.class, () -> AotAutograd.traceJoint(a -> a, x, null));
        assertTrue(nullInput.getMessage().contains("example input 1 is null"), nullInput.getMessage());
        TorchException nullOutput = assertThrows(
                TorchException.class, () -> AotAutograd.traceJoint(a -> new Tensor[] {a[0].sum(), null}, x));
        assertTrue(nullOutput.getMessage().contains("output 1"), nullOutput.getMessage());
        TorchException notJoint = assertThrows(
                TorchException.class, () -> AotAutograd.partition(Fx.makeFx(a -> new Tensor[] {a[0].sin()}, x)));
        assertTrue(notJoint.getMessage().contains("not a joint graph"), notJoint.getMessage());
        TorchException mutation = assertThrows(
                TorchException.class,
                () -> AotAutograd.traceJoint(a -> new Tensor[] {a[0].mul(2.0), a[1].add_(1.0)}, x, Torch.randn(3)));
        assertTrue(mutation.getMessage().contains("writes into its input 1 in place"), mutation.getMessage());

        Tensor y = Torch.randn(3);
        AotFunction aot = AotAutograd.compile(a -> new Tensor[] {a[0].mul(a[1]).sum()}, x, y);
        TorchException count = assertThrows(TorchException.class, () -> aot.call(x));
        assertTrue(count.getMessage().contains("expected 2 inputs, got 1"), count.getMessage());
        TorchException dtype = assertThrows(TorchException.class, () -> aot.call(x, y.to(DType.FLOAT64)));
        assertTrue(dtype.getMessage().contains("input 1 is f64[3]"), dtype.getMessage());
        TorchException grad = assertThrows(
                TorchException.class, () -> aot.call(x, y.detach().clone().requiresGrad(true)));
        assertTrue(grad.getMessage().contains("input 1 requires grad"), grad.getMessage());
    }
}

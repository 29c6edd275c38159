package org.jtorch.compile;

import java.util.List;
import java.util.function.BiFunction;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.fx.AotAutograd;
import org.jtorch.fx.AotFunction;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.PartitionedGraphs;

/**
 * The {@code "aot_eager"} and {@code "inductor"} backends: AOT autograd over the captured graph. When a call needs
 * gradients (grad mode on, an input requiring grad, an output depending on one), the joint forward-backward graph is
 * traced on the fake inputs and partitioned (recomputing cheap pointwise ops rather than saving them, PyTorch's default
 * for compile); the forward graph then runs with grad mode off and one {@code CompiledFunctionBackward} node runs the
 * backward graph, so {@code loss.backward()} on the output runs the captured backward. Otherwise the captured graph
 * runs by itself. The graphs (and the captured graph, when no gradient is needed) go through
 * {@code forward}/{@code backward} compilers: the interpreter for {@code "aot_eager"} (the kernels eager code runs),
 * the code generator for {@code "inductor"}.
 */
final class AotBackend implements Backend {
    private final BiFunction<CompileId, CompileOptions, GraphCompiler> compilers;
    private final BiFunction<CompileId, CompileOptions, GraphCompiler> backwardCompilers;

    /**
     * {@code compilers} gives the compiler of a compile's forward or captured graph, {@code backwardCompilers} that of
     * its backward graph.
     */
    AotBackend(
            BiFunction<CompileId, CompileOptions, GraphCompiler> compilers,
            BiFunction<CompileId, CompileOptions, GraphCompiler> backwardCompilers) {
        this.compilers = compilers;
        this.backwardCompilers = backwardCompilers;
    }

    /** The joint, forward and backward graphs, or none when the call needs no gradient. */
    @Override
    public List<GraphModule> lower(GraphModule captured, Tensor[] fakeArgs, FakeTensorMode fake) {
        if (!needsGradients(captured, fakeArgs)) return List.of();
        GraphModule joint = AotAutograd.traceJoint(captured::call, fakeArgs);
        PartitionedGraphs parts = AotAutograd.partition(joint);
        return List.of(joint, parts.forward(), parts.backward());
    }

    @Override
    public Runner build(GraphModule captured, List<GraphModule> lowered, CompileId id, CompileOptions options) {
        GraphCompiler compiler = compilers.apply(id, options);
        if (lowered.isEmpty()) return compiler.compile(captured)::call;
        boolean[] withTangent = outputsRequiringGrad(captured);
        PartitionedGraphs parts =
                new PartitionedGraphs(lowered.get(1), lowered.get(2), withTangent.length, withTangent);
        AotFunction function = AotAutograd.runtime(parts, compiler, backwardCompilers.apply(id, options));
        return function::call;
    }

    @Override
    public void trace(CompileId id, List<GraphModule> lowered) {
        if (lowered.isEmpty()) return;
        StructuredTrace.aotJointGraph(id, lowered.get(0));
        StructuredTrace.aotForwardGraph(id, lowered.get(1));
        StructuredTrace.aotBackwardGraph(id, lowered.get(2));
    }

    private static boolean needsGradients(GraphModule captured, Tensor[] args) {
        if (!DispatchState.current().isGradEnabled()) return false;
        boolean input = false;
        for (Tensor a : args) input |= a.requiresGrad();
        if (!input) return false;
        for (boolean b : outputsRequiringGrad(captured)) if (b) return true;
        return false;
    }

    /** Per output of the captured graph, whether it requires grad: the outputs the joint graph gives a tangent. */
    private static boolean[] outputsRequiringGrad(GraphModule captured) {
        Node output = captured.graph().nodes().getLast();
        boolean[] out = new boolean[output.args().size()];
        for (int i = 0; i < out.length; i++) {
            if (!(output.args().get(i) instanceof Node n) || n.meta() == null) {
                throw new TorchException("aot_eager: output " + i + " of the captured graph is not a tensor value");
            }
            out[i] = n.meta().requiresGrad();
        }
        return out;
    }
}

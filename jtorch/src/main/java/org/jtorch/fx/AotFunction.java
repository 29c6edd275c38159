package org.jtorch.fx;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * A function compiled by AOT autograd ({@link AotAutograd#compile}, or {@link AotAutograd#runtime} from given graphs):
 * each {@link #call} runs the forward graph with grad mode off, and when an input requires grad (and grad mode is on)
 * its outputs get one autograd node, {@code CompiledFunctionBackward}, which runs the backward graph on the saved
 * values and the incoming gradients. So {@code loss.backward()} on an output fills the inputs' {@code .grad}.
 *
 * <p>The graphs were traced for the example inputs: each call takes as many inputs, of the same dtypes and ranks
 * (shapes are the caller's to guard). An input that requires grad now but did not when traced is refused, since the
 * graphs compute no gradient for it. Gradients of gradients through the node are not supported: with
 * {@code createGraph} the gradients get a node that raises a {@code TorchException} when differentiated again.
 */
public final class AotFunction {
    private final PartitionedGraphs graphs;
    private final GraphCompiler.CompiledGraph forward;
    private final GraphCompiler.CompiledGraph backward;
    private final List<TensorMeta> inputs;

    AotFunction(PartitionedGraphs graphs, GraphCompiler forwardCompiler, GraphCompiler backwardCompiler) {
        this.graphs = graphs;
        this.forward = forwardCompiler.compile(graphs.forward());
        this.backward = backwardCompiler.compile(graphs.backward());
        this.inputs = graphs.forward().graph().nodes().stream()
                .filter(n -> n.op().equals(Node.PLACEHOLDER))
                .map(Node::meta)
                .toList();
    }

    /** The forward and backward graphs this function runs. */
    public PartitionedGraphs graphs() {
        return graphs;
    }

    /** Runs the function on {@code args}, one per traced input; returns its outputs, differentiable as one node. */
    public Tensor[] call(Tensor... args) {
        check(args);
        return new CompiledFunction(forward, backward, graphs.outputCount(), graphs.outputsWithTangent())
                .applyAll((Object[]) args);
    }

    private void check(Tensor[] args) {
        if (args == null || args.length != inputs.size()) {
            throw new TorchException("AotFunction.call: expected " + inputs.size() + " inputs, got "
                    + (args == null ? "null" : String.valueOf(args.length)));
        }
        for (int i = 0; i < args.length; i++) {
            TensorMeta traced = inputs.get(i);
            Tensor a = args[i];
            if (a == null) throw new TorchException("AotFunction.call: input " + i + " is null");
            if (a.dtype() != traced.dtype() || a.dim() != traced.shape().length) {
                throw new TorchException("AotFunction.call: input " + i + " is " + TensorMeta.of(a)
                        + " but the graphs were traced for " + traced);
            }
            if (a.requiresGrad() && !traced.requiresGrad()) {
                throw new TorchException("AotFunction.call: input " + i + " requires grad, but it did not when the "
                        + "graphs were traced, so they compute no gradient for it; trace again with it requiring grad");
            }
        }
    }
}

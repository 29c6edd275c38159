package org.jtorch.fx;

import java.util.function.Function;
import org.jtorch.Tensor;

/**
 * AOT autograd ({@code torch._functorch.aot_autograd}): captures a function's forward and backward passes ahead of time
 * as graphs, and runs them as one autograd op.
 *
 * <ol>
 *   <li>{@link #traceJoint}: the joint forward-backward graph. The function runs under the tracer with grad mode on,
 *       then {@code autograd.grad} of its outputs runs under the same tracer; JTorch's backward rules are written in
 *       JTorch ops, so the backward is recorded as ops on the forward's nodes.
 *   <li>{@link #partition}: the forward graph (inputs to outputs and saved values) and the backward graph (saved values
 *       and tangents to gradients), either saving everything the backward reads or recomputing cheap ops
 *       ({@link SavePolicy}).
 *   <li>{@link #runtime}: the two graphs, each made runnable by a {@link GraphCompiler}, behind one autograd node.
 * </ol>
 *
 * <p>{@link #compile} does all three. A module's parameters take part as inputs: trace a function that calls the module
 * with its parameters replaced by its inputs ({@code Func.functionalCall}), as {@code aot_module} does, and pass the
 * parameters at each call, so that their gradients arrive in their {@code .grad}.
 *
 * <p>What the partitioners save, for one training step (forward, loss, backward) in float32, counting the inputs the
 * backward reads among the saved values (the MLP's ReLU leaves nothing cheaper to recompute; in the GPT, recomputing
 * the layer norms' and GELUs' pointwise ops saves a third of the bytes). {@code AotAutogradTest.savedBytesOfAnMlpStep}
 * and {@code AotGptTest.defaultSizeCaptureTimeAndSavedBytes} print them:
 *
 * <table>
 *   <caption>saved values: count and bytes</caption>
 *   <tr><th>model</th><th>{@link SavePolicy#SAVE_ALL}</th><th>{@link SavePolicy#RECOMPUTE}</th></tr>
 *   <tr><td>MLP 784-256-10, batch 64, ReLU, cross entropy</td><td>8, 279,876</td><td>8, 279,876</td></tr>
 *   <tr><td>TrainGpt's GPT (4 layers, 128 wide, block 128, batch 16)</td><td>101, 106,668,036</td>
 *       <td>83, 73,038,852</td></tr>
 * </table>
 */
public final class AotAutograd {
    private AotAutograd() {}

    /**
     * The joint graph of {@code fn} at {@code exampleInputs}. Its placeholders are {@code primals_1..n} (every input,
     * in order) then {@code tangents_1..m} (one per output that requires grad, in order: the gradient arriving at that
     * output). It returns the outputs, then one gradient per input: None for an input that does not require grad or
     * that no output depends on. Nothing the forward computes depends on a tangent.
     *
     * <p>The function runs once, on fake tensors standing for the inputs (fresh leaves, requiring grad where the inputs
     * do): Java code in it runs at trace time only, and Java code that reads a tensor's values throws
     * {@code DataDependentOutputException} naming the read. In-place ops on intermediates are functionalized away.
     * Throws {@code TorchException} when no input requires grad, when no output does, when an input or output is null,
     * or when the function writes into an input.
     */
    public static GraphModule traceJoint(Function<Tensor[], Tensor[]> fn, Tensor... exampleInputs) {
        return JointTrace.trace(fn, exampleInputs);
    }

    /** {@link #partition(GraphModule, SavePolicy)} with {@link SavePolicy#RECOMPUTE}, PyTorch's default for compile. */
    public static PartitionedGraphs partition(GraphModule joint) {
        return partition(joint, SavePolicy.RECOMPUTE);
    }

    /**
     * Splits a joint graph from {@link #traceJoint} into a forward and a backward graph ({@link PartitionedGraphs}),
     * choosing the saved values by {@code policy}; both graphs are cleared of dead code. The joint graph is read, not
     * changed. Throws {@code TorchException} for a graph that is not a functional joint graph.
     */
    public static PartitionedGraphs partition(GraphModule joint, SavePolicy policy) {
        return Partitioner.partition(joint, policy);
    }

    /** {@link #runtime(PartitionedGraphs, GraphCompiler, GraphCompiler)} running both graphs with the interpreter. */
    public static AotFunction runtime(PartitionedGraphs graphs) {
        return runtime(graphs, GraphCompiler.INTERPRETER, GraphCompiler.INTERPRETER);
    }

    /** The function that runs {@code graphs}, compiled once each by the given compilers. */
    public static AotFunction runtime(
            PartitionedGraphs graphs, GraphCompiler forwardCompiler, GraphCompiler backwardCompiler) {
        return new AotFunction(graphs, forwardCompiler, backwardCompiler);
    }

    /** Traces, partitions with {@link SavePolicy#RECOMPUTE} and wraps {@code fn}, running the graphs interpreted. */
    public static AotFunction compile(Function<Tensor[], Tensor[]> fn, Tensor... exampleInputs) {
        return compile(fn, SavePolicy.RECOMPUTE, GraphCompiler.INTERPRETER, GraphCompiler.INTERPRETER, exampleInputs);
    }

    /** {@code aot_function(fn, fw_compiler, bw_compiler, partition_fn)}: trace, partition by {@code policy}, wrap. */
    public static AotFunction compile(
            Function<Tensor[], Tensor[]> fn,
            SavePolicy policy,
            GraphCompiler forwardCompiler,
            GraphCompiler backwardCompiler,
            Tensor... exampleInputs) {
        return runtime(partition(traceJoint(fn, exampleInputs), policy), forwardCompiler, backwardCompiler);
    }
}

package org.jtorch.fx;

import org.jtorch.Tensor;

/**
 * Turns a graph into something that runs: what AOT autograd hands its forward and backward graphs to (PyTorch's
 * {@code fw_compiler} and {@code bw_compiler}). {@link #INTERPRETER} runs the graph node by node with
 * {@link GraphModule#call}; a compiler backend generates code instead.
 */
@FunctionalInterface
public interface GraphCompiler {
    /** Runs each graph with {@link GraphModule#call}, dispatching node by node: the same kernels eager code runs. */
    GraphCompiler INTERPRETER = graph -> graph::call;

    /** The runnable form of {@code graph}; it must take and return the graph's placeholders and outputs in order. */
    CompiledGraph compile(GraphModule graph);

    /** A graph made runnable by a {@link GraphCompiler}. */
    @FunctionalInterface
    interface CompiledGraph {
        /** Runs the graph on one tensor per placeholder; returns one value per output (null for None). */
        Tensor[] call(Tensor... inputs);
    }
}

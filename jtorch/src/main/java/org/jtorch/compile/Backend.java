package org.jtorch.compile;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.GraphModule;

/**
 * What a {@code torch.compile} backend does with a captured graph, in two steps so that the compile front end can
 * generalize over sizes in between: {@link #lower} turns one capture into the graphs the backend runs (traced on fake
 * tensors, once per trace the shape generalizer asks for), and {@link #build} turns the captured graph and those
 * graphs, generalized, into the callable.
 */
interface Backend {
    /**
     * The graphs to run for {@code captured} besides itself (none when the backend runs the captured graph), made
     * inside {@code fake}'s mode; {@code fakeArgs} are fake tensors for the graph's inputs (the user's, then the lifted
     * tensors).
     */
    List<GraphModule> lower(GraphModule captured, Tensor[] fakeArgs, FakeTensorMode fake);

    /**
     * The callable running the captured graph, or the graphs {@link #lower} made from it: it takes the user's inputs
     * followed by the lifted tensors. What the backend generates is traced under {@code id}; {@code options} are the
     * compile's options.
     */
    Runner build(GraphModule captured, List<GraphModule> lowered, CompileId id, CompileOptions options);

    /** Writes the graphs {@link #lower} made to the structured trace, under the compile's id. */
    default void trace(CompileId id, List<GraphModule> lowered) {}

    /** A compiled graph ready to run. */
    interface Runner {
        Tensor[] run(Tensor[] args);
    }
}

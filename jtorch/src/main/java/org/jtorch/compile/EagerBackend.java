package org.jtorch.compile;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.GraphModule;

/**
 * The {@code "eager"} backend: runs the captured graph node by node through the dispatcher, so autograd records as in
 * eager code. It tests capture (PyTorch's use of it).
 */
final class EagerBackend implements Backend {
    @Override
    public List<GraphModule> lower(GraphModule captured, Tensor[] fakeArgs, FakeTensorMode fake) {
        return List.of();
    }

    @Override
    public Runner build(GraphModule captured, List<GraphModule> lowered, CompileId id, CompileOptions options) {
        return captured::call;
    }
}

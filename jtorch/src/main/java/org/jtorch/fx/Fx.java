package org.jtorch.fx;

import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;

/**
 * {@code torch.fx.experimental.proxy_tensor.make_fx}: captures a Java function of tensors as a {@link GraphModule}.
 *
 * <p>The function runs once on the example inputs under a tracer entered on the thread's dispatch state (kind
 * {@link DispatchState.Kind#TRACE}). Every op that reaches the tracer is recorded as a call of its overload and then
 * run for real below it, so the function computes with real values and each node records its output's shape, strides,
 * dtype, device and requires-grad. Composite ops are recorded as the ops they expand into; grad mode is whatever it is
 * when {@code makeFx} is called (autograd records below the tracer as usual, and requires-grad goes into the metadata).
 *
 * <p>Tracing with example inputs on the meta device runs no kernel and gives the same graph, with the metadata computed
 * by the ops' meta rules: that is the fake-tensor path. Java code that reads values ({@code item()}) cannot run on meta
 * tensors, as it cannot on PyTorch's fake tensors.
 */
public final class Fx {
    private Fx() {}

    /** Traces {@code fn} on {@code exampleInputs}: one placeholder per input, one node per op, the results output. */
    public static GraphModule makeFx(Function<Tensor[], Tensor[]> fn, Tensor... exampleInputs) {
        return trace(new Tracer(), fn, exampleInputs);
    }

    /** Traces {@code fn} on {@code exampleInputs} with {@code tracer}. */
    static GraphModule trace(Tracer tracer, Function<Tensor[], Tensor[]> fn, Tensor... exampleInputs) {
        for (Tensor input : exampleInputs) tracer.input(input);
        Tensor[] results;
        try (var _ = DispatchState.enter(tracer)) {
            results = fn.apply(exampleInputs.clone());
        }
        tracer.output(results);
        return new GraphModule(tracer.graph(), tracer.constants());
    }

    /**
     * {@code torch.func.functionalize} applied to a captured graph (what {@code make_fx(functionalize(f))} records):
     * the graph rewritten without in-place or {@code out=} calls, with copies into the written inputs at the end. See
     * {@link Functionalization}.
     */
    public static GraphModule functionalize(GraphModule gm) {
        return Functionalization.run(gm);
    }
}

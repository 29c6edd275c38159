package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;

/**
 * Ops that exist for backward rules (as ATen's {@code select_backward}, {@code slice_backward}): they
 * place a gradient into zeros of the input's shape out of place, so that they too are differentiable
 * and double backward through views works. Their own backward is the view they undo.
 */
public final class BackwardOps {
    private BackwardOps() {}

    private static Spec zerosLike(Object[] args) {
        Tensor g = (Tensor) args[0];
        return Spec.of(Shapes.checkSizes("backward", ((long[]) args[1]).clone()), g.dtype(), g.device(), null);
    }

    /** {@code select_backward(grad, input_sizes, dim, index)}: zeros with {@code grad} at {@code index} of {@code dim}. */
    public static final OpDef SELECT_BACKWARD = OpDef.structured(
            "select_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt index) -> Tensor", BackwardOps::zerosLike,
            (args, outs, spec) -> ShapeOps.select(outs[0], (int) (long) (Long) args[2], (Long) args[3]).copy_((Tensor) args[0]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {ShapeOps.select(g[0], (int) (long) (Long) a[2], (Long) a[3])});

    /** {@code slice_backward(grad, input_sizes, dim, start, end, step)}. */
    public static final OpDef SLICE_BACKWARD = OpDef.structured(
            "slice_backward(Tensor grad_output, SymInt[] input_sizes, int dim, SymInt start, SymInt end, SymInt step) -> Tensor",
            BackwardOps::zerosLike,
            (args, outs, spec) -> ShapeOps.slice(outs[0], (int) (long) (Long) args[2], (Long) args[3], (Long) args[4], (Long) args[5])
                    .copy_((Tensor) args[0]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {
                ShapeOps.slice(g[0], (int) (long) (Long) a[2], (Long) a[3], (Long) a[4], (Long) a[5])});

    public static Tensor selectBackward(Tensor grad, long[] inputSizes, long dim, long index) {
        return Dispatcher.call1(SELECT_BACKWARD, grad, inputSizes, dim, index);
    }

    public static Tensor sliceBackward(Tensor grad, long[] inputSizes, long dim, Long start, Long end, long step) {
        return Dispatcher.call1(SLICE_BACKWARD, grad, inputSizes, dim, start, end, step);
    }
}

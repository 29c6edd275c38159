package org.jtorch.func;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.ReductionOps;

/**
 * Forward mode from reverse mode, exactly: {@code J v = d/du <J^T u, v>}, where {@code u -> J^T u} is the
 * vjp of f at the primals (linear in u, so its gradient at u = 0 is exact). Costs two reverse passes and
 * needs the backward rules to be differentiable, which they are by construction. Real dtypes.
 */
final class DoubleVjpTangents implements TangentPropagation {
    @Override
    public JvpResult jvp(Function<Object[], Object> f, Object[] primals, Object[] tangents, boolean hasAux) {
        int[] all = new int[primals.length];
        for (int i = 0; i < all.length; i++) all[i] = i;
        Differentiation.Traced traced = Differentiation.trace(f, primals, all, hasAux, "jvp");
        List<Object> outLeaves = PyTree.leaves(traced.output);
        List<Tensor> outs = new ArrayList<>();
        for (Object o : outLeaves) outs.add((Tensor) o);
        List<Object> tangentLeaves = PyTree.leaves(tangents);
        // grad over the cotangents u of <vjp(u), v>, starting at u = 0.
        Object[] zeros = new Object[outs.size()];
        for (int i = 0; i < zeros.length; i++) zeros[i] = Torch.zerosLike(outs.get(i));
        int[] argnums = new int[zeros.length];
        for (int i = 0; i < argnums.length; i++) argnums[i] = i;
        Differentiation.Traced inner = Differentiation.trace(u -> {
            List<Tensor> us = new ArrayList<>();
            for (Object x : u) us.add((Tensor) x);
            Tensor[] g = traced.gradientsForced(outs, us);
            Tensor total = null;
            for (int i = 0; i < g.length; i++) {
                Tensor v = (Tensor) tangentLeaves.get(i);
                Tensor term = (Tensor) org.jtorch.dispatch.Dispatcher.call(ReductionOps.SUM,
                        org.jtorch.dispatch.Dispatcher.call(PointwiseOps.MUL, g[i], v), null, false, null);
                total = total == null ? term : total.add(term);
            }
            return total;
        }, zeros, argnums, false, "jvp");
        Tensor[] jv = inner.gradients(List.of((Tensor) inner.output), null);
        Object jvpOut = PyTree.rebuild(traced.output, java.util.Arrays.asList((Object[]) jv).iterator());
        return new JvpResult(Differentiation.release(traced.output, traced.createGraph), jvpOut, traced.aux);
    }
}

package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.Tensor;

/**
 * The vmap rule of every pool, its backward and max unpooling (functorch's pooling batch rules): the ops take [C,
 * spatial...] or [N, C, spatial...], so the vmapped dim becomes N for an unbatched example and folds into N with a
 * reshape for a batched one, and the results split back. Planes pool independently and max-pool indices are flat
 * positions within a plane, so folding changes no value. Every tensor argument of the call has the same leading dims
 * (input, grad_output, indices); an unbatched one is expanded to the batch.
 */
final class PoolBatchRule implements OpDef.BatchRule {
    /** The rule of the 2-d ops: [C, H, W] or [N, C, H, W]. */
    static final PoolBatchRule FOLD_2D = new PoolBatchRule(2);

    /** The rule of the 3-d ops: [C, D, H, W] or [N, C, D, H, W]. */
    static final PoolBatchRule FOLD_3D = new PoolBatchRule(3);

    private final int spatial;

    private PoolBatchRule(int spatial) {
        this.spatial = spatial;
    }

    @Override
    public Object apply(BatchCall call) {
        call.logicalSpec(); // the op's checks on the shapes the user sees (ops with a meta rule)
        if (call.outs() != null) return DECLINE;
        Object[] a = call.args().clone();
        long[] lead = null;
        int rank = -1;
        for (Object o : a) {
            if (!(o instanceof Tensor t)) continue;
            if (rank < 0) rank = t.dim();
            // composites (max_unpool) have no meta rule: an argument pattern they would refuse goes to the loop
            if (t.dim() != rank || rank != spatial + 1 && rank != spatial + 2) return call.perExample();
        }
        boolean unbatchedExamples = rank == spatial + 1;
        for (int i = 0; i < a.length; i++) {
            if (!(a[i] instanceof Tensor t)) continue;
            Tensor p = call.frontExpanded(t);
            if (!unbatchedExamples) {
                long[] s = p.shape();
                lead = new long[] {s[0], s[1]};
                long[] merged = Arrays.copyOfRange(s, 1, s.length);
                merged[0] = s[0] * s[1];
                p = call.reshape(p, merged);
            }
            a[i] = p;
        }
        Object r = call.call(call.op(), a);
        if (unbatchedExamples) return call.wrap(r);
        if (r instanceof Tensor t) return call.wrap(split(call, t, lead));
        Tensor[] ts = ((Tensor[]) r).clone();
        for (int i = 0; i < ts.length; i++) ts[i] = split(call, ts[i], lead);
        return call.wrap(ts);
    }

    /** [B·N, rest...] back to [B, N, rest...]. */
    private static Tensor split(BatchCall call, Tensor t, long[] lead) {
        long[] s = new long[t.dim() + 1];
        s[0] = lead[0];
        s[1] = lead[1];
        System.arraycopy(t.shape(), 1, s, 2, t.dim() - 1);
        return call.reshape(t, s);
    }
}

package org.jtorch.func;

import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.DistanceOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.ShapeOps;

/**
 * Batch rules of the pairwise distances. cdist's two kernels broadcast their batch dims, so the vmapped dim is one more
 * of them; pdist takes a matrix only, so a batch of matrices goes through cdist's direct kernel, which computes every
 * pair with the same arithmetic, and keeps pdist's pairs i &lt; j.
 */
final class DistanceBatchRules {
    private DistanceBatchRules() {}

    static void install() {
        DistanceOps.CDIST_FORWARD.defineBatchRule(c -> broadcastMatrices(c, 0, 1));
        DistanceOps.EUCLIDEAN_DIST.defineBatchRule(c -> broadcastMatrices(c, 0, 1));
        DistanceOps.PDIST_FORWARD.defineBatchRule(DistanceBatchRules::pdist);
    }

    /**
     * An op of batched matrix arguments whose batch dims broadcast: each batched one goes batch-first and is padded
     * with unit dims to the largest logical rank among them, so that its batch dim lines up; unbatched ones broadcast
     * from the right as they are.
     */
    static Object broadcastMatrices(BatchCall c, int... matrices) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        int rank = 0;
        for (int i : matrices) rank = Math.max(rank, ((Tensor) c.args()[i]).dim());
        Object[] a = c.args().clone();
        for (int i : matrices) a[i] = c.frontPadded(c.args()[i], rank);
        return c.wrap(c.call(c.op(), a));
    }

    // _pdist_forward(self, p)
    private static Object pdist(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        Tensor x = c.front(c.args()[0]); // [B, N, M]
        long n = x.size(1);
        Tensor all = c.call1(DistanceOps.CDIST_FORWARD, x, x, c.args()[1], null); // [B, N, N]
        long[] pairs = new long[Math.toIntExact(n <= 1 ? 0 : n * (n - 1) / 2)];
        int k = 0;
        for (long i = 0; i < n; i++) for (long j = i + 1; j < n; j++) pairs[k++] = i * n + j;
        Tensor flat = c.call1(ShapeOps.RESHAPE, all, new long[] {c.batch(), n * n});
        return c.wrap(c.call(ScatterOps.INDEX_SELECT, flat, 1L, Torch.tensor(pairs)));
    }
}

package org.jtorch.func;

import org.jtorch.Tensor;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.LinalgSolveOps;
import org.jtorch.ops.OpDef;

/**
 * Batch rules of the solvers of two operands ({@link LinalgSolveOps}): their kernels broadcast the batch dims of the
 * operands, so the vmapped dim becomes one more batch dim. Operands whose batch dims must be equal (an LU and its
 * pivots, a Householder input and its scalars) are both expanded to the batch.
 */
final class LinalgSolveBatchRules {
    private LinalgSolveBatchRules() {}

    static void install() {
        LinalgSolveOps.SOLVE_TRIANGULAR.defineBatchRule(c -> DistanceBatchRules.broadcastMatrices(c, 0, 1));
        LinalgSolveOps.LSTSQ_SOLVE.defineBatchRule(c -> DistanceBatchRules.broadcastMatrices(c, 0, 1));
        LinalgSolveOps.LSTSQ.defineBatchRule(LinalgSolveBatchRules::lstsq);
        LinalgSolveOps.LU_SOLVE.defineBatchRule(LinalgSolveBatchRules::luSolve);
        LinalgSolveOps.HOUSEHOLDER_PRODUCT.defineBatchRule(LinalgSolveBatchRules::householderProduct);
    }

    // linalg_lu_solve(LU, pivots, B, *, left, adjoint): LU.shape[:-1] must equal pivots.shape, B broadcasts
    private static Object luSolve(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        Tensor lu = (Tensor) c.args()[0], b = (Tensor) c.args()[2];
        int rank = Math.max(lu.dim(), b.dim());
        Object[] a = c.args().clone();
        if (c.batched(0) || c.batched(1)) {
            Tensor plu = c.frontExpanded(lu), piv = c.frontExpanded(c.args()[1]);
            for (int r = lu.dim(); r < rank; r++) {
                plu = c.unsqueeze(plu, 1);
                piv = c.unsqueeze(piv, 1);
            }
            a[0] = plu;
            a[1] = piv;
        } else {
            a[0] = c.front(lu);
            a[1] = c.front(c.args()[1]);
        }
        a[2] = c.frontPadded(b, rank);
        return c.wrap(c.call(LinalgSolveOps.LU_SOLVE, a));
    }

    /**
     * linalg_lstsq(self, b, rcond, *, driver), a composite that reads the ranks to decide whether to return residuals
     * (gelsd and gelss): run below this level on the whole batch, it decides for all examples at once, as PyTorch's
     * batched kernel does. A vector right-hand side, which a batch dim would make a matrix, takes the composite's
     * pieces instead.
     */
    private static Object lstsq(BatchCall c) {
        Tensor a = (Tensor) c.args()[0], b = (Tensor) c.args()[1];
        boolean vector = b.dim() == 1
                || b.dim() == a.dim() - 1
                        && java.util.Arrays.equals(b.shape(), java.util.Arrays.copyOf(a.shape(), b.dim()));
        if (vector || a.dim() < 2 || c.outs() != null) return OpDef.BatchRule.DECLINE;
        int rank = Math.max(a.dim(), b.dim());
        Tensor[] r = ((Tensor[])
                        c.call(c.op(), c.frontPadded(a, rank), c.frontPadded(b, rank), c.args()[2], c.args()[3]))
                .clone();
        for (int i = 1; i < r.length; i++) {
            // an output the driver leaves empty ([0]) is empty for every example
            if (r[i].dim() == 1 && r[i].size(0) == 0) r[i] = c.reshape(r[i], c.batch(), 0);
        }
        return c.wrap(r);
    }

    // linalg_householder_product(input, tau): the batch dims of tau must equal input's
    private static Object householderProduct(BatchCall c) {
        c.logicalSpec();
        if (c.outs() != null) return OpDef.BatchRule.DECLINE;
        return c.wrap(c.call(c.op(), c.frontExpanded(c.args()[0]), c.frontExpanded(c.args()[1])));
    }
}

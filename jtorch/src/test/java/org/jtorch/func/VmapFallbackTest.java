package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.WarningRecorder;
import org.junit.jupiter.api.Test;

/** The ops that still run the per-example fallback, and its one-time performance warning. */
class VmapFallbackTest {
    /**
     * Every op without a batching rule (composites are covered by their pieces, random ops by the randomness
     * mode). This list may only shrink: an op added to the table needs a rule, or an entry here with a reason.
     */
    private static final List<String> FALLBACK = List.of(
            "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward", // (as the pools below)
            "_as_strided_transfer", // addresses storage directly
            "_cdist_forward", "_euclidean_dist", // distances: two batched operands with broadcast batch dims
            "_index_put.integer", // advanced indexing (a batched index moves result dims)
            "_linalg_lstsq_solve", // two operands, rank-dependent outputs
            "_pdist_forward", // 2-d input only
            "_scatter_reduce_prod_src_grad", // backward helper of scatter_reduce("prod")
            "_to_device", // device copy: its meta rule refuses the meta inputs a rule's shape check uses
            "as_strided", // addresses storage directly
            // pooling and convolution: the vmapped dim would have to fold into N (or C) with a reshape per call:
            // not written yet
            "avg_pool2d", "avg_pool2d_backward",
            "convolution", "convolution_backward_input", "convolution_backward_weight",
            "histc", // one histogram per example
            "linalg_householder_product", "linalg_lu_solve", "linalg_solve_triangular", // two operands to broadcast
            "masked_scatter", // consumes source elements in mask order, per example
            "max_pool2d_with_indices", "max_pool2d_with_indices_backward", // (as the other pools)
            "nonzero_static", // fixed-size nonzero, per example
            "take"); // flat indices with negative wrap-around

    @Test
    void fallbackListOnlyShrinks() {
        assertEquals(FALLBACK, BatchRules.fallbackOps());
    }

    /**
     * The warning is a {@link Warnings#warnOnce} (printed once per op, see WarningsTest); a recorder sees every
     * one, whichever test ran the op first.
     */
    @Test
    void fallbackWarnsEachTimeItRunsUnderARecorderAndMatchesTheLoop() {
        Tensor x = Torch.tensor(new double[][] {{0.1, 0.5, 0.9}, {0.3, 0.3, 0.7}});
        try (WarningRecorder w = Warnings.catchWarnings()) {
            VmapSettings.setFallbackWarningEnabled(true);
            Tensor r1 = Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            List<String> mine = w.records().stream().map(r -> r.message()).filter(m -> m.contains("aten::histc")).toList();
            assertEquals(2, mine.size(), "one warning per fallback run: " + mine);
            assertTrue(mine.get(0).startsWith("There is a performance drop because we have not yet implemented the "
                    + "batching rule for aten::histc"), mine.get(0));
            assertEquals(List.of(1.0, 2.0, 2.0, 1.0), java.util.Arrays.stream(r1.toDoubleArray()).boxed().toList());
        }
    }
}

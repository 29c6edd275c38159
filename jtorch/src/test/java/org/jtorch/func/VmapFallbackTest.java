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
            "_scatter_reduce_prod_src_grad", // backward helper of scatter_reduce("prod")
            "as_strided", "as_strided_transfer", // address storage directly
            "histc", // one histogram per example
            "index_put.integer", // advanced-index writes
            "masked_scatter", // consumes source elements in mask order, per example
            "nonzero_static", // fixed-size nonzero, per example
            "take"); // flat indices with negative wrap-around

    @Test
    void fallbackListOnlyShrinks() {
        assertEquals(FALLBACK, BatchRules.fallbackOps());
    }

    @Test
    void fallbackWarnsOncePerOpAndMatchesTheLoop() {
        Tensor x = Torch.tensor(new double[][] {{0.1, 0.5, 0.9}, {0.3, 0.3, 0.7}});
        VmapInterpreter.forgetWarnings();
        try (WarningRecorder w = Warnings.catchWarnings()) {
            VmapSettings.setFallbackWarningEnabled(true);
            Tensor r1 = Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            List<String> mine = w.records().stream().map(r -> r.message()).filter(m -> m.contains("aten::histc")).toList();
            assertEquals(1, mine.size(), "warned other than once: " + mine);
            {
                assertTrue(mine.get(0).startsWith("There is a performance drop because we have not yet implemented the batching rule for "
                        + "aten::histc"), mine.get(0));
            }
            assertEquals(List.of(1.0, 2.0, 2.0, 1.0), java.util.Arrays.stream(r1.toDoubleArray()).boxed().toList());
        }
    }
}

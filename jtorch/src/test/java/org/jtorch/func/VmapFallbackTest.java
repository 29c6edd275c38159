package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.junit.jupiter.api.Test;

/** The ops declared to run the per-example fallback, and its one-time performance warning. */
class VmapFallbackTest {
    /** The fallback list is the ops' declarations: each with its reason, and none of them with a rule. */
    @Test
    void fallbackOpsAreTheDeclaredOnes() {
        java.util.Map<String, String> declared = BatchRules.fallbackOps();
        assertTrue(declared.containsKey("histc"), declared.keySet().toString());
        for (OpDef op : OpRegistry.all()) {
            if (!declared.containsKey(BatchRules.key(op))) continue;
            assertTrue(op.batchRule() == null, op + " has a rule and declares a fallback");
            assertTrue(!declared.get(BatchRules.key(op)).isBlank(), op + ": no reason");
        }
    }

    /**
     * The warning is a {@link Warnings#warnOnce} (printed once per op, see WarningsTest); a recorder sees every one,
     * whichever test ran the op first.
     */
    @Test
    void fallbackWarnsEachTimeItRunsUnderARecorderAndMatchesTheLoop() {
        Tensor x = Torch.tensor(new double[][] {{0.1, 0.5, 0.9}, {0.3, 0.3, 0.7}});
        try (WarningRecorder w = Warnings.catchWarnings()) {
            VmapSettings.setFallbackWarningEnabled(true);
            Tensor r1 = Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            Func.vmap(a -> Torch.histc(a, 2, 0.0, 1.0)).apply(x);
            List<String> mine = w.records().stream()
                    .map(r -> r.message())
                    .filter(m -> m.contains("aten::histc"))
                    .toList();
            assertEquals(2, mine.size(), "one warning per fallback run: " + mine);
            assertTrue(
                    mine.get(0)
                            .startsWith("There is a performance drop because we have not yet implemented the "
                                    + "batching rule for aten::histc"),
                    mine.get(0));
            assertEquals(
                    List.of(1.0, 2.0, 2.0, 1.0),
                    java.util.Arrays.stream(r1.toDoubleArray()).boxed().toList());
        }
    }
}

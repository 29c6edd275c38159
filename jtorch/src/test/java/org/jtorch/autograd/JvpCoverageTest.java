package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.junit.jupiter.api.Test;

/**
 * The rule the op table enforces: every op with a reverse-mode rule has a forward-mode rule too, except the ops listed
 * here with the reason. The list may only shrink: an excluded op that gains a JVP fails the test until it is removed
 * from the list.
 */
class JvpCoverageTest {
    /** op name → why it has no JVP. */
    static final Map<String, String> EXCLUDED = Map.of(
            "_foreach_pow.ScalarAndTensor",
            "PyTorch 2.13 defines no forward-mode rule for it (its derivatives.yaml entry has none) and refuses "
                    + "forward AD");

    /** Every registered op that autograd differentiates with its own rule, by name. */
    static Map<String, OpDef> differentiableOps() {
        Map<String, OpDef> ops = new TreeMap<>();
        for (OpDef op : OpRegistry.all()) {
            if (op.compositeFn() == null && op.isDifferentiable() && op.vjp() != null)
                ops.put(op.schema().operatorName(), op);
        }
        return ops;
    }

    @Test
    void everyOpWithAVjpHasAJvp() {
        TreeSet<String> missing = new TreeSet<>(), stale = new TreeSet<>();
        for (var e : differentiableOps().entrySet()) {
            boolean excluded = EXCLUDED.containsKey(e.getKey());
            if (e.getValue().jvp() == null && !excluded) missing.add(e.getKey());
            if (e.getValue().jvp() != null && excluded) stale.add(e.getKey());
        }
        assertEquals(
                new TreeSet<>(), missing, "ops with a VJP but no JVP (add .defineJvp/.deriveJvp at the definition)");
        assertEquals(new TreeSet<>(), stale, "ops that now have a JVP: remove them from EXCLUDED");
    }
}

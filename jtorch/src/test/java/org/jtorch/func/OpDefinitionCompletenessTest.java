package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.invoke.MethodHandles;
import java.util.TreeSet;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.OpRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every registered op is complete or declares its gap, with a reason, on its definition: for vmap a batch rule, a
 * composite body, randomness, or a declared per-example fallback; for autograd a VJP, a composite body, "not
 * differentiable", or a declared missing derivative (which the registry also checks as it loads). An op without tensor
 * inputs (a factory) is never batched. (The batch rules attach when vmap's interpreter loads.)
 */
class OpDefinitionCompletenessTest {
    @BeforeAll
    static void loadBatchRules() throws IllegalAccessException {
        MethodHandles.lookup().ensureInitialized(VmapInterpreter.class);
    }

    /** Whether the op takes a tensor (or tensor list) argument. */
    private static boolean takesTensors(OpDef op) {
        return op.schema().arguments().stream().anyMatch(a -> a.type().holdsTensors());
    }

    @Test
    void everyOpWithTensorInputsHasABatchRuleOrDeclaresItsFallback() {
        TreeSet<String> undeclared = new TreeSet<>();
        for (OpDef op : OpRegistry.all()) {
            boolean covered = op.batchRule() != null
                    || op.compositeFn() != null
                    || op.has(OpDef.Flag.RANDOM)
                    || op.vmapFallbackReason() != null;
            if (takesTensors(op) && !covered) undeclared.add(op.qualifiedName());
        }
        assertEquals(
                new TreeSet<>(),
                undeclared,
                "ops vmap would loop over silently: write a batch rule or declare "
                        + "vmapFallsBack(reason) at the definition");
    }
}

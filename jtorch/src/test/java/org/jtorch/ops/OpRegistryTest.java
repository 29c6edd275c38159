package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one op registry: every op once under its aten:: name, found by name, closed after start-up. */
class OpRegistryTest {
    @Test
    void lookupFindsTheDefinitionByQualifiedName() {
        // the checked definition, which took the place of the one it wraps
        assertSame(PointwiseOps.ADD, OpRegistry.lookup("aten::add.Tensor"));
        assertSame(LinalgOps.CHOLESKY, OpRegistry.lookup("aten::linalg_cholesky"));
        assertSame(ForeachOps.ADD_LIST.op(), OpRegistry.lookup("aten::_foreach_add.List"));
        assertSame(FusedOptimizerOps.ADAMW, OpRegistry.lookup("aten::_fused_adamw_"));
        assertNull(OpRegistry.lookup("aten::no_such_op"));
    }

    @Test
    void allIsEveryOpOnceInNameOrder() {
        List<String> names = OpRegistry.all().stream().map(OpDef::qualifiedName).toList();
        assertEquals(names.stream().sorted().distinct().toList(), names);
        assertTrue(names.size() > 400, "only " + names.size() + " ops");
    }

    @Test
    void aDefinitionAfterStartUpIsRefused() {
        OpRegistry.all();
        assertThrows(IllegalStateException.class, () -> OpDef.composite("late_op(Tensor self) -> Tensor", a -> a[0]));
        assertNull(OpRegistry.lookup("aten::late_op"));
    }

    @Test
    void aGapNeedsAReasonAndExcludesTheRule() {
        OpDef op = OpDef.Unregistered.structured("probe(Tensor self) -> Tensor", a -> null, (a, o, s) -> {});
        assertThrows(IllegalArgumentException.class, () -> op.vmapFallsBack(" "));
        op.vmapFallsBack("a probe");
        assertThrows(IllegalStateException.class, () -> op.defineBatchRule(c -> c.args()[0]));
        op.derivativeNotImplemented("a probe");
        assertThrows(IllegalStateException.class, () -> op.defineVjp(OpDef.Save.NOTHING, (a, o, g) -> g));
    }

    @Test
    void aDerivativeIsDeclaredByARuleABodyAFlagOrAGap() {
        assertFalse(probe().derivativeIsDeclared(), "a structured op with no rule and no declaration");
        assertTrue(probe().defineVjp(OpDef.Save.NOTHING, (a, o, g) -> g).derivativeIsDeclared());
        assertTrue(probe().derivativeNotImplemented("a probe").derivativeIsDeclared());
        assertTrue(OpDef.Unregistered.structured(
                        "probe(Tensor self) -> Tensor", a -> null, (a, o, s) -> {}, OpDef.Flag.NOT_DIFFERENTIABLE)
                .derivativeIsDeclared());
        assertTrue(OpDef.Unregistered.composite("probe(Tensor self) -> Tensor", a -> a[0])
                .derivativeIsDeclared());
        for (OpDef op : OpRegistry.all()) assertTrue(op.derivativeIsDeclared(), op.toString());
    }

    private static OpDef probe() {
        return OpDef.Unregistered.structured("probe(Tensor self) -> Tensor", a -> null, (a, o, s) -> {});
    }
}

package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.jtorch.ops.OpRegistry;
import org.junit.jupiter.api.Test;

/** Tensor's methods name their ops by qualified name ({@link Aten}): every name must be a registered op. */
class AtenTest {
    @Test
    void everyOpTensorCallsIsRegistered() throws IllegalAccessException {
        List<String> unknown = new ArrayList<>();
        int count = 0;
        for (Field f : Aten.class.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || f.getType() != AtenOp.class) continue;
            AtenOp op = (AtenOp) f.get(null);
            count++;
            if (OpRegistry.lookup(op.qualifiedName()) == null) unknown.add(f.getName() + " = " + op.qualifiedName());
            else assertEquals(OpRegistry.lookup(op.qualifiedName()), op.operator(), f.getName());
        }
        assertTrue(count > 100, "Aten declares " + count + " ops");
        assertEquals(List.of(), unknown);
    }

    @Test
    void anUnknownNameFailsWithTheName() {
        TorchException e =
                assertThrows(TorchException.class, () -> new AtenOp("aten::no_such_op").call(Torch.zeros(1)));
        assertTrue(e.getMessage().contains("'aten::no_such_op'"), e.getMessage());
    }
}

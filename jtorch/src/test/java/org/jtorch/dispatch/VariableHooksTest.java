package org.jtorch.dispatch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.ServiceLoader;
import org.jtorch.autograd.TensorHooks;
import org.junit.jupiter.api.Test;

/** {@code Tensor} reaches autograd only through the one {@link VariableHooks} the library installs. */
class VariableHooksTest {

    @Test
    void exactlyOneImplementationIsInstalledAndItIsAutogradsTensorHooks() {
        List<Class<?>> providers = ServiceLoader.load(VariableHooks.class).stream()
                .<Class<?>>map(ServiceLoader.Provider::type)
                .toList();
        assertEquals(List.of(TensorHooks.class), providers);
    }
}

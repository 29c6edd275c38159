package org.jtorch.func;

import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.dispatch.VmapHooks;

/**
 * {@code vmap} for the layers below this package ({@link VmapHooks}), found through the {@code META-INF/services} entry
 * (the module's {@code provides} clause on the module path); nothing else needs to create one.
 *
 * <p>A service provider must be public; the interface it implements is the dispatcher's and not exported, so it is no
 * API.
 */
@SuppressWarnings("exports")
public final class FuncVmapHooks implements VmapHooks<Tensor> {
    /** For {@link java.util.ServiceLoader}. */
    public FuncVmapHooks() {}

    @Override
    public List<Tensor> vmap(Function<Tensor, List<Tensor>> fn, Tensor stacked) {
        Function<Object[], Object> perSlice = a -> fn.apply((Tensor) a[0]).toArray(Tensor[]::new);
        return List.of((Tensor[]) Func.vmap(perSlice, VmapOptions.defaults()).apply(new Object[] {stacked}));
    }
}

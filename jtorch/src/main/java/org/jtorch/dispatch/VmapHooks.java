package org.jtorch.dispatch;

import java.util.List;
import java.util.function.Function;

/**
 * What layers below {@code org.jtorch.func} need of {@code vmap}: gradcheck's batched-gradient check runs a backward
 * pass under it. {@code org.jtorch.func} implements this interface and is found with {@link java.util.ServiceLoader},
 * as autograd is found through {@link VariableHooks}; so autograd needs no dependency on the transforms built on it.
 *
 * @param <T> the tensor type, {@code org.jtorch.Tensor}
 */
public interface VmapHooks<T> {
    /**
     * {@code vmap(fn)(stacked)}: {@code fn} applied to every slice of {@code stacked} along dim 0, its outputs stacked
     * along dim 0 (an output that does not depend on the slice is expanded).
     */
    List<T> vmap(Function<T, List<T>> fn, T stacked);
}

package org.jtorch.autograd;

import java.util.ServiceLoader;
import org.jtorch.Tensor;
import org.jtorch.dispatch.VmapHooks;

/**
 * The func package's vmap for gradcheck's batched checks, found as {@code Tensor} finds autograd: this package lies
 * below {@code func}.
 */
final class VmapService {
    private VmapService() {}

    @SuppressWarnings("unchecked") // ServiceLoader knows the raw interface; the one provider is VmapHooks<Tensor>
    static final VmapHooks<Tensor> HOOKS = ServiceLoader.load(VmapHooks.class, VmapHooks.class.getClassLoader())
            .findFirst()
            .orElseThrow(() -> new IllegalStateException("no implementation of " + VmapHooks.class.getName()
                    + " is installed (its META-INF/services entry is missing from the class path)"));
}

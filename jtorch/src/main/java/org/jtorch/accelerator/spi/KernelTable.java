package org.jtorch.accelerator.spi;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A backend's kernels, one per structured op, keyed by the op's qualified name ({@code aten::add.Tensor}), as a PyTorch
 * backend registers its kernels by schema name. The library checks every name against its ops when it loads the
 * backend: a name that is not a structured op's fails the load.
 */
public final class KernelTable {
    /** An empty table; a backend fills it with {@link #register}. */
    public KernelTable() {}

    private final ConcurrentHashMap<String, Kernel> kernels = new ConcurrentHashMap<>();

    /** Registers (or replaces) the kernel of the op named {@code qualifiedName}. Returns this. */
    public KernelTable register(String qualifiedName, Kernel kernel) {
        if (qualifiedName == null || !qualifiedName.contains("::")) {
            throw new IllegalArgumentException("KernelTable.register: expected an op's qualified name such as "
                    + "'aten::add.Tensor', got " + (qualifiedName == null ? "null" : "'" + qualifiedName + "'"));
        }
        if (kernel == null) throw new IllegalArgumentException("KernelTable.register: kernel is null");
        kernels.put(qualifiedName, kernel);
        return this;
    }

    /** The kernel registered for {@code qualifiedName}, or null. */
    public Kernel get(String qualifiedName) {
        return kernels.get(qualifiedName);
    }

    /** The qualified names of the ops with a kernel. */
    public Set<String> names() {
        return Set.copyOf(kernels.keySet());
    }
}

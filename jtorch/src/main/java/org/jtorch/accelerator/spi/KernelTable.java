package org.jtorch.accelerator.spi;

import java.util.concurrent.ConcurrentHashMap;
import org.jtorch.ops.OpDef;

/**
 * A backend's kernels, one per op: each sees the same validated arguments, the outputs allocated on the backend's
 * device from the op's meta rule, and the rule's {@link org.jtorch.ops.Spec}, exactly as the CPU kernel does.
 */
@SuppressWarnings("exports") // see the package documentation: op definitions are not exported
public final class KernelTable {
    /** An empty table; a backend fills it with {@link #register}. */
    public KernelTable() {}

    private final ConcurrentHashMap<OpDef, OpDef.Kernel> kernels = new ConcurrentHashMap<>();

    /** Registers (or replaces) the kernel of {@code op}. Returns this. */
    public KernelTable register(OpDef op, OpDef.Kernel kernel) {
        if (op.kernel() == null) {
            throw new IllegalArgumentException(op.name() + " is not a structured op: only structured ops have kernels "
                    + "(views and composites run on every device through their parts)");
        }
        kernels.put(op, kernel);
        return this;
    }

    /** The kernel of {@code op}, or null when none is registered. */
    public OpDef.Kernel get(OpDef op) {
        return kernels.get(op);
    }
}

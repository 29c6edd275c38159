package org.jtorch.accelerator.spi;

import org.jtorch.Tensor;
import org.jtorch.dispatch.Spec;

/**
 * A backend's kernel of one structured op: it sees the op's validated arguments, the outputs allocated on the backend's
 * device from the op's meta rule, and that rule's {@link Spec}, exactly as the op's CPU kernel does.
 */
@FunctionalInterface
@SuppressWarnings("exports") // see the package documentation: the meta rule's Spec is not exported
public interface Kernel {
    /** Writes {@code outs}. */
    void run(Object[] args, Tensor[] outs, Spec spec);
}

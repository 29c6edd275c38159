package org.jtorch.autograd;

import org.jtorch.Tensor;

/**
 * The forward-AD tangents a tensor carries, one per dual level: an immutable list held in the tensor's forward-grad
 * field (PyTorch's {@code ForwardGrad}). Only forward AD makes and reads one; other code can at most hand a tensor's
 * list on to a tensor that stands for it. Entries of closed levels are invisible and are dropped on the next write.
 */
public final class Tangents implements Tensor.ForwardGrad {
    private final DualLevel level;
    private final Tensor tangent;
    private final Tangents next;

    private Tangents(DualLevel level, Tensor tangent, Tangents next) {
        this.level = level;
        this.tangent = tangent;
        this.next = next;
    }

    /** The list {@code t} holds; forward AD made it, so it is one of these. */
    private static Tangents of(Tensor t) {
        return (Tangents) t.forwardGrads();
    }

    /** The tangent of {@code t} at {@code level}, or null. */
    static Tensor get(Tensor t, DualLevel level) {
        for (Tangents e = of(t); e != null; e = e.next) {
            if (e.level == level) return level.isOpen() ? e.tangent : null;
        }
        return null;
    }

    /** Sets (or, with null, removes) the tangent of {@code t} at {@code level}. */
    static void set(Tensor t, DualLevel level, Tensor tangent) {
        Tangents kept = tangent == null ? null : new Tangents(level, tangent, null);
        Tangents head = kept;
        for (Tangents e = of(t); e != null; e = e.next) {
            if (e.level == level || !e.level.isOpen()) continue;
            head = new Tangents(e.level, e.tangent, head);
        }
        t.setForwardGrads(head);
    }
}

package org.jtorch.autograd;

import org.jtorch.Tensor;

/**
 * The tangents a tensor carries, one per dual level, as an immutable list stored in the tensor's
 * forward-grad slot. Entries of closed levels are invisible and are dropped on the next write.
 */
record Tangents(DualLevel level, Tensor tangent, Tangents next) {

    /** The tangent of {@code t} at {@code level}, or null. */
    static Tensor get(Tensor t, DualLevel level) {
        for (Tangents e = (Tangents) t.forwardGrads(); e != null; e = e.next) {
            if (e.level == level) return level.isOpen() ? e.tangent : null;
        }
        return null;
    }

    /** Sets (or, with null, removes) the tangent of {@code t} at {@code level}. */
    static void set(Tensor t, DualLevel level, Tensor tangent) {
        Tangents kept = tangent == null ? null : new Tangents(level, tangent, null);
        Tangents head = kept;
        for (Tangents e = (Tangents) t.forwardGrads(); e != null; e = e.next) {
            if (e.level == level || !e.level.isOpen()) continue;
            head = new Tangents(e.level, e.tangent, head);
        }
        t.setForwardGrads(head);
    }
}

package org.jtorch.fx;

/** How {@link AotAutograd#partition} decides what the forward graph saves for the backward graph. */
public enum SavePolicy {
    /**
     * Save every value the forward computes and the backward reads (PyTorch's {@code default_partition}): the forward
     * graph computes exactly what its outputs need, and the backward graph starts from the saved values.
     */
    SAVE_ALL,
    /**
     * Save the set of values of least total size from which the backward can be computed, recomputing in the backward
     * graph the cheap ops between them and what it reads (PyTorch's {@code min_cut_rematerialization_partition}): a
     * minimum cut of the joint graph, weighted by the bytes of each value, where only pointwise and view ops (and ops
     * with no tensor input) may be recomputed. Matrix products, convolutions, reductions and random ops are computed
     * once, in the forward.
     */
    RECOMPUTE
}

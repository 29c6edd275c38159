package org.jtorch.distributed;

/** {@code torch.distributed.ReduceOp}: how a reducing collective combines the ranks' tensors elementwise. */
public enum ReduceOp {
    /** The sum; on booleans, logical or. */
    SUM,
    /** The sum divided by the group's size (truncating toward zero on integers); not for booleans. */
    AVG,
    /** The product; on booleans, logical and. */
    PRODUCT,
    /** The minimum; not for complex tensors. */
    MIN,
    /** The maximum; not for complex tensors. */
    MAX
}

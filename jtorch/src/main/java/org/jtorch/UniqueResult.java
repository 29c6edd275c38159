package org.jtorch;

/**
 * What {@code torch.unique}/{@code torch.unique_consecutive} return: the unique values, and when requested the int64
 * {@code inverseIndices} (where each input element went) and {@code counts}; an output that was not requested is
 * {@code null}.
 */
public record UniqueResult(Tensor output, Tensor inverseIndices, Tensor counts) {}

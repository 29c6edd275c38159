package org.jtorch;

/** PyTorch's {@code torch.return_types.max}/{@code min} (and kin): the reduced values and their int64 positions. */
public record ValuesIndices(Tensor values, Tensor indices) {}

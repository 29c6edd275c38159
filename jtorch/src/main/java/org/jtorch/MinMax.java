package org.jtorch;

/** PyTorch's {@code torch.return_types.aminmax}: the smallest and the largest values. */
public record MinMax(Tensor min, Tensor max) {}

package org.jtorch.autograd;

import org.jtorch.Tensor;

/**
 * {@code torch.autograd.forward_ad.UnpackedDualTensor}: the primal (a view of the dual tensor without the level's
 * tangent) and the tangent, null when the tensor carries none at the level.
 */
public record UnpackedDual(Tensor primal, Tensor tangent) {}

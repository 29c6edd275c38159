package org.jtorch.linalg;

import org.jtorch.Tensor;

/**
 * {@code torch.return_types.linalg_lstsq}: the solution; the squared residual norms (only when m > n with driver gels,
 * or gelsd/gelss on full-rank input, else empty); the effective rank (int64, not with gels); the singular values
 * (gelsd/gelss only, else empty).
 */
public record Lstsq(Tensor solution, Tensor residuals, Tensor rank, Tensor singularValues) {}

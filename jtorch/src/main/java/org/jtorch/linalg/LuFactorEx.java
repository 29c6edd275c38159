package org.jtorch.linalg;

import org.jtorch.Tensor;

/**
 * {@code torch.return_types.linalg_lu_factor_ex}: {@link LuFactor} plus LAPACK's int32 {@code info} per matrix (0 =
 * success).
 */
public record LuFactorEx(Tensor lu, Tensor pivots, Tensor info) {}

package org.jtorch.linalg;

import org.jtorch.Tensor;

/** {@code torch.return_types.linalg_lu_factor}: packed factors {@code LU} and int32 1-based {@code pivots}. */
public record LuFactor(Tensor lu, Tensor pivots) {}

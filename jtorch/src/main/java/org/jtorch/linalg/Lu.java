package org.jtorch.linalg;

import org.jtorch.Tensor;

/** {@code torch.return_types.linalg_lu}: {@code A = P L U}, P a permutation matrix, L unit lower, U upper. */
public record Lu(Tensor p, Tensor l, Tensor u) {}

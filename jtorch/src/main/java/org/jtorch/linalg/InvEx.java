package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#invEx}: the inverse and int32 info per matrix (k > 0: the LU's pivot k is zero). */
public record InvEx(Tensor inverse, Tensor info) {}

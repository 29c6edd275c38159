package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#solveEx}: the solution and int32 info per matrix (k > 0: the LU's pivot k is zero). */
public record SolveEx(Tensor result, Tensor info) {}

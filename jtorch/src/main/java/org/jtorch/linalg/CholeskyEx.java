package org.jtorch.linalg;

import org.jtorch.Tensor;

/**
 * Result of {@link Linalg#choleskyEx}: the factor and int32 info per matrix (k > 0: the minor of order k is not
 * positive-definite).
 */
public record CholeskyEx(Tensor l, Tensor info) {}

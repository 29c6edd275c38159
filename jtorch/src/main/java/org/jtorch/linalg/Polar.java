package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#polar}: {@code A = U H}, U with orthonormal columns, H Hermitian positive semi-definite. */
public record Polar(Tensor u, Tensor h) {}

package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#slogdet}: {@code det = sign * exp(logabsdet)}; sign has A's dtype, 0 for singular A. */
public record Slogdet(Tensor sign, Tensor logabsdet) {}

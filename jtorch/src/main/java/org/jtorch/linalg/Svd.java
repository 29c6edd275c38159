package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#svd}: {@code A = U diag(S) Vh}, S real and descending. */
public record Svd(Tensor u, Tensor s, Tensor vh) {}

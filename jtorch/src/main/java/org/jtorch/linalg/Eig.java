package org.jtorch.linalg;

import org.jtorch.Tensor;

/**
 * {@code torch.return_types.linalg_eig}: complex eigenvalues {@code (*, n)} and unit-norm right eigenvectors {@code (*,
 * n, n)}.
 */
public record Eig(Tensor eigenvalues, Tensor eigenvectors) {}

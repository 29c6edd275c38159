package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#eigh}: real ascending eigenvalues and the orthonormal eigenvectors as columns. */
public record Eigh(Tensor eigenvalues, Tensor eigenvectors) {}

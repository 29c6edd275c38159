package org.jtorch.linalg;

import org.jtorch.Tensor;

/** Result of {@link Linalg#qr}: {@code A = Q R}; Q is empty in mode {@link QrMode#R}. */
public record QR(Tensor q, Tensor r) {}

/**
 * {@code torch.fft}: discrete Fourier transforms ({@link org.jtorch.fft.FFT}). A library-layer package: it calls the op
 * definitions of {@code org.jtorch.ops} and the value types of {@code org.jtorch}.
 */
package org.jtorch.fft;

/**
 * Fast Fourier transforms of one line of numbers (complex mixed radix, Bluestein, real-input and real-output forms) and
 * the drivers that run them along dims of strided tensors; imports only org.jtorch.storage, org.jtorch.kernels.cpu and
 * base types.
 */
package org.jtorch.kernels.fft;

/**
 * Storage layer: the bytes behind tensors ({@link org.jtorch.storage.Storage}) and the strided window onto them that
 * kernels read and write ({@link org.jtorch.storage.TensorImpl}); imports nothing above it.
 */
package org.jtorch.storage;

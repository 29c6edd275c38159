/**
 * The core of JTorch, as {@code torch}: {@link org.jtorch.Tensor} (the n-dimensional array with autograd history and
 * PyTorch's methods), {@link org.jtorch.Torch} (the {@code torch.*} functions, meant to be imported statically),
 * {@link org.jtorch.DType} and {@link org.jtorch.Device}, random {@link org.jtorch.Generator}s, scalars, indices, the
 * exceptions ops raise and the {@link org.jtorch.Warnings} they give (Python's {@code warnings} filters). The rest of
 * the API is built on these types.
 */
package org.jtorch;

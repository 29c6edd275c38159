/**
 * {@code torch.utils.hooks}: {@link org.jtorch.utils.hooks.RemovableHandle}, what a hook registration returns. Depends
 * on nothing of JTorch's, so that {@code Tensor} and the autograd graph's public view, below autograd, can name it.
 */
package org.jtorch.utils.hooks;

/**
 * {@code torch._foreach_*}: one op applied to each tensor of a list (add, mul, lerp, sqrt, norm...), which the
 * optimizers use for their {@code foreach=True} paths. In PyTorch the benefit is fewer kernel launches; here the lists
 * are processed in one call so an optimizer step reads the same as PyTorch's and gives the same results.
 */
package org.jtorch.foreach;

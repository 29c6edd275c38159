/**
 * {@code torch.nn.functional}: the stateless forms of the layers, losses and activations
 * ({@link org.jtorch.nn.functional.F} mirrors {@code import torch.nn.functional as F}), scaled dot-product attention
 * and the scaled matrix multiplications of low-precision training, with their option records.
 */
package org.jtorch.nn.functional;

/**
 * {@code torch.distributions}: probability distributions with sampling (reparameterised where PyTorch has it),
 * log-densities, moments, constraints, transforms and {@link org.jtorch.distributions.KL#klDivergence KL divergences}.
 * A library-layer package: written with the {@code Torch} facade and {@code nn.functional}, as PyTorch's is written in
 * Python over tensor ops, so every method composes with autograd.
 */
package org.jtorch.distributions;

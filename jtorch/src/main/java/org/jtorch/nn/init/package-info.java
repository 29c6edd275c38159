/**
 * {@code torch.nn.init}: in-place initialisers of parameters (uniform, normal, Xavier, Kaiming, orthogonal, trunc
 * normal...), drawing from the default generator ({@code torch.manual_seed}) or the one given.
 */
package org.jtorch.nn.init;

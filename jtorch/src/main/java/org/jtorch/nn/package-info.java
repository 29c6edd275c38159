/**
 * {@code torch.nn}: {@link org.jtorch.nn.Module} (parameters, buffers, submodules, hooks, {@code state_dict}) and the
 * layers built on it: linear, convolution, pooling, normalisation, activations, dropout, embeddings, attention and a
 * transformer encoder layer, plus the containers ({@code Sequential}, {@code ModuleList}, {@code ModuleDict}). Modules
 * print, name their parameters and save as PyTorch's do, so state dicts load in both directions.
 */
package org.jtorch.nn;

/**
 * {@code torch.library}: user-defined ops with a schema ({@link org.jtorch.library.Library},
 * {@link org.jtorch.library.CustomOp}), their autograd formula ({@code register_autograd}), vmap rule
 * ({@code register_vmap}) and fake (meta) implementation, and {@code torch.library.opcheck}, which tests that these
 * agree with the op itself. A custom op runs through the same dispatcher as the built-in ones, so it composes with
 * autograd, vmap and the debug modes.
 */
package org.jtorch.library;

/** {@code torch.utils.deterministic}: settings of deterministic mode beyond {@code use_deterministic_algorithms}. */
package org.jtorch.utils.deterministic;

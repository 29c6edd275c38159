/**
 * {@code torch.nn.utils.prune}: {@link org.jtorch.nn.utils.prune.Prune}'s functions ({@code l1Unstructured},
 * {@code randomUnstructured}, {@code lnStructured}, {@code globalUnstructured}, {@code customFromMask}, {@code remove})
 * and the pruning methods behind them. A pruned parameter keeps PyTorch's layout: the original as {@code name_orig},
 * the mask as the buffer {@code name_mask}, and the method as the module's forward pre-hook.
 */
package org.jtorch.nn.utils.prune;

/**
 * {@code torch.optim}: the {@link org.jtorch.optim.Optimizer} base class (param groups, {@code zero_grad},
 * {@code state_dict}) and its algorithms: SGD, Adam, AdamW, Adamax, NAdam, RAdam, Adagrad, RMSprop, L-BFGS and Muon.
 * Options take PyTorch's hyper-parameter names and defaults, and a step gives PyTorch's numbers.
 */
package org.jtorch.optim;

/**
 * {@code torch.optim.swa_utils}: {@link org.jtorch.optim.swa.AveragedModel} (stochastic weight averaging and
 * exponential moving averages of a model's parameters, and optionally its buffers), {@link org.jtorch.optim.swa.SWALR}
 * (the learning-rate schedule that anneals to the SWA rate) and {@link org.jtorch.optim.swa.SwaUtils}
 * ({@code update_bn} and the averaging functions).
 */
package org.jtorch.optim.swa;

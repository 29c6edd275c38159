/**
 * {@code torch.optim.lr_scheduler}: {@link org.jtorch.optim.lr.LRScheduler} and the schedules built on it (step,
 * multi-step, exponential, linear, constant, cosine annealing with and without restarts, one-cycle, lambda, sequential)
 * and {@link org.jtorch.optim.lr.ReduceLROnPlateau}, which follows a metric instead of the step count.
 */
package org.jtorch.optim.lr;

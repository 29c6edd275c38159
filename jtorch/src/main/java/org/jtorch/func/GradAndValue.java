package org.jtorch.func;

/**
 * What {@code torch.func.grad_and_value} returns.
 *
 * @param grad the gradient (a tensor, or an array with one entry per argnum)
 * @param value the function's (scalar) output
 * @param aux the auxiliary output with {@code has_aux}, else null
 */
public record GradAndValue(Object grad, Object value, Object aux) {}

package org.jtorch.func;

/**
 * What {@code torch.func.jvp} returns.
 *
 * @param output the function's output at the primals
 * @param jvpOut its directional derivative along the tangents (same structure as the output)
 * @param aux the auxiliary output with {@code has_aux}, else null
 */
public record JvpResult(Object output, Object jvpOut, Object aux) {}

package org.jtorch.func;

import java.util.function.Function;
import org.jtorch.Tensor;

/**
 * What {@code torch.func.vjp} returns.
 *
 * @param output the function's output
 * @param vjpFn cotangents (mirroring the output: a tensor, or an array/list of tensors) → one gradient per primal
 *     tensor
 * @param aux the auxiliary output with {@code has_aux}, else null
 */
public record VjpResult(Object output, Function<Object, Tensor[]> vjpFn, Object aux) {}

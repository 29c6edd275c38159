package org.jtorch.func;

import java.util.function.Function;

/**
 * How {@code jvp} (and so {@code jacfwd} and {@code hessian}) pushes tangents through a function: the one seam between
 * the transforms and a forward-mode implementation.
 */
interface TangentPropagation {
    /**
     * {@code f(primals)} and its directional derivative along {@code tangents} (one per primal, same shapes). With
     * {@code hasAux}, f returns {@code (output, aux)}.
     */
    JvpResult jvp(Function<Object[], Object> f, Object[] primals, Object[] tangents, boolean hasAux);
}

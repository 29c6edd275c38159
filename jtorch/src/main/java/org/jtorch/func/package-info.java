/**
 * Function transforms ({@code torch.func}): {@link org.jtorch.func.Func#vmap vmap}, {@code grad}, {@code vjp},
 * {@code jvp}, {@code jacrev}, {@code jacfwd}, {@code hessian} and {@code functionalCall}.
 *
 * <p>As in functorch, every transform in flight has a level on the thread's interpreter stack
 * ({@link org.jtorch.dispatch.DispatchState}). A vmap level is an interpreter that sees every op, unwraps the batched
 * tensors of its own level (wrappers carrying a physical tensor, a batch dimension and the level), runs the op's
 * batching rule on the physical tensors below itself and wraps the results again. A grad level that runs inside a vmap
 * lifts its inputs into that vmap's wrappers, so that autograd records on the per-example (logical) tensors and each
 * example keeps its own gradient. Sits above autograd and nn.
 */
package org.jtorch.func;

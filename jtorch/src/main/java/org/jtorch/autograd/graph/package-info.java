/**
 * {@code torch.autograd.graph}: the public view of the backward graph, {@link org.jtorch.autograd.graph.Node} and
 * {@link org.jtorch.autograd.graph.Edge}. It depends on nothing of JTorch's but {@code org.jtorch.utils.hooks}, so that
 * {@code Tensor}, below autograd, can hold its {@code grad_fn}; the engine's nodes ({@code org.jtorch.autograd.Node})
 * implement it.
 */
package org.jtorch.autograd.graph;

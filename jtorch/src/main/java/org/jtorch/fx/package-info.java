/**
 * {@code torch.fx}: symbolic tracing of a {@link org.jtorch.nn.Module} or function into a {@link org.jtorch.fx.Graph}
 * of {@link org.jtorch.fx.Node}s, run as a {@link org.jtorch.fx.GraphModule}; with a lint and printer of graphs and the
 * passes that rewrite them (dead-code and common-subexpression elimination); and AOT autograd
 * ({@link org.jtorch.fx.AotAutograd}): a function's forward and backward captured as graphs and run as one autograd op.
 */
package org.jtorch.fx;

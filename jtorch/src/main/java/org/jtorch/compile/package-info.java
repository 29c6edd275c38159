/**
 * {@code torch.compile}: capture of Java functions of tensors into graphs on fake tensors, guards and the cache of
 * compiled graphs, symbolic sizes for dynamic dimensions, graph breaks, and the backends that run the graphs; with
 * {@code torch._dynamo}'s counters and reset ({@link org.jtorch.compile.Compile}).
 */
package org.jtorch.compile;

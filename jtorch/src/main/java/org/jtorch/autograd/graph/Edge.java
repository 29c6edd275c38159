package org.jtorch.autograd.graph;

/**
 * An entry of {@link Node#nextFunctions()}: where a gradient goes, input slot {@code inputNr} of {@code node}
 * (PyTorch's {@code (node, input_nr)} pairs of {@code next_functions}).
 *
 * @param <T> the tensor type, {@code org.jtorch.Tensor} (see {@link Node})
 */
public record Edge<T>(Node<T> node, int inputNr) {}

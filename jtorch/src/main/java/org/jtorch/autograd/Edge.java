package org.jtorch.autograd;

/**
 * The engine's edge: where a gradient goes, input slot {@code inputNr} of {@code node}. The public view of an edge is
 * {@link org.jtorch.autograd.graph.Edge}, which {@link Node#nextFunctions()} returns.
 */
record Edge(Node node, int inputNr) {}

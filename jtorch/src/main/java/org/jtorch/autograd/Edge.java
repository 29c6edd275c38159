package org.jtorch.autograd;

/** Where a gradient goes: input slot {@code inputNr} of {@code node}. */
public record Edge(Node node, int inputNr) {}

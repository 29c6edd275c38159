package org.jtorch.fx;

import java.util.Arrays;
import java.util.List;

/**
 * An {@code int[]} argument of a graph some of whose elements are {@linkplain SymInt symbolic} ({@code SymInt[]} in a
 * PyTorch graph, e.g. the sizes of a {@code view} of a dynamic batch: {@code [s0*s1, 64]}). {@link GraphModule}
 * evaluates it to a {@code long[]} on each call. Immutable.
 */
public final class SymIntArray {
    private final SymInt[] elements;

    /** The array of these elements. */
    public SymIntArray(List<SymInt> elements) {
        this.elements = elements.toArray(SymInt[]::new);
    }

    /** The elements, in order. */
    public List<SymInt> elements() {
        return List.of(elements);
    }

    /** The values for the given symbol values. */
    public long[] eval(long[] symbolValues) {
        long[] out = new long[elements.length];
        for (int i = 0; i < out.length; i++) out[i] = elements[i].eval(symbolValues);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SymIntArray other && Arrays.equals(elements, other.elements);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(elements);
    }

    /** As a Python list: {@code [s0*s1, 64]}. */
    @Override
    public String toString() {
        return Arrays.toString(elements);
    }
}

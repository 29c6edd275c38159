package org.jtorch.io;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;

/**
 * A Python {@code tuple} (also what {@code torch.Size} loads as): an immutable list whose items may be {@code null}
 * (None). Equality and hash are by value, as in Python.
 *
 * <p>The hash is computed once, when the tuple is built from its already-built items, so hashing a tuple that is shared
 * many times inside another (a DAG from a hostile pickle) costs nothing extra.
 */
public final class PyTuple {
    private static final PyTuple EMPTY = new PyTuple(new Object[0]);

    private final List<Object> items;
    /** {@link KeyHash}'s seeded hash: a fixed polynomial hash let a file choose colliding keys. */
    private final long hash;
    /** Number of nodes below this tuple counted with repetition, saturating; bounds the cost of equals. */
    private final long treeSize;
    /** Python's rule: a tuple is hashable if all its items are (here: immutable scalars and hashable tuples). */
    private final boolean hashable;

    private PyTuple(Object[] items) {
        this.items = Collections.unmodifiableList(Arrays.asList(items));
        long h = KeyHash.tupleStart(items.length);
        long size = 1;
        boolean all = true;
        for (Object o : items) {
            // mutable items are hashed by identity: hashing a (possibly cyclic, deeply nested) list must not recurse,
            // and a
            // tuple holding one is unhashable in Python anyway
            boolean itemHashable = o instanceof PyTuple t ? t.hashable : isHashableScalar(o);
            h = KeyHash.combine(h, itemHashable ? KeyHash.of(o) : System.identityHashCode(o));
            all &= itemHashable;
            size = Math.min(Long.MAX_VALUE / 2, size + (o instanceof PyTuple t ? t.treeSize : 1));
        }
        this.hash = h;
        this.treeSize = size;
        this.hashable = all;
    }

    /**
     * The immutable scalar values that can be dict keys: None, bool, int, float, complex, str, dtypes, devices,
     * globals.
     */
    static boolean isHashableScalar(Object o) {
        return o == null
                || o instanceof String
                || o instanceof Long
                || o instanceof java.math.BigInteger
                || o instanceof Double
                || o instanceof Boolean
                || o instanceof org.jtorch.DType
                || o instanceof org.jtorch.Device
                || o instanceof PyGlobal
                || o instanceof PyComplex
                || o instanceof Integer
                || o instanceof Float;
    }

    /** Whether this tuple can be a dict key: all its items are hashable. */
    boolean hashable() {
        return hashable;
    }

    /** A tuple of the given items (copied). */
    public static PyTuple of(Object... items) {
        return items.length == 0 ? EMPTY : new PyTuple(items.clone());
    }

    /** A tuple of the items of a list (copied). */
    public static PyTuple of(List<?> items) {
        return items.isEmpty() ? EMPTY : new PyTuple(items.toArray());
    }

    /** The items, read-only. */
    public List<Object> items() {
        return items;
    }

    /** The number of elements ({@code len(t)}). */
    public int size() {
        return items.size();
    }

    /** Element {@code i} ({@code t[i]}), counting from zero. */
    public Object get(int i) {
        return items.get(i);
    }

    /** Nodes below this tuple counted with repetition (saturating): what a structural comparison may visit. */
    long treeSize() {
        return treeSize;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof PyTuple t && t.hash == hash && t.items.equals(items);
    }

    @Override
    public int hashCode() {
        return KeyHash.fold(hash);
    }

    /** The 64-bit seeded hash that nested tuples combine. */
    long seededHash() {
        return hash;
    }

    /** Python's repr: {@code (1, 2)}, {@code (1,)}, {@code ()}; containers inside are summarized. */
    @Override
    public String toString() {
        if (treeSize > 64) return "(tuple of " + items.size() + " items)";
        if (items.size() == 1) return "(" + PyRepr.of(items.get(0)) + ",)";
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (Object o : items) j.add(PyRepr.of(o));
        return j.toString();
    }
}

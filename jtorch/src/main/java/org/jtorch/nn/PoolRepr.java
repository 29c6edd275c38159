package org.jtorch.nn;

/**
 * How pooling modules print a size given as one int ({@code 2}) or a pair ({@code (2, 3)}), as PyTorch keeps what was
 * passed.
 */
final class PoolRepr {
    private PoolRepr() {}

    static String of(long[] v) {
        return v.length == 1 ? Long.toString(v[0]) : PyRepr.tuple(v);
    }
}

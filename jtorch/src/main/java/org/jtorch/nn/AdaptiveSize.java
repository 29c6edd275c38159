package org.jtorch.nn;

import org.jtorch.Tensor;

/**
 * The output size of an adaptive pooling module as PyTorch keeps it: one int (every dim) or one entry per dim, where a
 * null entry is {@code None} (that dim keeps the input's size); printed as PyTorch prints it.
 */
record AdaptiveSize(Long[] size) {
    static AdaptiveSize of(String module, int dims, long... size) {
        if (size.length != 1 && size.length != dims) {
            throw new IllegalArgumentException(
                    module + ": output_size must be one integer or " + dims + " integers, but got " + size.length);
        }
        Long[] s = new Long[size.length];
        for (int i = 0; i < size.length; i++) s[i] = size[i];
        return new AdaptiveSize(s);
    }

    /** A single int, repeated for every dim. */
    boolean single() {
        return size.length == 1;
    }

    /**
     * The sizes for {@code input}: the single int as given (the op repeats it), or the entries with each null replaced
     * by the input's size along that dim (PyTorch's {@code _list_with_default}, which needs more input dims than
     * entries).
     */
    long[] resolve(Tensor input) {
        if (single()) return new long[] {size[0]};
        if (input.dim() <= size.length) {
            throw new IllegalArgumentException("Input dimension should be at least " + (size.length + 1));
        }
        long[] r = new long[size.length];
        for (int i = 0; i < size.length; i++) {
            r[i] = size[i] != null ? size[i] : input.size(input.dim() - size.length + i);
        }
        return r;
    }

    @Override
    public String toString() {
        if (single()) return Long.toString(size[0]);
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < size.length; i++) b.append(i == 0 ? "" : ", ").append(size[i] == null ? "None" : size[i]);
        return b.append(")").toString();
    }
}

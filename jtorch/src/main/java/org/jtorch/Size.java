package org.jtorch;

import java.util.Arrays;

/**
 * {@code torch.Size}: the sizes of a tensor as a value that prints as PyTorch prints it ({@code torch.Size([2, 3])}),
 * compares by content and can be indexed from the end. {@link Tensor#size()} returns one; {@link Tensor#shape()} keeps
 * returning a plain {@code long[]} for code that wants the array.
 */
public final class Size {
    private final long[] sizes;

    private Size(long[] sizes) {
        this.sizes = sizes;
    }

    /** {@code torch.Size([d0, d1, ...])}; every size must be non-negative. */
    public static Size of(long... sizes) {
        for (long s : sizes) {
            if (s < 0) throw new IllegalArgumentException("torch.Size: sizes must be non-negative, got " + s);
        }
        return new Size(sizes.clone());
    }

    /** {@code len(size)}: the number of dimensions. */
    public int length() {
        return sizes.length;
    }

    /** {@code size[i]}; a negative {@code i} counts from the end, as in Python. */
    public long get(int i) {
        int n = sizes.length;
        if (i < -n || i >= n)
            throw new IndexOutOfBoundsException("torch.Size index " + i + " out of range for " + this);
        return sizes[i < 0 ? i + n : i];
    }

    /** {@code size.numel()}: the product of the sizes (1 for {@code torch.Size([])}). */
    public long numel() {
        long n = 1;
        for (long s : sizes) n = Math.multiplyExact(n, s);
        return n;
    }

    /** The sizes as a new array (what {@link Tensor#shape()} returns). */
    public long[] toArray() {
        return sizes.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Size s && Arrays.equals(sizes, s.sizes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sizes);
    }

    /** {@code repr(torch.Size)}: {@code torch.Size([2, 3])}, {@code torch.Size([])}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("torch.Size([");
        for (int i = 0; i < sizes.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(sizes[i]);
        }
        return sb.append("])").toString();
    }
}

package org.jtorch.kernels.cpu;

/**
 * Strided element copies between heap arrays of the same primitive kind: {@code n} elements of {@code slots} primitive
 * slots each (2 for complex), source and destination strides in slots.
 */
public final class StridedArrayCopy {
    private StridedArrayCopy() {}

    public static void copy(Object src, long s0, long ss, Object dst, long d0, long ds, long n, int slots) {
        switch (src) {
            case float[] a -> {
                float[] b = (float[]) dst;
                if (ss == 0 && ds == 1 && slots == 1) { // a broadcast source: a fill, which the JIT vectorises
                    java.util.Arrays.fill(b, (int) d0, (int) (d0 + n), a[(int) s0]);
                    return;
                }
                for (long i = 0; i < n; i++) {
                    for (int k = 0; k < slots; k++) b[(int) (d0 + i * ds) + k] = a[(int) (s0 + i * ss) + k];
                }
            }
            case double[] a -> {
                double[] b = (double[]) dst;
                if (ss == 0 && ds == 1 && slots == 1) {
                    java.util.Arrays.fill(b, (int) d0, (int) (d0 + n), a[(int) s0]);
                    return;
                }
                for (long i = 0; i < n; i++) {
                    for (int k = 0; k < slots; k++) b[(int) (d0 + i * ds) + k] = a[(int) (s0 + i * ss) + k];
                }
            }
            case long[] a -> {
                long[] b = (long[]) dst;
                for (long i = 0; i < n; i++) b[(int) (d0 + i * ds)] = a[(int) (s0 + i * ss)];
            }
            case int[] a -> {
                int[] b = (int[]) dst;
                for (long i = 0; i < n; i++) b[(int) (d0 + i * ds)] = a[(int) (s0 + i * ss)];
            }
            case short[] a -> {
                short[] b = (short[]) dst;
                for (long i = 0; i < n; i++) {
                    for (int k = 0; k < slots; k++) b[(int) (d0 + i * ds) + k] = a[(int) (s0 + i * ss) + k];
                }
            }
            case byte[] a -> {
                byte[] b = (byte[]) dst;
                for (long i = 0; i < n; i++) b[(int) (d0 + i * ds)] = a[(int) (s0 + i * ss)];
            }
            default -> throw new IllegalArgumentException("StridedArrayCopy: unsupported array " + src.getClass());
        }
    }
}

package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.TorchException;

/**
 * 1-d pooling as ATen composes it: the input gets a unit height ({@code unsqueeze(-2)}) and runs through the 2-d op
 * ({@link PoolOps}) with a kernel of height 1, after the 1-d checks in ATen's words. Gradients and tangents are the 2-d
 * op's.
 */
public final class Pool1dOps {
    private Pool1dOps() {}

    /** {@code max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode)}: the values only. */
    public static final OpDef MAX_POOL1D = OpDef.composite(
            "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, "
                    + "bool ceil_mode=False) -> Tensor",
            a -> {
                Tensor x = (Tensor) a[0];
                long[] k = (long[]) a[1], s = (long[]) a[2], p = (long[]) a[3], d = (long[]) a[4];
                boolean ceil = Boolean.TRUE.equals(a[5]);
                if (x.dim() != 2 && x.dim() != 3) {
                    throw new TorchException("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim "
                            + "batch size for input, but got:" + org.jtorch.internal.Shapes.str(x.shape()));
                }
                checkSize("max_pool1d() kernel_size must be an int, list of ints or tuple of ints of size 1", k, false);
                checkSize("max_pool1d() stride must be an int, list of ints or tuple of ints of size 0 or 1", s, true);
                checkSize("max_pool1d() padding must be an int, list of ints or tuple of ints of size 1", p, false);
                checkSize("max_pool1d() dilation must be an int, list of ints or tuple of ints of size 1", d, false);
                long kernel = k[0], stride = s.length == 0 ? kernel : s[0], pad = p[0], dil = d[0];
                if (kernel <= 0)
                    throw new TorchException("max_pool1d() kernel_size must be greater than zero, but got " + kernel);
                if (stride <= 0)
                    throw new TorchException("max_pool1d() stride must be greater than zero, but got " + stride);
                if (pad < 0) throw new TorchException("max_pool1d() padding must be non-negative, but got " + pad);
                if (pad > kernel / 2) {
                    throw new TorchException("max_pool1d() padding should be at most half of kernel size, but got "
                            + "padding=" + pad + " and kernel_size=" + kernel);
                }
                if (dil <= 0)
                    throw new TorchException("max_pool1d() dilation must be greater than zero, but got " + dil);
                long out = PoolOps.outputSize(x.size(-1), kernel, pad, stride, dil, ceil);
                if (out < 1) throw new TorchException("max_pool1d() Invalid computed output size: " + out);
                if (!x.dtype().isFloatingPoint()) {
                    throw new TorchException("\"max_pool1d_impl\" not implemented for '"
                            + x.dtype().cppName() + "'");
                }
                return maxPool1dWithIndices(x, k, new long[] {stride}, p, d, ceil)[0];
            });

    /** {@code max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)}: values and indices. */
    public static final OpDef MAX_POOL1D_WITH_INDICES = OpDef.composite(
            "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, "
                    + "int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
            a -> {
                Tensor x = (Tensor) a[0];
                checkDims("max_pool1d", x);
                long[] k = check1d("max_pool1d", "kernel_size", (long[]) a[1]);
                long[] s = (long[]) a[2];
                long[] stride = s.length == 0 ? k : check1d("max_pool1d", "stride", s);
                long[] p = check1d("max_pool1d", "padding", (long[]) a[3]);
                long[] d = check1d("max_pool1d", "dilation", (long[]) a[4]);
                return maxPool1dWithIndices(x, k, stride, p, d, Boolean.TRUE.equals(a[5]));
            });

    private static Tensor[] maxPool1dWithIndices(Tensor x, long[] k, long[] stride, long[] p, long[] d, boolean ceil) {
        Tensor[] r = PoolOps.maxPool2dWithIndices(
                x.unsqueeze(-2),
                new long[] {1, k[0]},
                new long[] {1, stride[0]},
                new long[] {0, p[0]},
                new long[] {1, d[0]},
                ceil);
        return new Tensor[] {r[0].squeeze(-2), r[1].squeeze(-2)};
    }

    /** {@code avg_pool1d(self, kernel_size, stride, padding, ceil_mode, count_include_pad)}. */
    public static final OpDef AVG_POOL1D = OpDef.composite(
            "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, "
                    + "bool count_include_pad=True) -> Tensor",
            a -> {
                Tensor x = (Tensor) a[0];
                checkDims("avg_pool1d", x);
                long[] k = check1d("avg_pool1d", "kernel_size", (long[]) a[1]);
                long[] s = (long[]) a[2];
                long[] stride = s.length == 0 ? k : check1d("avg_pool1d", "stride", s);
                long[] p = check1d("avg_pool1d", "padding", (long[]) a[3]);
                return PoolOps.avgPool2d(
                                x.unsqueeze(-2),
                                new long[] {1, k[0]},
                                new long[] {1, stride[0]},
                                new long[] {0, p[0]},
                                Boolean.TRUE.equals(a[4]),
                                !Boolean.FALSE.equals(a[5]),
                                null)
                        .squeeze(-2);
            });

    /** {@code adaptive_avg_pool1d(self, output_size)}. */
    public static final OpDef ADAPTIVE_AVG_POOL1D =
            OpDef.composite("adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor", a -> {
                Tensor x = (Tensor) a[0];
                checkDims("adaptive_avg_pool1d", x);
                long[] o = check1d("adaptive_avg_pool1d", "output_size", (long[]) a[1]);
                return PoolOps.adaptiveAvgPool2d(x.unsqueeze(-2), new long[] {1, o[0]})
                        .squeeze(-2);
            });

    /** ATen's {@code checkDimRange(fn, self, 2, 4)}: a 2-d or 3-d input. */
    private static void checkDims(String fn, Tensor x) {
        if (x.dim() < 2 || x.dim() > 3) {
            throw new TorchException("Expected 2 to 3 dimensions, but got " + x.dim() + "-dimensional tensor for "
                    + "argument #1 'self' (while checking arguments for " + fn + ")");
        }
    }

    /** ATen's {@code check1d}: a list of exactly one int. */
    private static long[] check1d(String fn, String arg, long[] v) {
        if (v.length != 1) {
            throw new TorchException(fn + "() argument '" + arg + "' should contain one int (got " + v.length + ")");
        }
        return v;
    }

    private static void checkSize(String message, long[] v, boolean emptyAllowed) {
        if (v.length == 1 || emptyAllowed && v.length == 0) return;
        throw new TorchException(message + " but got size " + v.length);
    }
}

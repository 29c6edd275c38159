package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The convolution of integer tensors ({@code uint8}, {@code int8}..{@code int64}), which PyTorch's CPU build computes
 * with its slow direct kernel: each output element is the sum of its window's products, accumulated in int64 and
 * narrowed to the dtype at the end, so it wraps exactly as arithmetic in the dtype does. No GEMM: BLAS has no integer
 * products, and a float GEMM would round sums beyond 2^53. Integers have no gradient, so there is no backward.
 */
final class IntegerConvKernels {
    private IntegerConvKernels() {}

    /** {@code out = conv(input, weight) + bias} (bias may be null) for the plain (not transposed) convolution. */
    static void forward(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        if (out.numel() == 0) return;
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = longs(input), w = longs(weight), b = bias == null ? null : longs(bias);
            int n = (int) g.n(), cout = (int) g.cout(), groups = (int) g.groups();
            int cinPerGroup = (int) (g.cin() / groups), coutPerGroup = cout / groups;
            int h = (int) g.h(), wd = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
            int oh = (int) g.oh(), ow = (int) g.ow();
            long[] y = new long[Math.toIntExact(out.numel())];
            Parallel.forRange((long) n * cout, 1, (p0, p1) -> {
                for (long p = p0; p < p1; p++) {
                    int sample = (int) (p / cout), co = (int) (p % cout), group = co / coutPerGroup;
                    int outAt = (int) p * oh * ow;
                    for (int oy = 0; oy < oh; oy++) {
                        for (int ox = 0; ox < ow; ox++) {
                            long sum = b == null ? 0 : b[co];
                            for (int c = 0; c < cinPerGroup; c++) {
                                int plane = (sample * (int) g.cin() + group * cinPerGroup + c) * h * wd;
                                int kernel = (co * cinPerGroup + c) * kh * kw;
                                for (int ki = 0; ki < kh; ki++) {
                                    int iy = (int) (oy * g.sh() - g.ph() + ki * g.dh());
                                    if (iy < 0 || iy >= h) continue;
                                    for (int kj = 0; kj < kw; kj++) {
                                        int ix = (int) (ox * g.sw() - g.pw() + kj * g.dw());
                                        if (ix < 0 || ix >= wd) continue;
                                        sum += x[plane + iy * wd + ix] * w[kernel + ki * kw + kj];
                                    }
                                }
                            }
                            y[outAt + oy * ow + ox] = sum;
                        }
                    }
                }
            });
            Tensor result = Tensor.of(TensorImpl.contiguous(Storage.wrap(y), out.shape(), DType.INT64));
            CopyOps.convert(result, out); // narrows with wrap-around, as the dtype's own arithmetic would
        }
    }

    /** The tensor's values as a dense int64 array in row-major order. */
    private static long[] longs(Tensor t) {
        return CopyOps.to(t, DType.INT64).toLongArray();
    }
}

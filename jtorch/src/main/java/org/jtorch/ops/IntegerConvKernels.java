package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * The convolutions of integer tensors, which PyTorch's CPU build computes with its slow direct kernels: the plain one
 * for {@code uint8}, {@code int8}..{@code int64}, the transposed one for {@code int64}
 * ({@link ConvOps#isIntegerConvolution}). Each output element is the sum of its window's products, accumulated in int64
 * and narrowed to the dtype at the end, so it wraps exactly as arithmetic in the dtype does. No GEMM: BLAS has no
 * integer products, and a float GEMM would round sums beyond 2^53. Integers have no gradient, so there is no backward.
 * Every output plane is summed by one task, so the results do not depend on the thread count.
 */
final class IntegerConvKernels {
    private IntegerConvKernels() {}

    /** One output plane (a sample's channel) of {@code y}, from the int64 operands. */
    @FunctionalInterface
    private interface Plane {
        void sum(long[] x, long[] w, long[] b, long[] y, int sample, int channel);
    }

    /** {@code out = conv(input, weight) + bias} (bias may be null) for the plain convolution {@code g}. */
    static void forward(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        int cout = (int) g.cout(), groups = (int) g.groups();
        int cinPerGroup = (int) (g.cin() / groups), coutPerGroup = cout / groups;
        int h = (int) g.h(), wd = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(), ow = (int) g.ow();
        run(input, weight, bias, out, g.n() * cout, cout, (x, w, b, y, sample, co) -> {
            int group = co / coutPerGroup, outAt = (sample * cout + co) * oh * ow;
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
        });
    }

    /**
     * {@code out = conv_transpose(input, weight) + bias} for the transposed convolution that is the input gradient of
     * the convolution {@code g}: {@code out} has g's input shape, {@code input} its output shape. Each output element
     * gathers the input positions whose window reads it, so no two tasks write one element.
     */
    static void transposed(Tensor input, Tensor weight, Tensor bias, Tensor out, ConvOps.Geometry g) {
        int cin = (int) g.cin(), cout = (int) g.cout(), groups = (int) g.groups();
        int cinPerGroup = cin / groups, coutPerGroup = cout / groups;
        int h = (int) g.h(), wd = (int) g.w(), kh = (int) g.kh(), kw = (int) g.kw();
        int oh = (int) g.oh(), ow = (int) g.ow(), sh = (int) g.sh(), sw = (int) g.sw();
        run(input, weight, bias, out, g.n() * cin, cin, (x, w, b, y, sample, c) -> {
            int group = c / cinPerGroup, local = c % cinPerGroup, outAt = (sample * cin + c) * h * wd;
            for (int iy = 0; iy < h; iy++) {
                for (int ix = 0; ix < wd; ix++) {
                    long sum = b == null ? 0 : b[c];
                    for (int co = group * coutPerGroup; co < (group + 1) * coutPerGroup; co++) {
                        int plane = (sample * cout + co) * oh * ow, kernel = (co * cinPerGroup + local) * kh * kw;
                        for (int ki = 0; ki < kh; ki++) {
                            int ty = (int) (iy + g.ph() - ki * g.dh());
                            if (ty < 0 || ty % sh != 0 || ty / sh >= oh) continue;
                            for (int kj = 0; kj < kw; kj++) {
                                int tx = (int) (ix + g.pw() - kj * g.dw());
                                if (tx < 0 || tx % sw != 0 || tx / sw >= ow) continue;
                                sum += x[plane + ty / sh * ow + tx / sw] * w[kernel + ki * kw + kj];
                            }
                        }
                    }
                    y[outAt + iy * wd + ix] = sum;
                }
            }
        });
    }

    /**
     * Reads the operands as int64, sums the {@code planes} output planes ({@code channels} per sample) in parallel, and
     * narrows the result into {@code out}.
     */
    private static void run(
            Tensor input, Tensor weight, Tensor bias, Tensor out, long planes, int channels, Plane plane) {
        if (out.numel() == 0) return;
        try (var _ = DispatchState.gradEnabled(false)) {
            long[] x = longs(input), w = longs(weight), b = bias == null ? null : longs(bias);
            long[] y = new long[Math.toIntExact(out.numel())];
            Parallel.forRange(planes, 1, (p0, p1) -> {
                for (long p = p0; p < p1; p++) plane.sum(x, w, b, y, (int) (p / channels), (int) (p % channels));
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

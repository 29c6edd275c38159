package org.jtorch.kernels.fft;

import org.jtorch.DType;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * The CPU kernels of PyTorch's three FFT primitives ({@code _fft_c2c}, {@code _fft_r2c}, {@code _fft_c2r}): a
 * multi-dimensional transform is one 1-D transform per dim, each run over every line along that dim. Lines are
 * independent, so they are spread over the intra-op workers ({@link Parallel}), and the result does not depend on the
 * thread count. Values are computed in double precision whatever the dtype (float32 rounds once, at the end). The first
 * pass reads the input with its strides; later passes work in place on the output; the normalisation scale is applied
 * as the last pass writes. Callers have validated dims (wrapped, distinct), dtypes and shapes.
 */
public final class SpectralKernels {
    private SpectralKernels() {}

    /** Work per piece of a parallel range, in line elements: about the cost of a 32K-element pointwise op. */
    private static final long GRAIN_ELEMENTS = 8_192;

    /** {@code out = scale * DFT(in)} over {@code dims}, both complex of one shape ({@code dims} empty: a copy). */
    public static void c2c(TensorImpl in, TensorImpl out, int[] dims, boolean forward, double scale) {
        if (out.numel() == 0) return;
        if (dims.length == 0) {
            copy(in, out);
            return;
        }
        StridedLines src = new StridedLines(in), dst = new StridedLines(out);
        for (int p = 0; p < dims.length; p++) {
            complexPass(p == 0 ? src : dst, dst, dims[p], forward, p == dims.length - 1 ? scale : 1);
        }
    }

    /**
     * {@code out = scale * DFT(in)} of real {@code in} over {@code dims}: the last of them transformed first, real to
     * complex, keeping {@code n / 2 + 1} outputs when {@code onesided} (else all n, the rest by conjugate symmetry),
     * then the others complex to complex in place.
     */
    public static void r2c(TensorImpl in, TensorImpl out, int[] dims, boolean onesided, double scale) {
        if (out.numel() == 0) return;
        int last = dims[dims.length - 1];
        StridedLines src = new StridedLines(in), dst = new StridedLines(out);
        int n = (int) src.size(last);
        RealFft plan = FftPlans.real(n);
        double s = dims.length == 1 ? scale : 1;
        int kept = onesided ? n / 2 + 1 : n;
        // contiguous float64 lines are transformed straight from the input's array into the output's
        double[] signals = src.heapDoubles(), spectra = dst.heapDoubles();
        boolean direct = onesided
                && signals != null
                && spectra != null
                && (n == 1 || src.stride(last) == 1)
                && (kept == 1 || dst.stride(last) == 1);
        forLines(src.count(last), n, (from, to) -> {
            LineWork work = ThreadBuffers.of(
                    plan,
                    () -> new LineWork(
                            new double[Math.max(plan.bufferLength(), 2 * plan.length())], plan.newScratch()));
            double[] buf = work.line();
            double[][] scratch = work.scratch();
            for (long line = from; line < to; line++) {
                if (direct) {
                    int at = (int) src.start(last, line), outAt = (int) (2 * dst.start(last, line));
                    plan.forward(signals, at, buf, spectra, outAt, s, scratch);
                    continue;
                }
                src.read(src.start(last, line), src.stride(last), n, buf);
                plan.forward(buf, scratch);
                for (int k = n / 2 + 1; k < kept; k++) { // the mirrored half of a two-sided output
                    buf[2 * k] = buf[2 * (n - k)];
                    buf[2 * k + 1] = -buf[2 * (n - k) + 1];
                }
                dst.write(dst.start(last, line), dst.stride(last), kept, buf, s);
            }
        });
        for (int p = 0; p < dims.length - 1; p++) {
            complexPass(dst, dst, dims[p], true, p == dims.length - 2 ? scale : 1);
        }
    }

    /**
     * {@code out = scale * inverse DFT(in)} of a Hermitian-symmetric {@code in} over {@code dims}: the first ones
     * complex to complex, then the last complex to real, reading {@code n / 2 + 1} values per line for an output of n =
     * {@code out}'s size there.
     */
    public static void c2r(TensorImpl in, TensorImpl out, int[] dims, double scale) {
        if (out.numel() == 0) return;
        int last = dims[dims.length - 1];
        int n = (int) out.size(last), half = n / 2 + 1;
        long[] halfShape = in.shapeRef().clone();
        halfShape[last] = half;
        TensorImpl source =
                in.viewOf(in.storageOffset(), halfShape, in.strideRef().clone());
        if (dims.length > 1) {
            TensorImpl work = TensorImpl.empty(halfShape, DType.COMPLEX128);
            int[] first = java.util.Arrays.copyOf(dims, dims.length - 1);
            c2c(source, work, first, false, 1);
            source = work;
        }
        StridedLines src = new StridedLines(source), dst = new StridedLines(out);
        RealFft plan = FftPlans.real(n);
        forLines(src.count(last), n, (from, to) -> {
            LineWork work = ThreadBuffers.of(
                    plan,
                    () -> new LineWork(
                            new double[Math.max(plan.bufferLength(), 2 * plan.length())], plan.newScratch()));
            double[] buf = work.line();
            double[][] scratch = work.scratch();
            for (long line = from; line < to; line++) {
                src.read(src.start(last, line), src.stride(last), half, buf);
                plan.inverse(buf, scratch);
                dst.write(dst.start(last, line), dst.stride(last), n, buf, scale);
            }
        });
    }

    private static void complexPass(StridedLines src, StridedLines dst, int dim, boolean forward, double scale) {
        int n = (int) dst.size(dim);
        ComplexFft plan = FftPlans.complex(n);
        forLines(dst.count(dim), n, (from, to) -> {
            LineWork work = ThreadBuffers.of(plan, () -> new LineWork(new double[2 * n], plan.newScratch()));
            double[] buf = work.line();
            double[][] scratch = work.scratch();
            for (long line = from; line < to; line++) {
                src.read(src.start(dim, line), src.stride(dim), n, buf);
                plan.transform(buf, scratch, forward);
                dst.write(dst.start(dim, line), dst.stride(dim), n, buf, scale);
            }
        });
    }

    /** A thread's line buffer and scratch for one plan, reused across calls ({@link ThreadBuffers}). */
    private record LineWork(double[] line, double[][] scratch) {}

    private static void forLines(long lines, int length, Parallel.RangeBody body) {
        Parallel.forRange(lines, Math.max(1, GRAIN_ELEMENTS / length), body);
    }

    /** A transform over no dims: the values, copied element by element in row-major order. */
    private static void copy(TensorImpl in, TensorImpl out) {
        StridedLines src = new StridedLines(in), dst = new StridedLines(out);
        double[] pair = new double[2];
        if (in.dim() == 0) {
            src.read(in.storageOffset(), 1, 1, pair);
            dst.write(out.storageOffset(), 1, 1, pair, 1);
            return;
        }
        int last = in.dim() - 1;
        int n = (int) src.size(last);
        double[] buf = new double[2 * n];
        for (long line = 0, lines = src.count(last); line < lines; line++) {
            src.read(src.start(last, line), src.stride(last), n, buf);
            dst.write(dst.start(last, line), dst.stride(last), n, buf, 1);
        }
    }
}

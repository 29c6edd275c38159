package org.jtorch.fft;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ops.SpectralOps;

/**
 * {@code torch.fft}: discrete Fourier transforms of any length (mixed radix; Bluestein's algorithm for lengths with a
 * large prime factor), batched over the dims not transformed, differentiable in both modes and under vmap. Every
 * function is one op ({@code aten::fft_fft} ...) built, as in PyTorch, on the primitives {@code _fft_c2c},
 * {@code _fft_r2c} and {@code _fft_c2r}.
 *
 * <p>PyTorch's keyword arguments map to positional overloads ({@code n} or {@code s}, then {@code dim}, then
 * {@code norm}), where null keeps the default; {@code norm} is the enum {@link Norm}. Half-precision inputs are
 * refused, as on PyTorch's CPU.
 */
public final class FFT {
    private FFT() {}

    /**
     * {@code norm}: which direction is scaled. {@link #BACKWARD} (the default) leaves the forward transform unscaled
     * and divides the inverse by n; {@link #FORWARD} the opposite; {@link #ORTHO} scales both by {@code 1 / sqrt(n)},
     * making them unitary.
     */
    public enum Norm {
        /** {@code norm="backward"}. */
        BACKWARD("backward"),
        /** {@code norm="forward"}. */
        FORWARD("forward"),
        /** {@code norm="ortho"}. */
        ORTHO("ortho");

        private final String pytorchName;

        Norm(String pytorchName) {
            this.pytorchName = pytorchName;
        }

        /** PyTorch's string for this mode. */
        public String pytorchName() {
            return pytorchName;
        }
    }

    private static String name(Norm norm) {
        return norm == null ? null : norm.pytorchName();
    }

    private static long[] copy(long[] s) {
        return s == null ? null : s.clone();
    }

    private static long[] longs(int[] dims) {
        if (dims == null) return null;
        long[] r = new long[dims.length];
        for (int i = 0; i < dims.length; i++) r[i] = dims[i];
        return r;
    }

    /**
     * {@code torch.fft.fft(input)}: the one-dimensional discrete Fourier transform, over the last dim; {@code y_k =
     * sum_m x_m exp(-2 pi i k m / n)}; real input gives the full (two-sided) spectrum. Real inputs of integral dtypes
     * promote to the default dtype; float32/complex64 and float64/complex128 are computed in their precision or better.
     * See <a href="https://pytorch.org/docs/stable/generated/torch.fft.fft.html">torch.fft.fft</a>.
     */
    public static Tensor fft(Tensor input) {
        return SpectralOps.FFT.call1(input, null, -1L, null);
    }

    /**
     * {@code torch.fft.fft(input, n)}: {@code n} points (the input cropped or zero-padded; default the input's size).
     */
    public static Tensor fft(Tensor input, long n) {
        return SpectralOps.FFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.fft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor fft(Tensor input, Long n, int dim) {
        return SpectralOps.FFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.fft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor fft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.FFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.ifft(input)}: the one-dimensional inverse discrete Fourier transform, over the last dim;
     * {@code x_m = (1/n) sum_k y_k exp(2 pi i k m / n)} with the default norm. Real inputs of integral dtypes promote
     * to the default dtype; float32/complex64 and float64/complex128 are computed in their precision or better. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.ifft.html">torch.fft.ifft</a>.
     */
    public static Tensor ifft(Tensor input) {
        return SpectralOps.IFFT.call1(input, null, -1L, null);
    }

    /**
     * {@code torch.fft.ifft(input, n)}: {@code n} points (the input cropped or zero-padded; default the input's size).
     */
    public static Tensor ifft(Tensor input, long n) {
        return SpectralOps.IFFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.ifft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor ifft(Tensor input, Long n, int dim) {
        return SpectralOps.IFFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.ifft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor ifft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.IFFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.rfft(input)}: the one-dimensional DFT of a real signal, one-sided, over the last dim; the
     * {@code n / 2 + 1} non-negative frequency terms (the rest are their conjugates). Real inputs of integral dtypes
     * promote to the default dtype; float32/complex64 and float64/complex128 are computed in their precision or better.
     * See <a href="https://pytorch.org/docs/stable/generated/torch.fft.rfft.html">torch.fft.rfft</a>.
     */
    public static Tensor rfft(Tensor input) {
        return SpectralOps.RFFT.call1(input, null, -1L, null);
    }

    /**
     * {@code torch.fft.rfft(input, n)}: {@code n} points (the input cropped or zero-padded; default the input's size).
     */
    public static Tensor rfft(Tensor input, long n) {
        return SpectralOps.RFFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.rfft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor rfft(Tensor input, Long n, int dim) {
        return SpectralOps.RFFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.rfft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor rfft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.RFFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.irfft(input)}: the inverse of {@link #rfft}: a real signal from its one-sided spectrum, over the
     * last dim; {@code n} defaults to {@code 2 (size - 1)}; the imaginary parts of the zero and Nyquist terms are
     * ignored. Real inputs of integral dtypes promote to the default dtype; float32/complex64 and float64/complex128
     * are computed in their precision or better. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.irfft.html">torch.fft.irfft</a>.
     */
    public static Tensor irfft(Tensor input) {
        return SpectralOps.IRFFT.call1(input, null, -1L, null);
    }

    /** {@code torch.fft.irfft(input, n)}: {@code n} points (the input cropped or zero-padded; default 2 (size - 1)). */
    public static Tensor irfft(Tensor input, long n) {
        return SpectralOps.IRFFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.irfft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor irfft(Tensor input, Long n, int dim) {
        return SpectralOps.IRFFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.irfft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor irfft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.IRFFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.hfft(input)}: the one-dimensional DFT of a Hermitian-symmetric signal given by its one-sided
     * half, a real spectrum, over the last dim; {@code n} defaults to {@code 2 (size - 1)}. Real inputs of integral
     * dtypes promote to the default dtype; float32/complex64 and float64/complex128 are computed in their precision or
     * better. See <a href="https://pytorch.org/docs/stable/generated/torch.fft.hfft.html">torch.fft.hfft</a>.
     */
    public static Tensor hfft(Tensor input) {
        return SpectralOps.HFFT.call1(input, null, -1L, null);
    }

    /** {@code torch.fft.hfft(input, n)}: {@code n} points (the input cropped or zero-padded; default 2 (size - 1)). */
    public static Tensor hfft(Tensor input, long n) {
        return SpectralOps.HFFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.hfft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor hfft(Tensor input, Long n, int dim) {
        return SpectralOps.HFFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.hfft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor hfft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.HFFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.ihfft(input)}: the inverse of {@link #hfft}: the one-sided inverse DFT of a real signal, over
     * the last dim; the {@code n / 2 + 1} non-negative frequency terms. Real inputs of integral dtypes promote to the
     * default dtype; float32/complex64 and float64/complex128 are computed in their precision or better. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.ihfft.html">torch.fft.ihfft</a>.
     */
    public static Tensor ihfft(Tensor input) {
        return SpectralOps.IHFFT.call1(input, null, -1L, null);
    }

    /**
     * {@code torch.fft.ihfft(input, n)}: {@code n} points (the input cropped or zero-padded; default the input's size).
     */
    public static Tensor ihfft(Tensor input, long n) {
        return SpectralOps.IHFFT.call1(input, n, -1L, null);
    }

    /** {@code torch.fft.ihfft(input, n, dim)}; a null {@code n} keeps the default. */
    public static Tensor ihfft(Tensor input, Long n, int dim) {
        return SpectralOps.IHFFT.call1(input, n, (long) dim, null);
    }

    /** {@code torch.fft.ihfft(input, n, dim, norm)}; a null {@code n} or {@code norm} keeps the default. */
    public static Tensor ihfft(Tensor input, Long n, int dim, Norm norm) {
        return SpectralOps.IHFFT.call1(input, n, (long) dim, name(norm));
    }

    /**
     * {@code torch.fft.fft2(input)}: the two-dimensional DFT, over the last two dims. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.fft2.html">torch.fft.fft2</a>.
     */
    public static Tensor fft2(Tensor input) {
        return SpectralOps.FFT2.call1(input, null, new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.fft2(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor fft2(Tensor input, long[] s) {
        return SpectralOps.FFT2.call1(input, copy(s), new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.fft2(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor fft2(Tensor input, long[] s, int[] dim) {
        return SpectralOps.FFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), null);
    }

    /** {@code torch.fft.fft2(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default. */
    public static Tensor fft2(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.FFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.ifft2(input)}: the two-dimensional inverse DFT, over the last two dims. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.ifft2.html">torch.fft.ifft2</a>.
     */
    public static Tensor ifft2(Tensor input) {
        return SpectralOps.IFFT2.call1(input, null, new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.ifft2(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor ifft2(Tensor input, long[] s) {
        return SpectralOps.IFFT2.call1(input, copy(s), new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.ifft2(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor ifft2(Tensor input, long[] s, int[] dim) {
        return SpectralOps.IFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), null);
    }

    /**
     * {@code torch.fft.ifft2(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor ifft2(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.IFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.rfft2(input)}: the two-dimensional DFT of a real signal, one-sided in the last transformed dim,
     * over the last two dims. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.rfft2.html">torch.fft.rfft2</a>.
     */
    public static Tensor rfft2(Tensor input) {
        return SpectralOps.RFFT2.call1(input, null, new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.rfft2(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor rfft2(Tensor input, long[] s) {
        return SpectralOps.RFFT2.call1(input, copy(s), new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.rfft2(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor rfft2(Tensor input, long[] s, int[] dim) {
        return SpectralOps.RFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), null);
    }

    /**
     * {@code torch.fft.rfft2(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor rfft2(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.RFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.irfft2(input)}: the inverse of {@link #rfft2}, over the last two dims. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.irfft2.html">torch.fft.irfft2</a>.
     */
    public static Tensor irfft2(Tensor input) {
        return SpectralOps.IRFFT2.call1(input, null, new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.irfft2(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor irfft2(Tensor input, long[] s) {
        return SpectralOps.IRFFT2.call1(input, copy(s), new long[] {-2, -1}, null);
    }

    /** {@code torch.fft.irfft2(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor irfft2(Tensor input, long[] s, int[] dim) {
        return SpectralOps.IRFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), null);
    }

    /**
     * {@code torch.fft.irfft2(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor irfft2(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.IRFFT2.call1(input, copy(s), dim == null ? new long[] {-2, -1} : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.fftn(input)}: the N-dimensional DFT, over every dim (or the last {@code s.length}). See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.fftn.html">torch.fft.fftn</a>.
     */
    public static Tensor fftn(Tensor input) {
        return SpectralOps.FFTN.call1(input, null, null, null);
    }

    /** {@code torch.fft.fftn(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor fftn(Tensor input, long[] s) {
        return SpectralOps.FFTN.call1(input, copy(s), null, null);
    }

    /** {@code torch.fft.fftn(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor fftn(Tensor input, long[] s, int[] dim) {
        return SpectralOps.FFTN.call1(input, copy(s), dim == null ? null : longs(dim), null);
    }

    /** {@code torch.fft.fftn(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default. */
    public static Tensor fftn(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.FFTN.call1(input, copy(s), dim == null ? null : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.ifftn(input)}: the N-dimensional inverse DFT, over every dim (or the last {@code s.length}). See
     * <a href="https://pytorch.org/docs/stable/generated/torch.fft.ifftn.html">torch.fft.ifftn</a>.
     */
    public static Tensor ifftn(Tensor input) {
        return SpectralOps.IFFTN.call1(input, null, null, null);
    }

    /** {@code torch.fft.ifftn(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor ifftn(Tensor input, long[] s) {
        return SpectralOps.IFFTN.call1(input, copy(s), null, null);
    }

    /** {@code torch.fft.ifftn(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor ifftn(Tensor input, long[] s, int[] dim) {
        return SpectralOps.IFFTN.call1(input, copy(s), dim == null ? null : longs(dim), null);
    }

    /**
     * {@code torch.fft.ifftn(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor ifftn(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.IFFTN.call1(input, copy(s), dim == null ? null : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.rfftn(input)}: the N-dimensional DFT of a real signal, one-sided in the last transformed dim,
     * over every dim (or the last {@code s.length}). See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.rfftn.html">torch.fft.rfftn</a>.
     */
    public static Tensor rfftn(Tensor input) {
        return SpectralOps.RFFTN.call1(input, null, null, null);
    }

    /** {@code torch.fft.rfftn(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor rfftn(Tensor input, long[] s) {
        return SpectralOps.RFFTN.call1(input, copy(s), null, null);
    }

    /** {@code torch.fft.rfftn(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor rfftn(Tensor input, long[] s, int[] dim) {
        return SpectralOps.RFFTN.call1(input, copy(s), dim == null ? null : longs(dim), null);
    }

    /**
     * {@code torch.fft.rfftn(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor rfftn(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.RFFTN.call1(input, copy(s), dim == null ? null : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.irfftn(input)}: the inverse of {@link #rfftn}; the last signal size defaults to {@code 2 (size -
     * 1)}, over every dim (or the last {@code s.length}). See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.irfftn.html">torch.fft.irfftn</a>.
     */
    public static Tensor irfftn(Tensor input) {
        return SpectralOps.IRFFTN.call1(input, null, null, null);
    }

    /** {@code torch.fft.irfftn(input, s)}: signal sizes {@code s} (each cropped or zero-padded, -1 keeps a size). */
    public static Tensor irfftn(Tensor input, long[] s) {
        return SpectralOps.IRFFTN.call1(input, copy(s), null, null);
    }

    /** {@code torch.fft.irfftn(input, s, dim)}; a null {@code s} keeps the sizes. */
    public static Tensor irfftn(Tensor input, long[] s, int[] dim) {
        return SpectralOps.IRFFTN.call1(input, copy(s), dim == null ? null : longs(dim), null);
    }

    /**
     * {@code torch.fft.irfftn(input, s, dim, norm)}; a null {@code s}, {@code dim} or {@code norm} keeps the default.
     */
    public static Tensor irfftn(Tensor input, long[] s, int[] dim, Norm norm) {
        return SpectralOps.IRFFTN.call1(input, copy(s), dim == null ? null : longs(dim), name(norm));
    }

    /**
     * {@code torch.fft.fftfreq(n)}: the sample frequencies of a length-{@code n} DFT, {@code [0, 1, ..., -(n/2), ...,
     * -1] / n}, in the default dtype. See <a
     * href="https://pytorch.org/docs/stable/generated/torch.fft.fftfreq.html">torch.fft.fftfreq</a>.
     */
    public static Tensor fftfreq(long n) {
        return SpectralOps.FFTFREQ.call1(n, 1.0, null, null);
    }

    /** {@code torch.fft.fftfreq(n, d)}: with sample spacing {@code d}, frequencies divided by {@code d}. */
    public static Tensor fftfreq(long n, double d) {
        return SpectralOps.FFTFREQ.call1(n, d, null, null);
    }

    /** {@code torch.fft.fftfreq(n, d, dtype=dtype)}: a floating or complex {@code dtype}. */
    public static Tensor fftfreq(long n, double d, DType dtype) {
        return SpectralOps.FFTFREQ.call1(n, d, dtype, null);
    }

    /**
     * {@code torch.fft.rfftfreq(n)}: the sample frequencies of {@link #rfft}'s output, {@code [0, 1, ..., n/2] / n}.
     * See <a href="https://pytorch.org/docs/stable/generated/torch.fft.rfftfreq.html">torch.fft.rfftfreq</a>.
     */
    public static Tensor rfftfreq(long n) {
        return SpectralOps.RFFTFREQ.call1(n, 1.0, null, null);
    }

    /** {@code torch.fft.rfftfreq(n, d)}: with sample spacing {@code d}. */
    public static Tensor rfftfreq(long n, double d) {
        return SpectralOps.RFFTFREQ.call1(n, d, null, null);
    }

    /** {@code torch.fft.rfftfreq(n, d, dtype=dtype)}: a floating or complex {@code dtype}. */
    public static Tensor rfftfreq(long n, double d, DType dtype) {
        return SpectralOps.RFFTFREQ.call1(n, d, dtype, null);
    }

    /**
     * {@code torch.fft.fftshift(input)}: rolls every dim by half its size, so that the zero frequency is in the middle.
     * See <a href="https://pytorch.org/docs/stable/generated/torch.fft.fftshift.html">torch.fft.fftshift</a>.
     */
    public static Tensor fftshift(Tensor input) {
        return SpectralOps.FFTSHIFT.call1(input, null);
    }

    /** {@code torch.fft.fftshift(input, dim)}: only the given dims. */
    public static Tensor fftshift(Tensor input, int... dim) {
        return SpectralOps.FFTSHIFT.call1(input, longs(dim));
    }

    /** {@code torch.fft.ifftshift(input)}: the inverse of {@link #fftshift(Tensor)} (they differ for odd sizes). */
    public static Tensor ifftshift(Tensor input) {
        return SpectralOps.IFFTSHIFT.call1(input, null);
    }

    /** {@code torch.fft.ifftshift(input, dim)}: only the given dims. */
    public static Tensor ifftshift(Tensor input, int... dim) {
        return SpectralOps.IFFTSHIFT.call1(input, longs(dim));
    }
}

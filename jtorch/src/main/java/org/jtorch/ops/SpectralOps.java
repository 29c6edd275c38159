package org.jtorch.ops;

import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.fft.SpectralKernels;

/**
 * {@code torch.fft} (ATen's SpectralOps): three primitive transforms with kernels and derivatives, and the user-facing
 * functions as composites of them, as in PyTorch.
 *
 * <p>The primitives, with PyTorch's schemas: {@code _fft_c2c} (complex to complex, forward or backward),
 * {@code _fft_r2c} (real to complex, one-sided or full) and {@code _fft_c2r} (a Hermitian half spectrum to real), each
 * over a list of dims, with a {@code normalization} code: 0 none, 1 by {@code 1/sqrt(n)}, 2 by {@code 1/n}, n being the
 * product of the signal sizes. Their derivatives are PyTorch's ({@code derivatives.yaml}): the adjoint transform,
 * zero-padding the one-sided half for {@code r2c} and doubling the mirrored entries for {@code c2r}; each is linear, so
 * its forward-mode rule is the op applied to the tangent; vmap moves the batch dim first and shifts the dims.
 *
 * <p>The {@code fft_*} composites follow ATen's {@code SpectralOps.cpp}: real inputs of integral dtypes promote to the
 * default dtype, {@code n}/{@code s} crop or zero-pad the input, {@code norm} ("backward", "forward", "ortho") picks
 * the code by direction, and {@code hfft}/{@code ihfft} are the real transforms of the conjugate. Half and bfloat16
 * inputs are refused on every device ("Unsupported dtype Half"), as PyTorch's CPU does.
 */
public final class SpectralOps {
    private SpectralOps() {}

    // ---- the primitives -----------------------------------------------------------------------------------

    /** {@code _fft_c2c}: the complex DFT over {@code dim}, forward ({@code exp(-2 pi i ..)}) or backward. */
    public static final OpDef FFT_C2C = OpDef.structured(
                    "_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        checkComplex("_fft_c2c", x);
                        int[] dims = dims("_fft_c2c", x, (long[]) args[1]);
                        checkNormalization("_fft_c2c", args[2]);
                        return Spec.of(x.impl().shapeRef(), x.dtype(), x.device(), dims);
                    },
                    (args, outs, spec) -> {
                        Tensor x = (Tensor) args[0];
                        int[] dims = (int[]) spec.plan();
                        double scale = scale(x.impl().shapeRef(), dims, (Long) args[2]);
                        SpectralKernels.c2c(x.impl(), outs[0].impl(), dims, (Boolean) args[3], scale);
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) ->
                    new Tensor[] {c2c(g[0], (long[]) a[1], (Long) a[2], !(Boolean) a[3])})
            .deriveJvp(Jvps::linear);

    /** {@code _fft_r2c}: the DFT of a real tensor over {@code dim}; one-sided keeps {@code n/2 + 1} of the last dim. */
    public static final OpDef FFT_R2C = OpDef.structured(
                    "_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        checkReal("_fft_r2c", x);
                        int[] dims = nonEmptyDims("_fft_r2c", x, (long[]) args[1]);
                        checkNormalization("_fft_r2c", args[2]);
                        long[] shape = x.impl().shapeRef().clone();
                        int last = dims[dims.length - 1];
                        if ((Boolean) args[3]) shape[last] = shape[last] / 2 + 1;
                        return Spec.of(shape, x.dtype().toComplex(), x.device(), dims);
                    },
                    (args, outs, spec) -> {
                        Tensor x = (Tensor) args[0];
                        int[] dims = (int[]) spec.plan();
                        double scale = scale(x.impl().shapeRef(), dims, (Long) args[2]);
                        SpectralKernels.r2c(x.impl(), outs[0].impl(), dims, (Boolean) args[3], scale);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {r2cBackward((Tensor) a[0], g[0], a)})
            .deriveJvp(Jvps::linear);

    /**
     * {@code _fft_c2r}: the inverse DFT of a Hermitian spectrum over {@code dim}, of which the last dim holds the
     * one-sided half; the output has {@code last_dim_size} there. The imaginary parts of the zero-frequency (and, for
     * an even size, the Nyquist) terms are ignored, as pocketfft ignores them.
     */
    public static final OpDef FFT_C2R = OpDef.structured(
                    "_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        checkComplex("_fft_c2r", x);
                        int[] dims = nonEmptyDims("_fft_c2r", x, (long[]) args[1]);
                        checkNormalization("_fft_c2r", args[2]);
                        long lastDimSize = (Long) args[3];
                        int last = dims[dims.length - 1];
                        if (lastDimSize < 1) {
                            throw new TorchException("Invalid number of data points (" + lastDimSize + ") specified");
                        }
                        if (x.impl().shapeRef()[last] < lastDimSize / 2 + 1) {
                            throw new TorchException("_fft_c2r: an output of size " + lastDimSize + " in dim " + last
                                    + " needs " + (lastDimSize / 2 + 1) + " input values there, but the input has "
                                    + x.impl().shapeRef()[last]);
                        }
                        long[] shape = x.impl().shapeRef().clone();
                        shape[last] = lastDimSize;
                        return Spec.of(shape, x.dtype().toReal(), x.device(), dims);
                    },
                    (args, outs, spec) -> {
                        int[] dims = (int[]) spec.plan();
                        double scale = scale(outs[0].impl().shapeRef(), dims, (Long) args[2]);
                        SpectralKernels.c2r(((Tensor) args[0]).impl(), outs[0].impl(), dims, scale);
                    })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {c2rBackward(g[0], a)})
            .deriveJvp(Jvps::linear);

    private static Tensor c2c(Tensor x, long[] dim, long normalization, boolean forward) {
        return FFT_C2C.call1(x, dim, normalization, forward);
    }

    /**
     * PyTorch's {@code fft_r2c_backward}: a one-sided r2c is a full complex DFT with half the outputs dropped, so its
     * adjoint zero-pads the gradient to full length, runs the inverse complex transform and keeps the real part.
     */
    private static Tensor r2cBackward(Tensor self, Tensor grad, Object[] a) {
        long[] dim = (long[]) a[1];
        long normalization = (Long) a[2];
        if ((Boolean) a[3]) {
            int last = Shapes.wrapDim(dim[dim.length - 1], self.dim());
            long missing = self.size(last) - grad.size(last);
            if (missing > 0) {
                long[] pad = new long[2 * grad.dim()];
                pad[2 * (grad.dim() - 1 - last) + 1] = missing;
                grad = ArrangeOps.pad(grad, pad);
            }
        }
        return c2c(grad, dim, normalization, false).real();
    }

    /**
     * PyTorch's {@code fft_c2r_backward}: the r2c of the gradient, with the entries whose mirror images lie outside the
     * one-sided half ({@code 1 .. n - (n/2 + 1)} of the last dim) doubled, as each stands for two terms of the full
     * spectrum.
     */
    private static Tensor c2rBackward(Tensor grad, Object[] a) {
        long[] dim = (long[]) a[1];
        Tensor gI = FFT_R2C.call1(grad, dim, a[2], true);
        int last = Shapes.wrapDim(dim[dim.length - 1], grad.dim());
        long doubled = grad.size(last) - gI.size(last);
        if (doubled <= 0) return gI;
        long rest = gI.size(last) - 1 - doubled;
        return JoinOps.cat(
                List.of(
                        gI.narrow(last, 0, 1),
                        gI.narrow(last, 1, doubled).mul(2.0),
                        gI.narrow(last, 1 + doubled, rest)),
                last);
    }

    // ---- checks and helpers of the primitives -------------------------------------------------------------

    private static void checkComplex(String op, Tensor x) {
        DType d = x.dtype();
        if (!d.isComplex()) {
            throw new TorchException(op + ": expected a complex input tensor, but got " + d.cppName());
        }
        if (d != DType.COMPLEX64 && d != DType.COMPLEX128) throw new TorchException("Unsupported dtype " + d.cppName());
    }

    private static void checkReal(String op, Tensor x) {
        DType d = x.dtype();
        if (d.isComplex()) throw new TorchException(op + ": expected a real input tensor, but got " + d.cppName());
        if (d != DType.FLOAT32 && d != DType.FLOAT64) throw new TorchException("Unsupported dtype " + d.cppName());
    }

    private static void checkNormalization(String op, Object code) {
        long c = (Long) code;
        if (c < 0 || c > 2) {
            throw new TorchException(op + ": normalization must be 0 (none), 1 (by 1/sqrt(n)) or 2 (by 1/n), got " + c);
        }
    }

    /** The dims wrapped ({@code maybe_wrap_dim} without wrapping scalars), each at most once. */
    private static int[] dims(String op, Tensor x, long[] dim) {
        int[] out = new int[dim.length];
        for (int i = 0; i < dim.length; i++) {
            if (x.dim() == 0) {
                throw new IndexOutOfBoundsException(
                        "Dimension specified as " + dim[i] + " but tensor has no dimensions");
            }
            out[i] = Shapes.wrapDim(dim[i], x.dim());
        }
        int[] sorted = out.clone();
        Arrays.sort(sorted);
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1]) throw new TorchException("FFT dims must be unique");
        }
        return out;
    }

    private static int[] nonEmptyDims(String op, Tensor x, long[] dim) {
        if (dim.length == 0) throw new TorchException(op + " must transform at least one axis");
        return dims(op, x, dim);
    }

    /** The normalisation factor of a transform over {@code dims} of signal sizes {@code shape}. */
    private static double scale(long[] shape, int[] dims, long normalization) {
        double n = 1;
        for (int d : dims) n *= shape[d];
        return switch ((int) normalization) {
            case 1 -> 1 / Math.sqrt(n);
            case 2 -> 1 / n;
            default -> 1;
        };
    }

    // ---- the torch.fft functions ------------------------------------------------------------------------

    private static final String ONE_DIM = "(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor";
    private static final String TWO_DIMS =
            "(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor";
    private static final String N_DIMS = "(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor";

    /** {@code torch.fft.fft}: complex input by c2c, real input by a two-sided r2c. */
    public static final OpDef FFT = OpDef.composite("fft_fft" + ONE_DIM, a -> fft1d("fft", a, true));

    /** {@code torch.fft.ifft}. */
    public static final OpDef IFFT = OpDef.composite("fft_ifft" + ONE_DIM, a -> fft1d("ifft", a, false));

    /** {@code torch.fft.rfft}: the one-sided DFT of a real signal. */
    public static final OpDef RFFT = OpDef.composite(
            "fft_rfft" + ONE_DIM, a -> r2c1d("rfft", (Tensor) a[0], (Long) a[1], (Long) a[2], (String) a[3], true));

    /** {@code torch.fft.irfft}: the inverse of {@link #RFFT}; {@code n} defaults to {@code 2 (size - 1)}. */
    public static final OpDef IRFFT = OpDef.composite(
            "fft_irfft" + ONE_DIM, a -> c2r1d("irfft", (Tensor) a[0], (Long) a[1], (Long) a[2], (String) a[3], false));

    /** {@code torch.fft.hfft}: the real spectrum of a Hermitian signal given by its one-sided half. */
    public static final OpDef HFFT = OpDef.composite(
            "fft_hfft" + ONE_DIM, a -> c2r1d("hfft", (Tensor) a[0], (Long) a[1], (Long) a[2], (String) a[3], true));

    /** {@code torch.fft.ihfft}: the inverse of {@link #HFFT}, a one-sided inverse DFT of a real signal. */
    public static final OpDef IHFFT = OpDef.composite(
            "fft_ihfft" + ONE_DIM, a -> r2c1d("ihfft", (Tensor) a[0], (Long) a[1], (Long) a[2], (String) a[3], false));

    /** {@code torch.fft.fft2}: {@link #FFTN} over two dims, the last two by default. */
    public static final OpDef FFT2 = OpDef.composite("fft_fft2" + TWO_DIMS, a -> fftn(a, true));

    /** {@code torch.fft.ifft2}. */
    public static final OpDef IFFT2 = OpDef.composite("fft_ifft2" + TWO_DIMS, a -> fftn(a, false));

    /** {@code torch.fft.rfft2}. */
    public static final OpDef RFFT2 = OpDef.composite("fft_rfft2" + TWO_DIMS, SpectralOps::rfftn);

    /** {@code torch.fft.irfft2}. */
    public static final OpDef IRFFT2 = OpDef.composite("fft_irfft2" + TWO_DIMS, SpectralOps::irfftn);

    /** {@code torch.fft.fftn}: the complex DFT over {@code dim} (all dims by default, or the last {@code len(s)}). */
    public static final OpDef FFTN = OpDef.composite("fft_fftn" + N_DIMS, a -> fftn(a, true));

    /** {@code torch.fft.ifftn}. */
    public static final OpDef IFFTN = OpDef.composite("fft_ifftn" + N_DIMS, a -> fftn(a, false));

    /** {@code torch.fft.rfftn}: r2c over the last transformed dim, c2c over the others. */
    public static final OpDef RFFTN = OpDef.composite("fft_rfftn" + N_DIMS, SpectralOps::rfftn);

    /** {@code torch.fft.irfftn}: the inverse of {@link #RFFTN}. */
    public static final OpDef IRFFTN = OpDef.composite("fft_irfftn" + N_DIMS, SpectralOps::irfftn);

    /** {@code torch.fft.fftfreq}: the sample frequencies {@code [0, 1, ..., -(n/2), ..., -1] / (d n)}. */
    public static final OpDef FFTFREQ = OpDef.composite(
            "fft_fftfreq(int n, float d=1.0, *, ScalarType? dtype=None, Device? device=None) -> Tensor", a -> {
                long n = (Long) a[0];
                DType dtype = freqDtype("fftfreq", (DType) a[2]);
                Device device = a[3] != null ? (Device) a[3] : Device.CPU;
                Tensor positive = Creation.ARANGE.call1(0L, (n + 1) / 2, 1L, dtype, device);
                Tensor negative = Creation.ARANGE.call1(-(n / 2), 0L, 1L, dtype, device);
                return JoinOps.cat(List.of(positive, negative), 0).mul(1.0 / (n * (Double) a[1]));
            });

    /** {@code torch.fft.rfftfreq}: {@code [0, 1, ..., n/2] / (d n)}. */
    public static final OpDef RFFTFREQ = OpDef.composite(
            "fft_rfftfreq(int n, float d=1.0, *, ScalarType? dtype=None, Device? device=None) -> Tensor", a -> {
                long n = (Long) a[0];
                DType dtype = freqDtype("rfftfreq", (DType) a[2]);
                Device device = a[3] != null ? (Device) a[3] : Device.CPU;
                return Creation.ARANGE.call1(0L, n / 2 + 1, 1L, dtype, device).mul(1.0 / (n * (Double) a[1]));
            });

    /**
     * {@code torch.fft.fftshift}: rolls each of {@code dim} (all by default) by half its size, zero frequency first.
     */
    public static final OpDef FFTSHIFT = OpDef.composite(
            "fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor", a -> shift((Tensor) a[0], (long[]) a[1], false));

    /** {@code torch.fft.ifftshift}: the inverse of {@link #FFTSHIFT}. */
    public static final OpDef IFFTSHIFT = OpDef.composite(
            "fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor", a -> shift((Tensor) a[0], (long[]) a[1], true));

    // ---- the functions' pieces (ATen's fft_c2c, fft_r2c, fft_c2r, canonicalize_fft_shape_and_dim_args) ----------

    /** {@code norm_from_string}: the normalisation code of a {@code norm} string for a transform's direction. */
    static long normalization(String norm, boolean forward) {
        if (norm == null || norm.equals("backward")) return forward ? 0 : 2;
        if (norm.equals("forward")) return forward ? 2 : 0;
        if (norm.equals("ortho")) return 1;
        throw new TorchException("Invalid normalization mode: \"" + norm + "\"");
    }

    /** {@code promote_type_fft}: complex stays, integral becomes the default dtype, then complex if required. */
    private static Tensor promote(Tensor x, boolean requireComplex) {
        DType d = x.dtype();
        if (d.isComplex()) return x;
        if (!d.isFloatingPoint()) d = DefaultDtype.get();
        if (d != DType.FLOAT32 && d != DType.FLOAT64) throw new TorchException("Unsupported dtype " + d.cppName());
        if (requireComplex) d = d.toComplex();
        return d == x.dtype() ? x : x.to(d);
    }

    private static int wrap(Tensor x, long dim) {
        if (x.dim() == 0) {
            throw new IndexOutOfBoundsException("Dimension specified as " + dim + " but tensor has no dimensions");
        }
        return Shapes.wrapDim(dim, x.dim());
    }

    /** {@code resize_fft_input}: crops or zero-pads each of {@code dims} to its size ({@code -1}: unchanged). */
    private static Tensor resize(Tensor x, int[] dims, long[] sizes) {
        long[] pad = new long[2 * x.dim()];
        boolean mustPad = false;
        for (int i = 0; i < dims.length; i++) {
            if (sizes[i] == -1) continue;
            long current = x.size(dims[i]);
            if (current < sizes[i]) {
                mustPad = true;
                pad[pad.length - 2 * dims[i] - 1] = sizes[i] - current;
            }
            if (current > sizes[i]) x = x.slice(dims[i], 0, sizes[i]);
        }
        return mustPad ? ArrangeOps.pad(x, pad) : x;
    }

    private static void checkPoints(long n) {
        if (n < 1) throw new TorchException("Invalid number of data points (" + n + ") specified");
    }

    private static Object fft1d(String name, Object[] a, boolean forward) {
        Tensor x = (Tensor) a[0];
        Long n = (Long) a[1];
        long dim = (Long) a[2];
        String norm = (String) a[3];
        if (!x.isComplex()) return r2c(name, x, n, dim, norm, forward, false);
        int d = wrap(x, dim);
        long points = n != null ? n : x.size(d);
        checkPoints(points);
        if (n != null) x = resize(x, new int[] {d}, new long[] {points});
        return c2c(x, new long[] {d}, normalization(norm, forward), forward);
    }

    private static Tensor r2c1d(String name, Tensor x, Long n, long dim, String norm, boolean forward) {
        return r2c(name, x, n, dim, norm, forward, true);
    }

    /** ATen's {@code fft_r2c}: an inverse transform is the conjugate of the forward one with its normalisation. */
    private static Tensor r2c(String name, Tensor x, Long n, long dim, String norm, boolean forward, boolean onesided) {
        if (x.isComplex()) {
            throw new TorchException(
                    name + " expects a real input tensor, but got " + x.dtype().cppName());
        }
        x = promote(x, false);
        int d = wrap(x, dim);
        long points = n != null ? n : x.size(d);
        checkPoints(points);
        if (n != null) x = resize(x, new int[] {d}, new long[] {points});
        Tensor r = FFT_R2C.call1(x, new long[] {d}, normalization(norm, forward), onesided);
        return forward ? r : r.conj();
    }

    /** ATen's {@code fft_c2r}: a forward transform (hfft) is the inverse one of the conjugate. */
    private static Tensor c2r1d(String name, Tensor x, Long n, long dim, String norm, boolean forward) {
        x = promote(x, true);
        int d = wrap(x, dim);
        long points = n != null ? n : 2 * (x.size(d) - 1);
        checkPoints(points);
        if (n != null) x = resize(x, new int[] {d}, new long[] {points / 2 + 1});
        if (forward) x = x.conj();
        return FFT_C2R.call1(x, new long[] {d}, normalization(norm, forward), points);
    }

    /** The transformed dims and their signal sizes ({@code canonicalize_fft_shape_and_dim_args}). */
    private record ShapeAndDims(long[] shape, int[] dims) {}

    private static ShapeAndDims canonicalize(Tensor x, long[] s, long[] dim) {
        int rank = x.dim();
        int[] dims = null;
        if (dim != null) {
            dims = new int[dim.length];
            for (int i = 0; i < dim.length; i++) dims[i] = wrap(x, dim[i]);
            int[] sorted = dims.clone();
            Arrays.sort(sorted);
            for (int i = 1; i < sorted.length; i++) {
                if (sorted[i] == sorted[i - 1]) throw new TorchException("FFT dims must be unique");
            }
        }
        long[] shape;
        if (s != null) {
            if (dim != null && dim.length != s.length) {
                throw new TorchException("When given, dim and shape arguments must have the same length");
            }
            if (s.length > rank) {
                throw new TorchException(
                        "Got shape with " + s.length + " values but input tensor only has " + rank + " dimensions.");
            }
            if (dims == null) {
                dims = new int[s.length];
                for (int i = 0; i < s.length; i++) dims[i] = rank - s.length + i;
            }
            shape = new long[s.length];
            for (int i = 0; i < s.length; i++) shape[i] = s[i] == -1 ? x.size(dims[i]) : s[i];
        } else {
            if (dims == null) {
                dims = new int[rank];
                for (int i = 0; i < rank; i++) dims[i] = i;
            }
            shape = new long[dims.length];
            for (int i = 0; i < dims.length; i++) shape[i] = x.size(dims[i]);
        }
        for (long n : shape) checkPoints(n);
        return new ShapeAndDims(shape, dims);
    }

    private static long[] longs(int[] dims) {
        long[] r = new long[dims.length];
        for (int i = 0; i < dims.length; i++) r[i] = dims[i];
        return r;
    }

    private static Tensor fftn(Object[] a, boolean forward) {
        Tensor self = (Tensor) a[0];
        ShapeAndDims desc = canonicalize(self, (long[]) a[1], (long[]) a[2]);
        Tensor x = resize(promote(self, true), desc.dims(), desc.shape());
        return c2c(x, longs(desc.dims()), normalization((String) a[3], forward), forward);
    }

    private static Tensor rfftn(Object[] a) {
        Tensor self = (Tensor) a[0];
        if (self.isComplex()) {
            throw new TorchException("rfftn expects a real-valued input tensor, but got "
                    + self.dtype().cppName());
        }
        ShapeAndDims desc = canonicalize(self, (long[]) a[1], (long[]) a[2]);
        if (desc.dims().length == 0) throw new TorchException("rfftn must transform at least one axis");
        Tensor x = resize(promote(self, false), desc.dims(), desc.shape());
        return FFT_R2C.call1(x, longs(desc.dims()), normalization((String) a[3], true), true);
    }

    private static Tensor irfftn(Object[] a) {
        Tensor self = (Tensor) a[0];
        long[] s = (long[]) a[1];
        ShapeAndDims desc = canonicalize(self, s, (long[]) a[2]);
        int k = desc.dims().length;
        if (k == 0) throw new TorchException("irfftn must transform at least one axis");
        long lastDimSize =
                s == null || s[s.length - 1] == -1 ? 2 * (self.size(desc.dims()[k - 1]) - 1) : desc.shape()[k - 1];
        checkPoints(lastDimSize);
        long[] shape = desc.shape().clone();
        shape[k - 1] = lastDimSize / 2 + 1;
        Tensor x = resize(promote(self, true), desc.dims(), shape);
        return FFT_C2R.call1(x, longs(desc.dims()), normalization((String) a[3], false), lastDimSize);
    }

    private static DType freqDtype(String name, DType requested) {
        DType d = requested != null ? requested : DefaultDtype.get();
        if (!d.isFloatingPoint() && !d.isComplex()) {
            throw new TorchException(name + " requires a floating point or complex dtype");
        }
        return d;
    }

    /** {@code fftshift}/{@code ifftshift}: a roll by {@code size / 2}, or {@code (size + 1) / 2} to undo it. */
    private static Tensor shift(Tensor x, long[] dim, boolean inverse) {
        int[] dims;
        if (dim == null) {
            dims = new int[x.dim()];
            for (int i = 0; i < dims.length; i++) dims[i] = i;
        } else {
            dims = new int[dim.length];
            for (int i = 0; i < dim.length; i++) dims[i] = Shapes.wrapDim(dim[i], x.dim());
        }
        if (dims.length == 0) return JoinOps.ROLL.call1(x, new long[] {0}, new long[0]);
        long[] shifts = new long[dims.length];
        for (int i = 0; i < dims.length; i++) shifts[i] = (x.size(dims[i]) + (inverse ? 1 : 0)) / 2;
        return JoinOps.ROLL.call1(x, shifts, longs(dims));
    }
}

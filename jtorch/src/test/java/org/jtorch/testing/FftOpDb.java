package org.jtorch.testing;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.SpectralOps;

/**
 * The {@link OpDb} entries of {@code torch.fft} ({@link SpectralOps}): the three primitives over lengths of each kind
 * (radix 2/4, 3·5, a generic prime, a Bluestein prime), several dims, every normalisation code, strided, expanded,
 * offset and empty inputs, and the arguments they refuse; the {@code fft_*} composites with their {@code n}/{@code s},
 * dim and norm arguments. A primitive taking complex input is given the complex counterpart of the swept dtype (so the
 * float64 sweep runs complex128 and the integer sweeps are refused).
 */
final class FftOpDb {
    private FftOpDb() {}

    /** The complex dtype a sample of the swept dtype uses: the floating types that have one map to it. */
    private static DType complexOf(DType d) {
        return d.isFloatingPoint() && !d.isFloat8() ? d.toComplex() : d;
    }

    private static Tensor cx(SampleInputs in, long... shape) {
        return in.t(complexOf(in.dtype()), shape);
    }

    private static OpDb.Sample s(String label, OpDb.Args args) {
        return new OpDb.Sample(label, args, true);
    }

    private static long[] ls(long... v) {
        return v;
    }

    private static OpDb.Entry entry(OpDef op, OpDb.Sample... samples) {
        return new OpDb.Entry(op, OpDb.DTYPES, List.of(samples));
    }

    static List<OpDb.Entry> entries() {
        return List.of(
                entry(
                        SpectralOps.FFT_C2C,
                        s("1-d", in -> new Object[] {cx(in, 8), ls(0), 0L, true}),
                        s("last-dim", in -> new Object[] {cx(in, 3, 15), ls(-1), 1L, false}),
                        s("two-dims", in -> new Object[] {cx(in, 2, 3, 4), ls(0, 2), 2L, true}),
                        s("generic-prime", in -> new Object[] {cx(in, 2, 7), ls(1), 0L, false}),
                        s("bluestein", in -> new Object[] {cx(in, 97), ls(0), 2L, true}),
                        s("transposed", in -> new Object[] {in.nc(complexOf(in.dtype()), 3, 4), ls(0), 0L, true}),
                        s("expanded", in -> new Object[] {in.ex(3, 4), ls(1), 0L, true}),
                        s("offset", in -> new Object[] {in.off(2, 3), ls(1), 1L, false}),
                        s("empty", in -> new Object[] {cx(in, 0, 3), ls(1), 0L, true}),
                        s("no-dims", in -> new Object[] {cx(in, 2, 3), ls(), 0L, true}),
                        s("0-d-no-dims", in -> new Object[] {cx(in), ls(), 0L, true}),
                        s("0-d-dim", in -> new Object[] {cx(in), ls(0), 0L, true}),
                        s("repeated-dim", in -> new Object[] {cx(in, 2, 3), ls(0, -2), 0L, true}),
                        s("bad-normalization", in -> new Object[] {cx(in, 2, 3), ls(0), 3L, true})),
                entry(
                        SpectralOps.FFT_R2C,
                        s("onesided-even", in -> new Object[] {in.t(2, 8), ls(1), 0L, true}),
                        s("onesided-odd", in -> new Object[] {in.t(3, 15), ls(-1), 1L, true}),
                        s("two-sided", in -> new Object[] {in.t(2, 5), ls(1), 2L, false}),
                        s("two-dims", in -> new Object[] {in.t(2, 3, 4), ls(0, 2), 2L, true}),
                        s("bluestein", in -> new Object[] {in.t(97), ls(0), 0L, true}),
                        s("transposed", in -> new Object[] {in.nc(3, 4), ls(0), 0L, true}),
                        s("expanded", in -> new Object[] {in.ex(3, 4), ls(1), 0L, true}),
                        s("offset", in -> new Object[] {in.off(2, 3), ls(1), 1L, true}),
                        s("empty", in -> new Object[] {in.t(0, 3), ls(1), 0L, true}),
                        s("no-dims", in -> new Object[] {in.t(2, 3), ls(), 0L, true}),
                        s("repeated-dim", in -> new Object[] {in.t(2, 3), ls(1, -1), 0L, true})),
                entry(
                        SpectralOps.FFT_C2R,
                        s("even", in -> new Object[] {cx(in, 2, 5), ls(1), 2L, 8L}),
                        s("odd", in -> new Object[] {cx(in, 3, 8), ls(-1), 1L, 15L}),
                        s("two-dims", in -> new Object[] {cx(in, 2, 3, 3), ls(0, 2), 0L, 4L}),
                        s("longer-input", in -> new Object[] {cx(in, 2, 6), ls(1), 2L, 6L}),
                        s("transposed", in -> new Object[] {in.nc(complexOf(in.dtype()), 3, 4), ls(0), 0L, 4L}),
                        s("empty", in -> new Object[] {cx(in, 0, 3), ls(1), 0L, 4L}),
                        s("too-short-input", in -> new Object[] {cx(in, 2, 3), ls(1), 0L, 8L}),
                        s("no-points", in -> new Object[] {cx(in, 2, 3), ls(1), 0L, 0L}),
                        s("no-dims", in -> new Object[] {cx(in, 2, 3), ls(), 0L, 4L})),
                oneDim(SpectralOps.FFT),
                oneDim(SpectralOps.IFFT),
                oneDim(SpectralOps.RFFT),
                oneDim(SpectralOps.IRFFT),
                oneDim(SpectralOps.HFFT),
                oneDim(SpectralOps.IHFFT),
                nDims(SpectralOps.FFT2),
                nDims(SpectralOps.IFFT2),
                nDims(SpectralOps.RFFT2),
                nDims(SpectralOps.IRFFT2),
                nDims(SpectralOps.FFTN),
                nDims(SpectralOps.IFFTN),
                nDims(SpectralOps.RFFTN),
                nDims(SpectralOps.IRFFTN),
                entry(
                        SpectralOps.FFTFREQ,
                        s("n8", in -> new Object[] {8L, 1.0, in.dtype(), in.device()}),
                        s("n9-d", in -> new Object[] {9L, 0.5, in.dtype(), in.device()})),
                entry(
                        SpectralOps.RFFTFREQ,
                        s("n8", in -> new Object[] {8L, 1.0, in.dtype(), in.device()}),
                        s("n9-d", in -> new Object[] {9L, 0.5, in.dtype(), in.device()})),
                shift(SpectralOps.FFTSHIFT),
                shift(SpectralOps.IFFTSHIFT));
    }

    /** (self, n, dim, norm): the input's own type (real or complex, as each function wants or refuses). */
    private static OpDb.Entry oneDim(OpDef op) {
        return entry(
                op,
                s("default", in -> new Object[] {in.t(3, 6), null, -1L, null}),
                s("complex", in -> new Object[] {cx(in, 3, 6), null, -1L, null}),
                s("pad-n", in -> new Object[] {in.t(3, 5), 9L, -1L, "ortho"}),
                s("crop-n-dim0", in -> new Object[] {cx(in, 5, 2), 3L, 0L, "forward"}),
                s("transposed", in -> new Object[] {in.nc(3, 4), null, 0L, "backward"}),
                s("bad-norm", in -> new Object[] {in.t(3, 4), null, -1L, "sideways"}),
                s("no-points", in -> new Object[] {in.t(3, 4), 0L, -1L, null}),
                s("0-d", in -> new Object[] {in.t(), null, -1L, null}));
    }

    /** (self, s, dim, norm). */
    private static OpDb.Entry nDims(OpDef op) {
        return entry(
                op,
                s("default", in ->
                        new Object[] {in.t(2, 3, 4), null, op.name().endsWith("2") ? ls(-2, -1) : null, null}),
                s("complex", in -> new Object[] {cx(in, 2, 4), null, ls(0, 1), "ortho"}),
                s("s", in -> new Object[] {in.t(2, 3, 4), ls(4, 3), ls(0, 2), null}),
                s("transposed", in -> new Object[] {in.nc(3, 4), null, ls(-2, -1), "forward"}),
                s("repeated-dim", in -> new Object[] {in.t(3, 4), null, ls(0, 0), null}),
                s("s-too-long", in -> new Object[] {in.t(3, 4), ls(2, 2, 2), null, null}));
    }

    /** (self, dim). */
    private static OpDb.Entry shift(OpDef op) {
        return entry(
                op,
                s("all", in -> new Object[] {in.t(3, 4), null}),
                s("dims", in -> new Object[] {in.t(2, 3, 5), ls(0, -1)}),
                s("transposed", in -> new Object[] {in.nc(3, 5), ls(1)}),
                s("0-d", in -> new Object[] {in.t(), null}));
    }
}

package org.jtorch.testing;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;

/**
 * Builds the tensors of one {@link OpDb} sample for one (dtype, device): deterministic values that depend only on each
 * tensor's position in the sample and on the logical element index, so that the same sample built twice, once with
 * strided layouts and once {@linkplain #contiguousOnly contiguous}, holds the same values. Meta tensors start as
 * {@code Torch.zeros(shape, dtype, Device.META)} and get the same geometry as the CPU ones.
 */
public final class SampleInputs {
    private enum Layout {
        CONTIGUOUS,
        TRANSPOSED,
        ROWS,
        EXPANDED,
        OFFSET
    }

    private final DType dtype;
    private final Device device;
    private final boolean contiguousOnly;
    private int seed;
    private boolean strided;

    private SampleInputs(DType dtype, Device device, boolean contiguousOnly) {
        this.dtype = dtype;
        this.device = device;
        this.contiguousOnly = contiguousOnly;
    }

    /** Inputs on {@code device}, laid out as the sample asks. */
    public static SampleInputs on(DType dtype, Device device) {
        return new SampleInputs(dtype, device, false);
    }

    /** CPU inputs with the same values, every tensor contiguous: the reference for strided samples. */
    public static SampleInputs contiguousOnly(DType dtype) {
        return new SampleInputs(dtype, Device.CPU, true);
    }

    /** The swept dtype (the dtype argument of creation ops). */
    public DType dtype() {
        return dtype;
    }

    /** The device (the device argument of creation ops). */
    public Device device() {
        return device;
    }

    /** Whether the sample asked for a layout other than a fresh contiguous tensor. */
    public boolean strided() {
        return strided;
    }

    /** A contiguous tensor of the swept dtype. */
    public Tensor t(long... shape) {
        return make(dtype, shape, Layout.CONTIGUOUS);
    }

    /** A contiguous tensor of a fixed dtype (a second operand for promotion, an index...). */
    public Tensor t(DType d, long... shape) {
        return make(d, shape, Layout.CONTIGUOUS);
    }

    /** A 0-d tensor of a fixed dtype holding {@code v} (zeros on meta): a value the op must check. */
    public Tensor value(DType d, double v) {
        seed++;
        Tensor t = Torch.zeros(new long[0], d, device);
        if (device == Device.CPU) ElementIO.of(d).setDouble(t.impl().storage().segment(), t.storageOffset(), v);
        return t;
    }

    /** A contiguous bool tensor (masks, conditions). */
    public Tensor mask(long... shape) {
        return make(DType.BOOL, shape, Layout.CONTIGUOUS);
    }

    /**
     * A non-contiguous tensor of the swept dtype: the last two dims transposed in memory; a 1-D tensor takes every
     * other element, a 0-d one sits at storage offset 1.
     */
    public Tensor nc(long... shape) {
        return make(dtype, shape, Layout.TRANSPOSED);
    }

    /** {@link #nc(long...)} of a fixed dtype. */
    public Tensor nc(DType d, long... shape) {
        return make(d, shape, Layout.TRANSPOSED);
    }

    /**
     * A non-contiguous tensor whose rows are contiguous: every other index along dim 0 (viewable, unlike {@link #nc}).
     */
    public Tensor rows(long... shape) {
        return make(dtype, shape, Layout.ROWS);
    }

    /** A tensor expanded along dim 0 (stride 0): every index along dim 0 shows the same row. */
    public Tensor ex(long... shape) {
        return make(dtype, shape, Layout.EXPANDED);
    }

    /** A contiguous tensor that starts at storage offset 3 of a larger storage. */
    public Tensor off(long... shape) {
        return make(dtype, shape, Layout.OFFSET);
    }

    /**
     * A contiguous tensor of the swept dtype whose values lie in [0, 1] (0 or 1 for integers, a zero imaginary part for
     * complex): probabilities, standard deviations, counts, repeats, which the ops check on the data and which the
     * signed values of {@link #t} would make the CPU refuse.
     */
    public Tensor unit(long... shape) {
        return make(dtype, shape, Layout.CONTIGUOUS, true);
    }

    /** {@link #unit(long...)} of a fixed dtype. */
    public Tensor unit(DType d, long... shape) {
        return make(d, shape, Layout.CONTIGUOUS, true);
    }

    /** {@link #unit(long...)} laid out as {@link #nc(long...)}. */
    public Tensor unitNc(long... shape) {
        return make(dtype, shape, Layout.TRANSPOSED, true);
    }

    /** {@link #unit(long...)} moved to [0.125, 1.125] in floating dtypes: an operand that must stay positive. */
    public Tensor positive(long... shape) {
        return awayFromZero(unit(shape));
    }

    /** {@link #positive(long...)} laid out as {@link #nc(long...)}. */
    public Tensor positiveNc(long... shape) {
        return awayFromZero(unitNc(shape));
    }

    private Tensor awayFromZero(Tensor t) {
        if (device == Device.CPU && t.dtype().isFloatingPoint()) t.add_(0.125);
        return t;
    }

    private Tensor make(DType d, long[] shape, Layout layout) {
        return make(d, shape, layout, false);
    }

    private Tensor make(DType d, long[] shape, Layout layout, boolean unit) {
        int s = seed++;
        if (layout != Layout.CONTIGUOUS) strided = true;
        if (layout == Layout.EXPANDED && shape.length == 0) {
            throw new IllegalArgumentException("ex() needs at least one dim");
        }
        // Values repeat with this period (in logical order), so that an expanded tensor and its contiguous copy agree.
        long n = Shapes.numel(shape);
        long period = layout == Layout.EXPANDED && shape[0] > 0 ? n / shape[0] : n;
        if (contiguousOnly) layout = Layout.CONTIGUOUS;
        Tensor t =
                switch (layout) {
                    case CONTIGUOUS -> Torch.zeros(shape, d, device);
                    case TRANSPOSED -> transposed(d, shape);
                    case ROWS -> everyOtherRow(d, shape);
                    case EXPANDED -> expanded(d, shape);
                    case OFFSET ->
                        Views.of(Torch.zeros(new long[] {n + 3}, d, device), 3, shape, Shapes.contiguousStrides(shape));
                };
        if (device == Device.CPU) fill(t, s, Math.max(period, 1), unit);
        return t;
    }

    private Tensor expanded(DType d, long[] shape) {
        long[] row = Arrays.copyOfRange(shape, 1, shape.length);
        long[] strides = new long[shape.length];
        System.arraycopy(Shapes.contiguousStrides(row), 0, strides, 1, row.length);
        return Views.of(Torch.zeros(row, d, device), 0, shape, strides);
    }

    private Tensor transposed(DType d, long[] shape) {
        int n = shape.length;
        if (n == 0) return Views.of(Torch.zeros(new long[] {2}, d, device), 1, shape, new long[0]);
        if (n == 1) return Views.of(Torch.zeros(new long[] {2 * shape[0]}, d, device), 0, shape, new long[] {2});
        long[] storageShape = shape.clone();
        storageShape[n - 2] = shape[n - 1];
        storageShape[n - 1] = shape[n - 2];
        Tensor base = Torch.zeros(storageShape, d, device);
        long[] strides = base.stride();
        long tmp = strides[n - 2];
        strides[n - 2] = strides[n - 1];
        strides[n - 1] = tmp;
        return Views.of(base, 0, shape, strides);
    }

    private Tensor everyOtherRow(DType d, long[] shape) {
        if (shape.length == 0) throw new IllegalArgumentException("rows() needs at least one dim");
        long[] storageShape = shape.clone();
        storageShape[0] = 2 * shape[0];
        Tensor base = Torch.zeros(storageShape, d, device);
        long[] strides = base.stride();
        strides[0] *= 2;
        return Views.of(base, 0, shape, strides);
    }

    /**
     * Writes the elements (logical order) of tensor number {@code s}: small, exactly representable values, signed or in
     * [0, 1] ({@code unit}; multiples of 1/8, at most one zero in any 9 consecutive elements).
     */
    private static void fill(Tensor t, int s, long period, boolean unit) {
        ElementIO io = ElementIO.of(t.dtype());
        MemorySegment seg = t.impl().storage().segment();
        for (long j = 0; j < t.numel(); j++) {
            long i = j % period;
            long at = t.impl().elementIndex(j);
            if (unit) {
                long k = (i * 7 + s * 3L) % 9;
                switch (t.dtype().category()) {
                    case BOOL, INTEGRAL -> io.setLong(seg, at, k % 2);
                    case FLOATING -> io.setDouble(seg, at, k / 8.0);
                    case COMPLEX -> io.setComplex(seg, at, k / 8.0, 0);
                }
                continue;
            }
            long k = (i * 7 + s * 3L) % 11;
            switch (t.dtype().category()) {
                case BOOL -> io.setLong(seg, at, (i + s) % 3 != 0 ? 1 : 0);
                case INTEGRAL -> io.setLong(seg, at, k - 3);
                case FLOATING -> io.setDouble(seg, at, k / 4.0 - 1.25);
                case COMPLEX -> io.setComplex(seg, at, k / 4.0 - 1.25, ((i * 5 + s * 2L) % 7) / 4.0 - 0.75);
            }
        }
    }
}

package org.jtorch.ops;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DeterministicAlgorithms;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/** Factory ops: full/zeros/ones/empty, eye, arange, linspace, logspace, and tensors from Java data. */
public final class Creation {
    private Creation() {}

    /** A 0-d tensor holding {@code s} converted to {@code dtype}. */
    public static Tensor scalarTensor(Scalar s, DType dtype) {
        Tensor t = Tensor.of(TensorImpl.empty(Shapes.SCALAR, dtype));
        write(t, 0, s);
        return t;
    }

    static void write(Tensor t, long storageIndex, Scalar s) {
        ElementIO io = ElementIO.of(t.dtype());
        MemorySegment seg = t.impl().storage().segment();
        switch (s.kind()) {
            case BOOL, INT, UINT -> {
                if (t.dtype().isFloatingPoint() || t.dtype().isComplex())
                    io.setDouble(seg, storageIndex, s.doubleValue());
                else io.setLong(seg, storageIndex, s.longValue());
            }
            case FLOAT -> io.setDouble(seg, storageIndex, s.doubleValue());
            case COMPLEX -> io.setComplex(seg, storageIndex, s.doubleValue(), s.imag());
        }
    }

    // ---- full -----------------------------------------------------------------------------------

    /** {@code full(shape, fill, dtype, device)}; a null dtype is inferred from the fill value. */
    public static final OpDef FULL = OpDef.structured(
            "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
            args -> {
                long[] shape = Shapes.checkSizes("full", (long[]) args[0]);
                Scalar fill = Scalar.of(args[1]);
                DType dtype = args[2] != null ? (DType) args[2] : fill.defaultDType();
                return Spec.of(shape, dtype, args[3] != null ? (Device) args[3] : Device.CPU, fill);
            },
            (args, outs, spec) -> fillAll(outs[0], (Scalar) spec.plan()),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** Copies one element's bits between storages of the same dtype. */
    static void copyElement(DType dtype, MemorySegment src, long si, MemorySegment dst, long di) {
        long bytes = dtype.itemSize();
        MemorySegment.copy(src, si * bytes, dst, di * bytes, bytes);
    }

    /** {@code self.fill_(value)}: every element of {@code self} becomes {@code value} (in place, any layout). */
    public static final OpDef FILL = OpDef.structured(
                    "fill.Scalar(Tensor self, Scalar value) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        Scalar value = Scalar.of(args[1]);
                        ScalarConversion.check(value, self.dtype()); // 1000 into uint8 is an error, not 232
                        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), value);
                    },
                    (args, outs, spec) -> fillAll(outs[0], (Scalar) spec.plan()))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {null})
            .deriveJvp(Jvps::zero);

    /** Writes {@code value} into every element, whatever the layout. */
    static void fillAll(Tensor out, Scalar value) {
        long n = out.numel();
        if (n == 0) return;
        Tensor one = scalarTensor(value, out.dtype());
        if (out.isContiguous()
                && !out.dtype().isComplex()
                && fillArray(out, one.impl().storage().array())) return;
        if (out.impl().storage().array() instanceof float[] f && out.isContiguous()) { // complex64
            int off = (int) out.storageOffset();
            float re = one.impl().storage().floats()[0],
                    im = one.impl().storage().floats()[1];
            for (int i = 0; i < n; i++) {
                f[off + 2 * i] = re;
                f[off + 2 * i + 1] = im;
            }
            return;
        }
        MemorySegment dst = out.impl().storage().segment(),
                src = one.impl().storage().segment();
        for (long i = 0; i < n; i++)
            copyElement(out.dtype(), src, 0, dst, out.impl().elementIndex(i));
    }

    /**
     * Fills contiguous heap {@code out} (one slot per element) with the one element of {@code value}, an array of the
     * same kind; false when {@code out} has no heap array.
     */
    private static boolean fillArray(Tensor out, Object value) {
        int from = (int) out.storageOffset(), to = from + (int) out.numel();
        switch (out.impl().storage().array()) {
            case float[] a -> java.util.Arrays.fill(a, from, to, ((float[]) value)[0]);
            case double[] a -> java.util.Arrays.fill(a, from, to, ((double[]) value)[0]);
            case long[] a -> java.util.Arrays.fill(a, from, to, ((long[]) value)[0]);
            case int[] a -> java.util.Arrays.fill(a, from, to, ((int[]) value)[0]);
            case short[] a -> java.util.Arrays.fill(a, from, to, ((short[]) value)[0]);
            case byte[] a -> java.util.Arrays.fill(a, from, to, ((byte[]) value)[0]);
            case null, default -> {
                return false;
            }
        }
        return true;
    }

    public static Tensor fill_(Tensor self, double value) {
        Dispatcher.callOut(FILL, new Tensor[] {self}, self, value);
        return self;
    }

    public static Tensor fill_(Tensor self, long value) {
        Dispatcher.callOut(FILL, new Tensor[] {self}, self, value);
        return self;
    }

    public static Tensor zero_(Tensor self) {
        return fill_(self, 0L);
    }

    /** {@code torch.zeros_like(t)}. */
    public static Tensor zerosLike(Tensor t) {
        return full(t.impl().shapeRef(), 0L, t.dtype(), t.device());
    }

    /** {@code torch.ones_like(t)}. */
    public static Tensor onesLike(Tensor t) {
        return full(t.impl().shapeRef(), 1L, t.dtype(), t.device());
    }

    /**
     * {@code torch.empty}: a new tensor whose contents are unspecified. JTorch's fresh storage is zeroed; under
     * {@code torch.use_deterministic_algorithms(True)} with {@code torch.utils.deterministic.fill_uninitialized_memory}
     * (the default) it is filled as ATen's {@code fill_empty_deterministic_} does, so that reading it is noticed.
     */
    public static Tensor empty(long[] shape, DType dtype, Device device) {
        boolean fill = DeterministicAlgorithms.fillsUninitializedMemory() && device != Device.META;
        return full(shape, fill ? uninitializedFill(dtype) : 0L, dtype, device);
    }

    /** {@code torch.empty_like(t)}: {@link #empty} of t's shape, dtype and device. */
    public static Tensor emptyLike(Tensor t) {
        return empty(t.impl().shapeRef(), t.dtype(), t.device());
    }

    /**
     * ATen's deterministic fill of uninitialized memory: NaN for floating and complex dtypes (a complex NaN has a zero
     * imaginary part), the largest value for integer dtypes, true for bool.
     */
    static Object uninitializedFill(DType dtype) {
        if (dtype.isFloatingPoint() || dtype.isComplex()) return Double.NaN;
        if (dtype == DType.BOOL) return 1L;
        int bits = dtype.bits();
        if (dtype.isSigned()) return (1L << (bits - 1)) - 1;
        return bits == Long.SIZE ? -1L : (1L << bits) - 1; // uint64's largest value has all 64 bits set
    }

    public static Tensor full(long[] shape, Object fill, DType dtype, Device device) {
        return FULL.call1(shape, fill, dtype, device);
    }

    // ---- eye ------------------------------------------------------------------------------------

    public static final OpDef EYE = OpDef.structured(
            "eye.m(SymInt n, SymInt m, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
            args -> {
                long n = (Long) args[0], m = (Long) args[1];
                if (n < 0) throw new TorchException("eye: n must be greater or equal to 0, got " + n);
                if (m < 0) throw new TorchException("eye: m must be greater or equal to 0, got " + m);
                DType dtype = args[2] != null ? (DType) args[2] : DefaultDtype.get();
                return Spec.of(
                        Shapes.checkSizes("eye", new long[] {n, m}),
                        dtype,
                        args[3] != null ? (Device) args[3] : Device.CPU,
                        null);
            },
            OpDef.Kernel.intoZeros((args, outs, spec) -> {
                Tensor out = outs[0];
                long n = out.size(0), m = out.size(1);
                ElementIO io = ElementIO.of(out.dtype());
                for (long i = 0; i < Math.min(n, m); i++)
                    io.setLong(out.impl().storage().segment(), i * m + i, 1);
            }),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- arange / linspace / logspace ------------------------------------------------------------

    record Range(double start, double step, boolean integral, long istart, long istep) {}

    /**
     * {@code arange(start, end, step, dtype)}. Integral Java arguments ({@link Long}/{@link Integer}) keep the exact
     * int64 length rule; fractional ones use the double rule (the 2.14 fix: fractional arguments with an int64 dtype no
     * longer truncate before sizing).
     */
    public static final OpDef ARANGE = OpDef.structured(
            "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                Scalar start = Scalar.of(args[0]), end = Scalar.of(args[1]), step = Scalar.of(args[2]);
                boolean allIntegral = start.isIntegral() && end.isIntegral() && step.isIntegral();
                DType dtype = args[3] != null ? (DType) args[3] : allIntegral ? DType.INT64 : DefaultDtype.get();
                double s = start.doubleValue(), e = end.doubleValue(), st = step.doubleValue();
                if (st == 0) throw new TorchException("arange: step must be nonzero");
                if (!Double.isFinite(s) || !Double.isFinite(e)) {
                    throw new TorchException("arange: unsupported range: " + start + " -> " + end);
                }
                if ((st > 0 && e < s) || (st < 0 && e > s)) {
                    throw new TorchException("arange: upper bound and lower bound inconsistent with step sign");
                }
                long size;
                if (dtype == DType.INT64 && allIntegral) {
                    long sgn = Long.signum(step.longValue());
                    size = (end.longValue() - start.longValue() + step.longValue() - sgn) / step.longValue();
                } else {
                    double d = Math.ceil((e - s) / st);
                    if (!(d >= 0 && d <= 0x1p63)) throw new TorchException("arange: invalid size, possible overflow?");
                    size = (long) d;
                }
                if (size < 0) throw new TorchException("arange: invalid size, possible overflow?");
                Range plan = new Range(s, st, !dtype.isFloatingPoint() && !dtype.isComplex(), (long) s, (long)
                        st); // integer dtypes use the truncated start/step
                return Spec.of(new long[] {size}, dtype, args[4] != null ? (Device) args[4] : Device.CPU, plan);
            },
            (args, outs, spec) -> {
                Range r = (Range) spec.plan();
                Tensor out = outs[0];
                ElementIO io = ElementIO.of(out.dtype());
                MemorySegment seg = out.impl().storage().segment();
                long n = out.numel();
                if (r.integral()) {
                    for (long i = 0; i < n; i++) io.setLong(seg, i, r.istart() + r.istep() * i);
                } else if (out.dtype() == DType.FLOAT16 || out.dtype() == DType.BFLOAT16) {
                    // accumulate type of half/bfloat16 is float
                    float fs = (float) r.start(), fst = (float) r.step();
                    for (long i = 0; i < n; i++) io.setDouble(seg, i, fs + fst * (float) i);
                } else {
                    for (long i = 0; i < n; i++) io.setDouble(seg, i, r.start() + r.step() * i);
                }
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    record Lin(double start, double end, long steps, double base) {}

    /**
     * Shared meta rule; args in schema order: linspace (start, end, steps, dtype, device), logspace (start, end, steps,
     * base, dtype, device).
     */
    private static Spec linMeta(String op, Object[] args, boolean log) {
        double start = ((Number) args[0]).doubleValue(), end = ((Number) args[1]).doubleValue();
        long steps = (Long) args[2];
        if (steps < 0) throw new TorchException(op + ": number of steps must be non-negative");
        int k = log ? 4 : 3;
        double base = log ? ((Number) args[3]).doubleValue() : Double.NaN;
        DType dtype = args[k] != null ? (DType) args[k] : DefaultDtype.get();
        Device device = args[k + 1] != null ? (Device) args[k + 1] : Device.CPU;
        return Spec.of(new long[] {steps}, dtype, device, new Lin(start, end, steps, base));
    }

    /**
     * Two-ended linspace: the first half counts up from start, the second down from end, so both ends are exact. Each
     * element is one fused multiply-add ({@code fma(step, i, start)}, {@code fma(-step, steps-1-i, end)}), as ATen's
     * compiled CPU kernel evaluates it — bit for bit PyTorch's values. Integer dtypes step in double and truncate;
     * float32/float64 in their own precision; float16 and bfloat16 in float (the 2.15 fix), rounded once at the store;
     * logspace raises the base to each two-ended value.
     */
    static void linspaceKernel(Tensor out, Lin l, boolean log) {
        DType dt = out.dtype();
        ElementIO io = ElementIO.of(dt);
        MemorySegment seg = out.impl().storage().segment();
        long steps = l.steps();
        if (steps == 0) return;
        long halfway = steps / 2;
        boolean single = dt == DType.FLOAT32 || dt.isReducedPrecision();
        for (long i = 0; i < steps; i++) {
            double v;
            if (steps == 1) v = single ? (float) l.start() : l.start();
            else if (single) {
                float s = (float) castTo(dt, l.start()), e = (float) castTo(dt, l.end());
                float step = (e - s) / (float) (steps - 1);
                v = i < halfway ? Math.fma(step, (float) i, s) : Math.fma(-step, (float) (steps - 1 - i), e);
            } else {
                double s = dt.isFloatingPoint() ? l.start() : castTo(dt, l.start());
                double e = dt.isFloatingPoint() ? l.end() : castTo(dt, l.end());
                double step = (e - s) / (steps - 1);
                v = i < halfway ? Math.fma(step, (double) i, s) : Math.fma(-step, (double) (steps - 1 - i), e);
            }
            if (log) v = single ? (float) Math.pow(l.base(), v) : Math.pow(l.base(), v);
            if (dt.isFloatingPoint() || dt.isComplex()) io.setDouble(seg, i, v);
            else io.setLong(seg, i, (long) v);
        }
    }

    /**
     * The value {@code v} takes when converted to {@code dt} ("start and end are first converted to the output dtype").
     */
    private static double castTo(DType dt, double v) {
        Tensor t = scalarTensor(Scalar.of(v), dt);
        return dt.isFloatingPoint() ? t.item() : t.longItem();
    }

    public static final OpDef LINSPACE = OpDef.structured(
            "linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Device? device=None) -> Tensor",
            args -> linMeta("linspace", args, false),
            (args, outs, spec) -> linspaceKernel(outs[0], (Lin) spec.plan(), false),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    public static final OpDef LOGSPACE = OpDef.structured(
            "logspace(Scalar start, Scalar end, int steps, float base=10.0, *, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> linMeta("logspace", args, true),
            (args, outs, spec) -> linspaceKernel(outs[0], (Lin) spec.plan(), true),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- from Java data ---------------------------------------------------------------------------

    /** A 1-D or N-D tensor over a copy of {@code data} reshaped to {@code shape}. */
    public static Tensor fromStorage(Storage s, long[] shape, DType dtype) {
        return Tensor.of(TensorImpl.of(s, 0, shape, Shapes.contiguousStrides(shape), dtype));
    }

    /**
     * {@code torch.asarray} for NIO buffers: the dtype follows the buffer type (the 2.15 fix): ByteBuffer → int8,
     * ShortBuffer → int16, CharBuffer → uint16, IntBuffer → int32, LongBuffer → int64, FloatBuffer → float32,
     * DoubleBuffer → float64. Elements from position to limit are copied.
     */
    public static Tensor asarray(Buffer buffer) {
        int n = buffer.remaining();
        return switch (buffer) {
            case ByteBuffer b -> {
                byte[] a = new byte[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.INT8);
            }
            case ShortBuffer b -> {
                short[] a = new short[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.INT16);
            }
            case CharBuffer b -> {
                short[] a = new short[n];
                CharBuffer d = b.duplicate();
                for (int i = 0; i < n; i++) a[i] = (short) d.get();
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.UINT16);
            }
            case IntBuffer b -> {
                int[] a = new int[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.INT32);
            }
            case LongBuffer b -> {
                long[] a = new long[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.INT64);
            }
            case FloatBuffer b -> {
                float[] a = new float[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.FLOAT32);
            }
            case DoubleBuffer b -> {
                double[] a = new double[n];
                b.duplicate().get(a);
                yield fromStorage(Storage.wrap(a), new long[] {n}, DType.FLOAT64);
            }
            default ->
                throw new org.jtorch.TorchTypeException(
                        "asarray: unsupported buffer type " + buffer.getClass().getName());
        };
    }

    /**
     * {@code torch.asarray(buffer, dtype=...)}: reinterprets the bytes from position to limit as {@code dtype} (like
     * {@code torch.frombuffer}); the buffer must be in native (little-endian) order.
     */
    public static Tensor asarray(ByteBuffer buffer, DType dtype) {
        if (buffer.order() != ByteOrder.LITTLE_ENDIAN) {
            throw new IllegalArgumentException(
                    "asarray: buffer is big-endian; convert to native byte order (little-endian) first");
        }
        int n = buffer.remaining();
        if (n % dtype.itemSize() != 0) {
            throw new IllegalArgumentException("asarray: buffer length (" + n
                    + " bytes) after offset must be a multiple of element size (" + dtype.itemSize() + ")");
        }
        long count = n / dtype.itemSize();
        Tensor out = Tensor.of(TensorImpl.empty(new long[] {count}, dtype));
        MemorySegment.copy(
                MemorySegment.ofBuffer(buffer), 0, out.impl().storage().segment(), 0, n);
        return out;
    }
}

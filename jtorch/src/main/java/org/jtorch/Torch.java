package org.jtorch;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.List;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.JvmRequirements;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.EinsumOps;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.SortOps;
import org.jtorch.ops.TernaryOps;
import org.jtorch.ops.TypePromotion;
import org.jtorch.storage.Storage;

/**
 * The {@code torch} namespace: {@code import static org.jtorch.Torch.*} reads like PyTorch.
 *
 * <p>Every function is a one-line entry into an op definition ({@code org.jtorch.ops}); the op's semantics, checks and
 * kernels live there. Java {@code long} arguments are integer scalars and {@code double} arguments float scalars, with
 * PyTorch's "weak scalar" promotion.
 */
public final class Torch {
    private Torch() {}

    private static volatile boolean deterministic;
    private static volatile boolean deterministicWarnOnly;

    // ---- start-up check and PyTorch-shaped conveniences -------------------------------------------------------------

    // Fails fast, in one line naming both JVM flags, on a JVM started without the Vector API module or native access.
    static {
        JvmRequirements.check();
    }

    /** {@code torch.arange(end, dtype=dtype)}: {@code 0, 1, ..., end - 1} in {@code dtype}. */
    public static Tensor arange(long end, DType dtype) {
        return arange(0L, end, 1L, dtype);
    }

    // ---- global settings ------------------------------------------------------------------------

    public static DType getDefaultDtype() {
        return DefaultDtype.get();
    }

    /** {@code torch.set_default_dtype}: only floating dtypes are allowed. */
    public static void setDefaultDtype(DType d) {
        DefaultDtype.set(d);
    }

    /** {@code torch.use_deterministic_algorithms(mode)}. */
    public static void useDeterministicAlgorithms(boolean mode) {
        useDeterministicAlgorithms(mode, false);
    }

    public static void useDeterministicAlgorithms(boolean mode, boolean warnOnly) {
        deterministic = mode;
        deterministicWarnOnly = warnOnly;
    }

    public static boolean areDeterministicAlgorithmsEnabled() {
        return deterministic;
    }

    public static boolean isDeterministicAlgorithmsWarnOnlyEnabled() {
        return deterministicWarnOnly;
    }

    /** {@code torch.set_num_threads}: intra-op threads for JTorch's loops and OpenBLAS alike. */
    public static void setNumThreads(int n) {
        Parallel.setNumThreads(n);
        if (org.jtorch.kernels.blas.OpenBlas.isAvailable()) org.jtorch.kernels.blas.OpenBlas.setNumThreads(n);
    }

    public static int getNumThreads() {
        return Parallel.numThreads();
    }

    /** {@code torch.result_type(a, b)} over tensors and Java numbers. */
    public static DType resultType(Object a, Object b) {
        return TypePromotion.resultType(a, b);
    }

    public static DType promoteTypes(DType a, DType b) {
        return TypePromotion.promoteTypes(a, b);
    }

    public static boolean canCast(DType from, DType to) {
        return TypePromotion.canCast(from, to);
    }

    // ---- grad mode (try-with-resources scopes, thread-local) -------------------------------------

    /** {@code torch.no_grad()}: ops in the scope record no history. */
    public static org.jtorch.autograd.GradMode.Scope noGrad() {
        return org.jtorch.autograd.GradMode.set(false);
    }

    /** {@code torch.enable_grad()}. */
    public static org.jtorch.autograd.GradMode.Scope enableGrad() {
        return org.jtorch.autograd.GradMode.set(true);
    }

    /** {@code torch.set_grad_enabled(mode)} as a scope. */
    public static org.jtorch.autograd.GradMode.Scope setGradEnabled(boolean enabled) {
        return org.jtorch.autograd.GradMode.set(enabled);
    }

    /** {@code torch.inference_mode()}. */
    public static org.jtorch.autograd.GradMode.Scope inferenceMode() {
        return org.jtorch.autograd.GradMode.inference(true);
    }

    public static boolean isGradEnabled() {
        return org.jtorch.autograd.GradMode.isEnabled();
    }

    public static boolean isInferenceModeEnabled() {
        return org.jtorch.autograd.GradMode.isInference();
    }

    // ---- creation -------------------------------------------------------------------------------

    public static Tensor tensor(float[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.FLOAT32);
    }

    public static Tensor tensor(double[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.FLOAT64);
    }

    public static Tensor tensor(long[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT64);
    }

    /** Java {@code int[]} becomes int64, as Python ints do in {@code torch.tensor}. */
    public static Tensor tensor(int[] data) {
        long[] l = new long[data.length];
        for (int i = 0; i < l.length; i++) l[i] = data[i];
        return Creation.fromStorage(Storage.wrap(l), new long[] {l.length}, DType.INT64);
    }

    public static Tensor tensor(boolean[] data) {
        byte[] b = new byte[data.length];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (data[i] ? 1 : 0);
        return Creation.fromStorage(Storage.wrap(b), new long[] {b.length}, DType.BOOL);
    }

    public static Tensor tensor(float[][] data) {
        return Creation.fromStorage(
                Storage.wrap(flatten(data, new float[rows(data) * cols(data)])), shape(data), DType.FLOAT32);
    }

    public static Tensor tensor(double[][] data) {
        return Creation.fromStorage(
                Storage.wrap(flatten(data, new double[rows(data) * cols(data)])), shape(data), DType.FLOAT64);
    }

    public static Tensor tensor(long[][] data) {
        return Creation.fromStorage(
                Storage.wrap(flatten(data, new long[rows(data) * cols(data)])), shape(data), DType.INT64);
    }

    private static int rows(Object[] data) {
        return data.length;
    }

    /** Row length of a rectangular 2-D Java array (PyTorch's "expected sequence of length" check). */
    private static int cols(Object[] data) {
        int cols = data.length == 0 ? 0 : java.lang.reflect.Array.getLength(data[0]);
        for (Object row : data) {
            int len = java.lang.reflect.Array.getLength(row);
            if (len != cols) {
                throw new IllegalArgumentException(
                        "tensor: expected sequence of length " + cols + " at dim 1 (got " + len + ")");
            }
        }
        return cols;
    }

    private static long[] shape(Object[] data) {
        return new long[] {rows(data), cols(data)};
    }

    /** Copies the rows of a rectangular primitive 2-D array into {@code flat}, row-major. */
    private static <A> A flatten(Object[] data, A flat) {
        int cols = cols(data);
        for (int i = 0; i < data.length; i++) System.arraycopy(data[i], 0, flat, i * cols, cols);
        return flat;
    }

    /** A 0-d tensor ({@code torch.tensor(3.5)}). */
    public static Tensor scalarTensor(double v) {
        return Creation.scalarTensor(Scalar.of(v), DefaultDtype.get());
    }

    public static Tensor scalarTensor(Object v, DType dtype) {
        return Creation.scalarTensor(Scalar.of(v), dtype);
    }

    /** Data from a Java array converted to {@code dtype} and shaped as {@code shape}. */
    public static Tensor tensor(double[] data, DType dtype, long... shape) {
        long[] s = shape.length == 0 ? new long[] {data.length} : shape;
        if (Shapes.numel(s) != data.length) {
            throw new TorchException("tensor: shape " + Shapes.str(s) + " is invalid for input of size " + data.length);
        }
        return Creation.fromStorage(Storage.wrap(data.clone()), s, DType.FLOAT64)
                .to(dtype);
    }

    /** {@code torch.asarray(buffer)}: the dtype follows the buffer type (ShortBuffer → int16, ...). */
    public static Tensor asarray(Buffer buffer) {
        return Creation.asarray(buffer);
    }

    /** {@code torch.asarray(buffer, dtype=...)}: the buffer's bytes reinterpreted as {@code dtype}. */
    public static Tensor asarray(ByteBuffer buffer, DType dtype) {
        return Creation.asarray(buffer, dtype);
    }

    public static Tensor asarray(float[] data) {
        return tensor(data);
    }

    public static Tensor asarray(double[] data) {
        return tensor(data);
    }

    public static Tensor asarray(long[] data) {
        return tensor(data);
    }

    public static Tensor asarray(boolean[] data) {
        return tensor(data);
    }

    public static Tensor asarray(int[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT32);
    }

    public static Tensor asarray(short[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT16);
    }

    public static Tensor asarray(byte[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT8);
    }

    public static Tensor empty(long... shape) {
        return Creation.full(shape, 0.0, DefaultDtype.get(), Device.CPU);
    }

    public static Tensor empty(long[] shape, DType dtype, Device device) {
        return Creation.full(shape, 0L, dtype, device);
    }

    public static Tensor zeros(long... shape) {
        return Creation.full(shape, 0.0, DefaultDtype.get(), Device.CPU);
    }

    public static Tensor zeros(long[] shape, DType dtype) {
        return Creation.full(shape, 0L, dtype, Device.CPU);
    }

    public static Tensor zeros(long[] shape, DType dtype, Device device) {
        return Creation.full(shape, 0L, dtype, device);
    }

    public static Tensor ones(long... shape) {
        return Creation.full(shape, 1.0, DefaultDtype.get(), Device.CPU);
    }

    public static Tensor ones(long[] shape, DType dtype) {
        return Creation.full(shape, 1L, dtype, Device.CPU);
    }

    public static Tensor ones(long[] shape, DType dtype, Device device) {
        return Creation.full(shape, 1L, dtype, device);
    }

    /** {@code torch.full(shape, fill)}: dtype from the fill (double → default float, long → int64, boolean → bool). */
    public static Tensor full(long[] shape, double fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    public static Tensor full(long[] shape, long fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    public static Tensor full(long[] shape, boolean fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    public static Tensor full(long[] shape, Object fill, DType dtype, Device device) {
        return Creation.full(shape, fill, dtype, device);
    }

    public static Tensor zerosLike(Tensor t) {
        return Creation.zerosLike(t);
    }

    public static Tensor onesLike(Tensor t) {
        return Creation.onesLike(t);
    }

    public static Tensor emptyLike(Tensor t) {
        return zerosLike(t);
    }

    public static Tensor fullLike(Tensor t, Object fill) {
        return Creation.full(t.impl().shapeRef(), fill, t.dtype(), t.device());
    }

    public static Tensor eye(long n) {
        return eye(n, n, DefaultDtype.get(), Device.CPU);
    }

    public static Tensor eye(long n, long m) {
        return eye(n, m, DefaultDtype.get(), Device.CPU);
    }

    public static Tensor eye(long n, long m, DType dtype, Device device) {
        return Creation.EYE.call1(n, m, dtype, device);
    }

    /** {@code torch.arange(end)}: int64. */
    public static Tensor arange(long end) {
        return arange(0L, end, 1L, null);
    }

    public static Tensor arange(long start, long end) {
        return arange(start, end, 1L, null);
    }

    public static Tensor arange(long start, long end, long step) {
        return arange(start, end, step, null);
    }

    /** {@code torch.arange(end)} with a float end: default float dtype. */
    public static Tensor arange(double end) {
        return arange(0.0, end, 1.0, null);
    }

    public static Tensor arange(double start, double end, double step) {
        return arange(start, end, step, null);
    }

    public static Tensor arange(double start, double end, double step, DType dtype) {
        return Creation.ARANGE.call1(start, end, step, dtype, null);
    }

    /** Integral arguments: with {@code dtype == null} the result is int64. */
    public static Tensor arange(long start, long end, long step, DType dtype) {
        return Creation.ARANGE.call1(start, end, step, dtype, null);
    }

    /** The general form: numbers keep their kind ({@link Long} integral, {@link Double} fractional). */
    public static Tensor arange(Number start, Number end, Number step, DType dtype, Device device) {
        return Creation.ARANGE.call1(start, end, step, dtype, device);
    }

    public static Tensor linspace(double start, double end, long steps) {
        return linspace(start, end, steps, null);
    }

    public static Tensor linspace(double start, double end, long steps, DType dtype) {
        return Creation.LINSPACE.call1(start, end, steps, dtype, null);
    }

    public static Tensor logspace(double start, double end, long steps) {
        return logspace(start, end, steps, 10.0, null);
    }

    public static Tensor logspace(double start, double end, long steps, double base, DType dtype) {
        return Creation.LOGSPACE.call1(start, end, steps, base, dtype, null);
    }

    // ---- conversion -----------------------------------------------------------------------------

    public static Tensor clone(Tensor t) {
        return CopyOps.clone(t);
    }

    // ---- pointwise ------------------------------------------------------------------------------

    private static Tensor call(OpDef op, Object... args) {
        return op.call1(args);
    }

    public static Tensor add(Tensor a, Tensor b) {
        return call(PointwiseOps.ADD, a, b);
    }

    public static Tensor add(Tensor a, Tensor b, double alpha) {
        return call(PointwiseOps.ADD, a, b, Tensor.alphaOf(a, b, alpha));
    }

    public static Tensor add(Tensor a, double b) {
        return call(PointwiseOps.ADD, a, b);
    }

    public static Tensor add(Tensor a, long b) {
        return call(PointwiseOps.ADD, a, b);
    }

    public static Tensor sub(Tensor a, Tensor b) {
        return call(PointwiseOps.SUB, a, b);
    }

    public static Tensor sub(Tensor a, Tensor b, double alpha) {
        return call(PointwiseOps.SUB, a, b, Tensor.alphaOf(a, b, alpha));
    }

    public static Tensor sub(Tensor a, double b) {
        return call(PointwiseOps.SUB, a, b);
    }

    public static Tensor sub(Tensor a, long b) {
        return call(PointwiseOps.SUB, a, b);
    }

    /** {@code torch.rsub(a, b)} = {@code b - a}. */
    public static Tensor rsub(Tensor a, double b) {
        return call(PointwiseOps.ADD, call(PointwiseOps.NEG, a), b);
    }

    public static Tensor mul(Tensor a, Tensor b) {
        return call(PointwiseOps.MUL, a, b);
    }

    public static Tensor mul(Tensor a, double b) {
        return call(PointwiseOps.MUL, a, b);
    }

    public static Tensor mul(Tensor a, long b) {
        return call(PointwiseOps.MUL, a, b);
    }

    public static Tensor div(Tensor a, Tensor b) {
        return call(PointwiseOps.DIV, a, b);
    }

    public static Tensor div(Tensor a, double b) {
        return call(PointwiseOps.DIV, a, b);
    }

    public static Tensor div(Tensor a, long b) {
        return call(PointwiseOps.DIV, a, b);
    }

    /** {@code torch.div(a, b, rounding_mode=...)}. */
    public static Tensor div(Tensor a, Object b, RoundingMode mode) {
        return switch (mode) {
            case NONE -> call(PointwiseOps.DIV, a, b);
            case TRUNC -> call(PointwiseOps.DIV_TRUNC, a, b, "trunc");
            case FLOOR -> call(PointwiseOps.DIV_FLOOR, a, b);
        };
    }

    public static Tensor floorDivide(Tensor a, Object b) {
        return call(PointwiseOps.DIV_FLOOR, a, b);
    }

    public static Tensor remainder(Tensor a, Object b) {
        return call(PointwiseOps.REMAINDER, a, b);
    }

    public static Tensor fmod(Tensor a, Object b) {
        return call(PointwiseOps.FMOD, a, b);
    }

    public static Tensor pow(Tensor a, Tensor b) {
        return call(PointwiseOps.POW, a, b);
    }

    public static Tensor pow(Tensor a, double b) {
        return call(PointwiseOps.POW, a, b);
    }

    public static Tensor pow(Tensor a, long b) {
        return call(PointwiseOps.POW, a, b);
    }

    /** {@code torch.pow(scalar, tensor)}. */
    public static Tensor pow(double a, Tensor b) {
        return call(PointwiseOps.POW, Creation.scalarTensor(Scalar.of(a), resultType(b, a)), b);
    }

    public static Tensor atan2(Tensor a, Tensor b) {
        return call(PointwiseOps.ATAN2, a, b);
    }

    public static Tensor hypot(Tensor a, Tensor b) {
        return call(PointwiseOps.HYPOT, a, b);
    }

    /** {@code torch.logaddexp}: log(e^a + e^b), without overflow for large arguments. */
    public static Tensor logaddexp(Tensor a, Tensor b) {
        return call(PointwiseOps.LOGADDEXP, a, b);
    }

    /** {@code torch.logaddexp2}: log2(2^a + 2^b). */
    public static Tensor logaddexp2(Tensor a, Tensor b) {
        return call(PointwiseOps.LOGADDEXP2, a, b);
    }

    public static Tensor copysign(Tensor a, Object b) {
        return call(PointwiseOps.COPYSIGN, a, b);
    }

    public static Tensor xlogy(Tensor a, Object b) {
        return call(PointwiseOps.XLOGY, a, b);
    }

    public static Tensor maximum(Tensor a, Tensor b) {
        return call(PointwiseOps.MAXIMUM, a, b);
    }

    public static Tensor minimum(Tensor a, Tensor b) {
        return call(PointwiseOps.MINIMUM, a, b);
    }

    public static Tensor fmax(Tensor a, Tensor b) {
        return call(PointwiseOps.FMAX, a, b);
    }

    public static Tensor fmin(Tensor a, Tensor b) {
        return call(PointwiseOps.FMIN, a, b);
    }

    public static Tensor eq(Tensor a, Object b) {
        return call(PointwiseOps.EQ, a, b);
    }

    public static Tensor ne(Tensor a, Object b) {
        return call(PointwiseOps.NE, a, b);
    }

    public static Tensor lt(Tensor a, Object b) {
        return call(PointwiseOps.LT, a, b);
    }

    public static Tensor le(Tensor a, Object b) {
        return call(PointwiseOps.LE, a, b);
    }

    public static Tensor gt(Tensor a, Object b) {
        return call(PointwiseOps.GT, a, b);
    }

    public static Tensor ge(Tensor a, Object b) {
        return call(PointwiseOps.GE, a, b);
    }

    public static Tensor logicalAnd(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_AND, a, b);
    }

    public static Tensor logicalOr(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_OR, a, b);
    }

    public static Tensor logicalXor(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_XOR, a, b);
    }

    public static Tensor logicalNot(Tensor a) {
        return call(PointwiseOps.LOGICAL_NOT, a);
    }

    public static Tensor bitwiseAnd(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_AND, a, b);
    }

    public static Tensor bitwiseOr(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_OR, a, b);
    }

    public static Tensor bitwiseXor(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_XOR, a, b);
    }

    public static Tensor bitwiseNot(Tensor a) {
        return call(PointwiseOps.BITWISE_NOT, a);
    }

    public static Tensor bitwiseLeftShift(Tensor a, Object b) {
        return call(PointwiseOps.SHIFT_LEFT, a, b);
    }

    public static Tensor bitwiseRightShift(Tensor a, Object b) {
        return call(PointwiseOps.SHIFT_RIGHT, a, b);
    }

    public static Tensor neg(Tensor x) {
        return call(PointwiseOps.NEG, x);
    }

    public static Tensor abs(Tensor x) {
        return call(PointwiseOps.ABS, x);
    }

    public static Tensor sign(Tensor x) {
        return call(PointwiseOps.SIGN, x);
    }

    public static Tensor sgn(Tensor x) {
        return call(PointwiseOps.SGN, x);
    }

    public static Tensor reciprocal(Tensor x) {
        return call(PointwiseOps.RECIPROCAL, x);
    }

    public static Tensor square(Tensor x) {
        return call(PointwiseOps.SQUARE, x);
    }

    public static Tensor exp(Tensor x) {
        return call(PointwiseOps.EXP, x);
    }

    public static Tensor exp2(Tensor x) {
        return call(PointwiseOps.EXP2, x);
    }

    public static Tensor expm1(Tensor x) {
        return call(PointwiseOps.EXPM1, x);
    }

    public static Tensor log(Tensor x) {
        return call(PointwiseOps.LOG, x);
    }

    public static Tensor log2(Tensor x) {
        return call(PointwiseOps.LOG2, x);
    }

    public static Tensor log10(Tensor x) {
        return call(PointwiseOps.LOG10, x);
    }

    public static Tensor log1p(Tensor x) {
        return call(PointwiseOps.LOG1P, x);
    }

    public static Tensor sqrt(Tensor x) {
        return call(PointwiseOps.SQRT, x);
    }

    public static Tensor rsqrt(Tensor x) {
        return call(PointwiseOps.RSQRT, x);
    }

    public static Tensor sin(Tensor x) {
        return call(PointwiseOps.SIN, x);
    }

    public static Tensor cos(Tensor x) {
        return call(PointwiseOps.COS, x);
    }

    public static Tensor tan(Tensor x) {
        return call(PointwiseOps.TAN, x);
    }

    public static Tensor asin(Tensor x) {
        return call(PointwiseOps.ASIN, x);
    }

    public static Tensor acos(Tensor x) {
        return call(PointwiseOps.ACOS, x);
    }

    public static Tensor atan(Tensor x) {
        return call(PointwiseOps.ATAN, x);
    }

    public static Tensor sinh(Tensor x) {
        return call(PointwiseOps.SINH, x);
    }

    public static Tensor cosh(Tensor x) {
        return call(PointwiseOps.COSH, x);
    }

    public static Tensor tanh(Tensor x) {
        return call(PointwiseOps.TANH, x);
    }

    public static Tensor asinh(Tensor x) {
        return call(PointwiseOps.ASINH, x);
    }

    public static Tensor acosh(Tensor x) {
        return call(PointwiseOps.ACOSH, x);
    }

    public static Tensor atanh(Tensor x) {
        return call(PointwiseOps.ATANH, x);
    }

    public static Tensor sigmoid(Tensor x) {
        return call(PointwiseOps.SIGMOID, x);
    }

    public static Tensor logit(Tensor x) {
        return call(PointwiseOps.LOGIT, x, null);
    }

    public static Tensor logit(Tensor x, double eps) {
        return call(PointwiseOps.LOGIT, x, eps);
    }

    public static Tensor relu(Tensor x) {
        return call(PointwiseOps.RELU, x);
    }

    public static Tensor silu(Tensor x) {
        return call(PointwiseOps.SILU, x);
    }

    public static Tensor gelu(Tensor x) {
        return call(PointwiseOps.GELU, x, "none");
    }

    /** {@code gelu(x, approximate)} with {@code "none"} or {@code "tanh"}. */
    public static Tensor gelu(Tensor x, String approximate) {
        if (!approximate.equals("none") && !approximate.equals("tanh")) {
            throw new IllegalArgumentException("gelu: approximate argument must be either none or tanh.");
        }
        return call(PointwiseOps.GELU, x, approximate);
    }

    public static Tensor softplus(Tensor x) {
        return call(PointwiseOps.SOFTPLUS, x, 1.0, 20.0);
    }

    public static Tensor softplus(Tensor x, double beta, double threshold) {
        return call(PointwiseOps.SOFTPLUS, x, beta, threshold);
    }

    public static Tensor erf(Tensor x) {
        return call(PointwiseOps.ERF, x);
    }

    public static Tensor erfc(Tensor x) {
        return call(PointwiseOps.ERFC, x);
    }

    public static Tensor erfinv(Tensor x) {
        return call(PointwiseOps.ERFINV, x);
    }

    /**
     * {@code torch.convolution}: a 1-d or 2-d convolution of a batched input, or with {@code transposed} its transpose
     * (weight [C_in, C_out/groups, k...], {@code outputPadding} added to the output's size at the end).
     */
    public static Tensor convolution(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] dilation,
            boolean transposed,
            long[] outputPadding,
            long groups) {
        return ConvOps.convolution(input, weight, bias, stride, padding, dilation, transposed, outputPadding, groups);
    }

    /** {@code torch.lgamma}: log|Γ(x)|. */
    public static Tensor lgamma(Tensor x) {
        return call(PointwiseOps.LGAMMA, x);
    }

    /** {@code torch.digamma}: ψ(x), the derivative of lgamma. */
    public static Tensor digamma(Tensor x) {
        return call(PointwiseOps.DIGAMMA, x);
    }

    /** {@code torch.polygamma(n, x)}: ψ⁽ⁿ⁾(x), the n-th derivative of digamma (n >= 0). */
    public static Tensor polygamma(long n, Tensor x) {
        return call(PointwiseOps.POLYGAMMA, n, x);
    }

    public static Tensor deg2rad(Tensor x) {
        return call(PointwiseOps.DEG2RAD, x);
    }

    public static Tensor rad2deg(Tensor x) {
        return call(PointwiseOps.RAD2DEG, x);
    }

    public static Tensor floor(Tensor x) {
        return call(PointwiseOps.FLOOR, x);
    }

    public static Tensor ceil(Tensor x) {
        return call(PointwiseOps.CEIL, x);
    }

    public static Tensor trunc(Tensor x) {
        return call(PointwiseOps.TRUNC, x);
    }

    public static Tensor frac(Tensor x) {
        return call(PointwiseOps.FRAC, x);
    }

    public static Tensor round(Tensor x) {
        return call(PointwiseOps.ROUND, x, 0L);
    }

    public static Tensor round(Tensor x, long decimals) {
        return call(PointwiseOps.ROUND, x, decimals);
    }

    public static Tensor isnan(Tensor x) {
        return call(PointwiseOps.ISNAN, x);
    }

    public static Tensor isinf(Tensor x) {
        return call(PointwiseOps.ISINF, x);
    }

    public static Tensor isfinite(Tensor x) {
        return call(PointwiseOps.ISFINITE, x);
    }

    public static Tensor isposinf(Tensor x) {
        return call(PointwiseOps.ISPOSINF, x);
    }

    public static Tensor isneginf(Tensor x) {
        return call(PointwiseOps.ISNEGINF, x);
    }

    public static Tensor signbit(Tensor x) {
        return call(PointwiseOps.SIGNBIT, x);
    }

    public static Tensor nanToNum(Tensor x) {
        return call(PointwiseOps.NAN_TO_NUM, x, null, null, null);
    }

    /** {@code nan_to_num(x, nan, posinf, neginf)}; a null bound keeps the dtype's default (0, ±max finite). */
    public static Tensor nanToNum(Tensor x, Double nan, Double posinf, Double neginf) {
        return call(PointwiseOps.NAN_TO_NUM, x, nan, posinf, neginf);
    }

    public static Tensor angle(Tensor x) {
        return call(PointwiseOps.ANGLE, x);
    }

    // ---- out= forms (PyTorch's torch.add(a, b, out=c)) ----------------------------------------------

    public static Tensor addOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {out}, a, b);
        return out;
    }

    public static Tensor subOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.SUB, new Tensor[] {out}, a, b);
        return out;
    }

    public static Tensor mulOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.MUL, new Tensor[] {out}, a, b);
        return out;
    }

    public static Tensor divOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.DIV, new Tensor[] {out}, a, b);
        return out;
    }

    public static Tensor expOut(Tensor out, Tensor x) {
        Dispatcher.callOut(PointwiseOps.EXP, new Tensor[] {out}, x);
        return out;
    }

    /**
     * Runs any structured op into {@code out} (for {@link Tensor}'s in-place forms without a named {@code xxxOut}).
     * Package-private: its argument is an op definition, which is not part of the API.
     */
    static Tensor out(Tensor out, OpDef op, Object... args) {
        Dispatcher.callOut(op, new Tensor[] {out}, args);
        return out;
    }
    // ---- generated delegations: begin (one line per op entry point in org.jtorch.ops; logic lives there) ----

    public static Tensor view(Tensor self, long... size) {
        return ShapeOps.view(self, size);
    }

    public static Tensor reshape(Tensor self, long... shape) {
        return ShapeOps.reshape(self, shape);
    }

    public static Tensor permute(Tensor self, int... dims) {
        return ShapeOps.permute(self, dims);
    }

    public static Tensor transpose(Tensor self, int dim0, int dim1) {
        return ShapeOps.transpose(self, dim0, dim1);
    }

    public static Tensor swapaxes(Tensor self, int axis0, int axis1) {
        return ShapeOps.swapaxes(self, axis0, axis1);
    }

    public static Tensor t(Tensor self) {
        return ShapeOps.t(self);
    }

    public static Tensor mT(Tensor self) {
        return ShapeOps.mT(self);
    }

    public static Tensor expand(Tensor self, long... size) {
        return ShapeOps.expand(self, size);
    }

    public static Tensor broadcastTo(Tensor self, long... size) {
        return ShapeOps.broadcastTo(self, size);
    }

    public static Tensor squeeze(Tensor self) {
        return ShapeOps.squeeze(self);
    }

    public static Tensor squeeze(Tensor self, int dim) {
        return ShapeOps.squeeze(self, dim);
    }

    public static Tensor squeeze(Tensor self, int... dims) {
        return ShapeOps.squeeze(self, dims);
    }

    public static Tensor unsqueeze(Tensor self, int dim) {
        return ShapeOps.unsqueeze(self, dim);
    }

    public static Tensor flatten(Tensor self) {
        return ShapeOps.flatten(self);
    }

    public static Tensor flatten(Tensor self, int startDim) {
        return ShapeOps.flatten(self, startDim);
    }

    public static Tensor flatten(Tensor self, int startDim, int endDim) {
        return ShapeOps.flatten(self, startDim, endDim);
    }

    public static Tensor unflatten(Tensor self, int dim, long... sizes) {
        return ShapeOps.unflatten(self, dim, sizes);
    }

    public static Tensor narrow(Tensor self, int dim, long start, long length) {
        return ShapeOps.narrow(self, dim, start, length);
    }

    public static Tensor select(Tensor self, int dim, long index) {
        return ShapeOps.select(self, dim, index);
    }

    public static Tensor slice(Tensor self, int dim, Long start, Long end, long step) {
        return ShapeOps.slice(self, dim, start, end, step);
    }

    public static Tensor slice(Tensor self, int dim, long start, long end) {
        return ShapeOps.slice(self, dim, start, end);
    }

    public static List<Tensor> chunk(Tensor self, int chunks) {
        return ShapeOps.chunk(self, chunks);
    }

    public static List<Tensor> chunk(Tensor self, int chunks, int dim) {
        return ShapeOps.chunk(self, chunks, dim);
    }

    public static List<Tensor> split(Tensor self, long splitSize) {
        return ShapeOps.split(self, splitSize);
    }

    public static List<Tensor> split(Tensor self, long splitSize, int dim) {
        return ShapeOps.split(self, splitSize, dim);
    }

    public static List<Tensor> split(Tensor self, long[] splitSizes) {
        return ShapeOps.split(self, splitSizes);
    }

    public static List<Tensor> split(Tensor self, long[] splitSizes, int dim) {
        return ShapeOps.split(self, splitSizes, dim);
    }
    /** {@code torch.split_with_sizes}: what {@link #split(Tensor, long[])} runs. */
    public static List<Tensor> splitWithSizes(Tensor self, long[] splitSizes) {
        return ShapeOps.split(self, splitSizes);
    }

    public static List<Tensor> splitWithSizes(Tensor self, long[] splitSizes, int dim) {
        return ShapeOps.split(self, splitSizes, dim);
    }

    public static List<Tensor> unbind(Tensor self) {
        return ShapeOps.unbind(self);
    }

    public static List<Tensor> unbind(Tensor self, int dim) {
        return ShapeOps.unbind(self, dim);
    }

    public static Tensor diagonal(Tensor self) {
        return ShapeOps.diagonal(self);
    }

    public static Tensor diagonal(Tensor self, long offset) {
        return ShapeOps.diagonal(self, offset);
    }

    public static Tensor diagonal(Tensor self, long offset, int dim1, int dim2) {
        return ShapeOps.diagonal(self, offset, dim1, dim2);
    }

    public static Tensor movedim(Tensor self, int source, int destination) {
        return ShapeOps.movedim(self, source, destination);
    }

    public static Tensor movedim(Tensor self, int[] source, int[] destination) {
        return ShapeOps.movedim(self, source, destination);
    }

    public static Tensor asStrided(Tensor self, long[] size, long[] stride) {
        return ShapeOps.asStrided(self, size, stride);
    }

    public static Tensor asStrided(Tensor self, long[] size, long[] stride, long storageOffset) {
        return ShapeOps.asStrided(self, size, stride, storageOffset);
    }

    public static Tensor cat(List<Tensor> tensors) {
        return JoinOps.cat(tensors);
    }

    public static Tensor cat(List<Tensor> tensors, int dim) {
        return JoinOps.cat(tensors, dim);
    }

    public static Tensor stack(List<Tensor> tensors) {
        return JoinOps.stack(tensors);
    }

    public static Tensor stack(List<Tensor> tensors, int dim) {
        return JoinOps.stack(tensors, dim);
    }

    public static Tensor tril(Tensor self) {
        return JoinOps.tril(self);
    }

    public static Tensor tril(Tensor self, long diagonal) {
        return JoinOps.tril(self, diagonal);
    }

    public static Tensor triu(Tensor self) {
        return JoinOps.triu(self);
    }

    public static Tensor triu(Tensor self, long diagonal) {
        return JoinOps.triu(self, diagonal);
    }

    public static Tensor flip(Tensor self, int... dims) {
        return JoinOps.flip(self, dims);
    }

    public static Tensor roll(Tensor self, long shifts) {
        return JoinOps.roll(self, shifts);
    }

    public static Tensor roll(Tensor self, long shifts, int dim) {
        return JoinOps.roll(self, shifts, dim);
    }

    public static Tensor roll(Tensor self, long[] shifts, int[] dims) {
        return JoinOps.roll(self, shifts, dims);
    }

    public static Tensor repeat(Tensor self, long... repeats) {
        return JoinOps.repeat(self, repeats);
    }

    public static Tensor sum(Tensor x) {
        return ReductionOps.sum(x);
    }

    public static Tensor sum(Tensor x, DType dtype) {
        return ReductionOps.sum(x, dtype);
    }

    public static Tensor sum(Tensor x, long dim) {
        return ReductionOps.sum(x, dim);
    }

    public static Tensor sum(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.sum(x, dim, keepdim);
    }

    public static Tensor sum(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.sum(x, dims, keepdim);
    }

    public static Tensor sum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.sum(x, dims, keepdim, dtype);
    }

    public static Tensor nansum(Tensor x) {
        return ReductionOps.nansum(x);
    }

    public static Tensor nansum(Tensor x, long dim) {
        return ReductionOps.nansum(x, dim);
    }

    public static Tensor nansum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nansum(x, dims, keepdim, dtype);
    }

    public static Tensor mean(Tensor x) {
        return ReductionOps.mean(x);
    }

    public static Tensor mean(Tensor x, DType dtype) {
        return ReductionOps.mean(x, dtype);
    }

    public static Tensor mean(Tensor x, long dim) {
        return ReductionOps.mean(x, dim);
    }

    public static Tensor mean(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.mean(x, dim, keepdim);
    }

    public static Tensor mean(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.mean(x, dims, keepdim);
    }

    public static Tensor mean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.mean(x, dims, keepdim, dtype);
    }

    public static Tensor nanmean(Tensor x) {
        return ReductionOps.nanmean(x);
    }

    public static Tensor nanmean(Tensor x, long dim) {
        return ReductionOps.nanmean(x, dim);
    }

    public static Tensor nanmean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nanmean(x, dims, keepdim, dtype);
    }

    public static Tensor prod(Tensor x) {
        return ReductionOps.prod(x);
    }

    public static Tensor prod(Tensor x, DType dtype) {
        return ReductionOps.prod(x, dtype);
    }

    public static Tensor prod(Tensor x, long dim) {
        return ReductionOps.prod(x, dim);
    }

    public static Tensor prod(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.prod(x, dim, keepdim);
    }

    public static Tensor prod(Tensor x, long dim, boolean keepdim, DType dtype) {
        return ReductionOps.prod(x, dim, keepdim, dtype);
    }

    public static Tensor amax(Tensor x) {
        return ReductionOps.amax(x);
    }

    public static Tensor amax(Tensor x, long dim) {
        return ReductionOps.amax(x, dim);
    }

    public static Tensor amax(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.amax(x, dims, keepdim);
    }

    public static Tensor amin(Tensor x) {
        return ReductionOps.amin(x);
    }

    public static Tensor amin(Tensor x, long dim) {
        return ReductionOps.amin(x, dim);
    }

    public static Tensor amin(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.amin(x, dims, keepdim);
    }

    public static Tensor max(Tensor x) {
        return ReductionOps.max(x);
    }

    public static ValuesIndices max(Tensor x, long dim) {
        return ReductionOps.max(x, dim);
    }

    public static ValuesIndices max(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.max(x, dim, keepdim);
    }

    public static Tensor min(Tensor x) {
        return ReductionOps.min(x);
    }

    public static ValuesIndices min(Tensor x, long dim) {
        return ReductionOps.min(x, dim);
    }

    public static ValuesIndices min(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.min(x, dim, keepdim);
    }

    public static Tensor argmax(Tensor x) {
        return ReductionOps.argmax(x);
    }

    public static Tensor argmax(Tensor x, boolean keepdim) {
        return ReductionOps.argmax(x, keepdim);
    }

    public static Tensor argmax(Tensor x, long dim) {
        return ReductionOps.argmax(x, dim);
    }

    public static Tensor argmax(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.argmax(x, dim, keepdim);
    }

    public static Tensor argmin(Tensor x) {
        return ReductionOps.argmin(x);
    }

    public static Tensor argmin(Tensor x, boolean keepdim) {
        return ReductionOps.argmin(x, keepdim);
    }

    public static Tensor argmin(Tensor x, long dim) {
        return ReductionOps.argmin(x, dim);
    }

    public static Tensor argmin(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.argmin(x, dim, keepdim);
    }

    public static Tensor var(Tensor x) {
        return ReductionOps.var(x);
    }

    public static Tensor var(Tensor x, boolean unbiased) {
        return ReductionOps.var(x, unbiased);
    }

    public static Tensor var(Tensor x, long dim) {
        return ReductionOps.var(x, dim);
    }

    public static Tensor var(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.var(x, dims, unbiased, keepdim);
    }

    public static Tensor var(Tensor x, long[] dims, double correction, boolean keepdim) {
        return ReductionOps.var(x, dims, correction, keepdim);
    }

    public static Tensor std(Tensor x) {
        return ReductionOps.std(x);
    }

    public static Tensor std(Tensor x, boolean unbiased) {
        return ReductionOps.std(x, unbiased);
    }

    public static Tensor std(Tensor x, long dim) {
        return ReductionOps.std(x, dim);
    }

    public static Tensor std(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.std(x, dims, unbiased, keepdim);
    }

    public static Tensor std(Tensor x, long[] dims, double correction, boolean keepdim) {
        return ReductionOps.std(x, dims, correction, keepdim);
    }

    public static Tensor logsumexp(Tensor x, long dim) {
        return ReductionOps.logsumexp(x, dim);
    }

    public static Tensor logsumexp(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.logsumexp(x, dim, keepdim);
    }

    public static Tensor logsumexp(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.logsumexp(x, dims, keepdim);
    }

    public static Tensor softmax(Tensor x, long dim) {
        return ReductionOps.softmax(x, dim);
    }

    public static Tensor softmax(Tensor x, long dim, DType dtype) {
        return ReductionOps.softmax(x, dim, dtype);
    }

    public static Tensor logSoftmax(Tensor x, long dim) {
        return ReductionOps.logSoftmax(x, dim);
    }

    public static Tensor logSoftmax(Tensor x, long dim, DType dtype) {
        return ReductionOps.logSoftmax(x, dim, dtype);
    }

    public static Tensor cumsum(Tensor x, long dim) {
        return ReductionOps.cumsum(x, dim);
    }

    public static Tensor cumsum(Tensor x, long dim, DType dtype) {
        return ReductionOps.cumsum(x, dim, dtype);
    }

    public static Tensor cumprod(Tensor x, long dim) {
        return ReductionOps.cumprod(x, dim);
    }

    public static Tensor cumprod(Tensor x, long dim, DType dtype) {
        return ReductionOps.cumprod(x, dim, dtype);
    }

    public static Tensor all(Tensor x) {
        return ReductionOps.all(x);
    }

    public static Tensor all(Tensor x, long dim) {
        return ReductionOps.all(x, dim);
    }

    public static Tensor all(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.all(x, dims, keepdim);
    }

    public static Tensor any(Tensor x) {
        return ReductionOps.any(x);
    }

    public static Tensor any(Tensor x, long dim) {
        return ReductionOps.any(x, dim);
    }

    public static Tensor any(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.any(x, dims, keepdim);
    }

    public static Tensor vectorNorm(Tensor x) {
        return ReductionOps.vectorNorm(x);
    }

    public static Tensor vectorNorm(Tensor x, double ord) {
        return ReductionOps.vectorNorm(x, ord);
    }

    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim) {
        return ReductionOps.vectorNorm(x, ord, dims, keepdim);
    }

    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.vectorNorm(x, ord, dims, keepdim, dtype);
    }

    public static Tensor mm(Tensor self, Tensor mat2) {
        return MatmulOps.mm(self, mat2);
    }

    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2) {
        return MatmulOps.addmm(self, mat1, mat2);
    }

    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm(self, mat1, mat2, beta, alpha);
    }

    public static Tensor addmm_(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm_(self, mat1, mat2, beta, alpha);
    }

    public static Tensor bmm(Tensor self, Tensor mat2) {
        return MatmulOps.bmm(self, mat2);
    }

    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2) {
        return MatmulOps.baddbmm(self, batch1, batch2);
    }

    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm(self, batch1, batch2, beta, alpha);
    }

    public static Tensor baddbmm_(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm_(self, batch1, batch2, beta, alpha);
    }

    public static Tensor mv(Tensor self, Tensor vec) {
        return MatmulOps.mv(self, vec);
    }

    public static Tensor dot(Tensor self, Tensor tensor) {
        return MatmulOps.dot(self, tensor);
    }

    public static Tensor vdot(Tensor self, Tensor other) {
        return MatmulOps.vdot(self, other);
    }

    public static Tensor outer(Tensor self, Tensor vec2) {
        return MatmulOps.outer(self, vec2);
    }

    public static Tensor matmul(Tensor self, Tensor other) {
        return MatmulOps.matmul(self, other);
    }

    public static Tensor clamp(Tensor x, Double min, Double max) {
        return ClampOps.clamp(x, min, max);
    }

    public static Tensor clamp(Tensor x, Long min, Long max) {
        return ClampOps.clamp(x, min, max);
    }

    public static Tensor clamp(Tensor x, Scalar min, Scalar max) {
        return ClampOps.clamp(x, min, max);
    }

    public static Tensor clamp(Tensor x, Tensor min, Tensor max) {
        return ClampOps.clamp(x, min, max);
    }

    public static Tensor clampMin(Tensor x, double min) {
        return ClampOps.clampMin(x, min);
    }

    public static Tensor clampMin(Tensor x, long min) {
        return ClampOps.clampMin(x, min);
    }

    public static Tensor clampMin(Tensor x, Scalar min) {
        return ClampOps.clampMin(x, min);
    }

    public static Tensor clampMin(Tensor x, Tensor min) {
        return ClampOps.clampMin(x, min);
    }

    public static Tensor clampMax(Tensor x, double max) {
        return ClampOps.clampMax(x, max);
    }

    public static Tensor clampMax(Tensor x, long max) {
        return ClampOps.clampMax(x, max);
    }

    public static Tensor clampMax(Tensor x, Scalar max) {
        return ClampOps.clampMax(x, max);
    }

    public static Tensor clampMax(Tensor x, Tensor max) {
        return ClampOps.clampMax(x, max);
    }

    public static Tensor hardtanh(Tensor x) {
        return ClampOps.hardtanh(x);
    }

    public static Tensor hardtanh(Tensor x, double minVal, double maxVal) {
        return ClampOps.hardtanh(x, minVal, maxVal);
    }

    public static Tensor clamp_(Tensor x, Double min, Double max) {
        return ClampOps.clamp_(x, min, max);
    }

    public static Tensor clamp_(Tensor x, Long min, Long max) {
        return ClampOps.clamp_(x, min, max);
    }

    public static Tensor clamp_(Tensor x, Tensor min, Tensor max) {
        return ClampOps.clamp_(x, min, max);
    }

    public static Tensor clampMin_(Tensor x, double min) {
        return ClampOps.clampMin_(x, min);
    }

    public static Tensor clampMin_(Tensor x, Tensor min) {
        return ClampOps.clampMin_(x, min);
    }

    public static Tensor clampMax_(Tensor x, double max) {
        return ClampOps.clampMax_(x, max);
    }

    public static Tensor clampMax_(Tensor x, Tensor max) {
        return ClampOps.clampMax_(x, max);
    }

    public static Tensor hardtanh_(Tensor x, double minVal, double maxVal) {
        return ClampOps.hardtanh_(x, minVal, maxVal);
    }

    public static Tensor where(Tensor condition, Object input, Object other) {
        return TernaryOps.where(condition, input, other);
    }

    public static Tensor lerp(Tensor start, Tensor end, double weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    public static Tensor lerp(Tensor start, Tensor end, Scalar weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    public static Tensor lerp(Tensor start, Tensor end, Tensor weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    public static Tensor lerp_(Tensor start, Tensor end, double weight) {
        return TernaryOps.lerp_(start, end, weight);
    }

    public static Tensor lerp_(Tensor start, Tensor end, Tensor weight) {
        return TernaryOps.lerp_(start, end, weight);
    }

    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2) {
        return TernaryOps.addcmul(self, t1, t2);
    }

    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul(self, t1, t2, value);
    }

    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcmul(self, t1, t2, value);
    }

    public static Tensor addcmul_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul_(self, t1, t2, value);
    }

    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2) {
        return TernaryOps.addcdiv(self, t1, t2);
    }

    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv(self, t1, t2, value);
    }

    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcdiv(self, t1, t2, value);
    }

    public static Tensor addcdiv_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv_(self, t1, t2, value);
    }

    public static Tensor maskedFill(Tensor self, Tensor mask, Object value) {
        return TernaryOps.maskedFill(self, mask, value);
    }

    public static Tensor maskedFill_(Tensor self, Tensor mask, Object value) {
        return self.maskedFill_(mask, value);
    }

    public static Tensor real(Tensor t) {
        return ComplexOps.real(t);
    }

    public static Tensor imag(Tensor t) {
        return ComplexOps.imag(t);
    }

    public static Tensor viewAsReal(Tensor t) {
        return ComplexOps.viewAsReal(t);
    }

    public static Tensor viewAsComplex(Tensor t) {
        return ComplexOps.viewAsComplex(t);
    }

    public static Tensor conj(Tensor t) {
        return ComplexOps.conj(t);
    }

    public static Tensor conjPhysical(Tensor t) {
        return ComplexOps.conjPhysical(t);
    }

    public static Tensor resolveConj(Tensor t) {
        return ComplexOps.resolveConj(t);
    }

    public static boolean isConj(Tensor t) {
        return ComplexOps.isConj(t);
    }

    public static Tensor complex(Tensor real, Tensor imag) {
        return ComplexOps.complex(real, imag);
    }

    public static Tensor polar(Tensor abs, Tensor angle) {
        return ComplexOps.polar(abs, angle);
    }

    public static Tensor mH(Tensor t) {
        return ComplexOps.mH(t);
    }

    public static Tensor adjoint(Tensor t) {
        return ComplexOps.adjoint(t);
    }

    public static Tensor isreal(Tensor t) {
        return ComplexOps.isreal(t);
    }

    public static boolean isComplex(Tensor t) {
        return ComplexOps.isComplex(t);
    }

    public static Tensor fill_(Tensor self, double value) {
        return Creation.fill_(self, value);
    }

    public static Tensor fill_(Tensor self, long value) {
        return Creation.fill_(self, value);
    }

    public static Tensor zero_(Tensor self) {
        return Creation.zero_(self);
    }

    public static void manualSeed(long seed) {
        RandomOps.manualSeed(seed);
    }

    public static long seed() {
        return RandomOps.seed();
    }

    public static long initialSeed() {
        return RandomOps.initialSeed();
    }

    public static Tensor getRngState() {
        return RandomOps.getRngState();
    }

    public static void setRngState(Tensor newState) {
        RandomOps.setRngState(newState);
    }

    public static Generator defaultGenerator() {
        return RandomOps.defaultGenerator();
    }

    public static Tensor rand(long... shape) {
        return RandomOps.rand(shape);
    }

    public static Tensor rand(long[] shape, DType dtype) {
        return RandomOps.rand(shape, dtype);
    }

    public static Tensor rand(long[] shape, Generator generator) {
        return RandomOps.rand(shape, generator);
    }

    public static Tensor rand(long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.rand(shape, dtype, device, generator);
    }

    public static Tensor randn(long... shape) {
        return RandomOps.randn(shape);
    }

    public static Tensor randn(long[] shape, DType dtype) {
        return RandomOps.randn(shape, dtype);
    }

    public static Tensor randn(long[] shape, Generator generator) {
        return RandomOps.randn(shape, generator);
    }

    public static Tensor randn(long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.randn(shape, dtype, device, generator);
    }

    public static Tensor randint(long low, long high, long... shape) {
        return RandomOps.randint(low, high, shape);
    }

    public static Tensor randint(long low, long high, long[] shape, DType dtype) {
        return RandomOps.randint(low, high, shape, dtype);
    }

    public static Tensor randint(long low, long high, long[] shape, Generator generator) {
        return RandomOps.randint(low, high, shape, generator);
    }

    public static Tensor randint(long low, long high, long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.randint(low, high, shape, dtype, device, generator);
    }

    public static Tensor randperm(long n) {
        return RandomOps.randperm(n);
    }

    public static Tensor randperm(long n, DType dtype) {
        return RandomOps.randperm(n, dtype);
    }

    public static Tensor randperm(long n, Generator generator) {
        return RandomOps.randperm(n, generator);
    }

    public static Tensor randperm(long n, DType dtype, Device device, Generator generator) {
        return RandomOps.randperm(n, dtype, device, generator);
    }

    public static Tensor randLike(Tensor input) {
        return RandomOps.randLike(input);
    }

    public static Tensor randLike(Tensor input, Generator generator) {
        return RandomOps.randLike(input, generator);
    }

    public static Tensor randnLike(Tensor input) {
        return RandomOps.randnLike(input);
    }

    public static Tensor randnLike(Tensor input, Generator generator) {
        return RandomOps.randnLike(input, generator);
    }

    public static Tensor randintLike(Tensor input, long low, long high) {
        return RandomOps.randintLike(input, low, high);
    }

    public static Tensor randintLike(Tensor input, long low, long high, Generator generator) {
        return RandomOps.randintLike(input, low, high, generator);
    }

    public static Tensor normal(double mean, double std, long... shape) {
        return RandomOps.normal(mean, std, shape);
    }

    public static Tensor normal(double mean, double std, long[] shape, Generator generator) {
        return RandomOps.normal(mean, std, shape, generator);
    }

    public static Tensor normal(Tensor mean, double std) {
        return RandomOps.normal(mean, std);
    }

    public static Tensor normal(Tensor mean, double std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    public static Tensor normal(double mean, Tensor std) {
        return RandomOps.normal(mean, std);
    }

    public static Tensor normal(double mean, Tensor std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    public static Tensor normal(Tensor mean, Tensor std) {
        return RandomOps.normal(mean, std);
    }

    public static Tensor normal(Tensor mean, Tensor std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    public static Tensor bernoulli(Tensor input) {
        return RandomOps.bernoulli(input);
    }

    public static Tensor bernoulli(Tensor input, Generator generator) {
        return RandomOps.bernoulli(input, generator);
    }

    public static Tensor bernoulli(Tensor input, double p) {
        return RandomOps.bernoulli(input, p);
    }

    public static Tensor bernoulli(Tensor input, double p, Generator generator) {
        return RandomOps.bernoulli(input, p, generator);
    }

    public static Tensor multinomial(Tensor input, long numSamples) {
        return RandomOps.multinomial(input, numSamples);
    }

    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement) {
        return RandomOps.multinomial(input, numSamples, replacement);
    }

    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement, Generator generator) {
        return RandomOps.multinomial(input, numSamples, replacement, generator);
    }

    public static Tensor uniform_(Tensor self) {
        return RandomOps.uniform_(self);
    }

    public static Tensor uniform_(Tensor self, double from, double to) {
        return RandomOps.uniform_(self, from, to);
    }

    public static Tensor uniform_(Tensor self, double from, double to, Generator generator) {
        return RandomOps.uniform_(self, from, to, generator);
    }

    public static Tensor normal_(Tensor self) {
        return RandomOps.normal_(self);
    }

    public static Tensor normal_(Tensor self, double mean, double std) {
        return RandomOps.normal_(self, mean, std);
    }

    public static Tensor normal_(Tensor self, double mean, double std, Generator generator) {
        return RandomOps.normal_(self, mean, std, generator);
    }

    public static Tensor exponential_(Tensor self) {
        return RandomOps.exponential_(self);
    }

    public static Tensor exponential_(Tensor self, double lambd) {
        return RandomOps.exponential_(self, lambd);
    }

    public static Tensor exponential_(Tensor self, double lambd, Generator generator) {
        return RandomOps.exponential_(self, lambd, generator);
    }

    public static Tensor geometric_(Tensor self, double p) {
        return RandomOps.geometric_(self, p);
    }

    public static Tensor geometric_(Tensor self, double p, Generator generator) {
        return RandomOps.geometric_(self, p, generator);
    }

    public static Tensor cauchy_(Tensor self) {
        return RandomOps.cauchy_(self);
    }

    public static Tensor cauchy_(Tensor self, double median, double sigma) {
        return RandomOps.cauchy_(self, median, sigma);
    }

    public static Tensor cauchy_(Tensor self, double median, double sigma, Generator generator) {
        return RandomOps.cauchy_(self, median, sigma, generator);
    }

    public static Tensor logNormal_(Tensor self) {
        return RandomOps.logNormal_(self);
    }

    public static Tensor logNormal_(Tensor self, double mean, double std) {
        return RandomOps.logNormal_(self, mean, std);
    }

    public static Tensor logNormal_(Tensor self, double mean, double std, Generator generator) {
        return RandomOps.logNormal_(self, mean, std, generator);
    }

    public static Tensor bernoulli_(Tensor self, double p) {
        return RandomOps.bernoulli_(self, p);
    }

    public static Tensor bernoulli_(Tensor self, double p, Generator generator) {
        return RandomOps.bernoulli_(self, p, generator);
    }

    public static Tensor bernoulli_(Tensor self, Tensor p) {
        return RandomOps.bernoulli_(self, p);
    }

    public static Tensor bernoulli_(Tensor self, Tensor p, Generator generator) {
        return RandomOps.bernoulli_(self, p, generator);
    }

    public static Tensor random_(Tensor self) {
        return RandomOps.random_(self);
    }

    public static Tensor random_(Tensor self, Generator generator) {
        return RandomOps.random_(self, generator);
    }

    public static Tensor random_(Tensor self, long to) {
        return RandomOps.random_(self, to);
    }

    public static Tensor random_(Tensor self, long from, long to) {
        return RandomOps.random_(self, from, to);
    }

    public static Tensor random_(Tensor self, long from, long to, Generator generator) {
        return RandomOps.random_(self, from, to, generator);
    }

    public static Tensor random_(Tensor self, long from, Long to) {
        return RandomOps.random_(self, from, to);
    }

    public static Tensor random_(Tensor self, long from, Long to, Generator generator) {
        return RandomOps.random_(self, from, to, generator);
    }

    public static Tensor repeatInterleave(Tensor repeats) {
        return ArrangeOps.repeatInterleave(repeats);
    }

    public static Tensor repeatInterleave(Tensor self, long repeats) {
        return ArrangeOps.repeatInterleave(self, repeats);
    }

    public static Tensor repeatInterleave(Tensor self, long repeats, int dim) {
        return ArrangeOps.repeatInterleave(self, repeats, dim);
    }

    public static Tensor repeatInterleave(Tensor self, long repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(self, repeats, dim, outputSize);
    }

    public static Tensor repeatInterleave(Tensor self, Tensor repeats) {
        return ArrangeOps.repeatInterleave(self, repeats);
    }

    public static Tensor repeatInterleave(Tensor self, Tensor repeats, int dim) {
        return ArrangeOps.repeatInterleave(self, repeats, dim);
    }

    public static Tensor repeatInterleave(Tensor self, Tensor repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(self, repeats, dim, outputSize);
    }

    public static Tensor diff(Tensor self) {
        return ArrangeOps.diff(self);
    }

    public static Tensor diff(Tensor self, long n) {
        return ArrangeOps.diff(self, n);
    }

    public static Tensor diff(Tensor self, long n, int dim) {
        return ArrangeOps.diff(self, n, dim);
    }

    public static Tensor diff(Tensor self, long n, int dim, Tensor prepend, Tensor append) {
        return ArrangeOps.diff(self, n, dim, prepend, append);
    }

    public static Tensor diag(Tensor self) {
        return ArrangeOps.diag(self);
    }

    public static Tensor diag(Tensor self, long diagonal) {
        return ArrangeOps.diag(self, diagonal);
    }

    public static Tensor diagEmbed(Tensor self) {
        return ArrangeOps.diagEmbed(self);
    }

    public static Tensor diagEmbed(Tensor self, long offset) {
        return ArrangeOps.diagEmbed(self, offset);
    }

    public static Tensor diagEmbed(Tensor self, long offset, int dim1, int dim2) {
        return ArrangeOps.diagEmbed(self, offset, dim1, dim2);
    }

    public static Tensor pad(Tensor input, long[] pad) {
        return ArrangeOps.pad(input, pad);
    }

    public static Tensor pad(Tensor input, long[] pad, double value) {
        return ArrangeOps.pad(input, pad, value);
    }

    public static Tensor pad(Tensor input, long[] pad, String mode) {
        return ArrangeOps.pad(input, pad, mode);
    }

    public static Tensor oneHot(Tensor tensor) {
        return ArrangeOps.oneHot(tensor);
    }

    public static Tensor oneHot(Tensor tensor, long numClasses) {
        return ArrangeOps.oneHot(tensor, numClasses);
    }

    public static Tensor einsum(String equation, Tensor... operands) {
        return EinsumOps.einsum(equation, operands);
    }

    public static Tensor einsum(String equation, List<Tensor> operands) {
        return EinsumOps.einsum(equation, operands);
    }

    public static Tensor tensordot(Tensor a, Tensor b) {
        return EinsumOps.tensordot(a, b);
    }

    public static Tensor tensordot(Tensor a, Tensor b, int dims) {
        return EinsumOps.tensordot(a, b, dims);
    }

    public static Tensor tensordot(Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
        return EinsumOps.tensordot(a, b, dimsA, dimsB);
    }

    public static Tensor index(Tensor self, Index... spec) {
        return IndexingOps.index(self, spec);
    }

    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values) {
        return IndexingOps.indexPut_(self, spec, values);
    }

    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(self, spec, values, accumulate);
    }

    public static Tensor indexPut_(Tensor self, Index[] spec, Object value) {
        return IndexingOps.indexPut_(self, spec, value, false);
    }

    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut(self, indices, values);
    }

    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut(self, indices, values, accumulate);
    }

    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut_(self, indices, values);
    }

    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(self, indices, values, accumulate);
    }

    public static Tensor nonzero(Tensor self) {
        return IndexingOps.nonzero(self);
    }

    public static List<Tensor> nonzero(Tensor self, boolean asTuple) {
        return IndexingOps.nonzero(self, asTuple);
    }

    public static Tensor nonzeroStatic(Tensor self, long size, long fillValue) {
        return IndexingOps.nonzeroStatic(self, size, fillValue);
    }

    public static Tensor countNonzero(Tensor self, long... dims) {
        return IndexingOps.countNonzero(self, dims);
    }

    public static List<Tensor> where(Tensor condition) {
        return IndexingOps.where(condition);
    }

    public static Tensor maskedSelect(Tensor self, Tensor mask) {
        return IndexingOps.maskedSelect(self, mask);
    }

    public static Tensor maskedScatter(Tensor self, Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter(self, mask, source);
    }

    public static Tensor maskedScatter_(Tensor self, Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter_(self, mask, source);
    }

    public static Tensor take(Tensor self, Tensor index) {
        return IndexingOps.take(self, index);
    }

    public static Tensor takeAlongDim(Tensor self, Tensor indices) {
        return IndexingOps.takeAlongDim(self, indices);
    }

    public static Tensor takeAlongDim(Tensor self, Tensor indices, int dim) {
        return IndexingOps.takeAlongDim(self, indices, dim);
    }

    public static Tensor gather(Tensor self, int dim, Tensor index) {
        return ScatterOps.gather(self, dim, index);
    }

    public static Tensor scatter(Tensor self, int dim, Tensor index, Tensor src) {
        return ScatterOps.scatter(self, dim, index, src);
    }

    public static Tensor scatter(Tensor self, int dim, Tensor index, Object value) {
        return ScatterOps.scatter(self, dim, index, value);
    }

    public static Tensor scatter_(Tensor self, int dim, Tensor index, Tensor src) {
        return self.scatter_(dim, index, src);
    }

    public static Tensor scatter_(Tensor self, int dim, Tensor index, Object value) {
        return self.scatter_(dim, index, value);
    }

    public static Tensor scatterAdd(Tensor self, int dim, Tensor index, Tensor src) {
        return ScatterOps.scatterAdd(self, dim, index, src);
    }

    public static Tensor scatterAdd_(Tensor self, int dim, Tensor index, Tensor src) {
        return self.scatterAdd_(dim, index, src);
    }

    public static Tensor scatterReduce(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return ScatterOps.scatterReduce(self, dim, index, src, reduce);
    }

    public static Tensor scatterReduce(
            Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return ScatterOps.scatterReduce(self, dim, index, src, reduce, includeSelf);
    }

    public static Tensor scatterReduce_(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return self.scatterReduce_(dim, index, src, reduce);
    }

    public static Tensor scatterReduce_(
            Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return self.scatterReduce_(dim, index, src, reduce, includeSelf);
    }

    public static Tensor indexSelect(Tensor self, int dim, Tensor index) {
        return ScatterOps.indexSelect(self, dim, index);
    }

    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source) {
        return ScatterOps.indexAdd(self, dim, index, source);
    }

    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source, Object alpha) {
        return ScatterOps.indexAdd(self, dim, index, source, alpha);
    }

    public static Tensor indexAdd_(Tensor self, int dim, Tensor index, Tensor source) {
        return self.indexAdd_(dim, index, source);
    }

    public static Tensor indexAdd_(Tensor self, int dim, Tensor index, Tensor source, Object alpha) {
        return self.indexAdd_(dim, index, source, alpha);
    }

    public static Tensor indexCopy(Tensor self, int dim, Tensor index, Tensor source) {
        return ScatterOps.indexCopy(self, dim, index, source);
    }

    public static Tensor indexCopy_(Tensor self, int dim, Tensor index, Tensor source) {
        return self.indexCopy_(dim, index, source);
    }

    public static Tensor indexFill(Tensor self, int dim, Tensor index, Object value) {
        return ScatterOps.indexFill(self, dim, index, value);
    }

    public static Tensor indexFill_(Tensor self, int dim, Tensor index, Object value) {
        return self.indexFill_(dim, index, value);
    }

    public static ValuesIndices sort(Tensor self) {
        return SortOps.sort(self);
    }

    public static ValuesIndices sort(Tensor self, long dim) {
        return SortOps.sort(self, dim);
    }

    public static ValuesIndices sort(Tensor self, long dim, boolean descending) {
        return SortOps.sort(self, dim, descending);
    }

    public static ValuesIndices sort(Tensor self, boolean stable, long dim, boolean descending) {
        return SortOps.sort(self, stable, dim, descending);
    }

    public static Tensor argsort(Tensor self) {
        return SortOps.argsort(self);
    }

    public static Tensor argsort(Tensor self, long dim) {
        return SortOps.argsort(self, dim);
    }

    public static Tensor argsort(Tensor self, long dim, boolean descending) {
        return SortOps.argsort(self, dim, descending);
    }

    public static Tensor argsort(Tensor self, long dim, boolean descending, boolean stable) {
        return SortOps.argsort(self, dim, descending, stable);
    }

    public static Tensor msort(Tensor self) {
        return SortOps.msort(self);
    }

    public static ValuesIndices topk(Tensor self, long k) {
        return SortOps.topk(self, k);
    }

    public static ValuesIndices topk(Tensor self, long k, long dim) {
        return SortOps.topk(self, k, dim);
    }

    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest) {
        return SortOps.topk(self, k, dim, largest);
    }

    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest, boolean sorted) {
        return SortOps.topk(self, k, dim, largest, sorted);
    }

    public static ValuesIndices kthvalue(Tensor self, long k) {
        return SortOps.kthvalue(self, k);
    }

    public static ValuesIndices kthvalue(Tensor self, long k, long dim) {
        return SortOps.kthvalue(self, k, dim);
    }

    public static ValuesIndices kthvalue(Tensor self, long k, long dim, boolean keepdim) {
        return SortOps.kthvalue(self, k, dim, keepdim);
    }

    public static ValuesIndices cummax(Tensor self, long dim) {
        return SortOps.cummax(self, dim);
    }

    public static ValuesIndices cummin(Tensor self, long dim) {
        return SortOps.cummin(self, dim);
    }

    public static Tensor unique(Tensor self) {
        return SortOps.unique(self);
    }

    public static UniqueResult unique(Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts);
    }

    public static UniqueResult unique(
            Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts, dim);
    }
    /** {@code torch.unique_dim}: {@link #unique(Tensor, boolean, boolean, boolean, long)} with dim first. */
    public static UniqueResult uniqueDim(Tensor self, long dim) {
        return SortOps.unique(self, true, false, false, dim);
    }

    public static UniqueResult uniqueDim(
            Tensor self, long dim, boolean sorted, boolean returnInverse, boolean returnCounts) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts, dim);
    }

    public static Tensor uniqueConsecutive(Tensor self) {
        return SortOps.uniqueConsecutive(self);
    }

    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts) {
        return SortOps.uniqueConsecutive(self, returnInverse, returnCounts);
    }

    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.uniqueConsecutive(self, returnInverse, returnCounts, dim);
    }

    public static Tensor searchsorted(Tensor sortedSequence, Tensor values) {
        return SearchOps.searchsorted(sortedSequence, values);
    }

    public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right) {
        return SearchOps.searchsorted(sortedSequence, values, right);
    }

    public static Tensor searchsorted(
            Tensor sortedSequence, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SearchOps.searchsorted(sortedSequence, values, outInt32, right, side, sorter);
    }

    public static Tensor searchsorted(Tensor sortedSequence, Scalar value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    public static Tensor searchsorted(Tensor sortedSequence, double value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    public static Tensor searchsorted(Tensor sortedSequence, long value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    public static Tensor searchsorted(
            Tensor sortedSequence, Scalar value, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SearchOps.searchsorted(sortedSequence, value, outInt32, right, side, sorter);
    }

    public static Tensor bucketize(Tensor input, Tensor boundaries) {
        return SearchOps.bucketize(input, boundaries);
    }

    public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) {
        return SearchOps.bucketize(input, boundaries, outInt32, right);
    }

    public static Tensor bucketize(Scalar input, Tensor boundaries) {
        return SearchOps.bucketize(input, boundaries);
    }

    public static Tensor bucketize(Scalar input, Tensor boundaries, boolean outInt32, boolean right) {
        return SearchOps.bucketize(input, boundaries, outInt32, right);
    }

    public static Tensor histc(Tensor self) {
        return SearchOps.histc(self);
    }

    public static Tensor histc(Tensor self, long bins) {
        return SearchOps.histc(self, bins);
    }

    public static Tensor histc(Tensor self, long bins, double min, double max) {
        return SearchOps.histc(self, bins, min, max);
    }

    public static Tensor histc(Tensor self, long bins, double min, double max, Tensor out) {
        return SearchOps.histc(self, bins, min, max, out);
    }

    public static Tensor bincount(Tensor self) {
        return SearchOps.bincount(self);
    }

    public static Tensor bincount(Tensor self, Tensor weights) {
        return SearchOps.bincount(self, weights);
    }

    public static Tensor bincount(Tensor self, Tensor weights, long minlength) {
        return SearchOps.bincount(self, weights, minlength);
    }

    // ---- generated delegations: end

    // ---- pairwise distances (org.jtorch.ops.DistanceOps) ----

    /** {@code torch.cdist(x1, x2)}: Euclidean distances between the rows of x1 and of x2. */
    public static Tensor cdist(Tensor x1, Tensor x2) {
        return org.jtorch.ops.DistanceOps.cdist(x1, x2);
    }
    /** {@code torch.cdist(x1, x2, p)}. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p) {
        return org.jtorch.ops.DistanceOps.cdist(x1, x2, p);
    }
    /** {@code torch.cdist(x1, x2, p, compute_mode)}. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p, CdistComputeMode computeMode) {
        return org.jtorch.ops.DistanceOps.cdist(x1, x2, p, computeMode);
    }
    /** {@code torch.cdist(x1, x2, p, compute_mode)} with PyTorch's compute_mode string. */
    public static Tensor cdist(Tensor x1, Tensor x2, double p, String computeMode) {
        return org.jtorch.ops.DistanceOps.cdist(x1, x2, p, computeMode);
    }
    /** {@code torch.pdist(x)}: Euclidean distances of all row pairs i < j. */
    public static Tensor pdist(Tensor x) {
        return org.jtorch.ops.DistanceOps.pdist(x);
    }
    /** {@code torch.pdist(x, p)}. */
    public static Tensor pdist(Tensor x, double p) {
        return org.jtorch.ops.DistanceOps.pdist(x, p);
    }

    /** {@code torch.native_layer_norm(input, normalized_shape, weight, bias, eps)}: {output, mean, rstd}. */
    public static Tensor[] nativeLayerNorm(
            Tensor input, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        return org.jtorch.ops.NormOps.nativeLayerNorm(input, normalizedShape, weight, bias, eps);
    }

    // ---- torch.linalg aliases in the torch namespace (matrix_exp, matrix_power)

    /** {@code torch.matrix_exp(A)}: alias of {@code torch.linalg.matrix_exp}. */
    public static Tensor matrixExp(Tensor a) {
        return org.jtorch.ops.LinalgSolveOps.matrixExp(a);
    }

    /** {@code torch.matrix_power(A, n)}: alias of {@code torch.linalg.matrix_power}. */
    public static Tensor matrixPower(Tensor a, long n) {
        return org.jtorch.ops.LinalgSolveOps.matrixPower(a, n);
    }

    // ---- view-scatter ops (org.jtorch.ops.ViewScatterOps): a copy of self with a view's elements replaced ----

    /** {@code torch.slice_scatter(self, src, dim, start, end, step)}: self with {@code self[start:end:step] = src}. */
    public static Tensor sliceScatter(Tensor self, Tensor src, long dim, Long start, Long end, long step) {
        return org.jtorch.ops.ViewScatterOps.SLICE_SCATTER.call1(self, src, dim, start, end, step);
    }

    /** {@code torch.slice_scatter(self, src, dim)}: the whole of {@code dim}, step 1. */
    public static Tensor sliceScatter(Tensor self, Tensor src, long dim) {
        return sliceScatter(self, src, dim, null, null, 1);
    }

    /** {@code torch.select_scatter(self, src, dim, index)}: self with {@code select(dim, index) = src}. */
    public static Tensor selectScatter(Tensor self, Tensor src, long dim, long index) {
        return org.jtorch.ops.ViewScatterOps.SELECT_SCATTER.call1(self, src, dim, index);
    }

    /** {@code torch.diagonal_scatter(self, src, offset, dim1, dim2)}: self with its diagonal = src. */
    public static Tensor diagonalScatter(Tensor self, Tensor src, long offset, long dim1, long dim2) {
        return org.jtorch.ops.ViewScatterOps.DIAGONAL_SCATTER.call1(self, src, offset, dim1, dim2);
    }

    /** {@code torch.diagonal_scatter(self, src)}: the main diagonal of dims 0 and 1. */
    public static Tensor diagonalScatter(Tensor self, Tensor src) {
        return diagonalScatter(self, src, 0, 0, 1);
    }

    // ---- view-copy ops (org.jtorch.ops.ViewCopyOps): the view, then a copy that shares nothing ----

    /** {@code torch.view_copy(self, size)}. */
    public static Tensor viewCopy(Tensor self, long... size) {
        return org.jtorch.ops.ViewCopyOps.viewCopy(self, size);
    }
    /** {@code torch.permute_copy(self, dims)}. */
    public static Tensor permuteCopy(Tensor self, long... dims) {
        return org.jtorch.ops.ViewCopyOps.permuteCopy(self, dims);
    }
    /** {@code torch.transpose_copy(self, dim0, dim1)}. */
    public static Tensor transposeCopy(Tensor self, long dim0, long dim1) {
        return org.jtorch.ops.ViewCopyOps.transposeCopy(self, dim0, dim1);
    }
    /** {@code torch.t_copy(self)}. */
    public static Tensor tCopy(Tensor self) {
        return org.jtorch.ops.ViewCopyOps.tCopy(self);
    }
    /** {@code torch.expand_copy(self, size)}. */
    public static Tensor expandCopy(Tensor self, long... size) {
        return org.jtorch.ops.ViewCopyOps.expandCopy(self, size);
    }
    /** {@code torch.squeeze_copy(self)}. */
    public static Tensor squeezeCopy(Tensor self) {
        return org.jtorch.ops.ViewCopyOps.squeezeCopy(self);
    }
    /** {@code torch.squeeze_copy(self, dims)}. */
    public static Tensor squeezeCopy(Tensor self, long... dims) {
        return org.jtorch.ops.ViewCopyOps.squeezeCopy(self, dims);
    }
    /** {@code torch.unsqueeze_copy(self, dim)}. */
    public static Tensor unsqueezeCopy(Tensor self, long dim) {
        return org.jtorch.ops.ViewCopyOps.unsqueezeCopy(self, dim);
    }
    /** {@code torch.select_copy(self, dim, index)}. */
    public static Tensor selectCopy(Tensor self, long dim, long index) {
        return org.jtorch.ops.ViewCopyOps.selectCopy(self, dim, index);
    }
    /** {@code torch.slice_copy(self, dim, start, end, step)}. */
    public static Tensor sliceCopy(Tensor self, long dim, Long start, Long end, long step) {
        return org.jtorch.ops.ViewCopyOps.sliceCopy(self, dim, start, end, step);
    }
    /** {@code torch.diagonal_copy(self, offset, dim1, dim2)}. */
    public static Tensor diagonalCopy(Tensor self, long offset, long dim1, long dim2) {
        return org.jtorch.ops.ViewCopyOps.diagonalCopy(self, offset, dim1, dim2);
    }
    /** {@code torch.alias_copy(self)}. */
    public static Tensor aliasCopy(Tensor self) {
        return org.jtorch.ops.ViewCopyOps.aliasCopy(self);
    }

    // ---- torch.save / torch.load (org.jtorch.io.Serialization) ----

    /**
     * {@code torch.save(obj, f)}: writes {@code obj} (tensors, maps, lists, numbers, strings, state dicts of modules,
     * optimizers and schedulers) in PyTorch's zip format, which {@code torch.load} reads; see
     * {@link org.jtorch.io.Serialization#save}.
     */
    public static void save(Object obj, java.nio.file.Path path) {
        org.jtorch.io.Serialization.save(obj, path);
    }

    /**
     * {@code torch.load(f)}: a weights-only load (PyTorch 2.6+'s default), of a file written by JTorch or PyTorch; see
     * {@link org.jtorch.io.Serialization#load(java.nio.file.Path)}.
     */
    public static Object load(java.nio.file.Path path) {
        return org.jtorch.io.Serialization.load(path);
    }

    /**
     * {@code torch.load(f, weights_only=True)} of a state dict, typed: the file must hold a map of names to tensors
     * (what {@code torch.save(model.state_dict(), f)} writes), else a {@link TorchTypeException} says what it holds.
     */
    public static java.util.Map<String, Tensor> loadStateDict(java.nio.file.Path path) {
        Object loaded = load(path);
        if (!(loaded instanceof java.util.Map<?, ?> map)) {
            throw new TorchTypeException("loadStateDict: " + path + " holds a "
                    + (loaded == null ? "None" : loaded.getClass().getSimpleName())
                    + ", not a state dict (a map of names to tensors)");
        }
        java.util.LinkedHashMap<String, Tensor> out = new java.util.LinkedHashMap<>();
        for (var e : map.entrySet()) {
            if (!(e.getKey() instanceof String key) || !(e.getValue() instanceof Tensor t)) {
                throw new TorchTypeException("loadStateDict: " + path + " is not a state dict: entry " + e.getKey()
                        + " holds a "
                        + (e.getValue() == null
                                ? "None"
                                : e.getValue().getClass().getSimpleName())
                        + ", not a tensor (load it with Torch.load)");
            }
            out.put(key, t);
        }
        return out;
    }
}

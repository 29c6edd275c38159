package org.jtorch;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.List;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.JvmRequirements;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.ops.AdaptiveMaxPoolOps;
import org.jtorch.ops.ArrangeOps;
import org.jtorch.ops.ClampOps;
import org.jtorch.ops.CloseOps;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.ConvOps;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.DistributionOps;
import org.jtorch.ops.EinsumOps;
import org.jtorch.ops.FoldOps;
import org.jtorch.ops.GridOps;
import org.jtorch.ops.GridSampleOps;
import org.jtorch.ops.IncompleteGammaOps;
import org.jtorch.ops.IndexReduceOps;
import org.jtorch.ops.IndexingOps;
import org.jtorch.ops.IsinOps;
import org.jtorch.ops.JoinOps;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.MatmulOps;
import org.jtorch.ops.MaxUnpoolOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.SearchOps;
import org.jtorch.ops.ShapeOps;
import org.jtorch.ops.SortOps;
import org.jtorch.ops.SpecialPointwiseOps;
import org.jtorch.ops.StatisticsOps;
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

    /** {@code torch.get_default_dtype}: get the current default floating point {@code torch.dtype}. */
    public static DType getDefaultDtype() {
        return DefaultDtype.get();
    }

    /** {@code torch.set_default_dtype}: only floating dtypes are allowed. */
    public static void setDefaultDtype(DType d) {
        DefaultDtype.set(d);
    }

    // ---- torch.compile ----------------------------------------------------------------------------

    /** {@code torch.compile(fn)}: {@code fn} compiled with the default options (see {@link Compile}). */
    public static java.util.function.Function<Tensor, Tensor> compile(java.util.function.Function<Tensor, Tensor> fn) {
        return compile(fn, CompileOptions.defaults());
    }

    /**
     * {@code torch.compile(fn, fullgraph=..., dynamic=..., backend=..., mode=..., options=..., disable=...)}: the
     * function captured into a graph on its first call and run compiled; Java side effects in it run at capture time
     * only (see {@link Compile}).
     */
    public static java.util.function.Function<Tensor, Tensor> compile(
            java.util.function.Function<Tensor, Tensor> fn, CompileOptions options) {
        return Compile.compile(fn, options);
    }

    /** {@code torch.compile(fn, ...)} of a function of two tensors. */
    public static java.util.function.BiFunction<Tensor, Tensor, Tensor> compile(
            java.util.function.BiFunction<Tensor, Tensor, Tensor> fn, CompileOptions options) {
        return Compile.compile(fn, options);
    }

    /**
     * {@code torch.compile(module)}: a copy of the module of the same class, sharing its parameters and buffers, whose
     * calls run compiled (see {@link org.jtorch.nn.Module#compiledCopy}).
     */
    public static org.jtorch.nn.Module compile(org.jtorch.nn.Module module) {
        return compile(module, CompileOptions.defaults());
    }

    /** {@code torch.compile(module, ...)} with these options. */
    public static org.jtorch.nn.Module compile(org.jtorch.nn.Module module, CompileOptions options) {
        return module.compiledCopy(options);
    }

    /** {@code torch.use_deterministic_algorithms(mode)}. */
    public static void useDeterministicAlgorithms(boolean mode) {
        useDeterministicAlgorithms(mode, false);
    }

    /**
     * {@code torch.use_deterministic_algorithms}: sets whether operations must use "deterministic" algorithms. JTorch's
     * CPU kernels always are (reductions, scans and scatters combine in a fixed order that depends neither on
     * {@link #setNumThreads} nor on concurrent callers: docs/threading.md); with the flag on, the ops PyTorch's CPU
     * build has no deterministic implementation for ({@code put_} without {@code accumulate}) raise PyTorch's error, or
     * warn with {@code warnOnly}, and {@link #empty(long...)}/{@link #emptyLike} fill their results (see
     * {@link org.jtorch.utils.deterministic.Deterministic}).
     */
    public static void useDeterministicAlgorithms(boolean mode, boolean warnOnly) {
        org.jtorch.dispatch.DeterministicAlgorithms.set(mode, warnOnly);
    }

    /**
     * {@code torch.are_deterministic_algorithms_enabled}: returns {@code true} if the global deterministic flag is
     * turned on.
     */
    public static boolean areDeterministicAlgorithmsEnabled() {
        return org.jtorch.dispatch.DeterministicAlgorithms.enabled();
    }

    /**
     * {@code torch.is_deterministic_algorithms_warn_only_enabled}: returns {@code true} if the global deterministic
     * flag is set to warn only.
     */
    public static boolean isDeterministicAlgorithmsWarnOnlyEnabled() {
        return org.jtorch.dispatch.DeterministicAlgorithms.warnOnly();
    }

    /** {@code torch.set_num_threads}: intra-op threads for JTorch's loops and OpenBLAS alike. */
    public static void setNumThreads(int n) {
        Parallel.setNumThreads(n);
        if (org.jtorch.kernels.blas.OpenBlas.isAvailable()) org.jtorch.kernels.blas.OpenBlas.setNumThreads(n);
    }

    /** {@code torch.get_num_threads}: returns the number of threads used for parallelizing CPU operations. */
    public static int getNumThreads() {
        return Parallel.numThreads();
    }

    /** {@code torch.result_type(a, b)} over tensors and Java numbers. */
    public static DType resultType(Object a, Object b) {
        return TypePromotion.resultType(a, b);
    }

    /**
     * {@code torch.promote_types}: returns the {@code torch.dtype} with the smallest size and scalar kind that is not
     * smaller nor of lower kind than either type1 or type2.
     */
    public static DType promoteTypes(DType a, DType b) {
        return TypePromotion.promoteTypes(a, b);
    }

    /**
     * {@code torch.can_cast}: determines if a type conversion is allowed under PyTorch casting rules described in the
     * type promotion {@code documentation}.
     */
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

    /** {@code torch.is_grad_enabled}: returns {@code true} if grad mode is currently enabled. */
    public static boolean isGradEnabled() {
        return org.jtorch.autograd.GradMode.isEnabled();
    }

    /** {@code torch.is_inference_mode_enabled}: returns {@code true} if inference mode is currently enabled. */
    public static boolean isInferenceModeEnabled() {
        return org.jtorch.autograd.GradMode.isInference();
    }

    // ---- creation -------------------------------------------------------------------------------

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(float[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.FLOAT32);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(double[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.FLOAT64);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(long[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT64);
    }

    /** Java {@code int[]} becomes int64, as Python ints do in {@code torch.tensor}. */
    public static Tensor tensor(int[] data) {
        long[] l = new long[data.length];
        for (int i = 0; i < l.length; i++) l[i] = data[i];
        return Creation.fromStorage(Storage.wrap(l), new long[] {l.length}, DType.INT64);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(boolean[] data) {
        byte[] b = new byte[data.length];
        for (int i = 0; i < b.length; i++) b[i] = (byte) (data[i] ? 1 : 0);
        return Creation.fromStorage(Storage.wrap(b), new long[] {b.length}, DType.BOOL);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(float[][] data) {
        return Creation.fromStorage(
                Storage.wrap(flatten(data, new float[rows(data) * cols(data)])), shape(data), DType.FLOAT32);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
    public static Tensor tensor(double[][] data) {
        return Creation.fromStorage(
                Storage.wrap(flatten(data, new double[rows(data) * cols(data)])), shape(data), DType.FLOAT64);
    }

    /**
     * {@code torch.tensor}: constructs a tensor with no autograd history (also known as a "leaf tensor") by copying
     * {@code data}.
     */
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

    /** {@code torch.scalar_tensor}: a 0-dimensional tensor holding the value {@code v}. */
    public static Tensor scalarTensor(Object v, DType dtype) {
        return Creation.scalarTensor(Scalar.of(v), dtype);
    }

    /** {@code torch.tensor(data, dtype=dtype)} from a Java array, shaped as {@code shape}. */
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

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(float[] data) {
        return tensor(data);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(double[] data) {
        return tensor(data);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(long[] data) {
        return tensor(data);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(boolean[] data) {
        return tensor(data);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(int[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT32);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(short[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT16);
    }

    /** {@code torch.asarray}: converts {@code obj} to a tensor. */
    public static Tensor asarray(byte[] data) {
        return Creation.fromStorage(Storage.wrap(data.clone()), new long[] {data.length}, DType.INT8);
    }

    /**
     * {@code torch.empty}: returns a tensor filled with uninitialized data: zeros, or under
     * {@link #useDeterministicAlgorithms deterministic algorithms} with
     * {@link org.jtorch.utils.deterministic.Deterministic#fillUninitializedMemory()} NaN (floating, complex) or the
     * dtype's largest value (integers, bool), as PyTorch fills it.
     */
    public static Tensor empty(long... shape) {
        return Creation.empty(shape, DefaultDtype.get(), Device.CPU);
    }

    /** {@code torch.empty}: returns a tensor filled with uninitialized data (see {@link #empty(long...)}). */
    public static Tensor empty(long[] shape, DType dtype, Device device) {
        return Creation.empty(shape, dtype, device);
    }

    /**
     * {@code torch.zeros}: returns a tensor filled with the scalar value 0, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor zeros(long... shape) {
        return Creation.full(shape, 0.0, DefaultDtype.get(), Device.CPU);
    }

    /**
     * {@code torch.zeros}: returns a tensor filled with the scalar value 0, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor zeros(long[] shape, DType dtype) {
        return Creation.full(shape, 0L, dtype, Device.CPU);
    }

    /**
     * {@code torch.zeros}: returns a tensor filled with the scalar value 0, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor zeros(long[] shape, DType dtype, Device device) {
        return Creation.full(shape, 0L, dtype, device);
    }

    /**
     * {@code torch.ones}: returns a tensor filled with the scalar value 1, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor ones(long... shape) {
        return Creation.full(shape, 1.0, DefaultDtype.get(), Device.CPU);
    }

    /**
     * {@code torch.ones}: returns a tensor filled with the scalar value 1, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor ones(long[] shape, DType dtype) {
        return Creation.full(shape, 1L, dtype, Device.CPU);
    }

    /**
     * {@code torch.ones}: returns a tensor filled with the scalar value 1, with the shape defined by the variable
     * argument {@code size}.
     */
    public static Tensor ones(long[] shape, DType dtype, Device device) {
        return Creation.full(shape, 1L, dtype, device);
    }

    /** {@code torch.full(shape, fill)}: dtype from the fill (double → default float, long → int64, boolean → bool). */
    public static Tensor full(long[] shape, double fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    /** {@code torch.full}: creates a tensor of size {@code size} filled with {@code fill_value}. */
    public static Tensor full(long[] shape, long fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    /** {@code torch.full}: creates a tensor of size {@code size} filled with {@code fill_value}. */
    public static Tensor full(long[] shape, boolean fill) {
        return Creation.full(shape, fill, null, Device.CPU);
    }

    /** {@code torch.full}: creates a tensor of size {@code size} filled with {@code fill_value}. */
    public static Tensor full(long[] shape, Object fill, DType dtype, Device device) {
        return Creation.full(shape, fill, dtype, device);
    }

    /**
     * {@code torch.zeros_like}: returns a tensor filled with the scalar value 0, with the same size as {@code input}.
     */
    public static Tensor zerosLike(Tensor t) {
        return Creation.zerosLike(t);
    }

    /**
     * {@code torch.ones_like}: returns a tensor filled with the scalar value 1, with the same size as {@code input}.
     */
    public static Tensor onesLike(Tensor t) {
        return Creation.onesLike(t);
    }

    /**
     * {@code torch.empty_like}: returns an uninitialized tensor with the same size as {@code input} (filled as
     * {@link #empty(long...)} is).
     */
    public static Tensor emptyLike(Tensor t) {
        return Creation.emptyLike(t);
    }

    /** {@code torch.full_like}: returns a tensor with the same size as {@code input} filled with {@code fill_value}. */
    public static Tensor fullLike(Tensor t, Object fill) {
        return Creation.full(t.impl().shapeRef(), fill, t.dtype(), t.device());
    }

    /** {@code torch.eye}: returns a 2-D tensor with ones on the diagonal and zeros elsewhere. */
    public static Tensor eye(long n) {
        return eye(n, n, DefaultDtype.get(), Device.CPU);
    }

    /** {@code torch.eye}: returns a 2-D tensor with ones on the diagonal and zeros elsewhere. */
    public static Tensor eye(long n, long m) {
        return eye(n, m, DefaultDtype.get(), Device.CPU);
    }

    /** {@code torch.eye}: returns a 2-D tensor with ones on the diagonal and zeros elsewhere. */
    public static Tensor eye(long n, long m, DType dtype, Device device) {
        return Creation.EYE.call1(n, m, dtype, device);
    }

    /** {@code torch.arange(end)}: int64. */
    public static Tensor arange(long end) {
        return arange(0L, end, 1L, null);
    }

    /**
     * {@code torch.arange}: returns a 1-D tensor of the values from the interval {@code [start, end)} taken with common
     * difference {@code step}.
     */
    public static Tensor arange(long start, long end) {
        return arange(start, end, 1L, null);
    }

    /**
     * {@code torch.arange}: returns a 1-D tensor of the values from the interval {@code [start, end)} taken with common
     * difference {@code step}.
     */
    public static Tensor arange(long start, long end, long step) {
        return arange(start, end, step, null);
    }

    /** {@code torch.arange(end)} with a float end: default float dtype. */
    public static Tensor arange(double end) {
        return arange(0.0, end, 1.0, null);
    }

    /**
     * {@code torch.arange}: returns a 1-D tensor of the values from the interval {@code [start, end)} taken with common
     * difference {@code step}.
     */
    public static Tensor arange(double start, double end, double step) {
        return arange(start, end, step, null);
    }

    /**
     * {@code torch.arange}: returns a 1-D tensor of the values from the interval {@code [start, end)} taken with common
     * difference {@code step}.
     */
    public static Tensor arange(double start, double end, double step, DType dtype) {
        return Creation.ARANGE.call1(start, end, step, dtype, null);
    }

    /** {@code torch.arange(start, end, step, dtype=dtype)}; with {@code dtype == null} the result is int64. */
    public static Tensor arange(long start, long end, long step, DType dtype) {
        return Creation.ARANGE.call1(start, end, step, dtype, null);
    }

    /** {@code torch.arange} in general: numbers keep their kind ({@link Long} integral, {@link Double} fractional). */
    public static Tensor arange(Number start, Number end, Number step, DType dtype, Device device) {
        return Creation.ARANGE.call1(start, end, step, dtype, device);
    }

    /**
     * {@code torch.linspace}: creates a one-dimensional tensor of size {@code steps} whose values are evenly spaced
     * from {@code start} to {@code end}, inclusive.
     */
    public static Tensor linspace(double start, double end, long steps) {
        return linspace(start, end, steps, null);
    }

    /**
     * {@code torch.linspace}: creates a one-dimensional tensor of size {@code steps} whose values are evenly spaced
     * from {@code start} to {@code end}, inclusive.
     */
    public static Tensor linspace(double start, double end, long steps, DType dtype) {
        return Creation.LINSPACE.call1(start, end, steps, dtype, null);
    }

    /**
     * {@code torch.logspace}: returns a 1-D tensor of {@code steps} values evenly spaced from {@code base^start} to
     * {@code base^end}, inclusive, on a logarithmic scale.
     */
    public static Tensor logspace(double start, double end, long steps) {
        return logspace(start, end, steps, 10.0, null);
    }

    /**
     * {@code torch.logspace}: returns a 1-D tensor of {@code steps} values evenly spaced from {@code base^start} to
     * {@code base^end}, inclusive, on a logarithmic scale.
     */
    public static Tensor logspace(double start, double end, long steps, double base, DType dtype) {
        return Creation.LOGSPACE.call1(start, end, steps, base, dtype, null);
    }

    // ---- conversion -----------------------------------------------------------------------------

    /** {@code torch.clone}: returns a copy of {@code input}. */
    public static Tensor clone(Tensor t) {
        return CopyOps.clone(t);
    }

    // ---- pointwise ------------------------------------------------------------------------------

    private static Tensor call(OpDef op, Object... args) {
        return op.call1(args);
    }

    /** {@code torch.add}: adds {@code other}, scaled by {@code alpha}, to {@code input}. */
    public static Tensor add(Tensor a, Tensor b) {
        return call(PointwiseOps.ADD, a, b);
    }

    /** {@code torch.add}: adds {@code other}, scaled by {@code alpha}, to {@code input}. */
    public static Tensor add(Tensor a, Tensor b, double alpha) {
        return call(PointwiseOps.ADD, a, b, Tensor.alphaOf(a, b, alpha));
    }

    /** {@code torch.add}: adds {@code other}, scaled by {@code alpha}, to {@code input}. */
    public static Tensor add(Tensor a, double b) {
        return call(PointwiseOps.ADD, a, b);
    }

    /** {@code torch.add}: adds {@code other}, scaled by {@code alpha}, to {@code input}. */
    public static Tensor add(Tensor a, long b) {
        return call(PointwiseOps.ADD, a, b);
    }

    /** {@code torch.add(input, True)}: a weak bool scalar, so {@code input}'s dtype is kept. */
    public static Tensor add(Tensor a, boolean b) {
        return call(PointwiseOps.ADD, a, b);
    }

    /** {@code torch.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}. */
    public static Tensor sub(Tensor a, Tensor b) {
        return call(PointwiseOps.SUB, a, b);
    }

    /** {@code torch.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}. */
    public static Tensor sub(Tensor a, Tensor b, double alpha) {
        return call(PointwiseOps.SUB, a, b, Tensor.alphaOf(a, b, alpha));
    }

    /** {@code torch.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}. */
    public static Tensor sub(Tensor a, double b) {
        return call(PointwiseOps.SUB, a, b);
    }

    /** {@code torch.sub}: subtracts {@code other}, scaled by {@code alpha}, from {@code input}. */
    public static Tensor sub(Tensor a, long b) {
        return call(PointwiseOps.SUB, a, b);
    }

    /** {@code torch.rsub(a, b)} = {@code b - a}. */
    public static Tensor rsub(Tensor a, double b) {
        return call(PointwiseOps.ADD, call(PointwiseOps.NEG, a), b);
    }

    /** {@code torch.mul}: multiplies {@code input} by {@code other}. */
    public static Tensor mul(Tensor a, Tensor b) {
        return call(PointwiseOps.MUL, a, b);
    }

    /** {@code torch.mul}: multiplies {@code input} by {@code other}. */
    public static Tensor mul(Tensor a, double b) {
        return call(PointwiseOps.MUL, a, b);
    }

    /** {@code torch.mul}: multiplies {@code input} by {@code other}. */
    public static Tensor mul(Tensor a, long b) {
        return call(PointwiseOps.MUL, a, b);
    }

    /**
     * {@code torch.div}: divides each element of the input {@code input} by the corresponding element of {@code other}.
     */
    public static Tensor div(Tensor a, Tensor b) {
        return call(PointwiseOps.DIV, a, b);
    }

    /**
     * {@code torch.div}: divides each element of the input {@code input} by the corresponding element of {@code other}.
     */
    public static Tensor div(Tensor a, double b) {
        return call(PointwiseOps.DIV, a, b);
    }

    /**
     * {@code torch.div}: divides each element of the input {@code input} by the corresponding element of {@code other}.
     */
    public static Tensor div(Tensor a, long b) {
        return call(PointwiseOps.DIV, a, b);
    }

    /** {@code torch.div(a, b, rounding_mode=...)}. */
    public static Tensor div(Tensor a, Object b, RoundingMode mode) {
        return switch (mode) {
            case NONE -> call(PointwiseOps.DIV, a, b);
            case TRUNC -> call(PointwiseOps.DIV_ROUNDING, a, b, "trunc");
            case FLOOR -> call(PointwiseOps.DIV_ROUNDING, a, b, "floor");
        };
    }

    /** {@code torch.floor_divide}: divides element-wise and rounds each quotient down to the nearest integer. */
    public static Tensor floorDivide(Tensor a, Object b) {
        return call(PointwiseOps.DIV_FLOOR, a, b);
    }

    /**
     * {@code torch.remainder}: the remainder of division, element-wise, with the sign of the divisor (Python's
     * {@code %}).
     */
    public static Tensor remainder(Tensor a, Object b) {
        return call(PointwiseOps.REMAINDER, a, b);
    }

    /**
     * {@code torch.fmod}: the remainder of division, element-wise, with the sign of the dividend (C++'s
     * {@code std::fmod}).
     */
    public static Tensor fmod(Tensor a, Object b) {
        return call(PointwiseOps.FMOD, a, b);
    }

    /**
     * {@code torch.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result.
     */
    public static Tensor pow(Tensor a, Tensor b) {
        return call(PointwiseOps.POW, a, b);
    }

    /**
     * {@code torch.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result.
     */
    public static Tensor pow(Tensor a, double b) {
        return call(PointwiseOps.POW, a, b);
    }

    /**
     * {@code torch.pow}: takes the power of each element in {@code input} with {@code exponent} and returns a tensor
     * with the result.
     */
    public static Tensor pow(Tensor a, long b) {
        return call(PointwiseOps.POW, a, b);
    }

    /**
     * {@code torch.pow(input, True)}: a weak bool exponent (1 or 0), so {@code input}'s dtype is kept ({@code x **
     * False} is all ones).
     */
    public static Tensor pow(Tensor a, boolean b) {
        return call(PointwiseOps.POW, a, b);
    }

    /** {@code torch.pow(scalar, tensor)}. */
    public static Tensor pow(double a, Tensor b) {
        return call(PointwiseOps.POW, Creation.scalarTensor(Scalar.of(a), resultType(b, a)), b);
    }

    /**
     * {@code torch.atan2}: element-wise arctangent of {@code input / other}, with the quadrant taken from the signs of
     * both.
     */
    public static Tensor atan2(Tensor a, Tensor b) {
        return call(PointwiseOps.ATAN2, a, b);
    }

    /** {@code torch.hypot}: given the legs of a right triangle, return its hypotenuse. */
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

    /**
     * {@code torch.copysign}: create a new floating-point tensor with the magnitude of {@code input} and the sign of
     * {@code other}, elementwise.
     */
    public static Tensor copysign(Tensor a, Object b) {
        return call(PointwiseOps.COPYSIGN, a, b);
    }

    /** {@code torch.xlogy}: alias for {@code torch.special.xlogy}. */
    public static Tensor xlogy(Tensor a, Object b) {
        return call(PointwiseOps.XLOGY, a, b);
    }

    /** {@code torch.maximum}: computes the element-wise maximum of {@code input} and {@code other}. */
    public static Tensor maximum(Tensor a, Tensor b) {
        return call(PointwiseOps.MAXIMUM, a, b);
    }

    /** {@code torch.minimum}: computes the element-wise minimum of {@code input} and {@code other}. */
    public static Tensor minimum(Tensor a, Tensor b) {
        return call(PointwiseOps.MINIMUM, a, b);
    }

    /** {@code torch.fmax}: computes the element-wise maximum of {@code input} and {@code other}. */
    public static Tensor fmax(Tensor a, Tensor b) {
        return call(PointwiseOps.FMAX, a, b);
    }

    /** {@code torch.fmin}: computes the element-wise minimum of {@code input} and {@code other}. */
    public static Tensor fmin(Tensor a, Tensor b) {
        return call(PointwiseOps.FMIN, a, b);
    }

    /** {@code torch.eq}: computes element-wise equality. */
    public static Tensor eq(Tensor a, Object b) {
        return call(PointwiseOps.EQ, a, b);
    }

    /** {@code torch.ne}: computes {@code input != other} element-wise. */
    public static Tensor ne(Tensor a, Object b) {
        return call(PointwiseOps.NE, a, b);
    }

    /** {@code torch.lt}: computes {@code input < other} element-wise. */
    public static Tensor lt(Tensor a, Object b) {
        return call(PointwiseOps.LT, a, b);
    }

    /** {@code torch.le}: computes {@code input <= other} element-wise. */
    public static Tensor le(Tensor a, Object b) {
        return call(PointwiseOps.LE, a, b);
    }

    /** {@code torch.gt}: computes {@code input > other} element-wise. */
    public static Tensor gt(Tensor a, Object b) {
        return call(PointwiseOps.GT, a, b);
    }

    /** {@code torch.ge}: computes {@code input >= other} element-wise. */
    public static Tensor ge(Tensor a, Object b) {
        return call(PointwiseOps.GE, a, b);
    }

    /** {@code torch.logical_and}: computes the element-wise logical AND of the given input tensors. */
    public static Tensor logicalAnd(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_AND, a, b);
    }

    /** {@code torch.logical_or}: computes the element-wise logical OR of the given input tensors. */
    public static Tensor logicalOr(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_OR, a, b);
    }

    /** {@code torch.logical_xor}: computes the element-wise logical XOR of the given input tensors. */
    public static Tensor logicalXor(Tensor a, Object b) {
        return call(PointwiseOps.LOGICAL_XOR, a, b);
    }

    /** {@code torch.logical_not}: computes the element-wise logical NOT of the given input tensor. */
    public static Tensor logicalNot(Tensor a) {
        return call(PointwiseOps.LOGICAL_NOT, a);
    }

    /** {@code torch.bitwise_and}: computes the bitwise AND of {@code input} and {@code other}. */
    public static Tensor bitwiseAnd(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_AND, a, b);
    }

    /** {@code torch.bitwise_or}: computes the bitwise OR of {@code input} and {@code other}. */
    public static Tensor bitwiseOr(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_OR, a, b);
    }

    /** {@code torch.bitwise_xor}: computes the bitwise XOR of {@code input} and {@code other}. */
    public static Tensor bitwiseXor(Tensor a, Object b) {
        return call(PointwiseOps.BITWISE_XOR, a, b);
    }

    /** {@code torch.bitwise_not}: computes the bitwise NOT of the given input tensor. */
    public static Tensor bitwiseNot(Tensor a) {
        return call(PointwiseOps.BITWISE_NOT, a);
    }

    /** {@code torch.bitwise_left_shift}: computes the left arithmetic shift of {@code input} by {@code other} bits. */
    public static Tensor bitwiseLeftShift(Tensor a, Object b) {
        return call(PointwiseOps.SHIFT_LEFT, a, b);
    }

    /**
     * {@code torch.bitwise_right_shift}: computes the right arithmetic shift of {@code input} by {@code other} bits.
     */
    public static Tensor bitwiseRightShift(Tensor a, Object b) {
        return call(PointwiseOps.SHIFT_RIGHT, a, b);
    }

    /** {@code torch.neg}: returns a new tensor with the negative of the elements of {@code input}. */
    public static Tensor neg(Tensor x) {
        return call(PointwiseOps.NEG, x);
    }

    /** {@code torch.abs}: computes the absolute value of each element in {@code input}. */
    public static Tensor abs(Tensor x) {
        return call(PointwiseOps.ABS, x);
    }

    /** {@code torch.sign}: returns a new tensor with the signs of the elements of {@code input}. */
    public static Tensor sign(Tensor x) {
        return call(PointwiseOps.SIGN, x);
    }

    /** {@code torch.sgn}: this function is an extension of torch.sign() to complex tensors. */
    public static Tensor sgn(Tensor x) {
        return call(PointwiseOps.SGN, x);
    }

    /** {@code torch.reciprocal}: returns a new tensor with the reciprocal of the elements of {@code input}. */
    public static Tensor reciprocal(Tensor x) {
        return call(PointwiseOps.RECIPROCAL, x);
    }

    /** {@code torch.square}: returns a new tensor with the square of the elements of {@code input}. */
    public static Tensor square(Tensor x) {
        return call(PointwiseOps.SQUARE, x);
    }

    /**
     * {@code torch.exp}: returns a new tensor with the exponential of the elements of the input tensor {@code input}.
     */
    public static Tensor exp(Tensor x) {
        return call(PointwiseOps.EXP, x);
    }

    /** {@code torch.exp2}: alias for {@code torch.special.exp2}. */
    public static Tensor exp2(Tensor x) {
        return call(PointwiseOps.EXP2, x);
    }

    /** {@code torch.expm1}: alias for {@code torch.special.expm1}. */
    public static Tensor expm1(Tensor x) {
        return call(PointwiseOps.EXPM1, x);
    }

    /** {@code torch.log}: returns a new tensor with the natural logarithm of the elements of {@code input}. */
    public static Tensor log(Tensor x) {
        return call(PointwiseOps.LOG, x);
    }

    /** {@code torch.log2}: returns a new tensor with the logarithm to the base 2 of the elements of {@code input}. */
    public static Tensor log2(Tensor x) {
        return call(PointwiseOps.LOG2, x);
    }

    /** {@code torch.log10}: returns a new tensor with the logarithm to the base 10 of the elements of {@code input}. */
    public static Tensor log10(Tensor x) {
        return call(PointwiseOps.LOG10, x);
    }

    /** {@code torch.log1p}: returns a new tensor with the natural logarithm of (1 + {@code input}). */
    public static Tensor log1p(Tensor x) {
        return call(PointwiseOps.LOG1P, x);
    }

    /** {@code torch.sqrt}: returns a new tensor with the square-root of the elements of {@code input}. */
    public static Tensor sqrt(Tensor x) {
        return call(PointwiseOps.SQRT, x);
    }

    /**
     * {@code torch.rsqrt}: returns a new tensor with the reciprocal of the square-root of each of the elements of
     * {@code input}.
     */
    public static Tensor rsqrt(Tensor x) {
        return call(PointwiseOps.RSQRT, x);
    }

    /**
     * {@code torch.sin}: returns a new tensor with the sine of the elements in the {@code input} tensor, where each
     * value in this input tensor is in radians.
     */
    public static Tensor sin(Tensor x) {
        return call(PointwiseOps.SIN, x);
    }

    /** {@code torch.cos}: returns a new tensor with the cosine of the elements of {@code input} given in radians. */
    public static Tensor cos(Tensor x) {
        return call(PointwiseOps.COS, x);
    }

    /**
     * {@code torch.tan}: returns a new tensor with the tangent of the elements in the {@code input} tensor, where each
     * value in this input tensor is in radians.
     */
    public static Tensor tan(Tensor x) {
        return call(PointwiseOps.TAN, x);
    }

    /**
     * {@code torch.asin}: returns a new tensor with the arcsine of the elements (in radians) in the {@code input}
     * tensor.
     */
    public static Tensor asin(Tensor x) {
        return call(PointwiseOps.ASIN, x);
    }

    /** {@code torch.acos}: returns a new tensor with the arccosine (in radians) of each element in {@code input}. */
    public static Tensor acos(Tensor x) {
        return call(PointwiseOps.ACOS, x);
    }

    /**
     * {@code torch.atan}: returns a new tensor with the arctangent of the elements (in radians) in the {@code input}
     * tensor.
     */
    public static Tensor atan(Tensor x) {
        return call(PointwiseOps.ATAN, x);
    }

    /** {@code torch.sinh}: returns a new tensor with the hyperbolic sine of the elements of {@code input}. */
    public static Tensor sinh(Tensor x) {
        return call(PointwiseOps.SINH, x);
    }

    /** {@code torch.cosh}: returns a new tensor with the hyperbolic cosine of the elements of {@code input}. */
    public static Tensor cosh(Tensor x) {
        return call(PointwiseOps.COSH, x);
    }

    /** {@code torch.tanh}: returns a new tensor with the hyperbolic tangent of the elements of {@code input}. */
    public static Tensor tanh(Tensor x) {
        return call(PointwiseOps.TANH, x);
    }

    /** {@code torch.asinh}: returns a new tensor with the inverse hyperbolic sine of the elements of {@code input}. */
    public static Tensor asinh(Tensor x) {
        return call(PointwiseOps.ASINH, x);
    }

    /**
     * {@code torch.acosh}: returns a new tensor with the inverse hyperbolic cosine of the elements of {@code input}.
     */
    public static Tensor acosh(Tensor x) {
        return call(PointwiseOps.ACOSH, x);
    }

    /**
     * {@code torch.atanh}: returns a new tensor with the inverse hyperbolic tangent of the elements of {@code input}.
     */
    public static Tensor atanh(Tensor x) {
        return call(PointwiseOps.ATANH, x);
    }

    /** {@code torch.sigmoid}: alias for {@code torch.special.expit}. */
    public static Tensor sigmoid(Tensor x) {
        return call(PointwiseOps.SIGMOID, x);
    }

    /** {@code torch.logit}: alias for {@code torch.special.logit}. */
    public static Tensor logit(Tensor x) {
        return call(PointwiseOps.LOGIT, x, null);
    }

    /** {@code torch.logit}: alias for {@code torch.special.logit}. */
    public static Tensor logit(Tensor x, double eps) {
        return call(PointwiseOps.LOGIT, x, eps);
    }

    /** {@code Tensor.relu}: applies the rectified linear unit {@code max(0, x)} element-wise. */
    public static Tensor relu(Tensor x) {
        return call(PointwiseOps.RELU, x);
    }

    /** {@code torch.nn.functional.silu}: apply the Sigmoid Linear Unit (SiLU) function, element-wise. */
    public static Tensor silu(Tensor x) {
        return call(PointwiseOps.SILU, x);
    }

    /**
     * {@code torch.nn.functional.gelu}: applies the Gaussian Error Linear Unit {@code x * Phi(x)} element-wise (the
     * exact form, {@code approximate='none'}).
     */
    public static Tensor gelu(Tensor x) {
        return call(PointwiseOps.GELU, x, "none");
    }

    /** {@code torch.nn.functional.gelu(x, approximate)} with {@code "none"} or {@code "tanh"}. */
    public static Tensor gelu(Tensor x, String approximate) {
        if (!approximate.equals("none") && !approximate.equals("tanh")) {
            throw new IllegalArgumentException("gelu: approximate argument must be either none or tanh.");
        }
        return call(PointwiseOps.GELU, x, approximate);
    }

    /**
     * {@code torch.nn.functional.softplus}: applies {@code 1/beta * log(1 + exp(beta * x))} element-wise, reverting to
     * the identity where {@code beta * x > threshold}.
     */
    public static Tensor softplus(Tensor x) {
        return call(PointwiseOps.SOFTPLUS, x, 1.0, 20.0);
    }

    /**
     * {@code torch.nn.functional.softplus}: applies {@code 1/beta * log(1 + exp(beta * x))} element-wise, reverting to
     * the identity where {@code beta * x > threshold}.
     */
    public static Tensor softplus(Tensor x, double beta, double threshold) {
        return call(PointwiseOps.SOFTPLUS, x, beta, threshold);
    }

    /** {@code torch.erf}: alias for {@code torch.special.erf}. */
    public static Tensor erf(Tensor x) {
        return call(PointwiseOps.ERF, x);
    }

    /** {@code torch.erfc}: alias for {@code torch.special.erfc}. */
    public static Tensor erfc(Tensor x) {
        return call(PointwiseOps.ERFC, x);
    }

    /** {@code torch.erfinv}: alias for {@code torch.special.erfinv}. */
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

    /**
     * {@code torch.grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners)}: {@code F.grid_sample}
     * below its mode names (interpolation 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros, 1 border, 2 reflection).
     */
    public static Tensor gridSampler(
            Tensor input, Tensor grid, long interpolationMode, long paddingMode, boolean alignCorners) {
        return GridSampleOps.GRID_SAMPLER.call1(input, grid, interpolationMode, paddingMode, alignCorners);
    }

    /**
     * {@code torch.affine_grid_generator(theta, size, align_corners)}: {@code F.affine_grid} without its checks' words.
     */
    public static Tensor affineGridGenerator(Tensor theta, long[] size, boolean alignCorners) {
        return GridSampleOps.AFFINE_GRID_GENERATOR.call1(theta, size.clone(), alignCorners);
    }

    /**
     * {@code torch._C._nn.im2col(self, kernel_size, dilation, padding, stride)}: {@code F.unfold} with every argument
     * given as a pair.
     */
    public static Tensor im2col(Tensor self, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        return FoldOps.IM2COL.call1(self, kernelSize.clone(), dilation.clone(), padding.clone(), stride.clone());
    }

    /**
     * {@code torch._C._nn.col2im(self, output_size, kernel_size, dilation, padding, stride)}: {@code F.fold} with every
     * argument given as a pair.
     */
    public static Tensor col2im(
            Tensor self, long[] outputSize, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        return FoldOps.COL2IM.call1(
                self, outputSize.clone(), kernelSize.clone(), dilation.clone(), padding.clone(), stride.clone());
    }

    /**
     * {@code torch.adaptive_max_pool1d(self, output_size)}: the maximum of each adaptive window of the last dim and its
     * position ({@code F.adaptiveMaxPool1d} gives the values alone).
     */
    public static ValuesIndices adaptiveMaxPool1d(Tensor self, long[] outputSize) {
        return valuesIndices(AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL1D.call(self, outputSize.clone()));
    }

    /**
     * {@code torch._C._nn.adaptive_max_pool2d(self, output_size)}: the maximum of each adaptive window of the last two
     * dims and its flat position in the plane.
     */
    public static ValuesIndices adaptiveMaxPool2d(Tensor self, long[] outputSize) {
        return valuesIndices(AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D.call(self, outputSize.clone()));
    }

    /**
     * {@code torch._C._nn.adaptive_max_pool3d(self, output_size)}: the maximum of each adaptive window of the last
     * three dims and its flat position in the volume.
     */
    public static ValuesIndices adaptiveMaxPool3d(Tensor self, long[] outputSize) {
        return valuesIndices(AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL3D.call(self, outputSize.clone()));
    }

    private static ValuesIndices valuesIndices(Object result) {
        Tensor[] r = (Tensor[]) result;
        return new ValuesIndices(r[0], r[1]);
    }

    /**
     * {@code torch._C._nn.max_unpool2d(self, indices, output_size)}: each value written at its flat index of a zero
     * plane of {@code outputSize} (F.maxUnpool2d works the size out from the kernel).
     */
    public static Tensor maxUnpool2d(Tensor self, Tensor indices, long[] outputSize) {
        return MaxUnpoolOps.MAX_UNPOOL2D.call1(self, indices, outputSize.clone());
    }

    /**
     * {@code torch._C._nn.max_unpool3d(self, indices, output_size, stride, padding)}: as {@link #maxUnpool2d} in 3-d.
     */
    public static Tensor maxUnpool3d(Tensor self, Tensor indices, long[] outputSize, long[] stride, long[] padding) {
        return MaxUnpoolOps.MAX_UNPOOL3D.call1(self, indices, outputSize.clone(), stride.clone(), padding.clone());
    }

    /** {@code torch.lgamma}: log|Γ(x)|. */
    public static Tensor lgamma(Tensor x) {
        return call(PointwiseOps.LGAMMA, x);
    }

    /** {@code torch.digamma}: ψ(x), the derivative of lgamma. */
    public static Tensor digamma(Tensor x) {
        return call(PointwiseOps.DIGAMMA, x);
    }

    /** {@code torch.sinc}: the normalised sinc, sin(πx)/(πx), and 1 at 0. */
    public static Tensor sinc(Tensor x) {
        return SpecialPointwiseOps.sinc(x);
    }

    /** {@code torch.i0}: the modified Bessel function of the first kind of order 0, I₀(x). */
    public static Tensor i0(Tensor x) {
        return SpecialPointwiseOps.i0(x);
    }

    /** {@code torch.special.i1}: the modified Bessel function of the first kind of order 1, I₁(x). */
    public static Tensor specialI1(Tensor x) {
        return SpecialPointwiseOps.i1(x);
    }

    /**
     * {@code torch.igamma(input, other)}: the regularized lower incomplete gamma function P(input, other), over
     * broadcast floating tensors; NaN outside a, x >= 0. Differentiable in {@code other} only, as in PyTorch.
     */
    public static Tensor igamma(Tensor a, Tensor x) {
        return call(IncompleteGammaOps.IGAMMA, a, x);
    }

    /** {@code torch.igammac(input, other)}: the regularized upper incomplete gamma function Q = 1 - P. */
    public static Tensor igammac(Tensor a, Tensor x) {
        return call(IncompleteGammaOps.IGAMMAC, a, x);
    }

    /** {@code torch.special.gammainc(input, other)}: alias for {@link #igamma}. */
    public static Tensor specialGammainc(Tensor a, Tensor x) {
        return call(IncompleteGammaOps.IGAMMA, a, x);
    }

    /** {@code torch.special.gammaincc(input, other)}: alias for {@link #igammac}. */
    public static Tensor specialGammaincc(Tensor a, Tensor x) {
        return call(IncompleteGammaOps.IGAMMAC, a, x);
    }

    /**
     * {@code torch.heaviside(input, values)}: 0 where input &lt; 0, 1 where input &gt; 0 and {@code values} where input
     * is 0; both tensors must have one (non-complex) dtype. Not differentiable.
     */
    public static Tensor heaviside(Tensor x, Tensor values) {
        return SpecialPointwiseOps.heaviside(x, values);
    }

    /** {@code torch.polygamma(n, x)}: ψ⁽ⁿ⁾(x), the n-th derivative of digamma (n >= 0). */
    public static Tensor polygamma(long n, Tensor x) {
        return call(PointwiseOps.POLYGAMMA, n, x);
    }

    /**
     * {@code torch.deg2rad}: returns a new tensor with each of the elements of {@code input} converted from angles in
     * degrees to radians.
     */
    public static Tensor deg2rad(Tensor x) {
        return call(PointwiseOps.DEG2RAD, x);
    }

    /**
     * {@code torch.rad2deg}: returns a new tensor with each of the elements of {@code input} converted from angles in
     * radians to degrees.
     */
    public static Tensor rad2deg(Tensor x) {
        return call(PointwiseOps.RAD2DEG, x);
    }

    /**
     * {@code torch.floor}: returns a new tensor with the floor of the elements of {@code input}, the largest integer
     * less than or equal to each element.
     */
    public static Tensor floor(Tensor x) {
        return call(PointwiseOps.FLOOR, x);
    }

    /**
     * {@code torch.ceil}: returns a new tensor with the ceil of the elements of {@code input}, the smallest integer
     * greater than or equal to each element.
     */
    public static Tensor ceil(Tensor x) {
        return call(PointwiseOps.CEIL, x);
    }

    /** {@code torch.trunc}: returns a new tensor with the truncated integer values of the elements of {@code input}. */
    public static Tensor trunc(Tensor x) {
        return call(PointwiseOps.TRUNC, x);
    }

    /** {@code torch.frac}: computes the fractional portion of each element in {@code input}. */
    public static Tensor frac(Tensor x) {
        return call(PointwiseOps.FRAC, x);
    }

    /** {@code torch.round}: rounds elements of {@code input} to the nearest integer. */
    public static Tensor round(Tensor x) {
        return call(PointwiseOps.ROUND, x, 0L);
    }

    /** {@code torch.round}: rounds elements of {@code input} to the nearest integer. */
    public static Tensor round(Tensor x, long decimals) {
        return call(PointwiseOps.ROUND, x, decimals);
    }

    /**
     * {@code torch.isnan}: returns a new tensor with boolean elements representing if each element of {@code input} is
     * NaN or not.
     */
    public static Tensor isnan(Tensor x) {
        return call(PointwiseOps.ISNAN, x);
    }

    /**
     * {@code torch.isinf}: tests if each element of {@code input} is infinite (positive or negative infinity) or not.
     */
    public static Tensor isinf(Tensor x) {
        return call(PointwiseOps.ISINF, x);
    }

    /**
     * {@code torch.isfinite}: returns a new tensor with boolean elements representing if each element is finite or not.
     */
    public static Tensor isfinite(Tensor x) {
        return call(PointwiseOps.ISFINITE, x);
    }

    /** {@code torch.isposinf}: tests if each element of {@code input} is positive infinity or not. */
    public static Tensor isposinf(Tensor x) {
        return call(PointwiseOps.ISPOSINF, x);
    }

    /** {@code torch.isneginf}: tests if each element of {@code input} is negative infinity or not. */
    public static Tensor isneginf(Tensor x) {
        return call(PointwiseOps.ISNEGINF, x);
    }

    /** {@code torch.signbit}: tests if each element of {@code input} has its sign bit set or not. */
    public static Tensor signbit(Tensor x) {
        return call(PointwiseOps.SIGNBIT, x);
    }

    /**
     * {@code torch.nan_to_num}: replaces NaN, positive infinity, and negative infinity values in {@code input} with the
     * values specified by {@code nan}, {@code posinf}, and {@code neginf}, respectively.
     */
    public static Tensor nanToNum(Tensor x) {
        return call(PointwiseOps.NAN_TO_NUM, x, null, null, null);
    }

    /** {@code torch.nan_to_num(x, nan, posinf, neginf)}; a null bound keeps the dtype's default (0, ±max finite). */
    public static Tensor nanToNum(Tensor x, Double nan, Double posinf, Double neginf) {
        return call(PointwiseOps.NAN_TO_NUM, x, nan, posinf, neginf);
    }

    /** {@code torch.angle}: computes the element-wise angle (in radians) of the given {@code input} tensor. */
    public static Tensor angle(Tensor x) {
        return call(PointwiseOps.ANGLE, x);
    }

    // ---- out= forms (PyTorch's torch.add(a, b, out=c)) ----------------------------------------------

    /** {@code torch.add(input, other, out=out)}: writes the element-wise sum into {@code out} and returns it. */
    public static Tensor addOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {out}, a, b);
        return out;
    }

    /** {@code torch.sub(input, other, out=out)}: writes the element-wise difference into {@code out} and returns it. */
    public static Tensor subOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.SUB, new Tensor[] {out}, a, b);
        return out;
    }

    /** {@code torch.mul(input, other, out=out)}: writes the element-wise product into {@code out} and returns it. */
    public static Tensor mulOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.MUL, new Tensor[] {out}, a, b);
        return out;
    }

    /**
     * {@code torch.div(input, other, out=out)}: writes the element-wise true quotient into {@code out} and returns it.
     */
    public static Tensor divOut(Tensor out, Tensor a, Tensor b) {
        Dispatcher.callOut(PointwiseOps.DIV, new Tensor[] {out}, a, b);
        return out;
    }

    /** {@code torch.exp(input, out=out)}: writes the element-wise exponential into {@code out} and returns it. */
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

    /**
     * {@code Tensor.view}: returns a new tensor with the same data as the {@code self} tensor but of a different
     * {@code shape}.
     */
    public static Tensor view(Tensor self, long... size) {
        return ShapeOps.view(self, size);
    }

    /**
     * {@code torch.reshape}: returns a tensor with the same data and number of elements as {@code input}, but with the
     * specified shape.
     */
    public static Tensor reshape(Tensor self, long... shape) {
        return ShapeOps.reshape(self, shape);
    }

    /** {@code torch.permute}: returns a view of the original tensor {@code input} with its dimensions permuted. */
    public static Tensor permute(Tensor self, int... dims) {
        return ShapeOps.permute(self, dims);
    }

    /** {@code torch.transpose}: returns a tensor that is a transposed version of {@code input}. */
    public static Tensor transpose(Tensor self, int dim0, int dim1) {
        return ShapeOps.transpose(self, dim0, dim1);
    }

    /** {@code torch.swapaxes}: alias for {@code torch.transpose}. */
    public static Tensor swapaxes(Tensor self, int axis0, int axis1) {
        return ShapeOps.swapaxes(self, axis0, axis1);
    }

    /** {@code torch.t}: expects {@code input} to be &lt;= 2-D tensor and transposes dimensions 0 and 1. */
    public static Tensor t(Tensor self) {
        return ShapeOps.t(self);
    }

    /** {@code Tensor.mT}: a view of the tensor with its last two dimensions transposed. */
    public static Tensor mT(Tensor self) {
        return ShapeOps.mT(self);
    }

    /**
     * {@code Tensor.expand}: returns a new view of the {@code self} tensor with singleton dimensions expanded to a
     * larger size.
     */
    public static Tensor expand(Tensor self, long... size) {
        return ShapeOps.expand(self, size);
    }

    /** {@code torch.broadcast_to}: broadcasts {@code input} to the shape {@code size}, as a view. */
    public static Tensor broadcastTo(Tensor self, long... size) {
        return ShapeOps.broadcastTo(self, size);
    }

    /** {@code torch.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed. */
    public static Tensor squeeze(Tensor self) {
        return ShapeOps.squeeze(self);
    }

    /** {@code torch.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed. */
    public static Tensor squeeze(Tensor self, int dim) {
        return ShapeOps.squeeze(self, dim);
    }

    /** {@code torch.squeeze}: returns a tensor with all specified dimensions of {@code input} of size 1 removed. */
    public static Tensor squeeze(Tensor self, int... dims) {
        return ShapeOps.squeeze(self, dims);
    }

    /**
     * {@code torch.unsqueeze}: returns a new tensor with a dimension of size one inserted at the specified position.
     */
    public static Tensor unsqueeze(Tensor self, int dim) {
        return ShapeOps.unsqueeze(self, dim);
    }

    /** {@code torch.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor. */
    public static Tensor flatten(Tensor self) {
        return ShapeOps.flatten(self);
    }

    /** {@code torch.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor. */
    public static Tensor flatten(Tensor self, int startDim) {
        return ShapeOps.flatten(self, startDim);
    }

    /** {@code torch.flatten}: flattens {@code input} by reshaping it into a one-dimensional tensor. */
    public static Tensor flatten(Tensor self, int startDim, int endDim) {
        return ShapeOps.flatten(self, startDim, endDim);
    }

    /** {@code torch.unflatten}: expands a dimension of the input tensor over multiple dimensions. */
    public static Tensor unflatten(Tensor self, int dim, long... sizes) {
        return ShapeOps.unflatten(self, dim, sizes);
    }

    /** {@code torch.narrow}: returns a new tensor that is a narrowed version of {@code input} tensor. */
    public static Tensor narrow(Tensor self, int dim, long start, long length) {
        return ShapeOps.narrow(self, dim, start, length);
    }

    /** {@code torch.select}: slices the {@code input} tensor along the selected dimension at the given index. */
    public static Tensor select(Tensor self, int dim, long index) {
        return ShapeOps.select(self, dim, index);
    }

    /**
     * {@code torch.ops.aten.slice}: the view {@code self[..., start:end:step]} along {@code dim} (ATen's
     * {@code aten::slice.Tensor}); a null bound is open.
     */
    public static Tensor slice(Tensor self, int dim, Long start, Long end, long step) {
        return ShapeOps.slice(self, dim, start, end, step);
    }

    /**
     * {@code torch.ops.aten.slice}: the view {@code self[..., start:end:step]} along {@code dim} (ATen's
     * {@code aten::slice.Tensor}); a null bound is open.
     */
    public static Tensor slice(Tensor self, int dim, long start, long end) {
        return ShapeOps.slice(self, dim, start, end);
    }

    /** {@code torch.chunk}: attempts to split a tensor into the specified number of chunks. */
    public static List<Tensor> chunk(Tensor self, int chunks) {
        return ShapeOps.chunk(self, chunks);
    }

    /** {@code torch.chunk}: attempts to split a tensor into the specified number of chunks. */
    public static List<Tensor> chunk(Tensor self, int chunks, int dim) {
        return ShapeOps.chunk(self, chunks, dim);
    }

    /** {@code torch.split}: splits the tensor into chunks. */
    public static List<Tensor> split(Tensor self, long splitSize) {
        return ShapeOps.split(self, splitSize);
    }

    /** {@code torch.split}: splits the tensor into chunks. */
    public static List<Tensor> split(Tensor self, long splitSize, int dim) {
        return ShapeOps.split(self, splitSize, dim);
    }

    /** {@code torch.split}: splits the tensor into chunks. */
    public static List<Tensor> split(Tensor self, long[] splitSizes) {
        return ShapeOps.split(self, splitSizes);
    }

    /** {@code torch.split}: splits the tensor into chunks. */
    public static List<Tensor> split(Tensor self, long[] splitSizes, int dim) {
        return ShapeOps.split(self, splitSizes, dim);
    }
    /** {@code torch.split_with_sizes}: what {@link #split(Tensor, long[])} runs. */
    public static List<Tensor> splitWithSizes(Tensor self, long[] splitSizes) {
        return ShapeOps.split(self, splitSizes);
    }

    /** {@code Tensor.split_with_sizes}: splits the tensor along {@code dim} into views of the given sizes. */
    public static List<Tensor> splitWithSizes(Tensor self, long[] splitSizes, int dim) {
        return ShapeOps.split(self, splitSizes, dim);
    }

    /** {@code torch.unbind}: removes a tensor dimension. */
    public static List<Tensor> unbind(Tensor self) {
        return ShapeOps.unbind(self);
    }

    /** {@code torch.unbind}: removes a tensor dimension. */
    public static List<Tensor> unbind(Tensor self, int dim) {
        return ShapeOps.unbind(self, dim);
    }

    /**
     * {@code torch.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape.
     */
    public static Tensor diagonal(Tensor self) {
        return ShapeOps.diagonal(self);
    }

    /**
     * {@code torch.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape.
     */
    public static Tensor diagonal(Tensor self, long offset) {
        return ShapeOps.diagonal(self, offset);
    }

    /**
     * {@code torch.diagonal}: returns a partial view of {@code input} with the its diagonal elements with respect to
     * {@code dim1} and {@code dim2} appended as a dimension at the end of the shape.
     */
    public static Tensor diagonal(Tensor self, long offset, int dim1, int dim2) {
        return ShapeOps.diagonal(self, offset, dim1, dim2);
    }

    /**
     * {@code torch.movedim}: moves the dimension(s) of {@code input} at the position(s) in {@code source} to the
     * position(s) in {@code destination}.
     */
    public static Tensor movedim(Tensor self, int source, int destination) {
        return ShapeOps.movedim(self, source, destination);
    }

    /**
     * {@code torch.movedim}: moves the dimension(s) of {@code input} at the position(s) in {@code source} to the
     * position(s) in {@code destination}.
     */
    public static Tensor movedim(Tensor self, int[] source, int[] destination) {
        return ShapeOps.movedim(self, source, destination);
    }

    /**
     * {@code torch.as_strided}: create a view of an existing torch.Tensor {@code input} with specified {@code size},
     * {@code stride} and {@code storage_offset}.
     */
    public static Tensor asStrided(Tensor self, long[] size, long[] stride) {
        return ShapeOps.asStrided(self, size, stride);
    }

    /**
     * {@code torch.as_strided}: create a view of an existing torch.Tensor {@code input} with specified {@code size},
     * {@code stride} and {@code storage_offset}.
     */
    public static Tensor asStrided(Tensor self, long[] size, long[] stride, long storageOffset) {
        return ShapeOps.asStrided(self, size, stride, storageOffset);
    }

    /** {@code torch.cat}: concatenates the given sequence of tensors in {@code tensors} in the given dimension. */
    public static Tensor cat(List<Tensor> tensors) {
        return JoinOps.cat(tensors);
    }

    /** {@code torch.cat}: concatenates the given sequence of tensors in {@code tensors} in the given dimension. */
    public static Tensor cat(List<Tensor> tensors, int dim) {
        return JoinOps.cat(tensors, dim);
    }

    /** {@code torch.stack}: concatenates a sequence of tensors along a new dimension. */
    public static Tensor stack(List<Tensor> tensors) {
        return JoinOps.stack(tensors);
    }

    /** {@code torch.stack}: concatenates a sequence of tensors along a new dimension. */
    public static Tensor stack(List<Tensor> tensors, int dim) {
        return JoinOps.stack(tensors, dim);
    }

    /**
     * {@code torch.tril}: returns the lower triangular part of the matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0.
     */
    public static Tensor tril(Tensor self) {
        return JoinOps.tril(self);
    }

    /**
     * {@code torch.tril}: returns the lower triangular part of the matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0.
     */
    public static Tensor tril(Tensor self, long diagonal) {
        return JoinOps.tril(self, diagonal);
    }

    /**
     * {@code torch.triu}: returns the upper triangular part of a matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0.
     */
    public static Tensor triu(Tensor self) {
        return JoinOps.triu(self);
    }

    /**
     * {@code torch.triu}: returns the upper triangular part of a matrix (2-D tensor) or batch of matrices
     * {@code input}, the other elements of the result tensor {@code out} are set to 0.
     */
    public static Tensor triu(Tensor self, long diagonal) {
        return JoinOps.triu(self, diagonal);
    }

    /** {@code torch.flip}: reverse the order of an n-D tensor along given axis in dims. */
    public static Tensor flip(Tensor self, int... dims) {
        return JoinOps.flip(self, dims);
    }

    /** {@code torch.roll}: roll the tensor {@code input} along the given dimension(s). */
    public static Tensor roll(Tensor self, long shifts) {
        return JoinOps.roll(self, shifts);
    }

    /** {@code torch.roll}: roll the tensor {@code input} along the given dimension(s). */
    public static Tensor roll(Tensor self, long shifts, int dim) {
        return JoinOps.roll(self, shifts, dim);
    }

    /** {@code torch.roll}: roll the tensor {@code input} along the given dimension(s). */
    public static Tensor roll(Tensor self, long[] shifts, int[] dims) {
        return JoinOps.roll(self, shifts, dims);
    }

    /** {@code Tensor.repeat}: repeats this tensor along the specified dimensions. */
    public static Tensor repeat(Tensor self, long... repeats) {
        return JoinOps.repeat(self, repeats);
    }

    /** {@code torch.sum}: the sum of all elements. */
    public static Tensor sum(Tensor x) {
        return ReductionOps.sum(x);
    }

    /** {@code torch.sum}: the sum of all elements. */
    public static Tensor sum(Tensor x, DType dtype) {
        return ReductionOps.sum(x, dtype);
    }

    /** {@code torch.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor sum(Tensor x, long dim) {
        return ReductionOps.sum(x, dim);
    }

    /** {@code torch.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor sum(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.sum(x, dim, keepdim);
    }

    /** {@code torch.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor sum(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.sum(x, dims, keepdim);
    }

    /** {@code torch.sum}: the sum over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor sum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.sum(x, dims, keepdim, dtype);
    }

    /** {@code torch.nansum}: the sum of all elements, treating NaNs as zero. */
    public static Tensor nansum(Tensor x) {
        return ReductionOps.nansum(x);
    }

    /** {@code torch.nansum}: the sum over the given dimension(s), treating NaNs as zero. */
    public static Tensor nansum(Tensor x, long dim) {
        return ReductionOps.nansum(x, dim);
    }

    /** {@code torch.nansum}: the sum over the given dimension(s), treating NaNs as zero. */
    public static Tensor nansum(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nansum(x, dims, keepdim, dtype);
    }

    /** {@code torch.mean}: the mean of all elements. */
    public static Tensor mean(Tensor x) {
        return ReductionOps.mean(x);
    }

    /** {@code torch.mean}: the mean of all elements. */
    public static Tensor mean(Tensor x, DType dtype) {
        return ReductionOps.mean(x, dtype);
    }

    /** {@code torch.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor mean(Tensor x, long dim) {
        return ReductionOps.mean(x, dim);
    }

    /** {@code torch.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor mean(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.mean(x, dim, keepdim);
    }

    /** {@code torch.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor mean(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.mean(x, dims, keepdim);
    }

    /** {@code torch.mean}: the mean over the given dimension(s), kept as size 1 when {@code keepdim}. */
    public static Tensor mean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.mean(x, dims, keepdim, dtype);
    }

    /** {@code torch.nanmean}: the mean of all non-NaN elements. */
    public static Tensor nanmean(Tensor x) {
        return ReductionOps.nanmean(x);
    }

    /** {@code torch.nanmean}: the mean of the non-NaN elements over the given dimension(s). */
    public static Tensor nanmean(Tensor x, long dim) {
        return ReductionOps.nanmean(x, dim);
    }

    /** {@code torch.nanmean}: the mean of the non-NaN elements over the given dimension(s). */
    public static Tensor nanmean(Tensor x, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.nanmean(x, dims, keepdim, dtype);
    }

    /** {@code torch.prod}: the product of all elements. */
    public static Tensor prod(Tensor x) {
        return ReductionOps.prod(x);
    }

    /** {@code torch.prod}: the product of all elements. */
    public static Tensor prod(Tensor x, DType dtype) {
        return ReductionOps.prod(x, dtype);
    }

    /** {@code torch.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public static Tensor prod(Tensor x, long dim) {
        return ReductionOps.prod(x, dim);
    }

    /** {@code torch.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public static Tensor prod(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.prod(x, dim, keepdim);
    }

    /** {@code torch.prod}: the product over dimension {@code dim}, kept as size 1 when {@code keepdim}. */
    public static Tensor prod(Tensor x, long dim, boolean keepdim, DType dtype) {
        return ReductionOps.prod(x, dim, keepdim, dtype);
    }

    /**
     * {@code torch.amax}: returns the maximum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amax(Tensor x) {
        return ReductionOps.amax(x);
    }

    /**
     * {@code torch.amax}: returns the maximum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amax(Tensor x, long dim) {
        return ReductionOps.amax(x, dim);
    }

    /**
     * {@code torch.amax}: returns the maximum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amax(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.amax(x, dims, keepdim);
    }

    /**
     * {@code torch.amin}: returns the minimum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amin(Tensor x) {
        return ReductionOps.amin(x);
    }

    /**
     * {@code torch.amin}: returns the minimum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amin(Tensor x, long dim) {
        return ReductionOps.amin(x, dim);
    }

    /**
     * {@code torch.amin}: returns the minimum value of each slice of the {@code input} tensor in the given dimension(s)
     * {@code dim}.
     */
    public static Tensor amin(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.amin(x, dims, keepdim);
    }

    /** {@code torch.max}: the maximum of all elements. */
    public static Tensor max(Tensor x) {
        return ReductionOps.max(x);
    }

    /**
     * {@code torch.max}: the maximum along {@code dim} and the index where it occurs ({@code values}, {@code indices}).
     */
    public static ValuesIndices max(Tensor x, long dim) {
        return ReductionOps.max(x, dim);
    }

    /**
     * {@code torch.max}: the maximum along {@code dim} and the index where it occurs ({@code values}, {@code indices}).
     */
    public static ValuesIndices max(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.max(x, dim, keepdim);
    }

    /** {@code torch.min}: the minimum of all elements. */
    public static Tensor min(Tensor x) {
        return ReductionOps.min(x);
    }

    /**
     * {@code torch.min}: the minimum along {@code dim} and the index where it occurs ({@code values}, {@code indices}).
     */
    public static ValuesIndices min(Tensor x, long dim) {
        return ReductionOps.min(x, dim);
    }

    /**
     * {@code torch.min}: the minimum along {@code dim} and the index where it occurs ({@code values}, {@code indices}).
     */
    public static ValuesIndices min(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.min(x, dim, keepdim);
    }

    /** {@code torch.argmax}: the index of the maximum of the flattened tensor. */
    public static Tensor argmax(Tensor x) {
        return ReductionOps.argmax(x);
    }

    /** {@code torch.argmax}: the index of the maximum of the flattened tensor. */
    public static Tensor argmax(Tensor x, boolean keepdim) {
        return ReductionOps.argmax(x, keepdim);
    }

    /** {@code torch.argmax}: the indices of the maxima along {@code dim}. */
    public static Tensor argmax(Tensor x, long dim) {
        return ReductionOps.argmax(x, dim);
    }

    /** {@code torch.argmax}: the indices of the maxima along {@code dim}. */
    public static Tensor argmax(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.argmax(x, dim, keepdim);
    }

    /** {@code torch.argmin}: the index of the minimum of the flattened tensor. */
    public static Tensor argmin(Tensor x) {
        return ReductionOps.argmin(x);
    }

    /** {@code torch.argmin}: the index of the minimum of the flattened tensor. */
    public static Tensor argmin(Tensor x, boolean keepdim) {
        return ReductionOps.argmin(x, keepdim);
    }

    /** {@code torch.argmin}: the indices of the minima along {@code dim}. */
    public static Tensor argmin(Tensor x, long dim) {
        return ReductionOps.argmin(x, dim);
    }

    /** {@code torch.argmin}: the indices of the minima along {@code dim}. */
    public static Tensor argmin(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.argmin(x, dim, keepdim);
    }

    /** {@code torch.var}: calculates the variance over the dimensions specified by {@code dim}. */
    public static Tensor var(Tensor x) {
        return ReductionOps.var(x);
    }

    /** {@code torch.var}: calculates the variance over the dimensions specified by {@code dim}. */
    public static Tensor var(Tensor x, boolean unbiased) {
        return ReductionOps.var(x, unbiased);
    }

    /** {@code torch.var}: calculates the variance over the dimensions specified by {@code dim}. */
    public static Tensor var(Tensor x, long dim) {
        return ReductionOps.var(x, dim);
    }

    /** {@code torch.var}: calculates the variance over the dimensions specified by {@code dim}. */
    public static Tensor var(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.var(x, dims, unbiased, keepdim);
    }

    /** {@code torch.var}: calculates the variance over the dimensions specified by {@code dim}. */
    public static Tensor var(Tensor x, long[] dims, double correction, boolean keepdim) {
        return ReductionOps.var(x, dims, correction, keepdim);
    }

    /** {@code torch.std_mean(x)}: the standard deviation (correction 1) and the mean of all elements, {std, mean}. */
    public static Tensor[] stdMean(Tensor x) {
        return StatisticsOps.stdMean(x, null, null, false);
    }

    /**
     * {@code torch.std_mean(x, dim, correction=, keepdim=)}: {std, mean}; null dims reduce all, null correction is 1.
     */
    public static Tensor[] stdMean(Tensor x, long[] dims, Double correction, boolean keepdim) {
        return StatisticsOps.stdMean(x, dims, correction, keepdim);
    }

    /** {@code torch.var_mean(x)}: the variance (correction 1) and the mean of all elements, {var, mean}. */
    public static Tensor[] varMean(Tensor x) {
        return StatisticsOps.varMean(x, null, null, false);
    }

    /**
     * {@code torch.var_mean(x, dim, correction=, keepdim=)}: {var, mean}; null dims reduce all, null correction is 1.
     */
    public static Tensor[] varMean(Tensor x, long[] dims, Double correction, boolean keepdim) {
        return StatisticsOps.varMean(x, dims, correction, keepdim);
    }

    /** {@code torch.aminmax(x)}: the smallest and largest elements. */
    public static MinMax aminmax(Tensor x) {
        return StatisticsOps.aminmax(x, null, false);
    }

    /** {@code torch.aminmax(x, dim=dim, keepdim=keepdim)}: the smallest and largest elements along {@code dim}. */
    public static MinMax aminmax(Tensor x, long dim, boolean keepdim) {
        return StatisticsOps.aminmax(x, dim, keepdim);
    }

    /** {@code torch.median(x)}: the lower median of all elements; NaN if one is NaN. */
    public static Tensor median(Tensor x) {
        return StatisticsOps.median(x);
    }

    /** {@code torch.median(x, dim, keepdim)}: the lower median along {@code dim} and its position. */
    public static ValuesIndices median(Tensor x, long dim, boolean keepdim) {
        return StatisticsOps.median(x, dim, keepdim);
    }

    /** {@code torch.nanmedian(x)}: the lower median of the non-NaN elements. */
    public static Tensor nanmedian(Tensor x) {
        return StatisticsOps.nanmedian(x);
    }

    /** {@code torch.nanmedian(x, dim, keepdim)}: the lower median of the non-NaN values along {@code dim}. */
    public static ValuesIndices nanmedian(Tensor x, long dim, boolean keepdim) {
        return StatisticsOps.nanmedian(x, dim, keepdim);
    }

    /** {@code torch.quantile(x, q)}: the q-th quantile of all elements, linear interpolation. */
    public static Tensor quantile(Tensor x, double q) {
        return StatisticsOps.quantile(x, q, null, false, "linear");
    }

    /**
     * {@code torch.quantile(x, q, dim, keepdim, interpolation=)}: a null dim flattens; interpolation "linear", "lower",
     * "higher", "midpoint" or "nearest".
     */
    public static Tensor quantile(Tensor x, double q, Long dim, boolean keepdim, String interpolation) {
        return StatisticsOps.quantile(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.quantile(x, q, dim, keepdim, interpolation=)} with a 0-d or 1-d tensor of quantiles. */
    public static Tensor quantile(Tensor x, Tensor q, Long dim, boolean keepdim, String interpolation) {
        return StatisticsOps.quantile(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.nanquantile(x, q)}: {@link #quantile(Tensor, double)} ignoring NaNs. */
    public static Tensor nanquantile(Tensor x, double q) {
        return StatisticsOps.nanquantile(x, q, null, false, "linear");
    }

    /** {@code torch.nanquantile(x, q, dim, keepdim, interpolation=)}: quantiles of the non-NaN values. */
    public static Tensor nanquantile(Tensor x, double q, Long dim, boolean keepdim, String interpolation) {
        return StatisticsOps.nanquantile(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.nanquantile(x, q, dim, keepdim, interpolation=)} with a 0-d or 1-d tensor of quantiles. */
    public static Tensor nanquantile(Tensor x, Tensor q, Long dim, boolean keepdim, String interpolation) {
        return StatisticsOps.nanquantile(x, q, dim, keepdim, interpolation);
    }

    /** {@code torch.cov(x)}: the covariance matrix of the rows (variables) over the columns (observations). */
    public static Tensor cov(Tensor x) {
        return StatisticsOps.cov(x, 1, null, null);
    }

    /**
     * {@code torch.cov(x, correction=, fweights=, aweights=)}: with integral frequency weights and floating observation
     * weights (null = none).
     */
    public static Tensor cov(Tensor x, long correction, Tensor fweights, Tensor aweights) {
        return StatisticsOps.cov(x, correction, fweights, aweights);
    }

    /** {@code torch.corrcoef(x)}: Pearson's correlation coefficients of the rows. */
    public static Tensor corrcoef(Tensor x) {
        return StatisticsOps.corrcoef(x);
    }

    /** {@code torch.logcumsumexp(x, dim)}: log of the running sum of exponentials along {@code dim}. */
    public static Tensor logcumsumexp(Tensor x, long dim) {
        return ReductionOps.logcumsumexp(x, dim);
    }

    /** {@code torch.trace(A)}: the sum of the main diagonal of a matrix. */
    public static Tensor trace(Tensor a) {
        return LinalgOps.trace(a);
    }

    /** {@code torch.logdet(A)}: log det A; NaN for a negative determinant, −inf for a singular matrix. */
    public static Tensor logdet(Tensor a) {
        return LinalgOps.logdet(a);
    }

    /** {@code torch.tile(x, dims)}: x repeated {@code dims} times per dim (leading 1s added to the shorter). */
    public static Tensor tile(Tensor x, long... dims) {
        return GridOps.tile(x, dims);
    }

    /** {@code torch.meshgrid(*tensors, indexing=)}: coordinate grids ("ij" matrix or "xy" Cartesian indexing). */
    public static Tensor[] meshgrid(String indexing, Tensor... tensors) {
        return GridOps.meshgrid(indexing, tensors);
    }

    /** {@code torch.meshgrid(tensors, indexing=)} in the op's argument order. */
    public static Tensor[] meshgrid(Tensor[] tensors, String indexing) {
        return GridOps.meshgrid(indexing, tensors);
    }

    /** {@code torch.kron(a, b)}: the Kronecker product. */
    public static Tensor kron(Tensor a, Tensor b) {
        return GridOps.kron(a, b);
    }

    /** {@code torch.cartesian_prod(*tensors)}: the Cartesian product of 1-D tensors, one row per combination. */
    public static Tensor cartesianProd(Tensor... tensors) {
        return GridOps.cartesianProd(tensors);
    }

    /**
     * {@code torch.tril_indices(row, col, offset)}: the 2 × N int64 indices of the lower triangle of a row × col
     * matrix.
     */
    public static Tensor trilIndices(long row, long col, long offset) {
        return GridOps.trilIndices(row, col, offset, null, Device.CPU);
    }

    /** {@code torch.tril_indices(row, col, offset, dtype=, device=)}. */
    public static Tensor trilIndices(long row, long col, long offset, DType dtype, Device device) {
        return GridOps.trilIndices(row, col, offset, dtype, device);
    }

    /**
     * {@code torch.triu_indices(row, col, offset)}: the 2 × N int64 indices of the upper triangle of a row × col
     * matrix.
     */
    public static Tensor triuIndices(long row, long col, long offset) {
        return GridOps.triuIndices(row, col, offset, null, Device.CPU);
    }

    /** {@code torch.triu_indices(row, col, offset, dtype=, device=)}. */
    public static Tensor triuIndices(long row, long col, long offset, DType dtype, Device device) {
        return GridOps.triuIndices(row, col, offset, dtype, device);
    }

    /** {@code torch.norm(x)}: the 2-norm of all elements. */
    public static Tensor norm(Tensor x) {
        return ReductionOps.vectorNorm(x, 2.0);
    }

    /** {@code torch.norm(x, p)}: the p-norm of all elements (p may be ±inf or 0). */
    public static Tensor norm(Tensor x, double p) {
        return ReductionOps.vectorNorm(x, p);
    }

    /** {@code torch.norm(x, p, dim, keepdim)}: the p-norm over {@code dims} (null = all). */
    public static Tensor norm(Tensor x, double p, long[] dims, boolean keepdim) {
        return ReductionOps.vectorNorm(x, p, dims, keepdim);
    }

    /** {@code torch.norm(x, p, dim, keepdim, dtype=)}: computed and returned in {@code dtype}. */
    public static Tensor norm(Tensor x, double p, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.vectorNorm(x, p, dims, keepdim, dtype);
    }

    /** {@code torch.norm(x, p)} with p "fro" (the 2-norm of all elements) or "nuc" (of a matrix). */
    public static Tensor norm(Tensor x, String p) {
        return norm(x, p, null, false);
    }

    /**
     * {@code torch.norm(x, p, dim, keepdim)} with a string p, as PyTorch's {@code torch.norm} routes it: "fro" over at
     * most two dims is the vector 2-norm; anything else ("nuc", or "fro" over more dims) is a matrix norm over
     * {@code dims} (null = all dims).
     */
    public static Tensor norm(Tensor x, String p, long[] dims, boolean keepdim) {
        if (p.equals("fro") && (dims == null || dims.length <= 2))
            return ReductionOps.vectorNorm(x, 2.0, dims, keepdim);
        long[] d = dims;
        if (d == null) {
            d = new long[x.dim()];
            for (int i = 0; i < d.length; i++) d[i] = i;
        }
        return LinalgOps.matrixNorm(x, p, d, keepdim);
    }

    /** {@code torch.std}: calculates the standard deviation over the dimensions specified by {@code dim}. */
    public static Tensor std(Tensor x) {
        return ReductionOps.std(x);
    }

    /** {@code torch.std}: calculates the standard deviation over the dimensions specified by {@code dim}. */
    public static Tensor std(Tensor x, boolean unbiased) {
        return ReductionOps.std(x, unbiased);
    }

    /** {@code torch.std}: calculates the standard deviation over the dimensions specified by {@code dim}. */
    public static Tensor std(Tensor x, long dim) {
        return ReductionOps.std(x, dim);
    }

    /** {@code torch.std}: calculates the standard deviation over the dimensions specified by {@code dim}. */
    public static Tensor std(Tensor x, long[] dims, boolean unbiased, boolean keepdim) {
        return ReductionOps.std(x, dims, unbiased, keepdim);
    }

    /** {@code torch.std}: calculates the standard deviation over the dimensions specified by {@code dim}. */
    public static Tensor std(Tensor x, long[] dims, double correction, boolean keepdim) {
        return ReductionOps.std(x, dims, correction, keepdim);
    }

    /**
     * {@code torch.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}.
     */
    public static Tensor logsumexp(Tensor x, long dim) {
        return ReductionOps.logsumexp(x, dim);
    }

    /**
     * {@code torch.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}.
     */
    public static Tensor logsumexp(Tensor x, long dim, boolean keepdim) {
        return ReductionOps.logsumexp(x, dim, keepdim);
    }

    /**
     * {@code torch.logsumexp}: returns the log of summed exponentials of each row of the {@code input} tensor in the
     * given dimension {@code dim}.
     */
    public static Tensor logsumexp(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.logsumexp(x, dims, keepdim);
    }

    /** {@code torch.softmax}: alias for {@code torch.nn.functional.softmax}. */
    public static Tensor softmax(Tensor x, long dim) {
        return ReductionOps.softmax(x, dim);
    }

    /** {@code torch.softmax}: alias for {@code torch.nn.functional.softmax}. */
    public static Tensor softmax(Tensor x, long dim, DType dtype) {
        return ReductionOps.softmax(x, dim, dtype);
    }

    /**
     * {@code Tensor.log_softmax}: applies softmax followed by the logarithm along {@code dim}, computed stably in one
     * op.
     */
    public static Tensor logSoftmax(Tensor x, long dim) {
        return ReductionOps.logSoftmax(x, dim);
    }

    /**
     * {@code Tensor.log_softmax}: applies softmax followed by the logarithm along {@code dim}, computed stably in one
     * op.
     */
    public static Tensor logSoftmax(Tensor x, long dim, DType dtype) {
        return ReductionOps.logSoftmax(x, dim, dtype);
    }

    /** {@code torch.cumsum}: returns the cumulative sum of elements of {@code input} in the dimension {@code dim}. */
    public static Tensor cumsum(Tensor x, long dim) {
        return ReductionOps.cumsum(x, dim);
    }

    /** {@code torch.cumsum}: returns the cumulative sum of elements of {@code input} in the dimension {@code dim}. */
    public static Tensor cumsum(Tensor x, long dim, DType dtype) {
        return ReductionOps.cumsum(x, dim, dtype);
    }

    /**
     * {@code torch.cumprod}: returns the cumulative product of elements of {@code input} in the dimension {@code dim}.
     */
    public static Tensor cumprod(Tensor x, long dim) {
        return ReductionOps.cumprod(x, dim);
    }

    /**
     * {@code torch.cumprod}: returns the cumulative product of elements of {@code input} in the dimension {@code dim}.
     */
    public static Tensor cumprod(Tensor x, long dim, DType dtype) {
        return ReductionOps.cumprod(x, dim, dtype);
    }

    /** {@code torch.all}: tests if all elements are true (non-zero). */
    public static Tensor all(Tensor x) {
        return ReductionOps.all(x);
    }

    /** {@code torch.all}: tests, along the given dimension(s), if all elements are true (non-zero). */
    public static Tensor all(Tensor x, long dim) {
        return ReductionOps.all(x, dim);
    }

    /** {@code torch.all}: tests, along the given dimension(s), if all elements are true (non-zero). */
    public static Tensor all(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.all(x, dims, keepdim);
    }

    /** {@code torch.any}: tests if any element is true (non-zero). */
    public static Tensor any(Tensor x) {
        return ReductionOps.any(x);
    }

    /** {@code torch.any}: tests, along the given dimension(s), if any element is true (non-zero). */
    public static Tensor any(Tensor x, long dim) {
        return ReductionOps.any(x, dim);
    }

    /** {@code torch.any}: tests, along the given dimension(s), if any element is true (non-zero). */
    public static Tensor any(Tensor x, long[] dims, boolean keepdim) {
        return ReductionOps.any(x, dims, keepdim);
    }

    /** {@code torch.linalg.vector_norm}: computes a vector norm. */
    public static Tensor vectorNorm(Tensor x) {
        return ReductionOps.vectorNorm(x);
    }

    /** {@code torch.linalg.vector_norm}: computes a vector norm. */
    public static Tensor vectorNorm(Tensor x, double ord) {
        return ReductionOps.vectorNorm(x, ord);
    }

    /** {@code torch.linalg.vector_norm}: computes a vector norm. */
    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim) {
        return ReductionOps.vectorNorm(x, ord, dims, keepdim);
    }

    /** {@code torch.linalg.vector_norm}: computes a vector norm. */
    public static Tensor vectorNorm(Tensor x, double ord, long[] dims, boolean keepdim, DType dtype) {
        return ReductionOps.vectorNorm(x, ord, dims, keepdim, dtype);
    }

    /** {@code torch.mm}: performs a matrix multiplication of the matrices {@code input} and {@code mat2}. */
    public static Tensor mm(Tensor self, Tensor mat2) {
        return MatmulOps.mm(self, mat2);
    }

    /** {@code torch.addmm}: performs a matrix multiplication of the matrices {@code mat1} and {@code mat2}. */
    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2) {
        return MatmulOps.addmm(self, mat1, mat2);
    }

    /** {@code torch.addmm}: performs a matrix multiplication of the matrices {@code mat1} and {@code mat2}. */
    public static Tensor addmm(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm(self, mat1, mat2, beta, alpha);
    }

    /** {@code Tensor.addmm_}: in-place version of {@code Tensor.addmm}. */
    public static Tensor addmm_(Tensor self, Tensor mat1, Tensor mat2, Object beta, Object alpha) {
        return MatmulOps.addmm_(self, mat1, mat2, beta, alpha);
    }

    /**
     * {@code torch.bmm}: performs a batch matrix-matrix product of matrices stored in {@code input} and {@code mat2}.
     */
    public static Tensor bmm(Tensor self, Tensor mat2) {
        return MatmulOps.bmm(self, mat2);
    }

    /**
     * {@code torch.baddbmm}: performs a batch matrix-matrix product of matrices in {@code batch1} and {@code batch2}.
     */
    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2) {
        return MatmulOps.baddbmm(self, batch1, batch2);
    }

    /**
     * {@code torch.baddbmm}: performs a batch matrix-matrix product of matrices in {@code batch1} and {@code batch2}.
     */
    public static Tensor baddbmm(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm(self, batch1, batch2, beta, alpha);
    }

    /** {@code Tensor.baddbmm_}: in-place version of {@code Tensor.baddbmm}. */
    public static Tensor baddbmm_(Tensor self, Tensor batch1, Tensor batch2, Object beta, Object alpha) {
        return MatmulOps.baddbmm_(self, batch1, batch2, beta, alpha);
    }

    /** {@code torch.mv}: performs a matrix-vector product of the matrix {@code input} and the vector {@code vec}. */
    public static Tensor mv(Tensor self, Tensor vec) {
        return MatmulOps.mv(self, vec);
    }

    /** {@code torch.dot}: computes the dot product of two 1D tensors. */
    public static Tensor dot(Tensor self, Tensor tensor) {
        return MatmulOps.dot(self, tensor);
    }

    /** {@code torch.vdot}: computes the dot product of two 1D vectors along a dimension. */
    public static Tensor vdot(Tensor self, Tensor other) {
        return MatmulOps.vdot(self, other);
    }

    /** {@code torch.outer}: outer product of {@code input} and {@code vec2}. */
    public static Tensor outer(Tensor self, Tensor vec2) {
        return MatmulOps.outer(self, vec2);
    }

    /** {@code torch.matmul}: matrix product of two tensors. */
    public static Tensor matmul(Tensor self, Tensor other) {
        return MatmulOps.matmul(self, other);
    }

    /** {@code torch.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]. */
    public static Tensor clamp(Tensor x, Double min, Double max) {
        return ClampOps.clamp(x, min, max);
    }

    /** {@code torch.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]. */
    public static Tensor clamp(Tensor x, Long min, Long max) {
        return ClampOps.clamp(x, min, max);
    }

    /** {@code torch.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]. */
    public static Tensor clamp(Tensor x, Scalar min, Scalar max) {
        return ClampOps.clamp(x, min, max);
    }

    /** {@code torch.clamp}: clamps all elements in {@code input} into the range [ {@code min}, {@code max} ]. */
    public static Tensor clamp(Tensor x, Tensor min, Tensor max) {
        return ClampOps.clamp(x, min, max);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public static Tensor clampMin(Tensor x, double min) {
        return ClampOps.clampMin(x, min);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public static Tensor clampMin(Tensor x, long min) {
        return ClampOps.clampMin(x, min);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public static Tensor clampMin(Tensor x, Scalar min) {
        return ClampOps.clampMin(x, min);
    }

    /** {@code Tensor.clamp_min}: clamps every element to at least {@code min}. */
    public static Tensor clampMin(Tensor x, Tensor min) {
        return ClampOps.clampMin(x, min);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public static Tensor clampMax(Tensor x, double max) {
        return ClampOps.clampMax(x, max);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public static Tensor clampMax(Tensor x, long max) {
        return ClampOps.clampMax(x, max);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public static Tensor clampMax(Tensor x, Scalar max) {
        return ClampOps.clampMax(x, max);
    }

    /** {@code Tensor.clamp_max}: clamps every element to at most {@code max}. */
    public static Tensor clampMax(Tensor x, Tensor max) {
        return ClampOps.clampMax(x, max);
    }

    /** {@code torch.nn.functional.hardtanh}: applies the HardTanh function element-wise. */
    public static Tensor hardtanh(Tensor x) {
        return ClampOps.hardtanh(x);
    }

    /** {@code torch.nn.functional.hardtanh}: applies the HardTanh function element-wise. */
    public static Tensor hardtanh(Tensor x, double minVal, double maxVal) {
        return ClampOps.hardtanh(x, minVal, maxVal);
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public static Tensor clamp_(Tensor x, Double min, Double max) {
        return ClampOps.clamp_(x, min, max);
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public static Tensor clamp_(Tensor x, Long min, Long max) {
        return ClampOps.clamp_(x, min, max);
    }

    /** {@code Tensor.clamp_}: in-place version of {@code Tensor.clamp}. */
    public static Tensor clamp_(Tensor x, Tensor min, Tensor max) {
        return ClampOps.clamp_(x, min, max);
    }

    /**
     * {@code Tensor.clamp_min_}: in-place {@code clamp_min}: clamps every element of {@code self} to at least
     * {@code min}.
     */
    public static Tensor clampMin_(Tensor x, double min) {
        return ClampOps.clampMin_(x, min);
    }

    /**
     * {@code Tensor.clamp_min_}: in-place {@code clamp_min}: clamps every element of {@code self} to at least
     * {@code min}.
     */
    public static Tensor clampMin_(Tensor x, Tensor min) {
        return ClampOps.clampMin_(x, min);
    }

    /**
     * {@code Tensor.clamp_max_}: in-place {@code clamp_max}: clamps every element of {@code self} to at most
     * {@code max}.
     */
    public static Tensor clampMax_(Tensor x, double max) {
        return ClampOps.clampMax_(x, max);
    }

    /**
     * {@code Tensor.clamp_max_}: in-place {@code clamp_max}: clamps every element of {@code self} to at most
     * {@code max}.
     */
    public static Tensor clampMax_(Tensor x, Tensor max) {
        return ClampOps.clampMax_(x, max);
    }

    /**
     * {@code torch.nn.functional.hardtanh_}: in-place {@code hardtanh}: clamps every element of {@code x} to
     * {@code [minVal, maxVal]}.
     */
    public static Tensor hardtanh_(Tensor x, double minVal, double maxVal) {
        return ClampOps.hardtanh_(x, minVal, maxVal);
    }

    /**
     * {@code torch.where}: return a tensor of elements selected from either {@code input} or {@code other}, depending
     * on {@code condition}.
     */
    public static Tensor where(Tensor condition, Object input, Object other) {
        return TernaryOps.where(condition, input, other);
    }

    /**
     * {@code torch.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor.
     */
    public static Tensor lerp(Tensor start, Tensor end, double weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    /**
     * {@code torch.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor.
     */
    public static Tensor lerp(Tensor start, Tensor end, Scalar weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    /**
     * {@code torch.lerp}: does a linear interpolation of two tensors {@code start} (given by {@code input}) and
     * {@code end} based on a scalar or tensor {@code weight} and returns the resulting {@code out} tensor.
     */
    public static Tensor lerp(Tensor start, Tensor end, Tensor weight) {
        return TernaryOps.lerp(start, end, weight);
    }

    /** {@code Tensor.lerp_}: in-place version of {@code Tensor.lerp}. */
    public static Tensor lerp_(Tensor start, Tensor end, double weight) {
        return TernaryOps.lerp_(start, end, weight);
    }

    /** {@code Tensor.lerp_}: in-place version of {@code Tensor.lerp}. */
    public static Tensor lerp_(Tensor start, Tensor end, Tensor weight) {
        return TernaryOps.lerp_(start, end, weight);
    }

    /**
     * {@code torch.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2}, multiplies
     * the result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2) {
        return TernaryOps.addcmul(self, t1, t2);
    }

    /**
     * {@code torch.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2}, multiplies
     * the result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul(self, t1, t2, value);
    }

    /**
     * {@code torch.addcmul}: performs the element-wise multiplication of {@code tensor1} by {@code tensor2}, multiplies
     * the result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcmul(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcmul(self, t1, t2, value);
    }

    /** {@code Tensor.addcmul_}: in-place version of {@code Tensor.addcmul}. */
    public static Tensor addcmul_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcmul_(self, t1, t2, value);
    }

    /**
     * {@code torch.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2) {
        return TernaryOps.addcdiv(self, t1, t2);
    }

    /**
     * {@code torch.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv(self, t1, t2, value);
    }

    /**
     * {@code torch.addcdiv}: performs the element-wise division of {@code tensor1} by {@code tensor2}, multiplies the
     * result by the scalar {@code value} and adds it to {@code input}.
     */
    public static Tensor addcdiv(Tensor self, Tensor t1, Tensor t2, Scalar value) {
        return TernaryOps.addcdiv(self, t1, t2, value);
    }

    /** {@code Tensor.addcdiv_}: in-place version of {@code Tensor.addcdiv}. */
    public static Tensor addcdiv_(Tensor self, Tensor t1, Tensor t2, double value) {
        return TernaryOps.addcdiv_(self, t1, t2, value);
    }

    /** {@code Tensor.masked_fill}: out-of-place version of {@code torch.Tensor.masked_fill_}. */
    public static Tensor maskedFill(Tensor self, Tensor mask, Object value) {
        return TernaryOps.maskedFill(self, mask, value);
    }

    /**
     * {@code Tensor.masked_fill_}: fills elements of {@code self} tensor with {@code value} where {@code mask} is
     * {@code true}.
     */
    public static Tensor maskedFill_(Tensor self, Tensor mask, Object value) {
        return self.maskedFill_(mask, value);
    }

    /** {@code torch.real}: returns a new tensor containing real values of the {@code self} tensor. */
    public static Tensor real(Tensor t) {
        return ComplexOps.real(t);
    }

    /** {@code torch.imag}: returns a new tensor containing imaginary values of the {@code self} tensor. */
    public static Tensor imag(Tensor t) {
        return ComplexOps.imag(t);
    }

    /** {@code torch.view_as_real}: returns a view of {@code input} as a real tensor. */
    public static Tensor viewAsReal(Tensor t) {
        return ComplexOps.viewAsReal(t);
    }

    /** {@code torch.view_as_complex}: returns a view of {@code input} as a complex tensor. */
    public static Tensor viewAsComplex(Tensor t) {
        return ComplexOps.viewAsComplex(t);
    }

    /** {@code torch.conj}: returns a view of {@code input} with a flipped conjugate bit. */
    public static Tensor conj(Tensor t) {
        return ComplexOps.conj(t);
    }

    /** {@code torch.conj_physical}: computes the element-wise conjugate of the given {@code input} tensor. */
    public static Tensor conjPhysical(Tensor t) {
        return ComplexOps.conjPhysical(t);
    }

    /**
     * {@code torch.resolve_conj}: returns a new tensor with materialized conjugation if {@code input}'s conjugate bit
     * is set to {@code true}, else returns {@code input}.
     */
    public static Tensor resolveConj(Tensor t) {
        return ComplexOps.resolveConj(t);
    }

    /**
     * {@code torch.is_conj}: returns {@code true} if the {@code input} is a conjugated tensor, i.e. its conjugate bit
     * is set to {@code true}.
     */
    public static boolean isConj(Tensor t) {
        return ComplexOps.isConj(t);
    }

    /**
     * {@code torch.complex}: constructs a complex tensor with its real part equal to {@code real} and its imaginary
     * part equal to {@code imag}.
     */
    public static Tensor complex(Tensor real, Tensor imag) {
        return ComplexOps.complex(real, imag);
    }

    /**
     * {@code torch.polar}: constructs a complex tensor whose elements are Cartesian coordinates corresponding to the
     * polar coordinates with absolute value {@code abs} and angle {@code angle}.
     */
    public static Tensor polar(Tensor abs, Tensor angle) {
        return ComplexOps.polar(abs, angle);
    }

    /** {@code Tensor.mH}: a view of the tensor with its last two dimensions transposed and conjugated. */
    public static Tensor mH(Tensor t) {
        return ComplexOps.mH(t);
    }

    /** {@code torch.adjoint}: a view of the tensor with its last two dimensions transposed and conjugated. */
    public static Tensor adjoint(Tensor t) {
        return ComplexOps.adjoint(t);
    }

    /**
     * {@code torch.isreal}: returns a new tensor with boolean elements representing if each element of {@code input} is
     * real-valued or not.
     */
    public static Tensor isreal(Tensor t) {
        return ComplexOps.isreal(t);
    }

    /**
     * {@code torch.is_complex}: returns {@code true} if the data type of {@code input} is a complex data type i.e., one
     * of {@code torch.complex64}, and {@code torch.complex128}.
     */
    public static boolean isComplex(Tensor t) {
        return ComplexOps.isComplex(t);
    }

    /** {@code Tensor.fill_}: fills {@code self} tensor with the specified value. */
    public static Tensor fill_(Tensor self, double value) {
        return Creation.fill_(self, value);
    }

    /** {@code Tensor.fill_}: fills {@code self} tensor with the specified value. */
    public static Tensor fill_(Tensor self, long value) {
        return Creation.fill_(self, value);
    }

    /** {@code Tensor.zero_}: fills {@code self} tensor with zeros. */
    public static Tensor zero_(Tensor self) {
        return Creation.zero_(self);
    }

    /** {@code torch.manual_seed}: sets the seed for generating random numbers on all devices. */
    public static void manualSeed(long seed) {
        RandomOps.manualSeed(seed);
    }

    /**
     * {@code torch.seed}: sets the seed for generating random numbers to a non-deterministic random number on all
     * devices.
     */
    public static long seed() {
        return RandomOps.seed();
    }

    /** {@code torch.initial_seed}: the seed the default generator was last seeded with. */
    public static long initialSeed() {
        return RandomOps.initialSeed();
    }

    /** {@code torch.get_rng_state}: returns the random number generator state as a torch.ByteTensor. */
    public static Tensor getRngState() {
        return RandomOps.getRngState();
    }

    /** {@code torch.set_rng_state}: sets the random number generator state. */
    public static void setRngState(Tensor newState) {
        RandomOps.setRngState(newState);
    }

    /** {@code torch.default_generator}: the global random generator that random functions use when given none. */
    public static Generator defaultGenerator() {
        return RandomOps.defaultGenerator();
    }

    /**
     * {@code torch.rand}: returns a tensor filled with random numbers from a uniform distribution on the interval
     * {@code [0, 1)}.
     */
    public static Tensor rand(long... shape) {
        return RandomOps.rand(shape);
    }

    /**
     * {@code torch.rand}: returns a tensor filled with random numbers from a uniform distribution on the interval
     * {@code [0, 1)}.
     */
    public static Tensor rand(long[] shape, DType dtype) {
        return RandomOps.rand(shape, dtype);
    }

    /**
     * {@code torch.rand}: returns a tensor filled with random numbers from a uniform distribution on the interval
     * {@code [0, 1)}.
     */
    public static Tensor rand(long[] shape, Generator generator) {
        return RandomOps.rand(shape, generator);
    }

    /**
     * {@code torch.rand}: returns a tensor filled with random numbers from a uniform distribution on the interval
     * {@code [0, 1)}.
     */
    public static Tensor rand(long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.rand(shape, dtype, device, generator);
    }

    /**
     * {@code torch.randn}: returns a tensor filled with random numbers from a normal distribution with mean 0 and
     * variance 1 (also called the standard normal distribution).
     */
    public static Tensor randn(long... shape) {
        return RandomOps.randn(shape);
    }

    /**
     * {@code torch.randn}: returns a tensor filled with random numbers from a normal distribution with mean 0 and
     * variance 1 (also called the standard normal distribution).
     */
    public static Tensor randn(long[] shape, DType dtype) {
        return RandomOps.randn(shape, dtype);
    }

    /**
     * {@code torch.randn}: returns a tensor filled with random numbers from a normal distribution with mean 0 and
     * variance 1 (also called the standard normal distribution).
     */
    public static Tensor randn(long[] shape, Generator generator) {
        return RandomOps.randn(shape, generator);
    }

    /**
     * {@code torch.randn}: returns a tensor filled with random numbers from a normal distribution with mean 0 and
     * variance 1 (also called the standard normal distribution).
     */
    public static Tensor randn(long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.randn(shape, dtype, device, generator);
    }

    /**
     * {@code torch.randint}: returns a tensor filled with random integers generated uniformly between {@code low}
     * (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randint(long low, long high, long... shape) {
        return RandomOps.randint(low, high, shape);
    }

    /**
     * {@code torch.randint}: returns a tensor filled with random integers generated uniformly between {@code low}
     * (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randint(long low, long high, long[] shape, DType dtype) {
        return RandomOps.randint(low, high, shape, dtype);
    }

    /**
     * {@code torch.randint}: returns a tensor filled with random integers generated uniformly between {@code low}
     * (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randint(long low, long high, long[] shape, Generator generator) {
        return RandomOps.randint(low, high, shape, generator);
    }

    /**
     * {@code torch.randint}: returns a tensor filled with random integers generated uniformly between {@code low}
     * (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randint(long low, long high, long[] shape, DType dtype, Device device, Generator generator) {
        return RandomOps.randint(low, high, shape, dtype, device, generator);
    }

    /** {@code torch.randperm}: returns a random permutation of integers from {@code 0} to {@code n - 1}. */
    public static Tensor randperm(long n) {
        return RandomOps.randperm(n);
    }

    /** {@code torch.randperm}: returns a random permutation of integers from {@code 0} to {@code n - 1}. */
    public static Tensor randperm(long n, DType dtype) {
        return RandomOps.randperm(n, dtype);
    }

    /** {@code torch.randperm}: returns a random permutation of integers from {@code 0} to {@code n - 1}. */
    public static Tensor randperm(long n, Generator generator) {
        return RandomOps.randperm(n, generator);
    }

    /** {@code torch.randperm}: returns a random permutation of integers from {@code 0} to {@code n - 1}. */
    public static Tensor randperm(long n, DType dtype, Device device, Generator generator) {
        return RandomOps.randperm(n, dtype, device, generator);
    }

    /**
     * {@code torch.rand_like}: returns a tensor shaped like {@code input}, filled with random numbers uniform on
     * {@code [0, 1)}.
     */
    public static Tensor randLike(Tensor input) {
        return RandomOps.randLike(input);
    }

    /**
     * {@code torch.rand_like}: returns a tensor shaped like {@code input}, filled with random numbers uniform on
     * {@code [0, 1)}.
     */
    public static Tensor randLike(Tensor input, Generator generator) {
        return RandomOps.randLike(input, generator);
    }

    /**
     * {@code torch.randn_like}: returns a tensor with the same size as {@code input} that is filled with random numbers
     * from a normal distribution with mean 0 and variance 1.
     */
    public static Tensor randnLike(Tensor input) {
        return RandomOps.randnLike(input);
    }

    /**
     * {@code torch.randn_like}: returns a tensor with the same size as {@code input} that is filled with random numbers
     * from a normal distribution with mean 0 and variance 1.
     */
    public static Tensor randnLike(Tensor input, Generator generator) {
        return RandomOps.randnLike(input, generator);
    }

    /**
     * {@code torch.randint_like}: returns a tensor with the same shape as Tensor {@code input} filled with random
     * integers generated uniformly between {@code low} (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randintLike(Tensor input, long low, long high) {
        return RandomOps.randintLike(input, low, high);
    }

    /**
     * {@code torch.randint_like}: returns a tensor with the same shape as Tensor {@code input} filled with random
     * integers generated uniformly between {@code low} (inclusive) and {@code high} (exclusive).
     */
    public static Tensor randintLike(Tensor input, long low, long high, Generator generator) {
        return RandomOps.randintLike(input, low, high, generator);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(double mean, double std, long... shape) {
        return RandomOps.normal(mean, std, shape);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(double mean, double std, long[] shape, Generator generator) {
        return RandomOps.normal(mean, std, shape, generator);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(Tensor mean, double std) {
        return RandomOps.normal(mean, std);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(Tensor mean, double std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(double mean, Tensor std) {
        return RandomOps.normal(mean, std);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(double mean, Tensor std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(Tensor mean, Tensor std) {
        return RandomOps.normal(mean, std);
    }

    /**
     * {@code torch.normal}: returns a tensor of random numbers drawn from separate normal distributions whose mean and
     * standard deviation are given.
     */
    public static Tensor normal(Tensor mean, Tensor std, Generator generator) {
        return RandomOps.normal(mean, std, generator);
    }

    /** {@code torch.poisson(input)}: Poisson counts with the rates in input (non-negative), in its dtype. */
    public static Tensor poisson(Tensor input) {
        return call(DistributionOps.POISSON, input, null);
    }

    /** {@code torch.poisson(input, generator=generator)}. */
    public static Tensor poisson(Tensor input, Generator generator) {
        return call(DistributionOps.POISSON, input, generator);
    }

    /**
     * {@code torch.binomial(count, prob)}: Binomial(count, prob) samples in count's shape and dtype (float or double);
     * prob broadcasts to count.
     */
    public static Tensor binomial(Tensor count, Tensor prob) {
        return call(DistributionOps.BINOMIAL, count, prob, null);
    }

    /** {@code torch.binomial(count, prob, generator=generator)}. */
    public static Tensor binomial(Tensor count, Tensor prob, Generator generator) {
        return call(DistributionOps.BINOMIAL, count, prob, generator);
    }

    /**
     * {@code torch.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public static Tensor bernoulli(Tensor input) {
        return RandomOps.bernoulli(input);
    }

    /**
     * {@code torch.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public static Tensor bernoulli(Tensor input, Generator generator) {
        return RandomOps.bernoulli(input, generator);
    }

    /**
     * {@code torch.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public static Tensor bernoulli(Tensor input, double p) {
        return RandomOps.bernoulli(input, p);
    }

    /**
     * {@code torch.bernoulli}: draws binary random numbers (0 or 1) from a Bernoulli distribution whose probabilities
     * are the input's elements (or {@code p}).
     */
    public static Tensor bernoulli(Tensor input, double p, Generator generator) {
        return RandomOps.bernoulli(input, p, generator);
    }

    /**
     * {@code torch.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}.
     */
    public static Tensor multinomial(Tensor input, long numSamples) {
        return RandomOps.multinomial(input, numSamples);
    }

    /**
     * {@code torch.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}.
     */
    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement) {
        return RandomOps.multinomial(input, numSamples, replacement);
    }

    /**
     * {@code torch.multinomial}: returns a tensor where each row contains {@code num_samples} indices sampled from the
     * multinomial (a stricter definition would be multivariate, refer to
     * {@code torch.distributions.multinomial.Multinomial} for more details) probability distribution located in the
     * corresponding row of tensor {@code input}.
     */
    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement, Generator generator) {
        return RandomOps.multinomial(input, numSamples, replacement, generator);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public static Tensor uniform_(Tensor self) {
        return RandomOps.uniform_(self);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public static Tensor uniform_(Tensor self, double from, double to) {
        return RandomOps.uniform_(self, from, to);
    }

    /**
     * {@code Tensor.uniform_}: fills {@code self} tensor with numbers sampled from the continuous uniform distribution.
     */
    public static Tensor uniform_(Tensor self, double from, double to, Generator generator) {
        return RandomOps.uniform_(self, from, to, generator);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public static Tensor normal_(Tensor self) {
        return RandomOps.normal_(self);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public static Tensor normal_(Tensor self, double mean, double std) {
        return RandomOps.normal_(self, mean, std);
    }

    /**
     * {@code Tensor.normal_}: fills {@code self} tensor with elements samples from the normal distribution
     * parameterized by {@code mean} and {@code std}.
     */
    public static Tensor normal_(Tensor self, double mean, double std, Generator generator) {
        return RandomOps.normal_(self, mean, std, generator);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public static Tensor exponential_(Tensor self) {
        return RandomOps.exponential_(self);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public static Tensor exponential_(Tensor self, double lambd) {
        return RandomOps.exponential_(self, lambd);
    }

    /**
     * {@code Tensor.exponential_}: fills {@code self} tensor with elements drawn from the PDF (probability density
     * function).
     */
    public static Tensor exponential_(Tensor self, double lambd, Generator generator) {
        return RandomOps.exponential_(self, lambd, generator);
    }

    /** {@code Tensor.geometric_}: fills {@code self} tensor with elements drawn from the geometric distribution. */
    public static Tensor geometric_(Tensor self, double p) {
        return RandomOps.geometric_(self, p);
    }

    /** {@code Tensor.geometric_}: fills {@code self} tensor with elements drawn from the geometric distribution. */
    public static Tensor geometric_(Tensor self, double p, Generator generator) {
        return RandomOps.geometric_(self, p, generator);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public static Tensor cauchy_(Tensor self) {
        return RandomOps.cauchy_(self);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public static Tensor cauchy_(Tensor self, double median, double sigma) {
        return RandomOps.cauchy_(self, median, sigma);
    }

    /** {@code Tensor.cauchy_}: fills the tensor with numbers drawn from the Cauchy distribution. */
    public static Tensor cauchy_(Tensor self, double median, double sigma, Generator generator) {
        return RandomOps.cauchy_(self, median, sigma, generator);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public static Tensor logNormal_(Tensor self) {
        return RandomOps.logNormal_(self);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public static Tensor logNormal_(Tensor self, double mean, double std) {
        return RandomOps.logNormal_(self, mean, std);
    }

    /**
     * {@code Tensor.log_normal_}: fills {@code self} with samples from the log-normal distribution with the given
     * {@code mean} and {@code std} of the underlying normal.
     */
    public static Tensor logNormal_(Tensor self, double mean, double std, Generator generator) {
        return RandomOps.logNormal_(self, mean, std, generator);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public static Tensor bernoulli_(Tensor self, double p) {
        return RandomOps.bernoulli_(self, p);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public static Tensor bernoulli_(Tensor self, double p, Generator generator) {
        return RandomOps.bernoulli_(self, p, generator);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public static Tensor bernoulli_(Tensor self, Tensor p) {
        return RandomOps.bernoulli_(self, p);
    }

    /**
     * {@code Tensor.bernoulli_}: fills each element of {@code self} with an independent sample from
     * Bernoulli({@code p}).
     */
    public static Tensor bernoulli_(Tensor self, Tensor p, Generator generator) {
        return RandomOps.bernoulli_(self, p, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self) {
        return RandomOps.random_(self);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, Generator generator) {
        return RandomOps.random_(self, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, long to) {
        return RandomOps.random_(self, to);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, long from, long to) {
        return RandomOps.random_(self, from, to);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, long from, long to, Generator generator) {
        return RandomOps.random_(self, from, to, generator);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, long from, Long to) {
        return RandomOps.random_(self, from, to);
    }

    /**
     * {@code Tensor.random_}: fills {@code self} tensor with numbers sampled from the discrete uniform distribution
     * over {@code [from, to - 1]}.
     */
    public static Tensor random_(Tensor self, long from, Long to, Generator generator) {
        return RandomOps.random_(self, from, to, generator);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor repeats) {
        return ArrangeOps.repeatInterleave(repeats);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, long repeats) {
        return ArrangeOps.repeatInterleave(self, repeats);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, long repeats, int dim) {
        return ArrangeOps.repeatInterleave(self, repeats, dim);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, long repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(self, repeats, dim, outputSize);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats) {
        return ArrangeOps.repeatInterleave(self, repeats);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats, int dim) {
        return ArrangeOps.repeatInterleave(self, repeats, dim);
    }

    /** {@code torch.repeat_interleave}: repeat elements of a tensor. */
    public static Tensor repeatInterleave(Tensor self, Tensor repeats, Integer dim, Long outputSize) {
        return ArrangeOps.repeatInterleave(self, repeats, dim, outputSize);
    }

    /** {@code torch.diff}: computes the n-th forward difference along the given dimension. */
    public static Tensor diff(Tensor self) {
        return ArrangeOps.diff(self);
    }

    /** {@code torch.diff}: computes the n-th forward difference along the given dimension. */
    public static Tensor diff(Tensor self, long n) {
        return ArrangeOps.diff(self, n);
    }

    /** {@code torch.diff}: computes the n-th forward difference along the given dimension. */
    public static Tensor diff(Tensor self, long n, int dim) {
        return ArrangeOps.diff(self, n, dim);
    }

    /** {@code torch.diff}: computes the n-th forward difference along the given dimension. */
    public static Tensor diff(Tensor self, long n, int dim, Tensor prepend, Tensor append) {
        return ArrangeOps.diff(self, n, dim, prepend, append);
    }

    /**
     * {@code torch.diag}: if {@code input} is a vector (1-D tensor), then returns a 2-D square tensor with the elements
     * of {@code input} as the diagonal.
     */
    public static Tensor diag(Tensor self) {
        return ArrangeOps.diag(self);
    }

    /**
     * {@code torch.diag}: if {@code input} is a vector (1-D tensor), then returns a 2-D square tensor with the elements
     * of {@code input} as the diagonal.
     */
    public static Tensor diag(Tensor self, long diagonal) {
        return ArrangeOps.diag(self, diagonal);
    }

    /**
     * {@code torch.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}.
     */
    public static Tensor diagEmbed(Tensor self) {
        return ArrangeOps.diagEmbed(self);
    }

    /**
     * {@code torch.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}.
     */
    public static Tensor diagEmbed(Tensor self, long offset) {
        return ArrangeOps.diagEmbed(self, offset);
    }

    /**
     * {@code torch.diag_embed}: creates a tensor whose diagonals of certain 2D planes (specified by {@code dim1} and
     * {@code dim2}) are filled by {@code input}.
     */
    public static Tensor diagEmbed(Tensor self, long offset, int dim1, int dim2) {
        return ArrangeOps.diagEmbed(self, offset, dim1, dim2);
    }

    /** {@code torch.nn.functional.pad}: pads tensor. */
    public static Tensor pad(Tensor input, long[] pad) {
        return ArrangeOps.pad(input, pad);
    }

    /** {@code torch.nn.functional.pad}: pads tensor. */
    public static Tensor pad(Tensor input, long[] pad, double value) {
        return ArrangeOps.pad(input, pad, value);
    }

    /** {@code torch.nn.functional.pad}: pads tensor. */
    public static Tensor pad(Tensor input, long[] pad, String mode) {
        return ArrangeOps.pad(input, pad, mode);
    }

    /**
     * {@code torch.nn.functional.one_hot}: takes LongTensor with index values of shape {@code (*)} and returns a tensor
     * of shape {@code (*, num_classes)} that have zeros everywhere except where the index of last dimension matches the
     * corresponding value of the input tensor, in which case it will be 1.
     */
    public static Tensor oneHot(Tensor tensor) {
        return ArrangeOps.oneHot(tensor);
    }

    /**
     * {@code torch.nn.functional.one_hot}: takes LongTensor with index values of shape {@code (*)} and returns a tensor
     * of shape {@code (*, num_classes)} that have zeros everywhere except where the index of last dimension matches the
     * corresponding value of the input tensor, in which case it will be 1.
     */
    public static Tensor oneHot(Tensor tensor, long numClasses) {
        return ArrangeOps.oneHot(tensor, numClasses);
    }

    /**
     * {@code torch.einsum}: sums the product of the elements of the input {@code operands} along dimensions specified
     * using a notation based on the Einstein summation convention.
     */
    public static Tensor einsum(String equation, Tensor... operands) {
        return EinsumOps.einsum(equation, operands);
    }

    /**
     * {@code torch.einsum}: sums the product of the elements of the input {@code operands} along dimensions specified
     * using a notation based on the Einstein summation convention.
     */
    public static Tensor einsum(String equation, List<Tensor> operands) {
        return EinsumOps.einsum(equation, operands);
    }

    /** {@code torch.tensordot}: returns a contraction of a and b over multiple dimensions. */
    public static Tensor tensordot(Tensor a, Tensor b) {
        return EinsumOps.tensordot(a, b);
    }

    /** {@code torch.tensordot}: returns a contraction of a and b over multiple dimensions. */
    public static Tensor tensordot(Tensor a, Tensor b, int dims) {
        return EinsumOps.tensordot(a, b, dims);
    }

    /** {@code torch.tensordot}: returns a contraction of a and b over multiple dimensions. */
    public static Tensor tensordot(Tensor a, Tensor b, int[] dimsA, int[] dimsB) {
        return EinsumOps.tensordot(a, b, dimsA, dimsB);
    }

    /**
     * {@code Tensor.__getitem__}: indexes with Python's {@code x[spec]} semantics (integers, slices, None, Ellipsis,
     * tensors, masks).
     */
    public static Tensor index(Tensor self, Index... spec) {
        return IndexingOps.index(self, spec);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values) {
        return IndexingOps.indexPut_(self, spec, values);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(self, spec, values, accumulate);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public static Tensor indexPut_(Tensor self, Index[] spec, Object value) {
        return IndexingOps.indexPut_(self, spec, value, false);
    }

    /** {@code Tensor.index_put}: out-place version of {@code Tensor.index_put_}. */
    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut(self, indices, values);
    }

    /** {@code Tensor.index_put}: out-place version of {@code Tensor.index_put_}. */
    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut(self, indices, values, accumulate);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values) {
        return IndexingOps.indexPut_(self, indices, values);
    }

    /**
     * {@code Tensor.index_put_}: puts values from the tensor {@code values} into the tensor {@code self} using the
     * indices specified in {@code indices} (which is a tuple of Tensors).
     */
    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return IndexingOps.indexPut_(self, indices, values, accumulate);
    }

    /** {@code torch.nonzero}: the indices of the non-zero elements, one row per element. */
    public static Tensor nonzero(Tensor self) {
        return IndexingOps.nonzero(self);
    }

    /** {@code torch.nonzero(as_tuple)}: with {@code asTuple}, one tensor of indices per dimension. */
    public static List<Tensor> nonzero(Tensor self, boolean asTuple) {
        return IndexingOps.nonzero(self, asTuple);
    }

    /** {@code torch.nonzero_static}: returns a 2-D tensor where each row is the index for a non-zero value. */
    public static Tensor nonzeroStatic(Tensor self, long size, long fillValue) {
        return IndexingOps.nonzeroStatic(self, size, fillValue);
    }

    /**
     * {@code torch.count_nonzero}: counts the number of non-zero values in the tensor {@code input} along the given
     * {@code dim}.
     */
    public static Tensor countNonzero(Tensor self, long... dims) {
        return IndexingOps.countNonzero(self, dims);
    }

    /**
     * {@code torch.where}: return a tensor of elements selected from either {@code input} or {@code other}, depending
     * on {@code condition}.
     */
    public static List<Tensor> where(Tensor condition) {
        return IndexingOps.where(condition);
    }

    /**
     * {@code torch.masked_select}: returns a new 1-D tensor which indexes the {@code input} tensor according to the
     * boolean mask {@code mask} which is a BoolTensor.
     */
    public static Tensor maskedSelect(Tensor self, Tensor mask) {
        return IndexingOps.maskedSelect(self, mask);
    }

    /** {@code Tensor.masked_scatter}: out-of-place version of {@code torch.Tensor.masked_scatter_}. */
    public static Tensor maskedScatter(Tensor self, Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter(self, mask, source);
    }

    /**
     * {@code Tensor.masked_scatter_}: copies elements from {@code source} into {@code self} tensor at positions where
     * the {@code mask} is {@code true}.
     */
    public static Tensor maskedScatter_(Tensor self, Tensor mask, Tensor source) {
        return IndexingOps.maskedScatter_(self, mask, source);
    }

    /** {@code torch.put}: a copy of {@code self} with {@code source} written at the flat positions {@code index}. */
    public static Tensor put(Tensor self, Tensor index, Tensor source, boolean accumulate) {
        return self.put(index, source, accumulate);
    }

    /** {@code torch.take}: returns a new tensor with the elements of {@code input} at the given indices. */
    public static Tensor take(Tensor self, Tensor index) {
        return IndexingOps.take(self, index);
    }

    /**
     * {@code torch.take_along_dim}: selects values from {@code input} at the 1-dimensional indices from {@code indices}
     * along the given {@code dim}.
     */
    public static Tensor takeAlongDim(Tensor self, Tensor indices) {
        return IndexingOps.takeAlongDim(self, indices);
    }

    /**
     * {@code torch.take_along_dim}: selects values from {@code input} at the 1-dimensional indices from {@code indices}
     * along the given {@code dim}.
     */
    public static Tensor takeAlongDim(Tensor self, Tensor indices, int dim) {
        return IndexingOps.takeAlongDim(self, indices, dim);
    }

    /** {@code torch.gather}: gathers values along an axis specified by dim. */
    public static Tensor gather(Tensor self, int dim, Tensor index) {
        return ScatterOps.gather(self, dim, index);
    }

    /**
     * {@code torch.gather(self, dim, index, sparse_grad=sparseGrad)}. With the flag PyTorch returns self's gradient as
     * a sparse COO tensor; JTorch has no sparse layout, so the gradient is the dense tensor that sparse gradient
     * densifies to ({@code grad.to_dense()}: the same values, duplicate positions summed).
     */
    public static Tensor gather(Tensor self, int dim, Tensor index, boolean sparseGrad) {
        return ScatterOps.gather(self, dim, index, sparseGrad);
    }

    /** {@code torch.scatter}: out-of-place version of {@code torch.Tensor.scatter_}. */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Tensor src) {
        return ScatterOps.scatter(self, dim, index, src);
    }

    /** {@code torch.scatter}: out-of-place version of {@code torch.Tensor.scatter_}. */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Object value) {
        return ScatterOps.scatter(self, dim, index, value);
    }

    /** {@code torch.scatter(self, dim, index, src, reduce=)}: {@code "add"} or {@code "multiply"}. */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return IndexReduceOps.scatter(self, dim, index, src, reduce);
    }

    /** {@code torch.scatter(self, dim, index, value, reduce=)}: {@code "add"} or {@code "multiply"}. */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Number value, String reduce) {
        return IndexReduceOps.scatter(self, dim, index, value, reduce);
    }

    /** {@code torch.index_reduce(self, dim, index, source, reduce, include_self=...)}. */
    public static Tensor indexReduce(
            Tensor self, int dim, Tensor index, Tensor source, String reduce, boolean includeSelf) {
        return IndexReduceOps.indexReduce(self, dim, index, source, reduce, includeSelf);
    }

    /**
     * {@code torch.isclose(input, other)}: whether each pair of elements satisfies {@code |input − other| ≤ atol +
     * rtol·|other|} with {@code rtol = 1e-05}, {@code atol = 1e-08}; a bool tensor of the broadcast shape. Both tensors
     * must have the same dtype.
     */
    public static Tensor isclose(Tensor input, Tensor other) {
        return input.isclose(other);
    }

    /**
     * {@code torch.isclose(input, other, rtol, atol, equal_nan)}: tolerances must be non-negative; NaN is close to NaN
     * only when {@code equalNan}.
     */
    public static Tensor isclose(Tensor input, Tensor other, double rtol, double atol, boolean equalNan) {
        return CloseOps.isclose(input, other, rtol, atol, equalNan);
    }

    /** {@code torch.allclose(input, other)}: whether {@link #isclose(Tensor, Tensor)} holds for every element. */
    public static boolean allclose(Tensor input, Tensor other) {
        return input.allclose(other);
    }

    /** {@code torch.allclose(input, other, rtol, atol, equal_nan)}: whether every element is close. */
    public static boolean allclose(Tensor input, Tensor other, double rtol, double atol, boolean equalNan) {
        return input.allclose(other, rtol, atol, equalNan);
    }

    /** {@code torch.isin(elements, test_elements)}: whether each element is among the test elements. */
    public static Tensor isin(Tensor elements, Tensor testElements) {
        return IsinOps.isin(elements, testElements, false);
    }

    /** {@code torch.isin(elements, test_elements, invert=invert)}. */
    public static Tensor isin(Tensor elements, Tensor testElements, boolean invert) {
        return IsinOps.isin(elements, testElements, invert);
    }

    /** {@code torch.isin(elements, test_element, invert=invert)} with a scalar test element. */
    public static Tensor isin(Tensor elements, Number testElement, boolean invert) {
        return IsinOps.isin(elements, testElement, invert);
    }

    /** {@code torch.isin(element, test_elements, invert=invert)} with a scalar element: a 0-d bool tensor. */
    public static Tensor isin(Number element, Tensor testElements, boolean invert) {
        return IsinOps.isin(element, testElements, invert);
    }

    /**
     * {@code Tensor.scatter_}: writes all values from the tensor {@code src} into {@code self} at the indices specified
     * in the {@code index} tensor.
     */
    public static Tensor scatter_(Tensor self, int dim, Tensor index, Tensor src) {
        return self.scatter_(dim, index, src);
    }

    /**
     * {@code Tensor.scatter_}: writes all values from the tensor {@code src} into {@code self} at the indices specified
     * in the {@code index} tensor.
     */
    public static Tensor scatter_(Tensor self, int dim, Tensor index, Object value) {
        return self.scatter_(dim, index, value);
    }

    /** {@code torch.scatter_add}: out-of-place version of {@code torch.Tensor.scatter_add_}. */
    public static Tensor scatterAdd(Tensor self, int dim, Tensor index, Tensor src) {
        return ScatterOps.scatterAdd(self, dim, index, src);
    }

    /**
     * {@code Tensor.scatter_add_}: adds all values from the tensor {@code src} into {@code self} at the indices
     * specified in the {@code index} tensor in a similar fashion as {@code torch.Tensor.scatter_}.
     */
    public static Tensor scatterAdd_(Tensor self, int dim, Tensor index, Tensor src) {
        return self.scatterAdd_(dim, index, src);
    }

    /** {@code torch.scatter_reduce}: out-of-place version of {@code torch.Tensor.scatter_reduce_}. */
    public static Tensor scatterReduce(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return ScatterOps.scatterReduce(self, dim, index, src, reduce);
    }

    /** {@code torch.scatter_reduce}: out-of-place version of {@code torch.Tensor.scatter_reduce_}. */
    public static Tensor scatterReduce(
            Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return ScatterOps.scatterReduce(self, dim, index, src, reduce, includeSelf);
    }

    /**
     * {@code Tensor.scatter_reduce_}: reduces all values from the {@code src} tensor to the indices specified in the
     * {@code index} tensor in the {@code self} tensor using the applied reduction defined via the {@code reduce}
     * argument ({@code "sum"}, {@code "prod"}, {@code "mean"}, {@code "amax"}, {@code "amin"}).
     */
    public static Tensor scatterReduce_(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return self.scatterReduce_(dim, index, src, reduce);
    }

    /**
     * {@code Tensor.scatter_reduce_}: reduces all values from the {@code src} tensor to the indices specified in the
     * {@code index} tensor in the {@code self} tensor using the applied reduction defined via the {@code reduce}
     * argument ({@code "sum"}, {@code "prod"}, {@code "mean"}, {@code "amax"}, {@code "amin"}).
     */
    public static Tensor scatterReduce_(
            Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return self.scatterReduce_(dim, index, src, reduce, includeSelf);
    }

    /**
     * {@code torch.index_select}: returns a new tensor which indexes the {@code input} tensor along dimension
     * {@code dim} using the entries in {@code index}.
     */
    public static Tensor indexSelect(Tensor self, int dim, Tensor index) {
        return ScatterOps.indexSelect(self, dim, index);
    }

    /** {@code torch.index_add}: see {@code Tensor.index_add_} for function description. */
    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source) {
        return ScatterOps.indexAdd(self, dim, index, source);
    }

    /** {@code torch.index_add}: see {@code Tensor.index_add_} for function description. */
    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source, Object alpha) {
        return ScatterOps.indexAdd(self, dim, index, source, alpha);
    }

    /**
     * {@code Tensor.index_add_}: accumulate the elements of {@code alpha} times {@code source} into the {@code self}
     * tensor by adding to the indices in the order given in {@code index}.
     */
    public static Tensor indexAdd_(Tensor self, int dim, Tensor index, Tensor source) {
        return self.indexAdd_(dim, index, source);
    }

    /**
     * {@code Tensor.index_add_}: accumulate the elements of {@code alpha} times {@code source} into the {@code self}
     * tensor by adding to the indices in the order given in {@code index}.
     */
    public static Tensor indexAdd_(Tensor self, int dim, Tensor index, Tensor source, Object alpha) {
        return self.indexAdd_(dim, index, source, alpha);
    }

    /** {@code torch.index_copy}: see {@code Tensor.index_copy_} for function description. */
    public static Tensor indexCopy(Tensor self, int dim, Tensor index, Tensor source) {
        return ScatterOps.indexCopy(self, dim, index, source);
    }

    /**
     * {@code Tensor.index_copy_}: copies the elements of {@code tensor} into the {@code self} tensor by selecting the
     * indices in the order given in {@code index}.
     */
    public static Tensor indexCopy_(Tensor self, int dim, Tensor index, Tensor source) {
        return self.indexCopy_(dim, index, source);
    }

    /** {@code Tensor.index_fill}: out-of-place version of {@code torch.Tensor.index_fill_}. */
    public static Tensor indexFill(Tensor self, int dim, Tensor index, Object value) {
        return ScatterOps.indexFill(self, dim, index, value);
    }

    /**
     * {@code Tensor.index_fill_}: fills the elements of the {@code self} tensor with value {@code value} by selecting
     * the indices in the order given in {@code index}.
     */
    public static Tensor indexFill_(Tensor self, int dim, Tensor index, Object value) {
        return self.indexFill_(dim, index, value);
    }

    /**
     * {@code torch.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value.
     */
    public static ValuesIndices sort(Tensor self) {
        return SortOps.sort(self);
    }

    /**
     * {@code torch.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value.
     */
    public static ValuesIndices sort(Tensor self, long dim) {
        return SortOps.sort(self, dim);
    }

    /**
     * {@code torch.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value.
     */
    public static ValuesIndices sort(Tensor self, long dim, boolean descending) {
        return SortOps.sort(self, dim, descending);
    }

    /**
     * {@code torch.sort}: sorts the elements of the {@code input} tensor along a given dimension in ascending order by
     * value.
     */
    public static ValuesIndices sort(Tensor self, boolean stable, long dim, boolean descending) {
        return SortOps.sort(self, stable, dim, descending);
    }

    /**
     * {@code torch.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value.
     */
    public static Tensor argsort(Tensor self) {
        return SortOps.argsort(self);
    }

    /**
     * {@code torch.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value.
     */
    public static Tensor argsort(Tensor self, long dim) {
        return SortOps.argsort(self, dim);
    }

    /**
     * {@code torch.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value.
     */
    public static Tensor argsort(Tensor self, long dim, boolean descending) {
        return SortOps.argsort(self, dim, descending);
    }

    /**
     * {@code torch.argsort}: returns the indices that sort a tensor along a given dimension in ascending order by
     * value.
     */
    public static Tensor argsort(Tensor self, long dim, boolean descending, boolean stable) {
        return SortOps.argsort(self, dim, descending, stable);
    }

    /**
     * {@code torch.msort}: sorts the elements of the {@code input} tensor along its first dimension in ascending order
     * by value.
     */
    public static Tensor msort(Tensor self) {
        return SortOps.msort(self);
    }

    /**
     * {@code torch.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension.
     */
    public static ValuesIndices topk(Tensor self, long k) {
        return SortOps.topk(self, k);
    }

    /**
     * {@code torch.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension.
     */
    public static ValuesIndices topk(Tensor self, long k, long dim) {
        return SortOps.topk(self, k, dim);
    }

    /**
     * {@code torch.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension.
     */
    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest) {
        return SortOps.topk(self, k, dim, largest);
    }

    /**
     * {@code torch.topk}: returns the {@code k} largest elements of the given {@code input} tensor along a given
     * dimension.
     */
    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest, boolean sorted) {
        return SortOps.topk(self, k, dim, largest, sorted);
    }

    /**
     * {@code torch.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}.
     */
    public static ValuesIndices kthvalue(Tensor self, long k) {
        return SortOps.kthvalue(self, k);
    }

    /**
     * {@code torch.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}.
     */
    public static ValuesIndices kthvalue(Tensor self, long k, long dim) {
        return SortOps.kthvalue(self, k, dim);
    }

    /**
     * {@code torch.kthvalue}: returns a namedtuple {@code (values, indices)} where {@code values} is the {@code k} th
     * smallest element of each row of the {@code input} tensor in the given dimension {@code dim}.
     */
    public static ValuesIndices kthvalue(Tensor self, long k, long dim, boolean keepdim) {
        return SortOps.kthvalue(self, k, dim, keepdim);
    }

    /**
     * {@code torch.cummax}: returns a namedtuple {@code (values, indices)} where {@code values} is the cumulative
     * maximum of elements of {@code input} in the dimension {@code dim}.
     */
    public static ValuesIndices cummax(Tensor self, long dim) {
        return SortOps.cummax(self, dim);
    }

    /**
     * {@code torch.cummin}: returns a namedtuple {@code (values, indices)} where {@code values} is the cumulative
     * minimum of elements of {@code input} in the dimension {@code dim}.
     */
    public static ValuesIndices cummin(Tensor self, long dim) {
        return SortOps.cummin(self, dim);
    }

    /** {@code torch.unique}: returns the unique elements of the input tensor. */
    public static Tensor unique(Tensor self) {
        return SortOps.unique(self);
    }

    /** {@code torch.unique}: returns the unique elements of the input tensor. */
    public static UniqueResult unique(Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts);
    }

    /** {@code torch.unique}: returns the unique elements of the input tensor. */
    public static UniqueResult unique(
            Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts, dim);
    }
    /** {@code torch.unique_dim}: {@link #unique(Tensor, boolean, boolean, boolean, long)} with dim first. */
    public static UniqueResult uniqueDim(Tensor self, long dim) {
        return SortOps.unique(self, true, false, false, dim);
    }

    /**
     * {@code torch.unique(input, sorted, return_inverse, return_counts, dim)}: returns the unique elements of the input
     * tensor.
     */
    public static UniqueResult uniqueDim(
            Tensor self, long dim, boolean sorted, boolean returnInverse, boolean returnCounts) {
        return SortOps.unique(self, sorted, returnInverse, returnCounts, dim);
    }

    /**
     * {@code torch.unique_consecutive}: eliminates all but the first element from every consecutive group of equivalent
     * elements.
     */
    public static Tensor uniqueConsecutive(Tensor self) {
        return SortOps.uniqueConsecutive(self);
    }

    /**
     * {@code torch.unique_consecutive}: eliminates all but the first element from every consecutive group of equivalent
     * elements.
     */
    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts) {
        return SortOps.uniqueConsecutive(self, returnInverse, returnCounts);
    }

    /**
     * {@code torch.unique_consecutive}: eliminates all but the first element from every consecutive group of equivalent
     * elements.
     */
    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts, long dim) {
        return SortOps.uniqueConsecutive(self, returnInverse, returnCounts, dim);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(Tensor sortedSequence, Tensor values) {
        return SearchOps.searchsorted(sortedSequence, values);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(Tensor sortedSequence, Tensor values, boolean right) {
        return SearchOps.searchsorted(sortedSequence, values, right);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(
            Tensor sortedSequence, Tensor values, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SearchOps.searchsorted(sortedSequence, values, outInt32, right, side, sorter);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(Tensor sortedSequence, Scalar value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(Tensor sortedSequence, double value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(Tensor sortedSequence, long value) {
        return SearchOps.searchsorted(sortedSequence, value);
    }

    /**
     * {@code torch.searchsorted}: find the indices from the *innermost* dimension of {@code sorted_sequence} such that,
     * if the corresponding values in {@code values} were inserted before the indices, when sorted, the order of the
     * corresponding *innermost* dimension within {@code sorted_sequence} would be preserved.
     */
    public static Tensor searchsorted(
            Tensor sortedSequence, Scalar value, boolean outInt32, boolean right, String side, Tensor sorter) {
        return SearchOps.searchsorted(sortedSequence, value, outInt32, right, side, sorter);
    }

    /**
     * {@code torch.bucketize}: returns the indices of the buckets to which each value in the {@code input} belongs,
     * where the boundaries of the buckets are set by {@code boundaries}.
     */
    public static Tensor bucketize(Tensor input, Tensor boundaries) {
        return SearchOps.bucketize(input, boundaries);
    }

    /**
     * {@code torch.bucketize}: returns the indices of the buckets to which each value in the {@code input} belongs,
     * where the boundaries of the buckets are set by {@code boundaries}.
     */
    public static Tensor bucketize(Tensor input, Tensor boundaries, boolean outInt32, boolean right) {
        return SearchOps.bucketize(input, boundaries, outInt32, right);
    }

    /**
     * {@code torch.bucketize}: returns the indices of the buckets to which each value in the {@code input} belongs,
     * where the boundaries of the buckets are set by {@code boundaries}.
     */
    public static Tensor bucketize(Scalar input, Tensor boundaries) {
        return SearchOps.bucketize(input, boundaries);
    }

    /**
     * {@code torch.bucketize}: returns the indices of the buckets to which each value in the {@code input} belongs,
     * where the boundaries of the buckets are set by {@code boundaries}.
     */
    public static Tensor bucketize(Scalar input, Tensor boundaries, boolean outInt32, boolean right) {
        return SearchOps.bucketize(input, boundaries, outInt32, right);
    }

    /** {@code torch.histc}: computes the histogram of a tensor. */
    public static Tensor histc(Tensor self) {
        return SearchOps.histc(self);
    }

    /** {@code torch.histc}: computes the histogram of a tensor. */
    public static Tensor histc(Tensor self, long bins) {
        return SearchOps.histc(self, bins);
    }

    /** {@code torch.histc}: computes the histogram of a tensor. */
    public static Tensor histc(Tensor self, long bins, double min, double max) {
        return SearchOps.histc(self, bins, min, max);
    }

    /** {@code torch.histc}: computes the histogram of a tensor. */
    public static Tensor histc(Tensor self, long bins, double min, double max, Tensor out) {
        return SearchOps.histc(self, bins, min, max, out);
    }

    /** {@code torch.bincount}: count the frequency of each value in an array of non-negative ints. */
    public static Tensor bincount(Tensor self) {
        return SearchOps.bincount(self);
    }

    /** {@code torch.bincount}: count the frequency of each value in an array of non-negative ints. */
    public static Tensor bincount(Tensor self, Tensor weights) {
        return SearchOps.bincount(self, weights);
    }

    /** {@code torch.bincount}: count the frequency of each value in an array of non-negative ints. */
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
    /** {@code torch.pdist(x)}: Euclidean distances of all row pairs {@code i < j}. */
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
        return org.jtorch.io.Serialization.loadStateDict(path);
    }
}

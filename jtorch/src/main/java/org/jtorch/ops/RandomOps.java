package org.jtorch.ops;

import java.math.BigDecimal;
import java.math.MathContext;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Mt19937;
import org.jtorch.kernels.cpu.RandomFill;
import org.jtorch.kernels.cpu.RandomInts;
import org.jtorch.storage.TensorImpl;

/**
 * Random sampling: the generator state functions of {@code torch} ({@code manual_seed}, {@code seed},
 * {@code initial_seed}, {@code get_rng_state}, {@code set_rng_state}), the factories {@code rand}, {@code randn},
 * {@code randint}, {@code randperm}, {@code normal}, the samplers {@code bernoulli} and {@code multinomial}, and the
 * in-place fills {@code uniform_}, {@code normal_}, {@code exponential_}, {@code geometric_}, {@code cauchy_},
 * {@code log_normal_}, {@code bernoulli_}, {@code random_}.
 *
 * <p><b>Same seed, same numbers.</b> Every op draws from a {@link Generator} (the default one unless given) exactly as
 * PyTorch's CPU kernels draw from theirs, so {@code rand}, {@code randn} (both the per-element path and the vectorised
 * path for 16 or more contiguous elements), {@code randint} and {@code randperm} return PyTorch's numbers: bit for bit
 * for float32 and the integer ops, and for float64 within one ulp on about 0.2% of the normal samples, where the JVM's
 * {@code log}/{@code sin}/{@code cos} and glibc's round differently (see {@link org.jtorch.kernels.cpu.BoxMuller}).
 * Each op holds the generator's lock while it draws, so concurrent ops never interleave inside one op, and the result
 * never depends on the thread count.
 *
 * <p><b>2.15 versus 1.13.</b> Where PyTorch changed the sampling, 2.15's rule is used: float16/bfloat16
 * {@code rand}/{@code randn} sample in float (24-bit uniforms) and round once; the per-element normal and
 * {@code exponential_} use {@code log1p(-u)}; {@code exponential_} needs {@code lambd > 0} and {@code cauchy_}
 * {@code sigma > 0}; {@code randperm} accepts bfloat16. The checks follow libtorch 2.10's messages.
 *
 * <p><b>Not reproduced.</b> Official x86 builds with MKL draw {@code bernoulli_(p)} with a scalar p and
 * {@code exponential_} (hence {@code multinomial} without replacement) through MKL's own stream; JTorch reproduces the
 * non-MKL kernels (AMD and non-MKL builds, as Debian's and libtorch 2.10 on this machine).
 */
public final class RandomOps {
    private RandomOps() {}

    /** Why the in-place samplers' functional forms have no derivative. */
    private static final String SAMPLED =
            "random values that do not depend on self's values; PyTorch's zero gradient " + "is not defined yet";

    // ---- generator state ---------------------------------------------------------------------------

    /** {@code torch.manual_seed(seed)}: seeds the default CPU generator (there is no accelerator generator to seed). */
    public static void manualSeed(long seed) {
        Generator.defaultGenerator().manualSeed(seed);
    }

    /** {@code torch.seed()}: seeds the default generator nondeterministically and returns the seed. */
    public static long seed() {
        return Generator.defaultGenerator().seed();
    }

    /** {@code torch.initial_seed()}: the default generator's last seed (64 bits, read as unsigned). */
    public static long initialSeed() {
        return Generator.defaultGenerator().initialSeed();
    }

    /** {@code torch.get_rng_state()}: the default generator's state, a uint8 tensor of 5056 bytes. */
    public static Tensor getRngState() {
        return Generator.defaultGenerator().getState();
    }

    /** {@code torch.set_rng_state(new_state)}: restores the default generator; an invalid state changes nothing. */
    public static void setRngState(Tensor newState) {
        Generator.defaultGenerator().setState(newState);
    }

    /** {@code torch.default_generator}. */
    public static Generator defaultGenerator() {
        return Generator.defaultGenerator();
    }

    private static Generator gen(Object g) {
        return g != null ? (Generator) g : Generator.defaultGenerator();
    }

    /** Runs {@code body} on the generator's engine with its lock held. */
    private static void draw(Object generator, java.util.function.Consumer<Mt19937> body) {
        gen(generator).withEngine(e -> {
            body.accept(e);
            return null;
        });
    }

    // ---- messages -----------------------------------------------------------------------------------

    /** A double as C++'s {@code operator<<} prints it (6 significant digits, %g style), for ATen's messages. */
    static String cpp(double v) {
        if (Double.isNaN(v)) return "nan";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == 0) return (1 / v < 0) ? "-0" : "0";
        BigDecimal b = new BigDecimal(v).round(new MathContext(6));
        int exponent = b.precision() - b.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            String digits = b.unscaledValue().abs().toString().replaceAll("0+$", "");
            String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
            return (v < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+")
                    + (Math.abs(exponent) < 10 ? "0" : "") + Math.abs(exponent);
        }
        return b.stripTrailingZeros().toPlainString();
    }

    /** The element type as ATen's TypeMeta prints it in bound messages (GCC's spelling: {@code short int}). */
    static String typeMetaName(DType d) {
        return switch (d) {
            case BOOL -> "bool";
            case UINT8 -> "unsigned char";
            case INT8 -> "signed char";
            case INT16 -> "short int";
            case UINT16 -> "short unsigned int";
            case INT32 -> "int";
            case UINT32 -> "unsigned int";
            case INT64 -> "long int";
            case UINT64 -> "long unsigned int";
            case FLOAT16 -> "c10::Half";
            case BFLOAT16 -> "c10::BFloat16";
            case FLOAT32 -> "float";
            case FLOAT64 -> "double";
            default -> d.cppName();
        };
    }

    private static TorchException notImplemented(String kernel, DType d) {
        return new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    /** float16, bfloat16, float32, float64: the dtypes ATen's continuous samplers dispatch on. */
    private static boolean isSamplingFloat(DType d) {
        return d == DType.FLOAT16 || d == DType.BFLOAT16 || d == DType.FLOAT32 || d == DType.FLOAT64;
    }

    private static DType floatDefault(Object dtype) {
        return dtype != null ? (DType) dtype : DefaultDtype.get();
    }

    private static Device deviceOr(Object device) {
        return device != null ? (Device) device : Device.CPU;
    }

    /** {@code view_as_real} without dispatch, for kernels that fill complex tensors through their real parts. */
    private static Tensor realView(Tensor t) {
        int n = t.dim();
        long[] shape = java.util.Arrays.copyOf(t.impl().shapeRef(), n + 1), strides = new long[n + 1];
        shape[n] = 2;
        for (int i = 0; i < n; i++) strides[i] = 2 * t.impl().strideRef()[i];
        strides[n] = 1;
        return Tensor.of(TensorImpl.of(
                t.impl().storage(),
                2 * t.storageOffset(),
                shape,
                strides,
                t.dtype().toReal()));
    }

    // ---- uniform ------------------------------------------------------------------------------------

    /** ATen's {@code check_uniform_bounds}: floating (or complex, through its real dtype) and a finite [from, to). */
    private static void checkUniform(DType dtype, double from, double to) {
        DType dt = dtype.toReal();
        if (!isSamplingFloat(dt)) throw notImplemented("check_uniform_bounds", dtype);
        double max = PointwiseOps.maxFinite(dt);
        if (!(from >= -max && from <= max)) throw new TorchException("from is out of bounds for " + typeMetaName(dt));
        if (!(to >= -max && to <= max)) throw new TorchException("to is out of bounds for " + typeMetaName(dt));
        if (from > to) {
            throw new TorchException(
                    "uniform_ expects to return a [from, to) range, but found from=" + cpp(from) + " > to=" + cpp(to));
        }
        if (!(to - from <= max)) {
            throw new TorchException(
                    "uniform_ expects to-from <= std::numeric_limits<" + dt.cppName() + ">::max(), but found to="
                            + cpp(to) + " and from=" + cpp(from) + " which result in to-from to exceed the limit");
        }
    }

    private static void uniformKernel(Object generator, Tensor out, double from, double to) {
        Tensor real = out.isComplex() ? realView(out) : out;
        draw(generator, e -> RandomFill.uniform(e, real.impl(), from, to));
    }

    /**
     * {@code rand(size, *, generator, dtype, device)}: uniform on [0, 1). Complex dtypes fill real and imaginary parts.
     */
    public static final OpDef RAND = OpDef.structured(
            "rand.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                long[] size = Shapes.checkSizes("rand", (long[]) args[0]);
                DType dtype = floatDefault(args[2]);
                checkUniform(dtype, 0, 1);
                return Spec.of(size, dtype, deviceOr(args[3]), null);
            },
            (args, outs, spec) -> uniformKernel(args[1], outs[0], 0, 1),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code uniform(self, from, to, *, generator)}: the functional form of {@code uniform_}. */
    public static final OpDef UNIFORM = OpDef.structured(
                    "uniform(Tensor self, float from=0, float to=1, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        checkUniform(self.dtype(), (Double) args[1], (Double) args[2]);
                        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), null);
                    },
                    (args, outs, spec) -> uniformKernel(args[3], outs[0], (Double) args[1], (Double) args[2]),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    // ---- normal -------------------------------------------------------------------------------------

    private static void checkNormal(DType dtype, double std) {
        if (!(std >= 0.0)) throw new TorchException("normal expects std >= 0.0, but found std " + cpp(std));
        if (!isSamplingFloat(dtype.toReal())) throw notImplemented("normal_kernel_cpu", dtype);
    }

    /** Complex tensors draw real and imaginary parts with std / sqrt(2), so that the complex variance is std^2. */
    private static void normalKernel(Object generator, Tensor out, double mean, double std) {
        Tensor real = out.isComplex() ? realView(out) : out;
        double s = out.isComplex() ? std / Math.sqrt(2) : std;
        draw(generator, e -> RandomFill.normal(e, real.impl(), mean, s));
    }

    /** {@code randn(size, *, generator, dtype, device)}: standard normal samples. */
    public static final OpDef RANDN = OpDef.structured(
            "randn.generator(SymInt[] size, *, Generator? generator, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                long[] size = Shapes.checkSizes("randn", (long[]) args[0]);
                DType dtype = floatDefault(args[2]);
                checkNormal(dtype, 1);
                return Spec.of(size, dtype, deviceOr(args[3]), null);
            },
            (args, outs, spec) -> normalKernel(args[1], outs[0], 0, 1),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code normal(mean, std, size, *, generator, dtype, device)} with float mean and std. */
    public static final OpDef NORMAL_FLOAT_FLOAT = OpDef.structured(
            "normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, "
                    + "ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                long[] size = Shapes.checkSizes("normal", (long[]) args[2]);
                DType dtype = floatDefault(args[4]);
                checkNormal(dtype, (Double) args[1]);
                return Spec.of(size, dtype, deviceOr(args[5]), null);
            },
            (args, outs, spec) -> normalKernel(args[3], outs[0], (Double) args[0], (Double) args[1]),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code normal_functional(self, mean, std, *, generator)}: the functional form of {@code normal_}. */
    public static final OpDef NORMAL_FUNCTIONAL = OpDef.structured(
                    "normal_functional(Tensor self, float mean=0, float std=1, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        checkNormal(self.dtype(), (Double) args[2]);
                        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), null);
                    },
                    (args, outs, spec) -> normalKernel(args[3], outs[0], (Double) args[1], (Double) args[2]),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    /** ATen's {@code CHECK_NORMAL_TENSOR_STD}: a real std whose elements are all >= 0 (checked on data). */
    private static void checkStdTensor(Tensor std) {
        if (std.isComplex()) throw new TorchException("normal expects standard deviation to be non-complex");
        if (!std.impl().hasData() || std.numel() == 0) return;
        for (double v : std.toDoubleArray()) {
            if (!(v >= 0)) throw new TorchException("normal expects all elements of std >= 0.0");
        }
    }

    /**
     * A fresh standard-normal tensor of {@code shape}/{@code dtype}, scaled by {@code std} (ATen's {@code normal_(0,
     * std)}).
     */
    private static Tensor freshNormal(long[] shape, DType dtype, Device device, double std, Object generator) {
        Tensor out = Tensor.of(Backends.empty(shape, dtype, device));
        Dispatcher.callOut(NORMAL_FUNCTIONAL, new Tensor[] {out}, out, 0.0, std, generator);
        return out;
    }

    /** {@code normal(mean, std)} with a mean tensor: {@code normal_(0, std)} on a tensor like mean, plus mean. */
    public static final OpDef NORMAL_TENSOR_FLOAT = OpDef.composite(
            "normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor mean = (Tensor) args[0];
                double std = (Double) args[1];
                if (!(std >= 0.0)) throw new TorchException("normal expects std >= 0.0, but found std " + cpp(std));
                Tensor out = freshNormal(mean.impl().shapeRef(), mean.dtype(), mean.device(), std, args[2]);
                Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {out}, out, mean);
                return out;
            },
            OpDef.Flag.RANDOM);

    /** {@code normal(mean, std)} with a std tensor: standard normals like std, times std, plus mean. */
    public static final OpDef NORMAL_FLOAT_TENSOR = OpDef.composite(
            "normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor std = (Tensor) args[1];
                checkStdTensor(std);
                Tensor out = freshNormal(std.impl().shapeRef(), std.dtype(), std.device(), 1.0, args[2]);
                Dispatcher.callOut(PointwiseOps.MUL, new Tensor[] {out}, out, std);
                Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {out}, out, (Double) args[0]);
                return out;
            },
            OpDef.Flag.RANDOM);

    /** {@code normal(mean, std)} with tensors: broadcast shape, mean's dtype; standard normals times std plus mean. */
    public static final OpDef NORMAL_TENSOR_TENSOR = OpDef.composite(
            "normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor mean = (Tensor) args[0], std = (Tensor) args[1];
                checkStdTensor(std);
                long[] shape =
                        Shapes.broadcast(mean.impl().shapeRef(), std.impl().shapeRef());
                Tensor out = freshNormal(shape, mean.dtype(), Devices.common("normal", mean, std), 1.0, args[2]);
                Dispatcher.callOut(PointwiseOps.MUL, new Tensor[] {out}, out, std);
                Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {out}, out, mean);
                return out;
            },
            OpDef.Flag.RANDOM);

    // ---- other continuous distributions ---------------------------------------------------------------

    private static Spec like(Tensor self) {
        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), null);
    }

    /** {@code exponential(self, lambd, *, generator)}: the functional form of {@code exponential_}. */
    public static final OpDef EXPONENTIAL = OpDef.structured(
                    "exponential(Tensor self, float lambd=1, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        double lambda = (Double) args[1];
                        if (!(lambda > 0.0))
                            throw new TorchException(
                                    "exponential_ expects lambda > 0.0, but found lambda=" + cpp(lambda));
                        if (!isSamplingFloat(self.dtype())) {
                            throw new TorchException(
                                    "Exponential distribution is a continuous probability distribution. "
                                            + "dtype must be a floating point but you specified "
                                            + self.dtype().cppName());
                        }
                        return like(self);
                    },
                    (args, outs, spec) ->
                            draw(args[2], e -> RandomFill.exponential(e, outs[0].impl(), (Double) args[1])),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    /** {@code geometric(self, p, *, generator)}: the functional form of {@code geometric_}; integral dtypes too. */
    public static final OpDef GEOMETRIC = OpDef.structured(
                    "geometric(Tensor self, float p, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        double p = (Double) args[1];
                        if (!(p > 0 && p < 1))
                            throw new TorchException("geometric_ expects p to be in (0, 1), but got p=" + cpp(p));
                        DType d = self.dtype();
                        if (d == DType.BOOL || d.isComplex() || d.isFloat8() || d.isBarebonesUnsigned())
                            throw notImplemented("geometric_cpu", d);
                        return like(self);
                    },
                    (args, outs, spec) -> draw(args[2], e -> RandomFill.geometric(e, outs[0].impl(), (Double) args[1])),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    /** {@code cauchy(self, median, sigma, *, generator)}: the functional form of {@code cauchy_}. */
    public static final OpDef CAUCHY = OpDef.structured(
                    "cauchy(Tensor self, float median=0, float sigma=1, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        double sigma = (Double) args[2];
                        if (!(sigma > 0.0))
                            throw new TorchException("cauchy_ expects sigma > 0.0, but found sigma=" + cpp(sigma));
                        if (!isSamplingFloat(self.dtype())) throw notImplemented("cauchy_cpu", self.dtype());
                        return like(self);
                    },
                    (args, outs, spec) -> draw(
                            args[3], e -> RandomFill.cauchy(e, outs[0].impl(), (Double) args[1], (Double) args[2])),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    /** {@code log_normal(self, mean, std, *, generator)}: the functional form of {@code log_normal_}. */
    public static final OpDef LOG_NORMAL = OpDef.structured(
                    "log_normal(Tensor self, float mean=1, float std=2, *, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        double std = (Double) args[2];
                        if (!(std > 0.0))
                            throw new TorchException("log_normal_ expects std > 0.0, but found std=" + cpp(std));
                        if (!isSamplingFloat(self.dtype())) throw notImplemented("log_normal_cpu", self.dtype());
                        return like(self);
                    },
                    (args, outs, spec) -> draw(
                            args[3], e -> RandomFill.logNormal(e, outs[0].impl(), (Double) args[1], (Double) args[2])),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented(SAMPLED);

    // ---- bernoulli ----------------------------------------------------------------------------------

    /** Real dtypes a Bernoulli sample can be stored in: everything but complex, float8 and uint16/32/64. */
    private static void checkBernoulliSelf(String kernel, DType d) {
        if (d.isComplex() || d.isFloat8() || d.isBarebonesUnsigned()) throw notImplemented(kernel, d);
    }

    /**
     * {@code bernoulli(self, p, *, generator)}: a tensor like self of 0/1 with probability p (functional
     * {@code bernoulli_(p)}).
     */
    public static final OpDef BERNOULLI_P = OpDef.structured(
            "bernoulli.p(Tensor self, float p=0.5, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                double p = (Double) args[1];
                if (!(p >= 0 && p <= 1))
                    throw new TorchException("bernoulli_ expects p to be in [0, 1], but got p=" + cpp(p));
                checkBernoulliSelf("bernoulli_scalar_cpu_", self.dtype());
                return like(self);
            },
            (args, outs, spec) -> draw(args[2], e -> RandomFill.bernoulli(e, outs[0].impl(), (Double) args[1])),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    private static void checkProbabilityTensor(Tensor self, Tensor p) {
        checkBernoulliSelf("bernoulli_tensor_cpu_self_", self.dtype());
        if (!isSamplingFloat(p.dtype())) throw notImplemented("bernoulli_tensor_cpu_p_", p.dtype());
        // ATen expands p to self's shape in place; the view rule raises expand's own messages.
        ShapeOps.EXPAND.viewFn().apply(new Object[] {p, self.impl().shapeRef(), false});
    }

    /** Probabilities outside [0, 1] (or NaN) are refused before anything is drawn. */
    private static void checkProbabilities(Tensor p) {
        if (!p.impl().hasData()) return;
        for (double v : p.toDoubleArray()) {
            if (!(v >= 0 && v <= 1)) {
                throw new TorchException(
                        "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message "
                                + "be improved?  If so, please report an enhancement request to PyTorch.)");
            }
        }
    }

    /**
     * {@code bernoulli(self, p, *, generator)} with a probability tensor broadcast to self: the functional
     * {@code bernoulli_(p)}.
     */
    public static final OpDef BERNOULLI_TENSOR = OpDef.structured(
            "bernoulli.Tensor(Tensor self, Tensor p, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0], p = (Tensor) args[1];
                checkProbabilityTensor(self, p);
                return like(self);
            },
            (args, outs, spec) -> {
                Tensor p = (Tensor) args[1];
                checkProbabilities(p);
                draw(args[2], e -> RandomFill.bernoulli(e, outs[0].impl(), p.impl()));
            },
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code bernoulli(input, *, generator)}: 0/1 samples with the probabilities in input, in input's dtype. */
    public static final OpDef BERNOULLI = OpDef.structured(
            "bernoulli(Tensor self, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                checkProbabilityTensor(self, self);
                return like(self);
            },
            (args, outs, spec) -> {
                Tensor p = (Tensor) args[0];
                checkProbabilities(p);
                draw(args[1], e -> RandomFill.bernoulli(e, outs[0].impl(), p.impl()));
            },
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- random_ and randint ------------------------------------------------------------------------------

    /**
     * What {@code random_} draws: {@code from + draw % range} (range as unsigned 64 bits), or every int64 when
     * {@code full}.
     */
    record RandomRange(long from, long range, boolean full) {}

    /** Mantissa digits of a floating dtype ({@code std::numeric_limits<T>::digits}). */
    private static int digits(DType d) {
        return switch (d) {
            case FLOAT16 -> 11;
            case BFLOAT16 -> 8;
            case FLOAT32 -> 24;
            default -> 53;
        };
    }

    /** {@code (int64_t) (scalar_t) v}: an int64 through the floating dtype and back. */
    private static long throughFloat(DType d, long v) {
        double f = d == DType.FLOAT64 ? (double) v : (double) (float) v;
        if (d == DType.FLOAT16 || d == DType.BFLOAT16) f = RandomFill.round16(d, (float) f);
        return (long) f;
    }

    /** ATen's {@code update_from}: moves {@code from} up to the first value the dtype represents. */
    private static long updateFrom(DType d, long from) {
        long fromPlus1 = throughFloat(d, from + 1);
        if (fromPlus1 < from) {
            long f = Math.abs(from + 1);
            int n = 63 - Long.numberOfLeadingZeros(f);
            from = fromPlus1 + (1L << (n - digits(d) + 1));
        }
        return from;
    }

    /** ATen's {@code update_to}: moves {@code to} down to the last value the dtype represents. */
    private static long updateTo(DType d, long to) {
        long toMinus1 = throughFloat(d, to - 1);
        if (toMinus1 >= to) {
            long t = Math.abs(to - 1);
            int n = 63 - Long.numberOfLeadingZeros(t);
            to = toMinus1 - (1L << (n - digits(d) + 1));
        }
        return to;
    }

    /** ATen's {@code check_from_to_in_range}, with its precision warning for floating dtypes. */
    private static void checkInRange(long from, long toInclusive, DType d) {
        String type = typeMetaName(d);
        if (d.isFloatingPoint()) {
            double max = PointwiseOps.maxFinite(d);
            if (!(from >= -max && from <= max)) throw new TorchException("from is out of bounds for " + type);
            if (!(toInclusive >= -max && toInclusive <= max))
                throw new TorchException("to - 1 is out of bounds for " + type);
            int digits = digits(d);
            warnPrecision(from, "from", digits, type);
            warnPrecision(toInclusive, "to - 1", digits, type);
        } else if (d == DType.UINT64) {
            if (from < 0) throw new TorchException("from is out of bounds for " + type);
            if (toInclusive < 0) throw new TorchException("to - 1 is out of bounds for " + type);
        } else {
            ScalarConversion.IntRange r = ScalarConversion.IntRange.of(d);
            if (from < r.low() || from > r.high()) throw new TorchException("from is out of bounds for " + type);
            if (toInclusive < r.low() || toInclusive > r.high())
                throw new TorchException("to - 1 is out of bounds for " + type);
        }
    }

    private static void warnPrecision(long v, String name, int digits, String type) {
        long limit = 1L << digits;
        if (v < -limit || v > limit) {
            Warnings.warn(name + " is out of bounds [-(2^" + digits + "), 2^" + digits
                    + "]. Due to precision limitations " + type
                    + " can support discrete uniform distribution only within this range. This warning will "
                    + "become an error in"
                    + " version 1.7 release, please fix the code in advance");
        }
    }

    /** The meta part of ATen's {@code random_from_to_impl}: checks, and the range to draw from. */
    static RandomRange randomRange(DType d, long from, Long to) {
        if (!(d.isFloatingPoint() || d.isIntegral(true)) || d.isFloat8()) {
            throw new TorchException("check_random_bounds handles only integral, floating-point and boolean types");
        }
        if (to != null) {
            long t = to;
            if (from >= t) {
                throw new TorchException(
                        "random_ expects 'from' to be less than 'to', but got from=" + from + " >= to=" + t);
            }
            if (d.isFloatingPoint()) {
                from = updateFrom(d, from);
                t = updateTo(d, t);
                if (from >= t) {
                    throw new TorchException(
                            "random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got from="
                                    + from + " >= to=" + t);
                }
            }
            checkInRange(from, t - 1, d);
            return new RandomRange(from, t - from, false);
        }
        if (from == Long.MIN_VALUE) {
            if (d != DType.INT64 && d != DType.FLOAT64 && d != DType.FLOAT32 && d != DType.BFLOAT16) {
                throw new TorchException(
                        "random_full_64_bits_range_kernel_cpu handles only int64, double, float and bfloat16");
            }
            return new RandomRange(from, 0, true);
        }
        long toInclusive;
        if (d.isFloatingPoint()) {
            toInclusive = 1L << digits(d);
            from = updateFrom(d, from);
            if (from >= toInclusive) {
                throw new TorchException(
                        "random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' casted to dtype, "
                                + "but got from=" + from + " > to_inc=" + toInclusive);
            }
        } else {
            toInclusive = d == DType.UINT64
                    ? Long.MAX_VALUE
                    : ScalarConversion.IntRange.of(d).high();
        }
        checkInRange(from, toInclusive, d);
        return new RandomRange(from, toInclusive - from + 1, false);
    }

    private static void randomKernel(Object generator, Tensor out, RandomRange r) {
        draw(generator, e -> {
            if (r.full()) RandomInts.full64(e, out.impl());
            else RandomInts.fromTo(e, out.impl(), r.range(), r.from());
        });
    }

    /** {@code randint(low, high, size, *, generator, dtype=int64, device)}: integers uniform on [low, high). */
    public static final OpDef RANDINT = OpDef.structured(
            "randint.low_generator(SymInt low, SymInt high, SymInt[] size, *, Generator? generator, "
                    + "ScalarType? dtype=long, "
                    + "Device? device=None) -> Tensor",
            args -> {
                long[] size = Shapes.checkSizes("randint", (long[]) args[2]);
                DType dtype = args[4] != null ? (DType) args[4] : DType.INT64;
                return Spec.of(size, dtype, deviceOr(args[5]), randomRange(dtype, (Long) args[0], (Long) args[1]));
            },
            (args, outs, spec) -> randomKernel(args[3], outs[0], (RandomRange) spec.plan()),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /**
     * {@code random(self, from, to, *, generator)}: the functional {@code random_(from, to)}; {@code to} null means up
     * to the dtype's maximum.
     */
    public static final OpDef RANDOM_FROM = OpDef.structured(
            "random.from(Tensor self, int from, int? to, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                return Spec.of(
                        self.impl().shapeRef(),
                        self.dtype(),
                        self.device(),
                        randomRange(self.dtype(), (Long) args[1], (Long) args[2]));
            },
            (args, outs, spec) -> randomKernel(args[3], outs[0], (RandomRange) spec.plan()),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /**
     * {@code random(self, *, generator)}: the functional {@code random_()}, integers on [0, max] of the dtype (2^digits
     * for floats).
     */
    public static final OpDef RANDOM = OpDef.structured(
            "random(Tensor self, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                DType d = self.dtype();
                if (d.isComplex() || d.isFloat8() || d.isBarebonesUnsigned())
                    throw notImplemented("random_kernel_cpu", d);
                return like(self);
            },
            (args, outs, spec) -> draw(args[1], e -> RandomInts.defaultRange(e, outs[0].impl())),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- randperm -----------------------------------------------------------------------------------

    /** {@code randperm(n, *, generator, dtype=int64, device)}: a random permutation of 0..n-1. */
    public static final OpDef RANDPERM = OpDef.structured(
            "randperm.generator(SymInt n, *, Generator? generator, ScalarType? dtype=long, "
                    + "Device? device=None) -> Tensor",
            args -> {
                long n = (Long) args[0];
                long[] size = Shapes.checkSizes("randperm", new long[] {n});
                DType d = args[2] != null ? (DType) args[2] : DType.INT64;
                if (d == DType.BOOL || d.isComplex() || d.isFloat8() || d.isBarebonesUnsigned())
                    throw notImplemented("randperm", d);
                long largest = n > 0 ? n - 1 : n;
                if (d.isIntegral(false)
                        && largest > ScalarConversion.IntRange.of(d).high()) throw ScalarConversion.overflow(d);
                switch (d) {
                    case FLOAT16 -> {
                        if (n > (1L << 11) + 1)
                            throw new TorchException("n cannot be greater than 2049 for Half type.");
                    }
                    case FLOAT32 -> {
                        if (n > (1L << 24) + 1)
                            throw new TorchException("n cannot be greater than 2^24+1 for Float type.");
                    }
                    case FLOAT64 -> {
                        if (n > (1L << 53) + 1)
                            throw new TorchException("n cannot be greater than 2^53+1 for Double type.");
                    }
                    default -> {}
                }
                return Spec.of(size, d, deviceOr(args[3]), null);
            },
            (args, outs, spec) ->
                    draw(args[1], e -> RandomInts.randperm(e, outs[0].impl(), Math.toIntExact((Long) args[0]))),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- multinomial ----------------------------------------------------------------------------------

    /** {@code multinomial(self, num_samples, replacement, *, generator)}: category indices (int64) per row of self. */
    public static final OpDef MULTINOMIAL = OpDef.structured(
            "multinomial(Tensor self, int num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                long samples = (Long) args[1];
                boolean replacement = (Boolean) args[2];
                if (self.dim() < 1 || self.dim() > 2) throw new TorchException("prob_dist must be 1 or 2 dim");
                if (!isSamplingFloat(self.dtype())) {
                    throw new TorchException("multinomial only supports floating-point dtypes for input, got: "
                            + self.dtype().cppName());
                }
                if (samples <= 0) throw new TorchException("cannot sample n_sample <= 0 samples");
                long categories = self.size(-1);
                if (!replacement && samples > categories) {
                    throw new TorchException("cannot sample n_sample > prob_dist.size(-1) samples without replacement");
                }
                if (categories > (1L << 24)) throw new TorchException("number of categories cannot exceed 2^24");
                long[] shape = self.dim() == 1 ? new long[] {samples} : new long[] {self.size(0), samples};
                return Spec.of(shape, DType.INT64, self.device(), null);
            },
            (args, outs, spec) -> multinomialKernel(
                    (Tensor) args[0], Math.toIntExact((Long) args[1]), (Boolean) args[2], args[3], outs[0]),
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    private static void multinomialKernel(
            Tensor probs, int samples, boolean replacement, Object generator, Tensor out) {
        if (out.numel() == 0) return;
        int rows = probs.dim() == 2 ? (int) probs.size(0) : 1;
        int categories = (int) probs.size(-1);
        double[] p = probs.toDoubleArray();
        boolean gumbel = !replacement || samples == 1;
        for (int r = 0; r < rows; r++) {
            double sum = 0;
            for (int j = 0; j < categories; j++) {
                double v = p[r * categories + j];
                if (gumbel && !(v >= 0 && v < Double.POSITIVE_INFINITY)) {
                    throw new TorchException("probability tensor contains either `inf`, `nan` or element < 0");
                }
                if (!gumbel && !(v >= 0)) {
                    throw new TorchException("invalid multinomial distribution (encountering probability entry < 0)");
                }
                if (!gumbel && Double.isInfinite(v)) {
                    throw new TorchException(
                            "invalid multinomial distribution (encountering probability entry = infinity or NaN)");
                }
                sum += v;
            }
            if (!(sum > 0)) throw new TorchException("invalid multinomial distribution (sum of probabilities <= 0)");
        }
        if (gumbel) {
            // q = empty_like(probs) keeps a dense layout, and exponential_ fills q in that layout's order.
            TensorImpl layout = isNonOverlappingAndDense(probs)
                    ? probs.impl()
                    : TensorImpl.empty(probs.impl().shapeRef(), probs.dtype());
            draw(generator, e -> RandomInts.gumbel(e, probs.impl(), layout, samples, out.impl()));
        } else {
            draw(generator, e -> RandomInts.withReplacement(e, probs.impl(), samples, out.impl()));
        }
    }

    /** Whether the tensor's elements tile a storage range without gaps or overlaps (any dim order). */
    private static boolean isNonOverlappingAndDense(Tensor t) {
        int nd = t.dim();
        Integer[] dims = new Integer[nd];
        for (int i = 0; i < nd; i++) dims[i] = i;
        long[] shape = t.impl().shapeRef(), strides = t.impl().strideRef();
        java.util.Arrays.sort(dims, (a, b) -> Long.compare(strides[a], strides[b]));
        long expected = 1;
        for (int d : dims) {
            if (shape[d] == 1) continue;
            if (strides[d] != expected) return false;
            expected *= shape[d];
        }
        return true;
    }

    // ---- *_like ---------------------------------------------------------------------------------------

    /** {@code rand_like(self)}: {@code rand} with self's shape, dtype and device. */
    public static final OpDef RAND_LIKE = OpDef.composite(
            "rand_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                return RAND.call1(
                        self.impl().shapeRef(),
                        args[1],
                        args[2] != null ? args[2] : self.dtype(),
                        args[3] != null ? args[3] : self.device());
            },
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code randn_like(self)}: {@code randn} with self's shape, dtype and device. */
    public static final OpDef RANDN_LIKE = OpDef.composite(
            "randn_like(Tensor self, *, Generator? generator=None, ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                return RANDN.call1(
                        self.impl().shapeRef(),
                        args[1],
                        args[2] != null ? args[2] : self.dtype(),
                        args[3] != null ? args[3] : self.device());
            },
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code randint_like(self, low, high)}: {@code randint} with self's shape, dtype and device. */
    public static final OpDef RANDINT_LIKE = OpDef.composite(
            "randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, Generator? generator=None, "
                    + "ScalarType? dtype=None, "
                    + "Device? device=None) -> Tensor",
            args -> {
                Tensor self = (Tensor) args[0];
                return RANDINT.call1(
                        args[1],
                        args[2],
                        self.impl().shapeRef(),
                        args[3],
                        args[4] != null ? args[4] : self.dtype(),
                        args[5] != null ? args[5] : self.device());
            },
            OpDef.Flag.RANDOM,
            OpDef.Flag.NOT_DIFFERENTIABLE);

    // ---- entry points: factories ------------------------------------------------------------------------

    /** {@code torch.rand(*size)}: uniform samples on [0, 1) in the default dtype. */
    public static Tensor rand(long... shape) {
        return RAND.call1(shape, null, null, null);
    }

    /** {@code torch.rand(size, dtype=dtype)}. */
    public static Tensor rand(long[] shape, DType dtype) {
        return RAND.call1(shape, null, dtype, null);
    }

    /** {@code torch.rand(size, generator=generator)}. */
    public static Tensor rand(long[] shape, Generator generator) {
        return RAND.call1(shape, generator, null, null);
    }

    /** {@code torch.rand(size, generator=, dtype=, device=)}; null arguments take the defaults. */
    public static Tensor rand(long[] shape, DType dtype, Device device, Generator generator) {
        return RAND.call1(shape, generator, dtype, device);
    }

    /** {@code torch.randn(*size)}: standard normal samples in the default dtype. */
    public static Tensor randn(long... shape) {
        return RANDN.call1(shape, null, null, null);
    }

    /** {@code torch.randn(size, dtype=dtype)}. */
    public static Tensor randn(long[] shape, DType dtype) {
        return RANDN.call1(shape, null, dtype, null);
    }

    /** {@code torch.randn(size, generator=generator)}. */
    public static Tensor randn(long[] shape, Generator generator) {
        return RANDN.call1(shape, generator, null, null);
    }

    /** {@code torch.randn(size, generator=, dtype=, device=)}; null arguments take the defaults. */
    public static Tensor randn(long[] shape, DType dtype, Device device, Generator generator) {
        return RANDN.call1(shape, generator, dtype, device);
    }

    /** {@code torch.randint(low, high, size)}: int64 samples uniform on [low, high). */
    public static Tensor randint(long low, long high, long... shape) {
        return RANDINT.call1(low, high, shape, null, null, null);
    }

    /** {@code torch.randint(low, high, size, dtype=dtype)}. */
    public static Tensor randint(long low, long high, long[] shape, DType dtype) {
        return RANDINT.call1(low, high, shape, null, dtype, null);
    }

    /** {@code torch.randint(low, high, size, generator=generator)}. */
    public static Tensor randint(long low, long high, long[] shape, Generator generator) {
        return RANDINT.call1(low, high, shape, generator, null, null);
    }

    /** {@code torch.randint(low, high, size, generator=, dtype=, device=)}; null arguments take the defaults. */
    public static Tensor randint(long low, long high, long[] shape, DType dtype, Device device, Generator generator) {
        return RANDINT.call1(low, high, shape, generator, dtype, device);
    }

    /** {@code torch.randperm(n)}: a random permutation of 0..n-1 (int64). */
    public static Tensor randperm(long n) {
        return RANDPERM.call1(n, null, null, null);
    }

    /** {@code torch.randperm(n, dtype=dtype)}. */
    public static Tensor randperm(long n, DType dtype) {
        return RANDPERM.call1(n, null, dtype, null);
    }

    /** {@code torch.randperm(n, generator=generator)}. */
    public static Tensor randperm(long n, Generator generator) {
        return RANDPERM.call1(n, generator, null, null);
    }

    /** {@code torch.randperm(n, generator=, dtype=, device=)}; null arguments take the defaults. */
    public static Tensor randperm(long n, DType dtype, Device device, Generator generator) {
        return RANDPERM.call1(n, generator, dtype, device);
    }

    /** {@code torch.rand_like(input)}. */
    public static Tensor randLike(Tensor input) {
        return RAND_LIKE.call1(input, null, null, null);
    }

    /** {@code torch.rand_like(input, generator=generator)}. */
    public static Tensor randLike(Tensor input, Generator generator) {
        return RAND_LIKE.call1(input, generator, null, null);
    }

    /** {@code torch.randn_like(input)}. */
    public static Tensor randnLike(Tensor input) {
        return RANDN_LIKE.call1(input, null, null, null);
    }

    /** {@code torch.randn_like(input, generator=generator)}. */
    public static Tensor randnLike(Tensor input, Generator generator) {
        return RANDN_LIKE.call1(input, generator, null, null);
    }

    /** {@code torch.randint_like(input, low, high)}. */
    public static Tensor randintLike(Tensor input, long low, long high) {
        return RANDINT_LIKE.call1(input, low, high, null, null, null);
    }

    /** {@code torch.randint_like(input, low, high, generator=generator)}. */
    public static Tensor randintLike(Tensor input, long low, long high, Generator generator) {
        return RANDINT_LIKE.call1(input, low, high, generator, null, null);
    }

    /** {@code torch.normal(mean, std, size)}: normal samples with float mean and std, in the default dtype. */
    public static Tensor normal(double mean, double std, long... shape) {
        return NORMAL_FLOAT_FLOAT.call1(mean, std, shape, null, null, null);
    }

    /** {@code torch.normal(mean, std, size, generator=generator)}. */
    public static Tensor normal(double mean, double std, long[] shape, Generator generator) {
        return NORMAL_FLOAT_FLOAT.call1(mean, std, shape, generator, null, null);
    }

    /** {@code torch.normal(mean, std)} with a mean tensor: one sample per element, mean's dtype. */
    public static Tensor normal(Tensor mean, double std) {
        return NORMAL_TENSOR_FLOAT.call1(mean, std, null);
    }

    /** {@code torch.normal(mean, std, generator=generator)} with a mean tensor. */
    public static Tensor normal(Tensor mean, double std, Generator generator) {
        return NORMAL_TENSOR_FLOAT.call1(mean, std, generator);
    }

    /** {@code torch.normal(mean, std)} with a std tensor: one sample per element, std's dtype. */
    public static Tensor normal(double mean, Tensor std) {
        return NORMAL_FLOAT_TENSOR.call1(mean, std, null);
    }

    /** {@code torch.normal(mean, std, generator=generator)} with a std tensor. */
    public static Tensor normal(double mean, Tensor std, Generator generator) {
        return NORMAL_FLOAT_TENSOR.call1(mean, std, generator);
    }

    /** {@code torch.normal(mean, std)} with tensors: the broadcast shape, mean's dtype. */
    public static Tensor normal(Tensor mean, Tensor std) {
        return NORMAL_TENSOR_TENSOR.call1(mean, std, null);
    }

    /** {@code torch.normal(mean, std, generator=generator)} with tensors. */
    public static Tensor normal(Tensor mean, Tensor std, Generator generator) {
        return NORMAL_TENSOR_TENSOR.call1(mean, std, generator);
    }

    // ---- entry points: samplers ------------------------------------------------------------------------

    /** {@code torch.bernoulli(input)}: 0/1 samples with the probabilities in input (floating), input's dtype. */
    public static Tensor bernoulli(Tensor input) {
        return BERNOULLI.call1(input, null);
    }

    /** {@code torch.bernoulli(input, generator=generator)}. */
    public static Tensor bernoulli(Tensor input, Generator generator) {
        return BERNOULLI.call1(input, generator);
    }

    /** {@code torch.bernoulli(input, p)}: 0/1 samples with probability p, shaped and typed like input. */
    public static Tensor bernoulli(Tensor input, double p) {
        return BERNOULLI_P.call1(input, p, null);
    }

    /** {@code torch.bernoulli(input, p, generator=generator)}. */
    public static Tensor bernoulli(Tensor input, double p, Generator generator) {
        return BERNOULLI_P.call1(input, p, generator);
    }

    /** {@code torch.multinomial(input, num_samples)}: indices drawn without replacement, per row of input. */
    public static Tensor multinomial(Tensor input, long numSamples) {
        return MULTINOMIAL.call1(input, numSamples, false, null);
    }

    /** {@code torch.multinomial(input, num_samples, replacement)}. */
    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement) {
        return MULTINOMIAL.call1(input, numSamples, replacement, null);
    }

    /** {@code torch.multinomial(input, num_samples, replacement, generator=generator)}. */
    public static Tensor multinomial(Tensor input, long numSamples, boolean replacement, Generator generator) {
        return MULTINOMIAL.call1(input, numSamples, replacement, generator);
    }

    // ---- entry points: in-place fills --------------------------------------------------------------------

    private static Tensor inPlace(Tensor self, OpDef op, Object... args) {
        Dispatcher.callOut(op, new Tensor[] {self}, args);
        return self;
    }

    /** {@code Tensor.uniform_()}: fills self with uniform samples on [0, 1). */
    public static Tensor uniform_(Tensor self) {
        return inPlace(self, UNIFORM, self, 0.0, 1.0, null);
    }

    /** {@code Tensor.uniform_(from, to)}. */
    public static Tensor uniform_(Tensor self, double from, double to) {
        return inPlace(self, UNIFORM, self, from, to, null);
    }

    /** {@code Tensor.uniform_(from, to, generator=generator)}. */
    public static Tensor uniform_(Tensor self, double from, double to, Generator generator) {
        return inPlace(self, UNIFORM, self, from, to, generator);
    }

    /** {@code Tensor.normal_()}: fills self with standard normal samples. */
    public static Tensor normal_(Tensor self) {
        return inPlace(self, NORMAL_FUNCTIONAL, self, 0.0, 1.0, null);
    }

    /** {@code Tensor.normal_(mean, std)}. */
    public static Tensor normal_(Tensor self, double mean, double std) {
        return inPlace(self, NORMAL_FUNCTIONAL, self, mean, std, null);
    }

    /** {@code Tensor.normal_(mean, std, generator=generator)}. */
    public static Tensor normal_(Tensor self, double mean, double std, Generator generator) {
        return inPlace(self, NORMAL_FUNCTIONAL, self, mean, std, generator);
    }

    /** {@code Tensor.exponential_()}: exponential samples with rate 1. */
    public static Tensor exponential_(Tensor self) {
        return inPlace(self, EXPONENTIAL, self, 1.0, null);
    }

    /** {@code Tensor.exponential_(lambd)}. */
    public static Tensor exponential_(Tensor self, double lambd) {
        return inPlace(self, EXPONENTIAL, self, lambd, null);
    }

    /** {@code Tensor.exponential_(lambd, generator=generator)}. */
    public static Tensor exponential_(Tensor self, double lambd, Generator generator) {
        return inPlace(self, EXPONENTIAL, self, lambd, generator);
    }

    /** {@code Tensor.geometric_(p)}: the number of Bernoulli(p) trials up to the first success. */
    public static Tensor geometric_(Tensor self, double p) {
        return inPlace(self, GEOMETRIC, self, p, null);
    }

    /** {@code Tensor.geometric_(p, generator=generator)}. */
    public static Tensor geometric_(Tensor self, double p, Generator generator) {
        return inPlace(self, GEOMETRIC, self, p, generator);
    }

    /** {@code Tensor.cauchy_()}: Cauchy samples with median 0 and scale 1. */
    public static Tensor cauchy_(Tensor self) {
        return inPlace(self, CAUCHY, self, 0.0, 1.0, null);
    }

    /** {@code Tensor.cauchy_(median, sigma)}. */
    public static Tensor cauchy_(Tensor self, double median, double sigma) {
        return inPlace(self, CAUCHY, self, median, sigma, null);
    }

    /** {@code Tensor.cauchy_(median, sigma, generator=generator)}. */
    public static Tensor cauchy_(Tensor self, double median, double sigma, Generator generator) {
        return inPlace(self, CAUCHY, self, median, sigma, generator);
    }

    /** {@code Tensor.log_normal_()}: log-normal samples with mean 1 and std 2 (of the underlying normal). */
    public static Tensor logNormal_(Tensor self) {
        return inPlace(self, LOG_NORMAL, self, 1.0, 2.0, null);
    }

    /** {@code Tensor.log_normal_(mean, std)}. */
    public static Tensor logNormal_(Tensor self, double mean, double std) {
        return inPlace(self, LOG_NORMAL, self, mean, std, null);
    }

    /** {@code Tensor.log_normal_(mean, std, generator=generator)}. */
    public static Tensor logNormal_(Tensor self, double mean, double std, Generator generator) {
        return inPlace(self, LOG_NORMAL, self, mean, std, generator);
    }

    /** {@code Tensor.bernoulli_(p)}: 0/1 with probability p. */
    public static Tensor bernoulli_(Tensor self, double p) {
        return inPlace(self, BERNOULLI_P, self, p, null);
    }

    /** {@code Tensor.bernoulli_(p, generator=generator)}. */
    public static Tensor bernoulli_(Tensor self, double p, Generator generator) {
        return inPlace(self, BERNOULLI_P, self, p, generator);
    }

    /** {@code Tensor.bernoulli_(p)} with a probability tensor broadcast to self. */
    public static Tensor bernoulli_(Tensor self, Tensor p) {
        return inPlace(self, BERNOULLI_TENSOR, self, p, null);
    }

    /** {@code Tensor.bernoulli_(p, generator=generator)} with a probability tensor. */
    public static Tensor bernoulli_(Tensor self, Tensor p, Generator generator) {
        return inPlace(self, BERNOULLI_TENSOR, self, p, generator);
    }

    /** {@code Tensor.random_()}: integers on [0, max] of the dtype ([0, 2^digits] for floating dtypes). */
    public static Tensor random_(Tensor self) {
        return inPlace(self, RANDOM, self, null);
    }

    /** {@code Tensor.random_(generator=generator)}. */
    public static Tensor random_(Tensor self, Generator generator) {
        return inPlace(self, RANDOM, self, generator);
    }

    /** {@code Tensor.random_(to)}: integers on [0, to). */
    public static Tensor random_(Tensor self, long to) {
        return inPlace(self, RANDOM_FROM, self, 0L, to, null);
    }

    /** {@code Tensor.random_(from, to)}: integers on [from, to). */
    public static Tensor random_(Tensor self, long from, long to) {
        return inPlace(self, RANDOM_FROM, self, from, to, null);
    }

    /** {@code Tensor.random_(from, to, generator=generator)}. */
    public static Tensor random_(Tensor self, long from, long to, Generator generator) {
        return inPlace(self, RANDOM_FROM, self, from, to, generator);
    }

    /**
     * {@code Tensor.random_(from, None)}: integers on [from, max] of the dtype (2^digits for floating dtypes);
     * {@code from = Long.MIN_VALUE} draws every 64-bit pattern.
     */
    public static Tensor random_(Tensor self, long from, Long to) {
        return inPlace(self, RANDOM_FROM, self, from, to, null);
    }

    /**
     * {@code Tensor.random_(from, to, generator=generator)} where a null {@code to} means up to the dtype's maximum.
     */
    public static Tensor random_(Tensor self, long from, Long to, Generator generator) {
        return inPlace(self, RANDOM_FROM, self, from, to, generator);
    }
}

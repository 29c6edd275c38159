package org.jtorch.ops;

import static org.jtorch.ops.Pointwise.REAL_FLOATS;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.DistributionSamplers;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.Mt19937;
import org.jtorch.kernels.cpu.ReparameterizedGrads;
import org.jtorch.kernels.cpu.SerialOrder;
import org.jtorch.ops.Pointwise.Promotion;
import org.jtorch.storage.TensorImpl;

/**
 * The samplers behind {@code torch.distributions}' Gamma, Beta, Dirichlet, Poisson and Binomial:
 * {@code _standard_gamma} (differentiable through the implicit gradient {@code _standard_gamma_grad}),
 * {@code _sample_dirichlet} with its gradient {@code _dirichlet_grad}, {@code poisson} and {@code binomial}. Each draws
 * element by element in serial order with ATen's CPU algorithm ({@link DistributionSamplers}), so a seed gives
 * PyTorch's numbers.
 */
public final class DistributionOps {
    private DistributionOps() {}

    /** ATen's gamma, dirichlet and binomial kernels dispatch on float and double only. */
    private static void checkFloatOrDouble(String kernel, DType d) {
        if (d != DType.FLOAT32 && d != DType.FLOAT64) {
            throw new TorchException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
        }
    }

    private static Spec like(Tensor self) {
        return Spec.of(self.impl().shapeRef(), self.dtype(), self.device(), null);
    }

    /** One draw per element of {@code in}, in serial order, written to {@code out} (same shape). */
    @FunctionalInterface
    private interface Draw {
        double next(Mt19937 g, double value);
    }

    private static void sample(Object generator, TensorImpl out, Tensor in, Draw draw) {
        double[] values = in.toDoubleArray();
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.storage().segment();
        Generator gen = generator != null ? (Generator) generator : Generator.defaultGenerator();
        gen.withEngine(e -> {
            int[] k = {0};
            SerialOrder.forEach(out, (o, unused) -> io.setDouble(seg, o, draw.next(e, values[k[0]++])));
            return null;
        });
    }

    /**
     * {@code std::max(bound, v)}: the bound unless {@code bound < v}, so a NaN sample becomes the bound, as in ATen.
     */
    private static double atLeast(double bound, double v) {
        return bound < v ? v : bound;
    }

    /** {@code std::min(bound, v)}: the bound unless {@code v < bound}. */
    private static double atMost(double bound, double v) {
        return v < bound ? v : bound;
    }

    /** The smallest positive normal number of a float dtype ({@code std::numeric_limits<T>::min()}). */
    private static double tiny(DType d) {
        return d == DType.FLOAT64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
    }

    /**
     * {@code _standard_gamma(self, generator)}: Gamma(self, 1) samples, at least the dtype's smallest normal number;
     * differentiable in self by the implicit gradient.
     */
    public static final OpDef STANDARD_GAMMA = OpDef.structured(
                    "_standard_gamma(Tensor self, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        checkFloatOrDouble("gamma_cpu", self.dtype());
                        return like(self);
                    },
                    (args, outs, spec) -> {
                        double tiny = tiny(outs[0].dtype());
                        boolean single = outs[0].dtype() == DType.FLOAT32;
                        sample(args[1], outs[0].impl(), (Tensor) args[0], (g, alpha) -> {
                            double s = DistributionSamplers.gamma(g, alpha, single);
                            return atLeast(tiny, single ? (float) s : s);
                        });
                    },
                    OpDef.Flag.RANDOM)
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(standardGammaGrad((Tensor) a[0], o[0]))})
            .defineJvp(
                    (a, o, t) -> new Tensor[] {t[0] == null ? null : t[0].mul(standardGammaGrad((Tensor) a[0], o[0]))});

    /**
     * {@code _standard_gamma_grad(self, output)}: d output / d self for standard Gamma(self) samples output, the
     * derivative of {@code _standard_gamma}.
     */
    public static final OpDef STANDARD_GAMMA_GRAD = Pointwise.binary(
                    "_standard_gamma_grad(Tensor self, Tensor output) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    new Fns.Binary(ReparameterizedGrads::standardGamma, null, null, null, null))
            .derivativeNotImplemented("ATen's _standard_gamma_grad has no derivative either");

    /**
     * {@code _sample_dirichlet(self, generator)}: Dirichlet(self) samples over the last dim: Gamma draws in double,
     * normalised, then kept within [smallest normal, largest number below 1] of the dtype.
     */
    public static final OpDef SAMPLE_DIRICHLET = OpDef.structured(
                    "_sample_dirichlet(Tensor self, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        checkFloatOrDouble("dirichlet", self.dtype());
                        return like(self);
                    },
                    (args, outs, spec) -> sampleDirichlet(args[1], outs[0].impl(), (Tensor) args[0]),
                    OpDef.Flag.RANDOM)
            .derivativeNotImplemented("PyTorch differentiates Dirichlet samples in the distribution, through "
                    + "_dirichlet_grad, not through this op");

    private static void sampleDirichlet(Object generator, TensorImpl out, Tensor alpha) {
        double[] values = alpha.toDoubleArray();
        double[] gammas = new double[values.length];
        Generator gen = generator != null ? (Generator) generator : Generator.defaultGenerator();
        gen.withEngine(e -> {
            for (int i = 0; i < values.length; i++) {
                gammas[i] = atLeast(Double.MIN_NORMAL, DistributionSamplers.gamma(e, values[i], false));
            }
            return null;
        });
        long[] shape = alpha.shape();
        int k = shape.length == 0 ? 1 : (int) shape[shape.length - 1];
        boolean single = out.dtype() == DType.FLOAT32;
        double min = tiny(out.dtype()), max = single ? Math.nextDown(1.0f) : Math.nextDown(1.0);
        double[] result = new double[values.length];
        for (int row = 0; row + k <= values.length && k > 0; row += k) {
            double sum = 0;
            for (int j = 0; j < k; j++) sum += gammas[row + j];
            for (int j = 0; j < k; j++) {
                double v = gammas[row + j] / sum;
                result[row + j] = atMost(max, atLeast(min, single ? (float) v : v));
            }
        }
        ElementIO io = ElementIO.of(out.dtype());
        MemorySegment seg = out.storage().segment();
        int[] i = {0};
        SerialOrder.forEach(out, (o, unused) -> io.setDouble(seg, o, result[i[0]++]));
    }

    /**
     * {@code _dirichlet_grad(x, alpha, total)}: d x / d alpha for a Beta(alpha, total - alpha) sample x, scaled by
     * {@code 1 / (1 - x)}: the reparameterisation gradient of Dirichlet and Beta samples.
     */
    public static final OpDef DIRICHLET_GRAD = Pointwise.ternary(
                    "_dirichlet_grad(Tensor x, Tensor alpha, Tensor total) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    args -> new Fns.Ternary(ReparameterizedGrads::dirichlet, null, null))
            .derivativeNotImplemented("ATen's _dirichlet_grad has no derivative either");

    /** {@code poisson(self, generator)}: Poisson(self) counts in self's dtype; rates must be non-negative. */
    public static final OpDef POISSON = OpDef.structured(
                    "poisson(Tensor self, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor self = (Tensor) args[0];
                        if (!self.isFloatingPoint()) {
                            throw new TorchException("\"poisson_cpu\" not implemented for '"
                                    + self.dtype().cppName() + "'");
                        }
                        return like(self);
                    },
                    (args, outs, spec) -> {
                        Tensor rates = (Tensor) args[0];
                        for (double r : rates.toDoubleArray()) {
                            if (!(r >= 0)) {
                                throw new TorchException("invalid Poisson rate, expected rate to be non-negative");
                            }
                        }
                        sample(args[1], outs[0].impl(), rates, DistributionSamplers::poisson);
                    },
                    OpDef.Flag.RANDOM)
            // PyTorch's derivative: zero, as the counts do not move with the rates
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0])})
            .defineJvp((a, o, t) -> new Tensor[] {Grads.zeros(o[0])});

    /**
     * {@code binomial(count, prob, generator)}: Binomial(count, prob) counts in count's shape and dtype; prob
     * broadcasts to count and has its dtype.
     */
    public static final OpDef BINOMIAL = OpDef.structured(
                    "binomial(Tensor count, Tensor prob, Generator? generator=None) -> Tensor",
                    args -> {
                        Tensor count = (Tensor) args[0], prob = (Tensor) args[1];
                        checkFloatOrDouble("binomial_cpu", count.dtype());
                        if (prob.dtype() != count.dtype()) {
                            throw new TorchException(
                                    "expected scalar type " + count.dtype().cppName() + " but found "
                                            + prob.dtype().cppName());
                        }
                        long[] shape = Shapes.broadcast(
                                count.impl().shapeRef(), prob.impl().shapeRef());
                        if (!Arrays.equals(shape, count.impl().shapeRef())) {
                            throw new TorchException("output with shape " + Shapes.str(count.shape())
                                    + " doesn't match the broadcast shape " + Shapes.str(shape));
                        }
                        return Spec.of(
                                count.impl().shapeRef(), count.dtype(), Devices.common("binomial", count, prob), null);
                    },
                    (args, outs, spec) -> {
                        Tensor count = (Tensor) args[0];
                        double[] probs =
                                ((Tensor) args[1]).expand(count.shape()).toDoubleArray();
                        int[] k = {0};
                        sample(
                                args[2],
                                outs[0].impl(),
                                count,
                                (g, n) -> DistributionSamplers.binomial(g, n, probs[k[0]++]));
                    },
                    OpDef.Flag.RANDOM)
            // PyTorch's derivative: zero in both the counts and the probabilities
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {Grads.zeros(g[0]), Grads.zeros(g[0])})
            .defineJvp((a, o, t) -> new Tensor[] {Grads.zeros(o[0])});

    /** {@code torch._standard_gamma(self)}. */
    public static Tensor standardGamma(Tensor self) {
        return STANDARD_GAMMA.call1(self, null);
    }

    /** {@code torch._standard_gamma_grad(self, output)}. */
    public static Tensor standardGammaGrad(Tensor self, Tensor output) {
        return STANDARD_GAMMA_GRAD.call1(self, output);
    }

    /** {@code torch._sample_dirichlet(self)}. */
    public static Tensor sampleDirichlet(Tensor self) {
        return SAMPLE_DIRICHLET.call1(self, null);
    }

    /** {@code torch._dirichlet_grad(x, alpha, total)}. */
    public static Tensor dirichletGrad(Tensor x, Tensor alpha, Tensor total) {
        return DIRICHLET_GRAD.call1(x, alpha, total);
    }
}

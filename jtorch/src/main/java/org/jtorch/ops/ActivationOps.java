package org.jtorch.ops;

import static org.jtorch.ops.Pointwise.REAL_FLOATS;

import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.ops.Pointwise.Promotion;

/**
 * The activations and similarity functions of {@code torch.nn.functional} that ATen defines as ops: hardswish and
 * log_sigmoid with CPU kernels (pointwise, so vmap batches them by broadcasting), and relu6, selu, glu,
 * cosine_similarity and pairwise_distance as composites of other ops, as ATen writes them
 * ({@code CompositeImplicitAutograd}), so they inherit every rule of their pieces.
 */
public final class ActivationOps {
    private ActivationOps() {}

    /** SELU's constants, as ATen's {@code SELU_ALPHA} and {@code SELU_SCALE}. */
    private static final double SELU_ALPHA = 1.6732632423543772848170429916717;

    private static final double SELU_SCALE = 1.0507009873554804934193349852946;

    /** {@code hardswish(x) = x · min(max(x + 3, 0), 6) / 6}, ATen's CPU formula. */
    public static final OpDef HARDSWISH = Pointwise.unary(
                    "hardswish(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    new Fns.Unary(x -> x * Math.min(Math.max(x + 3, 0), 6) / 6, null, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // ATen's hardswish_backward: 0 below -3, x/3 + 1/2 on [-3, 3], 1 above
                Tensor x = (Tensor) a[0];
                Tensor slope = TernaryOps.where(
                        x.lt(-3.0), 0.0, TernaryOps.where(x.le(3.0), x.div(3.0).add(0.5), 1.0));
                return new Tensor[] {g[0].mul(slope)};
            })
            .deriveJvp(Jvps::elementwise);

    /** log σ(x) = min(x, 0) − log1p(e^−|x|), ATen's CPU formula, exact for large |x| of either sign. */
    public static final OpDef LOG_SIGMOID = Pointwise.unary(
                    "log_sigmoid(Tensor self) -> Tensor",
                    Promotion.DEFAULT,
                    REAL_FLOATS,
                    new Fns.Unary(x -> Math.min(x, 0) - Math.log1p(Math.exp(-Math.abs(x))), null, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0].mul(((Tensor) a[0]).neg().sigmoid())})
            .deriveJvp(Jvps::elementwise);

    /** {@code relu6(x) = hardtanh(x, 0, 6)}, as ATen defines it (so its dtypes and errors are hardtanh's). */
    public static final OpDef RELU6 = OpDef.composite(
            "relu6(Tensor self) -> Tensor", args -> ClampOps.HARDTANH.call1(args[0], Scalar.of(0L), Scalar.of(6L)));

    /**
     * {@code selu(x) = scale · (x if x > 0 else α(eˣ − 1))}: ATen's {@code elu(x, α, scale)}, whose CPU kernel takes
     * floating dtypes only.
     */
    public static final OpDef SELU = OpDef.composite("selu(Tensor self) -> Tensor", args -> {
        Tensor x = (Tensor) args[0];
        requireFloating("elu", x);
        return TernaryOps.where(
                x.gt(0L), x.mul(SELU_SCALE), PointwiseOps.EXPM1.call1(x).mul(SELU_ALPHA * SELU_SCALE));
    });

    /** {@code glu(x, dim) = a · σ(b)} for the halves a, b of x along {@code dim}. */
    public static final OpDef GLU = OpDef.composite("glu(Tensor self, int dim=-1) -> Tensor", args -> {
        Tensor x = (Tensor) args[0];
        if (x.dim() == 0) throw new TorchException("glu does not support scalars because halving size must be even");
        int dim = Shapes.wrapDim(((Number) args[1]).longValue(), x.dim());
        long n = x.size(dim);
        if (n % 2 != 0) {
            throw new TorchException("Halving dimension must be even, but dimension " + dim + " is size " + n);
        }
        requireFloating("glu", x);
        Tensor a = x.narrow(dim, 0, n / 2), b = x.narrow(dim, n / 2, n / 2);
        return a.mul(b.sigmoid());
    });

    /**
     * {@code cosine_similarity(x1, x2, dim, eps)}: ATen's formula, Σ (x1/max(‖x1‖, eps)) · (x2/max(‖x2‖, eps)) along
     * {@code dim} after broadcasting. ATen clamps the norms in place under no-grad, so the gradient flows as if they
     * were not clamped: here the clamp is added as a detached correction, which gives the same values and gradients.
     */
    public static final OpDef COSINE_SIMILARITY =
            OpDef.composite("cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor", args -> {
                Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                long dim = ((Number) args[2]).longValue();
                double eps = ((Number) args[3]).doubleValue();
                DType common = TypePromotion.resultType(x1, x2);
                if (!common.isFloatingPoint()) {
                    throw new TorchException(
                            "expected common dtype to be floating point, yet common dtype is " + common.cppName());
                }
                if (!x1.isFloatingPoint()) x1 = x1.to(common);
                if (!x2.isFloatingPoint()) x2 = x2.to(common);
                long[] shape = Shapes.broadcast(x1.shape(), x2.shape());
                x1 = x1.expand(shape);
                x2 = x2.expand(shape);
                long[] dims = {dim};
                Tensor n1 = clampedNorm(x1, dims, eps), n2 = clampedNorm(x2, dims, eps);
                return x1.div(n1).mul(x2.div(n2)).sum(dims, false);
            });

    /** ‖x‖₂ along {@code dims} (kept), raised to at least {@code eps} in value only. */
    private static Tensor clampedNorm(Tensor x, long[] dims, double eps) {
        Tensor norm = ReductionOps.vectorNorm(x, 2.0, dims, true);
        return norm.add(norm.detach().clampMin(eps).sub(norm.detach()));
    }

    /** {@code pairwise_distance(x1, x2, p, eps, keepdim) = ‖x1 − x2 + eps‖_p} along the last broadcast dim. */
    public static final OpDef PAIRWISE_DISTANCE = OpDef.composite(
            "pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor",
            args -> {
                Tensor x1 = (Tensor) args[0], x2 = (Tensor) args[1];
                double p = ((Number) args[2]).doubleValue(), eps = ((Number) args[3]).doubleValue();
                long innermost = Math.max(x1.dim(), x2.dim()) - 1;
                return ReductionOps.vectorNorm(x1.sub(x2).add(eps), p, new long[] {innermost}, (Boolean) args[4]);
            });

    /** ATen has these activations' CPU kernels for floating dtypes only: others fail as its dispatch does. */
    private static void requireFloating(String kernel, Tensor x) {
        if (!x.isFloatingPoint())
            throw new TorchException(
                    "\"" + kernel + "_cpu\" not implemented for '" + x.dtype().cppName() + "'");
    }

    /** {@code F.hardswish(x)}. */
    public static Tensor hardswish(Tensor x) {
        return HARDSWISH.call1(x);
    }

    /** {@code F.logsigmoid(x)}. */
    public static Tensor logSigmoid(Tensor x) {
        return LOG_SIGMOID.call1(x);
    }

    /** {@code F.relu6(x)}. */
    public static Tensor relu6(Tensor x) {
        return RELU6.call1(x);
    }

    /** {@code F.selu(x)}. */
    public static Tensor selu(Tensor x) {
        return SELU.call1(x);
    }

    /** {@code F.glu(x, dim)}. */
    public static Tensor glu(Tensor x, long dim) {
        return GLU.call1(x, dim);
    }

    /** {@code F.cosine_similarity(x1, x2, dim, eps)}. */
    public static Tensor cosineSimilarity(Tensor x1, Tensor x2, long dim, double eps) {
        return COSINE_SIMILARITY.call1(x1, x2, dim, eps);
    }

    /** {@code F.pairwise_distance(x1, x2, p, eps, keepdim)}. */
    public static Tensor pairwiseDistance(Tensor x1, Tensor x2, double p, double eps, boolean keepdim) {
        return PAIRWISE_DISTANCE.call1(x1, x2, p, eps, keepdim);
    }
}

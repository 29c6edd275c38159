package org.jtorch.optim;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.PointwiseOps;

/**
 * {@code torch.optim.Muon}: momentum whose update is orthogonalised by a Newton–Schulz iteration, for the 2-D weights
 * of hidden layers (biases, embeddings and other parameters go to e.g. AdamW).
 *
 * <p>Per parameter θ of shape (A, B) with gradient g and buffer b (state {@code momentum_buffer}, stored in the EMA
 * form): {@code b = lerp(b, g, 1-μ)}, {@code u = lerp(g, b, μ)} (nesterov) or {@code b}, {@code O = NS(u)}, {@code θ *=
 * 1 - lr·wd}, {@code θ -= adjusted_lr · O}. There is no {@code maximize}.
 */
public final class Muon extends Optimizer {

    /** {@code adjust_lr_fn}: how the learning rate is scaled with the shape (A, B) of the parameter. */
    public enum AdjustLrFn {
        /** {@code lr · sqrt(max(1, A/B))} (Keller Jordan's; also {@code None}). */
        ORIGINAL("original"),
        /** {@code lr · 0.2 · sqrt(max(A, B))} (Moonshot's, matches AdamW's update RMS). */
        MATCH_RMS_ADAMW("match_rms_adamw"),
        /** {@code lr · sqrt(A/B)}: like ORIGINAL but not clamped at 1 for wide matrices (2.14). */
        SPECTRAL_UNCLAMPED("spectral_unclamped");

        private final String pyName;

        AdjustLrFn(String pyName) {
            this.pyName = pyName;
        }

        /** PyTorch's string for this choice. */
        public String pyName() {
            return pyName;
        }

        /** The choice named {@code name}; null (PyTorch's None) is {@link #ORIGINAL}. */
        public static AdjustLrFn of(String name) {
            if (name == null) return ORIGINAL;
            for (AdjustLrFn f : values()) if (f.pyName.equals(name)) return f;
            throw new IllegalArgumentException("Adjust learning rate function " + name + " is not supported");
        }

        /** The learning rate applied to the orthogonalised update of an (A, B) parameter. */
        public double adjust(double lr, long a, long b) {
            double ratio =
                    switch (this) {
                        case ORIGINAL -> Math.sqrt(Math.max(1, (double) a / b));
                        case MATCH_RMS_ADAMW -> 0.2 * Math.sqrt(Math.max(a, b));
                        case SPECTRAL_UNCLAMPED -> Math.sqrt((double) a / b);
                    };
            return lr * ratio;
        }
    }

    /** Muon's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        @Override
        protected Options create(Map<String, Object> values) {
            return new Options(values);
        }

        /**
         * PyTorch's defaults: lr 1e-3, weight_decay 0.1, momentum 0.95, nesterov, NS (3.4445, -4.775, 2.0315) × 5, eps
         * 1e-7.
         */
        public static Options defaults() {
            Map<String, Object> v = new LinkedHashMap<>();
            v.put("lr", 1e-3);
            v.put("weight_decay", 0.1);
            v.put("momentum", 0.95);
            v.put("nesterov", true);
            v.put("ns_coefficients", List.of(DEFAULT_A, DEFAULT_B, DEFAULT_C));
            v.put("eps", DEFAULT_EPS);
            v.put("ns_steps", DEFAULT_NS_STEPS);
            v.put("adjust_lr_fn", null);
            v.put("use_addmm", false);
            return new Options(v);
        }

        /** Nothing set, for {@link ParamGroup#of(Iterable, OptimizerOptions)}. */
        public static Options overrides() {
            return new Options(Map.of());
        }

        /** {@code lr}: the learning rate (PyTorch's default 1e-3). */
        public Options lr(double lr) {
            return with("lr", lr);
        }

        /** A one-element tensor learning rate. */
        public Options lr(Tensor lr) {
            return with("lr", lr);
        }

        /** {@code weight_decay}: decoupled weight decay, as AdamW's (default 0.1). */
        public Options weightDecay(double weightDecay) {
            return with("weight_decay", weightDecay);
        }

        /** {@code momentum}: the momentum factor (default 0.95). */
        public Options momentum(double momentum) {
            return with("momentum", momentum);
        }

        /** {@code nesterov}: Nesterov momentum (default on). */
        public Options nesterov(boolean nesterov) {
            return with("nesterov", nesterov);
        }

        /** {@code ns_coefficients}: (a, b, c) of the quintic; any other count fails at step time, as in PyTorch. */
        public Options nsCoefficients(double... abc) {
            return with("ns_coefficients", Arrays.stream(abc).boxed().toList());
        }

        /** {@code eps}: the floor of the norm the update is divided by before the Newton-Schulz iteration. */
        public Options eps(double eps) {
            return with("eps", eps);
        }

        /** {@code ns_steps}: Newton-Schulz iterations that orthogonalise the update (default 5). */
        public Options nsSteps(int nsSteps) {
            return with("ns_steps", nsSteps);
        }

        /**
         * {@code adjust_lr_fn}: null, {@code "original"}, {@code "match_rms_adamw"} or {@code "spectral_unclamped"}.
         */
        public Options adjustLrFn(String adjustLrFn) {
            return with("adjust_lr_fn", adjustLrFn);
        }

        /** {@code adjust_lr_fn} as a constant: how the learning rate is scaled by the parameter's shape. */
        public Options adjustLrFn(AdjustLrFn adjustLrFn) {
            return with("adjust_lr_fn", adjustLrFn.pyName());
        }

        /** {@code use_addmm}: the same iteration through fused {@code addmm}. */
        public Options useAddmm(boolean useAddmm) {
            return with("use_addmm", useAddmm);
        }
    }

    static final double DEFAULT_A = 3.4445, DEFAULT_B = -4.7750, DEFAULT_C = 2.0315, DEFAULT_EPS = 1e-7;
    static final int DEFAULT_NS_STEPS = 5;

    /** {@code Muon(params, **options)}; every parameter must be 2-D. */
    public Muon(Iterable<Tensor> params, Options options) {
        super(params, options, Muon::validate);
        requireMatrices();
    }

    /**
     * {@code Muon(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public Muon(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code Muon([group, ...], **options)}; every parameter must be 2-D. */
    public Muon(List<ParamGroup> groups, Options options) {
        super(groups, options, Muon::validate);
        requireMatrices();
    }

    private void requireMatrices() {
        for (ParamGroup g : paramGroups()) {
            for (Tensor p : g.params()) {
                if (p.dim() != 2) {
                    throw new IllegalArgumentException(
                            "Muon only supports 2D parameters whereas we found a parameter with size: " + "torch.Size("
                                    + Arrays.toString(p.shape()) + ")");
                }
            }
        }
    }

    private static void validate(Map<String, Object> hp) {
        if (hp.get("lr") instanceof Tensor t && t.numel() != 1)
            throw new IllegalArgumentException("Tensor lr must be 1-element");
        double lr = number(hp, "lr"), momentum = number(hp, "momentum"), weightDecay = number(hp, "weight_decay");
        if (!(lr >= 0))
            throw new IllegalArgumentException("Learning rate should be >= 0 but is: " + repr(hp.get("lr")));
        if (!(momentum >= 0))
            throw new IllegalArgumentException("momentum should be >= 0 but is: " + repr(hp.get("momentum")));
        if (!(weightDecay >= 0))
            throw new IllegalArgumentException("weight decay should be >= 0 but is: " + repr(hp.get("weight_decay")));
        AdjustLrFn.of((String) hp.get("adjust_lr_fn"));
    }

    @Override
    protected void stepGroup(ParamGroup group) {
        double lr = group.lr(),
                weightDecay = group.doubleValue("weight_decay"),
                momentum = group.doubleValue("momentum");
        boolean nesterov = group.flag("nesterov"), useAddmm = group.flag("use_addmm");
        List<?> coefficients = (List<?>) group.get("ns_coefficients");
        double eps = group.doubleValue("eps");
        int nsSteps = ((Number) group.get("ns_steps")).intValue();
        AdjustLrFn adjust = AdjustLrFn.of((String) group.get("adjust_lr_fn"));
        for (Tensor p : group.params()) {
            Tensor grad = p.grad();
            if (grad == null) continue;
            if (p.isComplex()) throw new TorchException("Muon does not support complex parameters");
            if (grad.dim() != 2) throw new IllegalArgumentException("Param gradient must be a 2D matrix");
            Tensor buf = (Tensor) stateFor(p).computeIfAbsent("momentum_buffer", k -> Torch.zerosLike(grad));
            buf.lerp_(grad, 1 - momentum);
            Tensor update = nesterov ? grad.lerp(buf, momentum) : buf;
            Tensor ortho = newtonSchulz(update, coefficients, nsSteps, eps, DType.BFLOAT16, useAddmm);
            double adjustedLr = adjust.adjust(lr, p.size(0), p.size(1));
            p.mul_(1 - lr * weightDecay);
            Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {p}, p, ortho, -adjustedLr);
        }
    }

    /**
     * {@code _zeropower_via_newtonschulz(g, (a, b, c), steps, eps)} as PyTorch computes it: in bfloat16 (every product
     * and sum rounded to bfloat16, matrix products accumulated in float32), on the transpose when {@code g} is taller
     * than wide, after scaling to unit Frobenius norm (at least eps), {@code steps} times {@code S = X Xᵀ; X = a·X +
     * (b·S + (c·S) S) X}. Returns bfloat16.
     */
    public static Tensor newtonSchulz(Tensor g, double a, double b, double c, int steps, double eps) {
        return newtonSchulz(g, a, b, c, steps, eps, DType.BFLOAT16);
    }

    /**
     * The same iteration computed in {@code dtype}; {@link DType#FLOAT64} gives the exact reference the specification's
     * examples use.
     */
    public static Tensor newtonSchulz(Tensor g, double a, double b, double c, int steps, double eps, DType dtype) {
        return newtonSchulz(g, List.of(a, b, c), steps, eps, dtype, false);
    }

    private static Tensor newtonSchulz(
            Tensor g, List<?> coefficients, int steps, double eps, DType dtype, boolean useAddmm) {
        if (steps >= 100)
            throw new IllegalArgumentException("Number of steps must be less than 100 for computational efficiency");
        if (g.dim() != 2) throw new IllegalArgumentException("Input tensor gradient must be a 2D matrix");
        if (coefficients.size() != 3)
            throw new IllegalArgumentException("Coefficients must be a tuple of exactly 3 values");
        double a = ((Number) coefficients.get(0)).doubleValue();
        double b = ((Number) coefficients.get(1)).doubleValue();
        double c = ((Number) coefficients.get(2)).doubleValue();
        boolean tall = g.size(0) > g.size(1);
        // Always a fresh tensor: PyTorch's in-place scaling would otherwise write into a bfloat16 momentum buffer.
        Tensor x = g.to(dtype);
        if (x == g) x = g.clone();
        if (tall) x = x.t();
        // Frobenius norm 1 bounds the spectral norm by 1, inside the quintic's basin.
        x = x.div(Torch.vectorNorm(x).clampMin(eps));
        for (int i = 0; i < steps; i++) {
            Tensor gram = x.mm(x.t());
            if (useAddmm) {
                Tensor gramUpdate = gram.addmm(gram, gram, b, c);
                x = x.addmm(gramUpdate, x, a, 1.0);
            } else {
                Tensor gramUpdate = gram.mul(b).add(gram.mul(c).mm(gram));
                x = x.mul(a).add(gramUpdate.mm(x));
            }
        }
        return tall ? x.t() : x;
    }
}

package org.jtorch.optim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;

/**
 * {@code torch.optim.Adam}: adaptive moments with bias correction; L2 weight decay added to the gradient, or decoupled
 * (AdamW's rule) with {@code decoupled_weight_decay}; AMSGrad; maximisation.
 *
 * <pre>
 * m = lerp(m, g, 1 - beta1);  v = beta2 v + (1 - beta2) g^2;  vhat = max(vmax, v) if amsgrad
 * p -= lr / (1 - beta1^t) * m / (sqrt(vhat) / sqrt(1 - beta2^t) + eps)
 * </pre>
 *
 * State per parameter: {@code step} (0-d float32), {@code exp_avg}, {@code exp_avg_sq}, {@code max_exp_avg_sq}
 * (amsgrad). Complex parameters are updated as their real views.
 */
public final class Adam extends Optimizer {
    /** Adam's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /**
         * Every argument at PyTorch's default: lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False,
         * ...
         */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 1e-3);
            m.put("betas", List.of(0.9, 0.999));
            m.put("eps", 1e-8);
            m.put("weight_decay", 0L);
            m.put("amsgrad", false);
            m.put("maximize", false);
            m.put("foreach", null);
            m.put("capturable", false);
            m.put("differentiable", false);
            m.put("fused", null);
            m.put("decoupled_weight_decay", false);
            return new Options(m);
        }

        /** No value set: per-group overrides start here. */
        public static Options overrides() {
            return new Options(Map.of());
        }

        @Override
        protected Options create(Map<String, Object> values) {
            return new Options(values);
        }

        /** {@code lr}. */
        public Options lr(double lr) {
            return with("lr", lr);
        }

        /** A one-element tensor learning rate (not with foreach unless capturable). */
        public Options lr(Tensor lr) {
            return with("lr", lr);
        }

        /** {@code betas=(beta1, beta2)}, stored as a two-element list (Python's tuple). */
        public Options betas(double beta1, double beta2) {
            return with("betas", List.of(beta1, beta2));
        }

        /** {@code eps}. */
        public Options eps(double eps) {
            return with("eps", eps);
        }

        /** {@code weight_decay}. */
        public Options weightDecay(double weightDecay) {
            return with("weight_decay", weightDecay);
        }

        /** {@code amsgrad}. */
        public Options amsgrad(boolean amsgrad) {
            return with("amsgrad", amsgrad);
        }

        /** {@code maximize}. */
        public Options maximize(boolean maximize) {
            return with("maximize", maximize);
        }

        /** True: multi-tensor path; false: for-loop; null: JTorch's choice (foreach). */
        public Options foreach(Boolean foreach) {
            return with("foreach", foreach);
        }

        /** Accepted for compatibility: CPU steps are synchronous, so it changes nothing but the step dtype. */
        public Options capturable(boolean capturable) {
            return with("capturable", capturable);
        }

        /** {@code differentiable}. */
        public Options differentiable(boolean differentiable) {
            return with("differentiable", differentiable);
        }

        /** True: the fused kernel (float16/bfloat16 computed in float32). */
        public Options fused(Boolean fused) {
            return with("fused", fused);
        }

        /** Adam with decoupled weight decay (AdamW's rule) when true. */
        public Options decoupledWeightDecay(boolean decoupled) {
            return with("decoupled_weight_decay", decoupled);
        }
    }

    private Tensor gradScale;
    private Tensor foundInf;

    /** {@code Adam(params, **options)}: one group of {@code params}. */
    public Adam(Iterable<Tensor> params, Options options) {
        super(params, options, AdamCore::validate);
        StepSupport.checkFusedParams(this);
    }

    /**
     * {@code Adam(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public Adam(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code Adam([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public Adam(Options options, ParamGroup... groups) {
        super(List.of(groups), options, AdamCore::validate);
        StepSupport.checkFusedParams(this);
    }

    /** The same, with the groups in a list. */
    public Adam(List<ParamGroup> groups, Options options) {
        super(groups, options, AdamCore::validate);
        StepSupport.checkFusedParams(this);
    }

    /**
     * PyTorch's {@code optimizer.grad_scale} / {@code optimizer.found_inf}, which a gradient scaler sets before
     * {@code step()}; used by the fused path only. Null clears them.
     */
    public void ampScaling(Tensor gradScale, Tensor foundInf) {
        this.gradScale = gradScale;
        this.foundInf = foundInf;
    }

    @Override
    protected void stepGroup(ParamGroup g) {
        AdamCore.step(this, g, g.flag("decoupled_weight_decay"), gradScale, foundInf);
    }

    @Override
    boolean hasStepGraph() {
        return true;
    }

    @Override
    StepGraph stepGraph(ParamGroup group) {
        return new AdamStepGraph(this, group, false);
    }
}

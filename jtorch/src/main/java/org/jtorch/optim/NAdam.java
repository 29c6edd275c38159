package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.foreach.Foreach;
import org.jtorch.ops.Creation;

/**
 * {@code torch.optim.NAdam}: Adam with Nesterov momentum and a momentum schedule {@code mu_t = beta1 (1 - 0.5 * 0.96^(t
 * * momentum_decay))}.
 *
 * <pre>
 * g = -g if maximize;  p *= 1 - lr wd (decoupled) | g += wd p
 * mu_product *= mu_t;  m = lerp(m, g, 1 - beta1);  v = beta2 v + (1 - beta2) g^2
 * denom = sqrt(v / (1 - beta2^t)) + eps
 * p -= lr (1 - mu_t) / (1 - mu_product) * g / denom + lr mu_{t+1} / (1 - mu_product mu_{t+1}) * m / denom
 * </pre>
 *
 * State per parameter: {@code step}, {@code mu_product} (0-d float32, so its products round as PyTorch's do),
 * {@code exp_avg}, {@code exp_avg_sq}. Implementations: for-loop and foreach.
 */
public final class NAdam extends Optimizer {
    /** NAdam's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /**
         * Every argument at PyTorch's default: lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
         * momentum_decay=4e-3, ...
         */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 2e-3);
            m.put("betas", List.of(0.9, 0.999));
            m.put("eps", 1e-8);
            m.put("weight_decay", 0L);
            m.put("momentum_decay", 4e-3);
            m.put("decoupled_weight_decay", false);
            m.put("maximize", false);
            m.put("foreach", null);
            m.put("capturable", false);
            m.put("differentiable", false);
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

        /** {@code momentum_decay}. */
        public Options momentumDecay(double momentumDecay) {
            return with("momentum_decay", momentumDecay);
        }

        /** NAdamW: weight decay applied to the parameter, not added to the gradient. */
        public Options decoupledWeightDecay(boolean decoupled) {
            return with("decoupled_weight_decay", decoupled);
        }

        /** {@code maximize}. */
        public Options maximize(boolean maximize) {
            return with("maximize", maximize);
        }

        /** True: multi-tensor path; false: for-loop; null: JTorch's choice (foreach). */
        public Options foreach(Boolean foreach) {
            return with("foreach", foreach);
        }

        /** Accepted for compatibility: CPU steps are synchronous, so it changes nothing. */
        public Options capturable(boolean capturable) {
            return with("capturable", capturable);
        }

        /** {@code differentiable}. */
        public Options differentiable(boolean differentiable) {
            return with("differentiable", differentiable);
        }
    }

    /** {@code NAdam(params, **options)}: one group of {@code params}. */
    public NAdam(Iterable<Tensor> params, Options options) {
        super(params, options, NAdam::validate);
    }

    /**
     * {@code NAdam(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public NAdam(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code NAdam([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public NAdam(Options options, ParamGroup... groups) {
        super(List.of(groups), options, NAdam::validate);
    }

    /** The same, with the groups in a list. */
    public NAdam(List<ParamGroup> groups, Options options) {
        super(groups, options, NAdam::validate);
    }

    private static void validate(Map<String, Object> h) {
        requireNonNegative("learning rate", number(h, "lr"));
        requireNonNegative("epsilon value", number(h, "eps"));
        AdamCore.checkBetas(h);
        requireNonNegative("weight_decay value", number(h, "weight_decay"));
        requireNonNegative("momentum_decay value", number(h, "momentum_decay"));
    }

    @Override
    protected void stepGroup(ParamGroup g) {
        List<Tensor> params = StepSupport.withGrad(g);
        if (params.isEmpty()) return;
        List<Map<String, Object>> states = new ArrayList<>();
        for (Tensor p : params) {
            Map<String, Object> s = stateFor(p);
            if (s.isEmpty()) {
                s.put("step", StepSupport.newStep(g.flag("capturable")));
                DType scalar = ((Tensor) s.get("step")).dtype();
                s.put("mu_product", Creation.scalarTensor(Scalar.of(1.0), scalar));
                s.put("exp_avg", Torch.zerosLike(p));
                s.put("exp_avg_sq", Torch.zerosLike(p));
            }
            states.add(s);
        }
        if (StepSupport.impl(g) == StepSupport.Impl.FOR_LOOP) {
            forLoop(g, params, states);
        } else {
            for (int[] idx : StepSupport.byDeviceAndDtype(params))
                foreach(g, StepSupport.pick(params, idx), StepSupport.pick(states, idx));
        }
    }

    private static double mu(double beta1, double momentumDecay, double t) {
        return beta1 * (1.0 - 0.5 * Math.pow(0.96, t * momentumDecay));
    }

    private static void forLoop(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"),
                wd = g.doubleValue("weight_decay"),
                momentumDecay = g.doubleValue("momentum_decay");
        boolean maximize = g.flag("maximize"), decoupled = g.flag("decoupled_weight_decay");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            Tensor step = StepSupport.step(s), muProduct = (Tensor) s.get("mu_product");
            StepSupport.add_(step, 1.0);
            double t = step.item();
            double bc2 = 1 - Math.pow(beta2, t);
            if (wd != 0) {
                if (decoupled) StepSupport.mul_(p, 1 - lr * wd);
                else grad = grad.add(p, wd);
            }
            double mu = mu(beta1, momentumDecay, t), muNext = mu(beta1, momentumDecay, t + 1);
            StepSupport.mul_(muProduct, mu);
            grad = StepSupport.real(grad);
            Tensor m = StepSupport.real((Tensor) s.get("exp_avg")), v = StepSupport.real((Tensor) s.get("exp_avg_sq"));
            StepSupport.lerp_(m, grad, 1 - beta1);
            StepSupport.addcmul_(StepSupport.mul_(v, beta2), grad, grad, 1 - beta2);
            Tensor denom = StepSupport.sqrt_(v.div(bc2));
            double muProd = muProduct.item(), muProductNext = muProd * muNext;
            StepSupport.add_(denom, eps);
            Tensor pr = StepSupport.real(p);
            StepSupport.addcdiv_(pr, grad, denom, -lr * (1.0 - mu) / (1.0 - muProd));
            StepSupport.addcdiv_(pr, m, denom, -lr * muNext / (1.0 - muProductNext));
        }
    }

    private static void foreach(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"),
                wd = g.doubleValue("weight_decay"),
                momentumDecay = g.doubleValue("momentum_decay");
        boolean maximize = g.flag("maximize");
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> ms = StepSupport.real(StepSupport.state(states, "exp_avg"));
        List<Tensor> vs = StepSupport.real(StepSupport.state(states, "exp_avg_sq"));
        List<Tensor> muProducts = StepSupport.state(states, "mu_product");
        List<Tensor> steps = StepSupport.steps(states);
        if (maximize) grads = Foreach.neg(grads);
        Foreach.add_(steps, 1.0);
        if (wd != 0) {
            if (g.flag("decoupled_weight_decay")) Foreach.mul_(ps, 1 - lr * wd);
            else if (maximize) Foreach.add_(grads, ps, wd);
            else grads = Foreach.add(grads, ps, wd);
        }
        Foreach.lerp_(ms, grads, 1 - beta1);
        Foreach.mul_(vs, beta2);
        Foreach.addcmul_(vs, grads, grads, 1 - beta2);
        List<Tensor> denom = Foreach.sqrt(vs);
        int n = params.size();
        double[] bcSqrt = new double[n], mus = new double[n], muNexts = new double[n];
        for (int i = 0; i < n; i++) {
            double t = steps.get(i).item();
            bcSqrt[i] = Math.pow(1 - Math.pow(beta2, t), 0.5);
            mus[i] = mu(beta1, momentumDecay, t);
            muNexts[i] = mu(beta1, momentumDecay, t + 1);
        }
        Foreach.mul_(muProducts, mus);
        Foreach.div_(denom, bcSqrt);
        Foreach.add_(denom, eps);
        double[] stepGrads = new double[n], stepExpAvg = new double[n];
        for (int i = 0; i < n; i++) {
            double muProd = muProducts.get(i).item();
            stepGrads[i] = lr * (1.0 - mus[i]) / (1.0 - muProd) * -1;
            stepExpAvg[i] = lr * muNexts[i] / (1.0 - muProd * muNexts[i]) * -1;
        }
        Foreach.addcdiv_(ps, grads, denom, stepGrads);
        Foreach.addcdiv_(ps, ms, denom, stepExpAvg);
    }
}

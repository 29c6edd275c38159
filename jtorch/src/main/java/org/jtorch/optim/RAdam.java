package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.foreach.Foreach;

/**
 * {@code torch.optim.RAdam}: Adam whose adaptive step is switched on, with a variance rectification factor, once the
 * approximated SMA length {@code rho_t} exceeds 5.
 *
 * <pre>
 * rho_inf = 2 / (1 - beta2) - 1;  rho_t = rho_inf - 2 t beta2^t / (1 - beta2^t)
 * rho_t &gt; 5:  p -= lr * m / (1 - beta1^t) * sqrt(1 - beta2^t) / (sqrt(v) + eps) * rect(rho_t)
 * otherwise:  p -= lr * m / (1 - beta1^t)
 * </pre>
 *
 * State per parameter: {@code step}, {@code exp_avg}, {@code exp_avg_sq}. Implementations: for-loop and foreach.
 */
public final class RAdam extends Optimizer {
    /** RAdam's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /** Every argument at PyTorch's default: lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, ... */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 1e-3);
            m.put("betas", List.of(0.9, 0.999));
            m.put("eps", 1e-8);
            m.put("weight_decay", 0L);
            m.put("maximize", false);
            m.put("foreach", null);
            m.put("capturable", false);
            m.put("decoupled_weight_decay", false);
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

        /** RAdamW: weight decay applied to the parameter, not added to the gradient. */
        public Options decoupledWeightDecay(boolean decoupled) {
            return with("decoupled_weight_decay", decoupled);
        }

        /** {@code differentiable}. */
        public Options differentiable(boolean differentiable) {
            return with("differentiable", differentiable);
        }
    }

    /** {@code RAdam(params, **options)}: one group of {@code params}. */
    public RAdam(Iterable<Tensor> params, Options options) {
        super(params, options, RAdam::validate);
    }

    /**
     * {@code RAdam(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public RAdam(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code RAdam([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public RAdam(Options options, ParamGroup... groups) {
        super(List.of(groups), options, RAdam::validate);
    }

    /** The same, with the groups in a list. */
    public RAdam(List<ParamGroup> groups, Options options) {
        super(groups, options, RAdam::validate);
    }

    private static void validate(Map<String, Object> h) {
        requireNonNegative("learning rate", number(h, "lr"));
        requireNonNegative("epsilon value", number(h, "eps"));
        AdamCore.checkBetas(h);
        requireNonNegative("weight_decay value", number(h, "weight_decay"));
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

    private static double rhoT(double rhoInf, double beta2, double t) {
        return rhoInf - 2 * t * Math.pow(beta2, t) / (1 - Math.pow(beta2, t));
    }

    private static double rect(double rhoInf, double rhoT) {
        return Math.pow((rhoT - 4) * (rhoT - 2) * rhoInf / ((rhoInf - 4) * (rhoInf - 2) * rhoT), 0.5);
    }

    private static void forLoop(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"), wd = g.doubleValue("weight_decay");
        boolean maximize = g.flag("maximize"), decoupled = g.flag("decoupled_weight_decay");
        double rhoInf = 2 / (1 - beta2) - 1;
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            Tensor step = StepSupport.step(s);
            StepSupport.add_(step, 1.0);
            double t = step.item();
            if (wd != 0) {
                if (decoupled) StepSupport.mul_(p, 1 - lr * wd);
                else grad = grad.add(p, wd);
            }
            grad = StepSupport.real(grad);
            Tensor m = StepSupport.real((Tensor) s.get("exp_avg")), v = StepSupport.real((Tensor) s.get("exp_avg_sq"));
            StepSupport.lerp_(m, grad, 1 - beta1);
            StepSupport.addcmul_(StepSupport.mul_(v, beta2), grad, grad, 1 - beta2);
            double bc1 = 1 - Math.pow(beta1, t), bc2 = 1 - Math.pow(beta2, t);
            Tensor corrected = m.div(bc1);
            double rho = rhoT(rhoInf, beta2, t);
            Tensor update;
            if (rho > 5.0) {
                Tensor adaptiveLr = StepSupport.add_(v.sqrt(), eps).reciprocal().mul(Math.pow(bc2, 0.5));
                update = corrected.mul(lr).mul(adaptiveLr).mul(rect(rhoInf, rho));
            } else {
                update = corrected.mul(lr);
            }
            StepSupport.add_(StepSupport.real(p), update, -1.0);
        }
    }

    private static void foreach(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"), wd = g.doubleValue("weight_decay");
        boolean maximize = g.flag("maximize");
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> ms = StepSupport.real(StepSupport.state(states, "exp_avg"));
        List<Tensor> vs = StepSupport.real(StepSupport.state(states, "exp_avg_sq"));
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
        double rhoInf = 2 / (1 - beta2) - 1;
        int n = params.size();
        double[] unrectStep = new double[n], rectStep = new double[n];
        for (int i = 0; i < n; i++) {
            double t = steps.get(i).item();
            double rho = rhoT(rhoInf, beta2, t);
            double rect = rho > 5 ? rect(rhoInf, rho) : 0;
            double bc1 = 1 - Math.pow(beta1, t);
            unrectStep[i] = lr * (rect > 0 ? 0 : 1.0) / bc1 * -1;
            rectStep[i] = Math.sqrt(1 - Math.pow(beta2, t)) * (lr * rect / bc1) * -1;
        }
        // buffer = sqrt(1 - beta2^t) * rect_step / (sqrt(v) + eps) + unrect_step; a zero rect_step gives 1/inf = 0.
        List<Tensor> buffer = Foreach.sqrt(vs);
        Foreach.add_(buffer, eps);
        Foreach.div_(buffer, rectStep);
        Foreach.reciprocal_(buffer);
        Foreach.add_(buffer, unrectStep);
        Foreach.addcmul_(ps, ms, buffer);
    }
}

package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.foreach.Foreach;

/**
 * {@code torch.optim.Adamax}: Adam with the infinity norm in place of the second moment.
 *
 * <pre>
 * g = -g if maximize;  g += weight_decay * p
 * m = lerp(m, g, 1 - beta1);  u = max(beta2 u, |g| + eps);  p -= lr / (1 - beta1^t) * m / u
 * </pre>
 *
 * State per parameter: {@code step}, {@code exp_avg}, {@code exp_inf}. Implementations: for-loop and foreach.
 */
public final class Adamax extends Optimizer {
    /** Adamax's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /** Every argument at PyTorch's default: lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, ... */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 2e-3);
            m.put("betas", List.of(0.9, 0.999));
            m.put("eps", 1e-8);
            m.put("weight_decay", 0L);
            m.put("foreach", null);
            m.put("maximize", false);
            m.put("differentiable", false);
            m.put("capturable", false);
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

        /** True: multi-tensor path; false: for-loop; null: JTorch's choice (foreach). */
        public Options foreach(Boolean foreach) {
            return with("foreach", foreach);
        }

        /** {@code maximize}. */
        public Options maximize(boolean maximize) {
            return with("maximize", maximize);
        }

        /** {@code differentiable}. */
        public Options differentiable(boolean differentiable) {
            return with("differentiable", differentiable);
        }

        /** Accepted for compatibility: CPU steps are synchronous, so it changes nothing. */
        public Options capturable(boolean capturable) {
            return with("capturable", capturable);
        }
    }

    /** {@code Adamax(params, **options)}: one group of {@code params}. */
    public Adamax(Iterable<Tensor> params, Options options) {
        super(params, options, Adamax::validate);
    }

    /**
     * {@code Adamax(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public Adamax(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code Adamax([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public Adamax(Options options, ParamGroup... groups) {
        super(List.of(groups), options, Adamax::validate);
    }

    /** The same, with the groups in a list. */
    public Adamax(List<ParamGroup> groups, Options options) {
        super(groups, options, Adamax::validate);
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
                s.put("exp_inf", Torch.zerosLike(p));
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

    private static void forLoop(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"), wd = g.doubleValue("weight_decay");
        boolean maximize = g.flag("maximize");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            Tensor step = StepSupport.step(s);
            StepSupport.add_(step, 1.0);
            if (wd != 0) grad = grad.add(p, wd);
            grad = StepSupport.real(grad);
            Tensor expAvg = StepSupport.real((Tensor) s.get("exp_avg")),
                    expInf = StepSupport.real((Tensor) s.get("exp_inf"));
            StepSupport.lerp_(expAvg, grad, 1 - beta1);
            StepSupport.maximumOut(expInf, StepSupport.mul_(expInf, beta2), StepSupport.add_(grad.abs(), eps));
            double clr = lr / (1 - Math.pow(beta1, step.item()));
            StepSupport.addcdiv_(StepSupport.real(p), expAvg, expInf, -clr);
        }
    }

    private static void foreach(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double eps = g.doubleValue("eps"), wd = g.doubleValue("weight_decay");
        boolean maximize = g.flag("maximize");
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> expAvgs = StepSupport.real(StepSupport.state(states, "exp_avg"));
        List<Tensor> expInfs = StepSupport.real(StepSupport.state(states, "exp_inf"));
        List<Tensor> steps = StepSupport.steps(states);
        if (maximize) grads = Foreach.neg(grads);
        Foreach.add_(steps, 1.0);
        if (wd != 0) {
            if (maximize) Foreach.add_(grads, ps, wd);
            else grads = Foreach.add(grads, ps, wd);
        }
        Foreach.lerp_(expAvgs, grads, 1 - beta1);
        Foreach.mul_(expInfs, beta2);
        if (!maximize && wd == 0) grads = Foreach.abs(grads);
        else Foreach.abs_(grads);
        Foreach.add_(grads, eps);
        Foreach.maximum_(expInfs, grads);
        double[] stepSize = new double[params.size()];
        for (int i = 0; i < stepSize.length; i++)
            stepSize[i] = lr / (1 - Math.pow(beta1, steps.get(i).item())) * -1;
        Foreach.addcdiv_(ps, expAvgs, expInfs, stepSize);
    }
}

package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.foreach.Foreach;
import org.jtorch.ops.FusedOptimizerOps;

/**
 * {@code torch.optim.Adagrad}: per-coordinate learning rates from the running sum of squared gradients.
 *
 * <pre>
 * g = -g if maximize;  g += weight_decay * p;  clr = lr / (1 + (step - 1) * lr_decay)
 * sum += g * g;  p -= clr * g / (sqrt(sum) + eps)
 * </pre>
 *
 * State per parameter, created for every parameter at construction as PyTorch does: {@code step} (0-d float32) and
 * {@code sum} (filled with {@code initial_accumulator_value}). Implementations: for-loop, foreach and fused.
 */
public final class Adagrad extends Optimizer {
    /** Adagrad's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /**
         * Every argument at PyTorch's default: lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
         * eps=1e-10, ...
         */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 1e-2);
            m.put("lr_decay", 0L);
            m.put("eps", 1e-10);
            m.put("weight_decay", 0L);
            m.put("initial_accumulator_value", 0L);
            m.put("foreach", null);
            m.put("maximize", false);
            m.put("differentiable", false);
            m.put("fused", null);
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

        /** {@code lr_decay}. */
        public Options lrDecay(double lrDecay) {
            return with("lr_decay", lrDecay);
        }

        /** {@code eps}. */
        public Options eps(double eps) {
            return with("eps", eps);
        }

        /** {@code weight_decay}. */
        public Options weightDecay(double weightDecay) {
            return with("weight_decay", weightDecay);
        }

        /** {@code initial_accumulator_value}. */
        public Options initialAccumulatorValue(double value) {
            return with("initial_accumulator_value", value);
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

        /** True: the fused kernel (float16/bfloat16 computed in float32). */
        public Options fused(Boolean fused) {
            return with("fused", fused);
        }
    }

    private Tensor gradScale;
    private Tensor foundInf;

    /** {@code Adagrad(params, **options)}: one group of {@code params}. */
    public Adagrad(Iterable<Tensor> params, Options options) {
        super(params, options, Adagrad::validate);
        init();
    }

    /**
     * {@code Adagrad(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at
     * defaults.
     */
    public Adagrad(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code Adagrad([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public Adagrad(Options options, ParamGroup... groups) {
        super(List.of(groups), options, Adagrad::validate);
        init();
    }

    /** The same, with the groups in a list. */
    public Adagrad(List<ParamGroup> groups, Options options) {
        super(groups, options, Adagrad::validate);
        init();
    }

    private void init() {
        StepSupport.checkFusedParams(this);
        for (ParamGroup g : paramGroups()) for (Tensor p : g.params()) initState(g, p);
    }

    private Map<String, Object> initState(ParamGroup g, Tensor p) {
        Map<String, Object> s = stateFor(p);
        if (s.isEmpty()) {
            double v = g.doubleValue("initial_accumulator_value");
            s.put("step", StepSupport.newStep(g.flag("fused")));
            s.put("sum", org.jtorch.Torch.fullLike(p, p.dtype().isComplex() ? Scalar.complex(v, v) : (Object) v));
        }
        return s;
    }

    private static void validate(Map<String, Object> h) {
        requireNonNegative("learning rate", number(h, "lr"));
        requireNonNegative("lr_decay value", number(h, "lr_decay"));
        requireNonNegative("weight_decay value", number(h, "weight_decay"));
        requireNonNegative("initial_accumulator_value value", number(h, "initial_accumulator_value"));
        requireNonNegative("epsilon value", number(h, "eps"));
        StepSupport.checkFlags(h);
    }

    /** PyTorch's {@code grad_scale}/{@code found_inf} attributes for the fused path; null clears them. */
    public void ampScaling(Tensor gradScale, Tensor foundInf) {
        this.gradScale = gradScale;
        this.foundInf = foundInf;
    }

    @Override
    protected void stepGroup(ParamGroup g) {
        List<Tensor> params = StepSupport.withGrad(g);
        if (params.isEmpty()) return;
        List<Map<String, Object>> states = new ArrayList<>();
        for (Tensor p : params) states.add(initState(g, p));
        switch (StepSupport.impl(g)) {
            case FOR_LOOP -> forLoop(g, params, states);
            case FOREACH -> {
                for (int[] idx : StepSupport.byDeviceAndDtype(params))
                    foreach(g, StepSupport.pick(params, idx), StepSupport.pick(states, idx));
            }
            case FUSED -> {
                for (int[] idx : StepSupport.byDeviceAndDtype(params))
                    fused(g, StepSupport.pick(params, idx), StepSupport.pick(states, idx));
            }
        }
    }

    private static void forLoop(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(),
                lrDecay = g.doubleValue("lr_decay"),
                wd = g.doubleValue("weight_decay"),
                eps = g.doubleValue("eps");
        boolean maximize = g.flag("maximize");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor step = StepSupport.step(s);
            StepSupport.add_(step, 1.0);
            double t = step.item();
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            if (wd != 0) grad = grad.add(p, wd);
            double clr = lr / (1 + (t - 1) * lrDecay);
            grad = StepSupport.real(grad);
            Tensor sum = StepSupport.real((Tensor) s.get("sum"));
            StepSupport.addcmul_(sum, grad, grad, 1);
            Tensor std = StepSupport.add_(sum.sqrt(), eps);
            StepSupport.addcdiv_(StepSupport.real(p), grad, std, -clr);
        }
    }

    private static void foreach(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(),
                lrDecay = g.doubleValue("lr_decay"),
                wd = g.doubleValue("weight_decay"),
                eps = g.doubleValue("eps");
        boolean maximize = g.flag("maximize");
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> sums = StepSupport.real(StepSupport.state(states, "sum"));
        List<Tensor> steps = StepSupport.steps(states);
        if (maximize) grads = Foreach.neg(grads);
        Foreach.add_(steps, 1.0);
        if (wd != 0) {
            if (maximize) Foreach.add_(grads, ps, wd);
            else grads = Foreach.add(grads, ps, wd);
        }
        double[] minusClr = new double[params.size()];
        for (int i = 0; i < minusClr.length; i++)
            minusClr[i] = -lr / (1 + (steps.get(i).item() - 1) * lrDecay);
        Foreach.addcmul_(sums, grads, grads, 1.0);
        List<Tensor> std = Foreach.sqrt(sums);
        Foreach.add_(std, eps);
        List<Tensor> numerator;
        if (wd != 0 || maximize) {
            Foreach.mul_(grads, minusClr);
            numerator = grads;
        } else {
            numerator = Foreach.mul(grads, minusClr);
        }
        Foreach.addcdiv_(ps, numerator, std);
    }

    private void fused(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        Tensor[] ps = params.toArray(Tensor[]::new);
        Tensor[] gs = StepSupport.grads(params).toArray(Tensor[]::new);
        Tensor[] sums = StepSupport.state(states, "sum").toArray(Tensor[]::new);
        List<Tensor> steps = StepSupport.steps(states);
        Foreach.add_(steps, 1.0);
        FusedOptimizerOps.run(
                FusedOptimizerOps.ADAGRAD,
                ps,
                new Tensor[][] {sums},
                ps,
                gs,
                sums,
                steps.toArray(Tensor[]::new),
                g.lr(),
                g.doubleValue("lr_decay"),
                g.doubleValue("weight_decay"),
                g.doubleValue("eps"),
                g.flag("maximize"),
                gradScale,
                foundInf);
        if (foundInf != null) Foreach.sub_(steps, foundInf.item());
    }
}

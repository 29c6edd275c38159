package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.foreach.Foreach;

/**
 * {@code torch.optim.RMSprop}: gradients divided by a running root-mean-square.
 *
 * <pre>
 * g = -g if maximize;  g += weight_decay * p;  v = alpha v + (1 - alpha) g^2
 * avg = sqrt(v - gavg^2) with gavg = lerp(gavg, g, 1 - alpha) if centered, else sqrt(v);  avg += eps
 * buf = momentum buf + g / avg;  p -= lr * buf      (momentum > 0)
 * p -= lr * g / avg                                  (otherwise)
 * </pre>
 *
 * State per parameter: {@code step}, {@code square_avg}, {@code momentum_buffer} (momentum &gt; 0), {@code grad_avg}
 * (centered). Implementations: for-loop and foreach.
 */
public final class RMSprop extends Optimizer {
    /** RMSprop's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /**
         * Every argument at PyTorch's default: lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
         * centered=False, ...
         */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 1e-2);
            m.put("momentum", 0L);
            m.put("alpha", 0.99);
            m.put("eps", 1e-8);
            m.put("centered", false);
            m.put("weight_decay", 0L);
            m.put("capturable", false);
            m.put("foreach", null);
            m.put("maximize", false);
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

        /** {@code momentum}. */
        public Options momentum(double momentum) {
            return with("momentum", momentum);
        }

        /** {@code alpha}. */
        public Options alpha(double alpha) {
            return with("alpha", alpha);
        }

        /** {@code eps}. */
        public Options eps(double eps) {
            return with("eps", eps);
        }

        /** {@code centered}. */
        public Options centered(boolean centered) {
            return with("centered", centered);
        }

        /** {@code weight_decay}. */
        public Options weightDecay(double weightDecay) {
            return with("weight_decay", weightDecay);
        }

        /** Accepted for compatibility: CPU steps are synchronous, so it changes nothing. */
        public Options capturable(boolean capturable) {
            return with("capturable", capturable);
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
    }

    /** {@code RMSprop(params, **options)}: one group of {@code params}. */
    public RMSprop(Iterable<Tensor> params, Options options) {
        super(params, options, RMSprop::validate);
    }

    /**
     * {@code RMSprop(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at
     * defaults.
     */
    public RMSprop(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code RMSprop([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public RMSprop(Options options, ParamGroup... groups) {
        super(List.of(groups), options, RMSprop::validate);
    }

    /** The same, with the groups in a list. */
    public RMSprop(List<ParamGroup> groups, Options options) {
        super(groups, options, RMSprop::validate);
    }

    private static void validate(Map<String, Object> h) {
        requireNonNegative("learning rate", number(h, "lr"));
        requireNonNegative("epsilon value", number(h, "eps"));
        requireNonNegative("momentum value", number(h, "momentum"));
        requireNonNegative("weight_decay value", number(h, "weight_decay"));
        requireNonNegative("alpha value", number(h, "alpha"));
    }

    @Override
    protected void stepGroup(ParamGroup g) {
        List<Tensor> params = StepSupport.withGrad(g);
        if (params.isEmpty()) return;
        boolean momentum = g.doubleValue("momentum") > 0, centered = g.flag("centered");
        List<Map<String, Object>> states = new ArrayList<>();
        for (Tensor p : params) {
            Map<String, Object> s = stateFor(p);
            if (s.isEmpty()) {
                s.put("step", StepSupport.newStep(g.flag("capturable")));
                s.put("square_avg", Torch.zerosLike(p));
                if (momentum) s.put("momentum_buffer", Torch.zerosLike(p));
                if (centered) s.put("grad_avg", Torch.zerosLike(p));
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
        double lr = g.lr(),
                alpha = g.doubleValue("alpha"),
                eps = g.doubleValue("eps"),
                wd = g.doubleValue("weight_decay");
        double momentum = g.doubleValue("momentum");
        boolean centered = g.flag("centered"), maximize = g.flag("maximize");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            StepSupport.add_(StepSupport.step(s), 1.0);
            if (wd != 0) grad = grad.add(p, wd);
            grad = StepSupport.real(grad);
            Tensor squareAvg = StepSupport.real((Tensor) s.get("square_avg"));
            StepSupport.addcmul_(StepSupport.mul_(squareAvg, alpha), grad, grad, 1 - alpha);
            Tensor avg;
            if (centered) {
                Tensor gradAvg = StepSupport.real((Tensor) s.get("grad_avg"));
                StepSupport.lerp_(gradAvg, grad, 1 - alpha);
                avg = StepSupport.sqrt_(squareAvg.addcmul(gradAvg, gradAvg, -1));
            } else {
                avg = squareAvg.sqrt();
            }
            StepSupport.add_(avg, eps);
            if (momentum > 0) {
                Tensor buf = StepSupport.real((Tensor) s.get("momentum_buffer"));
                StepSupport.addcdiv_(StepSupport.mul_(buf, momentum), grad, avg, 1);
                StepSupport.add_(StepSupport.real(p), buf, -lr);
            } else {
                StepSupport.addcdiv_(StepSupport.real(p), grad, avg, -lr);
            }
        }
    }

    private static void foreach(ParamGroup g, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(),
                alpha = g.doubleValue("alpha"),
                eps = g.doubleValue("eps"),
                wd = g.doubleValue("weight_decay");
        double momentum = g.doubleValue("momentum");
        boolean maximize = g.flag("maximize");
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> squareAvgs = StepSupport.real(StepSupport.state(states, "square_avg"));
        if (maximize) grads = Foreach.neg(grads);
        Foreach.add_(StepSupport.steps(states), 1.0);
        if (wd != 0) {
            if (maximize) Foreach.add_(grads, ps, wd);
            else grads = Foreach.add(grads, ps, wd);
        }
        Foreach.mul_(squareAvgs, alpha);
        Foreach.addcmul_(squareAvgs, grads, grads, 1 - alpha);
        List<Tensor> avg;
        if (g.flag("centered")) {
            List<Tensor> gradAvgs = StepSupport.real(StepSupport.state(states, "grad_avg"));
            Foreach.lerp_(gradAvgs, grads, 1 - alpha);
            avg = Foreach.addcmul(squareAvgs, gradAvgs, gradAvgs, -1.0);
            Foreach.sqrt_(avg);
        } else {
            avg = Foreach.sqrt(squareAvgs);
        }
        Foreach.add_(avg, eps);
        if (momentum > 0) {
            List<Tensor> bufs = StepSupport.real(StepSupport.state(states, "momentum_buffer"));
            Foreach.mul_(bufs, momentum);
            Foreach.addcdiv_(bufs, grads, avg);
            Foreach.add_(ps, bufs, -lr);
        } else {
            Foreach.addcdiv_(ps, grads, avg, -lr);
        }
    }
}

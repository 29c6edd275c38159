package org.jtorch.optim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.foreach.Foreach;
import org.jtorch.ops.FusedOptimizerOps;

/**
 * {@code torch.optim.SGD}: stochastic gradient descent with optional momentum (PyTorch's form: no dampening on the
 * first step), Nesterov momentum, L2 weight decay and maximisation.
 *
 * <pre>
 * g = -g if maximize;  g += weight_decay * p
 * buf = g (first step) | momentum * buf + (1 - dampening) * g;  g = g + momentum * buf if nesterov else buf
 * p -= lr * g
 * </pre>
 *
 * State per parameter: {@code momentum_buffer}, only when momentum is non-zero. Implementations: for-loop, foreach and
 * fused (all floating dtypes; float16/bfloat16 computed in float32).
 */
public final class SGD extends Optimizer {
    /** SGD's keyword arguments. */
    public static final class Options extends OptimizerOptions<Options> {
        private Options(Map<String, Object> values) {
            super(values);
        }

        /**
         * Every argument at PyTorch's default: lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, ...
         */
        public static Options defaults() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("lr", 1e-3);
            m.put("momentum", 0L);
            m.put("dampening", 0L);
            m.put("weight_decay", 0L);
            m.put("nesterov", false);
            m.put("maximize", false);
            m.put("foreach", null);
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

        /** A one-element tensor learning rate. */
        public Options lr(Tensor lr) {
            return with("lr", lr);
        }

        /** {@code momentum}. */
        public Options momentum(double momentum) {
            return with("momentum", momentum);
        }

        /** {@code dampening}. */
        public Options dampening(double dampening) {
            return with("dampening", dampening);
        }

        /** {@code weight_decay}. */
        public Options weightDecay(double weightDecay) {
            return with("weight_decay", weightDecay);
        }

        /** {@code nesterov}. */
        public Options nesterov(boolean nesterov) {
            return with("nesterov", nesterov);
        }

        /** {@code maximize}. */
        public Options maximize(boolean maximize) {
            return with("maximize", maximize);
        }

        /** True: multi-tensor path; false: for-loop; null: JTorch's choice (foreach). */
        public Options foreach(Boolean foreach) {
            return with("foreach", foreach);
        }

        /** {@code differentiable}. */
        public Options differentiable(boolean differentiable) {
            return with("differentiable", differentiable);
        }

        /** True: the fused kernel. */
        public Options fused(Boolean fused) {
            return with("fused", fused);
        }
    }

    private Tensor gradScale;
    private Tensor foundInf;

    /** {@code SGD(params, **options)}: one group of {@code params}. */
    public SGD(Iterable<Tensor> params, Options options) {
        super(params, options, SGD::validate);
        StepSupport.checkFusedParams(this);
    }

    /**
     * {@code SGD(params, lr)}: one group of {@code params} with learning rate {@code lr}, other options at defaults.
     */
    public SGD(Iterable<Tensor> params, double lr) {
        this(params, Options.defaults().lr(lr));
    }

    /** {@code SGD([{"params": ...}, ...], **defaults)}: one optimizer over several parameter groups. */
    public SGD(Options options, ParamGroup... groups) {
        super(List.of(groups), options, SGD::validate);
        StepSupport.checkFusedParams(this);
    }

    /** The same, with the groups in a list. */
    public SGD(List<ParamGroup> groups, Options options) {
        super(groups, options, SGD::validate);
        StepSupport.checkFusedParams(this);
    }

    private static void validate(Map<String, Object> h) {
        requireNonNegative("learning rate", number(h, "lr"));
        requireNonNegative("momentum value", number(h, "momentum"));
        requireNonNegative("weight_decay value", number(h, "weight_decay"));
        if (Boolean.TRUE.equals(h.get("nesterov")) && (number(h, "momentum") <= 0 || number(h, "dampening") != 0)) {
            throw new IllegalArgumentException("Nesterov momentum requires a momentum and zero dampening");
        }
        StepSupport.checkFlags(h);
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
        List<Tensor> params = StepSupport.withGrad(g);
        if (params.isEmpty()) return;
        double momentum = g.doubleValue("momentum");
        List<Tensor> bufs = new ArrayList<>();
        if (momentum != 0) for (Tensor p : params) bufs.add((Tensor) state(p).get("momentum_buffer"));
        switch (StepSupport.impl(g)) {
            case FOR_LOOP -> forLoop(g, params, bufs);
            case FOREACH -> {
                for (int[] idx : StepSupport.byDeviceAndDtype(params)) {
                    List<Tensor> sub = momentum != 0 ? StepSupport.pick(bufs, idx) : null;
                    foreach(g, StepSupport.pick(params, idx), sub);
                    if (sub != null) for (int j = 0; j < idx.length; j++) bufs.set(idx[j], sub.get(j));
                }
            }
            case FUSED -> fused(g, params, bufs);
        }
        if (momentum != 0)
            for (int i = 0; i < params.size(); i++) stateFor(params.get(i)).put("momentum_buffer", bufs.get(i));
    }

    private static void forLoop(ParamGroup g, List<Tensor> params, List<Tensor> bufs) {
        double lr = g.lr(), wd = g.doubleValue("weight_decay"), momentum = g.doubleValue("momentum");
        double dampening = g.doubleValue("dampening");
        boolean nesterov = g.flag("nesterov"), maximize = g.flag("maximize");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            if (wd != 0) grad = grad.add(p, wd);
            if (momentum != 0) {
                Tensor buf = bufs.get(i);
                if (buf == null) {
                    buf = grad.clone().detach();
                    bufs.set(i, buf);
                } else {
                    StepSupport.add_(StepSupport.mul_(buf, momentum), grad, 1 - dampening);
                }
                grad = nesterov ? grad.add(buf, momentum) : buf;
            }
            StepSupport.add_(p, grad, -lr);
        }
    }

    /** {@code bufs} is null when momentum is 0; new buffers are written into it. */
    private static void foreach(ParamGroup g, List<Tensor> params, List<Tensor> bufs) {
        double lr = g.lr(), wd = g.doubleValue("weight_decay"), momentum = g.doubleValue("momentum");
        double dampening = g.doubleValue("dampening");
        List<Tensor> grads = StepSupport.grads(params);
        boolean copied = false;
        if (g.flag("maximize")) {
            grads = Foreach.neg(grads);
            copied = true;
        }
        if (wd != 0) {
            if (copied) Foreach.add_(grads, params, wd);
            else grads = Foreach.add(grads, params, wd);
            copied = true;
        }
        if (momentum != 0) {
            if (!bufs.contains(null)) {
                Foreach.mul_(bufs, momentum);
                Foreach.add_(bufs, grads, 1 - dampening);
            } else {
                for (int i = 0; i < bufs.size(); i++) {
                    if (bufs.get(i) == null) bufs.set(i, grads.get(i).clone().detach());
                    else StepSupport.add_(StepSupport.mul_(bufs.get(i), momentum), grads.get(i), 1 - dampening);
                }
            }
            if (g.flag("nesterov")) {
                // PyTorch adds into the gradients here; a copy keeps the caller's .grad untouched.
                if (copied) Foreach.add_(grads, bufs, momentum);
                else grads = Foreach.add(grads, bufs, momentum);
            } else {
                grads = bufs;
            }
        }
        Foreach.add_(params, grads, -lr);
    }

    /** Buffers missing on this step start as the gradient (the kernel's first-step rule), the others decay. */
    private void fused(ParamGroup g, List<Tensor> params, List<Tensor> bufs) {
        double momentum = g.doubleValue("momentum");
        for (int[] idx : StepSupport.byDeviceAndDtype(params)) {
            List<Integer> first = new ArrayList<>(), later = new ArrayList<>();
            for (int i : idx) {
                if (momentum != 0 && bufs.get(i) == null) {
                    bufs.set(i, org.jtorch.Torch.zerosLike(params.get(i)));
                    first.add(i);
                } else {
                    later.add(i);
                }
            }
            fusedCall(g, params, bufs, first, true);
            fusedCall(g, params, bufs, later, false);
        }
    }

    private void fusedCall(ParamGroup g, List<Tensor> params, List<Tensor> bufs, List<Integer> idx, boolean firstStep) {
        if (idx.isEmpty()) return;
        int[] at = idx.stream().mapToInt(Integer::intValue).toArray();
        Tensor[] ps = StepSupport.pick(params, at).toArray(Tensor[]::new);
        Tensor[] gs = StepSupport.grads(List.of(ps)).toArray(Tensor[]::new);
        Tensor[] bs =
                bufs.isEmpty() ? new Tensor[0] : StepSupport.pick(bufs, at).toArray(Tensor[]::new);
        FusedOptimizerOps.run(
                FusedOptimizerOps.SGD,
                ps,
                new Tensor[][] {bs},
                ps,
                gs,
                bs,
                g.doubleValue("weight_decay"),
                g.doubleValue("momentum"),
                g.lr(),
                g.doubleValue("dampening"),
                g.flag("nesterov"),
                g.flag("maximize"),
                firstStep,
                gradScale,
                foundInf);
    }

    @Override
    boolean hasStepGraph() {
        return true;
    }

    @Override
    StepGraph stepGraph(ParamGroup group) {
        return new SgdStepGraph(this, group);
    }
}

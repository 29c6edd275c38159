package org.jtorch.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.foreach.Foreach;
import org.jtorch.ops.FusedOptimizerOps;

/** The Adam update shared by {@link Adam} and {@link AdamW}: for-loop, foreach and fused forms. */
final class AdamCore {
    private AdamCore() {}

    /** PyTorch's Adam/AdamW argument checks. */
    static void validate(Map<String, Object> h) {
        Optimizer.requireNonNegative("learning rate", Optimizer.number(h, "lr"));
        if (h.get("lr") instanceof Tensor lr) {
            if (Boolean.TRUE.equals(h.get("foreach")) && !Boolean.TRUE.equals(h.get("capturable"))) {
                throw new IllegalArgumentException(
                        "lr as a Tensor is not supported for capturable=False and foreach=True");
            }
            if (lr.numel() != 1) throw new IllegalArgumentException("Tensor lr must be 1-element");
        }
        Optimizer.requireNonNegative("epsilon value", Optimizer.number(h, "eps"));
        checkBetas(h);
        Optimizer.requireNonNegative("weight_decay value", Optimizer.number(h, "weight_decay"));
        StepSupport.checkFlags(h);
    }

    /** {@code 0 <= beta < 1} for both betas, PyTorch's messages. */
    static void checkBetas(Map<String, Object> h) {
        if (!(h.get("betas") instanceof List<?> betas) || betas.size() != 2) {
            throw new org.jtorch.TorchTypeException("betas must be a tuple of two floats, got " + h.get("betas"));
        }
        for (int i = 0; i < 2; i++) {
            double b = ParamGroup.toDouble("betas", betas.get(i));
            if (!(b >= 0 && b < 1))
                throw new IllegalArgumentException("Invalid beta parameter at index " + i + ": " + PyRepr.of(b));
        }
    }

    /** One step of a group. */
    static void step(Optimizer opt, ParamGroup g, boolean decoupled, Tensor gradScale, Tensor foundInf) {
        List<Tensor> params = StepSupport.withGrad(g);
        if (params.isEmpty()) return;
        List<Map<String, Object>> states = states(opt, g, params);
        switch (StepSupport.impl(g)) {
            case FOR_LOOP -> forLoop(g, decoupled, params, states);
            case FOREACH -> {
                for (int[] idx : StepSupport.byDeviceAndDtype(params))
                    foreach(g, decoupled, StepSupport.pick(params, idx), StepSupport.pick(states, idx));
            }
            case FUSED -> {
                for (int[] idx : StepSupport.byDeviceAndDtype(params)) {
                    fused(
                            g,
                            decoupled,
                            StepSupport.pick(params, idx),
                            StepSupport.pick(states, idx),
                            gradScale,
                            foundInf);
                }
            }
        }
    }

    /** The state of each of {@code params}, created as PyTorch creates it on a parameter's first step. */
    static List<Map<String, Object>> states(Optimizer opt, ParamGroup g, List<Tensor> params) {
        boolean amsgrad = g.flag("amsgrad"), fused = g.flag("fused");
        List<Map<String, Object>> states = new ArrayList<>();
        for (Tensor p : params) {
            Map<String, Object> s = opt.stateFor(p);
            if (s.isEmpty()) {
                s.put("step", StepSupport.newStep(fused || g.flag("capturable")));
                s.put("exp_avg", org.jtorch.Torch.zerosLike(p));
                s.put("exp_avg_sq", org.jtorch.Torch.zerosLike(p));
                if (amsgrad) s.put("max_exp_avg_sq", org.jtorch.Torch.zerosLike(p));
            }
            if (g.flag("differentiable") && StepSupport.step(s).requiresGrad()) {
                throw new TorchException("`requires_grad` is not supported for `step` in differentiable mode");
            }
            states.add(s);
        }
        return states;
    }

    private static void forLoop(
            ParamGroup g, boolean decoupled, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double wd = g.doubleValue("weight_decay"), eps = g.doubleValue("eps");
        boolean amsgrad = g.flag("amsgrad"), maximize = g.flag("maximize");
        for (int i = 0; i < params.size(); i++) {
            Tensor p = params.get(i);
            Map<String, Object> s = states.get(i);
            Tensor grad = maximize ? p.grad().neg() : p.grad();
            Tensor step = StepSupport.step(s);
            StepSupport.add_(step, 1.0);
            if (wd != 0) {
                if (decoupled) StepSupport.mul_(p, 1 - lr * wd);
                else grad = grad.add(p, wd);
            }
            Tensor m = StepSupport.real((Tensor) s.get("exp_avg")), v = StepSupport.real((Tensor) s.get("exp_avg_sq"));
            grad = StepSupport.real(grad);
            Tensor pr = StepSupport.real(p);
            StepSupport.lerp_(m, grad, 1 - beta1);
            StepSupport.addcmul_(StepSupport.mul_(v, beta2), grad, grad, 1 - beta2);
            double t = step.item();
            double stepSize = lr / (1 - Math.pow(beta1, t));
            double bc2Sqrt = Math.pow(1 - Math.pow(beta2, t), 0.5);
            Tensor denom;
            if (amsgrad) {
                Tensor vmax = StepSupport.real((Tensor) s.get("max_exp_avg_sq"));
                StepSupport.maximumOut(vmax, vmax, v);
                denom = StepSupport.add_(vmax.sqrt().div(bc2Sqrt), eps);
            } else {
                denom = StepSupport.add_(v.sqrt().div(bc2Sqrt), eps);
            }
            StepSupport.addcdiv_(pr, m, denom, -stepSize);
        }
    }

    private static void foreach(
            ParamGroup g, boolean decoupled, List<Tensor> params, List<Map<String, Object>> states) {
        double lr = g.lr(), beta1 = g.tupleValue("betas", 0), beta2 = g.tupleValue("betas", 1);
        double wd = g.doubleValue("weight_decay"), eps = g.doubleValue("eps");
        boolean maximize = g.flag("maximize");
        List<Tensor> grads = StepSupport.real(StepSupport.grads(params));
        List<Tensor> ps = StepSupport.real(params);
        List<Tensor> ms = StepSupport.real(StepSupport.state(states, "exp_avg"));
        List<Tensor> vs = StepSupport.real(StepSupport.state(states, "exp_avg_sq"));
        List<Tensor> steps = StepSupport.steps(states);
        if (maximize) grads = Foreach.neg(grads);
        Foreach.add_(steps, 1.0);
        if (wd != 0) {
            if (decoupled) Foreach.mul_(ps, 1 - lr * wd);
            else if (maximize) Foreach.add_(grads, ps, wd);
            else grads = Foreach.add(grads, ps, wd);
        }
        Foreach.lerp_(ms, grads, 1 - beta1);
        Foreach.mul_(vs, beta2);
        Foreach.addcmul_(vs, grads, grads, 1 - beta2);
        int n = params.size();
        double[] stepSize = new double[n], bc2Sqrt = new double[n];
        for (int i = 0; i < n; i++) {
            double t = steps.get(i).item();
            stepSize[i] = lr / (1 - Math.pow(beta1, t)) * -1;
            bc2Sqrt[i] = Math.pow(1 - Math.pow(beta2, t), 0.5);
        }
        List<Tensor> denom;
        if (g.flag("amsgrad")) {
            List<Tensor> vmax = StepSupport.real(StepSupport.state(states, "max_exp_avg_sq"));
            Foreach.maximum_(vmax, vs);
            denom = Foreach.sqrt(vmax);
        } else {
            denom = Foreach.sqrt(vs);
        }
        Foreach.div_(denom, bc2Sqrt);
        Foreach.add_(denom, eps);
        Foreach.addcdiv_(ps, ms, denom, stepSize);
    }

    private static void fused(
            ParamGroup g,
            boolean decoupled,
            List<Tensor> params,
            List<Map<String, Object>> states,
            Tensor gradScale,
            Tensor foundInf) {
        Tensor[] ps = params.toArray(Tensor[]::new);
        Tensor[] gs = StepSupport.grads(params).toArray(Tensor[]::new);
        Tensor[] ms = StepSupport.state(states, "exp_avg").toArray(Tensor[]::new);
        Tensor[] vs = StepSupport.state(states, "exp_avg_sq").toArray(Tensor[]::new);
        Tensor[] vmax =
                g.flag("amsgrad") ? StepSupport.state(states, "max_exp_avg_sq").toArray(Tensor[]::new) : new Tensor[0];
        List<Tensor> steps = StepSupport.steps(states);
        Foreach.add_(steps, 1.0);
        FusedOptimizerOps.run(
                decoupled ? FusedOptimizerOps.ADAMW : FusedOptimizerOps.ADAM,
                ps,
                new Tensor[][] {ms, vs, vmax},
                ps,
                gs,
                ms,
                vs,
                vmax,
                steps.toArray(Tensor[]::new),
                g.lr(),
                g.tupleValue("betas", 0),
                g.tupleValue("betas", 1),
                g.doubleValue("weight_decay"),
                g.doubleValue("eps"),
                g.flag("amsgrad"),
                g.flag("maximize"),
                gradScale,
                foundInf);
        if (foundInf != null) Foreach.sub_(steps, foundInf.item());
    }
}

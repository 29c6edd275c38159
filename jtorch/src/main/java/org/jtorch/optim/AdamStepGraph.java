package org.jtorch.optim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.foreach.Foreach;

/**
 * Adam's and AdamW's update as a {@link StepGraph}, the arithmetic of {@code AdamCore}'s foreach step: decay (AdamW) or
 * L2 term (Adam), {@code lerp} of the first moment, {@code v * beta2 + (1 - beta2) * g * g}, the denominator
 * {@code sqrt(v) / sqrt(1 - beta2^t) + eps} (of the running maximum with amsgrad), then {@code p + (-lr / (1 -
 * beta1^t)) * m / denom}.
 *
 * <p>Inputs: the parameters, gradients, first and second moments (and maxima), then the 0-d scalars: the decay factor
 * {@code 1 - lr * weight_decay} (AdamW) or {@code weight_decay} (Adam), one step size and one bias correction per
 * parameter.
 */
final class AdamStepGraph implements StepGraph {
    private final Optimizer opt;
    private final ParamGroup group;
    private final boolean decoupled;
    private final List<Tensor> params;
    private final boolean amsgrad, maximize;
    private final double beta1, beta2, eps, weightDecay;

    AdamStepGraph(Optimizer opt, ParamGroup group, boolean decoupled) {
        this.opt = opt;
        this.group = group;
        this.decoupled = decoupled;
        this.params = StepSupport.withGrad(group);
        this.amsgrad = group.flag("amsgrad");
        this.maximize = group.flag("maximize");
        this.beta1 = group.tupleValue("betas", 0);
        this.beta2 = group.tupleValue("betas", 1);
        this.eps = group.doubleValue("eps");
        this.weightDecay = group.doubleValue("weight_decay");
    }

    @Override
    public Tensor[] prepare() {
        if (StepSupport.impl(group) == StepSupport.Impl.FUSED || group.flag("differentiable")) return null;
        if (!StepGraph.compilable(params)) return null;
        List<Map<String, Object>> states = AdamCore.states(opt, group, params);
        List<Tensor> steps = StepSupport.steps(states);
        Foreach.add_(steps, 1.0);
        int n = params.size();
        double lr = group.lr();
        double[] scalars = new double[1 + 2 * n];
        scalars[0] = decoupled ? 1 - lr * weightDecay : weightDecay;
        for (int i = 0; i < n; i++) {
            double t = steps.get(i).item();
            scalars[1 + i] = lr / (1 - Math.pow(beta1, t)) * -1;
            scalars[1 + n + i] = Math.pow(1 - Math.pow(beta2, t), 0.5);
        }
        List<Tensor> in = new ArrayList<>(params);
        in.addAll(StepSupport.grads(params));
        in.addAll(StepSupport.state(states, "exp_avg"));
        in.addAll(StepSupport.state(states, "exp_avg_sq"));
        if (amsgrad) in.addAll(StepSupport.state(states, "max_exp_avg_sq"));
        StepGraph.addScalars(in, scalars, params.getFirst().dtype());
        return in.toArray(Tensor[]::new);
    }

    @Override
    public void update(Tensor[] in) {
        int n = params.size();
        int at = (amsgrad ? 5 : 4) * n; // the scalars
        Tensor first = in[at];
        List<Tensor[]> writes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Tensor p = in[i], g = in[n + i], m = in[2 * n + i], v = in[3 * n + i];
            if (maximize) g = g.neg();
            Tensor decayed = p;
            if (weightDecay != 0) {
                if (decoupled) decayed = p.mul(first);
                else g = g.addcmul(p, first);
            }
            Tensor m1 = m.lerp(g, 1 - beta1);
            Tensor v1 = v.mul(beta2).addcmul(g, g, 1 - beta2);
            Tensor vmax1 = amsgrad ? in[4 * n + i].maximum(v1) : null;
            Tensor denom = (amsgrad ? vmax1 : v1).sqrt().div(in[at + 1 + n + i]).add(eps);
            Tensor p1 = decayed.add(in[at + 1 + i].mul(m1).div(denom));
            writes.add(new Tensor[] {p, p1});
            writes.add(new Tensor[] {m, m1});
            writes.add(new Tensor[] {v, v1});
            if (amsgrad) writes.add(new Tensor[] {in[4 * n + i], vmax1});
        }
        StepGraph.writeBack(writes);
    }

    @Override
    public List<Object> guards() {
        List<Object> out = new ArrayList<>(List.of(decoupled, amsgrad, maximize, beta1, beta2, eps, weightDecay));
        out.addAll(params);
        return out;
    }
}

package org.jtorch.optim;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;

/**
 * SGD's update as a {@link StepGraph}, the arithmetic of its foreach step: the L2 term {@code g + wd * p}, the momentum
 * buffer {@code buf * momentum + (1 - dampening) * g}, Nesterov's {@code g + momentum * buf}, then {@code p + (-lr) *
 * d_p}, each sum with a scale a fused multiply-add as the eager foreach kernels compute it.
 *
 * <p>Inputs: the parameters, gradients (and momentum buffers), then the 0-d scalars {@code -lr}, {@code weight_decay},
 * {@code 1 - dampening} and {@code momentum}. A step on which some buffer does not exist yet (the first, with momentum)
 * runs eagerly: it creates the buffers from the gradients.
 */
final class SgdStepGraph implements StepGraph {
    private final Optimizer opt;
    private final ParamGroup group;
    private final List<Tensor> params;
    private final double momentum, dampening, weightDecay;
    private final boolean nesterov, maximize;

    SgdStepGraph(Optimizer opt, ParamGroup group) {
        this.opt = opt;
        this.group = group;
        this.params = StepSupport.withGrad(group);
        this.momentum = group.doubleValue("momentum");
        this.dampening = group.doubleValue("dampening");
        this.weightDecay = group.doubleValue("weight_decay");
        this.nesterov = group.flag("nesterov");
        this.maximize = group.flag("maximize");
    }

    @Override
    public Tensor[] prepare() {
        if (StepSupport.impl(group) == StepSupport.Impl.FUSED || group.flag("differentiable")) return null;
        if (!StepGraph.compilable(params)) return null;
        List<Tensor> in = new ArrayList<>(params);
        in.addAll(StepSupport.grads(params));
        if (momentum != 0) {
            for (Tensor p : params) {
                if (!(opt.state(p).get("momentum_buffer") instanceof Tensor buf)) return null;
                in.add(buf);
            }
        }
        double[] scalars = {-group.lr(), weightDecay, 1 - dampening, momentum};
        StepGraph.addScalars(in, scalars, params.getFirst().dtype());
        return in.toArray(Tensor[]::new);
    }

    @Override
    public void update(Tensor[] in) {
        int n = params.size();
        int at = in.length - 4; // the scalars
        Tensor negLr = in[at], wd = in[at + 1], oneMinusDampening = in[at + 2], nesterovMomentum = in[at + 3];
        List<Tensor[]> writes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Tensor p = in[i], g = in[n + i];
            if (maximize) g = g.neg();
            if (weightDecay != 0) g = g.addcmul(p, wd);
            Tensor direction = g, buf1 = null;
            if (momentum != 0) {
                buf1 = in[2 * n + i].mul(momentum).addcmul(g, oneMinusDampening);
                direction = nesterov ? g.addcmul(buf1, nesterovMomentum) : buf1;
            }
            writes.add(new Tensor[] {p, p.addcmul(direction, negLr)});
            if (buf1 != null) writes.add(new Tensor[] {in[2 * n + i], buf1});
        }
        StepGraph.writeBack(writes);
    }

    @Override
    public List<Object> guards() {
        List<Object> out = new ArrayList<>(List.of(momentum, dampening, weightDecay, nesterov, maximize));
        out.addAll(params);
        return out;
    }
}

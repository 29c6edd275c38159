package org.jtorch.distributions;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.internal.DefaultDtype;
import org.jtorch.internal.Shapes;

/** The helpers PyTorch keeps in {@code torch.distributions.utils}: broadcasting, sums, probability conversions. */
final class Params {
    private Params() {}

    /** {@code broadcast_all}: the tensors expanded to their common shape. */
    static Tensor[] broadcastAll(Tensor... ts) {
        long[] shape = ts[0].shape();
        for (int i = 1; i < ts.length; i++) shape = Shapes.broadcast(shape, ts[i].shape());
        Tensor[] r = new Tensor[ts.length];
        for (int i = 0; i < ts.length; i++) r[i] = ts[i].expand(shape);
        return r;
    }

    /** A Python number as a parameter: a 0-d tensor of the default dtype. */
    static Tensor scalar(double v) {
        return Torch.scalarTensor(v, DefaultDtype.get());
    }

    /** {@code _sum_rightmost(value, dim)}: sums the rightmost {@code dims} dims. */
    static Tensor sumRightmost(Tensor value, int dims) {
        if (dims == 0) return value;
        long[] d = new long[dims];
        for (int i = 0; i < dims; i++) d[i] = -1 - i;
        return value.sum(d, false);
    }

    /** {@code torch.finfo(dtype).eps}. */
    static double eps(DType d) {
        return d == DType.FLOAT64 ? Math.ulp(1.0) : Math.ulp(1.0f);
    }

    /** {@code torch.finfo(dtype).tiny}. */
    static double tiny(DType d) {
        return d == DType.FLOAT64 ? Double.MIN_NORMAL : Float.MIN_NORMAL;
    }

    /** {@code torch.finfo(dtype).min}. */
    static double min(DType d) {
        return d == DType.FLOAT64 ? -Double.MAX_VALUE : -Float.MAX_VALUE;
    }

    /** {@code clamp_probs}: into {@code [eps, 1 - eps]}. */
    static Tensor clampProbs(Tensor probs) {
        double eps = eps(probs.dtype());
        return probs.clamp(eps, 1 - eps);
    }

    /** {@code probs_to_logits(probs, is_binary)}. */
    static Tensor probsToLogits(Tensor probs, boolean binary) {
        Tensor clamped = clampProbs(probs);
        return binary ? clamped.log().sub(Torch.log1p(clamped.neg())) : clamped.log();
    }

    /** {@code logits_to_probs(logits, is_binary)}. */
    static Tensor logitsToProbs(Tensor logits, boolean binary) {
        return binary ? logits.sigmoid() : logits.softmax(-1);
    }

    /** {@code F.softplus(x)}. */
    static Tensor softplus(Tensor x) {
        return Torch.softplus(x);
    }
}

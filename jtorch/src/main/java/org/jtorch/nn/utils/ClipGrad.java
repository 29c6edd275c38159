package org.jtorch.nn.utils;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;

/** {@code torch.nn.utils.clip_grad_norm_} and {@code clip_grad_value_}: in-place rescaling of parameter gradients. */
public final class ClipGrad {
    private ClipGrad() {}

    /** {@code clip_grad_norm_(parameters, max_norm)}: the 2-norm. */
    public static Tensor clipGradNorm_(Iterable<Tensor> parameters, double maxNorm) {
        return clipGradNorm_(parameters, maxNorm, 2.0, false);
    }

    /**
     * {@code clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)}: the norm of all gradients taken
     * together (as if concatenated) is computed; if it exceeds max_norm every gradient is scaled by {@code max_norm /
     * (total + 1e-6)}. Returns the total norm before clipping; parameters without a gradient are skipped (0 when none
     * has one).
     */
    public static Tensor clipGradNorm_(
            Iterable<Tensor> parameters, double maxNorm, double normType, boolean errorIfNonfinite) {
        List<Tensor> grads = grads(parameters);
        if (grads.isEmpty()) return Torch.scalarTensor(0.0);
        try (var _ = Torch.noGrad()) {
            List<Tensor> norms = new ArrayList<>();
            for (Tensor grad : grads) norms.add(Torch.vectorNorm(grad, normType));
            Tensor total = Torch.vectorNorm(Torch.stack(norms), normType);
            double t = total.item();
            if (errorIfNonfinite && !Double.isFinite(t)) {
                throw new TorchException("The total norm of order " + normType + " for gradients from `parameters` is "
                        + "non-finite, so it cannot be clipped. To disable this error and scale the gradients by the "
                        + "non-finite norm anyway, set `errorIfNonfinite = false`");
            }
            // Scaling by the clamped coefficient always (not only when > max_norm) matches PyTorch's arithmetic.
            Tensor coef = total.add(1e-6).reciprocal().mul(maxNorm).clampMax(1.0);
            for (Tensor grad : grads) grad.mul_(coef.to(grad.dtype()));
            return total;
        }
    }

    /** {@code clip_grad_value_(parameters, clip_value)}: clamps every gradient element to [-clip_value, clip_value]. */
    public static void clipGradValue_(Iterable<Tensor> parameters, double clipValue) {
        try (var _ = Torch.noGrad()) {
            for (Tensor grad : grads(parameters)) grad.clamp_(-clipValue, clipValue);
        }
    }

    private static List<Tensor> grads(Iterable<Tensor> parameters) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor p : parameters) if (p.grad() != null) out.add(p.grad());
        return out;
    }
}

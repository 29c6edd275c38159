package org.jtorch.nn.functional;

import java.util.function.BiFunction;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.nn.Reduction;

/**
 * The multi-class hinge losses ({@code multi_margin_loss}, {@code multilabel_margin_loss}) and
 * {@code triplet_margin_with_distance_loss}, composed from differentiable ops with ATen's checks and messages.
 * Composing them (rather than one fused op with its own backward) gives autograd to every order, forward mode, meta
 * shapes and vmap from the constituents; the hinge is a {@code relu}, whose gradient is 0 at the kink as ATen's
 * {@code z > 0} test in the fused backward.
 */
final class MarginLosses {
    private MarginLosses() {}

    /** ATen's {@code *_shape_check}: a non-empty vector, a matrix with non-empty rows, or a 0-d tensor. */
    private static void checkInput(Tensor input) {
        int nd = input.dim();
        boolean ok = nd == 0 || (nd == 1 && input.size(0) != 0) || (nd == 2 && input.size(1) != 0);
        if (!ok) {
            throw new TorchException("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                    + Shapes.str(input.shape()));
        }
    }

    private static void checkFloating(Tensor input, String kernel) {
        if (!input.isFloatingPoint()) {
            throw new TorchException(
                    "\"" + kernel + "\" not implemented for '" + input.dtype().cppName() + "'");
        }
    }

    private static void checkDtype(Tensor t, DType expected) {
        if (t.dtype() != expected) {
            throw new TorchException("expected scalar type " + expected.cppName() + " but found "
                    + t.dtype().cppName());
        }
    }

    /** The input as (frames, classes). */
    private static Tensor asMatrix(Tensor input) {
        return input.dim() == 2 ? input : input.reshape(1, input.dim() == 0 ? 1 : input.size(0));
    }

    /**
     * {@code multi_margin_loss}: per sample {@code sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C}, for {@code p}
     * 1 or 2.
     */
    static Tensor multiMarginLoss(
            Tensor input, Tensor target, double p, double margin, Tensor weight, Reduction reduction) {
        if (p != 1 && p != 2) throw new IllegalArgumentException("only p == 1 and p == 2 supported");
        if (weight != null && weight.dim() != 1) throw new IllegalArgumentException("weight must be one-dimensional");
        checkInput(input);
        long frames = input.dim() <= 1 ? 1 : input.size(0);
        long classes = input.dim() == 0 ? 1 : input.size(input.dim() - 1);
        if (target.dim() > 1 || target.numel() != frames) {
            throw new TorchException("multi_margin_loss: target tensor should be 1-D with size equal to the number of "
                    + "input samples (batch size). Expected target size [" + frames + "], but got "
                    + Shapes.str(target.shape()) + ". Input has shape " + Shapes.str(input.shape()) + ".");
        }
        if (weight != null && weight.numel() != classes) {
            throw new TorchException(
                    "inconsistent weight size, expected " + classes + " but got " + Shapes.str(weight.shape()));
        }
        checkFloating(input, "multi_margin_loss_cpu_kernel");
        checkDtype(target, DType.INT64);
        if (weight != null) checkDtype(weight, input.dtype());
        // ATen defines no derivative in the weight; the composition would have one, so refuse as autograd does
        if (weight != null && weight.requiresGrad() && Torch.isGradEnabled()) {
            throw new TorchException("The function 'multi_margin_loss' is not differentiable with respect to argument "
                    + "'weight'. This input cannot have requires_grad True.");
        }
        Tensor y = target.reshape(frames, 1);
        if (frames > 0
                && (Torch.any(y.lt(0L)).item() != 0 || Torch.any(y.ge(classes)).item() != 0)) {
            throw new TorchException("target out of range");
        }
        Tensor x = asMatrix(input);
        Tensor z = F.relu(x.sub(x.gather(1, y)).add(margin));
        if (p == 2) z = z.mul(z);
        if (weight != null) z = z.mul(weight.take(y));
        Tensor isTarget = Torch.arange(classes).eq(y);
        Tensor loss = Torch.where(isTarget, 0.0, z).sum(1).div(classes);
        if (reduction == Reduction.NONE) return target.dim() == 0 ? loss.reshape() : loss;
        return Losses.reduce(loss, reduction);
    }

    /**
     * {@code multilabel_margin_loss}: per sample {@code sum_{j, i} max(0, 1 - (x[y_j] - x[i])) / C} over the target
     * classes {@code y_j} (the leading non-negative entries of the target row, up to the first -1) and the classes
     * {@code i} that are not targets.
     */
    static Tensor multilabelMarginLoss(Tensor input, Tensor target, Reduction reduction) {
        checkInput(input);
        int nd = input.dim();
        long classes = nd == 0 ? 1 : input.size(nd - 1);
        boolean sameShape = nd <= 1
                ? target.dim() <= 1 && target.numel() == classes
                : target.dim() == 2 && target.size(0) == input.size(0) && target.size(1) == classes;
        if (!sameShape) {
            throw new TorchException("inconsistent target size: " + Shapes.str(target.shape()) + " for input of size: "
                    + Shapes.str(input.shape()));
        }
        checkFloating(input, "multilabel_margin_loss_forward_out_frame");
        checkDtype(target, DType.INT64);
        Tensor y = asMatrix(target);
        if (y.numel() > 0
                && (Torch.any(y.lt(-1L)).item() != 0 || Torch.any(y.ge(classes)).item() != 0)) {
            throw new TorchException("argument #2 'target' is out of range");
        }
        Tensor x = asMatrix(input);
        // a target row lists its classes up to the first -1: the entries before it count
        Tensor listed = y.ge(0L).to(DType.INT64).cumprod(1).bool();
        Tensor hit = Torch.logicalAnd(y.unsqueeze(2).eq(Torch.arange(classes)), listed.unsqueeze(2));
        Tensor isTarget = hit.any(1);
        Tensor xy = x.gather(1, y.clampMin(0L));
        Tensor z = F.relu(x.unsqueeze(1).sub(xy.unsqueeze(2)).add(1.0));
        Tensor counted =
                Torch.logicalAnd(listed.unsqueeze(2), isTarget.logicalNot().unsqueeze(1));
        Tensor loss = Torch.where(counted, z, 0.0).sum(new long[] {1, 2}, false).div(classes);
        if (reduction == Reduction.NONE) return nd <= 1 ? loss.reshape() : loss;
        // ATen divides the summed loss by the frames only when there are any: an empty batch's mean is 0
        if (reduction == Reduction.MEAN && loss.numel() == 0) return loss.sum();
        return Losses.reduce(loss, reduction);
    }

    /**
     * {@code triplet_margin_with_distance_loss}: {@code max(0, margin + d(a, p) - d(a, n))} with any distance;
     * {@code swap} takes the smaller of d(a, n) and d(p, n). A null distance is {@code pairwise_distance}.
     */
    static Tensor tripletMarginWithDistanceLoss(
            Tensor anchor,
            Tensor positive,
            Tensor negative,
            BiFunction<Tensor, Tensor, Tensor> distanceFunction,
            double margin,
            boolean swap,
            Reduction reduction) {
        if (!(margin > 0)) {
            throw new IllegalArgumentException("margin must be greater than 0, got " + pyFloat(margin));
        }
        int a = anchor.dim(), pd = positive.dim(), n = negative.dim();
        if (a != pd || pd != n) {
            throw new TorchException("The anchor, positive, and negative tensors are expected to have the same number "
                    + "of dimensions, but got: anchor " + a + "D, positive " + pd + "D, and negative " + n
                    + "D inputs");
        }
        BiFunction<Tensor, Tensor, Tensor> d = distanceFunction != null ? distanceFunction : F::pairwiseDistance;
        Tensor distPos = d.apply(anchor, positive);
        Tensor distNeg = d.apply(anchor, negative);
        if (swap) distNeg = Torch.minimum(distNeg, d.apply(positive, negative));
        return Losses.reduce(distPos.sub(distNeg).add(margin).clampMin(0.0), reduction);
    }

    /** A double as Python's {@code str(float)} prints the common values: {@code 0.0}, {@code -1.5}. */
    private static String pyFloat(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e16 ? (long) v + ".0" : String.valueOf(v);
    }
}

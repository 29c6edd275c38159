package org.jtorch.nn.functional;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.amp.Autocast;
import org.jtorch.amp.CastPolicy;
import org.jtorch.autograd.Function;
import org.jtorch.internal.Shapes;
import org.jtorch.nn.Reduction;
import org.jtorch.ops.CtcLossOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.TernaryOps;

/** Loss functions of {@code torch.nn.functional}, composed from differentiable ops (log-space for stability). */
final class Losses {
    private Losses() {}

    static Tensor reduce(Tensor loss, Reduction reduction) {
        return switch (reduction) {
            case NONE -> loss;
            case SUM -> loss.sum();
            case MEAN -> loss.mean();
        };
    }

    /**
     * cross_entropy: probability targets when target and input have the same shape (as ATen decides), else class
     * indices.
     */
    static Tensor crossEntropy(Tensor input, Tensor target, CrossEntropyOptions o) {
        if (Autocast.isActive())
            return Autocast.run(
                    CastPolicy.FP32,
                    a -> crossEntropy(a[0], a[1], o.weight() == null ? o : o.weight(a[2])),
                    input,
                    target,
                    o.weight());
        double eps = o.labelSmoothing();
        if (!(eps >= 0 && eps <= 1)) {
            throw new IllegalArgumentException("label_smoothing must be between 0.0 and 1.0. Got: " + eps);
        }
        int classDim = input.dim() == 1 ? 0 : 1;
        long c = input.size(classDim);
        checkWeight(o.weight(), c);
        Tensor lp = input.logSoftmax(classDim);
        if (Arrays.equals(input.shape(), target.shape())) {
            if (!target.isFloatingPoint()) {
                throw new TorchException("Expected floating point type for target with class probabilities, got "
                        + target.dtype().cppName());
            }
            Tensor t = eps > 0 ? target.mul(1 - eps).add(eps / c) : target;
            Tensor terms = lp.mul(t);
            if (o.weight() != null) terms = terms.mul(classShaped(o.weight(), input.dim(), classDim));
            Tensor loss = terms.sum(classDim).neg();
            return reduce(loss, o.reduction());
        }
        Picked p = pick(lp, target, o.weight(), o.ignoreIndex(), classDim);
        Tensor nll = reduceWeighted(p.loss(), p.rowWeight(), o.reduction());
        if (eps == 0) return nll;
        Tensor terms = o.weight() == null ? lp : lp.mul(classShaped(o.weight(), input.dim(), classDim));
        Tensor smooth = terms.sum(classDim).neg();
        if (p.valid() != null) smooth = TernaryOps.where(p.valid(), smooth, 0.0);
        return nll.mul(1 - eps)
                .add(reduceWeighted(smooth, p.rowWeight(), o.reduction()).mul(eps / c));
    }

    /** nll_loss on log-probabilities with class-index targets. */
    static Tensor nllLoss(Tensor input, Tensor target, CrossEntropyOptions o) {
        if (Autocast.isActive())
            return Autocast.run(
                    CastPolicy.FP32,
                    a -> nllLoss(a[0], a[1], o.weight() == null ? o : o.weight(a[2])),
                    input,
                    target,
                    o.weight());
        if (input.dim() < 1) throw new TorchException("input tensor should be 1D or 2D");
        int classDim = input.dim() == 1 ? 0 : 1;
        checkWeight(o.weight(), input.size(classDim));
        Picked p = pick(input, target, o.weight(), o.ignoreIndex(), classDim);
        return reduceWeighted(p.loss(), p.rowWeight(), o.reduction());
    }

    /**
     * Per-element {@code -w[y]·lp[y]}, its weight {@code w[y]} (0 when ignored) and the not-ignored mask. When every
     * target counts with weight 1 (no class weights, no ignored target), {@code rowWeight} and {@code valid} are null:
     * the loss is {@code -lp[y]} alone, with no masking ops to record and differentiate.
     */
    private record Picked(Tensor loss, Tensor rowWeight, Tensor valid) {}

    private static Picked pick(Tensor lp, Tensor target, Tensor weight, long ignoreIndex, int classDim) {
        checkTargetShape(lp, target, classDim);
        target = classIndices(target, lp.dim());
        long c = lp.size(classDim);
        // Under vmap the target is a batched wrapper whose values cannot be read here, and a fake one (graph capture)
        // has none: the general path then serves every target, and gather below still refuses an out-of-range class
        // index.
        boolean readable =
                target.device() != Device.META && !target.impl().isFake() && target.transformPayload() == null;
        long[] classes = readable ? target.toLongArray() : null;
        if (classes != null) checkBounds(classes, c, ignoreIndex);
        if (weight == null && classes != null && noneIgnored(classes, ignoreIndex)) {
            return new Picked(
                    lp.gather(classDim, target.unsqueeze(classDim))
                            .squeeze(classDim)
                            .neg(),
                    null,
                    null);
        }
        Tensor valid = target.ne(ignoreIndex);
        Tensor safe = TernaryOps.where(valid, target, 0L);
        Tensor picked = lp.gather(classDim, safe.unsqueeze(classDim)).squeeze(classDim);
        Tensor rowWeight = weight == null
                ? valid.to(lp.dtype())
                : TernaryOps.where(
                        valid,
                        ScatterOps.indexSelect(weight, 0, safe.reshape(-1)).reshape(target.shape()),
                        0.0);
        Tensor loss = TernaryOps.where(valid, picked.mul(rowWeight).neg(), 0.0);
        return new Picked(loss, rowWeight, valid);
    }

    private static boolean noneIgnored(long[] classes, long ignoreIndex) {
        for (long y : classes) if (y == ignoreIndex) return false;
        return true;
    }

    /**
     * The class-index target as int64. ATen's CPU nll_loss reads int64 targets, and uint8 ones where the input is 1-D
     * or 2-D (nll_loss, not nll_loss2d); every other dtype (int32 included, in 2.15 as in 1.13) is refused with the
     * message of its int64 data access.
     */
    private static Tensor classIndices(Tensor target, int inputDim) {
        DType d = target.dtype();
        if (d == DType.INT64) return target;
        if (d == DType.UINT8 && inputDim <= 2) return target.to(DType.INT64);
        throw new TorchException("expected scalar type Long but found " + d.cppName());
    }

    /**
     * 'mean' is the weighted mean: the sum divided by the total weight of the non-ignored targets, which is the element
     * count when there is no row weight (every target counts once). Both are a sum and a division, as ATen's nll_loss
     * computes them, so the path without masks gives bitwise the general path's value: a captured graph, whose targets
     * are not known, takes the general one.
     */
    private static Tensor reduceWeighted(Tensor loss, Tensor rowWeight, Reduction reduction) {
        if (reduction != Reduction.MEAN) return reduce(loss, reduction);
        // ATen's nll_loss divides the sum by the total weight in both cases; so does this, so that the path without
        // masks gives the masked path's bits (a captured graph, which cannot read the targets, takes the masked one)
        return rowWeight != null ? loss.sum().div(rowWeight.sum()) : loss.sum().div((double) loss.numel());
    }

    private static void checkBounds(long[] targets, long c, long ignoreIndex) {
        for (long y : targets) {
            if (y != ignoreIndex && (y < 0 || y >= c))
                throw new IndexOutOfBoundsException("Target " + y + " is out of bounds.");
        }
    }

    private static void checkTargetShape(Tensor input, Tensor target, int classDim) {
        if (input.dim() <= 2) {
            if (target.dim() > 1)
                throw new TorchException("0D or 1D target tensor expected, multi-target not supported");
            long n = input.dim() == 1 ? 1 : input.size(0), m = target.dim() == 0 ? 1 : target.size(0);
            if (input.dim() == 2 && n != m) {
                throw new IllegalArgumentException(
                        "Expected input batch_size (" + n + ") to match target batch_size (" + m + ").");
            }
            if (input.dim() == 1 && target.dim() != 0) {
                throw new TorchException("0D target tensor expected, multi-target not supported");
            }
            return;
        }
        long[] expected = new long[input.dim() - 1];
        for (int i = 0, j = 0; i < input.dim(); i++) if (i != classDim) expected[j++] = input.size(i);
        if (!Arrays.equals(expected, target.shape())) {
            throw new TorchException(
                    "Expected target size " + Shapes.str(expected) + ", got " + Shapes.str(target.shape()));
        }
    }

    private static void checkWeight(Tensor weight, long c) {
        if (weight != null && (weight.dim() != 1 || weight.numel() != c)) {
            throw new TorchException("weight tensor should be defined either for all " + c
                    + " classes or no classes but got weight tensor of shape: " + Shapes.str(weight.shape()));
        }
    }

    /** The class weight reshaped to broadcast along the class dim of an input of rank {@code rank}. */
    private static Tensor classShaped(Tensor weight, int rank, int classDim) {
        long[] shape = new long[rank];
        Arrays.fill(shape, 1);
        shape[classDim] = weight.numel();
        return weight.reshape(shape);
    }

    /** The regression losses broadcast mismatched shapes, after PyTorch's UserWarning. */
    private static void warnIfBroadcast(Tensor input, Tensor target) {
        if (!Arrays.equals(input.shape(), target.shape())) {
            Warnings.warn("Using a target size (torch.Size(" + Shapes.str(target.shape())
                    + ")) that is different to the input size"
                    + " (torch.Size(" + Shapes.str(input.shape())
                    + ")). This will likely lead to incorrect results due to "
                    + "broadcasting. Please ensure they have the same size.");
        }
    }

    static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.FP32, a -> mseLoss(a[0], a[1], reduction), input, target);
        warnIfBroadcast(input, target);
        return reduce(input.sub(target).square(), reduction);
    }

    static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.FP32, a -> l1Loss(a[0], a[1], reduction), input, target);
        warnIfBroadcast(input, target);
        return reduce(input.sub(target).abs(), reduction);
    }

    static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.FP32, a -> smoothL1Loss(a[0], a[1], reduction, beta), input, target);
        if (beta < 0) throw new TorchException("smooth_l1_loss does not support negative values for beta.");
        if (beta == 0) return l1Loss(input, target, reduction);
        warnIfBroadcast(input, target);
        Tensor d = input.sub(target).abs();
        return reduce(TernaryOps.where(d.lt(beta), d.square().mul(0.5 / beta), d.sub(0.5 * beta)), reduction);
    }

    static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.FP32, a -> huberLoss(a[0], a[1], reduction, delta), input, target);
        if (!(delta > 0)) throw new TorchException("huber_loss does not support non-positive values for delta.");
        warnIfBroadcast(input, target);
        Tensor d = input.sub(target).abs();
        // ATen computes in the promoted dtype but writes the loss in the input's dtype
        Tensor loss = TernaryOps.where(
                d.lt(delta), d.square().mul(0.5), d.sub(0.5 * delta).mul(delta));
        return reduce(loss.to(input.dtype()), reduction);
    }

    /** BCE on probabilities; the logs are clamped at -100 as in PyTorch so 0 and 1 give finite losses. */
    static Tensor binaryCrossEntropy(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
        if (Autocast.isActive())
            return Autocast.run(
                    CastPolicy.FP32, a -> binaryCrossEntropy(a[0], a[1], a[2], reduction), input, target, weight);
        if (!Arrays.equals(input.shape(), target.shape())) {
            throw new IllegalArgumentException("Using a target size (torch.Size(" + Shapes.str(target.shape())
                    + ")) that is different to the input size (torch.Size(" + Shapes.str(input.shape())
                    + ")) is deprecated. Please ensure they have the same size.");
        }
        if (input.device() != Device.META) {
            for (double v : input.toDoubleArray()) {
                if (!(v >= 0 && v <= 1)) throw new TorchException("all elements of input should be between 0 and 1");
            }
        }
        Tensor loss = new BinaryCrossEntropy().apply(input, target);
        if (weight != null) loss = loss.mul(weight);
        return reduce(loss, reduction);
    }

    /**
     * The unreduced BCE with ATen's derivatives, which are not those of its clamped logs: d/dx is {@code (x - y) /
     * max(x(1 - x), 1e-12)}, finite at x = 0 or 1 and bounded for tiny x, and d/dy is {@code -logit(x)}.
     */
    private static final class BinaryCrossEntropy extends Function {
        /** ATen's EPSILON is a float constant: 1e-12f, 9.99999996e-13 as a double. */
        private static final double EPSILON = 1e-12f;

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor x = (Tensor) args[0], y = (Tensor) args[1];
            ctx.saveForBackward(x, y);
            Tensor logP = x.log().clampMin(-100.0);
            Tensor logQ = x.neg().add(1L).log().clampMin(-100.0);
            return new Tensor[] {y.mul(logP).add(y.neg().add(1L).mul(logQ)).neg()};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor[] xy = ctx.savedTensors();
            return new Tensor[] {
                ctx.needsInputGrad(0) ? grads[0].mul(dLossDx(xy[0], xy[1])) : null,
                ctx.needsInputGrad(1) ? grads[0].mul(dLossDy(xy[0])) : null
            };
        }

        @Override
        protected Tensor[] jvp(Ctx ctx, Tensor... tangents) {
            Tensor[] xy = ctx.savedTensors();
            Tensor t = tangents[0] == null ? null : tangents[0].mul(dLossDx(xy[0], xy[1]));
            if (tangents[1] != null) {
                Tensor ty = tangents[1].mul(dLossDy(xy[0]));
                t = t == null ? ty : t.add(ty);
            }
            return new Tensor[] {t};
        }

        private static Tensor dLossDx(Tensor x, Tensor y) {
            return x.sub(y).div(x.mul(x.neg().add(1L)).clampMin(EPSILON));
        }

        private static Tensor dLossDy(Tensor x) {
            return Torch.logit(x).neg();
        }
    }

    /** BCE on logits: {@code (1-y)·x + (1+(pw-1)·y)·softplus(-x)}, stable for large |x|. */
    static Tensor binaryCrossEntropyWithLogits(
            Tensor input, Tensor target, Tensor weight, Tensor posWeight, Reduction reduction) {
        if (Autocast.isActive())
            return Autocast.run(
                    CastPolicy.FP32,
                    a -> binaryCrossEntropyWithLogits(a[0], a[1], a[2], a[3], reduction),
                    input,
                    target,
                    weight,
                    posWeight);
        if (!Arrays.equals(input.shape(), target.shape())) {
            throw new IllegalArgumentException("Target size (torch.Size(" + Shapes.str(target.shape())
                    + ")) must be the same as input size (torch.Size(" + Shapes.str(input.shape()) + "))");
        }
        Tensor softplusNeg = Torch.softplus(input.neg());
        Tensor logWeight =
                posWeight == null ? null : posWeight.sub(1L).mul(target).add(1L);
        Tensor loss = target.neg().add(1L).mul(input).add(logWeight == null ? softplusNeg : logWeight.mul(softplusNeg));
        if (weight != null) loss = loss.mul(weight);
        return reduce(loss, reduction);
    }

    /** kl_div with reduction "none", "mean", "sum" or "batchmean" (sum divided by the batch size). */
    static Tensor klDiv(Tensor input, Tensor target, String reduction, boolean logTarget) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.FP32, a -> klDiv(a[0], a[1], reduction, logTarget), input, target);
        Tensor loss = logTarget
                ? target.exp().mul(target.sub(input))
                : Torch.xlogy(target, target).sub(target.mul(input));
        if ("mean".equals(reduction)) {
            Warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                    + "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                    + "'mean' will be changed to behave the same as 'batchmean' in the next major release.");
        }
        if ("batchmean".equals(reduction)) {
            return input.dim() == 0 ? loss.sum() : loss.sum().div(input.size(0));
        }
        return reduce(loss, Reduction.of(reduction));
    }

    /**
     * cosine_embedding_loss: {@code 1 − cos} for target 1, {@code max(0, cos − margin)} for target −1 (ATen's formula
     * and eps).
     */
    static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
        if (Autocast.isActive())
            return Autocast.run(
                    CastPolicy.FP32,
                    a -> cosineEmbeddingLoss(a[0], a[1], a[2], margin, reduction),
                    input1,
                    input2,
                    target);
        int targDim = target.dim();
        if (targDim != 0 && targDim != 1)
            throw new TorchException("0D or 1D target tensor expected, multi-target not supported");
        if (targDim == 1 && (input1.dim() != 2 || input2.dim() != 2)) {
            throw new TorchException("1D target tensor expects 2D input tensors, but found inputs with sizes "
                    + Shapes.str(input1.shape()) + " and " + Shapes.str(input2.shape()) + ".");
        }
        if (targDim == 0 && (input1.dim() != 1 || input2.dim() != 1)) {
            throw new TorchException("0D target tensor expects 1D input tensors, but found inputs with sizes "
                    + Shapes.str(input1.shape()) + " and " + Shapes.str(input2.shape()) + ".");
        }
        double eps = 1e-12;
        Tensor prodSum = input1.mul(input2).sum(targDim);
        Tensor mag1 = input1.mul(input1).sum(targDim).add(eps);
        Tensor mag2 = input2.mul(input2).sum(targDim).add(eps);
        Tensor cos = prodSum.div(mag1.mul(mag2).sqrt());
        Tensor pos = TernaryOps.where(target.eq(1L), cos.neg().add(1L), 0.0);
        Tensor neg = TernaryOps.where(target.eq(-1L), cos.sub(margin).clampMin(0.0), 0.0);
        return reduce(pos.add(neg), reduction);
    }

    /** margin_ranking_loss: {@code max(0, -y·(x1 - x2) + margin)}. */
    static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
        if (input1.dim() != input2.dim() || input1.dim() != target.dim()) {
            throw new TorchException("margin_ranking_loss : All input tensors should have same dimension but got "
                    + "sizes: input1: torch.Size(" + Shapes.str(input1.shape()) + "), input2: torch.Size("
                    + Shapes.str(input2.shape()) + "), target: torch.Size(" + Shapes.str(target.shape()) + ") ");
        }
        return reduce(target.neg().mul(input1.sub(input2)).add(margin).clampMin(0.0), reduction);
    }

    /**
     * triplet_margin_loss: {@code max(0, margin + d(a, p) - d(a, n))} with the pairwise p-norm distance; {@code swap}
     * takes the smaller of d(a, n) and d(p, n).
     */
    static Tensor tripletMarginLoss(
            Tensor anchor,
            Tensor positive,
            Tensor negative,
            double margin,
            double p,
            double eps,
            boolean swap,
            Reduction reduction) {
        int a = anchor.dim(), pd = positive.dim(), n = negative.dim();
        if (a != pd || pd != n) {
            throw new TorchException("The anchor, positive, and negative tensors are expected to have the same number "
                    + "of dimensions, but got: anchor " + a + "D, positive " + pd + "D, and negative " + n
                    + "D inputs");
        }
        Tensor distPos = F.pairwiseDistance(anchor, positive, p, eps, false);
        Tensor distNeg = F.pairwiseDistance(anchor, negative, p, eps, false);
        if (swap) distNeg = Torch.minimum(distNeg, F.pairwiseDistance(positive, negative, p, eps, false));
        return reduce(distPos.sub(distNeg).add(margin).clampMin(0.0), reduction);
    }

    /** multilabel_soft_margin_loss: the per-class logistic loss, averaged over the classes (last dim). */
    static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
        Tensor loss = target.mul(F.logsigmoid(input))
                .add(target.neg().add(1L).mul(F.logsigmoid(input.neg())))
                .neg();
        if (weight != null) loss = loss.mul(weight);
        int classDim = input.dim() - 1;
        loss = loss.sum(classDim).div(input.size(classDim));
        return reduce(loss, reduction);
    }

    /**
     * poisson_nll_loss: {@code exp(x) - y·x} for log inputs, else {@code x - y·log(x + eps)}; {@code full} adds
     * Stirling's approximation {@code y·log(y) - y + log(2πy)/2} where y &gt; 1.
     */
    static Tensor poissonNllLoss(
            Tensor input, Tensor target, boolean logInput, boolean full, double eps, Reduction reduction) {
        Tensor loss = logInput
                ? input.exp().sub(target.mul(input))
                : input.sub(target.mul(input.add(eps).log()));
        if (full) {
            Tensor stirling = target.mul(target.log())
                    .sub(target)
                    .add(target.mul(2 * Math.PI).log().mul(0.5));
            loss = loss.add(TernaryOps.where(target.le(1L), 0.0, stirling));
        }
        return reduce(loss, reduction);
    }

    /**
     * gaussian_nll_loss: {@code (log(max(var, eps)) + (x - y)² / max(var, eps)) / 2}, plus {@code log(2π)/2} when full;
     * var may omit the last dim or be 1 in one dim (homoscedastic). The clamp is made without gradient, as PyTorch's
     * in-place clamp under no_grad: the gradient reaches var as though unclamped.
     */
    static Tensor gaussianNllLoss(
            Tensor input, Tensor target, Tensor var, boolean full, double eps, Reduction reduction) {
        if (var.lt(0L).any().item() != 0) throw new IllegalArgumentException("var has negative entry/entries");
        long[] in = input.shape(), vs = var.shape();
        if (!Arrays.equals(vs, in)) {
            if (in.length > 0 && Arrays.equals(Arrays.copyOf(in, in.length - 1), vs)) {
                var = var.unsqueeze(-1);
            } else if (in.length != vs.length || mismatchedVarSize(in, vs) != 1) {
                throw new IllegalArgumentException("var is of incorrect size");
            }
        }
        Tensor clamped = var.clone();
        try (var _ = Torch.noGrad()) {
            clamped.clampMin_(eps);
        }
        Tensor loss = clamped.log().add(input.sub(target).square().div(clamped)).mul(0.5);
        if (full) loss = loss.add(0.5 * Math.log(2 * Math.PI));
        return reduce(loss, reduction);
    }

    /** PyTorch's test: the sum of var's sizes at the dims where they differ from the input's. */
    private static long mismatchedVarSize(long[] in, long[] vs) {
        long sum = 0;
        for (int i = 0; i < in.length; i++) if (in[i] != vs[i]) sum += vs[i];
        return sum;
    }

    /** soft_margin_loss: {@code log(1 + exp(-y·x))}. */
    static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
        return reduce(Torch.log1p(target.neg().mul(input).exp()), reduction);
    }

    /** hinge_embedding_loss: x where y = 1, {@code max(0, margin - x)} where y = -1 (ATen's formula). */
    static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
        Tensor marginClamp = input.neg().add(margin).clampMin(0.0);
        Tensor outputMargin = TernaryOps.where(target.ne(1L), marginClamp, 0.0);
        Tensor outputSelf = TernaryOps.where(target.ne(-1L), input, 0.0);
        return reduce(outputMargin.add(outputSelf), reduction);
    }

    /**
     * ctc_loss: {@code _ctc_loss}'s negative log-likelihoods, infinite ones zeroed when asked, then reduced; the mean
     * divides each loss by its target length (at least 1) first. A 2-d input is one unbatched sequence.
     */
    static Tensor ctcLoss(
            Tensor logProbs,
            Tensor targets,
            long[] inputLengths,
            long[] targetLengths,
            long blank,
            Reduction reduction,
            boolean zeroInfinity) {
        boolean batched = logProbs.dim() == 3;
        Tensor lp = batched ? logProbs : logProbs.unsqueeze(1);
        Tensor tg = batched ? targets : targets.unsqueeze(0);
        Tensor nll = CtcLossOps.ctcLoss(lp, tg, inputLengths, targetLengths, blank, zeroInfinity)[0];
        if (zeroInfinity) nll = TernaryOps.where(nll.eq(Double.POSITIVE_INFINITY), 0.0, nll);
        return switch (reduction) {
            case MEAN -> {
                Tensor lengths = Torch.tensor(targetLengths).to(nll.dtype()).clampMin(1.0);
                yield nll.div(lengths).mean();
            }
            case SUM -> nll.sum();
            case NONE -> batched ? nll : nll.squeeze(0);
        };
    }

    /** The lengths of ctc_loss's tensor overload, which must be integral. */
    static long[] ctcLengths(Tensor lengths, String name) {
        if (lengths.isFloatingPoint() || lengths.isComplex() || lengths.dtype() == DType.BOOL)
            throw new TorchException(name + " must be integral");
        return lengths.toLongArray();
    }
}

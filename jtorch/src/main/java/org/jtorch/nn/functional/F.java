package org.jtorch.nn.functional;

import java.util.Arrays;
import java.util.function.BiFunction;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ValuesIndices;
import org.jtorch.amp.Autocast;
import org.jtorch.amp.CastPolicy;
import org.jtorch.internal.Shapes;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Reduction;
import org.jtorch.ops.ActivationOps;
import org.jtorch.ops.AdaptiveMaxPoolOps;
import org.jtorch.ops.FoldOps;
import org.jtorch.ops.NormOps;
import org.jtorch.ops.PixelShuffleOps;
import org.jtorch.ops.Pool1dOps;
import org.jtorch.ops.Pool3dOps;
import org.jtorch.ops.PoolOps;
import org.jtorch.ops.RandomOps;
import org.jtorch.ops.ReductionOps;
import org.jtorch.ops.ScatterOps;
import org.jtorch.ops.TernaryOps;
import org.jtorch.ops.UpsampleOps;

/**
 * {@code torch.nn.functional}: every function is a composition of differentiable tensor ops, so autograd, the meta
 * device and DebugMode need nothing extra.
 */
public final class F {
    private F() {}

    /** {@code F.linear(input, weight)}: {@code input @ weight.T}. */
    public static Tensor linear(Tensor input, Tensor weight) {
        if (Autocast.isActive())
            return Autocast.run(CastPolicy.LOWER_PRECISION_FP, a -> linear(a[0], a[1]), input, weight);
        return input.matmul(weight.t());
    }

    /**
     * {@code F.linear(input, weight, bias)}: {@code input @ weight.T + bias}; a null bias is omitted. As ATen's
     * {@code linear}, a 2-D input (or a contiguous 3-D one, flattened to 2-D) with a bias is one {@code addmm}: the
     * bias is the GEMM's initial value rather than a second pass and a second node.
     */
    public static Tensor linear(Tensor input, Tensor weight, Tensor bias) {
        if (Autocast.isActive()) {
            return Autocast.run(CastPolicy.LOWER_PRECISION_FP, a -> linear(a[0], a[1], a[2]), input, weight, bias);
        }
        if (bias != null && input.dim() == 2) return Torch.addmm(bias, input, weight.t());
        if (bias != null && bias.dim() <= 1 && input.dim() == 3 && input.isContiguous() && weight.dim() == 2) {
            long[] shape = input.shape();
            Tensor out = Torch.addmm(bias, input.view(shape[0] * shape[1], shape[2]), weight.t());
            return out.view(shape[0], shape[1], out.size(1));
        }
        Tensor out = linear(input, weight);
        return bias == null ? out : out.add(bias);
    }

    /**
     * {@code F.dropout(input, p, training)}: zeroes elements with probability {@code p} and scales the rest by
     * {@code 1/(1-p)}. The mask is drawn in the real dtype, so a complex element keeps or loses its real and imaginary
     * parts together (2.15).
     */
    public static Tensor dropout(Tensor input, double p, boolean training) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("dropout probability has to be between 0 and 1, but got " + p);
        }
        if (!training || p == 0 || input.numel() == 0) return input;
        DType maskType = input.dtype().toReal();
        Tensor zeros = Torch.zeros(input.shape(), maskType, input.device());
        if (p == 1) return input.mul(zeros);
        Tensor mask = RandomOps.bernoulli(zeros, 1 - p);
        return input.mul(mask).div(1 - p);
    }

    /** {@code F.layer_norm(input, normalized_shape, weight, bias, eps)}; null weight/bias are omitted. */
    public static Tensor layerNorm(Tensor input, long[] normalizedShape, Tensor weight, Tensor bias, double eps) {
        return NormOps.nativeLayerNorm(input, normalizedShape, weight, bias, eps)[0];
    }

    /** {@code F.layer_norm(input, normalized_shape)} with eps 1e-5 and no affine parameters. */
    public static Tensor layerNorm(Tensor input, long[] normalizedShape) {
        return layerNorm(input, normalizedShape, null, null, 1e-5);
    }

    /**
     * {@code F.rms_norm(input, normalized_shape, weight, eps)}: {@code x / sqrt(mean(x²) + eps) * weight}, in the
     * input's dtype. As ATen computes it, float16 and bfloat16 inputs are computed in float32 (with a float32 or a
     * half-precision weight) and rounded once at the end, and a null eps is the machine epsilon of the computation's
     * dtype (float32's for half-precision inputs).
     */
    public static Tensor rmsNorm(Tensor input, long[] normalizedShape, Tensor weight, Double eps) {
        long[] dims = normalizedDims(input, normalizedShape);
        checkAffine("weight", weight, normalizedShape);
        boolean half = input.dtype() == DType.FLOAT16 || input.dtype() == DType.BFLOAT16;
        Tensor x = half ? input.to(DType.FLOAT32) : input;
        double e = eps != null ? eps : machineEpsilon(x.dtype());
        Tensor out = x.mul(x.square().mean(dims, true).add(e).rsqrt());
        if (weight != null) out = out.mul(weight);
        return out.to(input.dtype());
    }

    /** {@code F.rms_norm(input, normalized_shape)} without weight and with the dtype's epsilon. */
    public static Tensor rmsNorm(Tensor input, long[] normalizedShape) {
        return rmsNorm(input, normalizedShape, null, null);
    }

    /** {@code F.embedding(input, weight)}: rows of {@code weight} selected by the integer {@code input}. */
    public static Tensor embedding(Tensor input, Tensor weight) {
        return embedding(input, weight, null);
    }

    /**
     * {@code F.embedding(input, weight, padding_idx)}: the row at {@code paddingIdx} (negative counts from the end;
     * null = none) receives no gradient.
     */
    public static Tensor embedding(Tensor input, Tensor weight, Long paddingIdx) {
        if (input.dtype() != DType.INT64 && input.dtype() != DType.INT32) {
            throw new TorchException(
                    "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                            + "Long, Int; but got " + legacyTypeName(input.dtype())
                            + " instead (while checking arguments for embedding)");
        }
        if (weight.dim() != 2) throw new TorchException("'weight' must be 2-D");
        long[] outShape = Arrays.copyOf(input.shape(), input.dim() + 1);
        outShape[input.dim()] = weight.size(1);
        Tensor rows = ScatterOps.indexSelect(weight, 0, input.reshape(-1)).reshape(outShape);
        if (paddingIdx == null) return rows;
        long n = weight.size(0), pad = paddingIdx;
        if (pad >= n || pad < -n) throw new IllegalArgumentException("Padding_idx must be within num_embeddings");
        if (pad < 0) pad += n;
        // same values, but the padding positions read a detached copy so no gradient reaches that row
        Tensor isPad = input.eq(pad).unsqueeze(-1);
        return TernaryOps.where(isPad, rows.detach(), rows);
    }

    /** {@code F.softmax(input, dim)}. */
    public static Tensor softmax(Tensor input, long dim) {
        return ReductionOps.softmax(input, dim);
    }

    /** {@code F.softmax(input, dim, dtype)}: the input is cast to {@code dtype} first. */
    public static Tensor softmax(Tensor input, long dim, DType dtype) {
        return ReductionOps.softmax(input, dim, dtype);
    }

    /** {@code F.log_softmax(input, dim)}. */
    public static Tensor logSoftmax(Tensor input, long dim) {
        return ReductionOps.logSoftmax(input, dim);
    }

    /** {@code F.log_softmax(input, dim, dtype)}. */
    public static Tensor logSoftmax(Tensor input, long dim, DType dtype) {
        return ReductionOps.logSoftmax(input, dim, dtype);
    }

    /** {@code F.gelu(input)} (exact, erf form). */
    public static Tensor gelu(Tensor input) {
        return Torch.gelu(input);
    }

    /** {@code F.gelu(input, approximate)} with {@code approximate} "none" or "tanh". */
    public static Tensor gelu(Tensor input, String approximate) {
        return Torch.gelu(input, approximate);
    }

    /** {@code F.silu(input)}: {@code x·sigmoid(x)}. */
    public static Tensor silu(Tensor input) {
        return Torch.silu(input);
    }

    /** {@code F.relu(input)}. */
    public static Tensor relu(Tensor input) {
        return Torch.relu(input);
    }

    /** {@code F.leaky_relu(input)}: negative_slope 0.01. */
    public static Tensor leakyRelu(Tensor input) {
        return leakyRelu(input, 0.01);
    }

    /** {@code F.leaky_relu(input, negative_slope)}: x for x > 0, negative_slope · x otherwise. */
    public static Tensor leakyRelu(Tensor input, double negativeSlope) {
        requireFloatingKernel("leaky_relu", input);
        return TernaryOps.where(input.gt(0), input, input.mul(negativeSlope));
    }

    /** {@code F.elu(input)}: alpha 1. */
    public static Tensor elu(Tensor input) {
        return elu(input, 1.0);
    }

    /** {@code F.elu(input, alpha)}: x for x > 0, alpha · (eˣ − 1) otherwise (expm1, exact near 0). */
    public static Tensor elu(Tensor input, double alpha) {
        requireFloatingKernel("elu", input);
        return TernaryOps.where(input.gt(0), input, Torch.expm1(input).mul(alpha));
    }

    /** ATen has these activations' CPU kernels for floating dtypes only: others fail as its dispatch does. */
    private static void requireFloatingKernel(String op, Tensor input) {
        if (!input.isFloatingPoint()) {
            throw new TorchException(
                    "\"" + op + "_cpu\" not implemented for '" + input.dtype().cppName() + "'");
        }
    }

    /** {@code F.hardtanh(input)}: clamp to [-1, 1]. */
    public static Tensor hardtanh(Tensor input) {
        return Torch.hardtanh(input);
    }

    /** {@code F.hardtanh(input, min_val, max_val)}. */
    public static Tensor hardtanh(Tensor input, double minVal, double maxVal) {
        return Torch.hardtanh(input, minVal, maxVal);
    }

    /** {@code F.mish(input)}: x · tanh(softplus(x)). */
    public static Tensor mish(Tensor input) {
        return input.mul(Torch.softplus(input).tanh());
    }

    /** {@code F.softplus(input)}: log(1 + eˣ), with beta 1 and threshold 20. */
    public static Tensor softplus(Tensor input) {
        return Torch.softplus(input);
    }

    /**
     * {@code F.softplus(input, beta, threshold)}: log(1 + e^(beta·x)) / beta, and x itself where beta·x &gt; threshold.
     */
    public static Tensor softplus(Tensor input, double beta, double threshold) {
        return Torch.softplus(input, beta, threshold);
    }

    /** {@code F.hardswish(input)}: x · min(max(x + 3, 0), 6) / 6. Floating dtypes only. */
    public static Tensor hardswish(Tensor input) {
        return ActivationOps.hardswish(input);
    }

    /** {@code F.relu6(input)}: min(max(x, 0), 6), i.e. {@code hardtanh(x, 0, 6)}. */
    public static Tensor relu6(Tensor input) {
        return ActivationOps.relu6(input);
    }

    /** {@code F.logsigmoid(input)}: log(1 / (1 + e⁻ˣ)), computed without overflow. Floating dtypes only. */
    public static Tensor logsigmoid(Tensor input) {
        return ActivationOps.logSigmoid(input);
    }

    /**
     * {@code torch._C._nn.log_sigmoid(input)}, the op {@code F.logsigmoid} calls: {@link #logsigmoid} by its op name.
     */
    public static Tensor logSigmoid(Tensor input) {
        return ActivationOps.logSigmoid(input);
    }

    /**
     * {@code F.selu(input)}: scale · (x if x &gt; 0 else α(eˣ − 1)) with α ≈ 1.6733 and scale ≈ 1.0507. Floating dtypes
     * only.
     */
    public static Tensor selu(Tensor input) {
        return ActivationOps.selu(input);
    }

    /**
     * {@code F.softsign(input)}: x / (1 + |x|). As in PyTorch (a Python-level function), integers promote through the
     * division and complex inputs take |x|.
     */
    public static Tensor softsign(Tensor input) {
        return input.div(input.abs().add(1L));
    }

    /** {@code F.glu(input)}: the gated linear unit over the last dim, a · σ(b) for its two halves a, b. */
    public static Tensor glu(Tensor input) {
        return ActivationOps.glu(input, -1);
    }

    /** {@code F.glu(input, dim)}: a · σ(b) for the two halves a, b of {@code input} along {@code dim}. */
    public static Tensor glu(Tensor input, long dim) {
        return ActivationOps.glu(input, dim);
    }

    /** {@code F.cosine_similarity(x1, x2)}: along dim 1 with eps 1e-8. */
    public static Tensor cosineSimilarity(Tensor x1, Tensor x2) {
        return ActivationOps.cosineSimilarity(x1, x2, 1, 1e-8);
    }

    /**
     * {@code F.cosine_similarity(x1, x2, dim, eps)}: Σ x1·x2 / (max(‖x1‖, eps) · max(‖x2‖, eps)) along {@code dim},
     * after broadcasting; integer inputs promote with a floating one, two integer inputs are refused.
     */
    public static Tensor cosineSimilarity(Tensor x1, Tensor x2, long dim, double eps) {
        return ActivationOps.cosineSimilarity(x1, x2, dim, eps);
    }

    /** {@code F.pairwise_distance(x1, x2)}: the 2-norm of x1 − x2 + 1e-6 along the last dim. */
    public static Tensor pairwiseDistance(Tensor x1, Tensor x2) {
        return ActivationOps.pairwiseDistance(x1, x2, 2, 1e-6, false);
    }

    /** {@code F.pairwise_distance(x1, x2, p, eps, keepdim)}: ‖x1 − x2 + eps‖_p along the last broadcast dim. */
    public static Tensor pairwiseDistance(Tensor x1, Tensor x2, double p, double eps, boolean keepdim) {
        return ActivationOps.pairwiseDistance(x1, x2, p, eps, keepdim);
    }

    /** {@code F.tanh(input)}. */
    public static Tensor tanh(Tensor input) {
        return Torch.tanh(input);
    }

    /** {@code F.sigmoid(input)}. */
    public static Tensor sigmoid(Tensor input) {
        return Torch.sigmoid(input);
    }

    /** {@code F.one_hot(tensor, num_classes)}; {@code numClasses} -1 infers it from the largest value. */
    public static Tensor oneHot(Tensor tensor, long numClasses) {
        return Torch.oneHot(tensor, numClasses);
    }

    /** {@code F.pad(input, pad, mode, value)}: mode "constant", "reflect", "replicate" or "circular". */
    public static Tensor pad(Tensor input, long[] pad, String mode, double value) {
        return mode.equals("constant") ? Torch.pad(input, pad, value) : Torch.pad(input, pad, mode);
    }

    /** {@code F.cross_entropy(input, target)}: mean cross entropy of logits against class indices or probabilities. */
    public static Tensor crossEntropy(Tensor input, Tensor target) {
        return Losses.crossEntropy(input, target, CrossEntropyOptions.defaults());
    }

    /** {@code F.cross_entropy(input, target, weight=, ignore_index=, reduction=, label_smoothing=)}. */
    public static Tensor crossEntropy(Tensor input, Tensor target, CrossEntropyOptions options) {
        return Losses.crossEntropy(input, target, options);
    }

    /** {@code F.cross_entropy(input, target, reduction=)}. */
    public static Tensor crossEntropy(Tensor input, Tensor target, Reduction reduction) {
        return Losses.crossEntropy(input, target, CrossEntropyOptions.defaults().reduction(reduction));
    }

    /** {@code F.nll_loss(input, target)} on log-probabilities. */
    public static Tensor nllLoss(Tensor input, Tensor target) {
        return Losses.nllLoss(input, target, CrossEntropyOptions.defaults());
    }

    /** {@code F.nll_loss(input, target, weight=, ignore_index=, reduction=)}; label smoothing must be 0. */
    public static Tensor nllLoss(Tensor input, Tensor target, CrossEntropyOptions options) {
        if (options.labelSmoothing() != 0) throw new IllegalArgumentException("nll_loss has no label_smoothing");
        return Losses.nllLoss(input, target, options);
    }

    /** {@code F.mse_loss(input, target)} (mean). */
    public static Tensor mseLoss(Tensor input, Tensor target) {
        return Losses.mseLoss(input, target, Reduction.MEAN);
    }

    /** {@code F.mse_loss(input, target, reduction=)}. */
    public static Tensor mseLoss(Tensor input, Tensor target, Reduction reduction) {
        return Losses.mseLoss(input, target, reduction);
    }

    /** {@code F.l1_loss(input, target)} (mean). */
    public static Tensor l1Loss(Tensor input, Tensor target) {
        return Losses.l1Loss(input, target, Reduction.MEAN);
    }

    /** {@code F.l1_loss(input, target, reduction=)}. */
    public static Tensor l1Loss(Tensor input, Tensor target, Reduction reduction) {
        return Losses.l1Loss(input, target, reduction);
    }

    /** {@code F.smooth_l1_loss(input, target)} (mean, beta=1). */
    public static Tensor smoothL1Loss(Tensor input, Tensor target) {
        return Losses.smoothL1Loss(input, target, Reduction.MEAN, 1.0);
    }

    /** {@code F.smooth_l1_loss(input, target, reduction=, beta=)}. */
    public static Tensor smoothL1Loss(Tensor input, Tensor target, Reduction reduction, double beta) {
        return Losses.smoothL1Loss(input, target, reduction, beta);
    }

    /** {@code F.huber_loss(input, target)} (mean, delta=1). */
    public static Tensor huberLoss(Tensor input, Tensor target) {
        return Losses.huberLoss(input, target, Reduction.MEAN, 1.0);
    }

    /** {@code F.huber_loss(input, target, reduction=, delta=)}. */
    public static Tensor huberLoss(Tensor input, Tensor target, Reduction reduction, double delta) {
        return Losses.huberLoss(input, target, reduction, delta);
    }

    /** {@code F.binary_cross_entropy(input, target)} on probabilities (mean). */
    public static Tensor binaryCrossEntropy(Tensor input, Tensor target) {
        return Losses.binaryCrossEntropy(input, target, null, Reduction.MEAN);
    }

    /** {@code F.binary_cross_entropy(input, target, weight=, reduction=)}; a null weight is omitted. */
    public static Tensor binaryCrossEntropy(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
        return Losses.binaryCrossEntropy(input, target, weight, reduction);
    }

    /** {@code F.binary_cross_entropy_with_logits(input, target)} (mean). */
    public static Tensor binaryCrossEntropyWithLogits(Tensor input, Tensor target) {
        return Losses.binaryCrossEntropyWithLogits(input, target, null, null, Reduction.MEAN);
    }

    /**
     * {@code F.binary_cross_entropy_with_logits(input, target, weight=, reduction=, pos_weight=)}; nulls are omitted.
     */
    public static Tensor binaryCrossEntropyWithLogits(
            Tensor input, Tensor target, Tensor weight, Tensor posWeight, Reduction reduction) {
        return Losses.binaryCrossEntropyWithLogits(input, target, weight, posWeight, reduction);
    }

    /** {@code F.kl_div(input, target)}: input holds log-probabilities; reduction 'mean'. */
    public static Tensor klDiv(Tensor input, Tensor target) {
        return Losses.klDiv(input, target, "mean", false);
    }

    /** {@code F.kl_div(input, target, reduction=, log_target=)}; reduction "none", "mean", "sum" or "batchmean". */
    public static Tensor klDiv(Tensor input, Tensor target, String reduction, boolean logTarget) {
        return Losses.klDiv(input, target, reduction, logTarget);
    }

    /** {@code F.scaled_dot_product_attention(query, key, value)}. */
    public static Tensor scaledDotProductAttention(Tensor query, Tensor key, Tensor value) {
        return Attention.scaledDotProductAttention(query, key, value, null, 0.0, false, null, false);
    }

    /**
     * {@code F.scaled_dot_product_attention(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)};
     * null mask/scale mean none/{@code 1/sqrt(E)}.
     */
    public static Tensor scaledDotProductAttention(
            Tensor query,
            Tensor key,
            Tensor value,
            Tensor attnMask,
            double dropoutP,
            boolean isCausal,
            Double scale,
            boolean enableGqa) {
        return Attention.scaledDotProductAttention(query, key, value, attnMask, dropoutP, isCausal, scale, enableGqa);
    }

    /** The trailing dims covered by {@code normalizedShape}, after PyTorch's shape check. */
    private static long[] normalizedDims(Tensor input, long[] normalizedShape) {
        int k = normalizedShape.length;
        if (k == 0)
            throw new TorchException("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                    + "least one element, but got normalized_shape = []");
        long[] shape = input.shape();
        boolean ok = shape.length >= k
                && Arrays.equals(Arrays.copyOfRange(shape, shape.length - k, shape.length), normalizedShape);
        if (!ok) {
            throw new TorchException(
                    "Given normalized_shape=" + Shapes.str(normalizedShape) + ", expected input with shape [*, "
                            + Shapes.str(normalizedShape).substring(1) + ", but got input of size" + Shapes.str(shape));
        }
        long[] dims = new long[k];
        for (int i = 0; i < k; i++) dims[i] = shape.length - k + i;
        return dims;
    }

    private static void checkAffine(String name, Tensor t, long[] normalizedShape) {
        if (t != null && !Arrays.equals(t.shape(), normalizedShape)) {
            throw new TorchException("Expected " + name + " to be of same shape as normalized_shape, but got " + name
                    + " of shape " + Shapes.str(t.shape()) + " and normalized_shape = " + Shapes.str(normalizedShape));
        }
    }

    /** The legacy tensor-type name PyTorch's argument checks print ({@code torch.FloatTensor}). */
    private static String legacyTypeName(DType dtype) {
        return switch (dtype) {
            case FLOAT16 -> "torch.HalfTensor";
            case BFLOAT16 -> "torch.BFloat16Tensor";
            case FLOAT32 -> "torch.FloatTensor";
            case FLOAT64 -> "torch.DoubleTensor";
            case BOOL -> "torch.BoolTensor";
            case UINT8 -> "torch.ByteTensor";
            case INT8 -> "torch.CharTensor";
            case INT16 -> "torch.ShortTensor";
            default -> dtype.toString();
        };
    }

    /** {@code torch.finfo(dtype).eps}, rms_norm's default eps. */
    private static double machineEpsilon(DType dtype) {
        return switch (dtype.toReal()) {
            case FLOAT16 -> 0x1p-10;
            case BFLOAT16 -> 0x1p-7;
            case FLOAT64 -> Math.ulp(1.0);
            default -> Math.ulp(1.0f);
        };
    }
    // ---- pairwise distances ----

    /** {@code torch.nn.functional.pdist(input)}: Euclidean distances of all row pairs {@code i < j}. */
    public static Tensor pdist(Tensor input) {
        return org.jtorch.ops.DistanceOps.pdist(input);
    }

    /** {@code torch.nn.functional.pdist(input, p)}. */
    public static Tensor pdist(Tensor input, double p) {
        return org.jtorch.ops.DistanceOps.pdist(input, p);
    }

    // ---- convolution, pooling, normalisation, attention modules --------------------------------------------

    /** {@code F.conv1d(input, weight)}: stride 1, no padding. */
    public static Tensor conv1d(Tensor input, Tensor weight) {
        return conv1d(input, weight, null, 1, 0, 1, 1);
    }

    /** {@code F.conv1d(input, weight, bias, stride, padding, dilation, groups)}; a null bias is omitted. */
    public static Tensor conv1d(
            Tensor input, Tensor weight, Tensor bias, long stride, long padding, long dilation, long groups) {
        return Convolutions.conv(
                1, input, weight, bias, new long[] {stride}, new long[] {padding}, new long[] {dilation}, groups);
    }

    /** {@code F.conv1d(input, weight, bias, stride, padding="same"|"valid", dilation, groups)}. */
    public static Tensor conv1d(
            Tensor input, Tensor weight, Tensor bias, long stride, String padding, long dilation, long groups) {
        return Convolutions.conv(1, input, weight, bias, new long[] {stride}, padding, new long[] {dilation}, groups);
    }

    /** {@code F.conv2d(input, weight)}: stride 1, no padding. */
    public static Tensor conv2d(Tensor input, Tensor weight) {
        return conv2d(input, weight, null, new long[] {1}, new long[] {0}, new long[] {1}, 1);
    }

    /** {@code F.conv2d(input, weight, bias)}. */
    public static Tensor conv2d(Tensor input, Tensor weight, Tensor bias) {
        return conv2d(input, weight, bias, new long[] {1}, new long[] {0}, new long[] {1}, 1);
    }

    /**
     * {@code F.conv2d(input, weight, bias, stride, padding, dilation, groups)}: stride, padding and dilation hold one
     * value (both dims) or two; a null bias is omitted; the input is [N, C, H, W] or unbatched [C, H, W].
     */
    public static Tensor conv2d(
            Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
        return Convolutions.conv(2, input, weight, bias, stride, padding, dilation, groups);
    }

    /** {@code F.conv2d(input, weight, bias, stride, padding="same"|"valid", dilation, groups)}. */
    public static Tensor conv2d(
            Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
        return Convolutions.conv(2, input, weight, bias, stride, padding, dilation, groups);
    }

    /** {@code F.conv_transpose1d(input, weight)}: stride 1, no padding, weight {@code [C_in, C_out/groups, k]}. */
    public static Tensor convTranspose1d(Tensor input, Tensor weight) {
        return convTranspose1d(input, weight, null, 1, 0, 0, 1, 1);
    }

    /**
     * {@code F.conv_transpose1d(input, weight, bias, stride, padding, output_padding, groups, dilation)} (PyTorch's
     * argument order: groups before dilation); a null bias is omitted.
     */
    public static Tensor convTranspose1d(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long stride,
            long padding,
            long outputPadding,
            long groups,
            long dilation) {
        return Convolutions.convTranspose(
                1,
                input,
                weight,
                bias,
                new long[] {stride},
                new long[] {padding},
                new long[] {outputPadding},
                groups,
                new long[] {dilation});
    }

    /** {@code F.conv_transpose2d(input, weight)}: stride 1, no padding, weight {@code [C_in, C_out/groups, kh, kw]}. */
    public static Tensor convTranspose2d(Tensor input, Tensor weight) {
        return convTranspose2d(input, weight, null, new long[] {1}, new long[] {0}, new long[] {0}, 1, new long[] {1});
    }

    /**
     * {@code F.conv_transpose2d(input, weight, bias, stride, padding, output_padding, groups, dilation)}: stride,
     * padding, output padding and dilation hold one value (both dims) or two; a null bias is omitted; the input is [N,
     * C, H, W] or unbatched [C, H, W].
     */
    public static Tensor convTranspose2d(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] outputPadding,
            long groups,
            long[] dilation) {
        return Convolutions.convTranspose(2, input, weight, bias, stride, padding, outputPadding, groups, dilation);
    }

    /** {@code F.conv3d(input, weight)}: stride 1, no padding. */
    public static Tensor conv3d(Tensor input, Tensor weight) {
        return conv3d(input, weight, null, new long[] {1}, new long[] {0}, new long[] {1}, 1);
    }

    /**
     * {@code F.conv3d(input, weight, bias, stride, padding, dilation, groups)}: an input of [N, C, D, H, W] or
     * unbatched [C, D, H, W], a weight of [C_out, C_in/groups, kD, kH, kW]; stride, padding and dilation hold one value
     * (every dim) or three; a null bias is omitted.
     */
    public static Tensor conv3d(
            Tensor input, Tensor weight, Tensor bias, long[] stride, long[] padding, long[] dilation, long groups) {
        return Convolutions.conv(3, input, weight, bias, stride, padding, dilation, groups);
    }

    /** {@code F.conv3d(input, weight, bias, stride, padding="same"|"valid", dilation, groups)}. */
    public static Tensor conv3d(
            Tensor input, Tensor weight, Tensor bias, long[] stride, String padding, long[] dilation, long groups) {
        return Convolutions.conv(3, input, weight, bias, stride, padding, dilation, groups);
    }

    /**
     * {@code F.conv_transpose3d(input, weight)}: stride 1, no padding, weight {@code [C_in, C_out/groups, kD, kH, kW]}.
     */
    public static Tensor convTranspose3d(Tensor input, Tensor weight) {
        return convTranspose3d(input, weight, null, new long[] {1}, new long[] {0}, new long[] {0}, 1, new long[] {1});
    }

    /**
     * {@code F.conv_transpose3d(input, weight, bias, stride, padding, output_padding, groups, dilation)}: each per-dim
     * argument holds one value (every dim) or three; a null bias is omitted; the input is [N, C, D, H, W] or unbatched
     * [C, D, H, W].
     */
    public static Tensor convTranspose3d(
            Tensor input,
            Tensor weight,
            Tensor bias,
            long[] stride,
            long[] padding,
            long[] outputPadding,
            long groups,
            long[] dilation) {
        return Convolutions.convTranspose(3, input, weight, bias, stride, padding, outputPadding, groups, dilation);
    }

    /**
     * {@code F.interpolate(input, size=size, mode=mode, align_corners=align_corners)}: resizes the spatial dims of an
     * [N, C, d...] input to {@code size} (one value applies to every dim). Modes: "nearest", "nearest-exact", "linear"
     * (3-D input), "bilinear" and "bicubic" (4-D), "trilinear" (5-D) and "area" (3-D and 4-D); {@code alignCorners} is
     * null for the modes that do not interpolate.
     */
    public static Tensor interpolate(Tensor input, long[] size, String mode, Boolean alignCorners) {
        return Interpolation.interpolate(input, size, null, mode, alignCorners, null);
    }

    /**
     * {@code F.interpolate(input, scale_factor=scaleFactor, mode=mode, align_corners=align_corners)}: the output size
     * is {@code floor(in · scale)} (one factor applies to every spatial dim), and the kernels step by {@code 1/scale}.
     */
    public static Tensor interpolate(Tensor input, double[] scaleFactor, String mode, Boolean alignCorners) {
        return Interpolation.interpolate(input, null, scaleFactor, mode, alignCorners, null);
    }

    /**
     * {@code F.interpolate(input, scale_factor=scaleFactor, mode=mode, align_corners=align_corners,
     * recompute_scale_factor=recomputeScaleFactor)}: the output size is {@code floor(in · scale)}; unless the scale is
     * recomputed (or the mode is "area"), the kernels step by {@code 1/scale} rather than {@code in/out}.
     */
    public static Tensor interpolate(
            Tensor input, double[] scaleFactor, String mode, Boolean alignCorners, Boolean recomputeScaleFactor) {
        return Interpolation.interpolate(input, null, scaleFactor, mode, alignCorners, recomputeScaleFactor);
    }

    /**
     * {@code F.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)} with PyTorch's
     * checks: exactly one of {@code size} and {@code scaleFactor} is non-null.
     */
    public static Tensor interpolate(
            Tensor input,
            long[] size,
            double[] scaleFactor,
            String mode,
            Boolean alignCorners,
            Boolean recomputeScaleFactor) {
        return Interpolation.interpolate(input, size, scaleFactor, mode, alignCorners, recomputeScaleFactor);
    }

    // ---- torch._C._nn.upsample_*: the ops behind F.interpolate, for callers that name them -----------------

    /** {@code torch._C._nn.upsample_nearest1d(self, output_size)}: no scales (steps of in/out). */
    public static Tensor upsampleNearest1d(Tensor self, long[] outputSize) {
        return UpsampleOps.UPSAMPLE_NEAREST1D.call1(self, outputSize.clone(), null);
    }

    /**
     * {@code torch._C._nn.upsample_nearest1d.vec(input, output_size, scale_factors)}: exactly one of {@code outputSize}
     * and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleNearest1d(Tensor input, long[] outputSize, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_NEAREST1D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_nearest2d(self, output_size)}: no scales (steps of in/out). */
    public static Tensor upsampleNearest2d(Tensor self, long[] outputSize) {
        return UpsampleOps.UPSAMPLE_NEAREST2D.call1(self, outputSize.clone(), null, null);
    }

    /**
     * {@code torch._C._nn.upsample_nearest2d.vec(input, output_size, scale_factors)}: exactly one of {@code outputSize}
     * and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleNearest2d(Tensor input, long[] outputSize, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_NEAREST2D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_nearest3d(self, output_size)}: no scales (steps of in/out). */
    public static Tensor upsampleNearest3d(Tensor self, long[] outputSize) {
        return UpsampleOps.UPSAMPLE_NEAREST3D.call1(self, outputSize.clone(), null, null, null);
    }

    /**
     * {@code torch._C._nn.upsample_nearest3d.vec(input, output_size, scale_factors)}: exactly one of {@code outputSize}
     * and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleNearest3d(Tensor input, long[] outputSize, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_NEAREST3D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_linear1d(self, output_size, align_corners)}: no scales (steps of in/out). */
    public static Tensor upsampleLinear1d(Tensor self, long[] outputSize, boolean alignCorners) {
        return UpsampleOps.UPSAMPLE_LINEAR1D.call1(self, outputSize.clone(), alignCorners, null);
    }

    /**
     * {@code torch._C._nn.upsample_linear1d.vec(input, output_size, align_corners, scale_factors)}: exactly one of
     * {@code outputSize} and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleLinear1d(
            Tensor input, long[] outputSize, boolean alignCorners, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_LINEAR1D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                alignCorners,
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_bilinear2d(self, output_size, align_corners)}: no scales (steps of in/out). */
    public static Tensor upsampleBilinear2d(Tensor self, long[] outputSize, boolean alignCorners) {
        return UpsampleOps.UPSAMPLE_BILINEAR2D.call1(self, outputSize.clone(), alignCorners, null, null);
    }

    /**
     * {@code torch._C._nn.upsample_bilinear2d.vec(input, output_size, align_corners, scale_factors)}: exactly one of
     * {@code outputSize} and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleBilinear2d(
            Tensor input, long[] outputSize, boolean alignCorners, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_BILINEAR2D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                alignCorners,
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_bicubic2d(self, output_size, align_corners)}: no scales (steps of in/out). */
    public static Tensor upsampleBicubic2d(Tensor self, long[] outputSize, boolean alignCorners) {
        return UpsampleOps.UPSAMPLE_BICUBIC2D.call1(self, outputSize.clone(), alignCorners, null, null);
    }

    /**
     * {@code torch._C._nn.upsample_bicubic2d.vec(input, output_size, align_corners, scale_factors)}: exactly one of
     * {@code outputSize} and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleBicubic2d(
            Tensor input, long[] outputSize, boolean alignCorners, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_BICUBIC2D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                alignCorners,
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code torch._C._nn.upsample_trilinear3d(self, output_size, align_corners)}: no scales (steps of in/out). */
    public static Tensor upsampleTrilinear3d(Tensor self, long[] outputSize, boolean alignCorners) {
        return UpsampleOps.UPSAMPLE_TRILINEAR3D.call1(self, outputSize.clone(), alignCorners, null, null, null);
    }

    /**
     * {@code torch._C._nn.upsample_trilinear3d.vec(input, output_size, align_corners, scale_factors)}: exactly one of
     * {@code outputSize} and {@code scaleFactors} is non-null.
     */
    public static Tensor upsampleTrilinear3d(
            Tensor input, long[] outputSize, boolean alignCorners, double[] scaleFactors) {
        return UpsampleOps.UPSAMPLE_TRILINEAR3D_VEC.call1(
                input,
                outputSize == null ? null : outputSize.clone(),
                alignCorners,
                scaleFactors == null ? null : scaleFactors.clone());
    }

    /** {@code F.pixel_shuffle(input, upscale_factor)}: [*, C·r², H, W] → [*, C, H·r, W·r]. */
    public static Tensor pixelShuffle(Tensor input, long upscaleFactor) {
        return PixelShuffleOps.pixelShuffle(input, upscaleFactor);
    }

    /** {@code F.pixel_unshuffle(input, downscale_factor)}: [*, C, H·r, W·r] → [*, C·r², H, W]. */
    public static Tensor pixelUnshuffle(Tensor input, long downscaleFactor) {
        return PixelShuffleOps.pixelUnshuffle(input, downscaleFactor);
    }

    /** {@code F.max_pool2d(input, kernel_size)}: stride = kernel_size. */
    public static Tensor maxPool2d(Tensor input, long... kernelSize) {
        return maxPool2d(input, kernelSize, null, new long[] {0}, new long[] {1}, false);
    }

    /**
     * {@code F.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)}; a null or empty stride is the
     * kernel size.
     */
    public static Tensor maxPool2d(
            Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        return maxPool2dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode)
                .values();
    }

    /** {@code F.max_pool2d(..., return_indices=True)}: the maxima and their flat positions in each input plane. */
    public static ValuesIndices maxPool2dWithIndices(
            Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        Tensor[] r = PoolOps.maxPool2dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode);
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code F.avg_pool2d(input, kernel_size)}: stride = kernel_size, no padding. */
    public static Tensor avgPool2d(Tensor input, long... kernelSize) {
        return avgPool2d(input, kernelSize, null, new long[] {0}, false, true, null);
    }

    /**
     * {@code F.avg_pool2d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}; null =
     * default.
     */
    public static Tensor avgPool2d(
            Tensor input,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        return PoolOps.avgPool2d(input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
    }

    /** {@code F.adaptive_avg_pool2d(input, output_size)}: one value (square) or two. */
    public static Tensor adaptiveAvgPool2d(Tensor input, long... outputSize) {
        long[] size = outputSize.length == 1 ? new long[] {outputSize[0], outputSize[0]} : outputSize;
        return PoolOps.adaptiveAvgPool2d(input, size);
    }

    /**
     * {@code F.adaptive_avg_pool2d(input, (h, w))} where a null size is PyTorch's {@code None}: that dim keeps the
     * input's size. As PyTorch's {@code _list_with_default}, a pair needs an input of at least 3 dims.
     */
    public static Tensor adaptiveAvgPool2d(Tensor input, Long outputH, Long outputW) {
        if (input.dim() <= 2) throw new IllegalArgumentException("Input dimension should be at least 3");
        return PoolOps.adaptiveAvgPool2d(
                input,
                new long[] {outputH == null ? input.size(-2) : outputH, outputW == null ? input.size(-1) : outputW});
    }

    /** {@code F.max_pool1d(input, kernel_size)}: stride = kernel_size. */
    public static Tensor maxPool1d(Tensor input, long kernelSize) {
        return maxPool1d(input, kernelSize, null, 0, 1, false);
    }

    /**
     * {@code F.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)} over the last dim of an [N, C, L]
     * or [C, L] input; a null stride is the kernel size.
     */
    public static Tensor maxPool1d(
            Tensor input, long kernelSize, Long stride, long padding, long dilation, boolean ceilMode) {
        return Pool1dOps.MAX_POOL1D.call1(
                input,
                new long[] {kernelSize},
                stride == null ? new long[0] : new long[] {stride},
                new long[] {padding},
                new long[] {dilation},
                ceilMode);
    }

    /** {@code F.max_pool1d(..., return_indices=True)}: the maxima and their positions along the last dim. */
    public static ValuesIndices maxPool1dWithIndices(
            Tensor input, long kernelSize, Long stride, long padding, long dilation, boolean ceilMode) {
        Tensor[] r = (Tensor[]) Pool1dOps.MAX_POOL1D_WITH_INDICES.call(
                input,
                new long[] {kernelSize},
                stride == null ? new long[0] : new long[] {stride},
                new long[] {padding},
                new long[] {dilation},
                ceilMode);
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code F.avg_pool1d(input, kernel_size)}: stride = kernel_size, no padding. */
    public static Tensor avgPool1d(Tensor input, long kernelSize) {
        return avgPool1d(input, kernelSize, null, 0, false, true);
    }

    /**
     * {@code F.avg_pool1d(input, kernel_size, stride, padding, ceil_mode, count_include_pad)}; null stride = kernel.
     */
    public static Tensor avgPool1d(
            Tensor input, long kernelSize, Long stride, long padding, boolean ceilMode, boolean countIncludePad) {
        return Pool1dOps.AVG_POOL1D.call1(
                input,
                new long[] {kernelSize},
                stride == null ? new long[0] : new long[] {stride},
                new long[] {padding},
                ceilMode,
                countIncludePad);
    }

    /** {@code F.adaptive_avg_pool1d(input, output_size)}. */
    public static Tensor adaptiveAvgPool1d(Tensor input, long outputSize) {
        return Pool1dOps.ADAPTIVE_AVG_POOL1D.call1(input, new long[] {outputSize});
    }

    /**
     * {@code F.lp_pool1d(input, norm_type, kernel_size, stride, ceil_mode)}: the p-norm of each window, {@code (Σ
     * x^p)^(1/p)}; a null stride is the kernel size.
     */
    public static Tensor lpPool1d(Tensor input, double normType, long kernelSize, Long stride, boolean ceilMode) {
        return Pooling.lpPool1d(input, normType, kernelSize, stride, ceilMode);
    }

    /** {@code F.lp_pool2d(input, norm_type, kernel_size, stride, ceil_mode)}; a null stride is the kernel size. */
    public static Tensor lpPool2d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
        return Pooling.lpPool2d(input, normType, kernelSize, stride, ceilMode);
    }

    /**
     * {@code F.lp_pool3d(input, norm_type, kernel_size, stride, ceil_mode)}: as {@link #lpPool2d} over the last three
     * dims; a null stride is the kernel size, and an infinite norm is the max pool of {@code |x|}.
     */
    public static Tensor lpPool3d(Tensor input, double normType, long[] kernelSize, long[] stride, boolean ceilMode) {
        return Pooling.lpPool3d(input, normType, kernelSize, stride, ceilMode);
    }

    /** {@code F.max_pool3d(input, kernel_size)}: stride = kernel_size. */
    public static Tensor maxPool3d(Tensor input, long... kernelSize) {
        return maxPool3d(input, kernelSize, null, new long[] {0}, new long[] {1}, false);
    }

    /**
     * {@code F.max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode)} over the last three dims of a [N,
     * C, D, H, W] or [C, D, H, W] input; one value = every dim, a null or empty stride is the kernel size.
     */
    public static Tensor maxPool3d(
            Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        return maxPool3dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode)
                .values();
    }

    /** {@code F.max_pool3d(..., return_indices=True)}: the maxima and their flat positions in each input volume. */
    public static ValuesIndices maxPool3dWithIndices(
            Tensor input, long[] kernelSize, long[] stride, long[] padding, long[] dilation, boolean ceilMode) {
        Tensor[] r = Pool3dOps.maxPool3dWithIndices(input, kernelSize, stride, padding, dilation, ceilMode);
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code F.avg_pool3d(input, kernel_size)}: stride = kernel_size, no padding. */
    public static Tensor avgPool3d(Tensor input, long... kernelSize) {
        return avgPool3d(input, kernelSize, null, new long[] {0}, false, true, null);
    }

    /**
     * {@code F.avg_pool3d(input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)}; a null
     * stride is the kernel size, a null divisor the window's.
     */
    public static Tensor avgPool3d(
            Tensor input,
            long[] kernelSize,
            long[] stride,
            long[] padding,
            boolean ceilMode,
            boolean countIncludePad,
            Long divisorOverride) {
        return Pool3dOps.avgPool3d(input, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride);
    }

    /** {@code F.adaptive_avg_pool3d(input, output_size)}: one value (every dim) or three. */
    public static Tensor adaptiveAvgPool3d(Tensor input, long... outputSize) {
        return Pool3dOps.adaptiveAvgPool3d(input, Pooling.broadcast(outputSize, 3));
    }

    /**
     * {@code F.adaptive_avg_pool3d(input, (d, h, w))} where a null size is PyTorch's {@code None}: that dim keeps the
     * input's size (a triple needs an input of at least 4 dims).
     */
    public static Tensor adaptiveAvgPool3d(Tensor input, Long outputD, Long outputH, Long outputW) {
        return Pool3dOps.adaptiveAvgPool3d(input, Pooling.withDefaults(input, outputD, outputH, outputW));
    }

    /** {@code F.adaptive_max_pool1d(input, output_size)}: the maximum of each adaptive window of the last dim. */
    public static Tensor adaptiveMaxPool1d(Tensor input, long outputSize) {
        return adaptiveMaxPool1dWithIndices(input, outputSize).values();
    }

    /** {@code F.adaptive_max_pool1d(..., return_indices=True)}: the maxima and their positions along the last dim. */
    public static ValuesIndices adaptiveMaxPool1dWithIndices(Tensor input, long outputSize) {
        Tensor[] r = (Tensor[]) AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL1D.call(input, new long[] {outputSize});
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code F.adaptive_max_pool2d(input, output_size)}: one value (square) or two. */
    public static Tensor adaptiveMaxPool2d(Tensor input, long... outputSize) {
        return adaptiveMaxPool2dWithIndices(input, outputSize).values();
    }

    /**
     * {@code F.adaptive_max_pool2d(input, (h, w))} where a null size is PyTorch's {@code None}: that dim keeps the
     * input's size.
     */
    public static Tensor adaptiveMaxPool2d(Tensor input, Long outputH, Long outputW) {
        return adaptiveMaxPool2dWithIndices(input, Pooling.withDefaults(input, outputH, outputW))
                .values();
    }

    /**
     * {@code F.adaptive_max_pool2d(..., return_indices=True)}: the maxima and their flat positions in each input plane.
     */
    public static ValuesIndices adaptiveMaxPool2dWithIndices(Tensor input, long... outputSize) {
        Tensor[] r = (Tensor[]) AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL2D.call(input, Pooling.broadcast(outputSize, 2));
        return new ValuesIndices(r[0], r[1]);
    }

    /** {@code F.adaptive_max_pool3d(input, output_size)}: one value (every dim) or three. */
    public static Tensor adaptiveMaxPool3d(Tensor input, long... outputSize) {
        return adaptiveMaxPool3dWithIndices(input, outputSize).values();
    }

    /**
     * {@code F.adaptive_max_pool3d(input, (d, h, w))} where a null size is PyTorch's {@code None}: that dim keeps the
     * input's size.
     */
    public static Tensor adaptiveMaxPool3d(Tensor input, Long outputD, Long outputH, Long outputW) {
        return adaptiveMaxPool3dWithIndices(input, Pooling.withDefaults(input, outputD, outputH, outputW))
                .values();
    }

    /**
     * {@code F.adaptive_max_pool3d(..., return_indices=True)}: the maxima and their flat positions in each input
     * volume.
     */
    public static ValuesIndices adaptiveMaxPool3dWithIndices(Tensor input, long... outputSize) {
        Tensor[] r = (Tensor[]) AdaptiveMaxPoolOps.ADAPTIVE_MAX_POOL3D.call(input, Pooling.broadcast(outputSize, 3));
        return new ValuesIndices(r[0], r[1]);
    }

    /**
     * {@code F.max_unpool1d(input, indices, kernel_size, stride, padding, output_size)}: each value written at its
     * index of a zero output; null stride = kernel size, null output size = {@code (L − 1)·stride + kernel − 2·pad}.
     */
    public static Tensor maxUnpool1d(
            Tensor input, Tensor indices, long kernelSize, Long stride, long padding, long[] outputSize) {
        return Pooling.maxUnpool(
                1,
                input,
                indices,
                new long[] {kernelSize},
                stride == null ? null : new long[] {stride},
                new long[] {padding},
                outputSize);
    }

    /** {@code F.max_unpool2d(input, indices, kernel_size, stride, padding, output_size)}; null = PyTorch's default. */
    public static Tensor maxUnpool2d(
            Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
        return Pooling.maxUnpool(2, input, indices, kernelSize, stride, padding, outputSize);
    }

    /** {@code F.max_unpool3d(input, indices, kernel_size, stride, padding, output_size)}; null = PyTorch's default. */
    public static Tensor maxUnpool3d(
            Tensor input, Tensor indices, long[] kernelSize, long[] stride, long[] padding, long[] outputSize) {
        return Pooling.maxUnpool(3, input, indices, kernelSize, stride, padding, outputSize);
    }

    /** {@code F.grid_sample(input, grid)}: bilinear, zero padding, {@code align_corners=False} (with its warning). */
    public static Tensor gridSample(Tensor input, Tensor grid) {
        return gridSample(input, grid, "bilinear", "zeros", null);
    }

    /**
     * {@code F.grid_sample(input, grid, mode, padding_mode, align_corners)}: samples an [N, C, H, W] input at the
     * points of an [N, H_out, W_out, 2] grid of (x, y) in [-1, 1] (or a 5-d input with an [N, D_out, H_out, W_out, 3]
     * grid); modes "bilinear", "nearest", "bicubic" (4-d only); padding "zeros", "border", "reflection"; a null
     * {@code alignCorners} is False, with PyTorch's warning.
     */
    public static Tensor gridSample(Tensor input, Tensor grid, String mode, String paddingMode, Boolean alignCorners) {
        return GridSampling.gridSample(input, grid, mode, paddingMode, alignCorners);
    }

    /**
     * {@code F.affine_grid(theta, size, align_corners)}: the [N, H, W, 2] grid (or [N, D, H, W, 3]) that
     * {@link #gridSample} needs to apply the affine maps {@code theta} [N, 2, 3] (or [N, 3, 4]) to an output of
     * {@code size}; a null {@code alignCorners} is False, with PyTorch's warning.
     */
    public static Tensor affineGrid(Tensor theta, long[] size, Boolean alignCorners) {
        return GridSampling.affineGrid(theta, size, alignCorners);
    }

    /** {@code F.unfold(input, kernel_size)}: dilation 1, padding 0, stride 1. */
    public static Tensor unfold(Tensor input, long... kernelSize) {
        return unfold(input, kernelSize, new long[] {1}, new long[] {0}, new long[] {1});
    }

    /**
     * {@code F.unfold(input, kernel_size, dilation, padding, stride)}: the sliding blocks of an [N, C, H, W] (or [C, H,
     * W]) input as columns, [N, C·kH·kW, L]; each argument one value (both dims) or two.
     */
    public static Tensor unfold(Tensor input, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        return FoldOps.IM2COL.call1(
                input,
                Pooling.expand("kernel_size", kernelSize, 2),
                Pooling.expand("dilation", dilation, 2),
                Pooling.expand("padding", padding, 2),
                Pooling.expand("stride", stride, 2));
    }

    /** {@code F.fold(input, output_size, kernel_size)}: dilation 1, padding 0, stride 1. */
    public static Tensor fold(Tensor input, long[] outputSize, long[] kernelSize) {
        return fold(input, outputSize, kernelSize, new long[] {1}, new long[] {0}, new long[] {1});
    }

    /**
     * {@code F.fold(input, output_size, kernel_size, dilation, padding, stride)}: columns [N, C·kH·kW, L] (or [C·kH·kW,
     * L]) summed back into an image of {@code output_size}, the adjoint of {@link #unfold}.
     */
    public static Tensor fold(
            Tensor input, long[] outputSize, long[] kernelSize, long[] dilation, long[] padding, long[] stride) {
        return FoldOps.COL2IM.call1(
                input,
                Pooling.broadcast(outputSize, 2),
                Pooling.expand("kernel_size", kernelSize, 2),
                Pooling.expand("dilation", dilation, 2),
                Pooling.expand("padding", padding, 2),
                Pooling.expand("stride", stride, 2));
    }

    /**
     * {@code F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)}. Training
     * normalises with the batch statistics and, when running stats are given, updates them in place ({@code momentum}
     * null = cumulative average, which needs {@code numBatchesTracked}); evaluation uses the running stats.
     */
    public static Tensor batchNorm(
            Tensor input,
            Tensor runningMean,
            Tensor runningVar,
            Tensor weight,
            Tensor bias,
            boolean training,
            double momentum,
            double eps) {
        return Norms.batchNorm(input, runningMean, runningVar, weight, bias, training, momentum, eps);
    }

    /** {@code F.batch_norm(input, running_mean, running_var)} in evaluation mode. */
    public static Tensor batchNorm(Tensor input, Tensor runningMean, Tensor runningVar) {
        return Norms.batchNorm(input, runningMean, runningVar, null, null, false, 0.1, 1e-5);
    }

    /** {@code F.group_norm(input, num_groups, weight, bias, eps)}; null weight/bias are omitted. */
    public static Tensor groupNorm(Tensor input, long numGroups, Tensor weight, Tensor bias, double eps) {
        return Norms.groupNorm(input, numGroups, weight, bias, eps);
    }

    /** {@code F.group_norm(input, num_groups)} with eps 1e-5. */
    public static Tensor groupNorm(Tensor input, long numGroups) {
        return Norms.groupNorm(input, numGroups, null, null, 1e-5);
    }

    /** {@code F.normalize(input, p, dim, eps)}: {@code x / max(‖x‖_p, eps)} along dim. */
    public static Tensor normalize(Tensor input, double p, long dim, double eps) {
        Tensor norm = Torch.vectorNorm(input, p, new long[] {dim}, true);
        return input.div(norm.clampMin(eps));
    }

    /** {@code F.normalize(input)}: p = 2, dim = 1, eps = 1e-12. */
    public static Tensor normalize(Tensor input) {
        return normalize(input, 2.0, 1, 1e-12);
    }

    /** {@code F.bilinear(input1, input2, weight, bias)}: {@code y_k = x1ᵀ W_k x2 + b_k}; a null bias is omitted. */
    public static Tensor bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor bias) {
        return Layers.bilinear(input1, input2, weight, bias);
    }

    /**
     * {@code F.embedding(input, weight, padding_idx, max_norm, norm_type)}: with a max_norm, the looked-up rows whose
     * norm exceeds it are first rescaled in place in {@code weight}, as PyTorch does.
     */
    public static Tensor embedding(Tensor input, Tensor weight, Long paddingIdx, Double maxNorm, double normType) {
        if (maxNorm != null) Layers.embeddingRenorm_(weight, input, maxNorm, normType);
        return embedding(input, weight, paddingIdx);
    }

    /**
     * {@code F.embedding_bag(input, weight, offsets, mode=..., per_sample_weights=, include_last_offset=,
     * padding_idx=)}: mode "sum", "mean" or "max"; a 2-d input is a batch of equal bags and takes no offsets.
     */
    public static Tensor embeddingBag(
            Tensor input,
            Tensor weight,
            Tensor offsets,
            String mode,
            Tensor perSampleWeights,
            boolean includeLastOffset,
            Long paddingIdx) {
        return Layers.embeddingBag(input, weight, offsets, mode, perSampleWeights, includeLastOffset, paddingIdx);
    }

    /** {@code F.embedding_bag(input, weight, offsets)} with mode "mean". */
    public static Tensor embeddingBag(Tensor input, Tensor weight, Tensor offsets) {
        return Layers.embeddingBag(input, weight, offsets, "mean", null, false, null);
    }

    /** {@code F.cosine_embedding_loss(input1, input2, target, margin, reduction)}. */
    public static Tensor cosineEmbeddingLoss(
            Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
        return Losses.cosineEmbeddingLoss(input1, input2, target, margin, reduction);
    }

    /** {@code F.cosine_embedding_loss(input1, input2, target)}: margin 0, mean. */
    public static Tensor cosineEmbeddingLoss(Tensor input1, Tensor input2, Tensor target) {
        return Losses.cosineEmbeddingLoss(input1, input2, target, 0.0, Reduction.MEAN);
    }

    /** {@code F.margin_ranking_loss(input1, input2, target, margin, reduction)}. */
    public static Tensor marginRankingLoss(
            Tensor input1, Tensor input2, Tensor target, double margin, Reduction reduction) {
        return Losses.marginRankingLoss(input1, input2, target, margin, reduction);
    }

    /** {@code F.margin_ranking_loss(input1, input2, target)}: margin 0, mean. */
    public static Tensor marginRankingLoss(Tensor input1, Tensor input2, Tensor target) {
        return Losses.marginRankingLoss(input1, input2, target, 0.0, Reduction.MEAN);
    }

    /** {@code F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction)}. */
    public static Tensor tripletMarginLoss(
            Tensor anchor,
            Tensor positive,
            Tensor negative,
            double margin,
            double p,
            double eps,
            boolean swap,
            Reduction reduction) {
        return Losses.tripletMarginLoss(anchor, positive, negative, margin, p, eps, swap, reduction);
    }

    /** {@code F.triplet_margin_loss(anchor, positive, negative)}: margin 1, p 2, eps 1e-6, no swap, mean. */
    public static Tensor tripletMarginLoss(Tensor anchor, Tensor positive, Tensor negative) {
        return Losses.tripletMarginLoss(anchor, positive, negative, 1.0, 2.0, 1e-6, false, Reduction.MEAN);
    }

    /**
     * {@code F.triplet_margin_with_distance_loss(anchor, positive, negative, distance_function=..., margin=...,
     * swap=..., reduction=...)}: {@code max(0, margin + d(a, p) - d(a, n))} with any distance (null:
     * {@code pairwise_distance}); {@code margin} must be positive.
     */
    public static Tensor tripletMarginWithDistanceLoss(
            Tensor anchor,
            Tensor positive,
            Tensor negative,
            BiFunction<Tensor, Tensor, Tensor> distanceFunction,
            double margin,
            boolean swap,
            Reduction reduction) {
        return MarginLosses.tripletMarginWithDistanceLoss(
                anchor, positive, negative, distanceFunction, margin, swap, reduction);
    }

    /** {@code F.triplet_margin_with_distance_loss(anchor, positive, negative)}: pairwise distance, margin 1, mean. */
    public static Tensor tripletMarginWithDistanceLoss(Tensor anchor, Tensor positive, Tensor negative) {
        return MarginLosses.tripletMarginWithDistanceLoss(anchor, positive, negative, null, 1.0, false, Reduction.MEAN);
    }

    /**
     * {@code F.multi_margin_loss(input, target, p, margin, weight, reduction=reduction)}: the multi-class hinge loss
     * {@code sum_{i != y} w[y] max(0, margin - x[y] + x[i])^p / C} per sample; input (C) or (N, C), int64 class
     * indices, {@code p} 1 or 2, weight (C) or null.
     */
    public static Tensor multiMarginLoss(
            Tensor input, Tensor target, double p, double margin, Tensor weight, Reduction reduction) {
        return MarginLosses.multiMarginLoss(input, target, p, margin, weight, reduction);
    }

    /** {@code F.multi_margin_loss(input, target)}: p 1, margin 1, no weight, mean. */
    public static Tensor multiMarginLoss(Tensor input, Tensor target) {
        return MarginLosses.multiMarginLoss(input, target, 1, 1.0, null, Reduction.MEAN);
    }

    /**
     * {@code F.multilabel_margin_loss(input, target, reduction=reduction)}: the multi-label hinge loss; each target row
     * lists class indices up to the first -1.
     */
    public static Tensor multilabelMarginLoss(Tensor input, Tensor target, Reduction reduction) {
        return MarginLosses.multilabelMarginLoss(input, target, reduction);
    }

    /** {@code F.multilabel_margin_loss(input, target)}: mean. */
    public static Tensor multilabelMarginLoss(Tensor input, Tensor target) {
        return MarginLosses.multilabelMarginLoss(input, target, Reduction.MEAN);
    }

    /** {@code F.multilabel_soft_margin_loss(input, target, weight, reduction)}; weight may be null. */
    public static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target, Tensor weight, Reduction reduction) {
        return Losses.multilabelSoftMarginLoss(input, target, weight, reduction);
    }

    /** {@code F.multilabel_soft_margin_loss(input, target)}: no weight, mean. */
    public static Tensor multilabelSoftMarginLoss(Tensor input, Tensor target) {
        return Losses.multilabelSoftMarginLoss(input, target, null, Reduction.MEAN);
    }

    /** {@code F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=reduction)}. */
    public static Tensor poissonNllLoss(
            Tensor input, Tensor target, boolean logInput, boolean full, double eps, Reduction reduction) {
        return Losses.poissonNllLoss(input, target, logInput, full, eps, reduction);
    }

    /** {@code F.poisson_nll_loss(input, target)}: log input, not full, eps 1e-8, mean. */
    public static Tensor poissonNllLoss(Tensor input, Tensor target) {
        return Losses.poissonNllLoss(input, target, true, false, 1e-8, Reduction.MEAN);
    }

    /** {@code F.gaussian_nll_loss(input, target, var, full, eps, reduction)}. */
    public static Tensor gaussianNllLoss(
            Tensor input, Tensor target, Tensor var, boolean full, double eps, Reduction reduction) {
        return Losses.gaussianNllLoss(input, target, var, full, eps, reduction);
    }

    /** {@code F.gaussian_nll_loss(input, target, var)}: not full, eps 1e-6, mean. */
    public static Tensor gaussianNllLoss(Tensor input, Tensor target, Tensor var) {
        return Losses.gaussianNllLoss(input, target, var, false, 1e-6, Reduction.MEAN);
    }

    /** {@code F.gaussian_nll_loss(input, target, var)} with a float variance, the same for every element. */
    public static Tensor gaussianNllLoss(
            Tensor input, Tensor target, double var, boolean full, double eps, Reduction reduction) {
        if (var < 0) throw new IllegalArgumentException("var has negative entry/entries");
        return Losses.gaussianNllLoss(input, target, Torch.onesLike(input).mul(var), full, eps, reduction);
    }

    /** {@code F.soft_margin_loss(input, target, reduction)}. */
    public static Tensor softMarginLoss(Tensor input, Tensor target, Reduction reduction) {
        return Losses.softMarginLoss(input, target, reduction);
    }

    /** {@code F.hinge_embedding_loss(input, target, margin, reduction)}. */
    public static Tensor hingeEmbeddingLoss(Tensor input, Tensor target, double margin, Reduction reduction) {
        return Losses.hingeEmbeddingLoss(input, target, margin, reduction);
    }

    /**
     * {@code F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction, zero_infinity)}: log_probs
     * (T, N, C) or unbatched (T, C); targets padded (N, S) or the N targets concatenated (1-d).
     */
    public static Tensor ctcLoss(
            Tensor logProbs,
            Tensor targets,
            long[] inputLengths,
            long[] targetLengths,
            long blank,
            Reduction reduction,
            boolean zeroInfinity) {
        return Losses.ctcLoss(logProbs, targets, inputLengths, targetLengths, blank, reduction, zeroInfinity);
    }

    /** {@code F.ctc_loss(log_probs, targets, input_lengths, target_lengths)}: blank 0, mean, no zero_infinity. */
    public static Tensor ctcLoss(Tensor logProbs, Tensor targets, long[] inputLengths, long[] targetLengths) {
        return Losses.ctcLoss(logProbs, targets, inputLengths, targetLengths, 0, Reduction.MEAN, false);
    }

    /** {@code F.ctc_loss} with the lengths as integer tensors. */
    public static Tensor ctcLoss(
            Tensor logProbs,
            Tensor targets,
            Tensor inputLengths,
            Tensor targetLengths,
            long blank,
            Reduction reduction,
            boolean zeroInfinity) {
        return Losses.ctcLoss(
                logProbs,
                targets,
                Losses.ctcLengths(inputLengths, "input_lengths"),
                Losses.ctcLengths(targetLengths, "target_lengths"),
                blank,
                reduction,
                zeroInfinity);
    }

    /**
     * {@code F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)}: each
     * sample's channels normalised over their spatial dims; any of the four tensors may be null.
     */
    public static Tensor instanceNorm(
            Tensor input,
            Tensor runningMean,
            Tensor runningVar,
            Tensor weight,
            Tensor bias,
            boolean useInputStats,
            double momentum,
            double eps) {
        return Norms.instanceNorm(input, runningMean, runningVar, weight, bias, useInputStats, momentum, eps);
    }

    /** {@code F.instance_norm(input)}: input statistics, eps 1e-5, no parameters. */
    public static Tensor instanceNorm(Tensor input) {
        return Norms.instanceNorm(input, null, null, null, null, true, 0.1, 1e-5);
    }

    /** {@code F.local_response_norm(input, size, alpha, beta, k)}. */
    public static Tensor localResponseNorm(Tensor input, long size, double alpha, double beta, double k) {
        return Norms.localResponseNorm(input, size, alpha, beta, k);
    }

    /** {@code F.local_response_norm(input, size)}: alpha 1e-4, beta 0.75, k 1. */
    public static Tensor localResponseNorm(Tensor input, long size) {
        return Norms.localResponseNorm(input, size, 1e-4, 0.75, 1.0);
    }

    // ---- linear_cross_entropy, scaled_mm (2.15) ---------------------------------------------------------

    /** {@code F.linear_cross_entropy(input, linear_weight, target)}: mean cross entropy of {@code input @ weightᵀ}. */
    public static Tensor linearCrossEntropy(Tensor input, Tensor weight, Tensor target) {
        return LinearCrossEntropy.apply(input, weight, target, LinearCrossEntropyArgs.defaults());
    }

    /**
     * {@code F.linear_cross_entropy(input, linear_weight, target, reduction=, options=)}; null options = reference
     * path.
     */
    public static Tensor linearCrossEntropy(
            Tensor input, Tensor weight, Tensor target, Reduction reduction, LinearCrossEntropyOptions options) {
        return LinearCrossEntropy.apply(
                input,
                weight,
                target,
                LinearCrossEntropyArgs.defaults().reduction(reduction).options(options));
    }

    /**
     * {@code F.linear_cross_entropy(input, linear_weight, target, *, linear_bias, weight, reduction, ignore_index,
     * label_smoothing, options)}.
     */
    public static Tensor linearCrossEntropy(Tensor input, Tensor weight, Tensor target, LinearCrossEntropyArgs args) {
        return LinearCrossEntropy.apply(input, weight, target, args);
    }

    /**
     * {@code F.scaled_mm(mat_a, mat_b, scale_a, scale_recipe_a, scale_b, scale_recipe_b, ...)}: fp8 matmul with
     * dequantising scales.
     */
    public static Tensor scaledMm(Tensor a, Tensor b, ScaleSpec scaleA, ScaleSpec scaleB, ScaledMmOptions options) {
        return ScaledMm.scaledMm(a, b, scaleA, scaleB, options);
    }

    /**
     * {@code F.scaled_addmm(input, mat1, mat2, ...)}: {@code beta·input + alpha·scaled_mm(mat1, mat2)} in input's
     * dtype.
     */
    public static Tensor scaledAddmm(
            Tensor input, Tensor mat1, Tensor mat2, ScaleSpec scaleA, ScaleSpec scaleB, ScaledMmOptions options) {
        return ScaledMm.scaledAddmm(input, mat1, mat2, scaleA, scaleB, options);
    }

    /**
     * {@code F.scaled_addmm_(input, mat1, mat2, ...)}: accumulates into {@code input} (same storage) and returns it.
     */
    public static Tensor scaledAddmm_(
            Tensor input, Tensor mat1, Tensor mat2, ScaleSpec scaleA, ScaleSpec scaleB, ScaledMmOptions options) {
        return ScaledMm.scaledAddmm_(input, mat1, mat2, scaleA, scaleB, options);
    }

    /** The spec's Java name of {@code F.scaled_addmm_}; same as {@link #scaledAddmm_}. */
    public static Tensor scaledAddmmInPlace(
            Tensor input, Tensor mat1, Tensor mat2, ScaleSpec scaleA, ScaleSpec scaleB, ScaledMmOptions options) {
        return ScaledMm.scaledAddmm_(input, mat1, mat2, scaleA, scaleB, options);
    }
}

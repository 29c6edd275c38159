package org.jtorch.testing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.nn.LinearCrossEntropyOptions;
import org.jtorch.nn.Reduction;
import org.jtorch.nn.functional.CrossEntropyOptions;
import org.jtorch.nn.functional.F;
import org.jtorch.nn.functional.LinearCrossEntropyArgs;

/**
 * The table of {@code torch.nn.functional}'s composite functionals, the counterpart of {@link OpDb} for functions that
 * are compositions of ops rather than {@code OpDef}s: per functional, samples that build the tensor arguments with
 * {@link SampleInputs} (float64, in the sample's layouts) and the call with its fixed keyword arguments.
 * {@code FunctionalDbTest} sweeps every sample: values against PyTorch ({@code make_golden_functional_db.py} mirrors
 * each sample under the same id and builds the same input values), gradcheck in float64 over the floating arguments,
 * and shapes and dtypes on the meta device. Adding a functional is one entry here and one line in the generator.
 */
public final class FunctionalDb {
    private FunctionalDb() {}

    /** The call of a sample on its built arguments. */
    @FunctionalInterface
    public interface Call {
        Tensor apply(Tensor[] args);
    }

    /**
     * One sample of a functional: {@code args} builds the tensor arguments, {@code call} runs the functional.
     * {@code noGrad} lists argument positions gradcheck leaves alone (a target that must not require grad for the path
     * under test); {@code gradSkip} and {@code metaSkip} are null, or why the sample is not gradchecked (its gradient
     * differs from finite differences by definition) or cannot run on the meta device (the functional reads values, as
     * PyTorch's does).
     */
    public record Sample(String id, OpDb.Args args, Call call, int[] noGrad, String gradSkip, String metaSkip) {
        /** Built arguments as tensors (every argument of a functional sample is a tensor). */
        public Tensor[] build(SampleInputs in) {
            Object[] a = args.build(in);
            return Arrays.copyOf(a, a.length, Tensor[].class);
        }

        /** Whether gradcheck perturbs argument {@code i}. */
        public boolean differentiates(int i) {
            return Arrays.stream(noGrad).noneMatch(j -> j == i);
        }

        Sample noGrad(int... positions) {
            return new Sample(id, args, call, positions, gradSkip, metaSkip);
        }

        Sample gradSkip(String reason) {
            return new Sample(id, args, call, noGrad, reason, metaSkip);
        }

        Sample metaSkip(String reason) {
            return new Sample(id, args, call, noGrad, gradSkip, reason);
        }
    }

    /** Every sample, in the generator's order. */
    public static final List<Sample> ALL = table();

    private static Sample s(String id, OpDb.Args args, Call call) {
        return new Sample(id, args, call, new int[0], null, null);
    }

    private static Object[] a(Object... args) {
        return args;
    }

    /** An int64 tensor of explicit values (class indices, offsets): zeros on meta, which never reads them. */
    private static Tensor idx(SampleInputs in, long[] values, long... shape) {
        if (in.device() == Device.META) return Torch.zeros(shape, DType.INT64, Device.META);
        return Torch.tensor(values).reshape(shape);
    }

    private static long[] ls(long... v) {
        return v;
    }

    private static final long[] ONE = {1};

    private static CrossEntropyOptions ce(Reduction r) {
        return CrossEntropyOptions.defaults().reduction(r);
    }

    private static LinearCrossEntropyArgs lce() {
        return LinearCrossEntropyArgs.defaults();
    }

    /** The chunked path, in chunks of 2 rows of the 6. */
    private static final LinearCrossEntropyOptions CHUNKED =
            LinearCrossEntropyOptions.defaults().withBatchChunkSize(2).withChunkingMethod(null);

    private static Tensor stats(Tensor x, double lo, double hi) {
        return Torch.linspace(lo, hi, x.size(1), x.dtype()).to(x.device());
    }

    private static final String READS_OFFSETS = "embedding_bag reads the offsets to size its bags";

    private static List<Sample> table() {
        List<Sample> t = new ArrayList<>();
        t.add(s("linear/basic", in -> a(in.t(4, 3), in.t(5, 3)), x -> F.linear(x[0], x[1])));
        t.add(s("linear/bias-batched", in -> a(in.t(2, 4, 3), in.nc(5, 3), in.t(5)), x -> F.linear(x[0], x[1], x[2])));
        t.add(s("linear/bias-1d", in -> a(in.t(3), in.t(5, 3), in.t(5)), x -> F.linear(x[0], x[1], x[2])));
        t.add(s(
                "bilinear/bias",
                in -> a(in.t(4, 3), in.t(4, 2), in.t(5, 3, 2), in.t(5)),
                x -> F.bilinear(x[0], x[1], x[2], x[3])));
        t.add(s(
                "conv1d/stride-pad-groups",
                in -> a(in.t(2, 4, 7), in.t(4, 2, 3), in.t(4)),
                x -> F.conv1d(x[0], x[1], x[2], 2, 1, 1, 2)));
        t.add(s("conv2d/bias", in -> a(in.t(2, 2, 5, 4), in.t(3, 2, 3, 3), in.t(3)), x -> F.conv2d(x[0], x[1], x[2])));
        t.add(s(
                "conv2d/stride-pad-dilation",
                in -> a(in.nc(1, 2, 5, 6), in.t(3, 2, 2, 3)),
                x -> F.conv2d(x[0], x[1], null, ls(2, 1), ls(1, 2), ls(1, 2), 1)));
        t.add(s("max_pool2d/basic", in -> a(in.t(2, 2, 4, 6)), x -> F.maxPool2d(x[0], 2)));
        t.add(s(
                "max_pool2d/pad-ceil",
                in -> a(in.nc(1, 2, 5, 6)),
                x -> F.maxPool2d(x[0], ls(3), ls(2), ls(1), ONE, true)));
        t.add(s(
                "avg_pool2d/pad-exclude",
                in -> a(in.t(2, 2, 5, 6)),
                x -> F.avgPool2d(x[0], ls(3), ls(2), ls(1), false, false, null)));
        t.add(s(
                "avg_pool2d/divisor-expanded",
                in -> a(in.ex(2, 3, 4, 4)),
                x -> F.avgPool2d(x[0], ls(2), null, ls(0), false, true, 3L)));
        t.add(s("adaptive_avg_pool2d/3x2", in -> a(in.t(2, 2, 5, 5)), x -> F.adaptiveAvgPool2d(x[0], 3, 2)));
        t.add(s("adaptive_avg_pool2d/none", in -> a(in.nc(2, 5, 4)), x -> F.adaptiveAvgPool2d(x[0], null, 2L)));
        t.add(s("dropout/eval", in -> a(in.t(3, 4)), x -> F.dropout(x[0], 0.5, false)));
        t.add(s("dropout/p0", in -> a(in.nc(3, 4)), x -> F.dropout(x[0], 0.0, true)));
        t.add(s("embedding/basic", in -> a(idx(in, ls(0, 2, 4, 1), 2, 2), in.t(5, 3)), x -> F.embedding(x[0], x[1])));
        t.add(s(
                        "embedding/padding-idx",
                        in -> a(idx(in, ls(1, 3, 1, 0), 4), in.nc(4, 3)),
                        x -> F.embedding(x[0], x[1], 1L))
                .gradSkip("the padding_idx row receives no gradient by definition, though the output reads it"));
        t.add(s(
                        "embedding_bag/mean",
                        in -> a(idx(in, ls(1, 2, 4, 0, 3, 2), 6), in.t(5, 3), idx(in, ls(0, 2, 2), 3)),
                        x -> F.embeddingBag(x[0], x[1], x[2]))
                .metaSkip(READS_OFFSETS));
        t.add(s(
                        "embedding_bag/sum-weights",
                        in -> a(idx(in, ls(1, 2, 4, 0, 3, 2), 6), in.t(5, 3), idx(in, ls(0, 3), 2), in.t(6)),
                        x -> F.embeddingBag(x[0], x[1], x[2], "sum", x[3], false, null))
                .metaSkip(READS_OFFSETS));
        t.add(s("one_hot/basic", in -> a(idx(in, ls(0, 3, 1, 4, 4, 2), 2, 3)), x -> F.oneHot(x[0], 5)));
        t.add(s("pad/constant", in -> a(in.t(2, 3)), x -> F.pad(x[0], ls(1, 2), "constant", 0.5)));
        t.add(s("pad/reflect", in -> a(in.t(1, 3, 4)), x -> F.pad(x[0], ls(1, 1, 2, 0), "reflect", 0.0)));
        t.add(s("pad/replicate", in -> a(in.nc(2, 3, 4)), x -> F.pad(x[0], ls(2, 1), "replicate", 0.0)));
        t.add(s("pad/circular", in -> a(in.t(1, 2, 4)), x -> F.pad(x[0], ls(1, 2), "circular", 0.0)));
        t.add(s(
                "layer_norm/affine",
                in -> a(in.t(3, 4), in.t(4), in.t(4)),
                x -> F.layerNorm(x[0], ls(4), x[1], x[2], 1e-5)));
        t.add(s("layer_norm/2d-transposed", in -> a(in.nc(2, 3, 4)), x -> F.layerNorm(x[0], ls(3, 4))));
        t.add(s("rms_norm/weight", in -> a(in.t(3, 4), in.t(4)), x -> F.rmsNorm(x[0], ls(4), x[1], 1e-6)));
        t.add(s("rms_norm/default-eps", in -> a(in.nc(2, 3, 4)), x -> F.rmsNorm(x[0], ls(3, 4))));
        t.add(s(
                "group_norm/affine",
                in -> a(in.t(2, 4, 3), in.t(4), in.t(4)),
                x -> F.groupNorm(x[0], 2, x[1], x[2], 1e-5)));
        // the running statistics are fresh per call: training updates them in place, and gradcheck calls many times
        t.add(s(
                "batch_norm/train",
                in -> a(in.t(4, 3), in.t(3), in.t(3)),
                x -> F.batchNorm(x[0], stats(x[0], -1, 1), stats(x[0], 0.5, 2), x[1], x[2], true, 0.1, 1e-5)));
        t.add(s(
                "batch_norm/eval",
                in -> a(in.t(2, 3, 4), in.t(3), in.t(3)),
                x -> F.batchNorm(x[0], stats(x[0], -1, 1), stats(x[0], 0.5, 2), x[1], x[2], false, 0.1, 1e-5)));
        t.add(s("normalize/p2", in -> a(in.t(3, 4)), x -> F.normalize(x[0])));
        t.add(s("normalize/p1-dim0", in -> a(in.nc(3, 4)), x -> F.normalize(x[0], 1.0, 0, 1e-12)));
        t.add(s("softmax/dim1", in -> a(in.t(2, 3, 4)), x -> F.softmax(x[0], 1)));
        t.add(s("softmax/transposed-last", in -> a(in.nc(3, 4)), x -> F.softmax(x[0], -1)));
        t.add(s("log_softmax/dim0", in -> a(in.t(3, 4)), x -> F.logSoftmax(x[0], 0)));
        t.add(s("gelu/none", in -> a(in.t(3, 4)), x -> F.gelu(x[0])));
        t.add(s("gelu/tanh", in -> a(in.nc(3, 4)), x -> F.gelu(x[0], "tanh")));
        t.add(s("silu/basic", in -> a(in.t(3, 4)), x -> F.silu(x[0])));
        t.add(s("relu/basic", in -> a(in.t(3, 4)), x -> F.relu(x[0])));
        t.add(s("leaky_relu/slope", in -> a(in.t(3, 4)), x -> F.leakyRelu(x[0], 0.2)));
        t.add(s("elu/alpha", in -> a(in.nc(3, 4)), x -> F.elu(x[0], 1.5)));
        t.add(s("hardtanh/bounds", in -> a(in.t(3, 4)), x -> F.hardtanh(x[0], -0.5, 0.75)));
        t.add(s("mish/basic", in -> a(in.t(3, 4)), x -> F.mish(x[0])));
        t.add(s("tanh/basic", in -> a(in.t(3, 4)), x -> F.tanh(x[0])));
        t.add(s("sigmoid/basic", in -> a(in.ex(3, 4)), x -> F.sigmoid(x[0])));
        t.add(s(
                "cross_entropy/indices",
                in -> a(in.t(4, 5), idx(in, ls(0, 3, 4, 1), 4)),
                x -> F.crossEntropy(x[0], x[1])));
        t.add(s(
                "cross_entropy/weight-ignore-smoothing",
                in -> a(in.t(4, 5), idx(in, ls(0, 3, 4, 1), 4), in.unit(5)),
                x -> F.crossEntropy(
                        x[0],
                        x[1],
                        ce(Reduction.MEAN).weight(x[2]).ignoreIndex(3).labelSmoothing(0.1))));
        t.add(s(
                "cross_entropy/probs-sum",
                in -> a(in.t(4, 5), in.unit(4, 5)),
                x -> F.crossEntropy(x[0], x[1], Reduction.SUM)));
        t.add(s(
                "cross_entropy/kdim-none",
                in -> a(in.nc(2, 3, 4), idx(in, ls(0, 1, 2, 0, 2, 2, 1, 0), 2, 4)),
                x -> F.crossEntropy(x[0], x[1], Reduction.NONE)));
        t.add(s("nll_loss/basic", in -> a(in.t(4, 5), idx(in, ls(0, 3, 4, 1), 4)), x -> F.nllLoss(x[0], x[1])));
        t.add(s(
                "nll_loss/weight-sum",
                in -> a(in.t(4, 5), idx(in, ls(2, 3, 0, 1), 4), in.unit(5)),
                x -> F.nllLoss(x[0], x[1], ce(Reduction.SUM).weight(x[2]))));
        t.add(s("mse_loss/mean", in -> a(in.t(3, 4), in.t(3, 4)), x -> F.mseLoss(x[0], x[1])));
        t.add(s(
                "mse_loss/none-transposed",
                in -> a(in.nc(3, 4), in.t(3, 4)),
                x -> F.mseLoss(x[0], x[1], Reduction.NONE)));
        t.add(s("l1_loss/sum", in -> a(in.t(3, 4), in.nc(3, 4)), x -> F.l1Loss(x[0], x[1], Reduction.SUM)));
        t.add(s(
                "smooth_l1_loss/beta",
                in -> a(in.t(3, 4), in.t(3, 4)),
                x -> F.smoothL1Loss(x[0], x[1], Reduction.MEAN, 0.5)));
        t.add(s(
                "huber_loss/delta-none",
                in -> a(in.t(3, 4), in.t(3, 4)),
                x -> F.huberLoss(x[0], x[1], Reduction.NONE, 0.75)));
        t.add(s(
                "binary_cross_entropy/weight",
                in -> a(in.unit(3, 4), in.unit(3, 4), in.unit(3, 4)),
                x -> F.binaryCrossEntropy(x[0].mul(0.8).add(0.1), x[1], x[2], Reduction.MEAN)));
        t.add(s(
                "binary_cross_entropy_with_logits/pos-weight",
                in -> a(in.t(3, 4), in.unit(3, 4), in.t(3, 4), in.unit(4)),
                x -> F.binaryCrossEntropyWithLogits(x[0], x[1], x[2], x[3], Reduction.MEAN)));
        t.add(s("kl_div/batchmean", in -> a(in.t(3, 4), in.unit(3, 4)), x -> F.klDiv(x[0], x[1], "batchmean", false)));
        t.add(s("kl_div/log-target-sum", in -> a(in.t(3, 4), in.t(3, 4)), x -> F.klDiv(x[0], x[1], "sum", true)));
        t.add(s(
                "cosine_embedding_loss/margin",
                in -> a(in.t(4, 5), in.t(4, 5), idx(in, ls(1, -1, -1, 1), 4)),
                x -> F.cosineEmbeddingLoss(x[0], x[1], x[2], 0.2, Reduction.MEAN)));
        t.add(s(
                "scaled_dot_product_attention/basic",
                in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 3)),
                x -> F.scaledDotProductAttention(x[0], x[1], x[2])));
        t.add(s(
                "scaled_dot_product_attention/causal-scale",
                in -> a(in.t(1, 2, 4, 3), in.nc(1, 2, 4, 3), in.t(1, 2, 4, 3)),
                x -> F.scaledDotProductAttention(x[0], x[1], x[2], null, 0.0, true, 0.3, false)));
        t.add(s(
                "scaled_dot_product_attention/float-mask",
                in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 4), in.t(3, 5)),
                x -> F.scaledDotProductAttention(x[0], x[1], x[2], x[3], 0.0, false, null, false)));
        t.add(s(
                "scaled_dot_product_attention/bool-mask",
                in -> a(in.t(2, 3, 4), in.t(2, 5, 4), in.t(2, 5, 4), in.mask(3, 5)),
                x -> F.scaledDotProductAttention(x[0], x[1], x[2], x[3], 0.0, false, null, false)));
        t.add(s(
                "linear_cross_entropy/reference-bias",
                in -> a(in.t(6, 3), in.t(5, 3), in.t(5), idx(in, ls(0, 4, 1, 2, 3, 4), 6)),
                x -> F.linearCrossEntropy(x[0], x[1], x[3], lce().linearBias(x[2]))));
        t.add(s(
                "linear_cross_entropy/chunked-mean",
                in -> a(in.t(6, 3), in.nc(5, 3), idx(in, ls(0, 4, 1, 2, 3, 4), 6)),
                x -> F.linearCrossEntropy(x[0], x[1], x[2], Reduction.MEAN, CHUNKED)));
        t.add(s(
                "linear_cross_entropy/chunked-none-ignore",
                in -> a(in.t(6, 3), in.t(5, 3), in.t(5), idx(in, ls(0, 4, 2, 2, 3, 1), 6)),
                x -> F.linearCrossEntropy(
                        x[0],
                        x[1],
                        x[3],
                        lce().linearBias(x[2])
                                .reduction(Reduction.NONE)
                                .ignoreIndex(2)
                                .options(CHUNKED))));
        // a probability target that requires grad would send the call to the reference path: gradcheck leaves it be
        t.add(s(
                        "linear_cross_entropy/chunked-probs-sum",
                        in -> a(in.t(6, 3), in.t(5, 3), in.unit(6, 5)),
                        x -> F.linearCrossEntropy(x[0], x[1], x[2], Reduction.SUM, CHUNKED))
                .noGrad(2));
        t.add(s("pdist/p2", in -> a(in.t(4, 3)), x -> F.pdist(x[0])));
        t.add(s("pdist/p1.5", in -> a(in.nc(4, 3)), x -> F.pdist(x[0], 1.5)));
        return List.copyOf(t);
    }
}

package org.jtorch.nn.functional;

import java.util.List;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.Warnings;
import org.jtorch.nn.Reduction;
import org.jtorch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of golden/functional.json (PyTorch 2.13, see make_golden_functional.py) through the matching F function.
 */
class FunctionalGoldenTest {

    static Stream<Golden.Case> cases() {
        return Golden.cases("functional.json").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), false, () -> call(c));
    }

    private static Object call(Golden.Case c) {
        // the cases' warnings (PyTorch's own, e.g. deprecations) are recorded, not printed; values are what is checked
        try (var _ = Warnings.catchWarnings()) {
            Tensor a = c.tensorArg(0);
            Tensor b = c.argCount() > 1 ? c.tensorArg(1) : null;
            return switch (c.op()) {
                case "linear" -> c.argCount() > 2 ? F.linear(a, b, c.tensorArg(2)) : F.linear(a, b);
                case "softmax" -> F.softmax(a, longKw(c, "dim", 0));
                case "log_softmax" -> F.logSoftmax(a, longKw(c, "dim", 0));
                case "gelu" -> c.has("approximate") ? F.gelu(a, (String) c.kwarg("approximate")) : F.gelu(a);
                case "silu" -> F.silu(a);
                case "relu" -> F.relu(a);
                case "layer_norm" ->
                    F.layerNorm(a, shapeKw(c), tensorKw(c, "weight"), tensorKw(c, "bias"), doubleKw(c, "eps", 1e-5));
                case "rms_norm" ->
                    F.rmsNorm(a, shapeKw(c), tensorKw(c, "weight"), c.has("eps") ? doubleKw(c, "eps", 0) : null);
                case "embedding" -> F.embedding(a, b, c.has("padding_idx") ? longKw(c, "padding_idx", 0) : null);
                case "cross_entropy" -> F.crossEntropy(a, b, options(c));
                case "nll_loss" -> F.nllLoss(a, b, options(c));
                case "mse_loss" -> F.mseLoss(a, b, reduction(c));
                case "l1_loss" -> F.l1Loss(a, b, reduction(c));
                case "smooth_l1_loss" -> F.smoothL1Loss(a, b, reduction(c), doubleKw(c, "beta", 1.0));
                case "huber_loss" -> F.huberLoss(a, b, reduction(c), doubleKw(c, "delta", 1.0));
                case "binary_cross_entropy" -> F.binaryCrossEntropy(a, b, tensorKw(c, "weight"), reduction(c));
                case "binary_cross_entropy_with_logits" ->
                    F.binaryCrossEntropyWithLogits(
                            a, b, tensorKw(c, "weight"), tensorKw(c, "pos_weight"), reduction(c));
                case "kl_div" ->
                    F.klDiv(
                            a,
                            b,
                            c.has("reduction") ? (String) c.kwarg("reduction") : "mean",
                            c.has("log_target") && (Boolean) c.kwarg("log_target"));
                case "scaled_dot_product_attention" ->
                    F.scaledDotProductAttention(
                            a,
                            b,
                            c.tensorArg(2),
                            tensorKw(c, "attn_mask"),
                            0.0,
                            c.has("is_causal") && (Boolean) c.kwarg("is_causal"),
                            c.has("scale") ? doubleKw(c, "scale", 0) : null,
                            c.has("enable_gqa") && (Boolean) c.kwarg("enable_gqa"));
                default -> throw new AssertionError("no mapping for op " + c.op());
            };
        }
    }

    private static CrossEntropyOptions options(Golden.Case c) {
        return CrossEntropyOptions.defaults()
                .weight(tensorKw(c, "weight"))
                .ignoreIndex(longKw(c, "ignore_index", -100))
                .reduction(reduction(c))
                .labelSmoothing(doubleKw(c, "label_smoothing", 0.0));
    }

    private static Reduction reduction(Golden.Case c) {
        return c.has("reduction") ? Reduction.of((String) c.kwarg("reduction")) : Reduction.MEAN;
    }

    private static Tensor tensorKw(Golden.Case c, String name) {
        return c.has(name) ? (Tensor) c.kwarg(name) : null;
    }

    private static long longKw(Golden.Case c, String name, long dflt) {
        return c.has(name) ? ((Number) c.kwarg(name)).longValue() : dflt;
    }

    private static double doubleKw(Golden.Case c, String name, double dflt) {
        return c.has(name) ? Golden.number(c.kwarg(name)) : dflt;
    }

    private static long[] shapeKw(Golden.Case c) {
        List<?> l = (List<?>) c.kwarg("normalized_shape");
        return l.stream().mapToLong(o -> ((Number) o).longValue()).toArray();
    }
}

package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jtorch.Tensor;
import org.jtorch.ValuesIndices;
import org.jtorch.Warnings;
import org.jtorch.autograd.Autograd;
import org.jtorch.nn.Reduction;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Convolution, pooling, normalisation, bilinear, embedding-bag and cosine-embedding functionals against PyTorch 1.13
 * (jtorch/src/test/python/make_golden_modules2.py): float64 outputs and the gradients of {@code sum(out · g)} for a
 * random {@code g}, for every floating-point argument.
 */
class ConvPoolNormGoldenTest {
    private static final long[] ONE = {1};
    private static final long[] ZERO = {0};

    private static long[] ls(long... v) {
        return v;
    }

    /** The JTorch call of each case, on the case's arguments (the same call as the generator's lambda). */
    static Object call(String id, Tensor[] a, Map<String, Tensor> stats) {
        // the cases' warnings (PyTorch's own, e.g. deprecations) are recorded, not printed; values are what is checked
        try (var _ = Warnings.catchWarnings()) {
            return switch (id) {
                case "conv2d/basic" -> F.conv2d(a[0], a[1], a[2]);
                case "conv2d/stride-pad" -> F.conv2d(a[0], a[1], a[2], ls(2), ls(1), ONE, 1);
                case "conv2d/asym" -> F.conv2d(a[0], a[1], null, ls(2, 1), ls(0, 2), ls(1, 2), 1);
                case "conv2d/groups" -> F.conv2d(a[0], a[1], a[2], ONE, ls(1), ONE, 2);
                case "conv2d/depthwise-dilated" -> F.conv2d(a[0], a[1], null, ONE, ls(2), ls(2), 3);
                case "conv2d/1x1" -> F.conv2d(a[0], a[1], a[2]);
                case "conv2d/same-even" -> F.conv2d(a[0], a[1], null, ONE, "same", ONE, 1);
                case "conv2d/same-dilated" -> F.conv2d(a[0], a[1], null, ONE, "same", ls(2), 1);
                case "conv2d/valid" -> F.conv2d(a[0], a[1], null, ONE, "valid", ONE, 1);
                case "conv2d/unbatched" -> F.conv2d(a[0], a[1], a[2], ONE, ls(1), ONE, 1);
                case "conv1d/basic" -> F.conv1d(a[0], a[1], a[2], 1, 0, 1, 1);
                case "conv1d/all" -> F.conv1d(a[0], a[1], a[2], 2, 2, 2, 2);
                case "conv1d/same" -> F.conv1d(a[0], a[1], null, 1, "same", 1, 1);
                case "conv1d/unbatched" -> F.conv1d(a[0], a[1]);
                case "max_pool2d/basic" -> F.maxPool2dWithIndices(a[0], ls(2), null, ZERO, ONE, false);
                case "max_pool2d/all" -> F.maxPool2dWithIndices(a[0], ls(3, 2), ls(2, 1), ls(1, 1), ls(1, 2), true);
                case "max_pool2d/ceil" -> F.maxPool2dWithIndices(a[0], ls(3), ls(2), ZERO, ONE, true);
                case "max_pool2d/unbatched" -> F.maxPool2dWithIndices(a[0], ls(2), ls(1), ZERO, ONE, false);
                case "avg_pool2d/basic" -> F.avgPool2d(a[0], 2);
                case "avg_pool2d/pad-include" -> F.avgPool2d(a[0], ls(3), ls(2), ls(1), false, true, null);
                case "avg_pool2d/pad-exclude-ceil" -> F.avgPool2d(a[0], ls(3), ls(2), ls(1), true, false, null);
                case "avg_pool2d/divisor" -> F.avgPool2d(a[0], ls(2, 3), ls(1, 2), ls(1, 1), false, true, 5L);
                case "avg_pool2d/ceil-include" -> F.avgPool2d(a[0], ls(3), ls(2), ls(1), true, true, null);
                case "adaptive_avg_pool2d/3x5" -> F.adaptiveAvgPool2d(a[0], 3, 5);
                case "adaptive_avg_pool2d/1" -> F.adaptiveAvgPool2d(a[0], 1);
                case "adaptive_avg_pool2d/up" -> F.adaptiveAvgPool2d(a[0], 5, 4);
                case "adaptive_avg_pool2d/none-h" -> F.adaptiveAvgPool2d(a[0], null, 3L);
                case "adaptive_avg_pool2d/none-w" -> F.adaptiveAvgPool2d(a[0], 2L, null);
                case "avg_pool2d/int64-basic" -> F.avgPool2d(a[0], ls(2), ls(1), ZERO, false, true, null);
                case "avg_pool2d/int64-pad-include" -> F.avgPool2d(a[0], ls(3), ls(2), ls(1), false, true, null);
                case "avg_pool2d/int64-pad-exclude-ceil" -> F.avgPool2d(a[0], ls(3), ls(2), ls(1), true, false, null);
                case "avg_pool2d/int64-divisor" -> F.avgPool2d(a[0], ls(2, 3), ls(1, 2), ls(1, 1), false, true, -3L);
                case "batch_norm/train", "batch_norm/train-2d" -> {
                    long c = a[0].size(1);
                    Tensor rm = org.jtorch.Torch.linspace(-1, 1, c, a[0].dtype()),
                            rv = org.jtorch.Torch.linspace(0.5, 2, c, a[0].dtype());
                    stats.put("running_mean", rm);
                    stats.put("running_var", rv);
                    yield F.batchNorm(a[0], rm, rv, a[1], a[2], true, 0.3, 1e-4);
                }
                case "batch_norm/eval" ->
                    F.batchNorm(
                            a[0],
                            org.jtorch.Torch.linspace(-1, 1, 3, a[0].dtype()),
                            org.jtorch.Torch.linspace(0.5, 2, 3, a[0].dtype()),
                            a[1],
                            a[2],
                            false,
                            0.1,
                            1e-4);
                case "group_norm/affine" -> F.groupNorm(a[0], 2, a[1], a[2], 1e-4);
                case "group_norm/plain" -> F.groupNorm(a[0], 3);
                case "normalize/p2" -> F.normalize(a[0]);
                case "normalize/p1-dim0" -> F.normalize(a[0], 1.0, 0, 1e-12);
                case "bilinear/bias" -> F.bilinear(a[0], a[1], a[2], a[3]);
                case "bilinear/batched" -> F.bilinear(a[0], a[1], a[2], null);
                case "embedding_bag/sum-weights" -> F.embeddingBag(a[0], a[1], a[2], "sum", a[3], false, null);
                case "embedding_bag/mean" -> F.embeddingBag(a[0], a[1], a[2]);
                case "embedding_bag/max-2d" -> F.embeddingBag(a[0], a[1], null, "max", null, false, null);
                case "embedding_bag/last-offset-padding" -> F.embeddingBag(a[0], a[1], a[2], "mean", null, true, 2L);
                case "cosine_embedding_loss/mean" -> F.cosineEmbeddingLoss(a[0], a[1], a[2], 0.2, Reduction.MEAN);
                case "cosine_embedding_loss/none-1d" -> F.cosineEmbeddingLoss(a[0], a[1], a[2], 0.0, Reduction.NONE);
                default -> throw new IllegalArgumentException(id);
            };
        }
    }

    @SuppressWarnings("unchecked")
    private static Tensor t(Object json) {
        return json == null ? null : Golden.tensor((Map<String, Object>) json);
    }

    @TestFactory
    @SuppressWarnings("unchecked")
    Stream<DynamicTest> functionalsMatchPyTorch() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Golden.Case c : Golden.cases("modules2.json")) {
            if (!c.op().equals("functional")) continue;
            tests.add(DynamicTest.dynamicTest(c.id(), () -> {
                Map<String, Object> out = (Map<String, Object>) c.out();
                List<Object> grads = (List<Object>) out.get("grads");
                Tensor[] a = new Tensor[c.argCount()];
                List<Tensor> diff = new ArrayList<>();
                for (int i = 0; i < a.length; i++) {
                    a[i] = c.tensorArg(i);
                    if (grads.get(i) != null) diff.add(a[i].requiresGrad(true));
                }
                Map<String, Tensor> stats = new java.util.HashMap<>();
                Object r = call(c.id(), a, stats);
                Tensor y = r instanceof ValuesIndices vi ? vi.values() : (Tensor) r;
                Tensor expected = t(out.get("output"));
                assertEquals(expected.dtype(), y.dtype(), c.id() + " dtype");
                if (!expected.isFloatingPoint()) {
                    // integer results (int64 avg_pool2d truncates its division) must match exactly; they have no
                    // gradient
                    assertArrayEquals(expected.shape(), y.shape(), c.id() + " shape");
                    assertArrayEquals(expected.toLongArray(), y.toLongArray(), c.id() + " output");
                    return;
                }
                close(expected, y, 1e-10, c.id() + " output");
                Map<String, Object> extra = (Map<String, Object>) out.get("extra");
                if (r instanceof ValuesIndices vi) {
                    assertArrayEquals(
                            t(extra.get("indices")).toLongArray(), vi.indices().toLongArray(), c.id() + " indices");
                }
                for (var e : stats.entrySet())
                    close(t(extra.get(e.getKey())), e.getValue(), 1e-10, c.id() + " " + e.getKey());
                List<Tensor> g = Autograd.grad(
                        List.of(y),
                        diff,
                        Autograd.GradOptions.defaults()
                                .gradOutputs(List.of(t(out.get("grad_output"))))
                                .allowUnused(true));
                int k = 0;
                for (int i = 0; i < a.length; i++) {
                    if (grads.get(i) == null) continue;
                    close(t(grads.get(i)), g.get(k++), 1e-9, c.id() + " grad of arg " + i);
                }
            }));
        }
        assertTrue(tests.size() >= 40, "fixture cases: " + tests.size());
        return tests.stream();
    }

    static void close(Tensor expected, Tensor actual, double tol, String what) {
        assertNotNull(actual, what);
        assertArrayEquals(expected.shape(), actual.shape(), what + " shape");
        double[] e = expected.toDoubleArray(), g = actual.toDoubleArray();
        for (int i = 0; i < e.length; i++) {
            double scale = Math.max(1, Math.abs(e[i]));
            assertTrue(
                    Math.abs(e[i] - g[i]) <= tol * scale || Double.compare(e[i], g[i]) == 0,
                    what + " at " + i + ": expected " + e[i] + " got " + g[i]);
        }
    }
}

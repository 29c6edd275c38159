package org.jtorch.nn.functional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.Reduction;
import org.junit.jupiter.api.Test;

/** First and second derivatives of every differentiable F function, by finite differences in float64. */
class FunctionalGradTest {

    private static Tensor leaf(double[] data, long... shape) {
        return Torch.tensor(data, DType.FLOAT64, shape).requiresGrad(true);
    }

    /** Away from kinks: no ties, no zeros, no |a-b| near beta/delta. */
    private static Tensor x34() {
        return leaf(new double[] {0.3, -1.2, 0.8, 2.1, -0.4, 1.7, -2.3, 0.9, 1.1, -0.7, 0.2, -1.9}, 3, 4);
    }

    private static Tensor const34() {
        return Torch.tensor(
                new double[] {0.1, 0.5, -0.6, 1.4, 0.35, -0.2, 0.45, 1.3, -0.9, 0.25, 0.75, -1.1}, DType.FLOAT64, 3, 4);
    }

    private static void both(Function<List<Tensor>, Tensor> fn, Tensor... inputs) {
        assertTrue(GradCheck.check(fn, List.of(inputs), GradCheck.Options.defaults()));
        assertTrue(GradCheck.checkSecondOrder(fn, List.of(inputs), GradCheck.Options.defaults()));
    }

    @Test
    void linear() {
        Tensor w = leaf(new double[] {0.5, -0.3, 0.2, 1.0, -0.7, 0.4, 0.9, 0.1}, 2, 4),
                b = leaf(new double[] {0.1, -0.2}, 2);
        both(xs -> F.linear(xs.get(0), xs.get(1), xs.get(2)), x34(), w, b);
    }

    @Test
    void normalizations() {
        Tensor w = leaf(new double[] {0.5, -1.3, 1.2, 2.0}, 4), b = leaf(new double[] {0.1, -0.2, 0.3, 0.0}, 4);
        both(xs -> F.layerNorm(xs.get(0), new long[] {4}, xs.get(1), xs.get(2), 1e-5), x34(), w, b);
        both(xs -> F.rmsNorm(xs.get(0), new long[] {4}, xs.get(1), 1e-6), x34(), w);
    }

    /** With padding_idx the padding row gets no gradient by design, so only the plain form is gradchecked. */
    @Test
    void embeddingWithPaddingGetsNoGradientOnThePaddingRow() {
        Tensor w = leaf(new double[] {1, 2, 3, 4, 5, 6}, 3, 2);
        Tensor idx = Torch.tensor(new long[] {0, 2, 0, 1});
        both(xs -> F.embedding(idx, xs.get(0)).square(), w);
        F.embedding(idx, w, 0L).sum().backward();
        assertArrayEquals(new double[] {0, 0, 1, 1, 1, 1}, w.grad().toDoubleArray());
    }

    @Test
    void activationsAndSoftmax() {
        both(xs -> F.softmax(xs.get(0), 1), x34());
        both(xs -> F.logSoftmax(xs.get(0), 0), x34());
        both(xs -> F.gelu(xs.get(0)), x34());
        both(xs -> F.gelu(xs.get(0), "tanh"), x34());
        both(xs -> F.silu(xs.get(0)), x34());
        // relu's second derivative is zero almost everywhere; gradgradcheck still checks that
        both(xs -> F.relu(xs.get(0)), x34());
    }

    @Test
    void crossEntropyAllOptions() {
        Tensor y = Torch.tensor(new long[] {3, 0, 1});
        Tensor w = Torch.tensor(new double[] {1, 2, 0.5, 1.5});
        for (Reduction r : Reduction.values()) {
            CrossEntropyOptions o = CrossEntropyOptions.defaults()
                    .weight(w)
                    .ignoreIndex(1)
                    .labelSmoothing(0.2)
                    .reduction(r);
            both(xs -> F.crossEntropy(xs.get(0), y, o), x34());
            // no weight and no ignored target: the loss is -lp[y] without masks (its own code path)
            both(
                    xs -> F.crossEntropy(
                            xs.get(0),
                            y,
                            CrossEntropyOptions.defaults().labelSmoothing(0.2).reduction(r)),
                    x34());
            both(
                    xs -> F.nllLoss(
                            xs.get(0).logSoftmax(1),
                            y,
                            CrossEntropyOptions.defaults().reduction(r)),
                    x34());
        }
        Tensor probs = Torch.tensor(
                new double[] {0.1, 0.2, 0.3, 0.4, 0.25, 0.25, 0.25, 0.25, 0.7, 0.1, 0.1, 0.1}, DType.FLOAT64, 3, 4);
        both(
                xs -> F.crossEntropy(
                        xs.get(0),
                        probs,
                        CrossEntropyOptions.defaults().weight(w).labelSmoothing(0.1)),
                x34());
        // gradient with respect to the probability target too
        both(xs -> F.crossEntropy(xs.get(0), xs.get(1)), x34(), probs.requiresGrad(true));
        both(
                xs -> F.nllLoss(
                        xs.get(0).logSoftmax(1),
                        y,
                        CrossEntropyOptions.defaults().weight(w)),
                x34());
    }

    @Test
    void regressionLosses() {
        Tensor t = const34();
        both(xs -> F.mseLoss(xs.get(0), xs.get(1)), x34(), t.requiresGrad(true));
        both(xs -> F.l1Loss(xs.get(0), t, Reduction.SUM), x34());
        both(xs -> F.smoothL1Loss(xs.get(0), t, Reduction.MEAN, 0.5), x34());
        both(xs -> F.huberLoss(xs.get(0), t, Reduction.NONE, 0.65), x34());
    }

    @Test
    void binaryLosses() {
        Tensor p = leaf(new double[] {0.2, 0.7, 0.45, 0.9, 0.1, 0.6}, 2, 3);
        Tensor t = Torch.tensor(new double[] {0, 1, 0.3, 1, 0.5, 0}, DType.FLOAT64, 2, 3);
        Tensor w = Torch.tensor(new double[] {1, 2, 0.5}, DType.FLOAT64, 3);
        both(xs -> F.binaryCrossEntropy(xs.get(0), t, w, Reduction.MEAN), p);
        Tensor logits = leaf(new double[] {-1.5, 0.3, 2.2, -0.1, 0.8, -3.0}, 2, 3);
        both(
                xs -> F.binaryCrossEntropyWithLogits(
                        xs.get(0), xs.get(1), w, Torch.tensor(new double[] {0.5, 1, 3}), Reduction.SUM),
                logits,
                t.requiresGrad(true));
    }

    @Test
    void klDiv() {
        Tensor target = Torch.tensor(new double[] {0.2, 0.3, 0.5, 0.6, 0.1, 0.3}, DType.FLOAT64, 2, 3);
        Tensor lp = leaf(new double[] {-1.2, -0.9, -1.3, -0.4, -2.0, -1.6}, 2, 3);
        both(xs -> F.klDiv(xs.get(0), xs.get(1), "batchmean", false), lp, target.requiresGrad(true));
        both(xs -> F.klDiv(xs.get(0), xs.get(1), "sum", true), lp, target.log().requiresGrad(true));
    }

    @Test
    void attention() {
        Tensor q = leaf(new double[] {0.3, -0.2, 0.5, 0.1, 0.9, -0.4}, 1, 3, 2);
        Tensor k = leaf(new double[] {0.7, 0.1, -0.5, 0.2, 0.4, 0.8, -0.3, 0.6}, 1, 4, 2);
        Tensor v = leaf(new double[] {1, 2, -1, 0.5, 0.3, -0.2, 0.8, 1.1}, 1, 4, 2);
        Tensor mask = Torch.tensor(new double[] {0, -1, 0.5, 0, 0.2, 0, 0, -0.3, 0.1, 0.4, 0, 0}, DType.FLOAT64, 3, 4);
        both(
                xs -> F.scaledDotProductAttention(xs.get(0), xs.get(1), xs.get(2), mask, 0.0, false, null, false),
                q,
                k,
                v);
        both(xs -> F.scaledDotProductAttention(xs.get(0), xs.get(1), xs.get(2), null, 0.0, true, 0.8, false), q, k, v);
    }
}

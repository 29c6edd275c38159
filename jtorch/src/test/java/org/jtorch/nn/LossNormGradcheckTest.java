package org.jtorch.nn;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradCheck;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Gradients of the new losses and normalisations in float64 against central finite differences: reverse mode, forward
 * mode (JVPs) and second order (reverse over reverse), except CTC, whose ATen backward has no derivative. CTC is
 * checked through {@code log_softmax}, where its ATen gradient is the derivative (see {@code CtcLossOps}).
 */
class LossNormGradcheckTest {
    private static Tensor x(long... shape) {
        return Torch.randn(shape).to(DType.FLOAT64);
    }

    private static Tensor positive(long... shape) {
        return Torch.rand(shape).to(DType.FLOAT64).mul(0.9).add(0.05);
    }

    private static Tensor sign(long... shape) {
        return Torch.randint(0, 2, shape).to(DType.FLOAT64).mul(2.0).sub(1.0);
    }

    private static final GradCheck.Options BOTH = GradCheck.Options.defaults().checkForwardAd(true);

    private static void check(String what, Function<Tensor, Tensor> fn, Tensor input, boolean secondOrder) {
        Tensor in = input.requiresGrad(true);
        assertTrue(GradCheck.check(xs -> fn.apply(xs.get(0)), List.of(in), BOTH), what);
        if (secondOrder) {
            assertTrue(GradCheck.checkSecondOrder(xs -> fn.apply(xs.get(0)), List.of(in), BOTH), what + " (2nd)");
        }
    }

    @TestFactory
    Stream<DynamicTest> lossesAndNorms() {
        Torch.manualSeed(7);
        Tensor b = x(3, 4), y01 = Torch.randint(0, 2, new long[] {3, 4}).to(DType.FLOAT64), s = sign(3, 4);
        Tensor counts =
                Torch.tensor(new double[] {0, 1, 2, 3, 4, 5, 0, 1, 7, 2, 1, 9}).view(3, 4);
        Tensor p = x(4, 5), n = x(4, 5), v = positive(3, 4);
        Tensor w3 = positive(3), b3 = x(3), x4 = x(2, 3, 2, 2), s3 = sign(3);
        return Stream.of(
                        new Object[] {
                            "margin_ranking",
                            (Function<Tensor, Tensor>) a -> F.marginRankingLoss(
                                    a, b.sum(1), sign(3).abs().mul(-1.0), 0.2, Reduction.SUM),
                            x(3)
                        },
                        new Object[] {
                            "triplet",
                            (Function<Tensor, Tensor>)
                                    a -> F.tripletMarginLoss(a, p, n, 3.0, 2.0, 1e-6, true, Reduction.MEAN),
                            x(4, 5)
                        },
                        new Object[] {
                            "multilabel_soft_margin",
                            (Function<Tensor, Tensor>) a -> F.multilabelSoftMarginLoss(a, y01, null, Reduction.NONE),
                            x(3, 4)
                        },
                        new Object[] {
                            "poisson_nll",
                            (Function<Tensor, Tensor>)
                                    a -> F.poissonNllLoss(a, counts, false, true, 1e-8, Reduction.MEAN),
                            positive(3, 4)
                        },
                        new Object[] {
                            "gaussian_nll input",
                            (Function<Tensor, Tensor>) a -> F.gaussianNllLoss(a, b, v, true, 1e-6, Reduction.SUM),
                            x(3, 4)
                        },
                        new Object[] {
                            "gaussian_nll var",
                            (Function<Tensor, Tensor>) a -> F.gaussianNllLoss(b, s, a, false, 1e-6, Reduction.MEAN),
                            positive(3, 4)
                        },
                        new Object[] {
                            "soft_margin",
                            (Function<Tensor, Tensor>) a -> F.softMarginLoss(a, s, Reduction.MEAN),
                            x(3, 4)
                        },
                        new Object[] {
                            "instance_norm",
                            (Function<Tensor, Tensor>) a -> F.instanceNorm(a, null, null, w3, b3, true, 0.1, 1e-5),
                            x(2, 3, 5)
                        },
                        new Object[] {
                            "instance_norm weight",
                            (Function<Tensor, Tensor>) a -> F.instanceNorm(x4, null, null, a, null, true, 0.1, 1e-5),
                            x(3)
                        },
                        new Object[] {
                            "local_response_norm",
                            (Function<Tensor, Tensor>) a -> F.localResponseNorm(a, 3, 0.5, 0.75, 1.0),
                            x(2, 5, 3)
                        },
                        new Object[] {
                            "local_response_norm 4d even",
                            (Function<Tensor, Tensor>) a -> F.localResponseNorm(a, 2, 0.3, 0.6, 2.0),
                            x(1, 4, 2, 3)
                        })
                .map(c -> DynamicTest.dynamicTest((String) c[0], () -> {
                    @SuppressWarnings("unchecked")
                    Function<Tensor, Tensor> fn = (Function<Tensor, Tensor>) c[1];
                    check((String) c[0], fn, (Tensor) c[2], true);
                }));
    }

    @Test
    void ctcThroughLogSoftmax() {
        Torch.manualSeed(11);
        Tensor padded = Torch.tensor(new long[] {1, 2, 2, 3, 4, 0, 1, 0, 0}).view(3, 3);
        for (Reduction r : Reduction.values()) {
            check(
                    "ctc padded " + r,
                    a -> F.ctcLoss(F.logSoftmax(a, 2), padded, new long[] {6, 5, 4}, new long[] {3, 2, 1}, 0, r, false),
                    x(6, 3, 5),
                    false);
        }
        Tensor concatenated = Torch.tensor(new long[] {3, 1, 1, 2});
        check(
                "ctc concatenated, blank last",
                a -> F.ctcLoss(
                        F.logSoftmax(a, 2),
                        concatenated,
                        new long[] {5, 4},
                        new long[] {1, 3},
                        4,
                        Reduction.SUM,
                        false),
                x(5, 2, 5),
                false);
        check(
                "ctc unbatched",
                a -> F.ctcLoss(
                        F.logSoftmax(a, 1),
                        Torch.tensor(new long[] {2, 1}),
                        new long[] {4},
                        new long[] {2},
                        0,
                        Reduction.NONE,
                        false),
                x(4, 3),
                false);
    }

    @Test
    void ctcHasNoSecondDerivative() {
        Tensor a = x(4, 1, 3).requiresGrad(true);
        Tensor loss = F.ctcLoss(
                F.logSoftmax(a, 2),
                Torch.tensor(new long[] {1}).view(1, 1),
                new long[] {4},
                new long[] {1},
                0,
                Reduction.SUM,
                false);
        Tensor g = org.jtorch.autograd.Autograd.grad(loss, a, true);
        assertThrows(TorchException.class, () -> g.sum().backward());
    }
}

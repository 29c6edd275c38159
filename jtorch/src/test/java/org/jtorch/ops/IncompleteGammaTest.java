package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradCheck;
import org.jtorch.distributions.Gamma;
import org.jtorch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code igamma}/{@code igammac} ({@code torch.special.gammainc}/{@code gammaincc}) and {@code Gamma.cdf} against
 * PyTorch 2.13 ({@code make_golden_igamma.py}): every region of the algorithm, the boundary values, the low-precision
 * dtypes, broadcasting and promotion, the refused dtypes, the gradient in x and the cdf's gradients; plus gradcheck of
 * the x-derivative to second order and the refusal of the derivative in a.
 */
class IncompleteGammaTest {
    static Stream<Golden.Case> cases() {
        return Golden.cases("igamma.json").stream();
    }

    @Test
    void fixtureIsLoaded() {
        assertEquals(30, Golden.cases("igamma.json").size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesPyTorch(Golden.Case c) {
        Golden.check(c, List.of(), false, () -> run(c));
    }

    private static Object run(Golden.Case c) {
        return switch (c.op()) {
            case "igamma" -> Torch.igamma(c.tensorArg(0), c.tensorArg(1));
            case "igammac" -> Torch.specialGammaincc(c.tensorArg(0), c.tensorArg(1));
            case "igamma_grad", "igammac_grad" -> {
                Tensor x = c.tensorArg(1).requiresGrad(true);
                Tensor y = c.op().equals("igamma_grad")
                        ? c.tensorArg(0).igamma(x)
                        : c.tensorArg(0).igammac(x);
                y.mul(c.tensorArg(2)).sum().backward();
                yield List.of(y.detach(), x.grad());
            }
            case "gamma_cdf" -> {
                Tensor rate = c.tensorArg(1).requiresGrad(true),
                        value = c.tensorArg(2).requiresGrad(true);
                Tensor cdf = new Gamma(c.tensorArg(0), rate).cdf(value);
                cdf.mul(c.tensorArg(3)).sum().backward();
                yield List.of(cdf.detach(), rate.grad(), value.grad());
            }
            default -> throw new AssertionError("unknown op " + c.op());
        };
    }

    @Test
    void theDerivativeInXPassesGradcheckToSecondOrder() {
        Tensor a = Torch.tensor(new double[] {0.3, 1.0, 2.5, 7.0, 30.0, 45.0}, DType.FLOAT64, 6);
        Tensor x = Torch.tensor(new double[] {0.2, 1.7, 2.0, 9.0, 28.0, 47.0}, DType.FLOAT64, 6)
                .requiresGrad(true);
        for (boolean upper : new boolean[] {false, true}) {
            java.util.function.Function<List<Tensor>, Tensor> fn =
                    in -> upper ? Torch.igammac(a, in.get(0)) : Torch.igamma(a, in.get(0));
            assertTrue(GradCheck.check(fn, List.of(x), GradCheck.Options.defaults()));
            assertTrue(GradCheck.checkSecondOrder(fn, List.of(x), GradCheck.Options.defaults()));
        }
    }

    @Test
    void theDerivativeInAIsNotImplementedAsInPyTorch() {
        Tensor a = Torch.tensor(new double[] {2.0, 3.0}).requiresGrad(true);
        Tensor x = Torch.tensor(new double[] {1.0, 2.0});
        TorchException e = assertThrows(
                TorchException.class, () -> Torch.igamma(a, x).sum().backward());
        assertEquals("the derivative for 'igamma: input' is not implemented.", e.getMessage());
        e = assertThrows(
                TorchException.class, () -> Torch.specialGammaincc(a, x).sum().backward());
        assertEquals("the derivative for 'igammac: input' is not implemented.", e.getMessage());
    }

    @Test
    void closedFormsAtIntegerAndHalfIntegerA() {
        // P(1, x) = 1 - e^-x; Q(2, x) = (1 + x) e^-x; P(1/2, x) = erf(sqrt(x)): independent of the algorithm
        double[] xs = {1e-3, 0.4, 1.0, 3.3, 12.0};
        Tensor x = Torch.tensor(xs, DType.FLOAT64, xs.length);
        double[] p1 = Torch.igamma(Torch.fullLike(x, 1.0), x).toDoubleArray();
        double[] q2 = Torch.igammac(Torch.fullLike(x, 2.0), x).toDoubleArray();
        double[] pHalf = Torch.specialGammainc(Torch.fullLike(x, 0.5), x).toDoubleArray();
        double[] erf = Torch.erf(x.sqrt()).toDoubleArray();
        for (int i = 0; i < xs.length; i++) {
            assertEquals(-Math.expm1(-xs[i]), p1[i], 1e-15 * Math.abs(p1[i]), "P(1, " + xs[i] + ")");
            assertEquals((1 + xs[i]) * Math.exp(-xs[i]), q2[i], 2e-15 * q2[i], "Q(2, " + xs[i] + ")");
            assertEquals(erf[i], pHalf[i], 4e-15 * erf[i], "P(1/2, " + xs[i] + ")");
        }
    }
}

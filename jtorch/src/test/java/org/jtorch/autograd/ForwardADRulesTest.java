package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.dispatch.Spec;
import org.jtorch.ops.LinalgOps;
import org.jtorch.ops.OpDef;
import org.junit.jupiter.api.Test;

/**
 * JVP rules against closed forms (the spec's tie rules and worked examples), forward-mode gradcheck, and second-order
 * forward AD (forward-over-forward) including linalg.md §4's 2.15 examples.
 */
class ForwardADRulesTest {
    private static Tensor f64(double... v) {
        return Torch.tensor(v);
    }

    private static Tensor scalar(double v) {
        return Torch.scalarTensor(v, DType.FLOAT64);
    }

    /** The tangent of {@code f(makeDual(x, t))}. */
    private static Tensor jvp(Function<Tensor, Tensor> f, Tensor x, Tensor t) {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            return ForwardAD.unpackDual(f.apply(ForwardAD.makeDual(x, t))).tangent();
        }
    }

    /** {@code d²/ds² f(s)} at {@code s} by nested dual levels. */
    private static double secondDerivative(Function<Tensor, Tensor> f, double s) {
        try (DualLevel outer = ForwardAD.dualLevel()) {
            Tensor x = ForwardAD.makeDual(scalar(s), scalar(1), outer);
            try (DualLevel inner = ForwardAD.dualLevel()) {
                Tensor xx = ForwardAD.makeDual(x, ForwardAD.makeDual(scalar(1), scalar(0), outer), inner);
                Tensor firstDerivative =
                        ForwardAD.unpackDual(f.apply(xx), inner).tangent();
                return ForwardAD.unpackDual(firstDerivative, outer).tangent().item();
            }
        }
    }

    @Test
    void clampWithAScalarBoundGivesZeroTangentAtTheBound() {
        // spec §3.1: a Scalar bound is a parameter; at equality the input's derivative is 0
        assertArrayEquals(
                new double[] {0, 0, 1, 0, 0},
                jvp(x -> Torch.clamp(x, -1.0, 1.0), f64(-2, -1, 0, 1, 2), f64(1, 1, 1, 1, 1))
                        .toDoubleArray(),
                0);
        assertEquals(0.0, jvp(x -> Torch.clampMin(x, 0.0), scalar(0), scalar(1)).item(), 0);
    }

    @Test
    void tensorBoundsAndMaximumSplitTheTangentAtTies() {
        // spec §3.2/§3.4: JVP = b_t + w (a_t - b_t), w = 1/2 at a tie
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor a = ForwardAD.makeDual(f64(1, 2, 3), f64(10, 10, 10));
            Tensor b = ForwardAD.makeDual(f64(3, 2, 1), f64(1, 1, 1));
            assertArrayEquals(
                    new double[] {1, 5.5, 10},
                    ForwardAD.unpackDual(Torch.maximum(a, b)).tangent().toDoubleArray(),
                    0);
            assertArrayEquals(
                    new double[] {10, 5.5, 1},
                    ForwardAD.unpackDual(Torch.minimum(a, b)).tangent().toDoubleArray(),
                    0);
            assertArrayEquals(
                    new double[] {1, 5.5, 10},
                    ForwardAD.unpackDual(Torch.clampMin(a, b)).tangent().toDoubleArray(),
                    0);
        }
    }

    @Test
    void fmaxTangentFollowsTheValueItReturned() {
        // spec §4 (2.15): the NaN side gets nothing, the side returned gets everything; ties split
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor a = ForwardAD.makeDual(f64(1, Double.NaN, 2), f64(10, 10, 10));
            Tensor b = ForwardAD.makeDual(f64(Double.NaN, 3, 2), f64(1, 1, 1));
            assertArrayEquals(
                    new double[] {10, 1, 5.5},
                    ForwardAD.unpackDual(Torch.fmax(a, b)).tangent().toDoubleArray(),
                    0);
        }
    }

    @Test
    void reductionsAndSoftmax() {
        Tensor x = f64(1, 3, 3, 2), t = f64(1, 2, 3, 4);
        assertEquals(2.5, jvp(Tensor::max, x, t).item(), 0); // spec §3.5: ties share evenly
        assertEquals(10.0, jvp(Tensor::sum, x, t).item(), 0);
        // softmax: y (t - Σ y t), against a hand computation
        Tensor y = Torch.softmax(x, 0);
        double[] yv = y.toDoubleArray(), tv = t.toDoubleArray();
        double s = 0;
        for (int i = 0; i < 4; i++) s += yv[i] * tv[i];
        double[] expected = new double[4];
        for (int i = 0; i < 4; i++) expected[i] = yv[i] * (tv[i] - s);
        assertArrayEquals(expected, jvp(v -> Torch.softmax(v, 0), x, t).toDoubleArray(), 1e-15);
    }

    @Test
    void linalgSecondOrderForwardExamplesOfTheSpec() {
        // linalg.md §4: d²/dt² det([[t+2, 1], [1, 2t+3]]) = 4 exactly (pre-2.15: 8.827...)
        Function<Tensor, Tensor> det = s -> LinalgOps.det(Torch.stack(List.of(
                Torch.stack(List.of(s.add(2L), scalar(1))),
                Torch.stack(List.of(scalar(1), s.mul(2L).add(3L))))));
        assertEquals(10.88, det.apply(scalar(0.7)).item(), 1e-12);
        assertEquals(4.0, secondDerivative(det, 0.7), 1e-12);
        // slogdet([[t+2, 1], [1, 3]]).logabsdet'' = -9/(3t+5)² (pre-2.15: 0)
        Function<Tensor, Tensor> logabsdet = s -> LinalgOps.slogdet(Torch.stack(
                List.of(Torch.stack(List.of(s.add(2L), scalar(1))), Torch.stack(List.of(scalar(1), scalar(3))))))[1];
        assertEquals(1.96009478404727, logabsdet.apply(scalar(0.7)).item(), 1e-12);
        assertEquals(-0.17853600476096013, secondDerivative(logabsdet, 0.7), 1e-12);
        // sum(solve(a, b, left=False) * w) at t = -0.5: f = 3.4, f'' = 3.0435555555555553 (pre-2.15: ≈1.5218)
        Function<Tensor, Tensor> solve = s -> {
            Tensor a = Torch.stack(
                    List.of(Torch.stack(List.of(s.add(2L), scalar(1))), Torch.stack(List.of(scalar(0), s.add(3L)))));
            Tensor b = Torch.stack(List.of(
                    Torch.stack(List.of(s, s.mul(2L).add(1L))),
                    Torch.stack(List.of(s.add(1L), s.neg().add(3L)))));
            Tensor w = Torch.tensor(new double[][] {{1, 2}, {-1, 3}});
            return LinalgOps.solve(a, b, false).mul(w).sum();
        };
        assertEquals(3.4, solve.apply(scalar(-0.5)).item(), 1e-12);
        assertEquals(3.0435555555555553, secondDerivative(solve, -0.5), 1e-10);
    }

    private static Tensor leaf(double[][] v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    private static final GradCheck.Options FORWARD =
            GradCheck.Options.defaults().checkForwardAd(true);

    @Test
    void gradcheckWithForwardAdPassesForRulesAndSecondOrderForward() {
        Tensor x = f64(0.3, -0.7, 1.1).requiresGrad(true);
        Tensor a = leaf(new double[][] {{2, 0.5}, {0.3, 1.5}}), b = leaf(new double[][] {{1, -1}, {0.5, 2}});
        Tensor spd = leaf(new double[][] {{4, 1}, {1, 3}});
        List<Function<List<Tensor>, Tensor>> fns = List.of(xs ->
                xs.get(0).sin().mul(xs.get(0).exp()).div(xs.get(0).square().add(1L)));
        for (var fn : fns) {
            assertTrue(GradCheck.check(fn, List.of(x), FORWARD));
            assertTrue(GradCheck.checkSecondOrderForward(fn, List.of(x), GradCheck.Options.defaults()));
        }
        List<Function<List<Tensor>, Tensor>> matrixFns = List.of(
                xs -> xs.get(0).mm(xs.get(1)),
                xs -> LinalgOps.det(xs.get(0).mm(xs.get(1))),
                xs -> LinalgOps.slogdet(xs.get(0).add(xs.get(1)))[1],
                xs -> LinalgOps.solve(xs.get(0), xs.get(1)),
                xs -> LinalgOps.solve(xs.get(0), xs.get(1), false),
                xs -> LinalgOps.inv(xs.get(0)).mul(xs.get(1)));
        for (var fn : matrixFns) {
            assertTrue(GradCheck.check(fn, List.of(a, b), FORWARD));
            assertTrue(GradCheck.checkSecondOrderForward(fn, List.of(a, b), GradCheck.Options.defaults()));
        }
        // cholesky needs a symmetric input: differentiate through (S + Sᵀ)/2
        Function<List<Tensor>, Tensor> chol =
                xs -> LinalgOps.cholesky(xs.get(0).add(xs.get(0).t()).mul(0.5));
        Function<List<Tensor>, Tensor> cholUpper =
                xs -> LinalgOps.cholesky(xs.get(0).add(xs.get(0).t()).mul(0.5), true);
        for (var fn : List.of(chol, cholUpper)) {
            assertTrue(GradCheck.check(fn, List.of(spd), FORWARD));
            assertTrue(GradCheck.checkSecondOrderForward(fn, List.of(spd), GradCheck.Options.defaults()));
        }
    }

    @Test
    void forwardGradcheckCatchesAWrongJvp() {
        OpDef wrong = OpDef.Unregistered.structured(
                        "wrong_square(Tensor self) -> Tensor",
                        args -> Spec.of(((Tensor) args[0]).shape(), DType.FLOAT64, Device.CPU, null),
                        (args, outs, spec) -> outs[0].copy_(((Tensor) args[0]).square()))
                .defineVjp(OpDef.Save.INPUTS, (args, o, g) ->
                        new Tensor[] {g[0].mul((Tensor) args[0]).mul(2L)})
                .defineJvp((args, o, t) -> new Tensor[] {t[0].mul((Tensor) args[0])}); // missing the factor 2
        Function<List<Tensor>, Tensor> fn = xs -> wrong.call1(xs.get(0));
        Tensor x = f64(0.5, 1.5).requiresGrad(true);
        assertTrue(GradCheck.check(fn, List.of(x), GradCheck.Options.defaults())); // reverse mode is right
        GradCheck.GradcheckError e =
                assertThrows(GradCheck.GradcheckError.class, () -> GradCheck.check(fn, List.of(x), FORWARD));
        assertTrue(e.getMessage().contains("(forward AD)"), e.getMessage());
        assertTrue(!GradCheck.check(fn, List.of(x), FORWARD.raiseException(false)));
    }

    @Test
    void anOpWithoutAJvpRefusesDualInputsByName() {
        OpDef noJvp = OpDef.Unregistered.structured(
                        "no_jvp_op(Tensor self) -> Tensor",
                        args -> Spec.of(((Tensor) args[0]).shape(), DType.FLOAT64, Device.CPU, null),
                        (args, outs, spec) -> outs[0].copy_((Tensor) args[0]))
                .defineVjp(OpDef.Save.NOTHING, (args, o, g) -> new Tensor[] {g[0]});
        assertArrayEquals(new double[] {1, 2}, noJvp.call1(f64(1, 2)).toDoubleArray(), 0); // fine without duals
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor plain = noJvp.call1(f64(1, 2)); // no dual input: runs
            assertEquals(2, plain.numel());
            UnsupportedOperationException e = assertThrows(
                    UnsupportedOperationException.class, () -> noJvp.call1(ForwardAD.makeDual(f64(1, 2), f64(1, 1))));
            assertEquals(
                    "Trying to use forward AD with no_jvp_op that does not support it because it has not "
                            + "been implemented yet.",
                    e.getMessage());
        }
    }
}

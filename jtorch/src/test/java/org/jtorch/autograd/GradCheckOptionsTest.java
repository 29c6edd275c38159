package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.junit.jupiter.api.Test;

/**
 * gradcheck's options beyond the tolerances, as PyTorch's: complex inputs and outputs checked through their real and
 * imaginary parts (Wirtinger calculus), so a rule that is right only for holomorphic functions is caught; fast mode's
 * random projection, which also catches wrong rules; the reentrancy check bounded by {@code nondetTol}. The references
 * are central finite differences and closed forms of the derivatives.
 */
class GradCheckOptionsTest {
    private static final GradCheck.Options SLOW = GradCheck.Options.defaults().checkForwardAd(true);
    private static final GradCheck.Options FAST = SLOW.fastMode(true);

    private static Tensor complexLeaf() {
        return Torch.complex(Torch.tensor(new double[] {0.3, -1.2, 2.5}), Torch.tensor(new double[] {0.7, 0.4, -0.9}))
                .requiresGrad(true);
    }

    private static boolean check(Function<Tensor, Tensor> f, Tensor x, GradCheck.Options o) {
        return GradCheck.check(xs -> f.apply(xs.get(0)), List.of(x), o);
    }

    @Test
    void complexFunctionsPassInSlowAndFastMode() {
        Tensor z = complexLeaf();
        List<Function<Tensor, Tensor>> fns = List.of(
                t -> t.mul(t).sum(), // holomorphic, complex output
                t -> t.abs().square(), // real output of a complex input
                t -> t.conj().mul(t.exp()), // neither holomorphic nor real
                t -> Torch.real(t).mul(Torch.imag(t)));
        for (Function<Tensor, Tensor> f : fns) {
            assertTrue(check(f, z, SLOW));
            assertTrue(check(f, z, FAST));
        }
        assertTrue(GradCheck.checkSecondOrder(
                xs -> xs.get(0).mul(xs.get(0)).mul(xs.get(0).conj()), List.of(z), SLOW));
    }

    @Test
    void aRuleRightOnlyForTheRealPartIsCaught() {
        // |z|^2 computed as conj(z).detach() * z: the backward sees conj(z) as a constant and returns conj(conj(z)) = z
        // for the real-output coordinate, where PyTorch's convention (∂/∂re + i ∂/∂im of |z|^2) gives 2z
        Tensor z = complexLeaf();
        Function<Tensor, Tensor> wrong = t -> Torch.real(t.conj().detach().mul(t));
        for (GradCheck.Options o : List.of(SLOW.checkForwardAd(false), FAST.checkForwardAd(false))) {
            GradCheck.GradcheckError e = assertThrows(GradCheck.GradcheckError.class, () -> check(wrong, z, o));
            assertTrue(e.getMessage().contains("Jacobian mismatch"), e.getMessage());
            assertFalse(check(wrong, z, o.raiseException(false)));
        }
        assertTrue(check(t -> Torch.real(t.conj().mul(t)), z, SLOW));
    }

    @Test
    void fastModeCatchesAWrongRealRule() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2, 2.0}).requiresGrad(true);
        Function<Tensor, Tensor> wrong = t -> t.detach().square().add(t); // true derivative 2x + 1, rule says 1
        GradCheck.GradcheckError e = assertThrows(GradCheck.GradcheckError.class, () -> check(wrong, x, FAST));
        assertTrue(e.getMessage().contains("fast"), e.getMessage());
        assertTrue(check(t -> t.square().add(t), x, FAST));
    }

    @Test
    void nondetTolBoundsTheDifferenceBetweenTwoBackwardPasses() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2}).requiresGrad(true);
        // a backward that drifts by 1e-9 per pass: right within atol, but not reentrant
        int[] passes = {0};
        Function<Tensor, Tensor> drifting = t -> {
            Tensor y = t.mul(2.0);
            y.registerHook(g -> g.add(1e-9 * passes[0]++));
            return y;
        };
        for (GradCheck.Options o : List.of(SLOW.checkForwardAd(false), FAST.checkForwardAd(false))) {
            GradCheck.GradcheckError e = assertThrows(GradCheck.GradcheckError.class, () -> check(drifting, x, o));
            assertTrue(e.getMessage().startsWith("Backward is not reentrant"), e.getMessage());
            assertTrue(check(drifting, x, o.nondetTol(1e-6)));
        }
        assertTrue(check(t -> t.mul(2.0), x, SLOW.nondetTol(0.0)));
    }

    @Test
    void batchedGradientsAgreeWithSeparateBackwardPasses() {
        Tensor a = Torch.randn(3, 4).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        Tensor b = Torch.randn(4, 2).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        Tensor unused = Torch.randn(5).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        GradCheck.Options batched = GradCheck.Options.defaults().checkBatchedGrad(true);
        assertTrue(GradCheck.check(xs -> xs.get(0).matmul(xs.get(1)).tanh(), List.of(a, b, unused), batched));
        assertTrue(GradCheck.checkSecondOrder(xs -> xs.get(0).sin().mul(xs.get(0)), List.of(a), batched));
    }

    /** {@code 2x}, with its backward; the subclasses change its backward or give it JVPs. */
    abstract static class Twice extends org.jtorch.autograd.Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            return new Tensor[] {((Tensor) args[0]).mul(2.0)};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(2.0)};
        }
    }

    /** {@code 2x}, whose backward scales by 3 from its third call on: the vmapped pass is the third. */
    static final class ChangesAfterTwoCalls extends Twice {
        int calls;

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(calls++ < 2 ? 2.0 : 6.0)};
        }
    }

    /** A backward that reads its gradient's data, which a batched gradient cannot give. */
    static final class ReadsItsGradient extends Twice {
        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {Torch.tensor(grads[0].toDoubleArray()).mul(2.0)};
        }
    }

    @Test
    void aBackwardThatBatchesWronglyOrNotAtAllIsCaught() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2, 2.0}).requiresGrad(true);
        GradCheck.Options batched = GradCheck.Options.defaults().checkBatchedGrad(true);
        ChangesAfterTwoCalls wrong = new ChangesAfterTwoCalls();
        GradCheck.GradcheckError differs =
                assertThrows(GradCheck.GradcheckError.class, () -> check(wrong::apply, x, batched));
        assertTrue(differs.getMessage().contains("differs for output 0 and input 0"), differs.getMessage());

        GradCheck.GradcheckError refused =
                assertThrows(GradCheck.GradcheckError.class, () -> check(new ReadsItsGradient()::apply, x, batched));
        assertTrue(refused.getMessage().contains("while computing batched gradients"), refused.getMessage());
        assertTrue(check(new ReadsItsGradient()::apply, x, GradCheck.Options.defaults()));
        assertThrows(IllegalArgumentException.class, () -> check(t -> t, x, batched.checkBackwardAd(false)));
    }

    @Test
    void batchedForwardGradientsAgreeWithSeparateJvps() {
        Tensor a = Torch.randn(3, 4).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        Tensor b = Torch.randn(4, 2).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        Tensor unused = Torch.randn(5).to(org.jtorch.DType.FLOAT64).requiresGrad(true);
        GradCheck.Options batched = SLOW.checkBatchedForwardGrad(true);
        assertTrue(GradCheck.check(xs -> xs.get(0).matmul(xs.get(1)).tanh(), List.of(a, b, unused), batched));
        assertTrue(check(t -> t.conj().mul(t.exp()), complexLeaf(), batched));
        assertTrue(check(t -> t.mul(t).sum(), complexLeaf(), batched.fastMode(true)));
    }

    /**
     * {@code 2x}, whose JVP scales by 3 from its sixth call on: the forward Jacobian of three coordinates and the two
     * separate JVPs take five calls, the vmapped JVP is the sixth.
     */
    static final class JvpChangesAfterFiveCalls extends Twice {
        int calls;

        @Override
        protected Tensor[] jvp(Ctx ctx, Tensor... tangents) {
            return new Tensor[] {tangents[0].mul(calls++ < 5 ? 2.0 : 6.0)};
        }
    }

    /** A JVP that reads its tangent's data, which a batched tangent cannot give. */
    static final class JvpReadsItsTangent extends Twice {
        @Override
        protected Tensor[] jvp(Ctx ctx, Tensor... tangents) {
            return new Tensor[] {Torch.tensor(tangents[0].toDoubleArray()).mul(2.0)};
        }
    }

    @Test
    void aJvpThatBatchesWronglyOrNotAtAllIsCaught() {
        Tensor x = Torch.tensor(new double[] {0.3, -1.2, 2.0}).requiresGrad(true);
        GradCheck.Options forwardOnly = SLOW.checkBackwardAd(false);
        GradCheck.Options batched = forwardOnly.checkBatchedForwardGrad(true);
        JvpChangesAfterFiveCalls wrong = new JvpChangesAfterFiveCalls();
        GradCheck.GradcheckError differs =
                assertThrows(GradCheck.GradcheckError.class, () -> check(wrong::apply, x, batched));
        assertTrue(differs.getMessage().contains("forward-mode AD"), differs.getMessage());
        assertTrue(differs.getMessage().contains("differs for output 0 and input 0"), differs.getMessage());
        assertFalse(check(new JvpChangesAfterFiveCalls()::apply, x, batched.raiseException(false)));

        GradCheck.GradcheckError refused =
                assertThrows(GradCheck.GradcheckError.class, () -> check(new JvpReadsItsTangent()::apply, x, batched));
        assertTrue(
                refused.getMessage().contains("while computing batched gradients with forward-mode AD"),
                refused.getMessage());
        assertTrue(check(new JvpReadsItsTangent()::apply, x, forwardOnly));
        // PyTorch: "Setting check_batched_forward_grad=True requires check_forward_ad to be True"
        assertThrows(
                IllegalArgumentException.class,
                () -> check(t -> t, x, GradCheck.Options.defaults().checkBatchedForwardGrad(true)));
        assertFalse(GradCheck.Options.defaults().checkBatchedForwardGrad());
    }

    @Test
    void atLeastOneModeMustBeChecked() {
        Tensor x = Torch.tensor(new double[] {1.0}).requiresGrad(true);
        assertThrows(
                IllegalArgumentException.class,
                () -> check(t -> t, x, GradCheck.Options.defaults().checkBackwardAd(false)));
    }
}

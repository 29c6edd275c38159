package org.jtorch.ops;

import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.kernels.cpu.IncompleteGamma;
import org.jtorch.ops.Pointwise.Promotion;

/**
 * The regularized incomplete gamma functions: {@code igamma(a, x) = P(a, x)} ({@code torch.special.gammainc}) and
 * {@code igammac(a, x) = Q(a, x) = 1 - P(a, x)} ({@code torch.special.gammaincc}), over broadcast operands of a common
 * floating dtype (PyTorch's CPU kernels have no integer or complex version, and promote integers only against a float
 * operand). Computed in double and rounded once ({@link IncompleteGamma}). As in PyTorch, only the derivative in
 * {@code x} exists, {@code ±exp((a - 1) log x - x - lgamma(a))}; asking for the one in {@code a} raises.
 */
public final class IncompleteGammaOps {
    private IncompleteGammaOps() {}

    /** {@code igamma(Tensor self, Tensor other) -> Tensor}: P(self, other). */
    public static final OpDef IGAMMA = Pointwise.binary(
                    "igamma(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    Pointwise.REAL_FLOATS,
                    new Fns.Binary(IncompleteGamma::lower, null, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, needs) -> gradients("igamma", a, g[0], needs, false))
            .deriveJvp(Jvps::elementwise);

    /** {@code igammac(Tensor self, Tensor other) -> Tensor}: Q(self, other). */
    public static final OpDef IGAMMAC = Pointwise.binary(
                    "igammac(Tensor self, Tensor other) -> Tensor",
                    Promotion.DEFAULT,
                    Pointwise.REAL_FLOATS,
                    new Fns.Binary(IncompleteGamma::upper, null, null, null, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g, needs) -> gradients("igammac", a, g[0], needs, true))
            .deriveJvp(Jvps::elementwise);

    private static Tensor[] gradients(String op, Object[] args, Tensor g, InputMask needs, boolean upper) {
        if (needs.needs(0)) throw new TorchException("the derivative for '" + op + ": input' is not implemented.");
        Tensor a = (Tensor) args[0], x = (Tensor) args[1];
        // d/dx P(a, x) = x^(a-1) e^-x / Γ(a), in logs as ATen writes it
        Tensor density = a.sub(1.0).mul(x.log()).sub(x).sub(a.lgamma()).exp();
        Tensor dx = g.mul(upper ? density.neg() : density);
        return Grads.forTensorArgs(args, null, dx);
    }
}

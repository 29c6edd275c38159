package org.jtorch.ops;

import static org.jtorch.ops.Pointwise.FLOATS;
import static org.jtorch.ops.Pointwise.REAL;
import static org.jtorch.ops.Pointwise.REAL_FLOATS;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.Bessel;
import org.jtorch.kernels.cpu.ComplexMath;
import org.jtorch.kernels.cpu.Fns;
import org.jtorch.ops.Pointwise.Promotion;

/**
 * Pointwise functions of the special-function family that {@code torch} exposes at top level: the normalised sinc, the
 * modified Bessel functions I₀ and I₁, and the Heaviside step. Each is one {@link OpDef} with ATen's CPU formula, its
 * derivative as {@code derivatives.yaml} gives it, and the pointwise batching that its flag implies.
 */
public final class SpecialPointwiseOps {
    private SpecialPointwiseOps() {}

    /** sin(πx)/(πx), 1 at 0, as ATen's {@code sinc} kernel (the product is formed before the sine). */
    static double sinc(double x) {
        if (x == 0) return 1;
        double product = Math.PI * x;
        return Math.sin(product) / product;
    }

    /** Complex sinc: the same formula in complex arithmetic, 1 at 0. */
    static void sinc(double re, double im, double[] out) {
        if (re == 0 && im == 0) {
            out[0] = 1;
            out[1] = 0;
            return;
        }
        double pr = Math.PI * re, pi = Math.PI * im;
        ComplexMath.sin(pr, pi, out);
        ComplexMath.div(out[0], out[1], pr, pi, out);
    }

    /** {@code torch.sinc}: sin(πx)/(πx); integers promote to the default float dtype. */
    public static final OpDef SINC = Pointwise.unary(
                    "sinc(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    FLOATS,
                    new Fns.Unary(SpecialPointwiseOps::sinc, null, null, SpecialPointwiseOps::sinc, null))
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                // ATen's sinc_backward: g · conj(f'), f' = (πx cos πx − sin πx) / (πx²), and 0 where πx² is 0 (the
                // limit); the whole derivative is conjugated for complex x, as PyTorch 2.13 does
                Tensor x = (Tensor) a[0];
                Tensor xPi = x.mul(Math.PI), xSquaredPi = x.mul(x).mul(Math.PI);
                Tensor out =
                        g[0].mul(Grads.conj(xPi.mul(xPi.cos()).sub(xPi.sin()).div(xSquaredPi)));
                return new Tensor[] {TernaryOps.where(xSquaredPi.eq(0.0), 0.0, out)};
            })
            .deriveJvp(Jvps::elementwise);

    /**
     * {@code torch.i0}: the modified Bessel function of the first kind of order 0; complex input is refused under the
     * name of ATen's vectorised kernel, as PyTorch words it.
     */
    public static final OpDef I0 = Pointwise.checked(
                    Pointwise.unary(
                            "i0(Tensor self) -> Tensor",
                            Promotion.INT_TO_FLOAT,
                            REAL_FLOATS,
                            new Fns.Unary(Bessel::i0, null, null, null, null)),
                    args -> {
                        Tensor x = (Tensor) args[0];
                        if (x.isComplex())
                            throw new TorchException("\"i0_vml_cpu\" not implemented for '"
                                    + x.dtype().cppName() + "'");
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {g[0].mul(SpecialPointwiseOps.i1((Tensor) a[0]))})
            .deriveJvp(Jvps::elementwise);

    /** {@code torch.special.i1}: the modified Bessel function of the first kind of order 1, I₀'s derivative. */
    public static final OpDef SPECIAL_I1 = Pointwise.unary(
                    "special_i1(Tensor self) -> Tensor",
                    Promotion.INT_TO_FLOAT,
                    REAL_FLOATS,
                    new Fns.Unary(Bessel::i1, null, null, null, null))
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> {
                // ATen's i1_backward: I₀(x) − I₁(x)/x, whose limit 1/2 at 0 replaces the 0/0 near the origin; the
                // division reads a safe x so that no NaN reaches the gradient through the unselected branch
                Tensor x = (Tensor) a[0];
                double eps = Math.ulp(x.dtype() == DType.FLOAT64 ? 1.0 : 1.0f);
                Tensor notTiny = x.abs().gt(eps);
                Tensor safe = TernaryOps.where(notTiny, x, eps);
                Tensor dx = i0(safe).sub(o[0].mul(safe.reciprocal()));
                return new Tensor[] {g[0].mul(TernaryOps.where(notTiny, dx, 0.5))};
            })
            .deriveJvp(Jvps::elementwise);

    /** The Heaviside step: {@code values} where x is 0, else 1 for x > 0 and 0 below (and for NaN), as ATen. */
    private static final Fns.Binary HEAVISIDE_FN = new Fns.Binary(
            (x, v) -> x == 0 ? v : (x > 0 ? 1 : 0),
            (x, v) -> x == 0 ? v : (x > 0 ? 1 : 0),
            (x, v) -> x == 0 ? v : 1,
            null,
            null);

    /**
     * {@code torch.heaviside(input, values)}: both tensors of one dtype (ATen refuses mixed dtypes rather than
     * promoting) and not complex; the result has that dtype. Not differentiable, as in PyTorch.
     */
    public static final OpDef HEAVISIDE = Pointwise.checked(
                    Pointwise.binary(
                            "heaviside(Tensor self, Tensor values) -> Tensor", Promotion.DEFAULT, REAL, HEAVISIDE_FN),
                    args -> {
                        Tensor self = (Tensor) args[0], values = (Tensor) args[1];
                        if (self.isComplex() || values.isComplex())
                            throw new TorchException("heaviside is not yet implemented for complex tensors.");
                        if (self.dtype() != values.dtype())
                            throw new TorchException(
                                    "heaviside is not yet implemented for tensors with different dtypes.");
                    })
            .derivativeNotImplemented("heaviside: PyTorch defines no derivative (derivatives.yaml: not_implemented)");

    /** {@code torch.sinc(x)}. */
    public static Tensor sinc(Tensor x) {
        return SINC.call1(x);
    }

    /** {@code torch.i0(x)}. */
    public static Tensor i0(Tensor x) {
        return I0.call1(x);
    }

    /** {@code torch.special.i1(x)}. */
    public static Tensor i1(Tensor x) {
        return SPECIAL_I1.call1(x);
    }

    /** {@code torch.heaviside(x, values)}. */
    public static Tensor heaviside(Tensor x, Tensor values) {
        return HEAVISIDE.call1(x, values);
    }
}

package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Forward-mode AD: dual levels, make/unpack, propagation, nesting, in-place ops, and the errors of PyTorch. */
class ForwardADTest {
    private static Tensor f64(double... v) {
        return Torch.tensor(v);
    }

    @Test
    void sinOfADualGivesCosTimesTangent() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor x =
                    ForwardAD.makeDual(Torch.scalarTensor(0.5, DType.FLOAT64), Torch.scalarTensor(1.0, DType.FLOAT64));
            UnpackedDual d = ForwardAD.unpackDual(Torch.sin(x));
            assertEquals(0.4794255386, d.primal().item(), 1e-10); // spec §5
            assertEquals(0.8775825619, d.tangent().item(), 1e-10);
        }
    }

    @Test
    void cubeAndNestedLevelsGiveFirstAndSecondDerivatives() {
        try (DualLevel outer = ForwardAD.dualLevel()) {
            Tensor x =
                    ForwardAD.makeDual(Torch.scalarTensor(2.0, DType.FLOAT64), Torch.scalarTensor(1.0, DType.FLOAT64));
            try (DualLevel inner = ForwardAD.dualLevel()) {
                Tensor xx = ForwardAD.makeDual(
                        x, Torch.scalarTensor(1.0, DType.FLOAT64).add(0L), inner);
                Tensor y = xx.mul(xx).mul(xx);
                UnpackedDual in = ForwardAD.unpackDual(y, inner);
                assertEquals(8.0, in.primal().item(), 1e-12);
                assertEquals(12.0, in.tangent().item(), 1e-12); // 3x²
                // the inner tangent 3x²·1 carries its own outer tangent d(3x²)/dx = 6x = 12
                assertEquals(
                        12.0,
                        ForwardAD.unpackDual(in.tangent(), outer).tangent().item(),
                        1e-12);
                assertEquals(
                        12.0, ForwardAD.unpackDual(in.primal(), outer).tangent().item(), 1e-12);
            }
        }
    }

    @Test
    void tangentsDisappearWhenTheLevelCloses() {
        Tensor y;
        try (DualLevel _ = ForwardAD.dualLevel()) {
            y = ForwardAD.makeDual(f64(1, 2), f64(3, 4)).mul(2L);
            assertArrayEquals(
                    new double[] {6, 8}, ForwardAD.unpackDual(y).tangent().toDoubleArray(), 0);
        }
        assertNull(ForwardAD.unpackDual(y).tangent());
        try (DualLevel _ = ForwardAD.dualLevel()) {
            assertNull(ForwardAD.unpackDual(y).tangent());
        }
    }

    @Test
    void makeDualIsAViewAndTheTangentIsUsedAsIs() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor p = f64(1, 2), t = f64(3, 4);
            Tensor x = ForwardAD.makeDual(p, t);
            assertSame(p, x.viewBase());
            assertSame(t, ForwardAD.unpackDual(x).tangent());
            UnpackedDual u = ForwardAD.unpackDual(x);
            assertNull(ForwardAD.unpackDual(u.primal()).tangent());
            assertNull(ForwardAD.unpackDual(p).tangent());
            // a tangent laid out differently from the primal is copied into the primal's layout
            Tensor pt = Torch.tensor(new double[][] {{1, 2}, {3, 4}});
            Tensor tt = Torch.tensor(new double[][] {{5, 6}, {7, 8}}).t();
            Tensor d = ForwardAD.makeDual(pt, tt);
            Tensor dt = ForwardAD.unpackDual(d).tangent();
            assertNotSame(tt, dt);
            assertArrayEquals(pt.stride(), dt.stride());
            assertArrayEquals(new double[] {5, 7, 6, 8}, dt.toDoubleArray(), 0);
        }
    }

    @Test
    void inPlaceOpsUpdateTheTangentInPlaceAndViewsShareIt() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor x = ForwardAD.makeDual(f64(1, 2), f64(1, 1));
            Tensor y = f64(5, 6).clone();
            y.mul_(x); // y = [5, 12], tangent = 5·1, 6·1 (old y times x's tangent)
            assertArrayEquals(new double[] {5, 12}, y.toDoubleArray(), 0);
            assertArrayEquals(
                    new double[] {5, 6}, ForwardAD.unpackDual(y).tangent().toDoubleArray(), 0);
            Tensor yt = ForwardAD.unpackDual(y).tangent();
            y.mul_(x); // tangent: 5·1 + 5·1 = 10 (old y = 5), 6·2 + 12·1 = 24
            assertSame(yt, ForwardAD.unpackDual(y).tangent());
            assertArrayEquals(new double[] {10, 24}, yt.toDoubleArray(), 0);
            // writing a dual into a view of a plain tensor makes the base dual (PyTorch: zeros outside the view)
            Tensor b = Torch.zeros(4).to(DType.FLOAT64);
            b.narrow(0, 1, 2).copy_(x);
            assertArrayEquals(
                    new double[] {0, 1, 1, 0}, ForwardAD.unpackDual(b).tangent().toDoubleArray(), 0);
            // overwriting a dual with a plain tensor zeroes its tangent
            y.copy_(f64(0, 0));
            assertArrayEquals(
                    new double[] {0, 0}, ForwardAD.unpackDual(y).tangent().toDoubleArray(), 0);
        }
    }

    @Test
    void viewTangentsAreViewsOfTheBaseTangent() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor x = ForwardAD.makeDual(f64(1, 2, 3, 4).clone(), f64(1, 1, 1, 1));
            Tensor v = x.view(2, 2).select(0, 1);
            Tensor vt = ForwardAD.unpackDual(v).tangent();
            assertSame(
                    ForwardAD.unpackDual(x).tangent().impl().storage(),
                    vt.impl().storage());
            assertEquals(2, vt.storageOffset());
        }
    }

    @Test
    void opsWithIntegerOutputsCarryNoTangent() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor x = ForwardAD.makeDual(f64(1, 3, 2), f64(1, 1, 1));
            assertNull(ForwardAD.unpackDual(x.argmax()).tangent());
            assertNull(ForwardAD.unpackDual(x.gt(1L)).tangent());
        }
    }

    @Test
    void forwardOverReverseGivesAHessianVectorProduct() {
        // f(x) = sum(x³): grad = 3x², Hessian·v = 6x·v
        Tensor x0 = f64(1, 2).requiresGrad(true);
        try (DualLevel _ = ForwardAD.dualLevel()) {
            Tensor x = ForwardAD.makeDual(x0, f64(1, 10));
            Tensor g = Autograd.grad(
                            List.of(x.pow(3L).sum()),
                            List.of(x),
                            Autograd.GradOptions.defaults().createGraph(true))
                    .get(0);
            assertArrayEquals(new double[] {3, 12}, g.detach().toDoubleArray(), 1e-12);
            assertArrayEquals(
                    new double[] {6, 120}, ForwardAD.unpackDual(g).tangent().toDoubleArray(), 1e-12);
        }
    }

    @Test
    void errorsAreThoseOfPyTorch() {
        TorchException noLevel = assertThrows(TorchException.class, () -> ForwardAD.makeDual(f64(1), f64(1)));
        assertTrue(noLevel.getMessage().contains("no level exists, make sure to enter_dual_level() first"));
        try (DualLevel _ = ForwardAD.dualLevel()) {
            TorchException size = assertThrows(TorchException.class, () -> ForwardAD.makeDual(f64(1, 2), f64(1, 2, 3)));
            assertTrue(
                    size.getMessage().contains("Tensor is of size [2] while the given forward gradient is of size [3]"),
                    size.getMessage());
            IllegalArgumentException intPrimal = assertThrows(
                    IllegalArgumentException.class, () -> ForwardAD.makeDual(Torch.tensor(new long[] {1}), f64(1)));
            assertTrue(intPrimal
                    .getMessage()
                    .contains("Expected primal to be floating point or complex, but got: torch.int64"));
            IllegalArgumentException intTangent = assertThrows(
                    IllegalArgumentException.class, () -> ForwardAD.makeDual(f64(1), Torch.tensor(new long[] {1})));
            assertTrue(intTangent
                    .getMessage()
                    .contains("Expected tangent to be floating point or complex, but got: torch.int64"));
            Tensor x = ForwardAD.makeDual(f64(1), f64(1));
            TorchException twice = assertThrows(TorchException.class, () -> ForwardAD.makeDual(x, f64(1)));
            assertTrue(twice.getMessage().contains("already has a forward gradient at the same level 0"));
            TorchException dtype =
                    assertThrows(TorchException.class, () -> ForwardAD.makeDual(f64(1), Torch.tensor(new float[] {1})));
            assertTrue(dtype.getMessage().contains("make_dual"));
        }
    }

    /** exp with a hand-written backward and jvp; records whether forward saw a tangent. */
    static final class ExpWithJvp extends Function {
        boolean forwardSawTangent;

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor x = (Tensor) args[0];
            forwardSawTangent = ForwardAD.unpackDual(x).tangent() != null;
            Tensor y = x.exp();
            ctx.saveForBackward(y);
            return new Tensor[] {y};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(ctx.savedTensors()[0])};
        }

        @Override
        protected Tensor[] jvp(Ctx ctx, Tensor... tangents) {
            return new Tensor[] {tangents[0].mul(ctx.savedTensors()[0])};
        }
    }

    @Test
    void customFunctionsUseTheirJvpAndForwardSeesPlainValues() {
        try (DualLevel _ = ForwardAD.dualLevel()) {
            ExpWithJvp fn = new ExpWithJvp();
            Tensor y = fn.apply(ForwardAD.makeDual(f64(0, 1), f64(2, 3)));
            assertEquals(false, fn.forwardSawTangent);
            assertArrayEquals(
                    new double[] {2, 3 * Math.E},
                    ForwardAD.unpackDual(y).tangent().toDoubleArray(),
                    1e-12);
            // without a jvp: PyTorch's error; without dual inputs: no jvp needed
            Function noJvp = new Function() {
                @Override
                protected Tensor[] forward(Ctx ctx, Object... args) {
                    return new Tensor[] {((Tensor) args[0]).mul(2L)};
                }

                @Override
                protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                    return new Tensor[] {grads[0].mul(2L)};
                }
            };
            assertArrayEquals(new double[] {2}, noJvp.apply(f64(1)).toDoubleArray(), 0);
            TorchException e =
                    assertThrows(TorchException.class, () -> noJvp.apply(ForwardAD.makeDual(f64(1), f64(1))));
            assertTrue(e.getMessage()
                    .contains("You must implement the jvp function for custom autograd.Function to "
                            + "use it with forward mode AD."));
        }
    }
}

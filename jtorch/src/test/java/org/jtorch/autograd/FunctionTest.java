package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Custom autograd functions: forward/backward wiring, the context, higher order and PyTorch's errors. */
class FunctionTest {
    private static Tensor leaf(double... v) {
        return Torch.tensor(v).requiresGrad(true);
    }

    /** exp with its output saved: backward reads the output, so double backward goes through this node again. */
    static final class MyExp extends Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor y = ((Tensor) args[0]).exp();
            ctx.saveForBackward(y);
            return new Tensor[] {y};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(ctx.savedTensors()[0])};
        }
    }

    /** {@code alpha * a * b} with a non-tensor argument. */
    static final class ScaledMul extends Function {
        final List<Boolean> needsSeen = new ArrayList<>();

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor a = (Tensor) args[0], b = (Tensor) args[1];
            double alpha = (Double) args[2];
            ctx.saveForBackward(a, b);
            ctx.put("alpha", alpha);
            return new Tensor[] {a.mul(b).mul(alpha)};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor[] s = ctx.savedTensors();
            double alpha = ctx.get("alpha");
            needsSeen.add(ctx.needsInputGrad(0));
            needsSeen.add(ctx.needsInputGrad(1));
            needsSeen.add(ctx.needsInputGrad(2));
            return new Tensor[] {
                ctx.needsInputGrad(0) ? grads[0].mul(s[1]).mul(alpha) : null,
                ctx.needsInputGrad(1) ? grads[0].mul(s[0]).mul(alpha) : null,
                null
            };
        }
    }

    @Test
    void valuesGradientsAndNodeName() {
        Tensor x = leaf(0.5, -1.0, 2.0);
        Tensor y = new MyExp().apply(x);
        assertEquals("MyExpBackward", y.gradFn().name());
        assertArrayEquals(new double[] {Math.exp(0.5), Math.exp(-1.0), Math.exp(2.0)}, y.toDoubleArray(), 1e-15);
        Function.apply(new MyExp(), x).sum().backward();
        assertArrayEquals(
                new double[] {Math.exp(0.5), Math.exp(-1.0), Math.exp(2.0)},
                x.grad().toDoubleArray(),
                1e-15);
        assertTrue(Autograd.gradcheck(t -> new MyExp().apply(t.mul(0.5)).sin(), leaf(0.3, -1.2, 0.8)));
    }

    @Test
    void doubleBackwardThroughACustomFunction() {
        Tensor x = Torch.scalarTensor(0.7, DType.FLOAT64).requiresGrad(true);
        Tensor y = new MyExp().apply(x.mul(2.0)); // e^{2x}
        Tensor dy = Autograd.grad(y, x, true); // 2 e^{2x}
        Tensor d2y = Autograd.grad(dy, x, false); // 4 e^{2x}
        assertEquals(2 * Math.exp(1.4), dy.item(), 1e-12);
        assertEquals(4 * Math.exp(1.4), d2y.item(), 1e-12);
        assertTrue(Autograd.gradgradcheck(t -> new MyExp().apply(t).mul(t).sum(), leaf(0.3, -1.2, 0.8)));
    }

    @Test
    void nonTensorArgumentsAndNeedsInputGrad() {
        Tensor a = leaf(1, 2), b = leaf(3, -4);
        assertTrue(GradCheck.check(
                xs -> new ScaledMul().apply(xs.get(0), xs.get(1), 1.5), List.of(a, b), GradCheck.Options.defaults()));
        ScaledMul fn = new ScaledMul();
        Tensor c = Torch.tensor(new double[] {5, 6}); // needs no gradient
        fn.apply(a, c, 2.0).sum().backward();
        assertArrayEquals(new double[] {10, 12}, a.grad().toDoubleArray(), 0);
        assertEquals(List.of(true, false, false), fn.needsSeen);
    }

    @Test
    void wrongNumberOfGradientsIsRefused() {
        class BadCount extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {((Tensor) args[0]).add((Tensor) args[1])};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0]};
            }
        }
        Tensor x = leaf(1, 2), z = leaf(3, 4);
        TorchException e = assertThrows(
                TorchException.class, () -> new BadCount().apply(x, z).sum().backward());
        assertEquals(
                "function BadCountBackward returned an incorrect number of gradients (expected 2, got 1)",
                e.getMessage());

        class ExtraNones extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {((Tensor) args[0]).mul(3.0)};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0].mul(3.0), null, null};
            }
        }
        Tensor w = leaf(1, 2);
        new ExtraNones().apply(w).sum().backward(); // trailing nulls are dropped, as PyTorch drops trailing Nones
        assertArrayEquals(new double[] {3, 3}, w.grad().toDoubleArray(), 0);
    }

    @Test
    void wrongShapeAndGradientForANonTensorAreRefused() {
        class BadShape extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {((Tensor) args[0]).mul(2.0)};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {Torch.ones(new long[] {3}, DType.FLOAT64), null};
            }
        }
        TorchException shape = assertThrows(
                TorchException.class,
                () -> new BadShape().apply(leaf(1, 2), 7L).sum().backward());
        assertEquals(
                "Function BadShapeBackward returned an invalid gradient at index 0 - got [3] but expected "
                        + "shape compatible with [2]",
                shape.getMessage());

        class GradForScalar extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {((Tensor) args[0]).mul(2.0)};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0].mul(2.0), grads[0]};
            }
        }
        TorchException scalar = assertThrows(
                TorchException.class,
                () -> new GradForScalar().apply(leaf(1, 2), 7L).sum().backward());
        assertEquals(
                "function GradForScalarBackward returned a gradient different than None at position 2, "
                        + "but the corresponding "
                        + "forward input was not a Variable",
                scalar.getMessage());
    }

    /** x³ with a backward that is not differentiable again. */
    static final class OnceCube extends Function.OnceDifferentiable {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor x = (Tensor) args[0];
            ctx.saveForBackward(x);
            return new Tensor[] {x.mul(x).mul(x)};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor x = ctx.savedTensors()[0];
            assertFalse(Torch.isGradEnabled()); // once-differentiable backward runs under no_grad
            return new Tensor[] {grads[0].mul(x.mul(x)).mul(3.0)};
        }
    }

    @Test
    void onceDifferentiableRefusesDoubleBackward() {
        Tensor x = leaf(1.5, -2.0);
        Tensor g = Autograd.grad(new OnceCube().apply(x).sum(), x, false);
        assertArrayEquals(new double[] {3 * 2.25, 3 * 4.0}, g.toDoubleArray(), 1e-12);

        // The incoming gradient 2y requires grad under createGraph, so the result is marked and a second backward
        // raises.
        Tensor y = new OnceCube().apply(x);
        Tensor first = Autograd.grad(y.square().sum(), x, true);
        assertArrayEquals(
                new double[] {2 * Math.pow(1.5, 3) * 3 * 2.25, 2 * -8.0 * 3 * 4.0}, first.toDoubleArray(), 1e-12);
        TorchException e = assertThrows(TorchException.class, () -> first.sum().backward());
        assertEquals(
                "trying to differentiate twice a function that was marked with @once_differentiable", e.getMessage());
        // As in PyTorch, the marking node does not lead back to x, so grad(first, x) finds x unused instead.
        TorchException unused = assertThrows(TorchException.class, () -> Autograd.grad(first.sum(), x, false));
        assertTrue(unused.getMessage().startsWith("One of the differentiated Tensors appears to not have been used"));
    }

    /** Doubles its input in place. */
    static final class DoubleInPlace extends Function {
        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor x = (Tensor) args[0];
            x.mul_(2.0);
            ctx.markDirty(x);
            return new Tensor[] {x};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(2.0)};
        }
    }

    @Test
    void markDirtyRewritesTheInputsHistory() {
        Tensor a = leaf(1, 2, 3);
        Tensor h = a.mul(3.0);
        int before = h.version();
        Tensor out = new DoubleInPlace().apply(h);
        assertSame(h, out); // the modified input is returned as is, with the function as its history
        assertEquals("DoubleInPlaceBackward", h.gradFn().name());
        assertTrue(h.version() > before);
        assertArrayEquals(new double[] {6, 12, 18}, h.toDoubleArray(), 0);
        h.sum().backward();
        assertArrayEquals(new double[] {6, 6, 6}, a.grad().toDoubleArray(), 0);

        TorchException leafError = assertThrows(TorchException.class, () -> new DoubleInPlace().apply(leaf(1, 2)));
        assertEquals(
                "a leaf Variable that requires grad has been used in an in-place operation.", leafError.getMessage());

        class DirtyNotReturned extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                Tensor x = (Tensor) args[0];
                x.add_(1.0);
                ctx.markDirty(x);
                return new Tensor[] {x.mul(2.0)};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0]};
            }
        }
        TorchException notReturned = assertThrows(TorchException.class, () -> new DirtyNotReturned()
                .apply(leaf(1, 2).mul(1.0)));
        assertTrue(notReturned
                .getMessage()
                .startsWith("Some elements marked as dirty during the forward method were not returned"));
    }

    /** Returns {@code 2x} and a mask; the mask is not differentiable. Records what backward received. */
    static final class WithMask extends Function {
        final boolean materialize;
        Tensor[] received;

        WithMask(boolean materialize) {
            this.materialize = materialize;
        }

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor x = (Tensor) args[0];
            Tensor mask = x.gt(0.0).to(DType.FLOAT64);
            ctx.markNonDifferentiable(mask);
            ctx.setMaterializeGrads(materialize);
            return new Tensor[] {x.mul(2.0), mask};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            received = grads.clone();
            return new Tensor[] {grads[0] == null ? null : grads[0].mul(2.0)};
        }
    }

    @Test
    void nonDifferentiableOutputsAndMaterializeGrads() {
        Tensor x = leaf(1, -2);
        WithMask fn = new WithMask(true);
        Tensor[] outs = fn.applyAll(x);
        assertTrue(outs[0].requiresGrad());
        assertFalse(outs[1].requiresGrad());
        assertArrayEquals(new double[] {1, 0}, outs[1].toDoubleArray(), 0);
        outs[0].sum().backward();
        assertArrayEquals(new double[] {2, 2}, x.grad().toDoubleArray(), 0);
        assertArrayEquals(new double[] {0, 0}, fn.received[1].toDoubleArray(), 0); // materialised zeros

        WithMask lazy = new WithMask(false);
        lazy.applyAll(x)[0].sum().backward();
        assertNull(lazy.received[1]);
        assertArrayEquals(new double[] {4, 4}, x.grad().toDoubleArray(), 0);
    }

    @Test
    void savedTensorsAreChecked() {
        Tensor a = leaf(0.1, 0.2);
        Tensor h = a.mul(1.0);
        Tensor y = new ScaledMul().apply(h, h, 1.0);
        h.add_(1.0); // saved by the function, then modified
        TorchException modified =
                assertThrows(TorchException.class, () -> y.sum().backward());
        assertTrue(modified.getMessage().contains("modified by an inplace operation"));
        assertTrue(modified.getMessage().contains("ScaledMulBackward"));

        Tensor z = new MyExp().apply(leaf(0.5)).sum();
        z.backward();
        TorchException twice = assertThrows(TorchException.class, z::backward);
        assertTrue(twice.getMessage().startsWith("Trying to backward through the graph a second time"));
    }

    @Test
    void inputsReturnedAsIsAndNoGradMode() {
        class Identity extends Function {
            @Override
            protected Tensor[] forward(Ctx ctx, Object... args) {
                return new Tensor[] {(Tensor) args[0]};
            }

            @Override
            protected Tensor[] backward(Ctx ctx, Tensor... grads) {
                return new Tensor[] {grads[0].mul(5.0)};
            }
        }
        Tensor x = leaf(1, 2);
        Tensor y = new Identity().apply(x);
        assertNotSame(x, y); // an alias carries the new history; the input stays a leaf
        assertTrue(x.isLeaf());
        assertEquals("IdentityBackward", y.gradFn().name());
        y.sum().backward();
        assertArrayEquals(new double[] {5, 5}, x.grad().toDoubleArray(), 0);

        try (var _ = Torch.noGrad()) {
            Tensor e = new MyExp().apply(x);
            assertNull(e.gradFn());
            assertFalse(e.requiresGrad());
        }
        Tensor plain = new MyExp().apply(Torch.tensor(new double[] {0.0}));
        assertFalse(plain.requiresGrad());
        assertEquals(1.0, plain.item(), 0);
    }

    @Test
    void jvpSlotRefusesUntilImplemented() {
        TorchException e = assertThrows(TorchException.class, () -> new MyExp().jvp(null, leaf(1)));
        assertTrue(e.getMessage().startsWith("You must implement the jvp function"));
    }

    /** exp that counts the times the graph freed its saved tensors. */
    static final class CountingExp extends Function {
        int released;

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            Tensor y = ((Tensor) args[0]).exp();
            ctx.saveForBackward(y);
            ctx.onRelease(() -> released++);
            return new Tensor[] {y};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            return new Tensor[] {grads[0].mul(ctx.savedTensors()[0])};
        }
    }

    @Test
    void onReleaseRunsOnceWhenTheGraphIsFreedNotWhileRetained() {
        CountingExp fn = new CountingExp();
        Tensor x = leaf(0.5, 1.0);
        Tensor loss = fn.apply(x).sum();
        loss.backward(null, true, false);
        assertEquals(0, fn.released, "a retained graph keeps the saved tensors");
        loss.backward();
        assertEquals(1, fn.released);
        assertArrayEquals(
                new double[] {2 * Math.exp(0.5), 2 * Math.exp(1.0)}, x.grad().toDoubleArray(), 1e-12);
        assertThrows(RuntimeException.class, loss::backward, "the saved tensors are gone");
        assertEquals(1, fn.released);
    }
}

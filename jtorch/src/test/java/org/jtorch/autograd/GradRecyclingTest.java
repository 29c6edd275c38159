package org.jtorch.autograd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.storage.ArrayPool;
import org.jtorch.storage.Storage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The backward pass hands gradient buffers it has finished with to {@link ArrayPool} ({@link GradRecycler}). Every
 * gradient here is checked against its closed form, after more work has run that takes the freed arrays, and tensors
 * that reached code outside the built-in rules (hooks, {@code .grad}, {@code Autograd.grad}, custom functions) must
 * keep their values.
 */
class GradRecyclingTest {
    /** Elements per tensor: 128 KiB of float32, above the pool's lower size limit. */
    private static final int N = 32_768;

    @AfterEach
    void restoreCapacity() {
        ArrayPool.setCapacity(256L << 20);
    }

    private static Tensor leaf() {
        double[] v = new double[N];
        for (int i = 0; i < N; i++) v[i] = Math.sin(0.37 * i) * 2;
        return Torch.tensor(v).to(DType.FLOAT32).requiresGrad(true);
    }

    /**
     * {@code a = 2x; [p0, p1] = split(cat(a, 3a)); loss = Σ p0·p1 + Σ a = Σ 12x² + 2x}: cat's backward hands views of
     * one buffer to two nodes, add's passes its gradient through.
     */
    private static Tensor loss(Tensor x) {
        Tensor a = x.mul(2.0);
        List<Tensor> parts = Torch.cat(List.of(a, a.mul(3.0))).split(N);
        return parts.get(0).mul(parts.get(1)).sum().add(a.sum());
    }

    private static void assertClosedForm(Tensor x, Tensor grad) {
        double[] xs = x.detach().toDoubleArray(), g = grad.toDoubleArray();
        for (int i = 0; i < N; i++) {
            double want = 24 * (float) xs[i] + 2;
            assertEquals(want, g[i], 1e-5 * Math.max(1, Math.abs(want)), "element " + i);
        }
    }

    /** More work of the same sizes, forward and backward, which takes whatever arrays the pool holds. */
    private static void churn() {
        for (int k = 0; k < 3; k++) loss(leaf()).backward();
    }

    @Test
    void gradientsKeepTheirClosedFormWhileBuffersAreReused() {
        churn();
        long recycled = ArrayPool.recycledCount(), reused = ArrayPool.reusedCount();
        Tensor x = leaf();
        loss(x).backward();
        assertTrue(ArrayPool.recycledCount() > recycled, "the pass freed no gradient buffer");
        churn();
        assertTrue(ArrayPool.reusedCount() > reused, "no output took a freed buffer");
        assertClosedForm(x, x.grad());
    }

    @Test
    void theSameBitsAsWithoutRecycling() {
        Tensor x = leaf();
        loss(x).backward();
        churn();
        ArrayPool.setCapacity(0);
        Tensor y = leaf();
        loss(y).backward();
        assertArrayEquals(y.grad().toDoubleArray(), x.grad().toDoubleArray());
    }

    @Test
    void tensorsSeenByHooksKeepTheirValues() {
        Tensor x = leaf();
        Tensor a = x.mul(2.0);
        Tensor b = a.exp().mul(0.0).add(a.mul(a)); // Σ b = Σ 4x²: b's gradient is ones, a's 2a
        List<Tensor> seen = new ArrayList<>();
        a.registerHook(g -> {
            seen.add(g);
            return null;
        });
        b.retainGrad();
        b.sum().backward();
        churn();
        double[] xs = x.detach().toDoubleArray(),
                ga = seen.get(0).toDoubleArray(),
                gb = b.grad().toDoubleArray();
        for (int i = 0; i < N; i++) {
            assertEquals(4 * (float) xs[i], ga[i], 1e-5 * Math.max(1, Math.abs(4 * xs[i])), "hooked at " + i);
            assertEquals(1.0, gb[i], 0, "retained at " + i);
        }
    }

    @Test
    void autogradGradResultsKeepTheirValues() {
        Tensor x = leaf();
        Tensor grad = Autograd.grad(loss(x), x, false);
        churn();
        assertClosedForm(x, grad);
    }

    /** Keeps the gradient it is given and returns it doubled: both must survive the pass. */
    static final class Stash extends Function {
        final List<Tensor> kept = new ArrayList<>();

        @Override
        protected Tensor[] forward(Ctx ctx, Object... args) {
            return new Tensor[] {((Tensor) args[0]).mul(1.0)};
        }

        @Override
        protected Tensor[] backward(Ctx ctx, Tensor... grads) {
            Tensor out = grads[0].mul(2.0);
            kept.add(grads[0]);
            kept.add(out);
            return new Tensor[] {out};
        }
    }

    @Test
    void aCustomFunctionsGradientsKeepTheirValues() {
        Tensor x = leaf();
        Stash stash = new Stash();
        Tensor h = stash.apply(x.mul(3.0)).mul(x.detach()); // Σ h: the stash sees x, returns 2x, x gets 6x
        h.sum().backward();
        churn();
        double[] xs = x.detach().toDoubleArray(),
                seen = stash.kept.get(0).toDoubleArray(),
                passed = stash.kept.get(1).toDoubleArray(),
                g = x.grad().toDoubleArray();
        for (int i = 0; i < N; i++) {
            float xi = (float) xs[i];
            assertEquals(xi, seen[i], 0, "given at " + i);
            assertEquals(2 * xi, passed[i], 0, "returned at " + i);
            assertEquals(6 * xi, g[i], 1e-5 * Math.max(1, Math.abs(6 * xi)), "leaf at " + i);
        }
    }

    @Test
    void createGraphFreesNothing() {
        Tensor x = leaf();
        long recycled = ArrayPool.recycledCount();
        Tensor grad = Autograd.grad(loss(x), x, true); // 24x + 2, itself differentiable
        assertEquals(recycled, ArrayPool.recycledCount(), "a createGraph pass freed a buffer");
        Tensor second = Autograd.grad(grad.sum(), x, false);
        churn();
        assertClosedForm(x, grad);
        double[] g2 = second.toDoubleArray();
        for (int i = 0; i < N; i++) assertEquals(24.0, g2[i], 1e-4, "second derivative at " + i);
    }

    @Test
    void aRecycledStorageCannotBeReadThroughItsOldTensors() {
        Storage s = Storage.allocateUninitialized(DType.StorageKind.FLOAT, N);
        assertTrue(ArrayPool.recycle(s, "freed for the test"));
        TorchException e = assertThrows(TorchException.class, s::floats);
        assertEquals("freed for the test", e.getMessage());
        Storage small = Storage.allocateUninitialized(DType.StorageKind.FLOAT, 16);
        assertTrue(!ArrayPool.recycle(small, "too small to keep"));
        small.floats(); // still readable: not taken
    }
}

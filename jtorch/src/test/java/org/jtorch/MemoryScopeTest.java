package org.jtorch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.jtorch.storage.ArrayPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemoryScope}: memory allocated in a scope serves the next scope's op outputs, kept tensors survive with their
 * values, and any other tensor of a closed scope raises when read instead of showing reused memory. Values are checked
 * against closed forms computed here in double precision.
 */
class MemoryScopeTest {
    /** Elements per tensor: 128 KiB of float32, above the pool's lower size limit. */
    private static final int N = 32_768;

    @AfterEach
    void restoreCapacity() {
        ArrayPool.setCapacity(256L << 20);
    }

    private static double x(int i) {
        return Math.sin(0.37 * i) * 2;
    }

    private static Tensor input() {
        double[] v = new double[N];
        for (int i = 0; i < N; i++) v[i] = x(i);
        return Torch.tensor(v).to(DType.FLOAT32);
    }

    /** {@code 3 (2x + 1)² - x} through three large intermediates. */
    private static Tensor f(Tensor x) {
        Tensor u = x.mul(2.0).add(1.0);
        return u.mul(u).mul(3.0).sub(x);
    }

    private static void assertClosedForm(Tensor y) {
        double[] got = y.toDoubleArray();
        assertEquals(N, got.length);
        for (int i = 0; i < N; i++) {
            double xi = (float) x(i), u = 2 * xi + 1, want = 3 * u * u - xi;
            assertEquals(want, got[i], 1e-5 * Math.max(1, Math.abs(want)), "element " + i);
        }
    }

    /** What {@code body} returns, computed in a scope that does not keep it. */
    private static Tensor notKept(Supplier<Tensor> body) {
        MemoryScope scope = MemoryScope.open();
        try {
            return body.get();
        } finally {
            scope.close();
        }
    }

    @Test
    void keptResultSurvivesAndTheNextScopeReusesTheIntermediatesMemory() {
        Tensor x = input();
        AtomicReference<Object> intermediate = new AtomicReference<>();
        Tensor first;
        try (MemoryScope scope = MemoryScope.open()) {
            Tensor u = x.mul(2.0);
            intermediate.set(u.impl().storage().array());
            first = scope.keep(f(x));
        }
        assertClosedForm(first);
        Tensor second;
        boolean reused = false;
        try (MemoryScope scope = MemoryScope.open()) {
            // the first scope's arrays of this length are free again: the outputs here take them
            for (int k = 0; k < 8 && !reused; k++) {
                reused = x.mul(k + 1.0).impl().storage().array() == intermediate.get();
            }
            second = scope.keep(f(x));
        }
        assertTrue(reused, "an output of the second scope reuses the first scope's freed array");
        assertClosedForm(second);
        assertClosedForm(first); // the kept result's memory was not handed out
        assertNotSame(first.impl().storage().array(), second.impl().storage().array());
    }

    @Test
    void readingATensorOfAClosedScopeRaises() {
        Tensor x = input();
        Tensor leaked = notKept(() -> f(x));
        TorchException e = assertThrows(TorchException.class, leaked::toDoubleArray);
        assertTrue(e.getMessage().contains("MemoryScope"), e.getMessage());
        // the input, allocated before the scope, is untouched
        assertEquals(x(5), x.toDoubleArray()[5], 1e-6);
    }

    @Test
    void keepingAViewKeepsItsBase() {
        Tensor x = input();
        Tensor half;
        try (MemoryScope scope = MemoryScope.open()) {
            half = scope.keep(f(x).narrow(0, N / 2, N / 2));
        }
        double[] got = half.toDoubleArray();
        double xi = (float) x(N / 2 + 7), u = 2 * xi + 1;
        assertEquals(3 * u * u - xi, got[7], 1e-4);
    }

    @Test
    void innerScopesKeepIntoTheOuterOne() {
        Tensor x = input();
        Tensor inner;
        Tensor outer;
        try (MemoryScope out = MemoryScope.open()) {
            try (MemoryScope in = MemoryScope.open()) {
                inner = in.keep(f(x));
            }
            assertClosedForm(inner); // kept by the inner scope: alive until the outer one closes
            outer = out.keep(f(x));
        }
        assertClosedForm(outer);
        assertThrows(TorchException.class, inner::toDoubleArray);
    }

    @Test
    void smallTensorsAreNotTracked() {
        Tensor small = notKept(() -> Torch.arange(100).mul(2));
        assertEquals(198, small.toLongArray()[99]);
    }

    @Test
    void withoutPoolingAClosedScopeStillRefusesReads() {
        ArrayPool.setCapacity(0);
        Tensor leaked = notKept(() -> f(input()));
        assertThrows(TorchException.class, leaked::toDoubleArray);
    }

    @Test
    void scopesCloseInnermostFirstOnTheirOwnThread() throws Exception {
        MemoryScope outer = MemoryScope.open();
        MemoryScope inner = MemoryScope.open();
        TorchException e = assertThrows(TorchException.class, outer::close);
        assertTrue(e.getMessage().contains("MemoryScope.close()"), e.getMessage());
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                inner.close();
            } catch (Throwable ex) {
                other.set(ex);
            }
        });
        t.join();
        assertTrue(other.get() instanceof TorchException, String.valueOf(other.get()));
        inner.close();
        outer.close();
    }

    @Test
    void moduleStateRegisteredInAScopeIsKept() {
        org.jtorch.nn.Linear layer = new org.jtorch.nn.Linear(1, 1);
        double[] before;
        MemoryScope scope = MemoryScope.open();
        try {
            layer = new org.jtorch.nn.Linear(256, 128); // a 128 KiB weight, registered while the scope is open
            before = layer.weight().detach().toDoubleArray();
            f(input()); // garbage of the scope, freed at close
        } finally {
            scope.close();
        }
        assertEquals(before.length, layer.weight().detach().toDoubleArray().length);
        assertEquals(before[4242], layer.weight().detach().toDoubleArray()[4242]);
    }

    /** A backward pass in a scope frees its own buffers as it goes; closing the scope after it skips those. */
    @Test
    void aKeptGradientOfABackwardPassInAScopeSurvives() {
        Tensor x = input().requiresGrad(true);
        Tensor grad;
        try (MemoryScope scope = MemoryScope.open()) {
            f(x).sum().backward();
            grad = scope.keep(x.grad());
        }
        double[] got = grad.toDoubleArray();
        for (int i = 0; i < N; i += 97) {
            double xi = (float) x(i), want = 12 * (2 * xi + 1) - 1;
            assertEquals(want, got[i], 1e-4 * Math.max(1, Math.abs(want)), "element " + i);
        }
    }

    /**
     * A compiled plan's arena outlives the calls that fill it: scopes around the calls never take it. {@code g(x) = 3 ·
     * relu(2x + 1)[256, 128] · ones[128, 4]} (a fused kernel into an arena buffer, read by an extern matrix product).
     */
    @Test
    void aCompiledFunctionKeepsItsArenaAcrossScopes() {
        Tensor ones = Torch.ones(128, 4);
        java.util.function.Function<Tensor, Tensor> g = Torch.compile(
                x -> x.mul(2.0).add(1.0).relu().view(256, 128).matmul(ones).mul(3.0));
        Tensor x = input();
        double[] xs = x.toDoubleArray();
        for (int call = 0; call < 3; call++) {
            double[] got;
            try (MemoryScope scope = MemoryScope.open()) {
                got = scope.keep(g.apply(x)).toDoubleArray();
            }
            for (int row = 0; row < 256; row += 17) {
                double want = 0;
                for (int j = 0; j < 128; j++) want += Math.max(0, 2 * (float) xs[row * 128 + j] + 1);
                assertEquals(3 * want, got[row * 4 + 3], 1e-4 * Math.max(1, want), "call " + call + " row " + row);
            }
        }
    }
}

package org.jtorch.compile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.BiFunction;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.fx.AotAutograd;
import org.jtorch.fx.AotFunction;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.SavePolicy;
import org.jtorch.storage.ArrayPool;
import org.jtorch.storage.UninitializedArrays;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compiled function's values saved for backward go to the array pool when the graph frees them, and the next calls'
 * outputs take that memory. Every gradient is checked against its closed form after later steps have reused the memory,
 * and saved values the caller can still reach (an output, a gradient, a retained graph) keep theirs.
 */
class CompiledSavedActivationsTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    /** A (rows × inner) float32 matrix of varied values; its product with another is 128 KiB. */
    private static Tensor matrix(long rows, long cols, double phase) {
        double[] v = new double[Math.toIntExact(rows * cols)];
        for (int i = 0; i < v.length; i++) v[i] = 0.1 * Math.sin(0.37 * i + phase);
        return Torch.tensor(v).to(DType.FLOAT32).view(rows, cols).requiresGrad(true);
    }

    /**
     * {@code L = Σ tanh(A·B)}: {@code dL/dA = (1 - tanh²(A·B))·Bᵀ}, {@code dL/dB = Aᵀ·(1 - tanh²(A·B))}, evaluated
     * eagerly in float64. The compiled forward saves the product (or its tanh) for backward: a matrix product is not
     * recomputed.
     */
    private static void assertClosedFormOfTanhProduct(Tensor a, Tensor b) {
        Tensor a64 = a.detach().to(DType.FLOAT64), b64 = b.detach().to(DType.FLOAT64);
        Tensor t = a64.mm(b64).tanh();
        Tensor dt = t.mul(t).neg().add(1.0);
        assertClose(dt.mm(b64.t()), a.grad(), "grad A");
        assertClose(a64.t().mm(dt), b.grad(), "grad B");
    }

    private static void assertClose(Tensor expected, Tensor actual, String what) {
        double[] e = expected.toDoubleArray(), g = actual.toDoubleArray();
        assertEquals(e.length, g.length, what);
        for (int i = 0; i < e.length; i++)
            assertEquals(e[i], g[i], 1e-5 * Math.max(1, Math.abs(e[i])), what + " at " + i);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aot_eager", "inductor"})
    void trainingStepsKeepTheirClosedFormWhileSavedMemoryIsReused(String backend) {
        BiFunction<Tensor, Tensor, Tensor> f = Torch.compile(
                (a, b) -> a.mm(b).tanh().sum(), CompileOptions.defaults().backend(backend));
        long recycled = ArrayPool.recycledCount(), reused = ArrayPool.reusedCount();
        for (int step = 0; step < 4; step++) {
            Tensor a = matrix(128, 256, step), b = matrix(256, 256, 10 + step);
            f.apply(a, b).backward();
            assertClosedFormOfTanhProduct(a, b);
        }
        assertTrue(ArrayPool.recycledCount() > recycled, "no saved value went back to the pool");
        assertTrue(ArrayPool.reusedCount() > reused, "no output took the memory of a saved value");
    }

    /**
     * With the poison fill on, every output storage that is not zeroed starts as NaN: the compiled step's kernels and
     * extern calls (including the slice gradients of {@code split}, written as masked expressions) must write every
     * element of their outputs. {@code L = Σ tanh(P₀)·P₁} with {@code [P₀, P₁] = split(A·B, 128, 1)}.
     */
    @ParameterizedTest
    @ValueSource(strings = {"aot_eager", "inductor"})
    void outputsInUninitializedOrRecycledMemoryAreWrittenWhole(String backend) {
        BiFunction<Tensor, Tensor, Tensor> f = Torch.compile(
                (a, b) -> {
                    var parts = a.mm(b).split(128, 1);
                    return parts.get(0).tanh().mul(parts.get(1)).sum();
                },
                CompileOptions.defaults().backend(backend));
        UninitializedArrays.setPoison(true);
        try {
            for (int step = 0; step < 3; step++) {
                Tensor a = matrix(128, 256, step), b = matrix(256, 256, 10 + step);
                f.apply(a, b).backward();
                Tensor a64 = a.detach().to(DType.FLOAT64), b64 = b.detach().to(DType.FLOAT64);
                Tensor p = a64.mm(b64), t = p.narrow(1, 0, 128).tanh(), p1 = p.narrow(1, 128, 128);
                Tensor dp = Torch.cat(List.of(t.mul(t).neg().add(1.0).mul(p1), t), 1);
                assertClose(dp.mm(b64.t()), a.grad(), "grad A");
                assertClose(a64.t().mm(dp), b.grad(), "grad B");
            }
        } finally {
            UninitializedArrays.setPoison(false);
        }
    }

    /** Saving everything, the forward saves tanh's output for its backward: the very tensor the caller gets. */
    @Test
    void aSavedValueThatIsAlsoAnOutputKeepsItsValues() {
        Tensor a = matrix(128, 256, 0), b = matrix(256, 256, 1);
        AotFunction f = AotAutograd.compile(
                t -> new Tensor[] {t[0].mm(t[1]).tanh()},
                SavePolicy.SAVE_ALL,
                GraphCompiler.INTERPRETER,
                GraphCompiler.INTERPRETER,
                a,
                b);
        Tensor y = f.call(a, b)[0];
        y.sum().backward();
        for (int step = 0; step < 3; step++)
            f.call(matrix(128, 256, 2 + step), matrix(256, 256, 3))[0].sum().backward();
        assertClose(
                a.detach().to(DType.FLOAT64).mm(b.detach().to(DType.FLOAT64)).tanh(), y.detach(), "y");
        assertClosedFormOfTanhProduct(a, b);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aot_eager", "inductor"})
    void aRetainedGraphKeepsItsSavedValuesForTheNextBackward(String backend) {
        BiFunction<Tensor, Tensor, Tensor> f = Torch.compile(
                (a, b) -> a.mm(b).tanh().sum(), CompileOptions.defaults().backend(backend));
        Tensor a = matrix(128, 256, 0), b = matrix(256, 256, 1);
        Tensor loss = f.apply(a, b);
        loss.backward(null, true, false);
        for (int step = 0; step < 3; step++)
            f.apply(matrix(128, 256, 2 + step), matrix(256, 256, 3)).backward();
        a.setGrad(null);
        b.setGrad(null);
        loss.backward();
        assertClosedFormOfTanhProduct(a, b);
    }
}

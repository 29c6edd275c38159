package org.jtorch.compile.inductor;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileCounters;
import org.jtorch.compile.CompileOptions;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kernel classes are specialised to a kernel's structure, not its sizes: graphs that differ only in sizes, strides or
 * offsets reuse one class ({@code Compile.counters().kernelCacheHits()}), and the shared class computes correctly at
 * every size — lengths that are not a multiple of any vector width (scalar tails), 1 and 0 — against eager execution.
 * What changes the code (contiguous against strided access) still makes a new class.
 */
class SizeFreeKernelsTest {
    /** Lengths with scalar tails for any vector width up to 32 (37, 131), whole vectors only (64), 1 and 0. */
    private static final long[] LENGTHS = {37, 64, 1, 131, 0};

    @BeforeEach
    void reset() {
        Compile.reset();
        KernelCompiler.clearCache();
    }

    /**
     * Runs {@code f} compiled afresh (a new graph) on {@code x}, {@code y}, and checks it against eager bit for bit.
     */
    private static void compileAndCheck(BiFunction<Tensor, Tensor, Tensor> f, Tensor x, Tensor y) {
        Tensor expected = f.apply(x, y);
        Tensor actual = Torch.compile(f, CompileOptions.defaults()).apply(x, y);
        assertArrayEquals(expected.shape(), actual.shape(), "shape");
        assertArrayEquals(bits(expected), bits(actual), "values at " + Arrays.toString(x.shape()));
    }

    private static CompileCounters counters() {
        return Compile.counters();
    }

    @Test
    void aPointwiseKernelIsOneClassForEverySize() {
        BiFunction<Tensor, Tensor, Tensor> f =
                (x, y) -> x.mul(y).add(0.5).relu().sub(x);
        Torch.manualSeed(0);
        for (long n : LENGTHS) compileAndCheck(f, Torch.randn(n), Torch.randn(n));
        // a 2-d contiguous input coalesces to the same one loop
        compileAndCheck(f, Torch.randn(3, 29), Torch.randn(3, 29));
        CompileCounters c = counters();
        assertEquals(LENGTHS.length + 1, c.kernels(), "one kernel per graph");
        assertEquals(1, c.kernelClassesGenerated(), "one class for all sizes");
        assertEquals(LENGTHS.length, c.kernelCacheHits(), "every later graph reuses it");
    }

    @Test
    void stridedBroadcastAndOffsetAccessesTakeTheirSizesAtRunTime() {
        Torch.manualSeed(1);
        // a transposed input: the strided fallback, its strides arguments
        BiFunction<Tensor, Tensor, Tensor> transposed = (x, y) -> x.t().mul(y).add(1.0);
        for (long[] s : new long[][] {{5, 7}, {33, 3}, {1, 9}, {4, 1}}) {
            compileAndCheck(transposed, Torch.randn(s[1], s[0]), Torch.randn(s[0], s[1]));
        }
        // a row broadcast over rows of different widths
        BiFunction<Tensor, Tensor, Tensor> bias = (x, b) -> x.add(b).mul(x);
        for (long[] s : new long[][] {{6, 37}, {2, 64}, {9, 5}}) {
            compileAndCheck(bias, Torch.randn(s[0], s[1]), Torch.randn(s[1]));
        }
        // views at different storage offsets and lengths
        BiFunction<Tensor, Tensor, Tensor> sliced =
                (x, y) -> x.slice(0, 3, x.shape()[0]).sub(y);
        for (long n : new long[] {40, 4, 3}) compileAndCheck(sliced, Torch.randn(n), Torch.randn(n - 3));
        CompileCounters c = counters();
        assertEquals(10, c.kernels());
        assertEquals(10 - c.kernelCacheHits(), c.kernelClassesGenerated(), "each kernel generated or reused");
        // the {1, 9} and {4, 1} cases coalesce to one contiguous loop: a class besides the strided one
        assertEquals(4, c.kernelClassesGenerated(), "strided, contiguous, broadcast, sliced");
    }

    @Test
    void theDiskCacheServesAClassToAnotherSize(@TempDir Path dir) throws Exception {
        BiFunction<Tensor, Tensor, Tensor> f = (x, y) -> x.div(y.abs().add(1.0)).neg();
        Torch.manualSeed(3);
        System.setProperty("jtorch.inductor.cacheDir", dir.toString());
        try {
            compileAndCheck(f, Torch.randn(100), Torch.randn(100));
            assertEquals(1, counters().kernelClassesGenerated());
            KernelCompiler.clearCache(); // as a new process: nothing loaded, the class file on disk
            compileAndCheck(f, Torch.randn(7, 3), Torch.randn(7, 3));
        } finally {
            System.clearProperty("jtorch.inductor.cacheDir");
        }
        CompileCounters c = counters();
        assertEquals(2, c.kernels());
        assertEquals(1, c.kernelClassesGenerated(), "the second size's class came from disk");
        assertEquals(0, c.kernelCacheHits());
        try (var files = Files.list(dir)) {
            assertEquals(1, files.filter(p -> p.toString().endsWith(".class")).count(), "one class file");
        }
    }

    @Test
    void rowKernelsShareAClassAcrossRowLengthsAndCounts() {
        Torch.manualSeed(2);
        Function<Tensor, Tensor> softmax = x -> F.softmax(x, -1);
        Function<Tensor, Tensor> rowSum = x -> x.mul(x).sum(-1);
        long[][] shapes = {{5, 37}, {3, 64}, {2, 1}, {7, 131}, {0, 9}, {1, 3}};
        for (long[] s : shapes) {
            Tensor x = Torch.randn(s);
            for (Function<Tensor, Tensor> f : java.util.List.of(softmax, rowSum)) {
                Tensor expected = f.apply(x);
                Tensor actual = Torch.compile(f, CompileOptions.defaults()).apply(x);
                assertArrayEquals(expected.shape(), actual.shape());
                // row reductions accumulate per vector lane: eager's order is not theirs, so within float rounding
                assertArrayEquals(expected.toDoubleArray(), actual.toDoubleArray(), 2e-6 * s[1]);
            }
        }
        CompileCounters c = counters();
        assertEquals(2L * shapes.length, c.kernels());
        assertEquals(2, c.kernelClassesGenerated(), "one softmax class and one row-sum class");
        assertEquals(2L * shapes.length - 2, c.kernelCacheHits());
    }
}

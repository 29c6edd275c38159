package org.jtorch.compile.inductor;

import static org.jtorch.testing.Bits.bits;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.compile.Compile;
import org.jtorch.compile.CompileOptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Graphs that end by copying computed values into their inputs (an optimizer step's shape): the kernels store in place
 * only where each reads the old element before writing it, and the results are the closed forms; and the lowerings of
 * lerp, addcmul and addcdiv, which compute the eager kernels' fused multiply-adds bit for bit.
 */
class InputWritebacksTest {
    @BeforeEach
    void reset() {
        Compile.reset();
    }

    private static Function<Tensor[], Tensor[]> compiled(Function<Tensor[], Tensor[]> fn) {
        return Compile.compileTensors(fn, CompileOptions.defaults(), List::of, "writeback");
    }

    @Test
    void lerpAddcmulAndAddcdivMatchTheEagerKernelsBitForBit() {
        Torch.manualSeed(3);
        Tensor x = Torch.randn(37, 41),
                y = Torch.randn(37, 41),
                z = Torch.rand(37, 41).add(0.5);
        Tensor w = Torch.rand(37, 41).mul(1.4).sub(0.2);
        List<Function<Tensor, Tensor>> fns = List.of(
                t -> t.lerp(y, 0.1),
                t -> t.lerp(y, 0.75),
                t -> t.lerp(y, w),
                t -> t.addcmul(y, z, 0.3),
                t -> t.addcmul(y, z),
                t -> t.addcdiv(y, z, -0.7),
                t -> t.mul(0.9).addcmul(t, t, 0.1).sqrt().add(1e-8));
        for (Function<Tensor, Tensor> f : fns) {
            long before = Compile.counters().kernels();
            Tensor got = org.jtorch.Torch.compile(f, CompileOptions.defaults()).apply(x);
            assertArrayEquals(bits(f.apply(x)), bits(got));
            assertEquals(1, Compile.counters().kernels() - before, "one generated kernel, no extern call");
        }
    }

    @Test
    void valuesReadingEachOthersOldInputsAreStoredInPlaceCorrectly() {
        Tensor a = Torch.tensor(new float[] {1f, 2f, 3f, 4f}), b = Torch.tensor(new float[] {10f, 20f, 30f, 40f});
        Function<Tensor[], Tensor[]> swapLike = compiled(in -> {
            Tensor na = in[0].mul(2).add(in[1]), nb = in[1].sub(in[0]);
            in[0].copy_(na);
            in[1].copy_(nb);
            return new Tensor[0];
        });
        swapLike.apply(new Tensor[] {a, b});
        assertArrayEquals(new float[] {12f, 24f, 36f, 48f}, a.toFloatArray());
        assertArrayEquals(new float[] {9f, 18f, 27f, 36f}, b.toFloatArray());
        assertEquals(1, Compile.counters().kernels(), "both values in one kernel, stored into the inputs");
        swapLike.apply(new Tensor[] {a, b});
        assertArrayEquals(new float[] {33f, 66f, 99f, 132f}, a.toFloatArray());
        assertArrayEquals(new float[] {-3f, -6f, -9f, -12f}, b.toFloatArray());
    }

    @Test
    void aValueReadingItsInputAtOtherElementsIsCopiedAfterwards() {
        float[] values = new float[16];
        for (int i = 0; i < 16; i++) values[i] = i;
        Tensor a = Torch.tensor(values).reshape(4, 4);
        compiled(in -> {
                    in[0].copy_(in[0].t().add(100));
                    return new Tensor[0];
                })
                .apply(new Tensor[] {a});
        float[] expected = new float[16];
        for (int r = 0; r < 4; r++) for (int c = 0; c < 4; c++) expected[r * 4 + c] = c * 4 + r + 100;
        assertArrayEquals(expected, a.toFloatArray(), "in place, the transpose would read elements already written");
    }

    @Test
    void mutationInTheMiddleOfAGraphRunsAsWritten() {
        Tensor a = Torch.tensor(new float[] {1f, 2f}), b = Torch.tensor(new float[] {5f, 7f});
        Tensor[] out = compiled(in -> {
                    in[0].copy_(in[1].mul(3));
                    return new Tensor[] {in[0].add(1)};
                })
                .apply(new Tensor[] {a, b});
        assertArrayEquals(new float[] {15f, 21f}, a.toFloatArray());
        assertArrayEquals(new float[] {16f, 22f}, out[0].toFloatArray());
    }

    @Test
    void inputsSharingStorageKeepTheGraphsOrder() {
        Tensor x = Torch.tensor(new float[] {1f, 2f, 3f, 4f, 5f, 6f, 7f, 8f});
        Tensor a = x.narrow(0, 0, 4), b = x.narrow(0, 2, 4);
        compiled(in -> {
                    Tensor na = in[0].add(1), nb = in[1].mul(2);
                    in[0].copy_(na);
                    in[1].copy_(nb);
                    return new Tensor[0];
                })
                .apply(new Tensor[] {a, b});
        // both values from the old elements, then the copies in order: b's overwrites a's on the overlap
        assertArrayEquals(new float[] {2f, 3f, 6f, 8f, 10f, 12f, 7f, 8f}, x.toFloatArray());
    }

    @Test
    void aViewAsAnotherDtypeCountsAsSharingStorage() {
        Tensor x = Torch.tensor(new float[] {1f, 2f, 3f, 4f});
        Tensor bits = x.view(org.jtorch.DType.INT32);
        assertTrue(InputWritebacks.aliased(new Tensor[] {x, bits}, new int[] {0}));
        assertFalse(InputWritebacks.aliased(new Tensor[] {x, Torch.tensor(new int[] {1, 2, 3, 4})}, new int[] {0}));
    }
}

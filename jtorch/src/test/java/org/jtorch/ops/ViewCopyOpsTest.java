package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.Warnings;
import org.jtorch.func.Func;
import org.junit.jupiter.api.Test;

/**
 * The view-copy ops: the view's values in fresh contiguous storage, and (2.14) batched by vmap without the fallback.
 */
class ViewCopyOpsTest {
    private static final Tensor X =
            Torch.arange(0, 24, 1, org.jtorch.DType.FLOAT64).reshape(2, 3, 4);

    @Test
    void valuesAreTheViewsAndStorageIsFresh() {
        Tensor p = Torch.permuteCopy(X, 2, 0, 1);
        assertArrayEquals(new long[] {4, 2, 3}, p.shape());
        // element [k, i, j] of the permuted copy is X[i, j, k] = 12 i + 4 j + k
        assertEquals(1 * 12 + 2 * 4 + 3, p.toDoubleArray()[3 * 6 + 1 * 3 + 2], 0);
        assertTrue(p.isContiguous());
        assertNotSame(X.untypedStorage(), p.untypedStorage());
        assertArrayEquals(
                new double[] {0, 5, 10},
                Torch.diagonalCopy(X.select(0, 0), 0, 0, 1).toDoubleArray(),
                0);
        assertArrayEquals(
                new double[] {4, 5, 6, 7},
                Torch.selectCopy(X.select(0, 0), 0, 1).toDoubleArray(),
                0);
        assertArrayEquals(
                new double[] {1, 3},
                Torch.sliceCopy(X.select(0, 0).select(0, 0), 0, 1L, null, 2).toDoubleArray(),
                0);
        Tensor a = Torch.aliasCopy(X);
        a.fill_(0);
        assertEquals(23, X.toDoubleArray()[23], 0); // the copy shares nothing
    }

    @Test
    void vmapBatchesThemWithoutTheFallback() {
        try (var w = Warnings.catchWarnings()) {
            Function<Tensor, Tensor> f = t -> Torch.transposeCopy(Torch.unsqueezeCopy(t, 0), 0, 2);
            Tensor got = Func.vmap(f).apply(X);
            for (int b = 0; b < 2; b++)
                assertArrayEquals(
                        f.apply(X.select(0, b)).toDoubleArray(),
                        got.select(0, b).toDoubleArray(),
                        0);
            assertTrue(
                    w.records().stream().noneMatch(r -> r.message().contains("performance drop")),
                    w.records().toString());
        }
    }
}

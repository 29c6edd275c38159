package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.autograd.DualLevel;
import org.jtorch.autograd.ForwardAD;
import org.jtorch.autograd.GradCheck;
import org.jtorch.ops.FeatureMetaOps;
import org.jtorch.ops.IndexingOps;
import org.junit.jupiter.api.Test;

/**
 * Forward AD under vmap, as gradcheck's {@code check_batched_forward_grad} runs it (a tangent batched by vmap, a primal
 * that is not): the rules that failed the op-table sweep, each against the per-tangent JVPs or PyTorch 2.13's values.
 */
class BatchedForwardAdTest {
    private static final GradCheck.Options BATCHED_FORWARD =
            GradCheck.Options.defaults().checkForwardAd(true).checkBatchedForwardGrad(true);

    private static Tensor leaf(double[] values, long... shape) {
        return Torch.tensor(values, DType.FLOAT64, shape).requiresGrad(true);
    }

    @Test
    void asStridedShiftsEachExampleByItsBatchStride() {
        Tensor xs = Torch.arange(12L, DType.FLOAT64).reshape(3, 4);
        // PyTorch 2.13: vmap(lambda x: x.as_strided([2], [2], 1))(xs) is [[1, 3], [5, 7], [9, 11]]
        Tensor y = Func.vmap((Tensor x) -> x.asStrided(new long[] {2}, new long[] {2}, 1))
                .apply(xs);
        assertArrayEquals(new double[] {1, 3, 5, 7, 9, 11}, y.toDoubleArray());
        // batch dim innermost in memory (PyTorch's in_dims=1 on xs): [[0, 1], [1, 2], [2, 3], [3, 4]]
        Tensor z = Func.vmap((Tensor x) -> x.asStrided(new long[] {2}, new long[] {1}, 0))
                .apply(xs.t());
        assertArrayEquals(new double[] {0, 1, 1, 2, 2, 3, 3, 4}, z.toDoubleArray());
    }

    @Test
    void asStridedOutsideTheExampleIsRefusedAsPyTorchRefusesIt() {
        Tensor xs = Torch.arange(12L, DType.FLOAT64).reshape(3, 4);
        TorchException e = assertThrows(
                TorchException.class, () -> Func.vmap((Tensor x) -> x.asStrided(new long[] {3}, new long[] {2}, 1))
                        .apply(xs));
        assertEquals(
                "result = tensor.as_strided([3], [2], 1) can access memory outside of `tensor`. `result` can access "
                        + "some memory in range [1, 6], but `tensor` can only access some memory in range [0, 4]. "
                        + "This is not supported inside of vmap, please try to rewrite the `as_strided` call as a "
                        + "sequence of PyTorch view operations",
                e.getMessage());
    }

    @Test
    void newZerosWithSameFeatureMetaHasAtensGeometry() {
        Tensor other =
                Torch.zeros(new long[] {10}, DType.COMPLEX128).asStrided(new long[] {2, 2}, new long[] {1, 3}, 2);
        Tensor self = Torch.randn(3, 2, 2);
        // PyTorch 2.13: shape [3, 2, 2], strides (10, 1, 3), offset 2, 30 complex elements of storage
        Tensor batched = FeatureMetaOps.newZerosWithSameFeatureMeta(self, other, 1);
        assertArrayEquals(new long[] {3, 2, 2}, batched.shape());
        assertArrayEquals(new long[] {10, 1, 3}, batched.stride());
        assertEquals(2, batched.storageOffset());
        assertEquals(DType.COMPLEX128, batched.dtype());
        assertEquals(0.0, Torch.abs(batched).sum().item());
        Tensor plain = FeatureMetaOps.newZerosWithSameFeatureMeta(self, other, 0);
        assertArrayEquals(new long[] {1, 3}, plain.stride());
        assertEquals(2, plain.storageOffset());
        assertThrows(TorchException.class, () -> FeatureMetaOps.newZerosWithSameFeatureMeta(self, other, 4));
    }

    @Test
    void aBatchedTangentOfAPrimalWithAnotherLayoutKeepsEachExample() {
        Tensor x = Torch.randn(10).to(DType.FLOAT64).asStrided(new long[] {4}, new long[] {1}, 2);
        Tensor tangents = Torch.randn(2, 4).to(DType.FLOAT64);
        Tensor batched = Func.vmap((Tensor t) -> {
                    try (DualLevel level = ForwardAD.dualLevel()) {
                        Tensor dual = ForwardAD.makeDual(x, t, level);
                        return ForwardAD.unpackDual(dual.asStrided(new long[] {2}, new long[] {2}, 3), level)
                                .tangent();
                    }
                })
                .apply(tangents);
        // x starts at offset 2, so the view reads x's elements 1 and 3
        double[] t = tangents.toDoubleArray();
        assertArrayEquals(new double[] {t[1], t[3], t[5], t[7]}, batched.toDoubleArray());
    }

    @Test
    void jvpsDerivedFromTheVjpBatch() {
        Tensor x = leaf(new double[] {0.3, -1.2, 2.0, 0.7, 1.1, -0.4}, 2, 3);
        assertTrue(GradCheck.check(xs -> Torch.cumprod(xs.get(0), 1), List.of(x), BATCHED_FORWARD));
        // polar's JVP comes from its VJP, which leaves a broadcast input's gradient unreduced
        Tensor abs = leaf(new double[] {0.5, 1.5, 2.5}, 1, 3);
        Tensor angle = leaf(new double[] {0.1, -0.7, 1.9, 2.4, -2.2, 0.3}, 2, 3);
        assertTrue(GradCheck.check(
                xs -> Torch.viewAsReal(Torch.polar(xs.get(0), xs.get(1))), List.of(abs, angle), BATCHED_FORWARD));
    }

    @Test
    void indexPutWritesABatchedTangentIntoAPrimalWithout() {
        Tensor self = leaf(new double[] {0.3, -1.2, 2.0, 0.7, 1.1, -0.4}, 2, 3);
        Tensor values = leaf(new double[] {5.0, -6.0}, 2);
        Tensor[] rows = {Torch.tensor(new long[] {1, 0}), Torch.tensor(new long[] {2, 1})};
        for (boolean accumulate : new boolean[] {false, true}) {
            assertTrue(GradCheck.check(
                    xs -> IndexingOps.indexPut(xs.get(0), rows, xs.get(1), accumulate),
                    List.of(self, values),
                    BATCHED_FORWARD));
        }
    }
}

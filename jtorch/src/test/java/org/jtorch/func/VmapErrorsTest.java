package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** Bad input to the transforms, with PyTorch's exception classes and messages; in-place rules under vmap. */
class VmapErrorsTest {
    private static final Tensor X = Torch.ones(2, 3).to(DType.FLOAT64);

    private static void contains(Throwable e, String part) {
        assertTrue(e.getMessage().contains(part), "message: " + e.getMessage());
    }

    private static Function<Object[], Object> first() {
        return a -> ((Tensor) a[0]).mul(2.0);
    }

    @Test
    void inDimsThatDoNotMatchTheInputs() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Func.vmap(first(), VmapOptions.defaults().inDims(0, 0)).apply(new Object[] {X}));
        contains(e, "in_dims is not compatible with the structure of `inputs`");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Func.vmap(first(), VmapOptions.defaults().inDims(2)).apply(new Object[] {X}));
        contains(
                e,
                "Got in_dim=2 for some input, but that input is a Tensor of dimensionality 2 so expected "
                        + "in_dim to satisfy -2 <= in_dim < 2.");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Func.vmap(first(), VmapOptions.defaults().inDims(0, 0)).apply(new Object[] {X, 3L}));
        contains(
                e,
                "Got in_dim=0 for an input but the input is of type <class 'int'>. We cannot vmap over "
                        + "non-Tensor arguments");
        e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(
                        first(), VmapOptions.defaults().inDims((Object) "0"))
                .apply(new Object[] {X}));
        contains(e, "expected `in_dims` to be int or a (potentially nested) tuple");
        e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(
                        first(), VmapOptions.defaults().inDims((Object) null))
                .apply(new Object[] {X}));
        contains(e, "expected `in_dims` to be int or a (potentially nested) tuple");
        e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(
                        first(), VmapOptions.defaults().inDims(new Integer[] {null}))
                .apply(new Object[] {X}));
        contains(e, "Expected at least one Tensor to vmap over");
        e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(first(), VmapOptions.defaults())
                .apply(new Object[0]));
        contains(e, "got no inputs");
    }

    @Test
    void batchSizesThatDisagree() {
        var e = assertThrows(IllegalArgumentException.class, () -> Func.vmap((a, b) -> a.add(b), 0, 0)
                .apply(Torch.ones(2, 3), Torch.ones(3, 3)));
        assertEquals(
                "vmap: Expected all tensors to have the same size in the mapped dimension, got sizes [2, "
                        + "3] for the mapped dimension",
                e.getMessage());
    }

    @Test
    void outDims() {
        var e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(a -> 1L, VmapOptions.defaults())
                .apply(new Object[] {X}));
        contains(e, "must only return Tensors, got type <class 'int'>");
        // None for a non-tensor output returns it as it is
        Object[] r = (Object[]) Func.vmap(
                        a -> new Object[] {((Tensor) a[0]).sum(), 7L},
                        VmapOptions.defaults().outDims(Arrays.asList(0, null)))
                .apply(new Object[] {X});
        assertEquals(7L, r[1]);
        assertArrayEquals(new double[] {3, 3}, ((Tensor) r[0]).toDoubleArray());
        e = assertThrows(IllegalArgumentException.class, () -> Func.vmap(
                        first(), VmapOptions.defaults().outDims((Object) null))
                .apply(new Object[] {X}));
        contains(e, "can not return a BatchedTensor when out_dim is None");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> Func.vmap(first(), VmapOptions.defaults().outDims("x")).apply(new Object[] {X}));
        contains(e, "`out_dims` must be an int");
        // an unbatched output is expanded to the batch
        Tensor c =
                (Tensor) Func.vmap(a -> Torch.ones(3), VmapOptions.defaults()).apply(new Object[] {X});
        assertArrayEquals(new long[] {2, 3}, c.shape());
    }

    @Test
    void randomnessError() {
        var e = assertThrows(
                TorchException.class, () -> Func.vmap(a -> ((Tensor) a[0]).add(Torch.rand(3)), VmapOptions.defaults())
                        .apply(new Object[] {X}));
        contains(e, "vmap: called random operation while in randomness error mode");
        assertThrows(TorchException.class, () -> VmapOptions.defaults().randomness("sometimes"));
    }

    @Test
    void inPlaceWriteOfABatchedValueIntoAnUnbatchedTensor() {
        Tensor unbatched = Torch.zeros(3).to(DType.FLOAT64);
        var e = assertThrows(
                TorchException.class, () -> Func.vmap(b -> unbatched.add_(b)).apply(X));
        contains(
                e,
                "vmap: add_(self, *extra_args) is not possible because there exists a Tensor `other` in "
                        + "extra_args that has more "
                        + "elements than `self`");
        assertArrayEquals(new double[] {0, 0, 0}, unbatched.toDoubleArray());
        assertThrows(
                TorchException.class, () -> Func.vmap(b -> unbatched.copy_(b)).apply(X));
    }

    @Test
    void inPlaceOnBatchedTensorsWritesTheInputs() {
        Tensor x = Torch.tensor(new double[][] {{1, 2}, {3, 4}});
        Tensor y = Torch.tensor(new double[] {10, 20});
        Func.vmap((a, b) -> a.add_(b), 0, null).apply(x, y); // batched self, unbatched other: fine
        assertArrayEquals(new double[] {11, 22, 13, 24}, x.toDoubleArray());
        Tensor z = Torch.zeros(2, 3).to(DType.FLOAT64);
        Func.vmap((Tensor a) -> a.fill_(5.0)).apply(z);
        assertArrayEquals(new double[] {5, 5, 5, 5, 5, 5}, z.toDoubleArray());
        // in_dim 1: each example is a column, written in place
        Tensor w = Torch.zeros(2, 3).to(DType.FLOAT64);
        Func.vmap((Tensor a) -> a.copy_(Torch.tensor(new double[] {1, 2})), 1, 1)
                .apply(w);
        assertArrayEquals(new double[] {1, 1, 1, 2, 2, 2}, w.toDoubleArray());
        // masked_fill_ with a batched mask and a batched value
        Tensor m = Torch.tensor(new boolean[] {true, false, false, true}).view(2, 2);
        Tensor t = Torch.tensor(new double[][] {{1, 2}, {3, 4}});
        Tensor v = Torch.tensor(new double[] {-1, -2});
        Function<Object[], Object> f = a -> ((Tensor) a[0]).maskedFill_((Tensor) a[1], a[2]);
        Func.vmap(f, VmapOptions.defaults()).apply(new Object[] {t, m, v});
        assertArrayEquals(new double[] {-1, 2, 3, -2}, t.toDoubleArray());
    }

    @Test
    void dataDependentControlFlow() {
        var e = assertThrows(TorchException.class, () -> Func.vmap(
                        a -> Torch.scalarTensor(a.sum().item(), DType.FLOAT64))
                .apply(X));
        contains(e, "vmap: It looks like you're calling .item() on a Tensor");
        e = assertThrows(
                TorchException.class, () -> Func.vmap(a -> Torch.nonzero(a)).apply(X));
        contains(
                e,
                "We do not support batching operators that can output dynamic shape. Attempted to vmap "
                        + "over aten::nonzero");
    }

    @Test
    void chunkSize() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> Func.vmap(first(), VmapOptions.defaults().chunkSize(0)).apply(new Object[] {X}));
        contains(e, "chunk_size should be None or greater than 0");
    }

    @Test
    void gradErrors() {
        var e = assertThrows(
                TorchException.class, () -> Func.grad((Tensor x) -> x.mul(2.0)).apply(X));
        contains(e, "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with 2 dims");
        e = assertThrows(TorchException.class, () -> Func.grad((Tensor[] xs) -> xs[0].sum(), 2)
                .apply(new Tensor[] {X}));
        contains(e, "Got argnums=2, but only 1 positional inputs");
        e = assertThrows(TorchException.class, () -> Func.grad((Tensor x) -> x.sum())
                .apply(Torch.ones(2).to(DType.INT64)));
        contains(e, "only Tensors of floating point and complex dtype can require gradients");
        e = assertThrows(TorchException.class, () -> Func.jvp(x -> x, X, Torch.ones(3)));
        contains(e, "same shape");
        // a gradient that does not depend on the input is zero, not an error
        assertArrayEquals(
                new double[] {0, 0, 0, 0, 0, 0},
                Func.grad((Tensor x) -> Torch.ones(1).sum()).apply(X).toDoubleArray());
    }

    @Test
    void gradLeavesGradFieldsAlone() {
        Tensor x = Torch.ones(3).to(DType.FLOAT64).requiresGrad(true);
        Func.grad((Tensor t) -> t.square().sum()).apply(x);
        assertEquals(null, x.grad());
        List<Tensor> none = List.of();
        assertEquals(0, none.size());
    }
}

package org.jtorch.func;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.junit.jupiter.api.Test;

/** The worked examples of spec/transforms.md §1 and §2, against their stated values. */
class FuncExamplesTest {
    private static void close(double[] want, Tensor got) {
        double[] g = got.toDoubleArray();
        assertEquals(want.length, g.length, "numel of " + Arrays.toString(got.shape()));
        for (int i = 0; i < want.length; i++)
            assertEquals(want[i], g[i], 1e-6, "element " + i + " of " + Arrays.toString(g));
    }

    @Test
    void vmapDot() {
        Tensor x = Torch.tensor(new double[][] {{1, 2, 3}, {4, 5, 6}}),
                y = Torch.tensor(new double[][] {{1, 0, 1}, {0, 1, 0}});
        close(new double[] {4, 5}, Func.vmap((a, b) -> Torch.dot(a, b), 0, 0).apply(x, y));
    }

    @Test
    void vmapMulInDimsNone() {
        Tensor x = Torch.tensor(new double[][] {{1, 2}, {3, 4}}), y = Torch.tensor(new double[] {10, 100});
        close(
                new double[] {10, 200, 30, 400},
                Func.vmap((a, b) -> a.mul(b), 0, null).apply(x, y));
    }

    @Test
    void vmapOutDims() {
        Tensor x = Torch.tensor(new double[][] {{1, 2}, {3, 4}});
        close(new double[] {2, 6, 4, 8}, Func.vmap(a -> a.mul(2.0), 0, 1).apply(x));
    }

    @Test
    void searchsortedScalar() {
        Tensor s = Torch.tensor(new double[][] {{1, 2, 3}, {0, 5, 6}});
        Tensor r = Func.vmap(a -> Torch.searchsorted(a, 2.5)).apply(s);
        assertEquals(DType.INT64, r.dtype());
        assertArrayEquals(new long[] {2, 1}, r.toLongArray());
    }

    @Test
    void repeatInterleaveBatchedRepeats() {
        Tensor base = Torch.tensor(new long[] {10, 20, 30});
        Tensor reps = Torch.tensor(new long[] {1, 2, 1, 0, 0, 4}).view(2, 3);
        Tensor r = Func.vmap(rr -> Torch.repeatInterleave(base, rr, 0, 4L)).apply(reps);
        assertArrayEquals(new long[] {10, 20, 20, 30, 30, 30, 30, 30}, r.toLongArray());
        TorchException e = assertThrows(TorchException.class, () -> Func.vmap(rr -> Torch.repeatInterleave(base, rr))
                .apply(reps));
        assertTrue(e.getMessage().contains("output_size"), e.getMessage());
    }

    @Test
    void maskedFillInPlace() {
        Tensor x = Torch.tensor(new double[][] {{1, 2}, {3, 4}});
        Tensor m = Torch.tensor(new boolean[] {true, false, false, true}).view(2, 2);
        Tensor r = Func.vmap((a, b) -> a.maskedFill_(b, 0.0), 0, 0).apply(x, m);
        close(new double[] {0, 2, 3, 0}, r);
        close(new double[] {0, 2, 3, 0}, x);
    }

    @Test
    void scalarComparisonsAndFill() {
        Tensor x = Torch.tensor(new double[][] {{0.1, 0.7}, {0.9, 0.2}});
        Tensor gt = Func.vmap(a -> a.gt(0.5)).apply(x);
        assertEquals(DType.BOOL, gt.dtype());
        assertArrayEquals(new boolean[] {false, true, true, false}, gt.toBooleanArray());
        Tensor eq = Func.vmap(a -> Torch.eq(a, 0.2)).apply(x);
        assertArrayEquals(new boolean[] {false, false, false, true}, eq.toBooleanArray());
        Tensor filled = Func.vmap(a -> a.clone().fill_(3L)).apply(x);
        close(new double[] {3, 3, 3, 3}, filled);
        close(new double[] {0.1, 0.7, 0.9, 0.2}, x);
    }

    @Test
    void randomness() {
        Function<Object[], Object> f = a -> ((Tensor) a[0]).add(Torch.rand());
        assertThrows(
                TorchException.class, () -> Func.vmap(f, VmapOptions.defaults()).apply(new Object[] {Torch.zeros(3)}));
        double[] same = ((Tensor)
                        Func.vmap(f, VmapOptions.defaults().randomness("same")).apply(new Object[] {Torch.zeros(3)}))
                .toDoubleArray();
        assertEquals(same[0], same[1]);
        assertEquals(same[0], same[2]);
        double[] diff = ((Tensor) Func.vmap(f, VmapOptions.defaults().randomness("different"))
                        .apply(new Object[] {Torch.zeros(3)}))
                .toDoubleArray();
        assertTrue(diff[0] != diff[1] && diff[1] != diff[2], Arrays.toString(diff));
    }

    @Test
    void chunks() {
        Tensor x = Torch.arange(0, 12, 1, DType.FLOAT64).view(4, 3);
        Function<Object[], Object> f = a -> ((Tensor) a[0]).sin().sum();
        Tensor all = (Tensor) Func.vmap(f, VmapOptions.defaults()).apply(new Object[] {x});
        Tensor one = (Tensor) Func.vmap(f, VmapOptions.defaults().chunkSize(1)).apply(new Object[] {x});
        Tensor three =
                (Tensor) Func.vmap(f, VmapOptions.defaults().chunkSize(3)).apply(new Object[] {x});
        close(all.toDoubleArray(), one);
        close(all.toDoubleArray(), three);
    }

    @Test
    void gradExamples() {
        close(new double[] {2, 4, 6}, Func.grad(x -> x.square().sum()).apply(Torch.tensor(new double[] {1, 2, 3})));
        close(new double[] {1}, Func.grad(x -> x.sin()).apply(Torch.scalarTensor(0.0, DType.FLOAT64)));
        GradAndValue gv = Func.gradAndValue(x -> x.square().sum()).apply(Torch.tensor(new double[] {1, 2}));
        close(new double[] {2, 4}, (Tensor) gv.grad());
        close(new double[] {5}, (Tensor) gv.value());
    }

    @Test
    void jvpVjp() {
        JvpResult j = Func.jvp(x -> x.square(), Torch.tensor(new double[] {3}), Torch.tensor(new double[] {1}));
        close(new double[] {9}, (Tensor) j.output());
        close(new double[] {6}, (Tensor) j.jvpOut());
        VjpResult v = Func.vjp(x -> x.square(), Torch.tensor(new double[] {3}));
        close(new double[] {9}, (Tensor) v.output());
        close(new double[] {6}, v.vjpFn().apply(Torch.tensor(new double[] {1}))[0]);
    }

    private static Tensor f4(Tensor x) {
        return Torch.stack(java.util.List.of(
                x.select(0, 0).mul(x.select(0, 1)), x.select(0, 0).sin()));
    }

    @Test
    void jacobians() {
        Tensor x = Torch.tensor(new double[] {1, 2});
        double[] want = {2, 1, Math.cos(1), 0};
        close(want, Func.jacrev(FuncExamplesTest::f4).apply(x));
        close(want, Func.jacfwd(FuncExamplesTest::f4).apply(x));
    }

    @Test
    void hessian() {
        Function<Tensor, Tensor> f = x ->
                x.select(0, 0).square().mul(x.select(0, 1)).add(x.select(0, 1).pow(3.0));
        close(new double[] {4, 2, 2, 12}, Func.hessian(f).apply(Torch.tensor(new double[] {1, 2})));
    }

    @Test
    void perSampleGradients() {
        Tensor w = Torch.tensor(new double[] {1, 2});
        Tensor xs = Torch.tensor(new double[][] {{1, 0}, {0, 1}, {1, 1}}), ys = Torch.tensor(new double[] {0, 1, 2});
        Function<Object[], Object> loss =
                a -> ((Tensor) a[0]).dot((Tensor) a[1]).sub((Tensor) a[2]).square();
        Object g = Func.vmap(
                        Func.grad(loss, Func.GradOptions.defaults()),
                        VmapOptions.defaults().inDims(null, 0, 0))
                .apply(new Object[] {w, xs, ys});
        close(new double[] {2, 0, 0, 2, 2, 2}, (Tensor) g);
    }
}

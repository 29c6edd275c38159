package org.jtorch.foreach;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ops.PointwiseOps;
import org.jtorch.storage.TensorImpl;
import org.junit.jupiter.api.Test;

/**
 * {@code torch.foreach} (spec §4): the worked examples, every function against the single-tensor op at each position
 * (on lists mixing the multi-tensor fast path — dense float32 — with transposed, float64, integer and empty tensors),
 * in-place identity, errors, meta tensors and autograd.
 */
class ForeachTest {
    static Tensor t(double... v) {
        return Torch.tensor(v);
    }

    static Tensor f(double... v) {
        float[] x = new float[v.length];
        for (int i = 0; i < v.length; i++) x[i] = (float) v[i];
        return Torch.tensor(x);
    }

    static void assertValues(List<Tensor> got, double[]... expected) {
        assertEquals(expected.length, got.size());
        for (int i = 0; i < expected.length; i++)
            assertArrayEquals(expected[i], got.get(i).toDoubleArray(), 1e-6, "position " + i);
    }

    // ---- spec §4 examples ----------------------------------------------------------------------------------

    @Test
    void examples() {
        List<Tensor> inputs = List.of(Torch.ones(2), Torch.ones(3));
        assertValues(Foreach.add(inputs, 2), new double[] {3, 3}, new double[] {3, 3, 3});
        assertValues(inputs, new double[] {1, 1}, new double[] {1, 1, 1});
        List<Tensor> r = Foreach.mul_(inputs, 3);
        assertSame(inputs, r, "in-place returns the very list it was given");
        assertValues(inputs, new double[] {3, 3}, new double[] {3, 3, 3});
        List<Tensor> a = List.of(t(1, 2), t(3));
        Foreach.add_(a, List.of(t(10, 20), t(30)), 0.5);
        assertValues(a, new double[] {6, 12}, new double[] {18});
        assertValues(Foreach.lerp(List.of(t(0, 0)), List.of(t(10, 20)), 0.25), new double[] {2.5, 5});
        assertValues(Foreach.addcmul(List.of(t(1)), List.of(t(2)), List.of(t(3)), 0.5), new double[] {4});
        assertValues(Foreach.norm(List.of(t(3, 4), t(1, 1, 1, 1))), new double[] {5}, new double[] {2});
        assertValues(Foreach.norm(List.of(t(3, 4), t(1, 1, 1, 1)), 1), new double[] {7}, new double[] {4});
        assertValues(Foreach.max(List.of(t(1, 5, 2), t(-3))), new double[] {5}, new double[] {-3});
        assertEquals(0, Foreach.norm(List.of(t(3, 4))).get(0).dim());
    }

    @Test
    void errors() {
        assertEquals(
                "Tensor list must have at least one tensor.",
                assertThrows(TorchException.class, () -> Foreach.add(List.of(), 1))
                        .getMessage());
        assertThrows(TorchException.class, () -> Foreach.mul(List.of(t(1)), new double[] {2, 3}));
        assertEquals(
                "Tensor lists must have the same number of tensors, got 1 and 2",
                assertThrows(TorchException.class, () -> Foreach.add(List.of(t(1)), List.of(t(1), t(2))))
                        .getMessage());
        assertThrows(TorchException.class, () -> Foreach.lerp(List.of(t(1), t(2)), List.of(t(1)), 0.5));
        assertThrows(TorchException.class, () -> Foreach.mul(List.of(t(1)), t(1, 2)), "the shared tensor must be 0-d");
        assertThrows(
                TorchException.class,
                () -> Foreach.addcmul(List.of(t(1)), List.of(t(1)), List.of(t(1)), Torch.ones(1, 1)));
        assertThrows(
                TorchException.class,
                () -> Foreach.addcmul(List.of(t(1)), List.of(t(1)), List.of(t(1)), Torch.ones(2)));
        // the single-tensor op's own checks apply at every position
        assertThrows(TorchException.class, () -> Foreach.add_(List.of(f(1, 2)), List.of(f(1, 2, 3))));
        assertThrows(TorchException.class, () -> Foreach.div_(List.of(Torch.tensor(new long[] {1, 2})), 2.0));
    }

    // ---- every function against the per-tensor op ---------------------------------------------------------

    /** A list that exercises every path: dense float32 (fast), a transposed float32 view, float64, an empty tensor. */
    static List<Tensor> mixed(long seed) {
        Generator g = new Generator().manualSeed(seed);
        Tensor big = Torch.rand(new long[] {70_000}, g).mul(2.0).add(0.25);
        Tensor small = Torch.rand(new long[] {5}, g).add(0.5);
        Tensor mat = Torch.rand(new long[] {3, 4}, g).add(0.5).t();
        Tensor dbl = Torch.rand(new long[] {6}, DType.FLOAT64, Device.CPU, g).add(0.5);
        Tensor empty = Torch.zeros(new long[] {0}, DType.FLOAT32);
        List<Tensor> out = new ArrayList<>(List.of(big, small, mat, dbl, empty));
        for (int i = 0; i < 40; i++)
            out.add(Torch.rand(new long[] {1 + (i * 37) % 300}, g).add(0.5));
        return out;
    }

    static List<Tensor> clones(List<Tensor> xs) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor x : xs) out.add(x.clone());
        return out;
    }

    static void assertListClose(List<Tensor> expected, List<Tensor> got, double rtol, String what) {
        assertEquals(expected.size(), got.size(), what);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).dtype(), got.get(i).dtype(), what + " dtype at " + i);
            assertArrayEquals(expected.get(i).shape(), got.get(i).shape(), what + " shape at " + i);
            double[] e = expected.get(i).toDoubleArray(), a = got.get(i).toDoubleArray();
            for (int k = 0; k < e.length; k++) {
                if (Double.isNaN(e[k])) assertTrue(Double.isNaN(a[k]), what);
                else assertEquals(e[k], a[k], rtol * Math.max(1, Math.abs(e[k])), what + " at " + i + "[" + k + "]");
            }
        }
    }

    /** Checks {@code fn} and its in-place twin against {@code ref} applied tensor by tensor. */
    static void check(
            String name,
            Function<List<Tensor>, List<Tensor>> fn,
            Function<List<Tensor>, List<Tensor>> inPlace,
            UnaryOperator<Tensor> ref,
            double rtol) {
        List<Tensor> xs = mixed(name.hashCode());
        List<Tensor> expected = new ArrayList<>();
        for (Tensor x : xs) expected.add(ref.apply(x));
        assertListClose(expected, fn.apply(xs), rtol, name);
        if (inPlace != null) {
            List<Tensor> zs = clones(xs);
            assertSame(zs, inPlace.apply(zs), name + "_ returns its input");
            assertListClose(expected, zs, rtol, name + "_");
        }
    }

    @Test
    void unaryOpsMatchTheSingleTensorOps() {
        check("exp", Foreach::exp, Foreach::exp_, Tensor::exp, 0);
        check("sqrt", Foreach::sqrt, Foreach::sqrt_, Tensor::sqrt, 0);
        check("neg", Foreach::neg, Foreach::neg_, Tensor::neg, 0);
        check("abs", Foreach::abs, Foreach::abs_, Tensor::abs, 0);
        check("reciprocal", Foreach::reciprocal, Foreach::reciprocal_, x -> PointwiseOps.RECIPROCAL.call1(x), 0);
        check("rsqrt", Foreach::rsqrt, Foreach::rsqrt_, x -> PointwiseOps.RSQRT.call1(x), 0);
        check("sigmoid", Foreach::sigmoid, Foreach::sigmoid_, x -> PointwiseOps.SIGMOID.call1(x), 0);
        check("log", Foreach::log, Foreach::log_, x -> PointwiseOps.LOG.call1(x), 0);
        check("sin", Foreach::sin, Foreach::sin_, x -> PointwiseOps.SIN.call1(x), 0);
        check("tanh", Foreach::tanh, Foreach::tanh_, x -> PointwiseOps.TANH.call1(x), 0);
        check("floor", Foreach::floor, Foreach::floor_, x -> PointwiseOps.FLOOR.call1(x), 0);
        check("round", Foreach::round, Foreach::round_, x -> PointwiseOps.ROUND.call1(x), 0);
        check("erf", Foreach::erf, Foreach::erf_, x -> PointwiseOps.ERF.call1(x), 0);
        check("frac", Foreach::frac, Foreach::frac_, x -> PointwiseOps.FRAC.call1(x), 0);
        check("sign", Foreach::sign, Foreach::sign_, x -> PointwiseOps.SIGN.call1(x), 0);
    }

    @Test
    void lgamma() {
        List<Tensor> r = Foreach.lgamma(List.of(t(0.5, 1, 2, 3.5, 10, -0.5, 0, -2)));
        double[] v = r.get(0).toDoubleArray();
        double[] expected = {
            0.5723649429247001,
            0,
            0,
            1.2009736023470743,
            12.801827480081469,
            1.2655121234846454,
            Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY
        };
        for (int i = 0; i < v.length; i++)
            assertEquals(expected[i], v[i], 1e-13 * Math.max(1, Math.abs(expected[i])), "lgamma " + i);
    }

    @Test
    void binaryOpsMatchTheSingleTensorOps() {
        check("add", xs -> Foreach.add(xs, 0.5), xs -> Foreach.add_(xs, 0.5), x -> x.add(0.5), 0);
        check("sub", xs -> Foreach.sub(xs, 0.25), xs -> Foreach.sub_(xs, 0.25), x -> x.sub(0.25), 0);
        check("mul", xs -> Foreach.mul(xs, 1.5), xs -> Foreach.mul_(xs, 1.5), x -> x.mul(1.5), 0);
        check("div", xs -> Foreach.div(xs, 3.0), xs -> Foreach.div_(xs, 3.0), x -> x.div(3.0), 0);
        check(
                "clamp_min",
                xs -> Foreach.clampMin(xs, 1.0),
                xs -> Foreach.clampMin_(xs, 1.0),
                x -> Torch.clampMin(x, 1.0),
                0);
        check(
                "clamp_max",
                xs -> Foreach.clampMax(xs, 1.0),
                xs -> Foreach.clampMax_(xs, 1.0),
                x -> Torch.clampMax(x, 1.0),
                0);
        check(
                "maximum",
                xs -> Foreach.maximum(xs, 1.0),
                xs -> Foreach.maximum_(xs, 1.0),
                x -> Torch.clampMin(x, 1.0),
                0);
        check("pow", xs -> Foreach.pow(xs, 2.0), xs -> Foreach.pow_(xs, 2.0), x -> x.pow(2.0), 0);
        check(
                "mul_tensor",
                xs -> Foreach.mul(xs, Torch.scalarTensor(2.5, DType.FLOAT64)),
                xs -> Foreach.mul_(xs, Torch.scalarTensor(2.5, DType.FLOAT64)),
                x -> x.mul(Torch.scalarTensor(2.5, DType.FLOAT64)),
                0);
        check(
                "add_tensor",
                xs -> Foreach.add(xs, Torch.scalarTensor(2.0, DType.FLOAT64), 0.5),
                xs -> Foreach.add_(xs, Torch.scalarTensor(2.0, DType.FLOAT64), 0.5),
                x -> x.add(Torch.scalarTensor(2.0, DType.FLOAT64), 0.5),
                0);
    }

    @Test
    void listOpsMatchTheSingleTensorOps() {
        List<Tensor> xs = mixed(1), ys = mixed(2), zs = mixed(3);
        List<Tensor> e = new ArrayList<>(), got;
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).add(ys.get(i), 0.3));
        assertListClose(e, Foreach.add(xs, ys, 0.3), 1e-6, "add list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).sub(ys.get(i), 2.0));
        assertListClose(e, Foreach.sub(xs, ys, 2.0), 1e-6, "sub list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).mul(ys.get(i)));
        assertListClose(e, Foreach.mul(xs, ys), 0, "mul list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).div(ys.get(i)));
        assertListClose(e, Foreach.div(xs, ys), 0, "div list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(Torch.maximum(xs.get(i), ys.get(i)));
        assertListClose(e, Foreach.maximum(xs, ys), 0, "maximum list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(Torch.minimum(xs.get(i), ys.get(i)));
        assertListClose(e, Foreach.minimum(xs, ys), 0, "minimum list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).addcmul(ys.get(i), zs.get(i), 0.7));
        assertListClose(e, Foreach.addcmul(xs, ys, zs, 0.7), 0, "addcmul");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).addcdiv(ys.get(i), zs.get(i), -0.7));
        assertListClose(e, Foreach.addcdiv(xs, ys, zs, -0.7), 0, "addcdiv");
        e.clear();
        double[] w = new double[xs.size()];
        for (int i = 0; i < w.length; i++) w[i] = 0.1 * (i % 10);
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).lerp(ys.get(i), w[i]));
        assertListClose(e, Foreach.lerp(xs, ys, w), 0, "lerp scalar list");
        assertListClose(e, Foreach.lerp_(clones(xs), ys, w), 0, "lerp_ scalar list");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).addcdiv(ys.get(i), zs.get(i), w[i]));
        assertListClose(e, Foreach.addcdiv(xs, ys, zs, Torch.tensor(w)), 0, "addcdiv packed scalars");
        e.clear();
        for (int i = 0; i < xs.size(); i++) e.add(xs.get(i).mul(w[i]));
        assertListClose(e, Foreach.mul(xs, w), 0, "mul scalar list");
        got = Foreach.clone(xs);
        assertListClose(xs, got, 0, "clone");
        assertTrue(got.get(0).untypedStorage() != xs.get(0).untypedStorage());
        List<Tensor> dst = Foreach.zero_(clones(xs));
        for (Tensor d : dst) for (double v : d.toDoubleArray()) assertEquals(0.0, v);
        Foreach.copy_(dst, xs);
        assertListClose(xs, dst, 0, "copy_");
    }

    @Test
    void integerListsKeepTheirDtypeWithIntegerScalars() {
        List<Tensor> ints = List.of(Torch.tensor(new long[] {1, 2}), Torch.tensor(new long[] {3}));
        List<Tensor> r = Foreach.add(ints, 2);
        assertEquals(DType.INT64, r.get(0).dtype());
        assertArrayEquals(new long[] {3, 4}, r.get(0).toLongArray());
        assertEquals(DType.FLOAT32, Foreach.add(ints, 0.5).get(0).dtype());
        assertEquals(DType.FLOAT32, Foreach.div(ints, 2).get(1).dtype());
    }

    @Test
    void metaTensorsGetShapesAndDtypesOnly() {
        Tensor m = Tensor.of(TensorImpl.meta(new long[] {2, 3}, DType.FLOAT32));
        List<Tensor> r = Foreach.addcmul(List.of(m), List.of(m), List.of(m), 0.5);
        assertEquals(Device.META, r.get(0).device());
        assertArrayEquals(new long[] {2, 3}, r.get(0).shape());
        assertEquals(Device.META, Foreach.norm(List.of(m)).get(0).device());
    }

    @Test
    void recordsAutogradPositionByPosition() {
        Tensor a = t(1, 2).requiresGrad(true), b = t(3).requiresGrad(true);
        List<Tensor> r = Foreach.mul(List.of(a, b), List.of(t(4, 5), t(6)));
        assertEquals("ForeachMulBackward0", r.get(0).gradFn().name());
        r.get(0).sum().add(r.get(1).sum()).backward();
        assertArrayEquals(new double[] {4, 5}, a.grad().toDoubleArray());
        assertArrayEquals(new double[] {6}, b.grad().toDoubleArray());
        assertThrows(
                TorchException.class, () -> Foreach.add_(List.of(a), 1.0), "in-place on a leaf that requires grad");
        try (var _ = Torch.noGrad()) {
            Foreach.add_(List.of(a), 1.0);
        }
        assertArrayEquals(new double[] {2, 3}, a.toDoubleArray());
    }

    @Test
    void emaInTwoCalls() {
        List<Tensor> ema = List.of(f(0, 0), f(1));
        List<Tensor> params = List.of(f(1, 2), f(3));
        double d = 0.9;
        Foreach.mul_(ema, d);
        Foreach.add_(ema, params, 1 - d);
        assertValues(ema, new double[] {0.1, 0.2}, new double[] {1.2});
    }
}

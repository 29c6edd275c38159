package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.ValuesIndices;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.kernels.cpu.ReduceLoops;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Json;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The reduction family against naive loops written here, closed forms, and the PyTorch golden fixtures (core.json).
 * Where PyTorch 2.13 (which made the fixtures) differs from the 2.15 contract or from JTorch's documented accumulation,
 * the case is overridden below and says why.
 */
class ReductionOpsTest {

    // ---- building inputs ----------------------------------------------------------------------------

    /** A contiguous tensor of {@code dtype} holding {@code values} (complex: interleaved re, im). */
    static Tensor make(DType dtype, long[] shape, double[] values) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        var seg = t.impl().storage().segment();
        for (int i = 0; i < t.numel(); i++) {
            if (dtype.isComplex()) io.setComplex(seg, i, values[2 * i], values[2 * i + 1]);
            else io.setDouble(seg, i, values[i]);
        }
        return t;
    }

    static Tensor make(DType dtype, long[] shape, long[] values) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (int i = 0; i < t.numel(); i++) io.setLong(t.impl().storage().segment(), i, values[i]);
        return t;
    }

    /** Swaps two dims: a non-contiguous view of the same storage. */
    static Tensor transpose(Tensor t, int d0, int d1) {
        long[] shape = t.shape(), strides = t.stride();
        long s = shape[d0];
        shape[d0] = shape[d1];
        shape[d1] = s;
        s = strides[d0];
        strides[d0] = strides[d1];
        strides[d1] = s;
        return Views.of(t, t.storageOffset(), shape, strides);
    }

    /** Random values of a dtype (small integers, quarter-step reals so half types hold them exactly). */
    static Tensor random(DType dtype, long[] shape, long seed) {
        Random r = new Random(seed);
        int n = (int) Shapes.numel(shape) * dtype.slotsPerElement();
        if (dtype.isIntegral(true)) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++)
                v[i] = dtype == DType.BOOL
                        ? r.nextInt(2)
                        : r.nextInt(dtype.isSigned() ? 13 : 7) - (dtype.isSigned() ? 6 : 0);
            return make(dtype, shape, v);
        }
        double[] v = new double[n];
        for (int i = 0; i < n; i++) v[i] = Math.round(r.nextGaussian() * 8) / 4.0;
        return make(dtype, shape, v);
    }

    // ---- naive references ---------------------------------------------------------------------------

    /** Groups the row-major elements of {@code shape} by output (kept dims), in row-major order within each lane. */
    static List<List<Integer>> lanes(long[] shape, boolean[] reduced) {
        int n = (int) Shapes.numel(shape);
        List<List<Integer>> out = new ArrayList<>();
        java.util.Map<Long, List<Integer>> byKey = new java.util.TreeMap<>();
        for (int i = 0; i < n; i++) {
            long key = 0, rem = i;
            long[] coord = new long[shape.length];
            for (int d = shape.length - 1; d >= 0; d--) {
                coord[d] = rem % shape[d];
                rem /= shape[d];
            }
            for (int d = 0; d < shape.length; d++) if (!reduced[d]) key = key * shape[d] + coord[d];
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(i);
        }
        long outputs = 1;
        for (int d = 0; d < shape.length; d++) if (!reduced[d]) outputs *= shape[d];
        for (long k = 0; k < outputs; k++) out.add(byKey.getOrDefault(k, List.of()));
        return out;
    }

    static double[] naive(Tensor x, boolean[] reduced, ToDoubleFunction<double[]> f) {
        double[] data = x.toDoubleArray();
        List<List<Integer>> ls = lanes(x.impl().shapeRef(), reduced);
        double[] out = new double[ls.size()];
        for (int o = 0; o < out.length; o++) {
            double[] lane = ls.get(o).stream().mapToDouble(i -> data[i]).toArray();
            out[o] = f.applyAsDouble(lane);
        }
        return out;
    }

    static double naiveSum(double[] v) {
        double s = 0;
        for (double x : v) s += x;
        return s;
    }

    static double naiveMax(double[] v) {
        double m = v[0];
        for (double x : v)
            if (Double.isNaN(x) || x > m) {
                m = x;
                if (Double.isNaN(x)) break;
            }
        return m;
    }

    static double naiveArgmax(double[] v) {
        int best = 0;
        for (int i = 1; i < v.length; i++)
            if (!Double.isNaN(v[best]) && (Double.isNaN(v[i]) || v[i] > v[best])) best = i;
        return best;
    }

    static double naiveVar(double[] v, double correction) {
        double mean = naiveSum(v) / v.length, ss = 0;
        for (double x : v) ss += (x - mean) * (x - mean);
        return ss / Math.max(0, v.length - correction);
    }

    static double naiveLogSumExp(double[] v) {
        double s = 0;
        for (double x : v) s += Math.exp(x);
        return Math.log(s);
    }

    static boolean[] mask(int rank, int... dims) {
        boolean[] m = new boolean[rank];
        if (dims.length == 0) java.util.Arrays.fill(m, true);
        for (int d : dims) m[d] = true;
        return m;
    }

    static void assertClose(double[] expected, double[] actual, double rtol, String what) {
        assertEquals(expected.length, actual.length, what + ": length");
        for (int i = 0; i < expected.length; i++) {
            double e = expected[i], a = actual[i];
            if (Double.isNaN(e) || Double.isInfinite(e)) {
                assertEquals(e, a, what + " [" + i + "]");
                continue;
            }
            assertTrue(
                    Math.abs(e - a) <= rtol * Math.max(1, Math.abs(e)),
                    what + " [" + i + "]: expected " + e + " got " + a);
        }
    }

    // ---- naive-loop sweeps --------------------------------------------------------------------------

    @Nested
    class AgainstNaiveLoops {
        final long[] shape = {3, 4, 5};
        final int[][] dimSets = {{}, {0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1}};

        /** Inputs: contiguous, and a transposed view holding different logical data. */
        List<Tensor> inputs(DType dtype) {
            Tensor c = random(dtype, shape, dtype.ordinal() * 31L + 7);
            Tensor nc = transpose(random(dtype, new long[] {5, 4, 3}, dtype.ordinal() * 17L + 3), 0, 2);
            assertFalse(nc.isContiguous());
            return List.of(c, nc);
        }

        static long[] longs(int[] dims) {
            return java.util.Arrays.stream(dims).asLongStream().toArray();
        }

        @Test
        void sumMeanAmaxAmin() {
            for (DType dt : new DType[] {
                DType.FLOAT32, DType.FLOAT64, DType.FLOAT16, DType.BFLOAT16, DType.INT32, DType.INT8, DType.UINT8
            }) {
                for (Tensor x : inputs(dt)) {
                    for (int[] ds : dimSets) {
                        boolean[] m = mask(3, ds);
                        String what =
                                dt + " dims " + java.util.Arrays.toString(ds) + (x.isContiguous() ? "" : " (strided)");
                        Tensor s = ReductionOps.sum(x, longs(ds), false);
                        assertEquals(dt.isIntegral(true) ? DType.INT64 : dt, s.dtype(), what);
                        double tol = dt == DType.FLOAT16 ? 1e-3 : dt == DType.BFLOAT16 ? 8e-3 : 1e-6;
                        assertClose(naive(x, m, ReductionOpsTest::naiveSum), s.toDoubleArray(), tol, "sum " + what);
                        assertClose(
                                naive(x, m, ReductionOpsTest::naiveMax),
                                ReductionOps.amax(x, longs(ds), false).toDoubleArray(),
                                0,
                                "amax " + what);
                        assertClose(
                                naive(
                                        x,
                                        m,
                                        v -> -naiveMax(java.util.Arrays.stream(v)
                                                .map(a -> -a)
                                                .toArray())),
                                ReductionOps.amin(x, longs(ds), false).toDoubleArray(),
                                0,
                                "amin " + what);
                        if (dt.isFloatingPoint()) {
                            assertClose(
                                    naive(x, m, v -> naiveSum(v) / v.length),
                                    ReductionOps.mean(x, longs(ds), false).toDoubleArray(),
                                    tol,
                                    "mean " + what);
                        }
                    }
                }
            }
        }

        @Test
        void keepdimShapes() {
            Tensor x = random(DType.FLOAT32, shape, 1);
            assertArrayEquals(
                    new long[] {3, 1, 5},
                    ReductionOps.sum(x, new long[] {1}, true).shape());
            assertArrayEquals(
                    new long[] {1, 4, 1},
                    ReductionOps.amax(x, new long[] {0, -1}, true).shape());
            assertArrayEquals(
                    new long[] {4},
                    ReductionOps.sum(x, new long[] {0, -1}, false).shape());
            assertArrayEquals(
                    new long[] {1, 1, 1},
                    ReductionOps.mean(x, (long[]) null, true).shape());
            assertArrayEquals(new long[] {}, ReductionOps.sum(x).shape());
            assertArrayEquals(new long[] {1, 1, 1}, ReductionOps.argmax(x, true).shape());
        }

        @Test
        void maxMinWithIndicesAndArgmax() {
            for (DType dt :
                    new DType[] {DType.FLOAT32, DType.FLOAT64, DType.BFLOAT16, DType.INT64, DType.INT16, DType.UINT8}) {
                for (Tensor x : inputs(dt)) {
                    for (int d = 0; d < 3; d++) {
                        boolean[] m = mask(3, d);
                        ValuesIndices vi = ReductionOps.max(x, d);
                        assertEquals(dt, vi.values().dtype());
                        assertEquals(DType.INT64, vi.indices().dtype());
                        assertClose(
                                naive(x, m, ReductionOpsTest::naiveMax),
                                vi.values().toDoubleArray(),
                                0,
                                "max values " + dt + " dim " + d);
                        assertClose(
                                naive(x, m, ReductionOpsTest::naiveArgmax),
                                vi.indices().toDoubleArray(),
                                0,
                                "max indices " + dt + " dim " + d);
                        assertClose(
                                naive(x, m, ReductionOpsTest::naiveArgmax),
                                ReductionOps.argmax(x, d).toDoubleArray(),
                                0,
                                "argmax " + dt);
                        double[] negArg = naive(
                                x,
                                m,
                                v -> naiveArgmax(
                                        java.util.Arrays.stream(v).map(a -> -a).toArray()));
                        assertClose(
                                negArg,
                                ReductionOps.min(x, d).indices().toDoubleArray(),
                                0,
                                "min indices " + dt + " dim " + d);
                        assertClose(negArg, ReductionOps.argmin(x, d, true).toDoubleArray(), 0, "argmin keepdim " + dt);
                    }
                    assertEquals(
                            naive(x, mask(3), ReductionOpsTest::naiveArgmax)[0],
                            ReductionOps.argmax(x).item(),
                            "flat argmax " + dt);
                    assertEquals(
                            naive(x, mask(3), ReductionOpsTest::naiveMax)[0],
                            ReductionOps.max(x).item(),
                            "max() " + dt);
                }
            }
        }

        @Test
        void varStdLogsumexpNormProd() {
            for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
                for (Tensor x : inputs(dt)) {
                    for (int[] ds : dimSets) {
                        boolean[] m = mask(3, ds);
                        String what = dt + " dims " + java.util.Arrays.toString(ds);
                        long[] dims = longs(ds);
                        for (double c : new double[] {0, 1, 2.5}) {
                            assertClose(
                                    naive(x, m, v -> naiveVar(v, c)),
                                    ReductionOps.var(x, dims, c, false).toDoubleArray(),
                                    1e-6,
                                    "var " + what);
                            assertClose(
                                    naive(x, m, v -> Math.sqrt(naiveVar(v, c))),
                                    ReductionOps.std(x, dims, c, false).toDoubleArray(),
                                    1e-6,
                                    "std " + what);
                        }
                        assertClose(
                                naive(x, m, ReductionOpsTest::naiveLogSumExp),
                                ReductionOps.logsumexp(x, dims, false).toDoubleArray(),
                                1e-6,
                                "logsumexp " + what);
                        assertClose(
                                naive(
                                        x,
                                        m,
                                        v -> Math.sqrt(naiveSum(java.util.Arrays.stream(v)
                                                .map(a -> a * a)
                                                .toArray()))),
                                ReductionOps.vectorNorm(x, 2, dims, false).toDoubleArray(),
                                1e-6,
                                "norm2 " + what);
                        assertClose(
                                naive(
                                        x,
                                        m,
                                        v -> Math.pow(
                                                naiveSum(java.util.Arrays.stream(v)
                                                        .map(a -> Math.pow(Math.abs(a), 3))
                                                        .toArray()),
                                                1 / 3.0)),
                                ReductionOps.vectorNorm(x, 3, dims, false).toDoubleArray(),
                                1e-6,
                                "norm3 " + what);
                        assertClose(
                                naive(x, m, v -> java.util.Arrays.stream(v)
                                        .filter(a -> a != 0)
                                        .count()),
                                ReductionOps.vectorNorm(x, 0, dims, false).toDoubleArray(),
                                0,
                                "norm0 " + what);
                        assertClose(
                                naive(x, m, v -> java.util.Arrays.stream(v)
                                        .map(Math::abs)
                                        .min()
                                        .orElseThrow()),
                                ReductionOps.vectorNorm(x, Double.NEGATIVE_INFINITY, dims, false)
                                        .toDoubleArray(),
                                0,
                                "norm-inf " + what);
                        assertClose(
                                naive(x, m, v -> java.util.Arrays.stream(v).reduce(1, (a, b) -> a * b)),
                                ReductionOps.PROD.call1(x, dims, false, null).toDoubleArray(),
                                1e-6,
                                "prod " + what);
                    }
                }
            }
        }

        @Test
        void allAnyOverDtypes() {
            for (DType dt : new DType[] {DType.BOOL, DType.UINT8, DType.INT32, DType.FLOAT32, DType.COMPLEX64}) {
                for (Tensor x : inputs(dt)) {
                    for (int[] ds : dimSets) {
                        boolean[] m = mask(3, ds);
                        double[] all, any;
                        if (dt.isComplex()) {
                            double[] pairs = x.toDoubleArray();
                            double[] truthy = new double[pairs.length / 2];
                            for (int i = 0; i < truthy.length; i++)
                                truthy[i] = pairs[2 * i] != 0 || pairs[2 * i + 1] != 0 ? 1 : 0;
                            Tensor t = make(DType.FLOAT64, x.shape(), truthy);
                            all = naive(t, m, v -> java.util.Arrays.stream(v).allMatch(a -> a != 0) ? 1 : 0);
                            any = naive(t, m, v -> java.util.Arrays.stream(v).anyMatch(a -> a != 0) ? 1 : 0);
                        } else {
                            all = naive(x, m, v -> java.util.Arrays.stream(v).allMatch(a -> a != 0) ? 1 : 0);
                            any = naive(x, m, v -> java.util.Arrays.stream(v).anyMatch(a -> a != 0) ? 1 : 0);
                        }
                        Tensor ra = ReductionOps.all(x, longs(ds), false), ry = ReductionOps.any(x, longs(ds), false);
                        assertEquals(dt == DType.UINT8 ? DType.UINT8 : DType.BOOL, ra.dtype());
                        assertClose(all, ra.toDoubleArray(), 0, "all " + dt);
                        assertClose(any, ry.toDoubleArray(), 0, "any " + dt);
                    }
                }
            }
        }

        @Test
        void scansAlongEachDim() {
            for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64, DType.INT32, DType.BOOL}) {
                for (Tensor x : inputs(dt)) {
                    double[] data = x.toDoubleArray();
                    for (int d = 0; d < 3; d++) {
                        double[] sum = data.clone(), prod = data.clone();
                        long stride = 1;
                        for (int k = d + 1; k < 3; k++) stride *= x.impl().shapeRef()[k];
                        for (int i = 0; i < data.length; i++) {
                            long pos = (i / stride) % x.impl().shapeRef()[d];
                            if (pos > 0) {
                                sum[i] = sum[(int) (i - stride)] + data[i];
                                prod[i] = prod[(int) (i - stride)] * data[i];
                            }
                        }
                        Tensor cs = ReductionOps.cumsum(x, d), cp = ReductionOps.cumprod(x, d);
                        assertEquals(dt.isIntegral(true) ? DType.INT64 : dt, cs.dtype());
                        assertClose(sum, cs.toDoubleArray(), 1e-6, "cumsum " + dt + " dim " + d);
                        assertClose(prod, cp.toDoubleArray(), 1e-6, "cumprod " + dt + " dim " + d);
                    }
                }
            }
        }

        @Test
        void softmaxAlongEachDim() {
            for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
                for (Tensor x : inputs(dt)) {
                    for (int d = 0; d < 3; d++) {
                        boolean[] m = mask(3, d);
                        double[] lse = naive(x, m, ReductionOpsTest::naiveLogSumExp);
                        double[] data = x.toDoubleArray();
                        double[] expectedLog = new double[data.length];
                        List<List<Integer>> ls = lanes(x.impl().shapeRef(), m);
                        for (int o = 0; o < ls.size(); o++) for (int i : ls.get(o)) expectedLog[i] = data[i] - lse[o];
                        double[] expected = java.util.Arrays.stream(expectedLog)
                                .map(Math::exp)
                                .toArray();
                        assertClose(
                                expectedLog,
                                ReductionOps.logSoftmax(x, d).toDoubleArray(),
                                1e-6,
                                "log_softmax " + dt + " dim " + d);
                        assertClose(
                                expected,
                                ReductionOps.softmax(x, d).toDoubleArray(),
                                1e-6,
                                "softmax " + dt + " dim " + d);
                    }
                }
            }
        }

        @Test
        void complexSumMeanProdVarNorm() {
            Tensor x = random(DType.COMPLEX128, new long[] {3, 4}, 5);
            double[] p = x.toDoubleArray();
            for (int r = 0; r < 3; r++) {
                double sr = 0, si = 0, pr = 1, pi = 0, sq = 0;
                for (int c = 0; c < 4; c++) {
                    double a = p[2 * (r * 4 + c)], b = p[2 * (r * 4 + c) + 1];
                    sr += a;
                    si += b;
                    double t = pr * a - pi * b;
                    pi = pr * b + pi * a;
                    pr = t;
                    sq += a * a + b * b;
                }
                double mr = sr / 4, mi = si / 4, dev = 0;
                for (int c = 0; c < 4; c++) {
                    double a = p[2 * (r * 4 + c)] - mr, b = p[2 * (r * 4 + c) + 1] - mi;
                    dev += a * a + b * b;
                }
                double[] s = ReductionOps.sum(x, 1).toDoubleArray(),
                        mn = ReductionOps.mean(x, 1).toDoubleArray();
                double[] pd = ReductionOps.prod(x, 1).toDoubleArray();
                assertClose(new double[] {sr, si}, new double[] {s[2 * r], s[2 * r + 1]}, 1e-12, "complex sum");
                assertClose(new double[] {mr, mi}, new double[] {mn[2 * r], mn[2 * r + 1]}, 1e-12, "complex mean");
                assertClose(new double[] {pr, pi}, new double[] {pd[2 * r], pd[2 * r + 1]}, 1e-12, "complex prod");
                assertEquals(dev / 3, ReductionOps.var(x, 1).toDoubleArray()[r], 1e-12, "complex var");
                assertEquals(
                        Math.sqrt(sq),
                        ReductionOps.vectorNorm(x, 2, new long[] {1}, false).toDoubleArray()[r],
                        1e-12);
            }
            Tensor y = transpose(random(DType.COMPLEX64, new long[] {5, 4, 3}, 6), 0, 2);
            double[] q = y.toDoubleArray();
            double[] re = new double[q.length / 2], im = new double[q.length / 2];
            for (int i = 0; i < re.length; i++) {
                re[i] = q[2 * i];
                im[i] = q[2 * i + 1];
            }
            boolean[] m = mask(3, 0, 2);
            double[] expected = naive(make(DType.FLOAT64, y.shape(), re), m, v -> naiveVar(v, 1));
            double[] expectedIm = naive(make(DType.FLOAT64, y.shape(), im), m, v -> naiveVar(v, 1));
            for (int i = 0; i < expected.length; i++) expected[i] += expectedIm[i];
            assertClose(
                    expected,
                    ReductionOps.var(y, new long[] {0, 2}, 1, false).toDoubleArray(),
                    1e-6,
                    "complex var over runs");
            assertEquals(DType.FLOAT64, ReductionOps.var(x).dtype());
            assertEquals(DType.FLOAT64, ReductionOps.vectorNorm(x).dtype());
            assertEquals(DType.COMPLEX128, ReductionOps.sum(x).dtype());
        }
    }

    // ---- closed forms and special values ------------------------------------------------------------

    @Nested
    class ClosedForms {
        @Test
        void arangeSums() {
            Tensor a = Torch.arange(1000L);
            assertEquals(DType.INT64, ReductionOps.sum(a).dtype());
            assertEquals(999L * 1000 / 2, ReductionOps.sum(a).longItem());
            Tensor f = Torch.arange(0.0, 1000.0, 1.0, DType.FLOAT64);
            assertEquals(499.5, ReductionOps.mean(f).item());
            // variance of 0..n-1 with correction 1 is n(n+1)/12
            assertEquals(1000.0 * 1001 / 12, ReductionOps.var(f).item(), 1e-9);
            assertEquals(
                    1000.0 * 1001 / 12 * 999 / 1000, ReductionOps.var(f, false).item(), 1e-9);
            assertEquals(Math.sqrt(1000.0 * 1001 / 12), ReductionOps.std(f).item(), 1e-9);
            assertEquals(3628800L, ReductionOps.prod(Torch.arange(1L, 11L)).longItem());
        }

        @Test
        void normsOfThreeFour() {
            Tensor v = Torch.tensor(new float[] {3, -4});
            assertEquals(5.0, ReductionOps.vectorNorm(v).item());
            assertEquals(7.0, ReductionOps.vectorNorm(v, 1).item());
            assertEquals(
                    4.0, ReductionOps.vectorNorm(v, Double.POSITIVE_INFINITY).item());
            assertEquals(
                    3.0, ReductionOps.vectorNorm(v, Double.NEGATIVE_INFINITY).item());
            assertEquals(2.0, ReductionOps.vectorNorm(v, 0).item());
            assertEquals(12.0 / 7, ReductionOps.vectorNorm(v, -1).item(), 1e-6);
            Tensor c = make(DType.COMPLEX64, new long[] {1}, new double[] {3, 4});
            assertEquals(5.0, ReductionOps.vectorNorm(c).item());
            assertEquals(DType.FLOAT32, ReductionOps.vectorNorm(c).dtype());
        }

        @Test
        void softmaxAndLogsumexpOfConstants() {
            Tensor z = Torch.zeros(3, 8);
            for (double p : ReductionOps.softmax(z, 1).toDoubleArray()) assertEquals(0.125, p);
            for (double p : ReductionOps.logsumexp(z, 1).toDoubleArray()) assertEquals(Math.log(8), p, 1e-6);
            // stability: exp(1000) overflows, the shifted form does not
            Tensor big = Torch.tensor(new double[] {1000, 1000});
            assertEquals(1000 + Math.log(2), ReductionOps.logsumexp(big, 0).item(), 1e-9);
            assertArrayEquals(
                    new double[] {0.5, 0.5}, ReductionOps.softmax(big, 0).toDoubleArray());
            Tensor ninf = Torch.tensor(new double[] {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY});
            assertEquals(
                    Double.NEGATIVE_INFINITY, ReductionOps.logsumexp(ninf, 0).item());
            assertEquals(
                    Double.NEGATIVE_INFINITY,
                    ReductionOps.logsumexp(Torch.zeros(0), 0).item());
        }

        @Test
        void scansOfOnes() {
            double[] expected = {1, 2, 3, 4, 5};
            assertArrayEquals(expected, ReductionOps.cumsum(Torch.ones(5), 0).toDoubleArray());
            assertArrayEquals(
                    new double[] {1, 1, 1, 1, 1},
                    ReductionOps.cumprod(Torch.ones(5), 0).toDoubleArray());
            assertArrayEquals(
                    new long[] {1, 2, 6, 24},
                    ReductionOps.cumprod(Torch.arange(1L, 5L), 0).toLongArray());
            Tensor b = Torch.tensor(new boolean[] {true, false, true});
            assertEquals(DType.INT64, ReductionOps.cumsum(b, 0).dtype());
            assertArrayEquals(new long[] {1, 1, 2}, ReductionOps.cumsum(b, 0).toLongArray());
            assertEquals(DType.FLOAT64, ReductionOps.cumsum(b, 0, DType.FLOAT64).dtype());
        }

        @Test
        void nanAwareReductions() {
            Tensor x = Torch.tensor(new double[] {1, Double.NaN, 3});
            assertTrue(Double.isNaN(ReductionOps.sum(x).item()));
            assertEquals(4.0, ReductionOps.nansum(x).item());
            assertEquals(2.0, ReductionOps.nanmean(x).item());
            assertTrue(Double.isNaN(ReductionOps.max(x).item()));
            assertTrue(Double.isNaN(ReductionOps.amin(x).item()));
            assertEquals(1, ReductionOps.argmax(x).longItem());
            assertEquals(1, ReductionOps.argmin(x).longItem());
            assertTrue(Double.isNaN(ReductionOps.nanmean(Torch.tensor(new double[] {Double.NaN}))
                    .item()));
        }

        @Test
        void tiesGoToTheFirstIndex() {
            Tensor x = Torch.tensor(new float[][] {{1, 3, 3, 0}, {2, 2, 2, 2}});
            assertArrayEquals(
                    new long[] {1, 0}, ReductionOps.max(x, 1).indices().toLongArray());
            assertArrayEquals(
                    new long[] {3, 0}, ReductionOps.min(x, 1).indices().toLongArray());
            assertEquals(1, ReductionOps.argmax(x).longItem());
        }

        @Test
        void emptyReductionsGiveIdentities() {
            Tensor e = Torch.zeros(0, 3);
            assertArrayEquals(new double[] {0, 0, 0}, ReductionOps.sum(e, 0).toDoubleArray());
            assertArrayEquals(new double[] {1, 1, 1}, ReductionOps.prod(e, 0).toDoubleArray());
            assertTrue(Double.isNaN(ReductionOps.mean(e).item()));
            assertEquals(1.0, ReductionOps.all(e).item());
            assertEquals(0.0, ReductionOps.any(e).item());
            assertArrayEquals(new long[] {0}, ReductionOps.amax(e, 1).shape());
            assertEquals(0.0, ReductionOps.vectorNorm(e).item());
            assertArrayEquals(new long[] {0, 3}, ReductionOps.softmax(e, 1).shape());
        }

        @Test
        void zeroDimInputs() {
            Tensor s = Torch.scalarTensor(2.5);
            assertEquals(2.5, ReductionOps.sum(s, 0).item());
            assertEquals(2.5, ReductionOps.sum(s, new long[] {-1}, true).item());
            assertEquals(0, ReductionOps.max(s, 0).indices().longItem());
            assertEquals(1.0, ReductionOps.softmax(s, 0).item());
            assertEquals(2.5, ReductionOps.cumsum(s, 0).item());
            assertArrayEquals(new long[] {}, ReductionOps.cumsum(s, 0).shape());
        }

        @Test
        void halfSumsAccumulateWideAndRoundOnce() {
            // a float16 accumulator would stop at 2048 (2048 + 1 rounds back to 2048)
            Tensor ones = make(
                    DType.FLOAT16,
                    new long[] {4096},
                    java.util.stream.DoubleStream.generate(() -> 1).limit(4096).toArray());
            assertEquals(4096.0, ReductionOps.sum(ones).item());
            assertEquals(DType.FLOAT16, ReductionOps.sum(ones).dtype());
            Tensor bf = make(
                    DType.BFLOAT16,
                    new long[] {4096},
                    java.util.stream.DoubleStream.generate(() -> 1).limit(4096).toArray());
            assertEquals(4096.0, ReductionOps.sum(bf).item());
            assertEquals(1.0, ReductionOps.mean(bf).item());
            assertEquals(DType.FLOAT32, ReductionOps.sum(ones, DType.FLOAT32).dtype());
        }

        @Test
        void integerSumsWidenAndWrap() {
            Tensor i8 =
                    make(DType.INT8, new long[] {10}, new long[] {100, 100, 100, 100, 100, 100, 100, 100, 100, 100});
            assertEquals(1000, ReductionOps.sum(i8).longItem());
            Tensor big = Torch.tensor(new long[] {Long.MAX_VALUE, 1});
            assertEquals(Long.MIN_VALUE, ReductionOps.sum(big).longItem());
            assertEquals(
                    3,
                    ReductionOps.sum(Torch.tensor(new double[] {1.5, 2.7}), DType.INT64)
                            .longItem());
            Tensor u64 = make(DType.UINT64, new long[] {2}, new long[] {-1L, 5});
            assertEquals(-1L, ReductionOps.amax(u64).longItem(), "uint64 orders unsigned: 2^64-1 is the max");
            assertEquals(1, ReductionOps.argmin(u64).longItem());
        }
    }

    // ---- float32 fast path: blocks and determinism --------------------------------------------------

    @Nested
    class FastPath {
        float[] randomFloats(int n, long seed) {
            Random r = new Random(seed);
            float[] f = new float[n];
            for (int i = 0; i < n; i++) f[i] = (float) r.nextGaussian();
            return f;
        }

        @Test
        void fullSumIsBitwiseIdenticalForAnyThreadCount() {
            float[] data = randomFloats(1 << 20, 42);
            Tensor x = Torch.tensor(data);
            int before = Parallel.numThreads();
            try {
                Parallel.setNumThreads(1);
                float one = (float) ReductionOps.sum(x).item();
                float meanOne = (float) ReductionOps.mean(x).item();
                Parallel.setNumThreads(2);
                float two = (float) ReductionOps.sum(x).item();
                float meanTwo = (float) ReductionOps.mean(x).item();
                assertEquals(Float.floatToRawIntBits(one), Float.floatToRawIntBits(two));
                assertEquals(Float.floatToRawIntBits(meanOne), Float.floatToRawIntBits(meanTwo));
                double exact = 0;
                for (float f : data) exact += f;
                assertEquals(exact, one, 1e-3, "close to the double-accumulated sum");
            } finally {
                Parallel.setNumThreads(before);
            }
        }

        @Test
        void laneSumsUseTheSameBlocksAsFullSums() {
            int len = 3 * ReduceLoops.BLOCK + 123;
            float[] data = randomFloats(2 * len, 7);
            Tensor rows = make(DType.FLOAT32, new long[] {2, len}, toDouble(data));
            double[] perRow = ReductionOps.sum(rows, 1).toDoubleArray();
            for (int r = 0; r < 2; r++) {
                Tensor row = Views.of(rows, r * (long) len, new long[] {len}, new long[] {1});
                assertEquals(perRow[r], ReductionOps.sum(row).item(), "row " + r + " bits");
            }
        }

        @Test
        void fastAndGenericPathsAgree() {
            float[] data = randomFloats(6 * 40_000, 9);
            Tensor x = make(DType.FLOAT32, new long[] {6, 40_000}, toDouble(data));
            Tensor strided = transpose(transpose(x, 0, 1).contiguous(), 0, 1); // same values, column-major
            assertFalse(strided.isContiguous());
            assertClose(
                    ReductionOps.sum(strided, 1).toDoubleArray(),
                    ReductionOps.sum(x, 1).toDoubleArray(),
                    1e-5,
                    "sum");
            assertClose(
                    ReductionOps.amax(strided, 1).toDoubleArray(),
                    ReductionOps.amax(x, 1).toDoubleArray(),
                    0,
                    "amax");
            assertClose(
                    ReductionOps.amin(strided, 1).toDoubleArray(),
                    ReductionOps.amin(x, 1).toDoubleArray(),
                    0,
                    "amin");
            assertClose(
                    ReductionOps.mean(strided, 1).toDoubleArray(),
                    ReductionOps.mean(x, 1).toDoubleArray(),
                    1e-5,
                    "mean");
            float[] withNan = data.clone();
            withNan[70_000] = Float.NaN;
            Tensor n = Torch.tensor(withNan);
            assertTrue(Double.isNaN(ReductionOps.amax(n).item()));
            assertTrue(Double.isNaN(ReductionOps.amin(n).item()));
            assertTrue(Double.isNaN(ReductionOps.sum(n).item()));
        }

        @Test
        void leadingDimSumsMatchTheGenericPathBitForBit() {
            for (DType dt : new DType[] {DType.FLOAT32, DType.FLOAT64}) {
                Tensor x = make(dt, new long[] {300, 7, 11}, toDouble(randomFloats(300 * 77, 3)));
                Tensor strided = transpose(transpose(x, 0, 2).contiguous(), 0, 2); // same values, another layout
                for (long[] dims : new long[][] {{0}, {0, 1}}) {
                    assertArrayEquals(
                            ReductionOps.sum(strided, dims, false).toDoubleArray(),
                            ReductionOps.sum(x, dims, false).toDoubleArray(),
                            dt + " sum " + java.util.Arrays.toString(dims));
                    assertArrayEquals(
                            ReductionOps.mean(strided, dims, true).toDoubleArray(),
                            ReductionOps.mean(x, dims, true).toDoubleArray(),
                            dt + " mean " + java.util.Arrays.toString(dims));
                }
            }
        }

        @Test
        void float32SoftmaxMatchesTheDoublePath() {
            Tensor x = make(DType.FLOAT32, new long[] {40, 300}, toDouble(randomFloats(40 * 300, 11)));
            Tensor strided = transpose(transpose(x, 0, 1).contiguous(), 0, 1);
            assertClose(
                    ReductionOps.softmax(strided, 1).toDoubleArray(),
                    ReductionOps.softmax(x, 1).toDoubleArray(),
                    1e-6,
                    "softmax");
            assertClose(
                    ReductionOps.logSoftmax(strided, 1).toDoubleArray(),
                    ReductionOps.logSoftmax(x, 1).toDoubleArray(),
                    2e-6,
                    "log_softmax");
            Tensor special = Torch.tensor(new float[][] {
                {1000, 1000, -1000},
                {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, 0},
                {Float.NaN, 1, 2},
                {Float.POSITIVE_INFINITY, 1, 2}
            });
            Tensor specialStrided = transpose(transpose(special, 0, 1).contiguous(), 0, 1);
            assertClose(
                    ReductionOps.softmax(specialStrided, 1).toDoubleArray(),
                    ReductionOps.softmax(special, 1).toDoubleArray(),
                    1e-6,
                    "special");
            assertClose(
                    ReductionOps.logSoftmax(specialStrided, 1).toDoubleArray(),
                    ReductionOps.logSoftmax(special, 1).toDoubleArray(),
                    1e-6,
                    "special log");
        }

        @Test
        void float64TrailingSumsAgreeWithTheGenericPath() {
            Tensor x = make(DType.FLOAT64, new long[] {3, 70_001}, toDouble(randomFloats(3 * 70_001, 5)));
            Tensor strided = transpose(transpose(x, 0, 1).contiguous(), 0, 1);
            assertClose(
                    ReductionOps.sum(strided, 1).toDoubleArray(),
                    ReductionOps.sum(x, 1).toDoubleArray(),
                    1e-12,
                    "sum");
            assertClose(
                    ReductionOps.amax(strided, 1).toDoubleArray(),
                    ReductionOps.amax(x, 1).toDoubleArray(),
                    0,
                    "amax");
            assertClose(
                    ReductionOps.amin(strided, 1).toDoubleArray(),
                    ReductionOps.amin(x, 1).toDoubleArray(),
                    0,
                    "amin");
            assertEquals(ReductionOps.sum(strided).item(), ReductionOps.sum(x).item(), 1e-9);
        }

        double[] toDouble(float[] f) {
            double[] d = new double[f.length];
            for (int i = 0; i < f.length; i++) d[i] = f[i];
            return d;
        }
    }

    // ---- meta device and errors ---------------------------------------------------------------------

    @Nested
    class MetaAndErrors {
        final Tensor meta = Tensor.of(TensorImpl.meta(new long[] {2, 3, 4}, DType.INT32));

        @Test
        void metaGivesShapesAndDtypes() {
            Tensor s = ReductionOps.sum(meta, new long[] {0, 2}, true);
            assertEquals(Device.META, s.device());
            assertEquals(DType.INT64, s.dtype());
            assertArrayEquals(new long[] {1, 3, 1}, s.shape());
            ValuesIndices m = ReductionOps.max(meta, 1, false);
            assertArrayEquals(new long[] {2, 4}, m.values().shape());
            assertEquals(DType.INT32, m.values().dtype());
            assertEquals(DType.INT64, m.indices().dtype());
            Tensor f = Tensor.of(TensorImpl.meta(new long[] {2, 3}, DType.COMPLEX64));
            assertEquals(DType.FLOAT32, ReductionOps.var(f, 1).dtype());
            assertEquals(DType.FLOAT32, ReductionOps.vectorNorm(f).dtype());
            assertEquals(DType.FLOAT32, ReductionOps.logsumexp(meta, 0).dtype());
            assertEquals(DType.BOOL, ReductionOps.any(meta, 2).dtype());
            assertArrayEquals(new long[] {2, 3, 4}, ReductionOps.cumsum(meta, 1).shape());
            assertEquals(
                    DType.FLOAT64, ReductionOps.softmax(meta, 1, DType.FLOAT64).dtype());
            assertThrows(TorchException.class, () -> ReductionOps.mean(meta));
        }

        @Test
        void dimErrors() {
            Tensor x = Torch.ones(2, 3);
            IndexOutOfBoundsException range =
                    assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.sum(x, 2));
            assertTrue(range.getMessage()
                    .contains("Dimension out of range (expected to be in range of [-2, 1], but got 2)"));
            TorchException dup =
                    assertThrows(TorchException.class, () -> ReductionOps.sum(x, new long[] {0, -2}, false));
            assertEquals("dim 0 appears multiple times in the list of dims", dup.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.softmax(x, -3));
            assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.max(Torch.scalarTensor(1.0), 1));
        }

        @Test
        void dtypeErrors() {
            Tensor i = Torch.tensor(new long[] {1, 2, 3});
            TorchException mean = assertThrows(TorchException.class, () -> ReductionOps.mean(i));
            assertEquals(
                    "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                            + "complex dtype. Got: Long",
                    mean.getMessage());
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.mean(i, DType.INT32))
                    .getMessage()
                    .contains("Optional dtype must be either a floating point or complex dtype. Got: Int"));
            assertEquals(2.0, ReductionOps.mean(i, DType.FLOAT32).item());
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.var(i))
                    .getMessage()
                    .contains("std and var only support floating point and complex dtypes"));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.softmax(i, 0))
                    .getMessage()
                    .contains("\"softmax_lastdim_kernel_impl\" not implemented for 'Long'"));
            assertTrue(assertThrows(
                            TorchException.class,
                            () -> ReductionOps.logSoftmax(Torch.ones(new long[] {2, 2}, DType.INT32), 0))
                    .getMessage()
                    .contains("\"log_softmax_kernel_impl\" not implemented for 'Int'"));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.vectorNorm(i))
                    .getMessage()
                    .contains("linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"));
            assertTrue(assertThrows(
                            TorchException.class,
                            () -> ReductionOps.vectorNorm(Torch.ones(2), 2, null, false, DType.FLOAT16))
                    .getMessage()
                    .contains("should be convertible without narrowing"));
            Tensor c = make(DType.COMPLEX64, new long[] {2}, new double[] {1, 2, 3, 4});
            assertTrue(assertThrows(UnsupportedOperationException.class, () -> ReductionOps.nansum(c))
                    .getMessage()
                    .contains("nansum on CPU does not support complex inputs"));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.nanmean(i))
                    .getMessage()
                    .contains("nanmean(): expected input to have floating point or complex dtype but got Long"));
            assertThrows(
                    UnsupportedOperationException.class, () -> ReductionOps.argmax(Torch.tensor(new boolean[] {true})));
        }

        @Test
        void complexOrderingIsATypeError() {
            Tensor c = make(DType.COMPLEX64, new long[] {2}, new double[] {0, 1, 0, 2});
            for (Runnable r : new Runnable[] {
                () -> ReductionOps.max(c),
                () -> ReductionOps.min(c, 0),
                () -> ReductionOps.amax(c),
                () -> ReductionOps.amin(c, 0),
                () -> ReductionOps.argmax(c),
                () -> ReductionOps.argmin(c, 0)
            }) {
                TorchTypeException e = assertThrows(TorchTypeException.class, r::run);
                assertTrue(e.getMessage().contains("ComplexFloat"), e.getMessage());
            }
        }

        @Test
        void emptyErrors() {
            Tensor e = Torch.zeros(0, 3);
            IndexOutOfBoundsException amax =
                    assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.amax(e, 0));
            assertEquals("amax(): Expected reduction dim 0 to have non-zero size.", amax.getMessage());
            assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.amin(e, -2))
                    .getMessage()
                    .contains("amin(): Expected reduction dim -2 to have non-zero size."));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.max(e))
                    .getMessage()
                    .contains("max(): Expected reduction dim to be specified for input.numel() == 0."));
            assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.max(e, -2))
                    .getMessage()
                    .contains("max(): Expected reduction dim 0 to have non-zero size."));
            assertTrue(assertThrows(IndexOutOfBoundsException.class, () -> ReductionOps.argmin(e))
                    .getMessage()
                    .contains("argmin(): Expected reduction dim to be specified for input.numel() == 0."));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.vectorNorm(e, Double.POSITIVE_INFINITY))
                    .getMessage()
                    .contains("cannot compute the inf norm on an empty tensor because the operation "
                            + "does not have an identity"));
            assertTrue(assertThrows(TorchException.class, () -> ReductionOps.vectorNorm(e, -1.5, new long[] {0}, false))
                    .getMessage()
                    .contains("cannot compute the -1.5 norm on the dimension 0because this dimension is empty"));
            assertEquals(
                    0, ReductionOps.vectorNorm(e, -1, new long[] {1}, false).numel());
        }

        @Test
        void outVariantWritesIntoAStridedOutput() {
            Tensor x = Torch.tensor(new float[][] {{1, 2}, {3, 4}});
            Tensor base = Torch.zeros(2, 2);
            Tensor col = Views.of(base, 0, new long[] {2}, new long[] {2}); // a strided column of base
            Dispatcher.callOut(ReductionOps.SUM, new Tensor[] {col}, x, new long[] {1}, false, null);
            assertArrayEquals(new double[] {3, 0, 7, 0}, base.toDoubleArray());
        }
    }

    // ---- golden fixtures ----------------------------------------------------------------------------

    private static final java.util.Set<String> OPS = java.util.Set.of(
            "sum",
            "mean",
            "prod",
            "amax",
            "amin",
            "max",
            "min",
            "argmax",
            "argmin",
            "var",
            "std",
            "logsumexp",
            "softmax",
            "log_softmax",
            "cumsum",
            "cumprod",
            "all",
            "any",
            "vector_norm",
            "nansum",
            "nanmean");

    /** 2.13 raises NotImplementedError ("max_all" not implemented); 2.15 raises TypeError for every ordering op. */
    private static final java.util.Set<String> COMPLEX_ORDER_OPS =
            java.util.Set.of("max", "min", "amax", "amin", "argmax", "argmin");

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> goldenCases() throws IOException {
        try (InputStream in = ReductionOpsTest.class.getResourceAsStream("/golden/core.json")) {
            assertNotNull(in, "golden/core.json on the test classpath");
            Map<String, Object> root =
                    (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            List<Map<String, Object>> out = new ArrayList<>();
            for (Object c : (List<Object>) root.get("cases")) {
                Map<String, Object> m = (Map<String, Object>) c;
                if (OPS.contains((String) m.get("op"))) out.add(m);
            }
            return out;
        }
    }

    @TestFactory
    Stream<DynamicTest> goldenFixtures() throws IOException {
        List<Map<String, Object>> cases = goldenCases();
        assertTrue(cases.size() > 700, "reduction cases in core.json: " + cases.size());
        return cases.stream().map(c -> DynamicTest.dynamicTest((String) c.get("id"), () -> runGolden(c)));
    }

    @SuppressWarnings("unchecked")
    static void runGolden(Map<String, Object> c) {
        String id = (String) c.get("id"), op = (String) c.get("op");
        Map<String, Object> kw = (Map<String, Object>) c.get("kwargs");
        Object out = c.get("out");
        Tensor x = decode((Map<String, Object>) ((List<Object>) c.get("args")).get(0));
        switch (id) {
            // JTorch accumulates float32 norms in double: PyTorch's float accumulator overflows/underflows here.
            case "vector_norm/float32/overflow-safe" -> {
                assertEquals(5e30, ReductionOps.vectorNorm(x).item(), 1e24);
                return;
            }
            case "vector_norm/float32/underflow-safe" -> {
                assertEquals(5e-30, ReductionOps.vectorNorm(x).item(), 1e-36);
                return;
            }
            default -> {}
        }
        if (x.isComplex() && COMPLEX_ORDER_OPS.contains(op)) {
            assertThrows(TorchTypeException.class, () -> run(op, x, kw), id);
            return;
        }
        if (out instanceof Map<?, ?> m && m.containsKey("error")) {
            String msg = (String) m.get("error");
            RuntimeException e = assertThrows(RuntimeException.class, () -> run(op, x, kw), id);
            assertTrue(
                    e.getMessage().contains(msg),
                    id + ": expected message containing '" + msg + "' but was '" + e.getMessage() + "'");
            return;
        }
        Object result = run(op, x, kw);
        double scale = 1e-3;
        if (op.equals("log_softmax"))
            for (double v : x.toDoubleArray()) if (Double.isFinite(v)) scale = Math.max(scale, Math.abs(v));
        if (out instanceof List<?> list) {
            Tensor[] r = (Tensor[]) result;
            for (int i = 0; i < list.size(); i++)
                compare(id + "[" + i + "]", (Map<String, Object>) list.get(i), r[i], scale);
        } else {
            compare(id, (Map<String, Object>) out, (Tensor) result, scale);
        }
    }

    /** Runs a fixture's op through the dispatcher with the op's argument layout. */
    @SuppressWarnings("unchecked")
    static Object run(String op, Tensor x, Map<String, Object> kw) {
        long[] dims = dimsOf(kw.get("dim"));
        boolean keepdim = Boolean.TRUE.equals(kw.get("keepdim"));
        DType dtype = kw.get("dtype") == null ? null : dtypeOf((String) kw.get("dtype"));
        Long dim = kw.get("dim") instanceof Long l ? l : null;
        return switch (op) {
            case "sum" -> Dispatcher.call(ReductionOps.SUM, x, dims, keepdim, dtype);
            case "nansum" -> Dispatcher.call(ReductionOps.NANSUM, x, dims, keepdim, dtype);
            case "mean" -> Dispatcher.call(ReductionOps.MEAN, x, dims, keepdim, dtype);
            case "nanmean" -> Dispatcher.call(ReductionOps.NANMEAN, x, dims, keepdim, dtype);
            case "prod" -> Dispatcher.call(ReductionOps.PROD, x, dims, keepdim, dtype);
            case "amax" -> Dispatcher.call(ReductionOps.AMAX, x, dims, keepdim);
            case "amin" -> Dispatcher.call(ReductionOps.AMIN, x, dims, keepdim);
            case "max" ->
                dim == null
                        ? Dispatcher.call(ReductionOps.MAX_ALL, x)
                        : Dispatcher.call(ReductionOps.MAX_DIM, x, dim, keepdim);
            case "min" ->
                dim == null
                        ? Dispatcher.call(ReductionOps.MIN_ALL, x)
                        : Dispatcher.call(ReductionOps.MIN_DIM, x, dim, keepdim);
            case "argmax" -> Dispatcher.call(ReductionOps.ARGMAX, x, dim, keepdim);
            case "argmin" -> Dispatcher.call(ReductionOps.ARGMIN, x, dim, keepdim);
            case "var", "std" -> {
                Object correction = kw.containsKey("correction")
                        ? kw.get("correction")
                        : kw.containsKey("unbiased") ? (Boolean.TRUE.equals(kw.get("unbiased")) ? 1L : 0L) : null;
                yield Dispatcher.call(
                        op.equals("var") ? ReductionOps.VAR : ReductionOps.STD, x, dims, correction, keepdim);
            }
            case "logsumexp" -> Dispatcher.call(ReductionOps.LOGSUMEXP, x, dims, keepdim);
            case "softmax" -> Dispatcher.call(ReductionOps.SOFTMAX, x, dim, dtype);
            case "log_softmax" -> Dispatcher.call(ReductionOps.LOG_SOFTMAX, x, dim, dtype);
            case "cumsum" -> Dispatcher.call(ReductionOps.CUMSUM, x, dim, dtype);
            case "cumprod" -> Dispatcher.call(ReductionOps.CUMPROD, x, dim, dtype);
            case "all" -> Dispatcher.call(ReductionOps.ALL, x, dims, keepdim);
            case "any" -> Dispatcher.call(ReductionOps.ANY, x, dims, keepdim);
            case "vector_norm" ->
                Dispatcher.call(
                        ReductionOps.VECTOR_NORM,
                        x,
                        kw.containsKey("ord") ? number(kw.get("ord")) : 2.0,
                        dims,
                        keepdim,
                        dtype);
            default -> throw new IllegalArgumentException(op);
        };
    }

    static long[] dimsOf(Object dim) {
        if (dim == null) return null;
        if (dim instanceof Long l) return new long[] {l};
        return ((List<?>) dim).stream().mapToLong(d -> (Long) d).toArray();
    }

    static DType dtypeOf(String name) {
        for (DType d : DType.values()) if (d.pyName().equals(name)) return d;
        throw new IllegalArgumentException(name);
    }

    static double number(Object v) {
        if (v instanceof String s) {
            return switch (s) {
                case "nan" -> Double.NaN;
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> throw new IllegalArgumentException(s);
            };
        }
        if (v instanceof Boolean b) return b ? 1 : 0;
        return ((Number) v).doubleValue();
    }

    /** A fixture tensor T: dtype, shape, row-major data, optional transpose (the input is the transposed view). */
    @SuppressWarnings("unchecked")
    static Tensor decode(Map<String, Object> t) {
        DType dtype = dtypeOf((String) t.get("dtype"));
        long[] shape = ((List<Object>) t.get("shape"))
                .stream().mapToLong(s -> (Long) s).toArray();
        List<Object> data = (List<Object>) t.get("data");
        Tensor x;
        if (dtype.isIntegral(true)) {
            x = make(
                    dtype,
                    shape,
                    data.stream()
                            .mapToLong(v -> v instanceof Boolean b ? (b ? 1 : 0) : (Long) v)
                            .toArray());
        } else {
            x = make(
                    dtype,
                    shape,
                    data.stream().mapToDouble(ReductionOpsTest::number).toArray());
        }
        if (t.get("transpose") instanceof List<?> tr)
            x = transpose(x, ((Long) tr.get(0)).intValue(), ((Long) tr.get(1)).intValue());
        return x;
    }

    /**
     * Compares a result with a fixture: integers exactly, floats within a relative tolerance of the dtype. log_softmax
     * subtracts nearly equal numbers, so PyTorch's float intermediates carry an absolute error on the scale of the
     * input; that scale is allowed there.
     */
    static void compare(String id, Map<String, Object> expected, Tensor actual, double scale) {
        Tensor e = decode(expected);
        assertEquals(e.dtype(), actual.dtype(), id + ": dtype");
        assertArrayEquals(e.impl().shapeRef(), actual.impl().shapeRef(), id + ": shape");
        if (e.dtype().isIntegral(true)) {
            assertArrayEquals(e.toLongArray(), actual.toLongArray(), id);
            return;
        }
        double rtol =
                switch (e.dtype().toReal()) {
                    case FLOAT16 -> 1e-3;
                    case BFLOAT16 -> 8e-3;
                    case FLOAT32 -> 2e-6;
                    default -> 1e-12;
                };
        double[] ev = e.toDoubleArray(), av = actual.toDoubleArray();
        for (int i = 0; i < ev.length; i++) {
            double a = ev[i], b = av[i];
            if (Double.isNaN(a) || Double.isInfinite(a)) {
                if (!(Double.isNaN(a) && Double.isNaN(b)) && a != b)
                    fail(id + " [" + i + "]: expected " + a + " got " + b);
                continue;
            }
            if (Math.abs(a - b) > rtol * Math.max(Math.abs(a), scale))
                fail(id + " [" + i + "]: expected " + a + " got " + b);
        }
    }

    @Test
    void sumAndMeanOfComplexIntoARealDtypeKeepTheRealParts() {
        // PyTorch casts each element first (the imaginary part is discarded): sum([1+2j, 3+4j], dtype=float64) = 4
        Tensor z = Torch.complex(Torch.tensor(new double[] {1, 3}), Torch.tensor(new double[] {2, 4}));
        assertEquals(4.0, ReductionOps.sum(z, DType.FLOAT64).item(), 0);
        assertEquals(2.0, ReductionOps.mean(z, DType.FLOAT64).item(), 0);
        assertEquals(
                6.0,
                ReductionOps.sum(z, new long[] {0}, false, DType.FLOAT64).add(2).item(),
                0);
    }
}

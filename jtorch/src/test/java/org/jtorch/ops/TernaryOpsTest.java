package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * where, lerp, addcmul, addcdiv and masked_fill: PyTorch's golden results, formulas against a scalar reference written
 * here (including the fused multiply-add that ATen's kernels compile to), dtypes, broadcasting, errors, in-place forms
 * and the meta device.
 */
class TernaryOpsTest {

    private static Tensor floats(DType dtype, double... values) {
        return Torch.tensor(values).to(dtype);
    }

    private static Tensor ints(DType dtype, long... values) {
        return Torch.tensor(values).to(dtype);
    }

    private static Tensor bools(boolean... values) {
        return Torch.tensor(values);
    }

    private static void assertMessage(Throwable e, String part) {
        assertTrue(String.valueOf(e.getMessage()).contains(part), "expected \"" + part + "\" in: " + e.getMessage());
    }

    /** Deterministic values in [-scale, scale) that are not short binary fractions, so rounding differences show. */
    private static double[] values(int n, double scale, int seed) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) d[i] = Math.sin(i * 0.7 + seed * 1.3) * scale;
        return d;
    }

    // ---- golden fixtures ------------------------------------------------------------------------------

    static final Set<String> OPS = Set.of("where", "lerp", "addcmul", "addcdiv");

    @TestFactory
    Stream<DynamicTest> ternaryCasesMatchPyTorch() {
        Golden.assertLoaded(1000);
        List<Case> cases =
                Golden.cases().stream().filter(c -> OPS.contains(c.op())).toList();
        assertTrue(cases.size() > 90, "ternary cases found: " + cases.size());
        // real results are compared bit for bit; complex ones (computed in double here, in float by ATen) within
        // tolerance
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.id(), () -> Golden.check(c, List.of(), !isComplexCase(c), () -> run(c))));
    }

    private static boolean isComplexCase(Case c) {
        for (int i = 0; i < c.argCount(); i++) if (c.arg(i) instanceof Tensor t && t.isComplex()) return true;
        return false;
    }

    private static Object run(Case c) {
        return switch (c.op()) {
            case "where" -> TernaryOps.where(c.tensorArg(0), c.arg(1), c.arg(2));
            case "lerp" ->
                c.arg(2) instanceof Tensor w
                        ? TernaryOps.lerp(c.tensorArg(0), c.tensorArg(1), w)
                        : TernaryOps.lerp(c.tensorArg(0), c.tensorArg(1), Golden.number(c.arg(2)));
            case "addcmul" ->
                c.has("value")
                        ? TernaryOps.addcmul(
                                c.tensorArg(0), c.tensorArg(1), c.tensorArg(2), Scalar.of(c.kwarg("value")))
                        : TernaryOps.addcmul(c.tensorArg(0), c.tensorArg(1), c.tensorArg(2));
            case "addcdiv" ->
                c.has("value")
                        ? TernaryOps.addcdiv(
                                c.tensorArg(0), c.tensorArg(1), c.tensorArg(2), Scalar.of(c.kwarg("value")))
                        : TernaryOps.addcdiv(c.tensorArg(0), c.tensorArg(1), c.tensorArg(2));
            default -> throw new IllegalStateException("no mapping for op " + c.op());
        };
    }

    // ---- where ----------------------------------------------------------------------------------------

    @Test
    void whereSelectsAndBroadcasts() {
        Tensor cond = Views.of(bools(true, false, true), 0, new long[] {3, 1}, new long[] {1, 1});
        Tensor a = floats(DType.FLOAT32, 1, 2),
                b = Views.of(floats(DType.FLOAT64, -1, -2, -3), 0, new long[] {3, 1}, new long[] {1, 1});
        Tensor r = TernaryOps.where(cond, a, b);
        assertEquals(DType.FLOAT64, r.dtype());
        assertArrayEquals(new long[] {3, 2}, r.shape());
        assertArrayEquals(new double[] {1, 2, -2, -2, 1, 2}, r.toDoubleArray());
    }

    @Test
    void whereTakesScalarsAsWeakOperands() {
        Tensor m = bools(true, false, true);
        Tensor f = TernaryOps.where(m, 1.0, 0.0);
        assertEquals(DType.FLOAT32, f.dtype());
        assertArrayEquals(new double[] {1, 0, 1}, f.toDoubleArray());
        assertEquals(DType.INT64, TernaryOps.where(m, 1L, 0L).dtype());
        assertEquals(DType.INT64, TernaryOps.where(m, true, 0L).dtype());
        assertArrayEquals(
                new boolean[] {false, true, false},
                TernaryOps.where(m, false, true).toBooleanArray());
        Tensor i8 = TernaryOps.where(m, ints(DType.INT8, 1, 2, 3), 100L);
        assertEquals(DType.INT8, i8.dtype());
        assertArrayEquals(new long[] {1, 100, 3}, i8.toLongArray());
        assertEquals(
                DType.FLOAT32,
                TernaryOps.where(m, ints(DType.INT64, 1, 2, 3), 0.5).dtype());
        Tensor c = TernaryOps.where(m, 1.5, Scalar.complex(0, 1));
        assertEquals(DType.COMPLEX64, c.dtype());
        assertArrayEquals(new double[] {1.5, 0, 0, 1, 1.5, 0}, c.toDoubleArray());
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.where(m, ints(DType.INT8, 1, 2, 3), 500L)),
                "value cannot be converted to type int8_t without overflow");
    }

    @Test
    void whereNeedsABoolCondition() {
        Tensor x = Torch.zeros(3);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.where(x, x, x)),
                "where expected condition to be a boolean tensor, but got a tensor with dtype Float");
        // uint8 still works, with PyTorch's deprecation warning
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            Tensor r = TernaryOps.where(ints(DType.UINT8, 1, 0), 1.0, 0.0);
            assertArrayEquals(new double[] {1, 0}, r.toDoubleArray());
            assertEquals(1, rec.records().size());
            assertEquals(Warnings.Category.USER_WARNING, rec.records().get(0).category());
            assertMessage(
                    new RuntimeException(rec.records().get(0).message()), "where received a uint8 condition tensor");
            assertEquals("TernaryOpsTest.java", rec.records().get(0).file());
        }
    }

    @Test
    void whereOnUint64AndFloat16KeepsBits() {
        Tensor m = bools(true, false);
        long big = Long.MIN_VALUE + 3;
        assertArrayEquals(
                new long[] {big, -1L},
                TernaryOps.where(m, ints(DType.UINT64, big, 0), ints(DType.UINT64, 0, -1L))
                        .toLongArray());
        Tensor h = TernaryOps.where(m, floats(DType.FLOAT16, 0.1, 0), 65504.0);
        assertEquals(DType.FLOAT16, h.dtype());
        assertArrayEquals(new double[] {0.0999755859375, 65504}, h.toDoubleArray()); // half(0.1), exactly
    }

    // ---- lerp -----------------------------------------------------------------------------------------

    /** ATen's lerp in float, with the fused multiply-add of its compiled kernels. */
    private static float lerpRef(float s, float e, float w) {
        return Math.abs(w) < 0.5f ? Math.fma(w, e - s, s) : Math.fma(w - 1, e - s, e);
    }

    @Test
    void lerpMatchesTheFusedFormulaBitForBit() {
        int n = 1000;
        double[] s = values(n, 3, 1), e = values(n, 3, 2), w = values(n, 1, 3);
        for (int i = 0; i < n; i++) w[i] = w[i] + 0.5; // weights in [-0.5, 1.5): both branches and extrapolation
        Tensor st = floats(DType.FLOAT32, s), et = floats(DType.FLOAT32, e), wt = floats(DType.FLOAT32, w);
        double[] got = TernaryOps.lerp(st, et, wt).toDoubleArray();
        double[] gotScalar = TernaryOps.lerp(st, et, 0.3).toDoubleArray();
        double[] got64 =
                TernaryOps.lerp(st.to(DType.FLOAT64), et.to(DType.FLOAT64), 0.7).toDoubleArray();
        for (int i = 0; i < n; i++) {
            float fs = (float) s[i], fe = (float) e[i];
            assertEquals(lerpRef(fs, fe, (float) w[i]), got[i], 0, "tensor weight at " + i);
            assertEquals(lerpRef(fs, fe, 0.3f), gotScalar[i], 0, "scalar weight at " + i);
            assertEquals(Math.fma(0.7 - 1, (double) fe - fs, fe), got64[i], 0, "float64 at " + i);
        }
    }

    @Test
    void lerpChecksDtypes() {
        Tensor f = Torch.zeros(3), d = Torch.zeros(new long[] {3}, DType.FLOAT64);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.lerp(f, d, 0.5)),
                "expected dtype float for `end` but got dtype double");
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.lerp(f, f, Torch.scalarTensor(0.5, DType.FLOAT64))),
                "expected dtype float for `weight` but got dtype double");
        Tensor l = Torch.zeros(new long[] {3}, DType.INT64);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.lerp(l, l, 0.5)), "not implemented for 'Long'");
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.lerp(f, f, Scalar.complex(0.5, 1))),
                "value cannot be converted to type float without overflow");
    }

    @Test
    void lerpBroadcastsAndWorksInPlace() {
        Tensor start = floats(DType.FLOAT64, 0, 10);
        Tensor end = Views.of(floats(DType.FLOAT64, 100, 20, 30), 0, new long[] {3, 1}, new long[] {1, 1});
        Tensor r = TernaryOps.lerp(start, end, Torch.scalarTensor(0.25, DType.FLOAT64));
        assertArrayEquals(new long[] {3, 2}, r.shape());
        assertArrayEquals(new double[] {25, 32.5, 5, 12.5, 7.5, 15}, r.toDoubleArray());
        Tensor avg = floats(DType.FLOAT32, 1, 1); // an optimizer's exp_avg.lerp_(grad, 1 - beta1)
        assertSame(avg, TernaryOps.lerp_(avg, floats(DType.FLOAT32, 3, -1), 0.5));
        assertArrayEquals(new double[] {2, 0}, avg.toDoubleArray());
    }

    @Test
    void lerpOnComplexAndHalf() {
        Tensor s = floats(DType.COMPLEX128, 1, 2), e = floats(DType.COMPLEX128, 3, 6);
        // weight 0.5i: 1 + 0.5i * 2 = 1 + i; 2 + 0.5i * 4 = 2 + 2i
        assertArrayEquals(
                new double[] {1, 1, 2, 2},
                TernaryOps.lerp(s, e, Scalar.complex(0, 0.5)).toDoubleArray(),
                1e-15);
        Tensor h = TernaryOps.lerp(floats(DType.FLOAT16, 1), floats(DType.FLOAT16, 2), 0.1);
        assertEquals(DType.FLOAT16, h.dtype());
        assertArrayEquals(new double[] {1.099609375}, h.toDoubleArray()); // half(1 + 0.1f), exactly
    }

    // ---- addcmul / addcdiv ----------------------------------------------------------------------------

    @Test
    void addcmulMatchesTheFusedFormulaBitForBit() {
        int n = 1000;
        double[] a = values(n, 2, 4), b = values(n, 2, 5), c = values(n, 2, 6);
        double[] got = TernaryOps.addcmul(
                        floats(DType.FLOAT32, a), floats(DType.FLOAT32, b), floats(DType.FLOAT32, c), 0.7)
                .toDoubleArray();
        double[] got64 = TernaryOps.addcmul(Torch.tensor(a), Torch.tensor(b), Torch.tensor(c), 0.7)
                .toDoubleArray();
        double[] div = TernaryOps.addcdiv(
                        floats(DType.FLOAT32, a), floats(DType.FLOAT32, b), floats(DType.FLOAT32, c), 0.7)
                .toDoubleArray();
        for (int i = 0; i < n; i++) {
            float fa = (float) a[i], fb = (float) b[i], fc = (float) c[i];
            assertEquals(Math.fma(0.7f * fb, fc, fa), got[i], 0, "addcmul float32 at " + i);
            assertEquals(Math.fma(0.7 * b[i], c[i], a[i]), got64[i], 0, "addcmul float64 at " + i);
            assertEquals(fa + 0.7f * fb / fc, div[i], 0, "addcdiv float32 at " + i);
        }
    }

    /**
     * The optimizer updates' in-place forms on a tensor large enough to be split over the intra-op threads, with a
     * length that leaves a vector tail and operands at a storage offset: every element still gets the scalar formula.
     */
    @Test
    void inPlaceUpdatesSplitOverThreadsKeepTheFormula() {
        int n = 200_003;
        double[] m = values(n, 2, 7), g = values(n, 3, 8), v = values(n, 1, 9);
        for (int i = 0; i < n; i++) v[i] = v[i] * v[i] + 0.25; // a positive denominator, as sqrt(v) + eps is
        Tensor mt = Torch.tensor(m).to(DType.FLOAT32), vt = Torch.tensor(v).to(DType.FLOAT32);
        Tensor gt = Views.of(Torch.tensor(new double[n + 5]).to(DType.FLOAT32), 5, new long[] {n}, new long[] {1})
                .copy_(Torch.tensor(g).to(DType.FLOAT32));
        Tensor lerped = TernaryOps.lerp_(mt.clone(), gt, 0.1);
        Tensor squares = TernaryOps.addcmul_(vt.clone(), gt, gt, 0.001);
        Tensor updated = TernaryOps.addcdiv_(mt.clone(), gt, vt, -0.01);
        double[] l = lerped.toDoubleArray(), s = squares.toDoubleArray(), u = updated.toDoubleArray();
        for (int i = 0; i < n; i++) {
            float fm = (float) m[i], fg = (float) g[i], fv = (float) v[i];
            assertEquals(lerpRef(fm, fg, 0.1f), l[i], 0, "lerp_ at " + i);
            assertEquals(Math.fma(0.001f * fg, fg, fv), s[i], 0, "addcmul_ at " + i);
            assertEquals(fm + -0.01f * fg / fv, u[i], 0, "addcdiv_ at " + i);
        }
    }

    @Test
    void addcmulOnIntegersWrapsAndTruncatesTheValue() {
        Tensor a = ints(DType.INT8, 100, -100), b = ints(DType.INT8, 10, 10), c = ints(DType.INT8, 3, 3);
        Tensor r = TernaryOps.addcmul(a, b, c);
        assertEquals(DType.INT8, r.dtype());
        assertArrayEquals(new long[] {(byte) 130, -70}, r.toLongArray()); // 130 wraps to -126
        assertArrayEquals(
                new long[] {160 - 256, -40}, TernaryOps.addcmul(a, b, c, 2.7).toLongArray()); // value 2
        assertMessage(assertThrows(TorchException.class, () -> TernaryOps.addcmul(a, b, c, 300)), "int8_t");
        // a float operand promotes
        Tensor f = TernaryOps.addcmul(ints(DType.INT64, 1), floats(DType.FLOAT32, 0.5), ints(DType.INT64, 3));
        assertEquals(DType.FLOAT32, f.dtype());
        assertArrayEquals(new double[] {2.5}, f.toDoubleArray());
    }

    @Test
    void addcmulRefusesDtypesWithoutAKernel() {
        Tensor b = bools(true);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.addcmul(b, b, b)), "not implemented for 'Bool'");
        Tensor u = ints(DType.UINT16, 1);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.addcmul(u, u, u)), "not implemented for 'UInt16'");
        Tensor f = Torch.zeros(1);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.addcmul(f, f, f, Scalar.complex(1, 1))), "float");
    }

    @Test
    void addcdivRefusesIntegerDivision() {
        Tensor i = ints(DType.INT64, 1, 2, 3);
        TorchException e = assertThrows(TorchException.class, () -> TernaryOps.addcdiv(Torch.zeros(3), i, i));
        assertMessage(
                e,
                "Integer division with addcdiv is no longer supported, "
                        + "and in a future  release addcdiv will perform a true division");
        assertMessage(e, "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype)");
        // one floating divisor operand is enough
        Tensor r = TernaryOps.addcdiv(ints(DType.INT64, 1, 1, 1), i, floats(DType.FLOAT32, 2, 0, -4), 2);
        assertEquals(DType.FLOAT32, r.dtype());
        assertArrayEquals(new double[] {2, Double.POSITIVE_INFINITY, -0.5}, r.toDoubleArray());
    }

    @Test
    void addcInPlaceFormsAsOptimizersUseThem() {
        Tensor p = floats(DType.FLOAT32, 1, 2), g = floats(DType.FLOAT32, 3, 4);
        Tensor sq = floats(DType.FLOAT32, 0, 0);
        TernaryOps.addcmul_(sq, g, g, 0.5);
        assertArrayEquals(new double[] {4.5, 8}, sq.toDoubleArray());
        assertSame(p, TernaryOps.addcdiv_(p, g, sq, -2));
        assertArrayEquals(new double[] {1 - 2 * 3 / 4.5f, 1}, p.toDoubleArray(), 1e-7);
        assertMessage(
                assertThrows(
                        TorchException.class,
                        () -> TernaryOps.addcmul_(
                                ints(DType.INT64, 1),
                                Views.of(g, 0, new long[] {1}, new long[] {1}),
                                Views.of(g, 0, new long[] {1}, new long[] {1}),
                                1)),
                "can't be cast");
    }

    // ---- masked_fill --------------------------------------------------------------------------------------

    @Test
    void maskedFillWritesTheValueWhereTheMaskHolds() {
        Tensor x = floats(DType.FLOAT32, 1, 2, 3);
        Tensor m = bools(true, false, true);
        assertArrayEquals(
                new double[] {Double.NEGATIVE_INFINITY, 2, Double.NEGATIVE_INFINITY},
                TernaryOps.maskedFill(x, m, Double.NEGATIVE_INFINITY).toDoubleArray());
        assertArrayEquals(new double[] {1, 2, 3}, x.toDoubleArray()); // out of place
        assertArrayEquals(
                new long[] {2, 0, 2},
                TernaryOps.maskedFill(ints(DType.INT8, 0, 0, 0), m, 2.7).toLongArray());
        assertArrayEquals(
                new long[] {-2, 0, -2},
                TernaryOps.maskedFill(ints(DType.INT8, 0, 0, 0), m, -2.7).toLongArray());
        assertArrayEquals(
                new boolean[] {true, false, true},
                TernaryOps.maskedFill(bools(false, false, false), m, 0.5).toBooleanArray());
        assertArrayEquals(
                new long[] {-1, 0, -1},
                TernaryOps.maskedFill(ints(DType.UINT64, 0, 0, 0), m, Scalar.ofUnsigned(-1L))
                        .toLongArray());
        Tensor c = TernaryOps.maskedFill(Torch.zeros(new long[] {3}, DType.COMPLEX64), m, Scalar.complex(1, -1));
        assertArrayEquals(new double[] {1, -1, 0, 0, 1, -1}, c.toDoubleArray());
        // a 0-d tensor value is read as its item
        assertArrayEquals(
                new double[] {7, 2, 7},
                TernaryOps.maskedFill(x, m, Torch.scalarTensor(7L, DType.INT64)).toDoubleArray());
        assertArrayEquals(
                new long[] {7, 0, 7},
                TernaryOps.maskedFill(ints(DType.INT64, 0, 0, 0), m, Torch.scalarTensor(7.5))
                        .toLongArray());
    }

    @Test
    void maskedFillBroadcastsOutOfPlaceButNotInPlace() {
        Tensor x = Torch.zeros(3);
        Tensor m = Views.of(bools(true, false), 0, new long[] {2, 1}, new long[] {1, 1});
        Tensor r = TernaryOps.maskedFill(x, m, 1.0);
        assertArrayEquals(new long[] {2, 3}, r.shape());
        assertArrayEquals(new double[] {1, 1, 1, 0, 0, 0}, r.toDoubleArray());
        assertMessage(
                assertThrows(TorchException.class, () -> x.maskedFill_(m, 1.0)),
                "output with shape [3] doesn't match the broadcast shape [2, 3]");
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.maskedFill(x, bools(true, false), 1.0)),
                "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0");
        Tensor y = Torch.zeros(2, 3);
        int v = y.version();
        assertSame(y, y.maskedFill_(bools(false, true, false), 5L));
        assertArrayEquals(new double[] {0, 5, 0, 0, 5, 0}, y.toDoubleArray());
        assertTrue(y.version() != v);
    }

    @Test
    void maskedFillErrors() {
        Tensor x = Torch.zeros(3);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.maskedFill(x, ints(DType.UINT8, 1, 0, 1), 1.0)),
                "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char");
        Tensor m = bools(true, false, true);
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.maskedFill(x, m, Torch.zeros(2))),
                "masked_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension(s).");
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.maskedFill(ints(DType.INT8, 0, 0, 0), m, 300L)),
                "int8_t");
        assertMessage(
                assertThrows(
                        TorchException.class,
                        () -> TernaryOps.maskedFill(Torch.zeros(new long[] {3}, DType.FLOAT16), m, 1e6)),
                "at::Half");
        assertMessage(
                assertThrows(TorchException.class, () -> TernaryOps.maskedFill(x, m, Scalar.complex(0, 1))), "float");
        assertMessage(
                assertThrows(
                        TorchException.class,
                        () -> TernaryOps.maskedFill(
                                ints(DType.INT8, 0, 0, 0), m, Torch.scalarTensor(300L, DType.INT64))),
                "int8_t");
    }

    @Test
    void maskedFillOnAnExpandedTensorWarns() {
        Tensor base = Torch.zeros(3);
        Tensor expanded = Views.of(base, 0, new long[] {2, 3}, new long[] {0, 1});
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            expanded.maskedFill_(bools(true, false, true), 1.0);
            assertEquals(1, rec.records().size());
            assertTrue(rec.records()
                    .get(0)
                    .message()
                    .startsWith("Use of masked_fill_ on expanded tensors is deprecated."));
        }
        assertArrayEquals(new double[] {1, 0, 1}, base.toDoubleArray());
    }

    // ---- meta device, empty tensors -------------------------------------------------------------------------

    @Test
    void metaDeviceGivesShapesAndDtypes() {
        Tensor cond = Tensor.of(TensorImpl.meta(new long[] {4, 1}, DType.BOOL));
        Tensor a = Tensor.of(TensorImpl.meta(new long[] {2, 1, 3}, DType.INT32));
        Tensor w = TernaryOps.where(cond, a, 0.5);
        assertEquals(Device.META, w.device());
        assertEquals(DType.FLOAT32, w.dtype());
        assertArrayEquals(new long[] {2, 4, 3}, w.shape());
        Tensor f = Tensor.of(TensorImpl.meta(new long[] {5, 1}, DType.BFLOAT16)),
                g = Tensor.of(TensorImpl.meta(new long[] {7}, DType.BFLOAT16));
        assertArrayEquals(new long[] {5, 7}, TernaryOps.lerp(f, g, 0.5).shape());
        assertEquals(
                DType.FLOAT32,
                TernaryOps.addcmul(f, g, Tensor.of(TensorImpl.meta(new long[] {1}, DType.FLOAT32)))
                        .dtype());
        Tensor mf = TernaryOps.maskedFill(
                g,
                Tensor.of(TensorImpl.meta(new long[] {2, 7}, DType.BOOL)),
                Tensor.of(TensorImpl.meta(new long[0], DType.FLOAT32)));
        assertEquals(DType.BFLOAT16, mf.dtype());
        assertArrayEquals(new long[] {2, 7}, mf.shape());
        assertThrows(TorchException.class, () -> TernaryOps.lerp(f, a, 0.5));
    }

    @Test
    void emptyTensors() {
        Tensor e = Torch.zeros(0, 3);
        assertArrayEquals(
                new long[] {0, 3},
                TernaryOps.where(
                                Views.of(Torch.tensor(new boolean[0]), 0, new long[] {0, 1}, new long[] {1, 1}), e, 1.0)
                        .shape());
        assertArrayEquals(new long[] {0, 3}, TernaryOps.addcdiv(e, e, e).shape());
        assertArrayEquals(
                new long[] {0, 3},
                TernaryOps.maskedFill(e, Torch.tensor(new boolean[] {true, false, true}), 1.0)
                        .shape());
    }
}

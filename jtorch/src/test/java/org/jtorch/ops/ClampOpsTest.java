package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
import org.jtorch.TorchTypeException;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * clamp / clamp_min / clamp_max / hardtanh: PyTorch's golden results, the examples of spec/creation-and-dtypes.md §4
 * verbatim, the 2.15 out-of-range bound rule, NaN and ordering rules, unsigned types, errors and the meta device.
 * References are hand-computed values or a naive loop.
 */
class ClampOpsTest {

    // ---- helpers ------------------------------------------------------------------------------------

    /** A 1-D tensor of {@code dtype} holding the given 64-bit patterns (uint64 values above 2^63 as negative longs). */
    private static Tensor ints(DType dtype, long... values) {
        return Torch.tensor(values).to(dtype);
    }

    private static Tensor floats(DType dtype, double... values) {
        return Torch.tensor(values).to(dtype);
    }

    private static void assertMessage(Throwable e, String part) {
        assertTrue(String.valueOf(e.getMessage()).contains(part), "expected \"" + part + "\" in: " + e.getMessage());
    }

    private static final double NAN = Double.NaN;

    // ---- golden fixtures ------------------------------------------------------------------------------

    static final Set<String> OPS = Set.of("clamp", "clamp_min", "clamp_max", "hardtanh");

    static final List<Deviation> DEVIATIONS = List.of(new Deviation(
            "hardtanh/uint8/rand",
            Kind.NOT_COMPARED,
            "1.13 refuses negative bounds on uint8; 2.15 drops a min below 0 "
                    + "(spec §4), tested in hardtanhOnUint8DropsANegativeMin"));

    @TestFactory
    Stream<DynamicTest> clampCasesMatchPyTorch() {
        Golden.assertLoaded(1000);
        List<Case> cases =
                Golden.cases().stream().filter(c -> OPS.contains(c.op())).toList();
        assertTrue(cases.size() > 100, "clamp cases found: " + cases.size());
        // clamp selects an element or a bound: one exact answer, signed zeros included
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> Golden.check(c, DEVIATIONS, true, () -> run(c))));
    }

    /** Calls the op of a case through the typed entry point a Java user would pick. */
    private static Object run(Case c) {
        Tensor x = c.tensorArg(0);
        return switch (c.op()) {
            case "clamp" -> {
                Object min = c.has("min") ? c.kwarg("min") : null, max = c.has("max") ? c.kwarg("max") : null;
                if (min instanceof Tensor || max instanceof Tensor) yield ClampOps.clamp(x, (Tensor) min, (Tensor) max);
                if ((min == null || min instanceof Double) && (max == null || max instanceof Double)) {
                    yield ClampOps.clamp(x, (Double) min, (Double) max);
                }
                if ((min == null || min instanceof Long) && (max == null || max instanceof Long)) {
                    yield ClampOps.clamp(x, (Long) min, (Long) max);
                }
                yield ClampOps.clamp(x, min == null ? null : Scalar.of(min), max == null ? null : Scalar.of(max));
            }
            case "clamp_min" ->
                switch (c.arg(1)) {
                    case Tensor t -> ClampOps.clampMin(x, t);
                    case Long l -> ClampOps.clampMin(x, l.longValue());
                    case Double d -> ClampOps.clampMin(x, d.doubleValue());
                    default -> throw new IllegalStateException(c.id());
                };
            case "clamp_max" ->
                switch (c.arg(1)) {
                    case Tensor t -> ClampOps.clampMax(x, t);
                    case Long l -> ClampOps.clampMax(x, l.longValue());
                    case Double d -> ClampOps.clampMax(x, d.doubleValue());
                    default -> throw new IllegalStateException(c.id());
                };
            case "hardtanh" ->
                ClampOps.hardtanh(
                        x,
                        c.has("min_val") ? Golden.number(c.kwarg("min_val")) : -1.0,
                        c.has("max_val") ? Golden.number(c.kwarg("max_val")) : 1.0);
            default -> throw new IllegalStateException("no mapping for op " + c.op());
        };
    }

    // ---- spec §4 examples, verbatim -------------------------------------------------------------------

    @Test
    void int8OutOfRangeBoundsAreDroppedOrRefused() {
        Tensor x = ints(DType.INT8, -128, -3, 0, 5, 127);
        Tensor all = ClampOps.clamp(x, -1000L, 1000L);
        assertEquals(DType.INT8, all.dtype());
        assertArrayEquals(new long[] {-128, -3, 0, 5, 127}, all.toLongArray());
        assertArrayEquals(
                new long[] {-128, -3, 0, 5, 127}, ClampOps.clamp(x, null, 300L).toLongArray());
        assertArrayEquals(
                new long[] {-128, -3, 0, 4, 4}, ClampOps.clamp(x, -1000L, 4L).toLongArray());
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(x, 200L, null)),
                "value cannot be converted to type int8_t without overflow");
        // the mirror case of the rule: a max below the range would fill the tensor with an unrepresentable value
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp(x, null, -129L)), "int8_t");
        assertArrayEquals(
                new long[] {-128, -128, -128, -128, -128},
                ClampOps.clamp(x, null, -128L).toLongArray());
    }

    @Test
    void uint8NegativeMinIsDroppedAndMinAboveRangeRefused() {
        Tensor x = ints(DType.UINT8, 0, 7, 255);
        Tensor r = ClampOps.clamp(x, -255L, null);
        assertEquals(DType.UINT8, r.dtype());
        assertArrayEquals(new long[] {0, 7, 255}, r.toLongArray()); // not wrapped to 1 as before 2.15
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp(x, 256L, null)), "uint8_t");
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clampMax(x, -1L)), "uint8_t");
    }

    @Test
    void hardtanhOnUint8DropsANegativeMin() {
        Tensor r = ClampOps.hardtanh(ints(DType.UINT8, 0, 1, 2, 3), -1, 2);
        assertEquals(DType.UINT8, r.dtype());
        assertArrayEquals(new long[] {0, 1, 2, 2}, r.toLongArray());
        // the default bounds (-1, 1), the case 1.13 refused
        assertArrayEquals(
                new long[] {0, 1, 1, 1},
                ClampOps.hardtanh(ints(DType.UINT8, 0, 1, 2, 3)).toLongArray());
    }

    @Test
    void uint32BoundsAboveTheInt32Range() {
        Tensor r = ClampOps.clamp(ints(DType.UINT32, 1, 4_000_000_000L), 2L, 3_000_000_000L);
        assertEquals(DType.UINT32, r.dtype());
        assertArrayEquals(new long[] {2, 3_000_000_000L}, r.toLongArray());
    }

    // ---- the out-of-range rule beyond the examples ------------------------------------------------------

    @Test
    void boundsBeyondNarrowSignedTypes() {
        Tensor x = ints(DType.INT32, -5, 0, 5);
        assertArrayEquals(
                new long[] {-5, 0, 5}, ClampOps.clamp(x, -(1L << 40), 1L << 40).toLongArray());
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clampMin(x, 1L << 40)),
                "value cannot be converted to type int without overflow");
        Tensor s = ints(DType.INT16, -25536, 7);
        assertArrayEquals(new long[] {-25536, 7}, ClampOps.clampMax(s, 40000L).toLongArray());
    }

    @Test
    void uint64ComparesUnsignedAndTakesBoundsAboveLongMax() {
        long big = Long.MIN_VALUE + 10; // 2^63 + 10
        long max = -1L; // 2^64 - 1
        Tensor x = ints(DType.UINT64, 1, big, max);
        Tensor r = ClampOps.clamp(x, Scalar.ofUnsigned(Long.MIN_VALUE), Scalar.ofUnsigned(-2L));
        assertEquals(DType.UINT64, r.dtype());
        assertArrayEquals(new long[] {Long.MIN_VALUE, big, -2L}, r.toLongArray());
        // a negative int bound lies below uint64's range: dropped as min, refused as max
        assertArrayEquals(new long[] {1, big, max}, ClampOps.clamp(x, -5L, null).toLongArray());
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clampMax(x, -5L)), "uint64_t");
        // tensor bounds compare unsigned too
        Tensor lo = ints(DType.UINT64, 2, 2, 2), hi = ints(DType.UINT64, big - 5, big - 5, big - 5);
        assertArrayEquals(
                new long[] {2, big - 5, big - 5}, ClampOps.clamp(x, lo, hi).toLongArray());
        assertArrayEquals(new long[] {2, big, max}, ClampOps.clampMin(x, lo).toLongArray());
        assertArrayEquals(
                new long[] {1, big - 5, big - 5}, ClampOps.clampMax(x, hi).toLongArray());
    }

    @Test
    void uint64BoundOnInt64TensorAboveTheRange() {
        Tensor x = ints(DType.INT64, Long.MIN_VALUE, 0, Long.MAX_VALUE);
        Scalar above = Scalar.ofUnsigned(Long.MIN_VALUE + 1); // 2^63 + 1
        Tensor r = ClampOps.clamp(x, null, above);
        assertEquals(DType.INT64, r.dtype());
        assertArrayEquals(new long[] {Long.MIN_VALUE, 0, Long.MAX_VALUE}, r.toLongArray());
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp(x, above, null)), "int64_t");
    }

    @Test
    void uint16AndUint32AreSupported() {
        Tensor x = ints(DType.UINT16, 0, 100, 65535);
        assertArrayEquals(
                new long[] {10, 100, 1000}, ClampOps.clamp(x, 10L, 1000L).toLongArray());
        assertEquals(DType.UINT16, ClampOps.clampMin(x, 3L).dtype());
        assertArrayEquals(
                new long[] {0, 100, 65535}, ClampOps.hardtanh(x, -3, 70000).toLongArray());
        // a float bound promotes the unsigned tensor to the default float dtype
        Tensor f = ClampOps.clampMax(ints(DType.UINT32, 1, 4_000_000_000L), 2.5);
        assertEquals(DType.FLOAT32, f.dtype());
        assertArrayEquals(new double[] {1, 2.5}, f.toDoubleArray());
    }

    @Test
    void hardtanhTruncatesFloatBoundsOnIntegralTensors() {
        Tensor x = ints(DType.INT64, 1, 5, -7);
        Tensor r = ClampOps.hardtanh(x, 2.5, 3.7); // bounds 2 and 3, as ATen's toLong
        assertEquals(DType.INT64, r.dtype());
        assertArrayEquals(new long[] {2, 3, 2}, r.toLongArray());
        assertArrayEquals(
                new long[] {0, 0, -1}, ClampOps.hardtanh(x, -1.9, -0.9).toLongArray()); // -1 and 0
        assertArrayEquals(
                new long[] {1, 5, -7}, ClampOps.hardtanh(x, -1e40, 1e40).toLongArray()); // both dropped
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.hardtanh(x, 1e40, 2e40)), "int64_t");
        Tensor i8 = ints(DType.INT8, 1, -100);
        assertArrayEquals(new long[] {1, 0}, ClampOps.hardtanh(i8, 0, 300.5).toLongArray()); // max 300 > 127: dropped
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.hardtanh(i8, 200, 300)), "int8_t");
    }

    // ---- floating bounds -------------------------------------------------------------------------------

    @Test
    void floatBoundBeyondTheDtypeRangeIsRefused() {
        Tensor h = floats(DType.FLOAT16, 1, 2);
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(h, null, 185208L)),
                "value cannot be converted to type at::Half without overflow");
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clampMin(h, 1e5)), "at::Half");
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.hardtanh(h, -1e6, 3)), "at::Half");
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clampMax(floats(DType.BFLOAT16, 1), 1e39)),
                "at::BFloat16");
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clampMax(floats(DType.FLOAT32, 1), 1e300)),
                "value cannot be converted to type float without overflow");
        // infinities and the largest finite value convert
        assertArrayEquals(
                new double[] {1, 2},
                ClampOps.clamp(h, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY)
                        .toDoubleArray());
        assertArrayEquals(
                new double[] {65504, 65504}, ClampOps.clampMin(h, 65504.0).toDoubleArray());
    }

    @Test
    void nanElementsStayNanAndANanBoundGivesNan() {
        Tensor x = floats(DType.FLOAT32, 1, NAN, -3);
        assertArrayEquals(
                new double[] {1, NAN, -1}, ClampOps.clamp(x, -1.0, 2.0).toDoubleArray());
        assertArrayEquals(
                new double[] {NAN, NAN, NAN}, ClampOps.clamp(x, NAN, 2.0).toDoubleArray());
        assertArrayEquals(
                new double[] {NAN, NAN, NAN}, ClampOps.clamp(x, null, NAN).toDoubleArray());
        assertArrayEquals(
                new double[] {NAN, NAN, NAN}, ClampOps.clampMin(x, NAN).toDoubleArray());
        assertArrayEquals(
                new double[] {NAN, NAN, NAN},
                ClampOps.hardtanh(x.to(DType.FLOAT64), NAN, 1).toDoubleArray());
        // an integral tensor with a NaN bound is promoted to float first, then filled
        Tensor i = ClampOps.clampMax(ints(DType.INT32, 1, 2), NAN);
        assertEquals(DType.FLOAT32, i.dtype());
        assertArrayEquals(new double[] {NAN, NAN}, i.toDoubleArray());
        // tensor bounds: NaN only where a bound is NaN (maximum/minimum semantics with one bound)
        Tensor lo = floats(DType.FLOAT32, NAN, 0, 0);
        assertArrayEquals(new double[] {NAN, NAN, 0}, ClampOps.clampMin(x, lo).toDoubleArray());
        assertArrayEquals(
                new double[] {NAN, NAN, 0},
                ClampOps.clamp(x, lo, floats(DType.FLOAT32, 5, 5, 5)).toDoubleArray());
    }

    @Test
    void minAboveMaxGivesMax() {
        Tensor x = floats(DType.FLOAT64, -5, 0, 0.5, 5);
        assertArrayEquals(
                new double[] {-1, -1, -1, -1}, ClampOps.clamp(x, 1.0, -1.0).toDoubleArray());
        assertArrayEquals(
                new long[] {-1, -1, -1},
                ClampOps.clamp(ints(DType.INT64, -5, 0, 5), 1L, -1L).toLongArray());
        Tensor lo = floats(DType.FLOAT64, 1, 1, 1, 1), hi = floats(DType.FLOAT64, -1, -2, -3, -4);
        assertArrayEquals(
                new double[] {-1, -2, -3, -4}, ClampOps.clamp(x, lo, hi).toDoubleArray());
        assertArrayEquals(new double[] {3, 3, 3, 3}, ClampOps.hardtanh(x, 4, 3).toDoubleArray());
    }

    // ---- dtypes and promotion -------------------------------------------------------------------------

    @Test
    void scalarBoundsAreWeak() {
        assertEquals(DType.INT8, ClampOps.clamp(ints(DType.INT8, 1), -1L, 1L).dtype());
        assertEquals(
                DType.FLOAT32, ClampOps.clamp(ints(DType.INT64, 1), -1.0, null).dtype());
        assertEquals(
                DType.FLOAT16, ClampOps.clamp(floats(DType.FLOAT16, 1), -1L, 1L).dtype());
        assertEquals(
                DType.FLOAT64, ClampOps.clampMin(floats(DType.FLOAT64, 1), 0.5).dtype());
        Tensor b = ClampOps.clampMin(Torch.tensor(new boolean[] {true, false}), 0L);
        assertEquals(DType.INT64, b.dtype());
        assertArrayEquals(new long[] {1, 0}, b.toLongArray());
        assertEquals(
                DType.INT64, ClampOps.hardtanh(ints(DType.INT64, 3), -0.5, 0.5).dtype());
    }

    @Test
    void tensorBoundsBroadcastAndPromote() {
        // x (2, 3) int32, min (3,) int64, max 0-d float64: the dimensioned int64 decides the integral part,
        // the 0-d float64 lifts the result to floating (result_type's priority groups)
        Tensor x = Views.of(
                Torch.tensor(new long[] {-61, 90, 12, -24, 88, -20}).to(DType.INT32), 0, new long[] {2, 3}, new long[] {
                    3, 1
                });
        Tensor min = ints(DType.INT64, -5, 0, 5);
        Tensor max = Torch.scalarTensor(50.5, DType.FLOAT64);
        Tensor r = ClampOps.clamp(x, min, max);
        assertEquals(DType.FLOAT64, r.dtype());
        assertArrayEquals(new long[] {2, 3}, r.shape());
        assertArrayEquals(new double[] {-5, 50.5, 12, -5, 50.5, 5}, r.toDoubleArray());
        Tensor t = ClampOps.clampMax(x, Torch.scalarTensor(0L, DType.INT64));
        assertEquals(DType.INT32, t.dtype()); // a 0-d tensor of the same category does not widen
        assertArrayEquals(new long[] {-61, 0, 0, -24, 0, -20}, t.toLongArray());
    }

    @Test
    void nonContiguousInputsMatchANaiveLoop() {
        int rows = 300, cols = 257; // above the parallel grain
        double[] data = new double[rows * cols];
        for (int i = 0; i < data.length; i++) data[i] = Math.sin(i * 0.61) * 3;
        Tensor base = Torch.tensor(data, DType.FLOAT32, rows, cols);
        Tensor t = Views.of(base, 0, new long[] {cols, rows}, new long[] {1, cols}); // transposed view
        double[] got = ClampOps.clamp(t, -1.25, 2.0).toDoubleArray();
        double[] gotH = ClampOps.hardtanh(t).toDoubleArray();
        for (int i = 0; i < cols; i++) {
            for (int j = 0; j < rows; j++) {
                float v = (float) data[j * cols + i];
                assertEquals(Math.min(Math.max(v, -1.25f), 2.0f), got[i * rows + j], 0, "clamp at " + i + "," + j);
                assertEquals(Math.min(Math.max(v, -1f), 1f), gotH[i * rows + j], 0, "hardtanh at " + i + "," + j);
            }
        }
    }

    @Test
    void emptyTensors() {
        Tensor e = Torch.zeros(new long[] {0, 3}, DType.INT16);
        assertArrayEquals(new long[] {0, 3}, ClampOps.clamp(e, 1L, 2L).shape());
        Tensor r = ClampOps.clamp(e, ints(DType.INT16, 1, 1, 1), null);
        assertArrayEquals(new long[] {0, 3}, r.shape());
        assertEquals(DType.INT16, r.dtype());
    }

    // ---- errors -----------------------------------------------------------------------------------------

    @Test
    void atLeastOneBoundIsRequired() {
        Tensor x = Torch.zeros(3);
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(x, (Double) null, null)),
                "torch.clamp: At least one of 'min' or 'max' must not be None");
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(x, (Tensor) null, null)),
                "At least one of 'min' or 'max' must not be None");
    }

    @Test
    void complexIsATypeError() {
        Tensor c = Torch.zeros(new long[] {2}, DType.COMPLEX64);
        assertMessage(
                assertThrows(TorchTypeException.class, () -> ClampOps.clamp(c, 0.0, 1.0)),
                "clamp is not supported for complex types");
        assertThrows(TorchTypeException.class, () -> ClampOps.clampMin(c, c));
        assertThrows(TorchTypeException.class, () -> ClampOps.hardtanh(c));
        Tensor f = Torch.zeros(2);
        assertThrows(TorchTypeException.class, () -> ClampOps.clamp(f, Scalar.complex(0, 1), null));
        assertThrows(TorchTypeException.class, () -> ClampOps.clamp(f, c, null));
    }

    @Test
    void boolAndFloat8HaveNoScalarKernel() {
        Tensor b = Torch.tensor(new boolean[] {true, false});
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(b, Scalar.of(false), Scalar.of(true))),
                "\"clamp_scalar_cpu\" not implemented for 'Bool'");
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.hardtanh(b)),
                "Bool inputs not supported for hardtanh");
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(b, b, b)),
                "\"clamp_cpu\" not implemented for 'Bool'");
        // one bool bound is maximum/minimum, which bool has
        assertArrayEquals(
                new boolean[] {true, true},
                ClampOps.clamp(b, Torch.tensor(new boolean[] {false, true}), null)
                        .toBooleanArray());
        Tensor f8 = Torch.zeros(new long[] {2}, DType.FLOAT8_E4M3FN);
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clampMin(f8, 0.0)),
                "not implemented for 'Float8_e4m3fn'");
    }

    @Test
    void shapesMustBroadcast() {
        assertMessage(
                assertThrows(TorchException.class, () -> ClampOps.clamp(Torch.zeros(2, 3), Torch.zeros(4), null)),
                "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
    }

    // ---- in place -------------------------------------------------------------------------------------

    @Test
    void inPlaceWritesSelfAndRefusesUnsafePromotion() {
        Tensor x = ints(DType.INT32, -9, 3, 9);
        int before = x.version();
        assertSame(x, ClampOps.clamp_(x, -2L, 4L));
        assertArrayEquals(new long[] {-2, 3, 4}, x.toLongArray());
        assertNotEquals(before, x.version());
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp_(x, 0.5, null)), "can't be cast");
        Tensor f = floats(DType.FLOAT32, -3, 0.25, 3);
        ClampOps.clampMin_(f, floats(DType.FLOAT32, 0, 0, 0));
        ClampOps.clampMax_(f, 2.0);
        assertArrayEquals(new double[] {0, 0.25, 2}, f.toDoubleArray());
        ClampOps.hardtanh_(f, 0.5, 1);
        assertArrayEquals(new double[] {0.5, 0.5, 1}, f.toDoubleArray());
        // in place, the bounds must broadcast to self's shape
        assertThrows(TorchException.class, () -> ClampOps.clamp_(floats(DType.FLOAT32, 1), Torch.zeros(2, 1), null));
    }

    // ---- meta device --------------------------------------------------------------------------------------

    @Test
    void metaDeviceGivesShapesDtypesAndErrors() {
        Tensor x = Tensor.of(TensorImpl.meta(new long[] {4, 1, 3}, DType.INT16));
        Tensor r = ClampOps.clamp(x, -1.0, null);
        assertEquals(Device.META, r.device());
        assertEquals(DType.FLOAT32, r.dtype());
        assertArrayEquals(new long[] {4, 1, 3}, r.shape());
        Tensor bound = Tensor.of(TensorImpl.meta(new long[] {5, 1}, DType.INT64));
        Tensor t = ClampOps.clamp(x, bound, null);
        assertEquals(DType.INT64, t.dtype());
        assertArrayEquals(new long[] {4, 5, 3}, t.shape());
        assertEquals(DType.INT16, ClampOps.hardtanh(x).dtype());
        // the meta rule owns the checks, so the meta device raises what the CPU raises
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp(x, 40000L, null)), "int16_t");
        assertMessage(assertThrows(TorchException.class, () -> ClampOps.clamp(x, (Long) null, null)), "At least one");
    }
}

package org.jtorch.ops;

import static org.jtorch.ops.ShapeOpsTest.arange;
import static org.jtorch.ops.ShapeOpsTest.meta;
import static org.jtorch.ops.ShapeOpsTest.transposed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.ops.ArrangeOps.PadMode;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Tests for {@link ArrangeOps} against PyTorch's own results ({@code golden/arrange.json}, made by
 * {@code make_golden_arrange.py}) and against naive loops written here that compute each output element from its
 * coordinates; plus the dtypes, layouts, meta tensors and 2.15 error messages the fixtures (PyTorch 1.13) cannot show.
 */
class ArrangeOpsTest {

    static final String FIXTURE = "arrange.json";
    private static final Set<String> OPS = Set.of("pad", "one_hot", "repeat_interleave", "diff", "diag", "diag_embed");

    // ---- golden fixtures ------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> goldenCasesMatchPyTorch() {
        List<Case> cases =
                Golden.cases(FIXTURE).stream().filter(c -> OPS.contains(c.op())).toList();
        assertTrue(cases.size() >= 250, "only " + cases.size() + " arrange fixtures");
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> Golden.check(c, List.of(), false, () -> run(c))));
    }

    private static long kwLong(Case c, String name, long absent) {
        return c.has(name) ? ((Number) c.kwarg(name)).longValue() : absent;
    }

    private static Long kwBoxed(Case c, String name) {
        return c.has(name) ? ((Number) c.kwarg(name)).longValue() : null;
    }

    private static Object run(Case c) {
        Tensor x = c.tensorArg(0);
        return switch (c.op()) {
            case "pad" ->
                ArrangeOps.pad(
                        x,
                        longs((List<?>) c.kwarg("pad")),
                        c.has("mode") ? PadMode.of((String) c.kwarg("mode")) : PadMode.CONSTANT,
                        c.has("value") ? Golden.number(c.kwarg("value")) : null);
            case "one_hot" -> ArrangeOps.oneHot(x, kwLong(c, "num_classes", -1));
            case "repeat_interleave" -> {
                Long dim = kwBoxed(c, "dim"), outputSize = kwBoxed(c, "output_size");
                Integer d = dim == null ? null : dim.intValue();
                if (c.argCount() == 1) yield ArrangeOps.REPEAT_INTERLEAVE.call1(x, outputSize);
                yield c.arg(1) instanceof Tensor r
                        ? ArrangeOps.repeatInterleave(x, r, d, outputSize)
                        : ArrangeOps.repeatInterleave(x, (Long) c.arg(1), d, outputSize);
            }
            case "diff" ->
                ArrangeOps.diff(
                        x,
                        kwLong(c, "n", 1),
                        (int) kwLong(c, "dim", -1),
                        c.has("prepend") ? (Tensor) c.kwarg("prepend") : null,
                        c.has("append") ? (Tensor) c.kwarg("append") : null);
            case "diag" -> ArrangeOps.diag(x, kwLong(c, "diagonal", 0));
            case "diag_embed" ->
                ArrangeOps.diagEmbed(
                        x, kwLong(c, "offset", 0), (int) kwLong(c, "dim1", -2), (int) kwLong(c, "dim2", -1));
            default -> throw new IllegalArgumentException(c.op());
        };
    }

    static long[] longs(List<?> values) {
        long[] r = new long[values.size()];
        for (int i = 0; i < r.length; i++) r[i] = ((Number) values.get(i)).longValue();
        return r;
    }

    // ---- naive references -----------------------------------------------------------------------

    private static long[] coords(long lin, long[] shape) {
        long[] c = new long[shape.length];
        for (int d = shape.length - 1; d >= 0; d--) {
            c[d] = lin % shape[d];
            lin /= shape[d];
        }
        return c;
    }

    private static int linear(long[] c, long[] shape) {
        long lin = 0;
        for (int d = 0; d < shape.length; d++) lin = lin * shape[d] + c[d];
        return (int) lin;
    }

    private static void assertMessage(Class<? extends Throwable> type, String message, Executable call) {
        assertEquals(message, assertThrows(type, call).getMessage());
    }

    /** Folds a coordinate back into [0, n) by walking it as a mirror would: bounce at 0 and at n-1. */
    private static long mirror(long x, long n) {
        while (x < 0 || x >= n) x = x < 0 ? -x : 2 * (n - 1) - x;
        return x;
    }

    /**
     * F.pad computed element by element: crop first (negative pads), then pad the cropped tensor, except reflect and
     * replicate whose indices are relative to the uncropped input, as ATen's kernels read it.
     */
    private static double[] naivePad(Tensor x, long[] pad, PadMode mode, double value) {
        double[] in = x.contiguous().toDoubleArray();
        long[] inShape = x.shape(), outShape = x.shape();
        int rank = inShape.length;
        long[] before = new long[rank], after = new long[rank];
        for (int k = 0; k < pad.length / 2; k++) {
            before[rank - 1 - k] = pad[2 * k];
            after[rank - 1 - k] = pad[2 * k + 1];
            outShape[rank - 1 - k] += pad[2 * k] + pad[2 * k + 1];
        }
        double[] out = new double[(int) Torch.zeros(outShape).numel()];
        for (int i = 0; i < out.length; i++) {
            long[] oc = coords(i, outShape), ic = new long[rank];
            boolean fill = false;
            for (int d = 0; d < rank; d++) {
                long n = inShape[d], x0 = oc[d] - before[d];
                long lo = Math.max(-before[d], 0), kept = n - lo - Math.max(-after[d], 0);
                switch (mode) {
                    case CONSTANT -> {
                        fill |= x0 < 0 || x0 >= n;
                        ic[d] = x0;
                    }
                    case REFLECT -> ic[d] = mirror(x0, n);
                    case REPLICATE -> ic[d] = Math.min(Math.max(x0, 0), n - 1);
                    case CIRCULAR -> {
                        long y = oc[d] - Math.max(before[d], 0);
                        while (y < 0) y += kept;
                        ic[d] = lo + y % kept;
                    }
                }
            }
            out[i] = fill ? value : in[linear(ic, inShape)];
        }
        return out;
    }

    /**
     * repeat_interleave along {@code dim}: output slice j of dim comes from the input slice whose repeat range holds j.
     */
    private static double[] naiveRepeat(Tensor x, long[] repeats, int dim) {
        double[] in = x.contiguous().toDoubleArray();
        long[] inShape = x.shape(), outShape = x.shape();
        List<Long> source = new ArrayList<>();
        for (int i = 0; i < repeats.length; i++) for (long k = 0; k < repeats[i]; k++) source.add((long) i);
        outShape[dim] = source.size();
        double[] out = new double[(int) Torch.zeros(outShape).numel()];
        for (int i = 0; i < out.length; i++) {
            long[] c = coords(i, outShape);
            c[dim] = source.get((int) c[dim]);
            out[i] = in[linear(c, inShape)];
        }
        return out;
    }

    // ---- pad ----------------------------------------------------------------------------------------

    @ParameterizedTest
    @EnumSource(PadMode.class)
    void padMatchesTheNaiveLoopForTransposedInputs(PadMode mode) {
        Tensor x = transposed(arange(DType.FLOAT64, 2, 6, 5), 1, 2); // [2, 5, 6]
        long[][] pads = {{2, 3}, {-1, 2}, {1, -2, 3, 0}, {0, 0, -1, 1}, {2, 1, 1, 2}};
        for (long[] pad : pads) {
            Tensor out = ArrangeOps.pad(x, pad, mode);
            assertArrayEquals(
                    naivePad(x, pad, mode, 0), out.toDoubleArray(), mode + " " + java.util.Arrays.toString(pad));
        }
    }

    @Test
    void constantPadsAnyNumberOfTrailingDims() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 2, 2);
        long[] pad = {1, 0, 0, 2, -1, 1, 1, 1};
        Tensor out = ArrangeOps.pad(x, pad, 9.5);
        assertArrayEquals(new long[] {4, 3, 4, 3}, out.shape());
        assertArrayEquals(naivePad(x, pad, PadMode.CONSTANT, 9.5), out.toDoubleArray());
    }

    @Test
    void everyDtypeIsPaddedElementForElement() {
        Tensor base = arange(DType.FLOAT64, 1, 3, 4);
        for (DType dt : DType.values()) {
            Tensor x = base.to(dt);
            for (PadMode mode : PadMode.values()) {
                boolean supported = mode == PadMode.CONSTANT
                        || mode == PadMode.CIRCULAR
                        || !(dt == DType.BOOL
                                || dt.isBarebonesUnsigned()
                                || dt.isFloat8()
                                || dt == DType.COMPLEX32
                                || dt == DType.BCOMPLEX32);
                long[] pad = {1, 2, 2, 1};
                if (!supported) {
                    String kernel = (mode == PadMode.REFLECT ? "reflection" : "replication") + "_pad2d";
                    assertMessage(
                            TorchException.class,
                            "\"" + kernel + "\" not implemented for '" + dt.cppName() + "'",
                            () -> ArrangeOps.pad(x, pad, mode));
                    continue;
                }
                Tensor out = ArrangeOps.pad(x, pad, mode);
                assertEquals(dt, out.dtype());
                Tensor expected = ArrangeOps.pad(base, pad, mode).to(dt);
                assertArrayEquals(expected.toDoubleArray(), out.toDoubleArray(), dt + " " + mode);
            }
        }
    }

    @Test
    void constantFillIsConvertedAsFill_Does() {
        assertArrayEquals(
                new long[] {2, 0, 1, 2, 2},
                ArrangeOps.pad(Torch.arange(3L), new long[] {1, 1}, 2.7).toLongArray());
        assertArrayEquals(
                new boolean[] {true, false, true},
                ArrangeOps.pad(Torch.tensor(new boolean[] {false}), new long[] {1, 1}, 0.5)
                        .toBooleanArray());
        assertArrayEquals(
                new double[] {-2, 0, 0, 0, 1, 0},
                ArrangeOps.pad(Torch.tensor(new double[] {0, 1}).to(DType.COMPLEX64), new long[] {1, 0}, -2)
                        .toDoubleArray());
        assertMessage(
                TorchException.class,
                "value cannot be converted to type uint8_t without overflow",
                () -> ArrangeOps.pad(Torch.arange(3L).to(DType.UINT8), new long[] {1, 1}, -1.5));
    }

    @Test
    void largePadsMatchTheNaiveLoopOnTheParallelPath() {
        Tensor x = transposed(arange(DType.FLOAT32, 3, 300, 200), 1, 2);
        for (PadMode mode : PadMode.values()) {
            long[] pad = {7, 3, 2, 9};
            assertArrayEquals(
                    naivePad(x, pad, mode, 0), ArrangeOps.pad(x, pad, mode).toDoubleArray(), mode.toString());
        }
    }

    @Test
    void padOnMetaTensorsGivesShapeAndDtypeOnly() {
        Tensor out =
                ArrangeOps.pad(meta(DType.BFLOAT16, 2, 3, 4, 5), new long[] {1, 2, 3, -1, 0, 4}, PadMode.REPLICATE);
        assertEquals(Device.META, out.device());
        assertEquals(DType.BFLOAT16, out.dtype());
        assertArrayEquals(new long[] {2, 7, 6, 8}, out.shape());
        assertArrayEquals(
                new long[] {4, 3},
                ArrangeOps.pad(meta(DType.INT64, 2, 3), new long[] {0, 0, 1, 1}).shape());
    }

    @Test
    void emptyInputsAndEmptyResults() {
        assertArrayEquals(
                new long[] {0, 2, 4},
                ArrangeOps.pad(Torch.zeros(0, 2, 2), new long[] {1, 1}, PadMode.REPLICATE)
                        .shape());
        assertArrayEquals(
                new long[] {2, 0},
                ArrangeOps.pad(Torch.zeros(2, 3), new long[] {-2, -1}).shape());
        assertArrayEquals(
                new double[] {5, 5},
                ArrangeOps.pad(Torch.zeros(1, 0), new long[] {1, 1}, 5).toDoubleArray());
        Tensor scalar = Torch.scalarTensor(2.5);
        Tensor copy = ArrangeOps.pad(scalar, new long[0]);
        assertEquals(2.5, copy.item());
        assertNotSame(scalar.untypedStorage(), copy.untypedStorage());
    }

    @Test
    void padErrorsCarryPyTorch215Messages() {
        Tensor row = Torch.ones(1, 5);
        assertMessage(
                TorchException.class,
                "Padding length should be less than or equal to two times the input dimension but got "
                        + "padding length 4 and input of dimension 1",
                () -> ArrangeOps.pad(Torch.ones(3), new long[] {1, 1, 1, 1}));
        assertMessage(
                TorchException.class,
                "narrow(): length must be non-negative.",
                () -> ArrangeOps.pad(Torch.ones(5), new long[] {-6, 0}));
        assertMessage(
                TorchException.class,
                "narrow(): length must be non-negative.",
                () -> ArrangeOps.pad(Torch.ones(5), new long[] {1, -7}));
        assertMessage(
                TorchException.class,
                "Argument #6: Padding size should be less than the corresponding input dimension, but got: "
                        + "padding (3, 1) at dimension 1 of input [1, 3, 5]",
                () -> ArrangeOps.pad(Torch.ones(1, 3, 5), new long[] {1, 1, 3, 1}, "reflect"));
        assertMessage(
                TorchException.class,
                "Argument #8: Padding size should be less than the corresponding input dimension, but got: "
                        + "padding (0, 2) at dimension 2 of input [1, 1, 2, 3, 3]",
                () -> ArrangeOps.pad(Torch.ones(1, 1, 2, 3, 3), new long[] {1, 1, 1, 1, 0, 2}, "reflect"));
        assertMessage(
                TorchException.class,
                "Expected 2D or 3D (batch mode) tensor with possibly 0 batch size and other non-zero "
                        + "dimensions for input, but got: [2, 0]",
                () -> ArrangeOps.pad(Torch.zeros(2, 0), new long[] {1, 1}, "reflect"));
        assertMessage(
                TorchException.class,
                "input (H: 2, W: 3 ) is too small. Calculated output H: -1 W: 0",
                () -> ArrangeOps.pad(Torch.ones(1, 2, 3), new long[] {-1, -2, -2, -1}, "replicate"));
        assertMessage(
                TorchException.class,
                "input (H: 2, W: 3) is too small. Calculated output H: 0 W: 0",
                () -> ArrangeOps.pad(Torch.ones(1, 2, 3), new long[] {-1, -2, -1, -1}, "reflect"));
        assertMessage(
                TorchException.class,
                "input (W: 5) is too small. Calculated output W: -1",
                () -> ArrangeOps.pad(row, new long[] {-3, -3}, "reflect"));
        assertMessage(
                TorchException.class,
                "Padding value causes wrapping around more than once.",
                () -> ArrangeOps.pad(row, new long[] {6, 0}, "circular"));
        assertMessage(
                TorchException.class,
                "Negative padding value is resulting in an empty dimension",
                () -> ArrangeOps.pad(row, new long[] {-3, -3}, "circular"));
        assertMessage(
                TorchException.class,
                "Negative padding value is resulting in an empty dimension",
                () -> ArrangeOps.pad(Torch.ones(1, 2), new long[] {1, -2}, "circular"));
        assertMessage(
                TorchException.class,
                "\"reflection_pad1d\" not implemented for 'UInt16'",
                () -> ArrangeOps.pad(Torch.ones(1, 5).to(DType.UINT16), new long[] {1, 1}, "reflect"));
        assertMessage(
                TorchException.class,
                "\"replication_pad1d\" not implemented for 'Bool'",
                () -> ArrangeOps.pad(Torch.ones(1, 5).to(DType.BOOL), new long[] {1, 1}, "replicate"));
        assertMessage(
                TorchException.class,
                "Padding mode \"circular\" doesn't take in value argument",
                () -> ArrangeOps.pad(row, new long[] {1, 1}, PadMode.CIRCULAR, 2.0));
        assertMessage(
                UnsupportedOperationException.class,
                "Padding size 0 is not supported for 2D input tensor.\nSupported combinations for non-constant "
                        + "padding:\n  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                        + "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                        + "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)",
                () -> ArrangeOps.pad(row, new long[0], PadMode.REPLICATE));
        assertMessage(UnsupportedOperationException.class, "Unrecognised padding mode edge", () -> PadMode.of("edge"));
        // value 0 is accepted by every mode, as in PyTorch
        assertArrayEquals(
                new long[] {1, 7},
                ArrangeOps.pad(row, new long[] {1, 1}, PadMode.REFLECT, 0.0).shape());
    }

    // ---- one_hot ------------------------------------------------------------------------------------

    @Test
    void oneHotOnMetaTensorsNeedsTheClassCount() {
        Tensor out = ArrangeOps.oneHot(meta(DType.INT64, 2, 3), 7);
        assertEquals(Device.META, out.device());
        assertEquals(DType.INT64, out.dtype());
        assertArrayEquals(new long[] {2, 3, 7}, out.shape());
        assertThrows(TorchException.class, () -> ArrangeOps.oneHot(meta(DType.INT64, 2)));
    }

    @Test
    void oneHotErrorsCarryPyTorch215Messages() {
        assertMessage(
                TorchException.class,
                "one_hot is only applicable to index tensor of type LongTensor.",
                () -> ArrangeOps.oneHot(Torch.ones(2)));
        assertMessage(
                TorchException.class,
                "Can not infer total number of classes from empty tensor.",
                () -> ArrangeOps.oneHot(Torch.zeros(new long[] {0}, DType.INT64), 0));
        assertArrayEquals(
                new long[] {0, 0, 1},
                ArrangeOps.oneHot(Torch.tensor(new long[] {2}), 3).toLongArray());
    }

    // ---- repeat_interleave ------------------------------------------------------------------------

    @Test
    void repeatInterleaveMatchesTheNaiveLoopAlongEveryDim() {
        Tensor x = transposed(arange(DType.FLOAT64, 4, 3, 2), 0, 2); // [2, 3, 4], non-contiguous
        long[][] repeats = {{2, 0}, {1, 3, 0}, {0, 2, 1, 3}};
        for (int dim = 0; dim < 3; dim++) {
            Tensor out = ArrangeOps.repeatInterleave(x, Torch.tensor(repeats[dim]), dim);
            assertArrayEquals(naiveRepeat(x, repeats[dim], dim), out.toDoubleArray(), "dim " + dim);
            long[] same = new long[(int) x.size(dim)];
            java.util.Arrays.fill(same, 3);
            assertArrayEquals(
                    naiveRepeat(x, same, dim),
                    ArrangeOps.repeatInterleave(x, 3, dim).toDoubleArray(),
                    "int, dim " + dim);
        }
    }

    @Test
    void repeatInterleaveKeepsEveryDtype() {
        Tensor base = arange(DType.FLOAT64, 3, 2);
        for (DType dt : DType.values()) {
            Tensor x = base.to(dt);
            Tensor out = ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {2, 1, 0}), 0);
            assertEquals(dt, out.dtype());
            assertArrayEquals(
                    ArrangeOps.repeatInterleave(base, Torch.tensor(new long[] {2, 1, 0}), 0)
                            .to(dt)
                            .toDoubleArray(),
                    out.toDoubleArray(),
                    dt.toString());
        }
    }

    @Test
    void repeatInterleaveIndicesFormAndOutputSize() {
        assertArrayEquals(
                new long[] {0, 0, 2, 3, 3, 3},
                ArrangeOps.repeatInterleave(Torch.tensor(new long[] {2, 0, 1, 3}))
                        .toLongArray());
        Tensor ints =
                ArrangeOps.repeatInterleave(Torch.tensor(new long[] {1, 2}).to(DType.INT32));
        assertEquals(DType.INT32, ints.dtype());
        Tensor x = Torch.tensor(new double[] {10, 20, 30});
        assertArrayEquals(
                new double[] {10, 20, 20, 30},
                ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {1, 2, 1}), 0, 4L)
                        .toDoubleArray());
        assertArrayEquals(
                new double[] {10, 10, 20, 20, 30, 30},
                ArrangeOps.repeatInterleave(x, 2, null, 6L).toDoubleArray());
        // the flattened input for a missing dim, and a 0-d repeats for every element
        Tensor columns = transposed(arange(DType.FLOAT64, 2, 2), 0, 1); // [[0, 2], [1, 3]]
        assertArrayEquals(
                new double[] {0, 0, 2, 2, 1, 1, 3, 3},
                ArrangeOps.repeatInterleave(
                                columns, Torch.tensor(new long[] {2}).view())
                        .toDoubleArray());
    }

    @Test
    void repeatInterleaveOnMetaTensorsNeedsTheOutputSize() {
        Tensor x = meta(DType.FLOAT32, 3, 2);
        Tensor repeats = meta(DType.INT64, 3);
        assertArrayEquals(
                new long[] {7, 2},
                ArrangeOps.repeatInterleave(x, repeats, 0, 7L).shape());
        assertArrayEquals(
                new long[] {9, 2}, ArrangeOps.repeatInterleave(x, 3, 0).shape());
        assertEquals(Device.META, ArrangeOps.repeatInterleave(x, repeats, 0, 7L).device());
        assertMessage(
                TorchException.class,
                "cannot repeat_interleave a meta tensor without output_size",
                () -> ArrangeOps.repeatInterleave(x, repeats, 0));
    }

    @Test
    void repeatInterleaveErrorsCarryPyTorch215Messages() {
        Tensor x = Torch.arange(3.0);
        assertMessage(TorchException.class, "Repeats must be non-negative", () -> ArrangeOps.repeatInterleave(x, -1));
        assertMessage(
                TorchException.class,
                "repeat_interleave: Invalid output_size, expected 6 but got 4",
                () -> ArrangeOps.repeatInterleave(x, 2, 0, 4L));
        assertMessage(
                TorchException.class,
                "repeats has to be Long or Int tensor",
                () -> ArrangeOps.repeatInterleave(
                        x, Torch.tensor(new long[] {1, 1, 1}).to(DType.INT16)));
        assertMessage(
                TorchException.class,
                "\"repeat_interleave_cpu\" not implemented for 'Bool'",
                () -> ArrangeOps.repeatInterleave(Torch.tensor(new boolean[] {true})));
        assertMessage(
                TorchException.class,
                "repeats can not be negative",
                () -> ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {1, -1, 2}), 0, 2L));
        assertMessage(
                TorchException.class,
                "repeats must have the same size as input along dim, but got repeats.size(0) = 2 and "
                        + "input.size(0) = 3",
                () -> ArrangeOps.repeatInterleave(x, Torch.tensor(new long[] {1, 2})));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension specified as -1 but tensor has no dimensions",
                () -> ArrangeOps.repeatInterleave(Torch.scalarTensor(1.0), Torch.tensor(new long[] {2}), -1));
        assertMessage(
                TorchException.class,
                "repeat_interleave only accept 1D vector as repeat",
                () -> ArrangeOps.repeatInterleave(
                        Torch.tensor(new long[] {1, 2}).view(1, 2)));
    }

    // ---- diff ---------------------------------------------------------------------------------------

    @Test
    void diffOfHigherOrderMatchesRepeatedDifferencesWrittenOut() {
        Tensor x = transposed(
                Torch.tensor(new double[] {1, 4, 9, 16, 25, 36, 2, 3, 5, 7, 11, 13}, DType.FLOAT64, 2, 6),
                0,
                1); // [6, 2]
        // second differences along dim 0 of each column: squares give 2s; primes give 1, 0, 2, -2
        assertArrayEquals(
                new double[] {2, 1, 2, 0, 2, 2, 2, -2}, ArrangeOps.diff(x, 2, 0).toDoubleArray());
        Tensor copy = ArrangeOps.diff(x, 0, 0);
        assertNotSame(x.untypedStorage(), copy.untypedStorage());
        assertArrayEquals(x.toDoubleArray(), copy.toDoubleArray());
        assertArrayEquals(
                new long[] {2, 0}, ArrangeOps.diff(meta(DType.FLOAT32, 2, 3), 5).shape());
        assertMessage(TorchException.class, "order must be non-negative but got -1", () -> ArrangeOps.diff(x, -1));
    }

    // ---- diag / diag_embed --------------------------------------------------------------------------

    @Test
    void diagEmbedPlacesEveryVectorOnItsDiagonal() {
        Tensor v = transposed(arange(DType.INT32, 3, 2), 0, 1); // [2, 3]
        Tensor out = ArrangeOps.diagEmbed(v, -1, 0, 2); // [4, 2, 4]
        assertArrayEquals(new long[] {4, 2, 4}, out.shape());
        long[] got = out.toLongArray(), values = v.contiguous().toLongArray();
        for (int i = 0; i < 4; i++) {
            for (int b = 0; b < 2; b++) {
                for (int j = 0; j < 4; j++) {
                    long expected = i == j + 1 ? values[b * 3 + j] : 0;
                    assertEquals(expected, got[(i * 2 + b) * 4 + j], "[" + i + ", " + b + ", " + j + "]");
                }
            }
        }
        Tensor m = ArrangeOps.diagEmbed(meta(DType.COMPLEX64, 5, 3), 2);
        assertArrayEquals(new long[] {5, 5, 5}, m.shape());
        assertEquals(DType.COMPLEX64, m.dtype());
    }

    @Test
    void diagOfAMatrixIsACopyAndFarOffsetsAreEmpty() {
        Tensor m = arange(DType.FLOAT32, 3, 4);
        Tensor d = ArrangeOps.diag(m, 1);
        assertArrayEquals(new double[] {1, 6, 11}, d.toDoubleArray());
        assertNotSame(m.untypedStorage(), d.untypedStorage());
        assertArrayEquals(new long[] {0}, ArrangeOps.diag(m, 5).shape());
        assertArrayEquals(new long[] {0}, ArrangeOps.diag(m, -7).shape());
        assertMessage(
                TorchException.class,
                "diag(): Supports 1D or 2D tensors. Got 3D",
                () -> ArrangeOps.diag(Torch.ones(2, 2, 2)));
        assertMessage(
                TorchException.class,
                "diag(): Supports 1D or 2D tensors. Got 0D",
                () -> ArrangeOps.diag(Torch.scalarTensor(1.0)));
    }
}

package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Index;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.Warning;
import org.jtorch.WarningRecorder;
import org.jtorch.Warnings;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Indexing ({@code x[spec]}, {@code x[spec] = v}, index/index_put, nonzero, where, masked_select/scatter, take,
 * take_along_dim) and the scatter/gather family: PyTorch's results and errors from {@code golden/indexing.json}, views
 * versus copies, the meta device, large inputs against naive loops written here (parallel kernels, duplicate indices,
 * determinism across thread counts) and in-place forms.
 */
class IndexingOpsTest {
    private static final List<Case> CASES = Golden.cases("indexing.json");

    /** Where JTorch knowingly differs from the PyTorch 2.13 fixtures, each with its reason and its own test. */
    private static final List<Deviation> DEVIATIONS = List.of(new Deviation(
            "take_along_dim/error/oob*",
            Kind.NOT_COMPARED,
            "2.13 wraps an out-of-range index modulo the size; JTorch raises gather's error "
                    + "(takeAlongDimRefusesOutOfRangeIndices)"));

    private static Tensor longs(long... v) {
        return Torch.tensor(v);
    }

    private static Tensor floats(float... v) {
        return Torch.tensor(v);
    }

    private static Tensor arange(DType dtype, long... shape) {
        long n = 1;
        for (long s : shape) n *= s;
        return Torch.arange(0L, n, 1L, DType.INT64).to(dtype).view(shape);
    }

    private static void assertMessage(Throwable e, String part) {
        assertTrue(String.valueOf(e.getMessage()).contains(part), "expected \"" + part + "\" in: " + e.getMessage());
    }

    // ---- golden fixtures --------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> casesMatchPyTorch() {
        assertTrue(CASES.size() > 350, "indexing cases: " + CASES.size());
        for (Deviation d : DEVIATIONS) {
            assertTrue(
                    CASES.stream().anyMatch(c -> d.matches(c.id())), "deviation " + d.pattern() + " matches no case");
        }
        return CASES.stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> check(c)));
    }

    /** {@link Golden#check}, plus the exception class for errors (IndexError, RuntimeError...). */
    private static void check(Case c) {
        boolean message = DEVIATIONS.stream().anyMatch(d -> d.matches(c.id()) && d.kind() == Kind.MESSAGE);
        Golden.check(c, DEVIATIONS, true, () -> {
            try {
                return run(c);
            } catch (RuntimeException e) {
                if (c.expectsError()) assertErrorClass(c, e, message);
                throw e;
            }
        });
    }

    private static void assertErrorClass(Case c, RuntimeException e, boolean messageDeviation) {
        String type = (String) ((Map<?, ?>) c.out()).get("type");
        Class<? extends RuntimeException> expected =
                switch (type) {
                    case "IndexError" -> IndexOutOfBoundsException.class;
                    case "ValueError" -> IllegalArgumentException.class;
                    case "TypeError" -> TorchTypeException.class;
                    case "NotImplementedError" -> UnsupportedOperationException.class;
                    default -> TorchException.class;
                };
        if (!expected.isInstance(e) && !messageDeviation) {
            fail(c.id() + ": PyTorch raised " + type + ", expected " + expected.getSimpleName() + " but got " + e, e);
        }
    }

    private static Object run(Case c) {
        // the cases' warnings (PyTorch's own, e.g. deprecations) are recorded, not printed; values are what is checked
        try (var _ = Warnings.catchWarnings()) {
            Tensor x = c.tensorArg(0);
            return switch (c.op()) {
                case "getitem" -> IndexingOps.index(x, spec(c.args().get(1)));
                case "setitem" ->
                    c.arg(2) instanceof Tensor v
                            ? IndexingOps.indexPut_(x, spec(c.args().get(1)), v, (Boolean) c.kwarg("accumulate"))
                            : x.indexPut_(spec(c.args().get(1)), c.arg(2));
                case "index_put" ->
                    IndexingOps.indexPut(
                            x,
                            tensors(c.arg(1)),
                            c.tensorArg(2),
                            c.has("accumulate") && (Boolean) c.kwarg("accumulate"));
                case "gather" -> ScatterOps.gather(x, dim(c), c.tensorArg(1));
                case "scatter" ->
                    c.argCount() == 3
                            ? ScatterOps.scatter(x, dim(c), c.tensorArg(1), c.tensorArg(2))
                            : ScatterOps.scatter(x, dim(c), c.tensorArg(1), c.kwarg("value"));
                case "scatter_add" -> ScatterOps.scatterAdd(x, dim(c), c.tensorArg(1), c.tensorArg(2));
                case "scatter_reduce" ->
                    ScatterOps.scatterReduce(
                            x,
                            dim(c),
                            c.tensorArg(1),
                            c.tensorArg(2),
                            (String) c.kwarg("reduce"),
                            !c.has("include_self") || (Boolean) c.kwarg("include_self"));
                case "index_select" -> ScatterOps.indexSelect(x, dim(c), c.tensorArg(1));
                case "index_add" ->
                    c.has("alpha")
                            ? ScatterOps.indexAdd(x, dim(c), c.tensorArg(1), c.tensorArg(2), c.kwarg("alpha"))
                            : ScatterOps.indexAdd(x, dim(c), c.tensorArg(1), c.tensorArg(2));
                case "index_copy" -> ScatterOps.indexCopy(x, dim(c), c.tensorArg(1), c.tensorArg(2));
                case "index_fill" -> ScatterOps.indexFill(x, dim(c), c.tensorArg(1), c.kwarg("value"));
                case "index_fill_tensor" -> ScatterOps.indexFill(x, dim(c), c.tensorArg(1), c.tensorArg(2));
                case "masked_select" -> IndexingOps.maskedSelect(x, c.tensorArg(1));
                case "masked_scatter" -> IndexingOps.maskedScatter(x, c.tensorArg(1), c.tensorArg(2));
                case "take" -> IndexingOps.take(x, c.tensorArg(1));
                case "take_along_dim" ->
                    c.has("dim") && c.kwarg("dim") != null
                            ? IndexingOps.takeAlongDim(x, c.tensorArg(1), dim(c))
                            : IndexingOps.takeAlongDim(x, c.tensorArg(1));
                case "nonzero" ->
                    c.has("as_tuple") && (Boolean) c.kwarg("as_tuple")
                            ? IndexingOps.nonzero(x, true)
                            : IndexingOps.nonzero(x);
                case "where" -> IndexingOps.where(x);
                default -> throw new IllegalStateException("no mapping for op " + c.op());
            };
        }
    }

    private static int dim(Case c) {
        return ((Number) c.kwarg("dim")).intValue();
    }

    private static Tensor[] tensors(Object decoded) {
        return ((List<?>) decoded).toArray(new Tensor[0]);
    }

    /** An index spec from its JSON items (see make_golden_indexing.py). */
    @SuppressWarnings("unchecked")
    private static Index[] spec(Object json) {
        List<Object> items = (List<Object>) ((Map<String, Object>) json).get("spec");
        Index[] spec = new Index[items.size()];
        for (int i = 0; i < spec.length; i++) {
            Map<String, Object> m = (Map<String, Object>) items.get(i);
            if (m.containsKey("int")) spec[i] = Index.of(((Number) m.get("int")).longValue());
            else if (m.containsKey("slice")) {
                List<Object> s = (List<Object>) m.get("slice");
                spec[i] = Index.slice(
                        (Number) s.get(0), (Number) s.get(1), s.get(2) == null ? 1 : ((Number) s.get(2)).longValue());
            } else if (m.containsKey("none")) spec[i] = Index.NONE;
            else if (m.containsKey("ellipsis")) spec[i] = Index.ELLIPSIS;
            else if (m.containsKey("bool")) spec[i] = Index.of((Boolean) m.get("bool"));
            else spec[i] = Index.of(Golden.tensor(m));
        }
        return spec;
    }

    // ---- views versus copies ----------------------------------------------------------------------------

    @Test
    void basicIndexingReturnsViewsThatWriteThrough() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 4);
        List<Index[]> specs = List.of(
                new Index[] {Index.of(1)},
                new Index[] {Index.ALL, Index.slice(1, null, 2)},
                new Index[] {Index.NONE, Index.ELLIPSIS, Index.of(-1)},
                new Index[] {Index.ELLIPSIS},
                new Index[0],
                new Index[] {Index.of(Torch.tensor(new long[] {1}).view()), Index.of(2)});
        for (Index[] spec : specs) {
            Tensor v = IndexingOps.index(x, spec);
            assertSame(x.untypedStorage(), v.untypedStorage(), "view for " + List.of(spec));
            assertNotSame(x, v, "x[...] is a new tensor object, as PyTorch's alias");
        }
        Tensor row = IndexingOps.index(x, Index.of(1), Index.of(2));
        row.copy_(floats(-1, -2, -3, -4));
        assertArrayEquals(
                new double[] {-1, -2, -3, -4},
                IndexingOps.index(x, Index.of(1), Index.of(2)).toDoubleArray());
    }

    @Test
    void advancedIndexingCopies() {
        Tensor x = arange(DType.FLOAT32, 3, 4);
        Tensor picked = IndexingOps.index(x, Index.indices(2, 0));
        assertNotSame(x.untypedStorage(), picked.untypedStorage());
        picked.copy_(Torch.zeros(2, 4));
        assertEquals(8.0, IndexingOps.index(x, Index.of(2), Index.of(0)).item());
        assertArrayEquals(
                new double[] {1, 2, 3, 5, 6, 7},
                IndexingOps.index(IndexingOps.index(x, Index.ALL, Index.slice(1, null)), Index.mask(true, true, false))
                        .reshape(-1)
                        .toDoubleArray());
    }

    @Test
    void setItemWritesSelfThroughViewsAndBumpsTheVersion() {
        Tensor x = Torch.zeros(3, 4);
        int before = x.version();
        x.indexPut_(new Index[] {Index.slice(1, null), Index.indices(0, 3)}, 5.0);
        assertTrue(x.version() > before, "in-place write bumps the version");
        assertArrayEquals(new double[] {0, 0, 0, 0, 5, 0, 0, 5, 5, 0, 0, 5}, x.toDoubleArray());
        Tensor column = IndexingOps.index(x, Index.ALL, Index.of(1));
        IndexingOps.indexPut_(column, new Index[] {Index.mask(true, false, true)}, floats(7, 8));
        assertArrayEquals(new double[] {0, 7, 0, 0, 5, 0, 0, 5, 5, 8, 0, 5}, x.toDoubleArray());
        IndexingOps.indexPut_(x, new Index[] {Index.ALL, Index.of(0)}, floats(1, 1, 1), true);
        assertArrayEquals(new double[] {1, 7, 0, 0, 6, 0, 0, 5, 6, 8, 0, 5}, x.toDoubleArray());
    }

    @Test
    void indexSpecItemsAreJavaFriendly() {
        assertEquals("1::2", Index.slice(1, null, 2).toString());
        assertEquals(":3", Index.slice(null, 3).toString());
        assertSame(Index.NONE, Index.NEW_AXIS);
        assertMessage(
                assertThrows(IllegalArgumentException.class, () -> Index.slice(null, null, 0)),
                "slice step cannot be zero");
        assertMessage(
                assertThrows(IllegalArgumentException.class, () -> Index.slice(3, 0, -1)),
                "step must be greater than zero");
        assertThrows(NullPointerException.class, () -> Index.of((Tensor) null));
    }

    // ---- index dtypes and masks (PyTorch 1.x refused int32 indices and accepted byte masks) -----------

    @Test
    void int32IndicesIndexLikeInt64() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 4);
        Tensor i32 = longs(1, 0).to(DType.INT32), i64 = longs(1, 0);
        assertArrayEquals(
                IndexingOps.index(x, Index.of(i64)).toDoubleArray(),
                IndexingOps.index(x, Index.of(i32)).toDoubleArray());
        assertArrayEquals(
                IndexingOps.index(x, Index.ALL, Index.of(i64), Index.of(i32)).toDoubleArray(),
                IndexingOps.index(x, Index.ALL, Index.of(i64), Index.of(i64)).toDoubleArray());
        assertArrayEquals(
                ScatterOps.indexSelect(x, 2, i64).toDoubleArray(),
                ScatterOps.indexSelect(x, 2, i32).toDoubleArray());
        assertMessage(
                assertThrows(IndexOutOfBoundsException.class, () -> IndexingOps.index(x, Index.of(floats(0)))),
                "tensors used as indices must be long, int, byte or bool tensors");
    }

    @Test
    void byteMasksIndexWithADeprecationWarning() {
        Tensor x = arange(DType.FLOAT32, 3, 2);
        List<Warning> records;
        Tensor got;
        try (WarningRecorder rec = Warnings.catchWarnings()) {
            got = IndexingOps.index(
                    x, Index.of(Torch.tensor(new long[] {1, 0, 1}).to(DType.UINT8)));
            records = rec.records();
        }
        assertArrayEquals(new double[] {0, 1, 4, 5}, got.toDoubleArray());
        assertEquals(1, records.size());
        assertMessage(
                new RuntimeException(records.get(0).message()), "indexing with dtype torch.uint8 is now deprecated");
    }

    @Test
    void masksMustBeBool() {
        Tensor x = arange(DType.FLOAT32, 3, 4), byteMask = Torch.ones(new long[] {4}, DType.UINT8);
        assertMessage(
                assertThrows(TorchException.class, () -> IndexingOps.maskedSelect(x, byteMask)),
                "masked_select: expected BoolTensor for mask");
        assertMessage(
                assertThrows(TorchException.class, () -> IndexingOps.maskedScatter(x, Torch.ones(4), Torch.ones(12))),
                "masked_scatter_ only supports boolean masks, but got mask with dtype Float");
    }

    @Test
    void takeAlongDimRefusesOutOfRangeIndices() {
        // PyTorch 2.13 wraps 4 to 0 and -5 to 3 here (returning x[:, 0] and x[:, 3]); negative indices within the
        // size count from the end in both
        Tensor x = arange(DType.FLOAT32, 3, 4);
        for (long bad : new long[] {4, -5, 100}) {
            assertMessage(
                    assertThrows(
                            TorchException.class,
                            () -> IndexingOps.takeAlongDim(x, Torch.tensor(new long[][] {{bad}}), 1)),
                    "is out of bounds for dimension 1 with size 4");
        }
        assertArrayEquals(
                new double[] {3, 7, 11},
                IndexingOps.takeAlongDim(x, Torch.tensor(new long[][] {{-1}}), 1)
                        .toDoubleArray());
    }

    @Test
    void scatterReduceMaxAndMinAreForwardOnlyAliases() {
        // PyTorch accepts "max"/"min" as amax/amin in the forward, and its backward refuses them
        Tensor self = Torch.tensor(new double[] {0, 1, 2, 3}).requiresGrad(true);
        Tensor src = Torch.tensor(new double[] {5, -1, 7}).requiresGrad(true);
        Tensor index = Torch.tensor(new long[] {0, 0, 2});
        Tensor max = self.scatterReduce(0, index, src, "max");
        assertArrayEquals(self.scatterReduce(0, index, src, "amax").toDoubleArray(), max.toDoubleArray());
        assertArrayEquals(
                new double[] {-1, 1, 7, 3},
                self.scatterReduce(0, index, src, "min", false).toDoubleArray());
        assertMessage(
                assertThrows(TorchException.class, () -> max.sum().backward()),
                "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got max.");
    }

    @Test
    void indexSelectOnAScalarTakesOneIndex() {
        Tensor s = Torch.scalarTensor(5.0);
        assertEquals(5.0, ScatterOps.indexSelect(s, 0, longs(0)).item());
        assertMessage(
                assertThrows(IndexOutOfBoundsException.class, () -> ScatterOps.indexSelect(s, 0, longs(0, 0))),
                "index_select(): Index to scalar can have only 1 value, got 2 value(s)");
    }

    // ---- meta device: shapes and dtypes only ------------------------------------------------------------

    private static Tensor meta(DType dtype, long... shape) {
        return Torch.zeros(shape, dtype, Device.META);
    }

    @Test
    void metaDeviceGivesShapesAndDtypes() {
        Tensor x = meta(DType.FLOAT64, 2, 3, 4), i = meta(DType.INT64, 5);
        assertArrayEquals(new long[] {3, 4}, IndexingOps.index(x, Index.of(1)).shape());
        assertArrayEquals(
                new long[] {1, 2, 2, 4},
                IndexingOps.index(x, Index.NONE, Index.ALL, Index.slice(1, null))
                        .shape());
        assertArrayEquals(
                new long[] {2, 3, 5, 1, 1},
                IndexingOps.index(x, Index.ALL, Index.ALL, Index.of(meta(DType.INT64, 5, 1)), Index.NONE)
                        .shape());
        assertArrayEquals(
                new long[] {5, 3},
                IndexingOps.index(x, Index.of(i), Index.ALL, Index.of(meta(DType.INT64, 1)))
                        .shape());
        assertArrayEquals(
                new long[] {2, 5, 4},
                IndexingOps.index(x, Index.ALL, Index.of(i)).shape());
        Tensor g = ScatterOps.gather(x, 1, meta(DType.INT64, 2, 2, 4));
        assertEquals(Device.META, g.device());
        assertArrayEquals(new long[] {2, 2, 4}, g.shape());
        assertEquals(DType.FLOAT64, g.dtype());
        assertArrayEquals(
                new long[] {2, 3, 4},
                ScatterOps.scatterAdd(x, 2, meta(DType.INT64, 2, 3, 7), meta(DType.FLOAT64, 2, 3, 7))
                        .shape());
        assertArrayEquals(
                new long[] {2, 3, 4},
                ScatterOps.scatterReduce(x, 0, meta(DType.INT64, 2, 3, 4), x, "mean")
                        .shape());
        assertArrayEquals(new long[] {2, 5, 4}, ScatterOps.indexSelect(x, 1, i).shape());
        assertArrayEquals(
                new long[] {2, 3, 4},
                ScatterOps.indexAdd(x, 2, i, meta(DType.FLOAT64, 2, 3, 5)).shape());
        assertArrayEquals(
                new long[] {2, 3, 4},
                ScatterOps.indexFill(x, 0, meta(DType.INT64, 1), 1.0).shape());
        assertArrayEquals(new long[] {5}, IndexingOps.take(x, i).shape());
        assertArrayEquals(
                new long[] {2, 3, 4},
                IndexingOps.indexPut(x, new Tensor[] {i}, meta(DType.FLOAT64, 4), true)
                        .shape());
        assertArrayEquals(new long[] {7, 3}, IndexingOps.nonzeroStatic(x, 7, -1).shape());
        assertEquals(DType.INT64, IndexingOps.countNonzero(x, 1).dtype());
        assertMessage(
                assertThrows(UnsupportedOperationException.class, () -> IndexingOps.nonzero(x)), "depends on the data");
        assertThrows(UnsupportedOperationException.class, () -> IndexingOps.maskedSelect(x, meta(DType.BOOL, 4)));
        // the meta rules still check everything that does not depend on values
        assertMessage(
                assertThrows(TorchException.class, () -> ScatterOps.gather(x, 0, meta(DType.INT16, 1, 1, 1))),
                "gather(): Expected dtype int32/int64");
        assertMessage(
                assertThrows(
                        IndexOutOfBoundsException.class,
                        () -> IndexingOps.index(x, Index.of(meta(DType.INT64, 2)), Index.of(meta(DType.INT64, 3)))),
                "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]");
    }

    // ---- large inputs against loops written here (parallel and chunked paths) -----------------------------

    private static long[] randomIndices(int n, int bound, long seed) {
        Random r = new Random(seed);
        long[] v = new long[n];
        for (int i = 0; i < n; i++) v[i] = r.nextInt(bound);
        return v;
    }

    private static float[] randomFloats(int n, long seed) {
        Random r = new Random(seed);
        float[] v = new float[n];
        for (int i = 0; i < n; i++)
            v[i] = r.nextFloat() * 2 - 1; // not short binary fractions: the order of additions shows
        return v;
    }

    /** Runs {@code op} with one thread and with every thread; the results must be bit-identical. */
    private static Tensor sameOnAnyThreadCount(Supplier<Tensor> op) {
        int threads = Torch.getNumThreads();
        Tensor serial;
        try {
            Torch.setNumThreads(1);
            serial = op.get();
        } finally {
            Torch.setNumThreads(threads);
        }
        Tensor parallel = op.get();
        assertArrayEquals(serial.toDoubleArray(), parallel.toDoubleArray(), "result depends on the thread count");
        return parallel;
    }

    @Test
    void scatterAddWithDuplicatesIsTheSequentialSumOnAnyThreadCount() {
        int n = 200_000, bins = 1000;
        long[] idx = randomIndices(n, bins, 1);
        float[] src = randomFloats(n, 2);
        float[] expected = new float[bins];
        for (int i = 0; i < n; i++) expected[(int) idx[i]] += src[i];
        Tensor got = sameOnAnyThreadCount(() -> ScatterOps.scatterAdd(Torch.zeros(bins), 0, longs(idx), floats(src)));
        assertArrayEquals(expected, got.toFloatArray());

        // rows along dim 1: each row is its own line, split across workers
        int rows = 64, cols = 4096, width = 50;
        long[] idx2 = randomIndices(rows * cols, width, 3);
        float[] src2 = randomFloats(rows * cols, 4);
        float[] expected2 = new float[rows * width];
        for (int r = 0; r < rows; r++) {
            for (int c = 0; c < cols; c++) expected2[r * width + (int) idx2[r * cols + c]] += src2[r * cols + c];
        }
        Tensor got2 = sameOnAnyThreadCount(() -> ScatterOps.scatterAdd(
                Torch.zeros(rows, width),
                1,
                longs(idx2).view(rows, cols),
                floats(src2).view(rows, cols)));
        assertArrayEquals(expected2, got2.toFloatArray());
    }

    @Test
    void indexAddAlongEachDimMatchesALoop() {
        int rows = 300, cols = 200, n = 500;
        long[] idx = randomIndices(n, rows, 5);
        float[] src = randomFloats(n * cols, 6);
        float[] expected = new float[rows * cols];
        for (int i = 0; i < n; i++)
            for (int c = 0; c < cols; c++) expected[(int) idx[i] * cols + c] += src[i * cols + c];
        Tensor got = sameOnAnyThreadCount(() -> ScatterOps.indexAdd(
                Torch.zeros(rows, cols), 0, longs(idx), floats(src).view(n, cols)));
        assertArrayEquals(expected, got.toFloatArray());

        long[] idxCols = randomIndices(n, cols, 7);
        float[] src2 = randomFloats(rows * n, 8);
        float[] expected2 = new float[rows * cols];
        for (int r = 0; r < rows; r++)
            for (int i = 0; i < n; i++) expected2[r * cols + (int) idxCols[i]] += src2[r * n + i];
        Tensor got2 = sameOnAnyThreadCount(() -> ScatterOps.indexAdd(
                Torch.zeros(rows, cols), 1, longs(idxCols), floats(src2).view(rows, n)));
        assertArrayEquals(expected2, got2.toFloatArray());
    }

    @Test
    void gatherAndTakeMatchALoop() {
        int rows = 100, cols = 3000;
        float[] x = randomFloats(rows * cols, 9);
        long[] idx = randomIndices(rows * cols, cols, 10);
        float[] expected = new float[rows * cols];
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++) expected[r * cols + c] = x[r * cols + (int) idx[r * cols + c]];
        Tensor src = floats(x).view(rows, cols);
        assertArrayEquals(
                expected, ScatterOps.gather(src, 1, longs(idx).view(rows, cols)).toFloatArray());
        // double and int64 fast paths, and a transposed (non-contiguous) source read through the generic offsets
        assertArrayEquals(
                ScatterOps.gather(src, 1, longs(idx).view(rows, cols)).toDoubleArray(),
                ScatterOps.gather(src.to(DType.FLOAT64), 1, longs(idx).view(rows, cols))
                        .toDoubleArray());
        Tensor t = src.t().contiguous().t();
        assertArrayEquals(
                expected, ScatterOps.gather(t, 1, longs(idx).view(rows, cols)).toFloatArray());
        long[] flat = randomIndices(rows * cols, rows * cols, 11);
        float[] expectedTake = new float[flat.length];
        for (int i = 0; i < flat.length; i++) expectedTake[i] = x[(int) flat[i]];
        assertArrayEquals(expectedTake, IndexingOps.take(src, longs(flat)).toFloatArray());
    }

    @Test
    void indexPutAccumulateSumsEveryDuplicate() {
        int n = 100_000, size = 37;
        long[] idx = randomIndices(n, size, 12);
        double[] expected = new double[size * 2];
        for (int i = 0; i < n; i++) {
            expected[(int) idx[i] * 2] += 1;
            expected[(int) idx[i] * 2 + 1] += i % 3;
        }
        double[] pairs = new double[n * 2];
        for (int i = 0; i < n; i++) {
            pairs[2 * i] = 1;
            pairs[2 * i + 1] = i % 3;
        }
        Tensor values = Torch.tensor(pairs).view(n, 2);
        Tensor got = IndexingOps.indexPut_(
                Torch.zeros(new long[] {size, 2}, DType.FLOAT64), new Tensor[] {longs(idx)}, values, true);
        assertArrayEquals(expected, got.toDoubleArray());
    }

    @Test
    void nonzeroOverManyBlocksMatchesALoop() {
        int n = 300_000;
        Random r = new Random(13);
        boolean[] mask = new boolean[n];
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            mask[i] = r.nextInt(7) == 0;
            if (mask[i]) {
                expected.add((long) (i / 600));
                expected.add((long) (i % 600));
            }
        }
        Tensor m = Torch.tensor(mask).view(500, 600);
        long[] got = IndexingOps.nonzero(m).toLongArray();
        assertEquals(expected.size(), got.length);
        for (int i = 0; i < got.length; i++) assertEquals(expected.get(i), got[i], "coordinate " + i);
        assertEquals(expected.size() / 2, IndexingOps.countNonzero(m).longItem());
        // a transposed float view: coordinates follow its logical order
        Tensor t = m.to(DType.FLOAT32).t();
        assertArrayEquals(
                IndexingOps.nonzero(m.t().contiguous()).toLongArray(),
                IndexingOps.nonzero(t).toLongArray());
    }

    @Test
    void nonzeroStaticPadsOrTruncates() {
        Tensor x = floats(0, 3, 0, 4, 5);
        assertArrayEquals(
                new long[] {1, 3, 4, -7, -7},
                IndexingOps.nonzeroStatic(x, 5, -7).toLongArray());
        assertArrayEquals(new long[] {1, 3}, IndexingOps.nonzeroStatic(x, 2, -1).toLongArray());
        Tensor none = IndexingOps.nonzeroStatic(Torch.zeros(2, 0), 2, 0);
        assertArrayEquals(new long[] {2, 2}, none.shape());
        assertArrayEquals(new long[] {0, 0, 0, 0}, none.toLongArray());
        assertMessage(
                assertThrows(TorchException.class, () -> IndexingOps.nonzeroStatic(x, -1, 0)),
                "'size' must be an non-negative integer");
    }

    // ---- in-place forms ----------------------------------------------------------------------------------

    @Test
    void inPlaceFormsWriteSelfAndReturnIt() {
        Tensor x = Torch.zeros(2, 3);
        Tensor index = longs(2, 0, 1, 1, 1, 0).view(2, 3);
        assertSame(x, x.scatter_(1, index, 1.5));
        assertArrayEquals(new double[] {1.5, 1.5, 1.5, 1.5, 1.5, 0}, x.toDoubleArray());
        assertSame(
                x, x.scatterAdd_(0, longs(1, 1, 1).view(1, 3), floats(1, 2, 3).view(1, 3)));
        assertArrayEquals(new double[] {1.5, 1.5, 1.5, 2.5, 3.5, 3}, x.toDoubleArray());
        assertSame(x, x.scatterReduce_(1, longs(0, 0).view(1, 2), floats(4, 5).view(1, 2), "amax", false));
        assertArrayEquals(new double[] {5, 1.5, 1.5, 2.5, 3.5, 3}, x.toDoubleArray());
        assertSame(x, x.indexAdd_(1, longs(2), floats(10, 20).view(2, 1), 2L));
        assertArrayEquals(new double[] {5, 1.5, 21.5, 2.5, 3.5, 43}, x.toDoubleArray());
        assertSame(x, x.indexCopy_(0, longs(1), floats(7, 8, 9).view(1, 3)));
        assertSame(x, x.indexFill_(1, longs(0), -1.0));
        assertArrayEquals(new double[] {-1, 1.5, 21.5, -1, 8, 9}, x.toDoubleArray());
        assertSame(
                x, IndexingOps.maskedScatter_(x, Torch.tensor(new boolean[] {false, true, false}), floats(100, 200)));
        assertArrayEquals(new double[] {-1, 100, 21.5, -1, 200, 9}, x.toDoubleArray());
        assertSame(
                x,
                IndexingOps.indexPut_(
                        x, new Tensor[] {null, longs(2)}, floats(0, 0).view(2, 1)));
        assertArrayEquals(new double[] {-1, 100, 0, -1, 200, 0}, x.toDoubleArray());
        // a row view is written through
        Tensor row = IndexingOps.index(x, Index.of(0));
        row.scatter_(0, longs(0), floats(42));
        assertEquals(42.0, IndexingOps.index(x, Index.of(0), Index.of(0)).item());
    }

    @Test
    void inPlaceScatterRefusesExpandedSelf() {
        Tensor expanded = Torch.zeros(3).expand(2, 3);
        assertMessage(
                assertThrows(TorchException.class, () -> expanded.scatter_(1, longs(0).view(1, 1), 1.0)),
                "more than one element of the written-to tensor refers to a single memory location");
        assertMessage(
                assertThrows(
                        RuntimeException.class,
                        () -> IndexingOps.maskedScatter_(
                                Torch.zeros(4), Torch.ones(new long[] {3, 4}, DType.BOOL), Torch.ones(12))),
                "must be greater or equal to the number of dimensions");
    }

    @Test
    void valuesOutOfRangeForTheDtypeAreRefused() {
        Tensor bytes = Torch.zeros(new long[] {3}, DType.UINT8);
        assertMessage(
                assertThrows(TorchException.class, () -> bytes.indexPut_(new Index[] {Index.of(0)}, 300L)),
                "value cannot be converted to type uint8_t without overflow");
        assertMessage(
                assertThrows(TorchException.class, () -> ScatterOps.scatter(bytes, 0, longs(0), 300L)),
                "without overflow");
    }
}

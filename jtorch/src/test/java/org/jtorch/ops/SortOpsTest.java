package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.UniqueResult;
import org.jtorch.ValuesIndices;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.jtorch.testing.Views;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.function.Executable;

/**
 * The order and bucketing families ({@link SortOps}, {@link SearchOps}) against PyTorch's own results
 * (golden/sort.json, made by make_golden_sort.py) and against naive references written here: a stable comparison sort
 * with PyTorch's order (NaN last, -0.0 == 0.0), linear scans for searchsorted, maps for unique. Random inputs reach
 * every kernel path: short lanes (comparison sorts), long lanes (radix sorts of narrow and wide keys), heap and radix
 * selection for topk, many lanes in parallel.
 */
class SortOpsTest {

    // ---- golden --------------------------------------------------------------------------------------

    private static final String FIXTURE = "sort.json";

    /** Where 1.13 (which made the fixtures) is not the 2.15 contract; each is tested below instead. */
    static final List<Deviation> DEVIATIONS = List.of(
            new Deviation(
                    "unique/float32/nan",
                    Kind.NOT_COMPARED,
                    "2.15 sorts before grouping, so every NaN is its own value, "
                            + "sorted last; 1.13 left NaNs among the numbers (uniqueKeepsEveryNanLast)"),
            new Deviation(
                    "unique/float32/sorted-false",
                    Kind.NOT_COMPARED,
                    "2.15's CPU unique always sorts; 1.13 returned hash " + "order (uniqueAlwaysSorts)"),
            new Deviation(
                    "histc/float16/auto",
                    Kind.NOT_COMPARED,
                    "1.13 has no float16 histc kernel; 2.15 does " + "(histcFloat16FollowsTheInputDtype)"),
            new Deviation(
                    "histc/float32/nan-ignored",
                    Kind.NOT_COMPARED,
                    "2.15's kernel drops NaN with !(x >= lo && x <= hi); "
                            + "1.13 counted it in bin 0 (histcSpecExamples)"));

    @TestFactory
    Stream<DynamicTest> casesMatchPyTorch() {
        List<Case> cases = Golden.cases(FIXTURE);
        assertTrue(cases.size() > 400, "sort fixture holds only " + cases.size() + " cases");
        for (Deviation d : DEVIATIONS) {
            assertTrue(
                    cases.stream().anyMatch(c -> d.matches(c.id())), "deviation " + d.pattern() + " matches no case");
        }
        return cases.stream().map(c -> DynamicTest.dynamicTest(c.id(), () -> check(c)));
    }

    /**
     * The golden outcome, except where the case's note records a 2.15 change of exception class: ordering complex
     * numbers is a TypeError, and a dtype the kernel lacks is a NotImplementedError.
     */
    private static void check(Case c) {
        String note = c.note() == null ? "" : c.note();
        if (note.startsWith("2.15: ordering complex")) {
            assertThrows(TorchTypeException.class, () -> run(c), c.id());
        } else if (note.contains("NotImplementedError")) {
            Golden.assertError(c, assertThrows(UnsupportedOperationException.class, () -> run(c), c.id()), false);
        } else {
            // sorting, selecting and counting have one exact answer: compare bit for bit
            Golden.check(c, DEVIATIONS, true, () -> run(c));
        }
    }

    private static long lng(Case c, String kwarg, long absent) {
        return c.has(kwarg) ? ((Number) c.kwarg(kwarg)).longValue() : absent;
    }

    private static boolean flag(Case c, String kwarg, boolean absent) {
        return c.has(kwarg) ? (Boolean) c.kwarg(kwarg) : absent;
    }

    private static double num(Case c, String kwarg) {
        return c.has(kwarg) ? Golden.number(c.kwarg(kwarg)) : 0;
    }

    private static List<Tensor> list(ValuesIndices r) {
        return List.of(r.values(), r.indices());
    }

    /** Python's unique result: the tensor alone, or the tuple of what was requested. */
    private static Object uniqueOut(UniqueResult r) {
        if (r.inverseIndices() == null && r.counts() == null) return r.output();
        List<Tensor> out = new ArrayList<>(List.of(r.output()));
        if (r.inverseIndices() != null) out.add(r.inverseIndices());
        if (r.counts() != null) out.add(r.counts());
        return out;
    }

    /** Calls the op of a case through the typed entry point a Java user would pick. */
    private static Object run(Case c) {
        Object a0 = c.arg(0);
        Tensor x = a0 instanceof Tensor t ? t : null;
        return switch (c.op()) {
            case "sort" ->
                list(SortOps.sort(x, flag(c, "stable", false), lng(c, "dim", -1), flag(c, "descending", false)));
            case "argsort" ->
                SortOps.argsort(x, lng(c, "dim", -1), flag(c, "descending", false), flag(c, "stable", false));
            case "msort" -> SortOps.msort(x);
            case "topk" ->
                list(SortOps.topk(
                        x, (Long) c.arg(1), lng(c, "dim", -1), flag(c, "largest", true), flag(c, "sorted", true)));
            case "kthvalue" -> list(SortOps.kthvalue(x, (Long) c.arg(1), lng(c, "dim", -1), flag(c, "keepdim", false)));
            case "cummax" -> list(SortOps.cummax(x, (Long) c.arg(1)));
            case "cummin" -> list(SortOps.cummin(x, (Long) c.arg(1)));
            case "searchsorted" -> {
                Tensor sorter = c.has("sorter") ? (Tensor) c.kwarg("sorter") : null;
                String side = c.has("side") ? (String) c.kwarg("side") : null;
                boolean int32 = flag(c, "out_int32", false), right = flag(c, "right", false);
                yield c.arg(1) instanceof Tensor v
                        ? SearchOps.searchsorted(x, v, int32, right, side, sorter)
                        : SearchOps.searchsorted(x, Scalar.of(c.arg(1)), int32, right, side, sorter);
            }
            case "bucketize" -> {
                boolean int32 = flag(c, "out_int32", false), right = flag(c, "right", false);
                yield x != null
                        ? SearchOps.bucketize(x, c.tensorArg(1), int32, right)
                        : SearchOps.bucketize(Scalar.of(a0), c.tensorArg(1), int32, right);
            }
            case "unique" -> {
                boolean sorted = flag(c, "sorted", true),
                        inverse = flag(c, "return_inverse", false),
                        counts = flag(c, "return_counts", false);
                yield uniqueOut(
                        c.has("dim")
                                ? SortOps.unique(x, sorted, inverse, counts, lng(c, "dim", 0))
                                : SortOps.unique(x, sorted, inverse, counts));
            }
            case "unique_consecutive" -> {
                boolean inverse = flag(c, "return_inverse", false), counts = flag(c, "return_counts", false);
                yield uniqueOut(
                        c.has("dim")
                                ? SortOps.uniqueConsecutive(x, inverse, counts, lng(c, "dim", 0))
                                : SortOps.uniqueConsecutive(x, inverse, counts));
            }
            case "histc" -> SearchOps.histc(x, lng(c, "bins", 100), num(c, "min"), num(c, "max"));
            case "bincount" ->
                SearchOps.bincount(x, c.has("weights") ? (Tensor) c.kwarg("weights") : null, lng(c, "minlength", 0));
            default -> throw new IllegalStateException("no mapping for op " + c.op());
        };
    }

    // ---- inputs --------------------------------------------------------------------------------------

    /** A contiguous tensor of {@code dtype} holding {@code values} (written through ElementIO, not through ops). */
    static Tensor make(DType dtype, long[] shape, double... values) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (int i = 0; i < values.length; i++) io.setDouble(t.impl().storage().segment(), i, values[i]);
        return t;
    }

    static Tensor longs(DType dtype, long... values) {
        Tensor t = Tensor.of(TensorImpl.empty(new long[] {values.length}, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (int i = 0; i < values.length; i++) io.setLong(t.impl().storage().segment(), i, values[i]);
        return t;
    }

    static Tensor vec(double... values) {
        return make(DType.FLOAT32, new long[] {values.length}, values);
    }

    /** Swaps the last two dims: a non-contiguous view. */
    static Tensor transposed(Tensor t) {
        long[] s = t.shape(), st = t.stride();
        int a = s.length - 2, b = s.length - 1;
        long x = s[a];
        s[a] = s[b];
        s[b] = x;
        x = st[a];
        st[a] = st[b];
        st[b] = x;
        return Views.of(t, t.storageOffset(), s, st);
    }

    /** Random values with many ties (and for floats NaN, ±0.0, ±inf) in {@code dtype}. */
    static Tensor random(DType dtype, long[] shape, long seed) {
        Random r = new Random(seed);
        int n = (int) Shapes.numel(shape);
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (int i = 0; i < n; i++) {
            if (dtype.isFloatingPoint()) {
                int pick = r.nextInt(20);
                double v =
                        switch (pick) {
                            case 0 -> Double.NaN;
                            case 1 -> -0.0;
                            case 2 -> 0.0;
                            case 3 -> r.nextBoolean() ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                            default -> Math.round(r.nextGaussian() * 16) / 4.0;
                        };
                io.setDouble(t.impl().storage().segment(), i, v);
            } else if (dtype == DType.BOOL) {
                io.setLong(t.impl().storage().segment(), i, r.nextInt(2));
            } else if (dtype == DType.UINT64) {
                io.setLong(
                        t.impl().storage().segment(),
                        i,
                        r.nextInt(3) == 0 ? -1L - r.nextInt(50) : r.nextInt(50)); // above 2^63 too
            } else if (dtype == DType.INT64) {
                io.setLong(t.impl().storage().segment(), i, r.nextInt(5) == 0 ? r.nextLong() : r.nextInt(41) - 20);
            } else {
                long v = dtype.isSigned() ? r.nextInt(41) - 20 : r.nextInt(41);
                io.setLong(t.impl().storage().segment(), i, v);
            }
        }
        return t;
    }

    // ---- the naive reference -------------------------------------------------------------------------

    /**
     * PyTorch's element order: by value, NaN after everything, -0.0 equal to 0.0; unsigned 64-bit compared unsigned.
     */
    static Comparator<Integer> order(Tensor lane) {
        DType d = lane.dtype();
        if (d == DType.UINT64) {
            long[] v = lane.toLongArray();
            return (a, b) -> Long.compareUnsigned(v[a], v[b]);
        }
        if (d.isIntegral(true)) {
            long[] v = lane.toLongArray();
            return (a, b) -> Long.compare(v[a], v[b]);
        }
        double[] v = lane.toDoubleArray();
        return (a, b) -> {
            double x = v[a], y = v[b];
            if (Double.isNaN(x) || Double.isNaN(y)) return Boolean.compare(Double.isNaN(x), Double.isNaN(y));
            return x < y ? -1 : x > y ? 1 : 0;
        };
    }

    /** Positions of a 1-D tensor in stable sorted order (List.sort is a stable merge sort). */
    static long[] stableOrder(Tensor lane, boolean descending) {
        List<Integer> idx = new ArrayList<>();
        for (int i = 0; i < lane.numel(); i++) idx.add(i);
        Comparator<Integer> cmp = order(lane);
        idx.sort(descending ? cmp.reversed() : cmp);
        return idx.stream().mapToLong(Integer::longValue).toArray();
    }

    /** Lane {@code l} of a 1-D or 2-D tensor along its last dim, as a contiguous 1-D copy. */
    static Tensor lane(Tensor t, int l) {
        return (t.dim() == 1 ? t : t.select(0, l)).contiguous();
    }

    static void assertSameBits(Tensor expected, Tensor actual, String what) {
        assertEquals(expected.dtype(), actual.dtype(), what + " dtype");
        assertArrayEquals(expected.shape(), actual.shape(), what + " shape");
        if (expected.dtype().isFloatingPoint()) {
            double[] e = expected.toDoubleArray(), a = actual.toDoubleArray();
            for (int i = 0; i < e.length; i++) {
                assertEquals(
                        Double.doubleToLongBits(e[i]),
                        Double.doubleToLongBits(a[i]),
                        what + " element " + i + ": " + e[i] + " vs " + a[i]);
            }
        } else {
            assertArrayEquals(expected.toLongArray(), actual.toLongArray(), what);
        }
    }

    /** The elements of a 1-D tensor at the given positions, as a new tensor (via ElementIO). */
    static Tensor pick(Tensor lane, long[] pos, int count) {
        Tensor out = Tensor.of(TensorImpl.empty(new long[] {count}, lane.dtype()));
        ElementIO io = ElementIO.of(lane.dtype());
        for (int j = 0; j < count; j++) {
            long src = lane.impl().elementIndex(pos[j]);
            if (lane.dtype().isFloatingPoint())
                io.setDouble(
                        out.impl().storage().segment(),
                        j,
                        io.getDouble(lane.impl().storage().segment(), src));
            else
                io.setLong(
                        out.impl().storage().segment(),
                        j,
                        io.getLong(lane.impl().storage().segment(), src));
        }
        return out;
    }

    static final List<DType> SORTABLE = List.of(
            DType.BOOL,
            DType.UINT8,
            DType.INT8,
            DType.INT16,
            DType.UINT16,
            DType.INT32,
            DType.UINT32,
            DType.INT64,
            DType.UINT64,
            DType.FLOAT16,
            DType.BFLOAT16,
            DType.FLOAT32,
            DType.FLOAT64);

    // ---- sort ----------------------------------------------------------------------------------------

    /**
     * Lane lengths reaching the comparison sorts, the radix sorts of narrow and wide keys, many short lanes in
     * parallel.
     */
    static final long[][] SHAPES = {{1}, {17}, {3, 200}, {2, 5000}, {400, 90}};

    @TestFactory
    Stream<DynamicTest> sortMatchesAStableReference() {
        List<DynamicTest> tests = new ArrayList<>();
        for (DType d : SORTABLE) {
            for (long[] shape : SHAPES) {
                for (boolean desc : new boolean[] {false, true}) {
                    String name = "sort/" + d.pyName() + "/" + Arrays.toString(shape) + (desc ? "/desc" : "");
                    tests.add(DynamicTest.dynamicTest(name, () -> checkSort(random(d, shape, name.hashCode()), desc)));
                }
            }
        }
        return tests.stream();
    }

    private static void checkSort(Tensor x, boolean desc) {
        ValuesIndices r = SortOps.sort(x, -1, desc);
        Tensor ix = SortOps.argsort(x, -1, desc);
        int lanes = (int) (x.numel() / x.size(-1));
        for (int l = 0; l < lanes; l += Math.max(1, lanes / 7)) {
            Tensor in = lane(x, l);
            long[] expected = stableOrder(in, desc);
            assertArrayEquals(expected, lane(r.indices(), l).toLongArray(), "indices of lane " + l);
            assertArrayEquals(expected, lane(ix, l).toLongArray(), "argsort of lane " + l);
            assertSameBits(pick(in, expected, expected.length), lane(r.values(), l), "values of lane " + l);
        }
    }

    @Test
    void sortAlongAnInnerDimOfATransposedView() {
        Tensor base = random(DType.FLOAT64, new long[] {5, 1100}, 7);
        Tensor x = transposed(base); // [1100, 5], sorted along dim 0: lanes are base's rows
        ValuesIndices r = SortOps.sort(x, 0, true);
        for (int l = 0; l < 5; l++) {
            Tensor in = base.select(0, l).contiguous();
            long[] expected = stableOrder(in, true);
            assertArrayEquals(expected, r.indices().select(1, l).contiguous().toLongArray(), "lane " + l);
            assertSameBits(
                    pick(in, expected, expected.length), r.values().select(1, l).contiguous(), "lane " + l);
        }
    }

    @Test
    void zerosTieAndNanGoesLast() {
        ValuesIndices r = SortOps.sort(vec(0.0, -0.0, Double.NaN, 1, -0.0, Double.NEGATIVE_INFINITY));
        assertArrayEquals(new long[] {5, 0, 1, 4, 3, 2}, r.indices().toLongArray());
        double[] v = r.values().toDoubleArray();
        assertEquals(Double.doubleToLongBits(-0.0), Double.doubleToLongBits(v[2]), "-0.0 keeps its sign and its place");
        ValuesIndices d = SortOps.sort(vec(0.0, -0.0, Double.NaN, 1, Double.NaN), -1, true);
        assertArrayEquals(new long[] {2, 4, 3, 0, 1}, d.indices().toLongArray(), "descending: NaN first, ties stable");
    }

    @Test
    void unsignedSixtyFourBitOrder() {
        Tensor x = longs(DType.UINT64, -1L, 5, Long.MIN_VALUE, 0);
        assertArrayEquals(
                new long[] {0, 5, Long.MIN_VALUE, -1L}, SortOps.sort(x).values().toLongArray());
        Tensor y = longs(DType.UINT32, 0xFFFFFFFFL, 7, 0x80000000L);
        assertArrayEquals(
                new long[] {7, 0x80000000L, 0xFFFFFFFFL},
                SortOps.sort(y).values().toLongArray());
    }

    @Test
    void stableFlagDoesNotChangeTheAlwaysStableOrder() {
        Tensor x = random(DType.INT16, new long[] {3000}, 11);
        assertArrayEquals(
                SortOps.sort(x, true, -1, false).indices().toLongArray(),
                SortOps.sort(x, false, -1, false).indices().toLongArray());
    }

    @Test
    void msortSortsAlongDimZero() {
        Tensor x = make(DType.FLOAT32, new long[] {3, 2}, 3, 0, 1, 5, 2, -1);
        assertArrayEquals(new double[] {1, -1, 2, 0, 3, 5}, SortOps.msort(x).toDoubleArray());
    }

    // ---- topk / kthvalue -------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> topkIsTheHeadOfTheStableSort() {
        // n < 4096: full sort; k ≤ 1024: heap; 1024 < k ≤ n/4: radix selection; larger k: full sort
        int[][] nks = {{50, 7}, {5000, 1, 37, 1024, 1100, 5000}, {9000, 2250, 2251}};
        List<DynamicTest> tests = new ArrayList<>();
        for (DType d : List.of(DType.INT8, DType.FLOAT16, DType.UINT64, DType.FLOAT64)) { // narrow and wide keys
            for (int[] nk : nks) {
                for (boolean largest : new boolean[] {true, false}) {
                    String name = "topk/" + d.pyName() + "/n" + nk[0] + (largest ? "" : "/smallest");
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        Tensor x = random(d, new long[] {2, nk[0]}, name.hashCode());
                        for (int l = 0; l < 2; l++) {
                            Tensor in = lane(x, l);
                            long[] order = stableOrder(in, largest);
                            for (int i = 1; i < nk.length; i++) {
                                int k = nk[i];
                                ValuesIndices r = SortOps.topk(x, k, -1, largest, true);
                                long[] expected = Arrays.copyOf(order, k);
                                assertArrayEquals(
                                        expected, lane(r.indices(), l).toLongArray(), "lane " + l + ", k " + k);
                                assertSameBits(pick(in, expected, k), lane(r.values(), l), "lane " + l + ", k " + k);
                            }
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    @Test
    void topkUnsortedReturnsTheSameElements() {
        Tensor x = random(DType.FLOAT32, new long[] {6000}, 3);
        ValuesIndices s = SortOps.topk(x, 100, -1, true, true), u = SortOps.topk(x, 100, -1, true, false);
        long[] a = s.indices().toLongArray(), b = u.indices().toLongArray();
        Arrays.sort(a);
        Arrays.sort(b);
        assertArrayEquals(a, b);
    }

    @TestFactory
    Stream<DynamicTest> kthvalueIsTheStableSortAtK() {
        List<DynamicTest> tests = new ArrayList<>();
        for (DType d : List.of(DType.UINT8, DType.INT32, DType.INT64, DType.BFLOAT16, DType.FLOAT32, DType.FLOAT64)) {
            for (int n : new int[] {9, 4096, 9000}) {
                for (int k : new int[] {1, n / 2, n}) {
                    String name = "kthvalue/" + d.pyName() + "/n" + n + "/k" + k;
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        Tensor x = random(d, new long[] {3, n}, name.hashCode());
                        ValuesIndices r = SortOps.kthvalue(x, k, 1, true);
                        assertArrayEquals(new long[] {3, 1}, r.values().shape());
                        for (int l = 0; l < 3; l++) {
                            Tensor in = lane(x, l);
                            long at = stableOrder(in, false)[k - 1];
                            assertEquals(at, r.indices().toLongArray()[l], "lane " + l);
                            assertSameBits(
                                    pick(in, new long[] {at}, 1), r.values().select(0, l), "lane " + l);
                        }
                    }));
                }
            }
        }
        return tests.stream();
    }

    // ---- cummax / cummin -------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> cumExtremaFollowAtensRule() {
        List<DynamicTest> tests = new ArrayList<>();
        for (DType d : SORTABLE) {
            for (boolean max : new boolean[] {true, false}) {
                String name = (max ? "cummax/" : "cummin/") + d.pyName();
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    Tensor x = random(d, new long[] {4, 300}, name.hashCode());
                    ValuesIndices r = max ? SortOps.cummax(x, 1) : SortOps.cummin(x, 1);
                    for (int l = 0; l < 4; l++) {
                        Tensor in = lane(x, l);
                        long[] expected = naiveCum(in, max);
                        assertArrayEquals(expected, lane(r.indices(), l).toLongArray(), "lane " + l);
                        assertSameBits(pick(in, expected, expected.length), lane(r.values(), l), "lane " + l);
                    }
                }));
            }
        }
        return tests.stream();
    }

    /**
     * ATen's {@code cummax_cummin_helper}: {@code isnan(x) || (!isnan(out) && op(x, out))} with op {@code >=} or
     * {@code <=}.
     */
    private static long[] naiveCum(Tensor lane, boolean max) {
        Comparator<Integer> cmp = order(lane);
        double[] v = lane.toDoubleArray();
        boolean floating = lane.dtype().isFloatingPoint();
        long[] out = new long[v.length];
        int at = 0;
        for (int i = 0; i < v.length; i++) {
            boolean xNan = floating && Double.isNaN(v[i]), outNan = floating && Double.isNaN(v[at]);
            int c = cmp.compare(i, at);
            if (xNan || (!outNan && (max ? c >= 0 : c <= 0))) at = i;
            out[i] = at;
        }
        return out;
    }

    // ---- searchsorted / bucketize ------------------------------------------------------------------------

    @Test
    void searchsortedMatchesALinearScan() {
        Random r = new Random(5);
        double[] b = new double[300];
        for (int i = 0; i < b.length; i++) b[i] = Math.round(r.nextGaussian() * 20) / 2.0;
        Arrays.sort(b);
        b[b.length - 1] = Double.NaN; // a NaN boundary sorts last
        double[] v = new double[2000];
        for (int i = 0; i < v.length; i++) v[i] = i % 97 == 0 ? Double.NaN : Math.round(r.nextGaussian() * 24) / 2.0;
        Tensor boundaries = make(DType.FLOAT64, new long[] {b.length}, b),
                values = make(DType.FLOAT64, new long[] {40, 50}, v);
        for (boolean right : new boolean[] {false, true}) {
            long[] got = SearchOps.searchsorted(boundaries, values, right).toLongArray();
            for (int i = 0; i < v.length; i++) {
                int expected = 0;
                // ATen's tests: left counts boundaries b with !(b >= v), right those with !(b > v)
                while (expected < b.length && (right ? !(b[expected] > v[i]) : !(b[expected] >= v[i]))) expected++;
                assertEquals(expected, got[i], "value " + v[i] + (right ? " right" : " left"));
            }
        }
    }

    @Test
    void searchsortedWithSorterIsThePositionInSortedOrder() {
        Tensor seq = longs(DType.INT64, 40, 10, 30, 20, 50);
        Tensor sorter = SortOps.argsort(seq);
        Tensor v = longs(DType.INT64, 5, 10, 25, 50, 60);
        assertArrayEquals(
                new long[] {0, 0, 2, 4, 5},
                SearchOps.searchsorted(seq, v, false, false, null, sorter).toLongArray());
        assertArrayEquals(
                new long[] {0, 1, 2, 5, 5},
                SearchOps.searchsorted(seq, v, false, false, "right", sorter).toLongArray());
        Tensor bad = longs(DType.INT64, 0, 1, 2, 3, -1);
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.searchsorted(seq, v, false, false, null, bad)),
                "torch.searchsorted(): sorter index out of range");
    }

    @Test
    void searchsortedScalarIsAWeakOperand() {
        Tensor b = longs(DType.INT32, 1, 3, 5, 7);
        Tensor r = SearchOps.searchsorted(b, 4.5);
        assertEquals(0, r.dim());
        assertEquals(DType.INT64, r.dtype());
        assertEquals(2, r.longItem());
        assertEquals(1, SearchOps.searchsorted(b, 3L).longItem());
        assertEquals(
                DType.INT32,
                SearchOps.searchsorted(b, Scalar.of(3L), true, true, null, null).dtype());
        assertEquals(2, SearchOps.bucketize(Scalar.of(3L), b, false, true).longItem());
        // a double scalar against float64 boundaries compares in float64, not in the default float32
        Tensor fine = make(DType.FLOAT64, new long[] {2}, 0.1, 0.1 + 1e-12);
        assertEquals(1, SearchOps.searchsorted(fine, 0.1 + 1e-13).longItem());
    }

    @Test
    void searchsortedUint64ComparesUnsigned() {
        Tensor b = longs(DType.UINT64, 1, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
        assertArrayEquals(
                new long[] {0, 3, 3, 4},
                SearchOps.searchsorted(b, longs(DType.UINT64, 0, Long.MIN_VALUE, -2L, -1L), true)
                        .toLongArray());
    }

    // ---- unique ------------------------------------------------------------------------------------

    @TestFactory
    Stream<DynamicTest> uniqueMatchesAGroupingReference() {
        List<DynamicTest> tests = new ArrayList<>();
        for (DType d : SORTABLE) {
            String name = "unique/" + d.pyName();
            tests.add(DynamicTest.dynamicTest(name, () -> {
                Tensor x = transposed(random(d, new long[] {40, 30}, name.hashCode()));
                UniqueResult r = SortOps.unique(x, true, true, true);
                Tensor flat = x.contiguous().view(-1);
                long[] order = stableOrder(flat, false);
                Comparator<Integer> cmp = order(flat);
                double[] v = flat.toDoubleArray();
                List<Long> firsts = new ArrayList<>(), counts = new ArrayList<>();
                long[] inverse = new long[order.length];
                for (int i = 0; i < order.length; i++) {
                    int p = (int) order[i];
                    boolean nan = d.isFloatingPoint() && Double.isNaN(v[p]);
                    if (i == 0 || nan || cmp.compare(p, (int) order[i - 1]) != 0) {
                        firsts.add((long) p);
                        counts.add(0L);
                    }
                    counts.set(counts.size() - 1, counts.getLast() + 1);
                    inverse[p] = firsts.size() - 1;
                }
                long[] f = firsts.stream().mapToLong(Long::longValue).toArray();
                assertSameBits(pick(flat, f, f.length), r.output(), "output");
                assertArrayEquals(inverse, r.inverseIndices().toLongArray(), "inverse");
                assertArrayEquals(x.shape(), r.inverseIndices().shape(), "inverse shape");
                assertArrayEquals(
                        counts.stream().mapToLong(Long::longValue).toArray(),
                        r.counts().toLongArray(),
                        "counts");
            }));
        }
        return tests.stream();
    }

    @Test
    void uniqueKeepsEveryNanLast() {
        UniqueResult r = SortOps.unique(vec(3, Double.NaN, 1, Double.NaN, 1), true, true, true);
        double[] out = r.output().toDoubleArray();
        assertEquals(4, out.length);
        assertEquals(1, out[0]);
        assertEquals(3, out[1]);
        assertTrue(Double.isNaN(out[2]) && Double.isNaN(out[3]));
        assertArrayEquals(new long[] {1, 2, 0, 3, 0}, r.inverseIndices().toLongArray());
        assertArrayEquals(new long[] {2, 1, 1, 1}, r.counts().toLongArray());
    }

    @Test
    void uniqueAlwaysSorts() {
        assertArrayEquals(
                new double[] {1, 2, 3},
                SortOps.unique(vec(3, 1, 2, 3), false, false, false).output().toDoubleArray());
        UniqueResult r = SortOps.unique(vec(3, 1), false, false, false);
        assertNull(r.inverseIndices());
        assertNull(r.counts());
    }

    @Test
    void uniqueDimGroupsEqualSlices() {
        Tensor x = make(DType.INT64, new long[] {4, 3}, 1, 2, 3, 0, 9, 9, 1, 2, 3, 0, 9, 8);
        UniqueResult rows = SortOps.unique(x, true, true, true, 0);
        assertArrayEquals(new long[] {0, 9, 8, 0, 9, 9, 1, 2, 3}, rows.output().toLongArray());
        assertArrayEquals(new long[] {2, 1, 2, 0}, rows.inverseIndices().toLongArray());
        assertArrayEquals(new long[] {1, 1, 2}, rows.counts().toLongArray());
        UniqueResult cols = SortOps.unique(x, true, true, true, -1);
        assertArrayEquals(new long[] {4, 3}, cols.output().shape());
        assertArrayEquals(new long[] {0, 1, 2}, cols.inverseIndices().toLongArray());
        UniqueResult nan = SortOps.unique(
                make(DType.FLOAT32, new long[] {2, 2}, Double.NaN, 1, Double.NaN, 1), true, false, true, 0);
        assertArrayEquals(new long[] {1, 1}, nan.counts().toLongArray(), "rows holding NaN are never equal");
    }

    @Test
    void uniqueConsecutiveCollapsesRunsOnly() {
        UniqueResult r = SortOps.uniqueConsecutive(longs(DType.INT64, 1, 1, 2, 2, 3, 1, 1, 2), true, true);
        assertArrayEquals(new long[] {1, 2, 3, 1, 2}, r.output().toLongArray());
        assertArrayEquals(
                new long[] {0, 0, 1, 1, 2, 3, 3, 4}, r.inverseIndices().toLongArray());
        assertArrayEquals(new long[] {2, 2, 1, 2, 1}, r.counts().toLongArray());
        assertArrayEquals(
                new double[] {0}, SortOps.uniqueConsecutive(vec(0.0, -0.0)).toDoubleArray());
    }

    // ---- histc / bincount ----------------------------------------------------------------------------

    @Test
    void histcSpecExamples() {
        assertArrayEquals(
                new double[] {0, 2, 1, 0},
                SearchOps.histc(vec(1, 2, 1), 4, 0, 3).toDoubleArray());
        assertArrayEquals(
                new double[] {1, 1, 2}, SearchOps.histc(vec(0, 1, 2, 3), 3).toDoubleArray());
        assertArrayEquals(new double[] {0, 2}, SearchOps.histc(vec(5, 5), 2).toDoubleArray());
        assertArrayEquals(
                new double[] {1, 0}, SearchOps.histc(vec(1, 7, -1), 2, 0, 4).toDoubleArray());
        assertArrayEquals(
                new double[] {1, 1},
                SearchOps.histc(vec(0.5, Double.NaN, 1.5, Double.POSITIVE_INFINITY), 2, 0, 2)
                        .toDoubleArray(),
                "NaN and values outside the range are dropped");
        Tensor h = SearchOps.histc(make(DType.FLOAT64, new long[] {3}, 1, 2, 1));
        assertEquals(DType.FLOAT64, h.dtype());
        assertArrayEquals(new long[] {100}, h.shape());
    }

    @Test
    void histcFloat16FollowsTheInputDtype() {
        Tensor h = SearchOps.histc(make(DType.FLOAT16, new long[] {4}, 0, 1, 2.5, 3), 3);
        assertEquals(DType.FLOAT16, h.dtype());
        assertArrayEquals(new double[] {1, 1, 2}, h.toDoubleArray());
    }

    @Test
    void histcOutMustHaveTheInputDtype() {
        Tensor out = Tensor.of(TensorImpl.empty(new long[] {4}, DType.FLOAT32));
        assertSame(out, SearchOps.histc(vec(1, 2, 1), 4, 0, 3, out));
        assertArrayEquals(new double[] {0, 2, 1, 0}, out.toDoubleArray());
        Tensor wide = Tensor.of(TensorImpl.empty(new long[] {4}, DType.FLOAT64));
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.histc(vec(1, 2, 1), 4, 0, 3, wide)),
                "input tensor and hist tensor should have the same dtype, but got input float32 and hist float64");
    }

    @Test
    void histcMatchesANaiveCountInFloat() {
        Random r = new Random(9);
        double[] v = new double[5000];
        for (int i = 0; i < v.length; i++) v[i] = r.nextGaussian() * 3;
        Tensor x = make(DType.FLOAT32, new long[] {50, 100}, v);
        long bins = 13;
        float lo = -4.25f, hi = 5.5f;
        long[] expected = new long[(int) bins];
        for (float e : x.toFloatArray()) {
            if (!(e >= lo && e <= hi)) continue;
            long pos = (long) ((e - lo) * (float) bins / (hi - lo)); // ATen: in the input's dtype
            expected[(int) Math.min(pos, bins - 1)]++;
        }
        double[] got =
                SearchOps.histc(transposed(x.view(100, 50)), bins, lo, hi).toDoubleArray();
        for (int i = 0; i < bins; i++) assertEquals(expected[i], got[i], "bin " + i);
    }

    @Test
    void bincountCountsAndSums() {
        Tensor x = longs(DType.INT32, 1, 1, 3, 0);
        assertArrayEquals(new long[] {1, 2, 0, 1}, SearchOps.bincount(x).toLongArray());
        assertArrayEquals(
                new long[] {1, 2, 0, 1, 0, 0}, SearchOps.bincount(x, null, 6).toLongArray());
        Tensor w = SearchOps.bincount(x, vec(0.5, 0.25, 1, 2));
        assertEquals(DType.FLOAT32, w.dtype());
        assertArrayEquals(new double[] {2, 0.75, 0, 1}, w.toDoubleArray());
        assertEquals(
                DType.FLOAT64,
                SearchOps.bincount(x, longs(DType.INT64, 1, 1, 1, 1)).dtype());
        Tensor strided = longs(DType.INT64, 2, 9, 2, 9, 0, 9).asStrided(new long[] {3}, new long[] {2});
        assertArrayEquals(new long[] {1, 0, 2}, SearchOps.bincount(strided).toLongArray());
        Tensor empty = SearchOps.bincount(longs(DType.INT64), vec(), 3);
        assertEquals(DType.INT64, empty.dtype(), "an empty input gives int64 zeros even with weights, as ATen");
        assertArrayEquals(new long[] {0, 0, 0}, empty.toLongArray());
    }

    // ---- errors and dtypes ---------------------------------------------------------------------------

    static void assertMessage(Throwable e, String fragment) {
        assertTrue(
                String.valueOf(e.getMessage()).contains(fragment),
                "expected \"" + fragment + "\" in: " + e.getMessage());
    }

    @Test
    void complexOrderingIsATypeError() {
        Tensor z = Tensor.of(TensorImpl.empty(new long[] {3}, DType.COMPLEX64));
        List<Executable> calls = List.of(
                () -> SortOps.sort(z),
                () -> SortOps.argsort(z),
                () -> SortOps.msort(z),
                () -> SortOps.topk(z, 1),
                () -> SortOps.kthvalue(z, 1),
                () -> SortOps.cummax(z, 0),
                () -> SortOps.cummin(z, 0),
                () -> SearchOps.searchsorted(vec(1, 2), z),
                () -> SearchOps.searchsorted(z, vec(1)),
                () -> SearchOps.bucketize(z, vec(1)),
                () -> SearchOps.searchsorted(vec(1, 2), Scalar.complex(1, 1)));
        for (Executable call : calls)
            assertMessage(assertThrows(TorchTypeException.class, call), "ordering is not defined for complex numbers");
        assertThrows(
                TorchTypeException.class,
                () -> SortOps.sort(Tensor.of(TensorImpl.empty(new long[] {}, DType.COMPLEX128))),
                "0-d and one-element complex inputs raise too (spec §5)");
        assertMessage(
                assertThrows(UnsupportedOperationException.class, () -> SortOps.unique(z)),
                "not implemented for 'ComplexFloat'");
    }

    @Test
    void badArgumentsNameTheOpAndTheArgument() {
        Tensor x = vec(1, 2, 3);
        assertMessage(
                assertThrows(TorchException.class, () -> SortOps.topk(x, 4)),
                "topk(): selected index k out of range (k = 4");
        assertMessage(
                assertThrows(TorchException.class, () -> SortOps.kthvalue(x, 0)),
                "kthvalue(): selected number k out of range");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.histc(x, 0)),
                "torch.histc(): bins must be > 0, but got 0");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.histc(x, -5, 0, 1)), "bins must be > 0, but got -5");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.histc(x, 3, 2, 1)),
                "torch.histc: max must be larger than min");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.histc(vec(1, Double.NaN), 3)),
                "range of [nan, nan] is not finite");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.bincount(longs(DType.INT64, 1), null, -2)),
                "bincount(): minlength should be >= 0, but got -2");
        assertMessage(
                assertThrows(TorchException.class, () -> SearchOps.bincount(longs(DType.INT64, Long.MAX_VALUE))),
                "maximum value of input overflowed");
        assertMessage(
                assertThrows(
                        TorchException.class,
                        () -> SearchOps.bucketize(x, make(DType.FLOAT32, new long[] {1, 2}, 1, 2))),
                "bucketize(): boundaries tensor must be 1 dimension, but got dim(2)");
        assertThrows(IndexOutOfBoundsException.class, () -> SortOps.sort(x, 1));
        assertThrows(
                IndexOutOfBoundsException.class,
                () -> SortOps.kthvalue(Tensor.of(TensorImpl.empty(new long[] {2, 0}, DType.FLOAT32)), 1));
        assertMessage(
                assertThrows(UnsupportedOperationException.class, () -> SortOps.topk(longs(DType.BOOL, 1, 0), 1)),
                "topk does not support bool dtypes on CPU");
    }

    @Test
    void float8IsNotSortable() {
        Tensor f8 = Tensor.of(TensorImpl.empty(new long[] {3}, DType.FLOAT8_E4M3FN));
        for (Executable call : List.<Executable>of(
                () -> SortOps.sort(f8),
                () -> SortOps.topk(f8, 1),
                () -> SortOps.cummax(f8, 0),
                () -> SortOps.unique(f8),
                () -> SearchOps.histc(f8),
                () -> SearchOps.searchsorted(f8, f8))) {
            assertMessage(
                    assertThrows(UnsupportedOperationException.class, call), "not implemented for 'Float8_e4m3fn'");
        }
    }

    // ---- meta device and empty inputs ------------------------------------------------------------------

    @Test
    void metaGivesShapesAndDtypesOnly() {
        Tensor m = Tensor.of(TensorImpl.meta(new long[] {4, 6}, DType.FLOAT32));
        ValuesIndices s = SortOps.sort(m, 0, false);
        assertEquals(Device.META, s.values().device());
        assertArrayEquals(new long[] {4, 6}, s.indices().shape());
        assertEquals(DType.INT64, s.indices().dtype());
        ValuesIndices t = SortOps.topk(m, 2);
        assertArrayEquals(new long[] {4, 2}, t.values().shape());
        assertArrayEquals(new long[] {4}, SortOps.kthvalue(m, 3).indices().shape());
        assertArrayEquals(
                new long[] {4, 1}, SortOps.kthvalue(m, 3, 1, true).values().shape());
        assertEquals(DType.INT64, SortOps.cummin(m, 1).indices().dtype());
        Tensor ss = SearchOps.searchsorted(
                m, Tensor.of(TensorImpl.meta(new long[] {4, 9}, DType.FLOAT32)), true, false, null, null);
        assertArrayEquals(new long[] {4, 9}, ss.shape());
        assertEquals(DType.INT32, ss.dtype());
        Tensor h = SearchOps.histc(m, 7);
        assertArrayEquals(new long[] {7}, h.shape());
        assertEquals(Device.META, h.device());
        assertThrows(TorchException.class, () -> SearchOps.histc(m, 0), "meta runs every data-free check");
        assertThrows(
                TorchTypeException.class,
                () -> SortOps.sort(Tensor.of(TensorImpl.meta(new long[] {2}, DType.COMPLEX64))));
        assertThrows(
                UnsupportedOperationException.class,
                () -> SortOps.unique(m),
                "the output size of unique depends on data");
        assertThrows(
                UnsupportedOperationException.class,
                () -> SearchOps.bincount(Tensor.of(TensorImpl.meta(new long[] {3}, DType.INT64))));
    }

    @Test
    void emptyInputsGiveEmptyResults() {
        Tensor e = Tensor.of(TensorImpl.empty(new long[] {3, 0}, DType.FLOAT64));
        assertArrayEquals(new long[] {3, 0}, SortOps.sort(e).values().shape());
        assertArrayEquals(new long[] {3, 0}, SortOps.topk(e, 0).indices().shape());
        assertArrayEquals(new long[] {3, 0}, SortOps.cummax(e, 1).values().shape());
        assertArrayEquals(
                new long[] {0}, SortOps.kthvalue(transposed(e), 2).values().shape());
        UniqueResult u = SortOps.unique(e, true, true, true);
        assertArrayEquals(new long[] {0}, u.output().shape());
        assertArrayEquals(new long[] {3, 0}, u.inverseIndices().shape());
        assertArrayEquals(
                new long[] {3, 0}, SearchOps.searchsorted(vec(1, 2), e).shape());
    }

    @Test
    void zeroDimInputsAreOneElementLanes() {
        Tensor s = make(DType.FLOAT32, new long[] {}, 2.5);
        assertEquals(0, SortOps.sort(s).values().dim());
        assertEquals(2.5, SortOps.topk(s, 1).values().item());
        assertEquals(0, SortOps.kthvalue(s, 1).indices().longItem());
        assertEquals(0, SortOps.cummax(s, 0).indices().dim());
        UniqueResult u = SortOps.unique(s, true, true, false);
        assertArrayEquals(new long[] {1}, u.output().shape());
        assertEquals(0, u.inverseIndices().dim());
        assertEquals(1, SortOps.unique(s).numel(), "unique of a 0-d tensor has one element");
    }
}

package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;
import org.jtorch.testing.Golden;
import org.jtorch.testing.Golden.Case;
import org.jtorch.testing.Golden.Deviation;
import org.jtorch.testing.Golden.Kind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Tests for {@link ShapeOps}: values against PyTorch's golden fixtures and hand-computed geometry, storage sharing of
 * views, meta tensors and error messages. Inputs are built from raw storage ({@link #arange}, {@link #transposed}) so
 * no op under test builds its own test input.
 */
class ShapeOpsTest {

    // ================================================================================================
    // Golden fixtures (the runner is shared with JoinOpsTest)

    /**
     * Where the Java op knowingly differs from the 1.13 fixture. The exact 2.15 messages are asserted by the
     * hand-written tests below ({@link #sliceClampsLikePython}, JoinOpsTest's tril test).
     */
    static final List<Deviation> DEVIATIONS = List.of(
            new Deviation(
                    "tril/error/1d",
                    Kind.MESSAGE,
                    "2.15's tril meta rule checks the rank (\"tril: input tensor must have at least 2 "
                            + "dimensions\"); 1.13 failed later"
                            + " with a dim-wrap error"),
            new Deviation(
                    "slice/error/step",
                    Kind.MESSAGE,
                    "the fixture is Python's t[::-1], whose ValueError comes from the indexing code; aten::slice, which"
                            + " ShapeOps.slice is, says \"slice step must be positive\""));

    /** The golden cases of {@code ops}, each compared exactly (shape ops move values without arithmetic). */
    static Stream<DynamicTest> goldenTests(Set<String> ops) {
        Golden.assertLoaded(1000);
        List<Case> cases =
                Golden.cases().stream().filter(c -> ops.contains(c.op())).toList();
        for (String op : ops) assertTrue(cases.stream().anyMatch(c -> c.op().equals(op)), "no golden case for " + op);
        return cases.stream()
                .map(c -> DynamicTest.dynamicTest(c.id(), () -> Golden.check(c, DEVIATIONS, true, () -> run(c))));
    }

    private static int[] ints(Object listOrInt) {
        if (listOrInt instanceof Number n) return new int[] {n.intValue()};
        List<?> l = (List<?>) listOrInt;
        int[] r = new int[l.size()];
        for (int i = 0; i < r.length; i++) r[i] = ((Number) l.get(i)).intValue();
        return r;
    }

    private static long[] longs(Object listOrLong) {
        if (listOrLong instanceof Number n) return new long[] {n.longValue()};
        List<?> l = (List<?>) listOrLong;
        long[] r = new long[l.size()];
        for (int i = 0; i < r.length; i++) r[i] = ((Number) l.get(i)).longValue();
        return r;
    }

    private static int intKw(Case c, String name, int dflt) {
        return c.has(name) ? ((Number) c.kwarg(name)).intValue() : dflt;
    }

    private static long longKw(Case c, String name, long dflt) {
        return c.has(name) ? ((Number) c.kwarg(name)).longValue() : dflt;
    }

    private static Long optionalKw(Case c, String name) {
        return c.kwarg(name) instanceof Number n ? n.longValue() : null;
    }

    /** Calls the op of a case through the public entry points; multi-output ops give their {@code List<Tensor>}. */
    @SuppressWarnings("unchecked")
    static Object run(Case c) {
        if (c.arg(0) instanceof List<?> list) {
            List<Tensor> ts = (List<Tensor>) list;
            return switch (c.op()) {
                case "cat" -> JoinOps.cat(ts, intKw(c, "dim", 0));
                case "stack" -> JoinOps.stack(ts, intKw(c, "dim", 0));
                default -> throw new AssertionError("no list runner for " + c.op());
            };
        }
        Tensor x = c.tensorArg(0);
        return switch (c.op()) {
            case "reshape" -> ShapeOps.reshape(x, longs(c.kwarg("shape")));
            case "view" -> ShapeOps.view(x, longs(c.kwarg("size")));
            case "permute" -> ShapeOps.permute(x, ints(c.kwarg("dims")));
            case "transpose" -> ShapeOps.transpose(x, intKw(c, "dim0", 0), intKw(c, "dim1", 1));
            case "t" -> ShapeOps.t(x);
            case "flatten" -> ShapeOps.flatten(x, intKw(c, "start_dim", 0), intKw(c, "end_dim", -1));
            case "unflatten" -> ShapeOps.unflatten(x, intKw(c, "dim", 0), longs(c.kwarg("sizes")));
            case "squeeze" -> c.has("dim") ? ShapeOps.squeeze(x, intKw(c, "dim", 0)) : ShapeOps.squeeze(x);
            case "unsqueeze" -> ShapeOps.unsqueeze(x, intKw(c, "dim", 0));
            case "narrow" -> ShapeOps.narrow(x, intKw(c, "dim", 0), longKw(c, "start", 0), longKw(c, "length", 0));
            case "select" -> ShapeOps.select(x, intKw(c, "dim", 0), longKw(c, "index", 0));
            case "slice" ->
                ShapeOps.slice(
                        x, intKw(c, "dim", 0), optionalKw(c, "start"), optionalKw(c, "end"), longKw(c, "step", 1));
            case "chunk" -> ShapeOps.chunk(x, intKw(c, "chunks", 1), intKw(c, "dim", 0));
            case "split" ->
                c.kwarg("split_size_or_sections") instanceof List<?> sizes
                        ? ShapeOps.split(x, longs(sizes), intKw(c, "dim", 0))
                        : ShapeOps.split(x, longKw(c, "split_size_or_sections", 1), intKw(c, "dim", 0));
            case "diagonal" -> ShapeOps.diagonal(x, longKw(c, "offset", 0), intKw(c, "dim1", 0), intKw(c, "dim2", 1));
            case "expand" -> ShapeOps.expand(x, longs(c.kwarg("size")));
            case "broadcast_to" -> ShapeOps.broadcastTo(x, longs(c.kwarg("size")));
            case "movedim" -> ShapeOps.movedim(x, ints(c.kwarg("source")), ints(c.kwarg("destination")));
            case "tril" -> JoinOps.tril(x, longKw(c, "diagonal", 0));
            case "triu" -> JoinOps.triu(x, longKw(c, "diagonal", 0));
            case "flip" -> JoinOps.flip(x, ints(c.kwarg("dims")));
            case "roll" ->
                c.has("dims")
                        ? JoinOps.roll(x, longs(c.kwarg("shifts")), ints(c.kwarg("dims")))
                        : JoinOps.roll(x, longKw(c, "shifts", 0));
            case "repeat" -> JoinOps.repeat(x, longs(c.kwarg("repeats")));
            default -> throw new AssertionError("no runner for " + c.op());
        };
    }

    @TestFactory
    Stream<DynamicTest> golden() {
        return goldenTests(Set.of(
                "reshape",
                "view",
                "permute",
                "transpose",
                "t",
                "flatten",
                "unflatten",
                "squeeze",
                "unsqueeze",
                "narrow",
                "select",
                "slice",
                "chunk",
                "split",
                "diagonal",
                "expand",
                "broadcast_to",
                "movedim"));
    }

    // ================================================================================================
    // Test inputs built from raw storage

    /** 0, 1, 2, ... in {@code dtype}, contiguous. */
    static Tensor arange(DType dtype, long... shape) {
        Tensor t = Tensor.of(TensorImpl.empty(shape, dtype));
        ElementIO io = ElementIO.of(dtype);
        for (long i = 0; i < t.numel(); i++) io.setLong(t.impl().storage().segment(), i, i);
        return t;
    }

    /** The same storage with dims d0 and d1 swapped (a non-contiguous view), built without any op. */
    static Tensor transposed(Tensor t, int d0, int d1) {
        long[] shape = t.shape(), strides = t.stride();
        shape[d0] = t.impl().shapeRef()[d1];
        shape[d1] = t.impl().shapeRef()[d0];
        strides[d0] = t.impl().strideRef()[d1];
        strides[d1] = t.impl().strideRef()[d0];
        return Tensor.of(TensorImpl.of(t.impl().storage(), t.storageOffset(), shape, strides, t.dtype()));
    }

    static Tensor meta(DType dtype, long... shape) {
        return Tensor.of(TensorImpl.meta(shape, dtype));
    }

    /** Value at row-major coordinates of a tensor whose values are read with toDoubleArray. */
    static double at(double[] data, long[] shape, long... idx) {
        long lin = 0;
        for (int d = 0; d < shape.length; d++) lin = lin * shape[d] + idx[d];
        return data[(int) lin];
    }

    private static <E extends Throwable> E assertMessage(
            Class<E> type, String message, org.junit.jupiter.api.function.Executable call) {
        E e = assertThrows(type, call);
        assertEquals(message, e.getMessage());
        return e;
    }

    // ================================================================================================
    // view / reshape

    @Test
    void viewSharesStorageAndWritesAreVisible() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 4);
        Tensor v = ShapeOps.view(x, 4, -1);
        assertArrayEquals(new long[] {4, 6}, v.shape());
        assertArrayEquals(new long[] {6, 1}, v.stride());
        assertSame(x.untypedStorage(), v.untypedStorage());
        ShapeOps.select(v, 0, 1).copy_(Torch.full(new long[] {6}, -1.0));
        double[] d = x.toDoubleArray();
        for (int i = 0; i < 24; i++) assertEquals(i >= 6 && i < 12 ? -1 : i, d[i], "element " + i);
    }

    @Test
    void viewSplitsAndMergesDimsOfNonContiguousTensors() {
        // [3, 2, 4] with strides [4, 12, 1]: dims 1 and 2 are not contiguous with each other, dim 2 is.
        Tensor x = transposed(arange(DType.FLOAT64, 2, 3, 4), 0, 1);
        Tensor split = ShapeOps.view(x, 3, 2, 2, 2);
        assertArrayEquals(new long[] {4, 12, 2, 1}, split.stride());
        double[] d = split.toDoubleArray();
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 2; j++)
                for (int k = 0; k < 4; k++) {
                    assertEquals(j * 12 + i * 4 + k, at(d, new long[] {3, 2, 2, 2}, i, j, k / 2, k % 2));
                }
        // Unit dims may be inserted anywhere and take any stride that keeps the layout.
        assertArrayEquals(new long[] {3, 1, 2, 4}, ShapeOps.view(x, 3, 1, 2, 4).shape());
        TorchException e = assertThrows(TorchException.class, () -> ShapeOps.view(x, 3, 8));
        assertEquals(
                "view size is not compatible with input tensor's size and stride (at least one dimension "
                        + "spans across two"
                        + " contiguous subspaces). Use .reshape(...) instead.",
                e.getMessage());
    }

    @Test
    void viewOfZeroDimAndEmptyTensors() {
        Tensor s = Tensor.of(TensorImpl.empty(new long[0], DType.FLOAT32));
        assertArrayEquals(new long[] {1, 1}, ShapeOps.view(s, 1, 1).shape());
        assertArrayEquals(
                new long[0], ShapeOps.view(ShapeOps.view(s, 1), new long[0]).shape());
        Tensor e = transposed(arange(DType.FLOAT32, 0, 3), 0, 1);
        assertArrayEquals(new long[] {3, 0, 1}, ShapeOps.view(e, 3, 0, 1).shape());
        assertMessage(
                TorchException.class,
                "cannot reshape tensor of 0 elements into shape [-1, 0] because the unspecified dimension"
                        + " size -1 can be any value and is ambiguous",
                () -> ShapeOps.view(e, -1, 0));
    }

    @Test
    void viewSizeErrors() {
        Tensor x = arange(DType.FLOAT32, 2, 3);
        assertMessage(
                TorchException.class, "shape '[4, 2]' is invalid for input of size 6", () -> ShapeOps.view(x, 4, 2));
        assertMessage(
                TorchException.class, "shape '[4, -1]' is invalid for input of size 6", () -> ShapeOps.view(x, 4, -1));
        assertMessage(TorchException.class, "only one dimension can be inferred", () -> ShapeOps.view(x, -1, -1));
        assertMessage(TorchException.class, "invalid shape dimension -2", () -> ShapeOps.view(x, -2, 3));
        // PyTorch 2.13: torch.empty(0, 3).view(2**63 - 1, 2**63 - 1, 0) raises RuntimeError with c10's message
        Tensor empty = Torch.zeros(0, 3);
        assertMessage(
                TorchException.class,
                "numel: integer multiplication overflow",
                () -> ShapeOps.view(empty, Long.MAX_VALUE, Long.MAX_VALUE, 0));
    }

    @Test
    void reshapeViewsWhenPossibleAndCopiesOtherwise() {
        Tensor x = arange(DType.INT32, 3, 4);
        assertSame(x.untypedStorage(), ShapeOps.reshape(x, 12).untypedStorage());
        Tensor xt = transposed(x, 0, 1); // [4, 3], strides [1, 4]
        Tensor r = ShapeOps.reshape(xt, 12);
        assertNotSame(xt.untypedStorage(), r.untypedStorage());
        assertTrue(r.isContiguous());
        long[] v = r.toLongArray();
        for (int i = 0; i < 4; i++) for (int j = 0; j < 3; j++) assertEquals(j * 4 + i, v[i * 3 + j]);
        // A compatible non-contiguous reshape stays a view.
        assertSame(xt.untypedStorage(), ShapeOps.reshape(xt, 2, 2, 3).untypedStorage());
    }

    // ================================================================================================
    // permute / transpose / t / mT / movedim

    @Test
    void permuteAndTransposeSwapGeometry() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 4);
        Tensor p = ShapeOps.permute(x, 2, 0, -2);
        assertArrayEquals(new long[] {4, 2, 3}, p.shape());
        assertArrayEquals(new long[] {1, 12, 4}, p.stride());
        assertSame(x.untypedStorage(), p.untypedStorage());
        Tensor tr = ShapeOps.transpose(x, -1, 0);
        assertArrayEquals(new long[] {4, 3, 2}, tr.shape());
        assertArrayEquals(new long[] {1, 4, 12}, tr.stride());
        assertArrayEquals(tr.stride(), ShapeOps.swapaxes(x, 0, 2).stride());
        assertMessage(
                TorchException.class, "permute(): duplicate dims are not allowed.", () -> ShapeOps.permute(x, 0, 0, 1));
        assertMessage(
                TorchException.class,
                "permute(sparse_coo): number of dimensions in the tensor input does not match the length"
                        + " of the desired ordering of dimensions i.e. input.dim() = 3 is not equal to len(dims) = 2",
                () -> ShapeOps.permute(x, 0, 1));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
                () -> ShapeOps.transpose(x, 0, 3));
    }

    @Test
    void tAndMT() {
        Tensor m = arange(DType.FLOAT32, 2, 3);
        assertArrayEquals(new long[] {1, 3}, ShapeOps.t(m).stride());
        Tensor v = arange(DType.FLOAT32, 3);
        assertArrayEquals(new long[] {3}, ShapeOps.t(v).shape());
        assertSame(v.untypedStorage(), ShapeOps.t(v).untypedStorage());
        Tensor b = arange(DType.FLOAT32, 5, 2, 3);
        assertMessage(
                TorchException.class, "t() expects a tensor with <= 2 dimensions, but self is 3D", () -> ShapeOps.t(b));
        Tensor mt = ShapeOps.mT(b);
        assertArrayEquals(new long[] {5, 3, 2}, mt.shape());
        assertArrayEquals(new long[] {6, 1, 3}, mt.stride());
        assertMessage(
                TorchException.class,
                "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
                () -> ShapeOps.mT(v));
    }

    @Test
    void movedimKeepsTheOtherDimsInOrder() {
        Tensor x = meta(DType.FLOAT32, 2, 3, 4, 5);
        assertArrayEquals(new long[] {3, 4, 2, 5}, ShapeOps.movedim(x, 0, 2).shape());
        assertArrayEquals(
                new long[] {5, 2, 4, 3},
                ShapeOps.movedim(x, new int[] {3, 1}, new int[] {0, -1}).shape());
        assertMessage(
                TorchException.class,
                "movedim: repeated dim in `destination` ([1, 1])",
                () -> ShapeOps.movedim(x, new int[] {0, 2}, new int[] {1, 1}));
        assertMessage(
                TorchException.class,
                "movedim: Invalid source or destination dims: source ([0, 1] dims) should contain the same"
                        + " number of dims as destination ([1] dims)",
                () -> ShapeOps.movedim(x, new int[] {0, 1}, new int[] {1}));
        Tensor s = meta(DType.FLOAT32);
        assertArrayEquals(new long[0], ShapeOps.movedim(s, 0, -1).shape());
    }

    // ================================================================================================
    // expand / squeeze / unsqueeze / flatten / unflatten

    @Test
    void expandUsesStrideZeroAndLeadingDims() {
        Tensor x = arange(DType.INT64, 3, 1);
        Tensor e = ShapeOps.expand(x, 2, -1, 4);
        assertArrayEquals(new long[] {2, 3, 4}, e.shape());
        assertArrayEquals(new long[] {0, 1, 0}, e.stride());
        // A new leading dim of size 1 takes the stride that would make it contiguous with the dims after it.
        assertArrayEquals(new long[] {3, 1, 0}, ShapeOps.expand(x, 1, -1, 4).stride());
        assertSame(x.untypedStorage(), e.untypedStorage());
        assertArrayEquals(
                new long[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2},
                ShapeOps.broadcastTo(x, 3, 4).toLongArray());
        Tensor s = arange(DType.FLOAT32);
        assertArrayEquals(new long[] {0, 0}, ShapeOps.expand(s, 2, 3).stride());
        Tensor y = arange(DType.FLOAT32, 2, 3);
        assertMessage(
                TorchException.class,
                "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater"
                        + " or equal to the number of dimensions in the tensor (2)",
                () -> ShapeOps.expand(y, 3));
        assertMessage(
                TorchException.class,
                "The expanded size of the tensor (4) must match the existing size (3) at non-singleton"
                        + " dimension 1.  Target sizes: [2, 4].  Tensor sizes: [2, 3]",
                () -> ShapeOps.expand(y, 2, 4));
        assertMessage(
                TorchException.class,
                "The expanded size of the tensor (-1) isn't allowed in a leading, non-existing dimension 0",
                () -> ShapeOps.expand(y, -1, 2, 3));
        assertThrows(TorchException.class, () -> ShapeOps.expand(x, 3, -2));
    }

    @Test
    void squeezeAllOneOrSeveralDims() {
        Tensor x = meta(DType.FLOAT32, 1, 3, 1, 2, 1);
        assertArrayEquals(new long[] {3, 2}, ShapeOps.squeeze(x).shape());
        assertArrayEquals(new long[] {1, 3, 2, 1}, ShapeOps.squeeze(x, 2).shape());
        assertArrayEquals(new long[] {1, 3, 1, 2, 1}, ShapeOps.squeeze(x, 1).shape());
        assertArrayEquals(new long[] {3, 1, 2}, ShapeOps.squeeze(x, 0, -1, 1).shape());
        assertArrayEquals(
                new long[] {1, 3, 1, 2, 1}, ShapeOps.squeeze(x, new int[0]).shape());
        assertMessage(
                TorchException.class,
                "dim 4 appears multiple times in the list of dims",
                () -> ShapeOps.squeeze(x, 4, -1));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension out of range (expected to be in range of [-5, 4], but got 5)",
                () -> ShapeOps.squeeze(x, 5));
    }

    @Test
    void unsqueezeStrideFollowsTheNextDim() {
        Tensor x = transposed(arange(DType.FLOAT32, 2, 3), 0, 1); // [3, 2], strides [1, 3]
        Tensor u = ShapeOps.unsqueeze(x, 1);
        assertArrayEquals(new long[] {3, 1, 2}, u.shape());
        assertArrayEquals(new long[] {1, 6, 3}, u.stride());
        assertArrayEquals(new long[] {3, 2, 1}, ShapeOps.unsqueeze(x, -1).shape());
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension out of range (expected to be in range of [-3, 2], but got 3)",
                () -> ShapeOps.unsqueeze(x, 3));
    }

    @Test
    void flattenAndUnflatten() {
        Tensor x = arange(DType.FLOAT32, 2, 3, 4);
        assertSame(x, ShapeOps.flatten(x, 1, 1));
        assertArrayEquals(new long[] {2, 12}, ShapeOps.flatten(x, 1).shape());
        assertArrayEquals(
                new long[] {1}, ShapeOps.flatten(arange(DType.FLOAT32)).shape());
        // [0, 1, 3, 0] flattened over dims 1..2 is [0, 3, 0]; inferring with -1 would be ambiguous.
        assertArrayEquals(
                new long[] {0, 3, 0},
                ShapeOps.flatten(meta(DType.FLOAT32, 0, 1, 3, 0), 1, 2).shape());
        assertMessage(
                TorchException.class,
                "flatten() has invalid args: start_dim cannot come after end_dim",
                () -> ShapeOps.flatten(x, 2, 1));
        assertArrayEquals(
                new long[] {2, 3, 2, 2}, ShapeOps.unflatten(x, -1, 2, -1).shape());
        assertMessage(
                TorchException.class,
                "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor",
                () -> ShapeOps.unflatten(x, 1, 2, 2));
        assertMessage(TorchException.class, "unflatten: sizes must be non-empty", () -> ShapeOps.unflatten(x, 1));
    }

    // ================================================================================================
    // narrow / select / slice

    @Test
    void narrowWithNegativeStartAndErrors() {
        Tensor x = arange(DType.FLOAT32, 2, 5);
        Tensor n = ShapeOps.narrow(x, 1, -3, 2);
        assertEquals(2, n.storageOffset());
        assertArrayEquals(new double[] {2, 3, 7, 8}, n.toDoubleArray());
        assertArrayEquals(new long[] {2, 0}, ShapeOps.narrow(x, 1, 5, 0).shape());
        assertMessage(
                TorchException.class,
                "start (3) + length (3) exceeds dimension size (5).",
                () -> ShapeOps.narrow(x, 1, 3, 3));
        assertMessage(
                TorchException.class, "narrow(): length must be non-negative.", () -> ShapeOps.narrow(x, 1, 0, -1));
        // PyTorch names narrow's own range, which includes the size itself (an empty narrow at the end)
        assertMessage(
                IndexOutOfBoundsException.class,
                "start out of range (expected to be in range of [-5, 5], but got 6)",
                () -> ShapeOps.narrow(x, 1, 6, 0));
        assertMessage(
                IndexOutOfBoundsException.class,
                "start out of range (expected to be in range of [-5, 5], but got -6)",
                () -> ShapeOps.narrow(x, 1, -6, 1));
        assertArrayEquals(new long[] {2, 0}, ShapeOps.narrow(x, 1, -5, 0).shape());
        assertMessage(
                TorchException.class,
                "narrow() cannot be applied to a 0-dim tensor.",
                () -> ShapeOps.narrow(arange(DType.FLOAT32), 0, 0, 1));
    }

    @Test
    void selectRemovesTheDim() {
        Tensor x = transposed(arange(DType.FLOAT32, 3, 4), 0, 1); // [4, 3]
        Tensor s = ShapeOps.select(x, 1, -1);
        assertArrayEquals(new long[] {4}, s.shape());
        assertArrayEquals(new double[] {8, 9, 10, 11}, s.toDoubleArray());
        assertEquals(5.0, ShapeOps.select(ShapeOps.select(x, 0, 1), 0, 1).item());
        assertMessage(
                IndexOutOfBoundsException.class,
                "select(): index 5 out of range for tensor of size [3] at dimension 0",
                () -> ShapeOps.select(arange(DType.FLOAT32, 3), 0, 5));
        assertMessage(
                IndexOutOfBoundsException.class,
                "select(): index -4 out of range for tensor of size [3] at dimension 0",
                () -> ShapeOps.select(arange(DType.FLOAT32, 3), -1, -4));
        assertMessage(
                IndexOutOfBoundsException.class,
                "select() cannot be applied to a 0-dim tensor.",
                () -> ShapeOps.select(arange(DType.FLOAT32), 0, 0));
    }

    @Test
    void sliceClampsLikePython() {
        Tensor x = arange(DType.INT64, 10);
        assertArrayEquals(
                new long[] {2, 5, 8}, ShapeOps.slice(x, 0, 2L, null, 3).toLongArray());
        assertArrayEquals(new long[] {7, 8}, ShapeOps.slice(x, 0, -3, -1).toLongArray());
        assertArrayEquals(new long[] {0, 1}, ShapeOps.slice(x, 0, -100, 2).toLongArray());
        assertArrayEquals(new long[0], ShapeOps.slice(x, 0, 7, 3).toLongArray());
        assertArrayEquals(new long[0], ShapeOps.slice(x, 0, 12, 20).toLongArray());
        assertArrayEquals(
                new long[] {0, 4, 8}, ShapeOps.slice(x, 0, null, null, 4).toLongArray());
        Tensor s = ShapeOps.slice(x, 0, 1L, 9L, 2);
        assertEquals(1, s.storageOffset());
        assertArrayEquals(new long[] {2}, s.stride());
        assertMessage(TorchException.class, "slice step must be positive", () -> ShapeOps.slice(x, 0, 0L, 5L, 0));
        assertMessage(TorchException.class, "slice step must be positive", () -> ShapeOps.slice(x, 0, 0L, 5L, -1));
    }

    @Test
    void sliceWithAHugeStepTakesTheFirstElement() {
        // Python's list(range(12))[0:12:step] is [0] for every step >= 12; the rounded-up division wrapped near 2^63
        Tensor x = arange(DType.INT64, 12);
        for (long step : new long[] {12, 1L << 40, Long.MAX_VALUE - 5, Long.MAX_VALUE - 1, Long.MAX_VALUE}) {
            Tensor s = ShapeOps.slice(x, 0, 0L, 12L, step);
            assertArrayEquals(new long[] {0}, s.toLongArray(), "step " + step);
            assertArrayEquals(
                    new long[] {3}, ShapeOps.slice(x, 0, 3L, null, step).toLongArray(), "step " + step);
        }
        assertArrayEquals(new long[] {12}, ShapeOps.slice(x, 0, 0L, 12L, 12).stride());
        assertArrayEquals(
                new long[] {Long.MAX_VALUE},
                ShapeOps.slice(x, 0, 0L, 12L, Long.MAX_VALUE).stride());
        // a stride * step that overflows is not kept: the single element's dim keeps the input's stride
        Tensor t = transposed(arange(DType.INT64, 3, 4), 0, 1); // [4, 3], strides [1, 4]
        Tensor col = ShapeOps.slice(t, 1, 1L, null, Long.MAX_VALUE / 2);
        assertArrayEquals(new long[] {4, 1}, col.shape());
        assertEquals(4, col.stride()[1]);
        assertArrayEquals(new long[] {4, 5, 6, 7}, col.toLongArray());
    }

    // ================================================================================================
    // chunk / split / unbind

    @Test
    void multiOutputOpsReturnViews() {
        Tensor x = arange(DType.FLOAT32, 5, 2);
        List<Tensor> parts = ShapeOps.split(x, 2);
        assertEquals(3, parts.size());
        for (Tensor p : parts) assertSame(x.untypedStorage(), p.untypedStorage());
        assertArrayEquals(new double[] {8, 9}, parts.get(2).toDoubleArray());
        List<Tensor> cols = ShapeOps.unbind(x, 1);
        assertEquals(2, cols.size());
        assertArrayEquals(new double[] {1, 3, 5, 7, 9}, cols.get(1).toDoubleArray());
        assertArrayEquals(new long[] {2}, cols.get(1).stride());
        List<Tensor> chunks = ShapeOps.chunk(x, 4);
        assertEquals(3, chunks.size()); // ceil(5 / 4) = 2 rows per chunk
        assertArrayEquals(new long[] {1, 2}, chunks.get(2).shape());
        assertEquals(2, ShapeOps.chunk(meta(DType.FLOAT32, 0, 3), 2).size());
        assertThrows(UnsupportedOperationException.class, () -> parts.add(x));
    }

    @Test
    void splitAndChunkErrors() {
        Tensor x = arange(DType.FLOAT32, 5, 2);
        assertMessage(
                TorchException.class,
                "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0),"
                        + " but got split_sizes=[2, 2]",
                () -> ShapeOps.split(x, new long[] {2, 2}));
        assertMessage(
                TorchException.class,
                "split_with_sizes expects split_sizes have only non-negative entries, but got split_sizes=[-1, 6]",
                () -> ShapeOps.split(x, new long[] {-1, 6}));
        assertMessage(
                TorchException.class,
                "split expects split_size be non-negative, but got split_size=-1",
                () -> ShapeOps.split(x, -1));
        assertMessage(
                TorchException.class,
                "split_size can only be 0 if dimension size is 0, but got dimension size of 5",
                () -> ShapeOps.split(x, 0));
        assertMessage(
                TorchException.class,
                "chunk expects `chunks` to be greater than 0, got: 0",
                () -> ShapeOps.chunk(x, 0));
        assertMessage(
                TorchException.class,
                "chunk expects at least a 1-dimensional tensor",
                () -> ShapeOps.chunk(arange(DType.FLOAT32), 1));
        assertMessage(
                IndexOutOfBoundsException.class,
                "Dimension specified as 0 but tensor has no dimensions",
                () -> ShapeOps.unbind(arange(DType.FLOAT32)));
    }

    // ================================================================================================
    // diagonal / as_strided

    @Test
    void diagonalIsAWritableView() {
        Tensor x = arange(DType.FLOAT64, 3, 4);
        Tensor d = ShapeOps.diagonal(x, 1);
        assertArrayEquals(new long[] {5}, d.stride());
        assertArrayEquals(new double[] {1, 6, 11}, d.toDoubleArray());
        d.copy_(Torch.full(new long[] {3}, 0.5));
        double[] v = x.toDoubleArray();
        assertEquals(0.5, v[1]);
        assertEquals(0.5, v[6]);
        assertEquals(0.5, v[11]);
        assertEquals(0.0, v[0]);
        // Batched: the diagonal becomes the last dim.
        Tensor b = meta(DType.FLOAT32, 2, 3, 4);
        Tensor bd = ShapeOps.diagonal(b, -1, 2, 0);
        assertArrayEquals(new long[] {3, 2}, bd.shape());
        assertArrayEquals(new long[] {4, 13}, bd.stride());
        assertEquals(0, ShapeOps.diagonal(x, -7).numel());
        assertEquals(x.storageOffset(), ShapeOps.diagonal(x, 9).storageOffset());
        assertMessage(
                TorchException.class,
                "diagonal dimensions cannot be identical -1, 2",
                () -> ShapeOps.diagonal(b, 0, -1, 2));
    }

    @Test
    void asStridedIsCheckedAgainstTheStorage() {
        Tensor x = arange(DType.FLOAT32, 6);
        Tensor w = ShapeOps.asStrided(x, new long[] {4, 3}, new long[] {1, 1}); // sliding windows
        assertArrayEquals(new double[] {0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5}, w.toDoubleArray());
        assertSame(x.untypedStorage(), w.untypedStorage());
        assertArrayEquals(
                new double[] {4, 5},
                ShapeOps.asStrided(x, new long[] {2}, new long[] {1}, 4).toDoubleArray());
        assertThrows(TorchException.class, () -> ShapeOps.asStrided(x, new long[] {2, 2}, new long[] {1, 100}));
        assertThrows(TorchException.class, () -> ShapeOps.asStrided(x, new long[] {2}, new long[] {1}, 5));
        TorchException neg =
                assertThrows(TorchException.class, () -> ShapeOps.asStrided(x, new long[] {2}, new long[] {-1}));
        assertTrue(neg.getMessage().contains("Negative strides are not supported"));
    }

    @Test
    void asStridedRefusesGeometryWhoseExtentOverflows() {
        // the extent sum wrapped: [4, 4] with stride 2^62 passed the bounds check and every row aliased row 0
        Tensor x = arange(DType.FLOAT32, 16);
        assertMessage(
                TorchException.class,
                "as_strided: Storage size calculation overflowed with sizes=[4, 4] and "
                        + "strides=[4611686018427387904, 1]",
                () -> ShapeOps.asStrided(x, new long[] {4, 4}, new long[] {1L << 62, 1}));
        // the element extent fits but its byte count does not (PyTorch counts bytes too)
        assertMessage(
                TorchException.class,
                "as_strided: Storage size calculation overflowed with sizes=[4, 4] and "
                        + "strides=[2305843009213693952, 1]",
                () -> ShapeOps.asStrided(x, new long[] {4, 4}, new long[] {1L << 61, 1}));
        assertMessage(
                TorchException.class,
                "as_strided: Storage size calculation overflowed with sizes=[4] and strides=[1] and storage offset "
                        + Long.MAX_VALUE,
                () -> ShapeOps.asStrided(x, new long[] {4}, new long[] {1}, Long.MAX_VALUE));
        // a large extent that fits is an ordinary bounds error whose byte count is right
        assertMessage(
                TorchException.class,
                "setStorage: sizes [2], strides [1099511627776], storage offset 0 require 4398046511108 bytes but the "
                        + "storage has only 64 bytes",
                () -> ShapeOps.asStrided(x, new long[] {2}, new long[] {1L << 40}));
        assertArrayEquals(new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, x.toDoubleArray());
    }

    // ================================================================================================
    // meta device and dtypes

    /** Every view op gives the same geometry on a meta tensor as on a CPU tensor, and keeps the meta device. */
    @Test
    void metaTensorsGiveTheSameGeometry() {
        List<Function<Tensor, Tensor>> ops = List.of(
                t -> ShapeOps.view(t, 6, -1),
                t -> ShapeOps.reshape(ShapeOps.transpose(t, 0, 2), 4, 6),
                t -> ShapeOps.permute(t, 1, 2, 0),
                t -> ShapeOps.mT(t),
                t -> ShapeOps.expand(ShapeOps.unsqueeze(t, 0), 5, -1, -1, -1),
                t -> ShapeOps.squeeze(ShapeOps.unsqueeze(t, 2)),
                t -> ShapeOps.flatten(t, 0, 1),
                t -> ShapeOps.unflatten(t, 2, 2, 2),
                t -> ShapeOps.narrow(t, 1, 1, 2),
                t -> ShapeOps.select(t, 2, -1),
                t -> ShapeOps.slice(t, 2, 1L, null, 2),
                t -> ShapeOps.split(t, 2, 2).get(1),
                t -> ShapeOps.chunk(t, 2, 1).get(1),
                t -> ShapeOps.unbind(t, 1).get(2),
                t -> ShapeOps.diagonal(t, 1, 1, 2),
                t -> ShapeOps.movedim(t, 0, -1),
                t -> ShapeOps.asStrided(t, new long[] {3, 3}, new long[] {2, 1}, 1));
        for (DType dt : new DType[] {DType.FLOAT32, DType.BFLOAT16, DType.COMPLEX64, DType.BOOL, DType.INT8}) {
            Tensor cpu = arange(dt, 2, 3, 4), m = meta(dt, 2, 3, 4);
            for (int i = 0; i < ops.size(); i++) {
                Tensor a = ops.get(i).apply(cpu), b = ops.get(i).apply(m);
                String what = dt + " op " + i;
                assertArrayEquals(a.shape(), b.shape(), what);
                assertArrayEquals(a.stride(), b.stride(), what);
                assertEquals(a.storageOffset(), b.storageOffset(), what);
                assertEquals(dt, b.dtype(), what);
                assertEquals(Device.META, b.device(), what);
            }
        }
        assertMessage(
                TorchException.class,
                "expand(MetaFloatType{[2, 3, 4]}, size=[4]): the number of sizes provided (1) must be greater"
                        + " or equal to the number of dimensions in the tensor (3)",
                () -> ShapeOps.expand(meta(DType.FLOAT32, 2, 3, 4), 4));
    }

    @Test
    void viewsKeepComplexAndHalfValues() {
        Tensor c = Golden.tensor(Map.of(
                "dtype",
                "complex64",
                "shape",
                List.of(2L, 2L),
                "data",
                List.of(1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.0, -4.0)));
        assertArrayEquals(
                new double[] {1, -1, 3, -3, 2, -2, 4, -4}, ShapeOps.t(c).toDoubleArray());
        assertArrayEquals(new double[] {2, -2, 4, -4}, ShapeOps.select(c, 1, 1).toDoubleArray());
        Tensor h = arange(DType.FLOAT16, 2, 3);
        Tensor ht = ShapeOps.t(h);
        assertEquals(DType.FLOAT16, ht.dtype());
        assertArrayEquals(new double[] {0, 3, 1, 4, 2, 5}, ht.toDoubleArray());
        assertFalse(ht.isContiguous());
    }
}

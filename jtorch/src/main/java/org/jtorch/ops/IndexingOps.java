package org.jtorch.ops;

import static org.jtorch.ops.IndexGeometry.longIndex;
import static org.jtorch.ops.IndexGeometry.restrided;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Index;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.IndexLoops;
import org.jtorch.kernels.cpu.IndexLoops.Indexers;
import org.jtorch.kernels.cpu.IndexLoops.Reduce;
import org.jtorch.kernels.cpu.MaskLoops;
import org.jtorch.storage.InternalOverlap;
import org.jtorch.storage.TensorImpl;

/**
 * Indexing: {@code x[spec]} and {@code x[spec] = v} with {@link Index} specs, advanced indexing ({@code index},
 * {@code index_put}), {@code nonzero} and single-argument {@code where}, {@code masked_select}, {@code masked_scatter},
 * {@code take} and {@code take_along_dim}.
 *
 * <p>An index spec is applied as PyTorch's Python binding applies it: integers, slices, {@code None} and {@code ...}
 * become view ops ({@code select}, {@code slice}, {@code unsqueeze}), so a spec made only of them returns a view; the
 * index tensors met on the way are gathered into one {@code index} call on that view, which copies. Advanced indexing
 * follows NumPy's rules: all index tensors broadcast together, and their dims replace the indexed dims in place when
 * the indexed dims are adjacent, else go first.
 *
 * <p>Bool masks are turned into integer indices by {@code nonzero}; because that depends on the data, the public
 * {@code index} and {@code index_put} ops are composites that expand masks and then run the structured {@code .integer}
 * overloads, whose meta rules know every output shape.
 *
 * <p><b>Gradients.</b> Each backward is another op of this family or of {@link ScatterOps}, so gradients of any order
 * work: indexing puts its gradient into zeros with {@code index_put(accumulate=True)} (duplicate indices add up), whose
 * backward is the indexing again; {@code take} does the same on the flattened input; {@code masked_scatter}'s source
 * gets {@code masked_select} of the gradient. Writes cut the gradient of the places they overwrite, and the values
 * written get the gradient at those places (for every duplicate, as in PyTorch, even the ones a later duplicate
 * overwrote).
 */
public final class IndexingOps {
    private IndexingOps() {}

    private static Tensor tensor(Object o) {
        return (Tensor) o;
    }

    /** {@code alias(self)}: a new view of the same geometry (what {@code x[...]} returns). */
    public static final OpDef ALIAS = OpDef.view("alias(Tensor(a) self) -> Tensor(a)", args -> {
                Tensor t = tensor(args[0]);
                return Tensor.viewOf(t, t.impl().viewOf(t.storageOffset(), t.shape(), t.stride()));
            })
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> new Tensor[] {g[0]})
            .deriveJvp(Jvps::linear);

    // ---- advanced indexing geometry ---------------------------------------------------------------------

    /**
     * ATen's {@code AdvancedIndex}: the dims order that puts the indexed dims together ({@code null} when they already
     * are), the position {@code first} of the indexed block in that order, the index tensors in order, their broadcast
     * shape and the result shape.
     */
    private record Advanced(int[] order, int first, Tensor[] indices, long[] indexShape, long[] resultShape) {}

    /**
     * The geometry of indexing dims {@code dims} (strictly increasing) of self by {@code indices}; checks only what
     * does not depend on the index values.
     */
    private static Advanced advanced(Tensor self, long[] dimsArg, Tensor[] indices) {
        if (dimsArg.length != indices.length) throw new TorchException("index(): expected one dim per index tensor");
        List<Integer> dims = new ArrayList<>();
        for (int k = 0; k < dimsArg.length; k++) {
            Tensor t = indices[k];
            if (dimsArg[k] < 0 || dimsArg[k] >= self.dim() || (k > 0 && dimsArg[k] <= dimsArg[k - 1])) {
                throw new TorchException(
                        "index(): indexed dims must be increasing dims of self, got " + Shapes.str(dimsArg));
            }
            if (t.dtype() != DType.INT64 && t.dtype() != DType.INT32) {
                throw new TorchException(
                        "index(): expected integer index tensors (masks are expanded by index.Tensor), got "
                                + t.dtype().cppName());
            }
            dims.add((int) dimsArg[k]);
        }
        List<Tensor> idx = List.of(indices);
        long[] b = broadcastIndices(idx);
        int count = dims.size(), rank = self.dim();
        boolean adjacent = count == 0 || dims.get(count - 1) - dims.get(0) + 1 == count;
        int[] order = null;
        int first = count == 0 ? 0 : dims.get(0);
        if (!adjacent) {
            order = new int[rank];
            int k = 0;
            for (int d : dims) order[k++] = d;
            for (int d = 0; d < rank; d++) if (!dims.contains(d)) order[k++] = d;
            first = 0;
        }
        long[] sizes = new long[rank];
        for (int d = 0; d < rank; d++) sizes[d] = self.impl().shapeRef()[order == null ? d : order[d]];
        boolean indexEmpty = Shapes.numel(b) == 0;
        for (int k = 0; k < count; k++) {
            // An empty dim has no valid index, so only an empty index may address it.
            if (sizes[first + k] == 0 && !indexEmpty)
                throw new IndexOutOfBoundsException("index is out of bounds for dimension with size 0");
        }
        long[] result = new long[rank - count + b.length];
        System.arraycopy(sizes, 0, result, 0, first);
        System.arraycopy(b, 0, result, first, b.length);
        System.arraycopy(sizes, first + count, result, first + b.length, rank - first - count);
        return new Advanced(order, first, idx.toArray(new Tensor[0]), b, result);
    }

    private static long[] broadcastIndices(List<Tensor> idx) {
        long[] b = idx.isEmpty() ? Shapes.SCALAR : idx.get(0).impl().shapeRef();
        try {
            for (Tensor t : idx) b = Shapes.broadcast(b, t.impl().shapeRef());
        } catch (TorchException e) {
            StringBuilder shapes = new StringBuilder();
            for (Tensor t : idx)
                shapes.append(shapes.length() > 0 ? ", " : "")
                        .append(Shapes.str(t.impl().shapeRef()));
            throw new IndexOutOfBoundsException(
                    "shape mismatch: indexing tensors could not be broadcast together with shapes " + shapes);
        }
        return b;
    }

    /** {@code t} with its dims in {@code order} (a view), or {@code t} itself when {@code order} is null. */
    private static Tensor reordered(Tensor t, int[] order) {
        if (order == null) return t;
        long[] shape = new long[order.length], strides = new long[order.length];
        for (int i = 0; i < order.length; i++) {
            shape[i] = t.impl().shapeRef()[order[i]];
            strides[i] = t.impl().strideRef()[order[i]];
        }
        return restrided(t, shape, strides);
    }

    /**
     * {@code t} (already reordered) seen over the result shape: its own strides outside the indexed block, 0 inside.
     */
    private static Tensor overResult(Tensor t, Advanced a) {
        long[] rs = a.resultShape(), strides = new long[rs.length];
        int count = a.indices().length, bl = a.indexShape().length;
        System.arraycopy(t.impl().strideRef(), 0, strides, 0, a.first());
        System.arraycopy(t.impl().strideRef(), a.first() + count, strides, a.first() + bl, t.dim() - a.first() - count);
        return restrided(t, rs, strides);
    }

    /** The index tensors as loop operands over the result shape, each moving along its dim of {@code t}. */
    private static Indexers indexers(Tensor t, Advanced a) {
        int count = a.indices().length;
        TensorImpl[] views = new TensorImpl[count];
        long[] strides = new long[count], sizes = new long[count];
        long[] rs = a.resultShape();
        for (int k = 0; k < count; k++) {
            Tensor idx = longIndex(a.indices()[k]);
            long[] s = new long[rs.length];
            long[] inner =
                    Shapes.broadcastStrides(idx.impl().shapeRef(), idx.impl().strideRef(), a.indexShape());
            System.arraycopy(inner, 0, s, a.first(), inner.length);
            views[k] = restrided(idx, rs, s).impl();
            strides[k] = t.impl().strideRef()[a.first() + k];
            sizes[k] = t.impl().shapeRef()[a.first() + k];
        }
        return new Indexers(
                views,
                strides,
                sizes,
                true,
                (v, which, size) -> new IndexOutOfBoundsException(
                        "index " + v + " is out of bounds for dimension " + which + " with size " + size));
    }

    /**
     * {@code _index.integer(self, dims, indices)}: advanced indexing of dims {@code dims} (increasing) by the
     * int64/int32 tensors {@code indices}, one per dim; negative indices count from the end. The explicit dims list is
     * {@code index.Tensor}'s {@code Tensor?[]} without its absent entries.
     */
    public static final OpDef INDEX_INTEGER = OpDef.structured(
                    "_index.integer(Tensor self, int[] dims, Tensor[] indices) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]);
                        Advanced a = advanced(self, (long[]) args[1], (Tensor[]) args[2]);
                        return Spec.of(a.resultShape(), self.dtype(), self.device(), a);
                    },
                    (args, outs, spec) -> {
                        Advanced a = (Advanced) spec.plan();
                        Tensor src = reordered(tensor(args[0]), a.order());
                        IndexLoops.gather(outs[0].impl(), overResult(src, a).impl(), indexers(src, a));
                    })
            .defineVjp(
                    OpDef.Save.INPUTS,
                    (a, o, g) -> withIndexSlots(
                            a, indexGrad(g[0], tensor(a[0]).impl().shapeRef(), (long[]) a[1], (Tensor[]) a[2])))
            .deriveJvp(Jvps.linearExcept(2));

    /**
     * {@code _index_put.integer(self, dims, indices, values, accumulate)}: writes (or with {@code accumulate} adds)
     * {@code values}, broadcast to the result of {@link #INDEX_INTEGER}, at the indexed places. Duplicate places are
     * written in index order: the last value wins, or all of them add up.
     */
    public static final OpDef INDEX_PUT_INTEGER = OpDef.structured(
                    "_index_put.integer(Tensor self, int[] dims, Tensor[] indices, Tensor values, "
                            + "bool accumulate=False) "
                            + "-> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]), values = tensor(args[3]);
                        Advanced a = advanced(self, (long[]) args[1], (Tensor[]) args[2]);
                        long[] rs = a.resultShape();
                        if (!Arrays.equals(broadcastOrNull(values.impl().shapeRef(), rs), rs)) {
                            throw new TorchException("shape mismatch: value tensor of shape "
                                    + Shapes.str(values.impl().shapeRef())
                                    + " cannot be broadcast to indexing result of shape " + Shapes.str(rs));
                        }
                        if (values.dtype() != self.dtype()) {
                            throw new TorchException("Index put requires the source and destination dtypes match, got "
                                    + self.dtype().cppName() + " for the destination and "
                                    + values.dtype().cppName() + " for the source.");
                        }
                        return Spec.of(self.shape(), self.dtype(), self.device(), a);
                    },
                    (args, outs, spec) -> {
                        Advanced a = (Advanced) spec.plan();
                        Tensor self = tensor(args[0]), values = tensor(args[3]);
                        if (outs[0] != self) CopyOps.convert(self, outs[0]);
                        Tensor dst = reordered(outs[0], a.order());
                        long[] rs = a.resultShape();
                        Tensor src = restrided(
                                values,
                                rs,
                                Shapes.broadcastStrides(
                                        values.impl().shapeRef(), values.impl().strideRef(), rs));
                        boolean accumulate = args[4] != null && (Boolean) args[4];
                        IndexLoops.scatter(
                                overResult(dst, a).impl(),
                                src.impl(),
                                indexers(dst, a),
                                accumulate ? Reduce.ADD : Reduce.ASSIGN,
                                null,
                                -1);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> {
                long[] dims = (long[]) a[1];
                Tensor[] indices = (Tensor[]) a[2];
                boolean accumulate = a[4] != null && (Boolean) a[4];
                Tensor self = accumulate
                        ? g[0]
                        : indexPutInteger(
                                g[0], dims, indices, Creation.scalarTensor(Scalar.of(0L), g[0].dtype()), false);
                return withIndexSlots(a, self, INDEX_INTEGER.call1(g[0], dims, indices));
            })
            .deriveJvp(Jvps.linearExcept(2))
            .vmapFallsBack("advanced indexing: a batched index moves the result dims");

    /**
     * The backward of {@link #INDEX_INTEGER}: the gradient added at the indexed places of zeros ({@code index_put} with
     * accumulate, so duplicate indices sum), whose own backward is the indexing.
     */
    private static Tensor indexGrad(Tensor g, long[] selfShape, long[] dims, Tensor[] indices) {
        return indexPutInteger(Creation.full(selfShape, 0L, g.dtype(), g.device()), dims, indices, g, true);
    }

    private static Tensor indexPutInteger(
            Tensor self, long[] dims, Tensor[] indices, Tensor values, boolean accumulate) {
        return INDEX_PUT_INTEGER.call1(self, dims, indices, values, accumulate);
    }

    /**
     * The gradients of an op whose args are (self, dims, Tensor[] indices, [values]): one per tensor, the index tensors
     * (integers) getting none.
     */
    private static Tensor[] withIndexSlots(Object[] args, Tensor self, Tensor... values) {
        Tensor[] out = new Tensor[1 + ((Tensor[]) args[2]).length + values.length];
        out[0] = self;
        System.arraycopy(values, 0, out, out.length - values.length, values.length);
        return out;
    }

    private static long[] broadcastOrNull(long[] a, long[] b) {
        try {
            return Shapes.broadcast(a, b);
        } catch (TorchException e) {
            return null;
        }
    }

    // ---- masks ------------------------------------------------------------------------------------------

    private static boolean isMask(Tensor t) {
        return t.dtype() == DType.BOOL || t.dtype() == DType.UINT8;
    }

    private static void warnByteMask() {
        Warnings.warn(
                Warnings.Category.USER_WARNING,
                "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.");
    }

    /** Checks that {@code mask} matches the dims of {@code self} it indexes, starting at dim {@code at}. */
    private static void checkMask(Tensor self, Tensor mask, int at) {
        if (at + mask.dim() > self.dim()) {
            throw new IndexOutOfBoundsException(
                    "too many indices for tensor of dimension " + self.dim() + " (got " + (at + mask.dim()) + ")");
        }
        for (int j = 0; j < mask.dim(); j++) {
            if (mask.impl().shapeRef()[j] != self.impl().shapeRef()[at + j]) {
                throw new IndexOutOfBoundsException(
                        "The shape of the mask " + Shapes.str(mask.impl().shapeRef()) + " at index " + j
                                + " does not match the shape of the indexed tensor "
                                + Shapes.str(self.impl().shapeRef()) + " at index " + (at + j));
            }
        }
    }

    /** Integer index tensors and the dims of self they index: a {@code Tensor?[]} without its absent entries. */
    private record Integral(long[] dims, Tensor[] indices) {}

    /**
     * ATen's {@code expandTensors}: each bool/uint8 mask becomes one int64 index per mask dim (the columns of its
     * nonzero); absent entries are dropped, the others keep the dim they index.
     */
    private static Integral expandMasks(Tensor self, Tensor[] indices) {
        List<Tensor> out = new ArrayList<>();
        for (Tensor t : indices) {
            if (t == null) {
                out.add(null);
            } else if (isMask(t)) {
                if (t.dtype() == DType.UINT8) warnByteMask();
                checkMask(self, t, out.size());
                Tensor nz = NONZERO.call1(t);
                for (int j = 0; j < t.dim(); j++) out.add(ShapeOps.select(nz, 1, j));
            } else if (t.dtype() == DType.INT64 || t.dtype() == DType.INT32) {
                out.add(t);
            } else {
                throw new IndexOutOfBoundsException("tensors used as indices must be long, int, byte or bool tensors");
            }
        }
        if (out.size() > self.dim()) {
            throw new IndexOutOfBoundsException(
                    "too many indices for tensor of dimension " + self.dim() + " (got " + out.size() + ")");
        }
        List<Long> dims = new ArrayList<>();
        List<Tensor> present = new ArrayList<>();
        for (int d = 0; d < out.size(); d++) {
            if (out.get(d) == null) continue;
            dims.add((long) d);
            present.add(out.get(d));
        }
        return new Integral(dims.stream().mapToLong(Long::longValue).toArray(), present.toArray(new Tensor[0]));
    }

    /**
     * ATen's {@code canDispatchToMaskedFill}: one mask (after any number of unindexed dims) and a one-element value
     * make {@code index_put_} a {@code masked_fill_}; returns the mask shaped to broadcast over self, or {@code null}.
     */
    private static Tensor maskForFill(Tensor self, Tensor[] indices, Tensor values) {
        if (values.numel() != 1 || values.device() != Device.CPU) return null;
        int at = 0;
        Tensor mask = null;
        for (Tensor t : indices) {
            if (t == null) {
                at++;
                continue;
            }
            if (!isMask(t) || mask != null) return null;
            checkMask(self, t, at);
            mask = t;
            at += t.dim();
        }
        if (mask == null) return null;
        if (mask.dtype() == DType.UINT8) {
            warnByteMask();
            mask = CopyOps.to(mask, DType.BOOL);
        }
        for (int i = at; i < self.dim(); i++) mask = ShapeOps.unsqueeze(mask, -1);
        return mask;
    }

    /**
     * {@code self.index_put_(indices, values, accumulate)}: expands masks, then writes through
     * {@link #INDEX_PUT_INTEGER}.
     */
    private static void putInPlace(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        if (!accumulate) {
            Tensor mask = maskForFill(self, indices, values);
            if (mask != null) {
                self.maskedFill_(mask, ShapeOps.view(values));
                return;
            }
        }
        InternalOverlap.warn("index_put_", "tensor[indices] = tensor", self.impl());
        Integral ix = expandMasks(self, indices);
        Dispatcher.callOut(INDEX_PUT_INTEGER, new Tensor[] {self}, self, ix.dims(), ix.indices(), values, accumulate);
    }

    /**
     * {@code index.Tensor(self, indices)}: advanced indexing by integer tensors and bool/uint8 masks (a mask of k dims
     * indexes k dims); {@code null} entries leave a dim unindexed.
     */
    public static final OpDef INDEX =
            OpDef.composite("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor", args -> {
                Integral ix = expandMasks(tensor(args[0]), (Tensor[]) args[1]);
                return INDEX_INTEGER.call1(args[0], ix.dims(), ix.indices());
            });

    /** {@code index_put(self, indices, values, accumulate=False)}: a copy of self with the indexed places written. */
    public static final OpDef INDEX_PUT = OpDef.composite(
            "index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor", args -> {
                Tensor out = CopyOps.clone(tensor(args[0]));
                putInPlace(out, (Tensor[]) args[1], tensor(args[2]), args[3] != null && (Boolean) args[3]);
                return out;
            });

    // ---- nonzero ----------------------------------------------------------------------------------------

    /** {@code count_nonzero(self, dims)}: int64 count of the non-zero elements over {@code dims} (empty = all). */
    public static final OpDef COUNT_NONZERO = OpDef.composite(
            "count_nonzero.dim_IntList(Tensor self, int[] dim) -> Tensor",
            args -> ReductionOps.sum(PointwiseOps.NE.call1(args[0], 0L), (long[]) args[1], false),
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /**
     * {@code nonzero_static(self, size, fill_value=-1)}: int64 [size, self.dim()], the coordinates of the first
     * {@code size} non-zero elements in row-major order, padded with {@code fill_value}.
     */
    public static final OpDef NONZERO_STATIC = OpDef.structured(
                    "nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]);
                        long size = ((Number) args[1]).longValue();
                        if (size < 0)
                            throw new TorchException("nonzero_static: 'size' must be an non-negative integer");
                        return Spec.of(new long[] {size, self.dim()}, DType.INT64, self.device(), null);
                    },
                    (args, outs, spec) ->
                            MaskLoops.nonzero(tensor(args[0]).impl(), outs[0].impl(), ((Number) args[2]).longValue()),
                    OpDef.Flag.NOT_DIFFERENTIABLE)
            .vmapFallsBack("a fixed-size nonzero, per example");

    /**
     * {@code nonzero(self)}: int64 [n, self.dim()], the coordinates of the n non-zero elements in row-major order (NaN
     * is non-zero, -0.0 is zero). The shape depends on the data, so there is no meta rule: the elements are counted,
     * then {@link #NONZERO_STATIC} fills exactly that many rows.
     */
    public static final OpDef NONZERO = OpDef.composite(
            "nonzero(Tensor self) -> Tensor",
            args -> {
                Tensor self = tensor(args[0]);
                if (self.impl().isFake()) throw new DynamicOutputShapeException("aten::nonzero");
                if (self.isMeta()) {
                    throw new UnsupportedOperationException(
                            "nonzero(): the output shape depends on the data, which a tensor on the meta "
                                    + "device does not have");
                }
                Tensor flags = self.dtype() == DType.BOOL ? self : PointwiseOps.NE.call1(self, 0L);
                long n = ReductionOps.sum(flags).longItem();
                return NONZERO_STATIC.call1(flags, n, -1L);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    /**
     * {@code nonzero(self, as_tuple=True)}: one int64 [n] tensor of coordinates per dim (a 0-d input counts as 1-d).
     */
    public static final OpDef NONZERO_NUMPY = OpDef.composite(
            "nonzero_numpy(Tensor self) -> Tensor[]",
            args -> {
                Tensor self = tensor(args[0]);
                Tensor nz = NONZERO.call1(self.dim() == 0 ? ShapeOps.unsqueeze(self, 0) : self);
                return ShapeOps.unbind(nz, 1).toArray(new Tensor[0]);
            },
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    /** {@code where(condition)}: {@code nonzero(condition, as_tuple=True)}. */
    public static final OpDef WHERE = OpDef.composite(
            "where(Tensor condition) -> Tensor[]",
            args -> Dispatcher.call(NONZERO_NUMPY, args[0]),
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    // ---- masked_select / masked_scatter -----------------------------------------------------------------

    /**
     * {@code masked_select(self, mask)}: the elements of self (broadcast with mask) where the bool mask holds, as a 1-d
     * tensor.
     */
    public static final OpDef MASKED_SELECT = OpDef.composite(
            "masked_select(Tensor self, Tensor mask) -> Tensor",
            args -> {
                Tensor self = tensor(args[0]), mask = tensor(args[1]);
                if (mask.dtype() != DType.BOOL) throw new TorchException("masked_select: expected BoolTensor for mask");
                // ATen treats 0-d operands as 1-d, so the result is 1-d even for two 0-d inputs.
                if (self.dim() == 0) self = ShapeOps.unsqueeze(self, 0);
                if (mask.dim() == 0) mask = ShapeOps.unsqueeze(mask, 0);
                long[] shape =
                        Shapes.broadcast(mask.impl().shapeRef(), self.impl().shapeRef());
                return INDEX.call1(ShapeOps.expand(self, shape), new Tensor[] {ShapeOps.expand(mask, shape)});
            },
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    private static void checkMaskedScatter(Tensor self, Tensor mask, Tensor source) {
        if (self.dtype() != source.dtype()) {
            // ATen's wording, without a space after "got"
            throw new TorchException("masked_scatter: expected self and source to have same dtypes but got"
                    + self.dtype().cppName() + " and " + source.dtype().cppName());
        }
        if (mask.dtype() != DType.BOOL) {
            throw new TorchException("masked_scatter_ only supports boolean masks, but got mask with dtype "
                    + mask.dtype().cppName());
        }
    }

    /**
     * {@code masked_scatter(self, mask, source)}: self (broadcast with mask) with the places where the mask holds
     * taken, in row-major order, from consecutive elements of {@code source}.
     */
    public static final OpDef MASKED_SCATTER = OpDef.structured(
                    "masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]), mask = tensor(args[1]), source = tensor(args[2]);
                        checkMaskedScatter(self, mask, source);
                        long[] shape = Shapes.broadcast(
                                mask.impl().shapeRef(), self.impl().shapeRef());
                        return Spec.of(
                                shape.clone(),
                                self.dtype(),
                                Devices.common("masked_scatter", self, mask, source),
                                null);
                    },
                    (args, outs, spec) -> {
                        Tensor self = tensor(args[0]);
                        if (outs[0] != self) CopyOps.convert(self, outs[0]);
                        MaskLoops.maskedScatter(
                                outs[0].impl(),
                                tensor(args[1]).impl(),
                                tensor(args[2]).impl());
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                TernaryOps.where(tensor(a[1]), 0L, g[0]),
                null,
                maskedScatterSourceGrad(g[0], tensor(a[1]), tensor(a[2]).impl().shapeRef())
            })
            .deriveJvp(Jvps.linearExcept(1))
            .vmapFallsBack("consumes source elements in mask order, which is per example");

    /**
     * The gradient of masked_scatter's source (ATen's {@code masked_scatter_backward}): the output gradient at the
     * masked places, in row-major order, is the gradient of the source elements that were used; the source elements
     * beyond them get zeros. Computed without a selection, whose length depends on the mask: every gradient element is
     * added at its source position (the running count of the mask), an unmasked one at a spare slot dropped at the end.
     * Each used slot receives one value, so the result is the selection's; and under vmap every step keeps a static
     * shape, so a batch of gradients goes through in one call, as PyTorch's vmap does it.
     */
    private static Tensor maskedScatterSourceGrad(Tensor g, Tensor mask, long[] sourceShape) {
        long n = Shapes.numel(sourceShape);
        Tensor taken = ShapeOps.reshape(ShapeOps.expand(mask, g.shape()), -1);
        Tensor position = ReductionOps.cumsum(taken, 0, DType.INT64).sub(1L);
        Tensor slot = TernaryOps.where(taken, position, n);
        Tensor slots = Creation.full(new long[] {n + 1}, 0L, g.dtype(), g.device())
                .scatterAdd(0, slot, ShapeOps.reshape(g, -1));
        return ShapeOps.reshape(ShapeOps.narrow(slots, 0, 0, n), sourceShape);
    }

    // ---- take / take_along_dim ---------------------------------------------------------------------------

    /**
     * {@code take(self, index)}: self read as 1-d (row-major) at int64 positions; negative positions count from the
     * end.
     */
    public static final OpDef TAKE = OpDef.structured(
                    "take(Tensor self, Tensor index) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]), index = tensor(args[1]);
                        if (index.dtype() != DType.INT64) {
                            throw new TorchException("take(): Expected a long tensor for index, but got "
                                    + index.dtype().cppName());
                        }
                        if (self.numel() == 0 && index.numel() != 0)
                            throw new IndexOutOfBoundsException("take(): tried to take from an empty tensor");
                        return Spec.of(index.shape(), self.dtype(), Devices.common("take", self, index), null);
                    },
                    (args, outs, spec) -> {
                        Tensor flat = CopyOps.contiguous(tensor(args[0])), index = longIndex(tensor(args[1]));
                        long n = flat.numel();
                        Tensor src = restrided(flat, index.impl().shapeRef(), new long[index.dim()]);
                        IndexLoops.gather(
                                outs[0].impl(),
                                src.impl(),
                                Indexers.one(
                                        index.impl(),
                                        1,
                                        n,
                                        true,
                                        (v, which, size) ->
                                                new IndexOutOfBoundsException("out of range: tried to access index " + v
                                                        + " on a tensor of " + size + " elements.")));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {takeGrad(g[0], tensor(a[0]).impl().shapeRef(), tensor(a[1])), null})
            .deriveJvp(Jvps.linearExcept(1))
            .vmapFallsBack("flat indices with negative wrap-around into each example's storage order");

    /**
     * take's backward (ATen's {@code put_(index, grad, accumulate=True)} into zeros): the gradient added at the flat
     * positions of zeros, as advanced indexing of the flattened input, then reshaped.
     */
    private static Tensor takeGrad(Tensor g, long[] selfShape, Tensor index) {
        Tensor flat = Creation.full(new long[] {Shapes.numel(selfShape)}, 0L, g.dtype(), g.device());
        return ShapeOps.reshape(indexPutInteger(flat, new long[] {0}, new Tensor[] {index}, g, true), selfShape);
    }

    /**
     * Indices in {@code [-size, -1]} counted from the end, as PyTorch 2.13's take_along_dim does along a dim (numpy's
     * take_along_axis too); the others are left for gather to accept or refuse.
     */
    private static Tensor countFromTheEnd(Tensor indices, long size) {
        Tensor wrap = PointwiseOps.LOGICAL_AND.call1(
                PointwiseOps.LT.call1(indices, 0L), PointwiseOps.GE.call1(indices, -size));
        return TernaryOps.where(wrap, PointwiseOps.ADD.call1(indices, size), indices);
    }

    /**
     * {@code take_along_dim(self, indices, dim)}: {@code gather} after broadcasting self and indices in every dim but
     * {@code dim}; with {@code dim == null}, {@code self.view(-1).gather(0, indices.view(-1))}.
     */
    public static final OpDef TAKE_ALONG_DIM =
            OpDef.composite("take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor", args -> {
                Tensor self = tensor(args[0]), indices = tensor(args[1]);
                if (args[2] == null) return ScatterOps.gather(ShapeOps.view(self, -1), 0, ShapeOps.view(indices, -1));
                if (self.dim() != indices.dim()) {
                    throw new TorchException("torch.take_along_dim(): input and indices should have the same number of "
                            + "dimensions, but got "
                            + self.dim() + " dimensions for input, and " + indices.dim() + " dimensions for indices");
                }
                if (indices.dtype() != DType.INT64) {
                    throw new TorchException("torch.take_along_dim(): dtype of indices should be Long but got "
                            + indices.dtype().cppName());
                }
                int dim = Shapes.wrapDim(((Number) args[2]).longValue(), self.dim());
                indices = countFromTheEnd(indices, self.dim() == 0 ? 1 : self.size(dim));
                long[] indicesShape = Shapes.broadcast(
                        IndexGeometry.with(
                                self.impl().shapeRef(), dim, indices.impl().shapeRef()[dim]),
                        indices.impl().shapeRef());
                long[] selfShape = Shapes.broadcast(
                        IndexGeometry.with(
                                indices.impl().shapeRef(), dim, self.impl().shapeRef()[dim]),
                        self.impl().shapeRef());
                return ScatterOps.gather(
                        ShapeOps.broadcastTo(self, selfShape), dim, ShapeOps.broadcastTo(indices, indicesShape));
            });

    // ---- Python's x[spec] ----------------------------------------------------------------------------------

    /**
     * A spec applied as views ({@code result}) plus the index tensors left for advanced indexing ({@code null} = none).
     */
    private record Sliced(Tensor result, Tensor[] indices) {}

    /** The dims an item consumes (ATen's {@code count_specified_dimensions}): a mask consumes its dims. */
    private static int consumed(Index item) {
        return switch (item) {
            case Index.IntIndex i -> 1;
            case Index.SliceIndex s -> 1;
            case Index.TensorIndex t -> isMask(t.tensor()) ? t.tensor().dim() : 1;
            default -> 0;
        };
    }

    /**
     * PyTorch's {@code applySlicing}: applies the basic items as view ops and records the tensor items by the dim they
     * index in the sliced result. A one-item spec is Python's non-tuple {@code x[item]}, whose integer and slice forms
     * skip the dims count (so a 0-d tensor reports the item's own error).
     */
    private static Sliced applySlicing(Tensor self, Index[] spec) {
        int specified = 0;
        for (Index item : spec) specified += consumed(item);
        boolean single = spec.length == 1 && (spec[0] instanceof Index.IntIndex || spec[0] instanceof Index.SliceIndex);
        if (!single && specified > self.dim()) {
            throw new IndexOutOfBoundsException("too many indices for tensor of dimension " + self.dim());
        }
        Tensor result = self;
        long dim = 0;
        List<Tensor> recorded = new ArrayList<>();
        for (int i = 0; i < spec.length; i++) {
            switch (spec[i]) {
                case Index.IntIndex n -> result = select(result, dim, n.value(), i);
                case Index.SliceIndex s ->
                    result = ShapeOps.slice(result, Math.toIntExact(dim++), s.start(), s.stop(), s.step());
                case Index.EllipsisIndex e -> dim += self.dim() - specified;
                case Index.NewAxisIndex n -> result = ShapeOps.unsqueeze(result, Math.toIntExact(dim++));
                case Index.BoolIndex b -> {
                    result = ShapeOps.unsqueeze(result, Math.toIntExact(dim));
                    record(recorded, dim++, boolIndex(b.value(), result.device()));
                }
                case Index.TensorIndex ti -> {
                    Tensor t = ti.tensor();
                    if (t.dim() == 0 && t.dtype().isIntegral(true)) {
                        // A 0-d integer tensor selects like an int; a 0-d bool (or uint8) is a bool item.
                        if (!isMask(t)) {
                            result = select(result, dim, t.longItem(), i);
                        } else {
                            result = ShapeOps.unsqueeze(result, Math.toIntExact(dim));
                            record(recorded, dim++, boolIndex(t.longItem() != 0, result.device()));
                        }
                    } else {
                        record(recorded, dim++, t);
                    }
                }
            }
        }
        return new Sliced(result, recorded.isEmpty() ? null : recorded.toArray(new Tensor[0]));
    }

    /** PyTorch's {@code applySelect}, whose error names the position of the item in the spec. */
    private static Tensor select(Tensor t, long dim, long index, int item) {
        if (t.dim() == 0) {
            throw new IndexOutOfBoundsException(
                    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                            + "C++ to convert a 0-dim tensor to a number");
        }
        int d = Math.toIntExact(dim);
        long size = t.size(d);
        if (index < -size || index >= size) {
            throw new IndexOutOfBoundsException(
                    "index " + index + " is out of bounds for dimension " + item + " with size " + size);
        }
        return ShapeOps.select(t, d, index);
    }

    private static void record(List<Tensor> recorded, long dim, Tensor t) {
        while (recorded.size() <= dim) recorded.add(null);
        recorded.set(Math.toIntExact(dim), t);
    }

    /** PyTorch's {@code boolToIndexingTensor}: [0] for true, an empty index for false. */
    private static Tensor boolIndex(boolean value, Device device) {
        return Tensor.of(Backends.empty(new long[] {value ? 1 : 0}, DType.INT64, device));
    }

    /**
     * PyTorch's {@code copy_to} for {@code x[basic spec] = v}: value's leading 1s dropped, then broadcast into the
     * view.
     */
    private static void copyTo(Tensor dst, Tensor src, boolean accumulate) {
        Tensor b = src;
        if (!Arrays.equals(dst.impl().shapeRef(), src.impl().shapeRef()) && src.dim() > 0) {
            b = ShapeOps.expand(withoutLeadingOnes(src), dst.impl().shapeRef());
        }
        if (accumulate) Dispatcher.callOut(PointwiseOps.ADD, new Tensor[] {dst}, dst, b);
        else CopyOps.copy_(dst, b);
    }

    /** PyTorch's {@code slicePrefix1sSize}: a view without the leading size-1 dims. */
    private static Tensor withoutLeadingOnes(Tensor t) {
        int k = 0;
        while (k < t.dim() && t.impl().shapeRef()[k] == 1) k++;
        return k == 0 ? t : ShapeOps.view(t, Arrays.copyOfRange(t.impl().shapeRef(), k, t.dim()));
    }

    // ---- entry points -----------------------------------------------------------------------------------

    /**
     * {@code self[spec]}: integers, slices, {@link Index#NONE} and {@link Index#ELLIPSIS} give a view of self; any
     * tensor or bool item makes it advanced indexing, which copies.
     */
    public static Tensor index(Tensor self, Index... spec) {
        Sliced s = applySlicing(self, spec);
        if (s.indices() != null) return INDEX.call1(s.result(), s.indices());
        return s.result() == self ? ALIAS.call1(self) : s.result();
    }

    /** {@code self[spec] = values}: {@code values} broadcasts to the indexed region; returns self. */
    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values) {
        return indexPut_(self, spec, values, false);
    }

    /**
     * {@code self[spec] = values}, or with {@code accumulate} {@code self[spec] += values} where duplicate indices all
     * add up (as {@code index_put_(..., accumulate=True)}). A spec of basic items writes through the view (values are
     * converted to self's dtype); with tensor items, values must have self's dtype, as in PyTorch.
     */
    public static Tensor indexPut_(Tensor self, Index[] spec, Tensor values, boolean accumulate) {
        Sliced s = applySlicing(self, spec);
        if (s.indices() == null) copyTo(s.result(), values, accumulate);
        else putInPlace(s.result(), s.indices(), withoutLeadingOnes(values), accumulate);
        return self;
    }

    /** {@code self[spec] = value} for a Java number, {@link Boolean} or {@link Scalar}, converted to self's dtype. */
    public static Tensor indexPut_(Tensor self, Index[] spec, Object value, boolean accumulate) {
        if (value instanceof Tensor t) return indexPut_(self, spec, t, accumulate);
        Scalar s = Scalar.of(value);
        ScalarConversion.check(s, self.dtype());
        return indexPut_(self, spec, Creation.scalarTensor(s, self.dtype()), accumulate);
    }

    /** {@code torch.index_put(self, indices, values)}: {@code null} entries leave a dim unindexed. */
    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values) {
        return indexPut(self, indices, values, false);
    }

    /** {@code torch.index_put(self, indices, values, accumulate)}. */
    public static Tensor indexPut(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        return INDEX_PUT.call1(self, indices.clone(), values, accumulate);
    }

    /** {@code self.index_put_(indices, values)}. */
    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values) {
        return indexPut_(self, indices, values, false);
    }

    /** {@code self.index_put_(indices, values, accumulate)}. */
    public static Tensor indexPut_(Tensor self, Tensor[] indices, Tensor values, boolean accumulate) {
        putInPlace(self, indices.clone(), values, accumulate);
        return self;
    }

    /** {@code torch.nonzero(self)}: int64 [n, self.dim()]. */
    public static Tensor nonzero(Tensor self) {
        return NONZERO.call1(self);
    }

    /**
     * {@code torch.nonzero(self, as_tuple=asTuple)}: with {@code asTuple}, one int64 [n] tensor per dim; without, the
     * single [n, self.dim()] tensor of {@link #nonzero(Tensor)} as a one-element list.
     */
    public static List<Tensor> nonzero(Tensor self, boolean asTuple) {
        if (!asTuple) return List.of(nonzero(self));
        return List.of((Tensor[]) Dispatcher.call(NONZERO_NUMPY, self));
    }

    /** {@code torch.nonzero_static(self, size=size, fill_value=fillValue)}. */
    public static Tensor nonzeroStatic(Tensor self, long size, long fillValue) {
        return NONZERO_STATIC.call1(self, size, fillValue);
    }

    /** {@code torch.count_nonzero(self, dims)}: over every dim when {@code dims} is empty. */
    public static Tensor countNonzero(Tensor self, long... dims) {
        return COUNT_NONZERO.call1(self, dims.clone());
    }

    /** {@code torch.where(condition)}: {@code nonzero(condition, as_tuple=True)}. */
    public static List<Tensor> where(Tensor condition) {
        return List.of((Tensor[]) Dispatcher.call(WHERE, condition));
    }

    /** {@code torch.masked_select(self, mask)}. */
    public static Tensor maskedSelect(Tensor self, Tensor mask) {
        return MASKED_SELECT.call1(self, mask);
    }

    /** {@code self.masked_scatter(mask, source)}. */
    public static Tensor maskedScatter(Tensor self, Tensor mask, Tensor source) {
        return MASKED_SCATTER.call1(self, mask, source);
    }

    /** {@code self.masked_scatter_(mask, source)}: the mask must broadcast to self's shape. */
    public static Tensor maskedScatter_(Tensor self, Tensor mask, Tensor source) {
        checkMaskedScatter(self, mask, source);
        ShapeOps.expand(mask, self.impl().shapeRef()); // PyTorch's expand_inplace: the mask must fit self
        InternalOverlap.check(self.impl());
        Dispatcher.callOut(MASKED_SCATTER, new Tensor[] {self}, self, mask, source);
        return self;
    }

    /** {@code torch.take(self, index)}. */
    public static Tensor take(Tensor self, Tensor index) {
        return TAKE.call1(self, index);
    }

    /** {@code torch.take_along_dim(self, indices)}: over the flattened self. */
    public static Tensor takeAlongDim(Tensor self, Tensor indices) {
        return TAKE_ALONG_DIM.call1(self, indices, null);
    }

    /** {@code torch.take_along_dim(self, indices, dim)}. */
    public static Tensor takeAlongDim(Tensor self, Tensor indices, int dim) {
        return TAKE_ALONG_DIM.call1(self, indices, (long) dim);
    }
}

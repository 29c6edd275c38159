package org.jtorch.ops;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.TorchTypeException;
import org.jtorch.UniqueResult;
import org.jtorch.ValuesIndices;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.SortKernels;
import org.jtorch.storage.TensorImpl;

/**
 * Order ops: {@code sort}, {@code argsort}, {@code msort}, {@code topk}, {@code kthvalue},
 * {@code cummax}/{@code cummin}, {@code unique} and {@code unique_consecutive}. Kernels are in {@link SortKernels}; the
 * static methods at the end are the Java entry points.
 *
 * <p><b>Order.</b> NaN is larger than every number (last ascending, first descending and in
 * {@code topk(largest=True)}); -0.0 and 0.0 are equal. Sorting is always stable, whatever {@code stable} says (PyTorch
 * allows any order of ties when it is false), and {@code topk}/{@code kthvalue} resolve ties as the stable sort does:
 * the lowest position first. {@code topk(sorted=False)} returns the sorted order too.
 *
 * <p><b>Complex inputs</b> raise {@link TorchTypeException}: ordering complex numbers is a TypeError in 2.15 (PR
 * #192350 names sort, argsort, msort and topk; JTorch applies it to every op here that orders, where 1.13 raised
 * RuntimeError "not implemented for 'ComplexFloat'"). {@code unique} is about equality, not order: a complex input is
 * unimplemented, as in ATen. Dtypes an ATen kernel does not cover raise {@link UnsupportedOperationException}, the
 * NotImplementedError of 2.15's dispatch macros.
 *
 * <p>{@code unique} and {@code unique_consecutive} have data-dependent output sizes, so they are composites that
 * compute on the CPU and refuse meta tensors, as ATen has no meta kernel for them.
 *
 * <p><b>Gradients.</b> The values of sort, topk, kthvalue, cummax and cummin send their gradient back to the positions
 * their indices name; indices, argsort and unique are not differentiable (unique's values are computed outside
 * autograd, so they never require grad).
 */
public final class SortOps {
    private SortOps() {}

    // ---- checks -------------------------------------------------------------------------------------

    /** 2.15: ordering complex numbers is a TypeError. */
    static void checkOrdered(String op, DType d) {
        if (d.isComplex()) {
            throw new TorchTypeException(
                    op + "(): ordering is not defined for complex numbers (got " + d.cppName() + ")");
        }
    }

    /** ATen's dispatch error for a dtype its kernel does not cover (NotImplementedError in 2.15). */
    static UnsupportedOperationException notImplemented(String kernel, DType d) {
        return new UnsupportedOperationException("\"" + kernel + "\" not implemented for '" + d.cppName() + "'");
    }

    /** Ordering ops take every real dtype except the float8 storage formats; complex is a TypeError. */
    private static void checkSortable(String op, String kernel, Tensor x) {
        checkOrdered(op, x.dtype());
        if (x.dtype().isFloat8()) throw notImplemented(kernel, x.dtype());
    }

    private static boolean bool(Object o) {
        return o != null && (Boolean) o;
    }

    private static long[] withDim(long[] shape, int dim, long size) {
        if (shape.length == 0) return shape;
        long[] s = shape.clone();
        s[dim] = size;
        return s;
    }

    private static long[] withoutDim(long[] shape, int dim, boolean keepdim) {
        if (shape.length == 0) return shape;
        if (keepdim) return withDim(shape, dim, 1);
        long[] s = new long[shape.length - 1];
        for (int i = 0, k = 0; i < shape.length; i++) if (i != dim) s[k++] = shape[i];
        return s;
    }

    private static Spec valuesIndices(Tensor x, long[] shape, Object plan) {
        return new Spec(new long[][] {shape, shape}, new DType[] {x.dtype(), DType.INT64}, x.device(), plan);
    }

    // ---- sort ---------------------------------------------------------------------------------------

    /** What sort's meta rule hands its kernel. */
    record SortPlan(int dim, boolean descending) {}

    private static SortPlan sortPlan(String op, Object[] args) {
        Tensor x = (Tensor) args[0];
        int dim = Shapes.wrapDim((Long) args[2], x.dim());
        checkSortable(op, "sort", x);
        return new SortPlan(dim, bool(args[3]));
    }

    /** {@code sort}: values and int64 positions, stable. Args: (self, Boolean stable, Long dim, Boolean descending). */
    public static final OpDef SORT = OpDef.structured(
                    "sort.stable(Tensor self, *, bool? stable, int dim=-1, "
                            + "bool descending=False) -> (Tensor values, Tensor indices)",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        return valuesIndices(x, x.impl().shapeRef(), sortPlan("sort", args));
                    },
                    (args, outs, spec) -> {
                        SortPlan p = (SortPlan) spec.plan();
                        SortKernels.sort(
                                ((Tensor) args[0]).impl(), p.dim(), p.descending(), outs[0].impl(), outs[1].impl());
                    })
            .defineVjp(
                    OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {toPositions(g[0], (Tensor) a[0], (Long) a[2], o[1])})
            .defineJvp(Jvps.selected(2, -1));

    /**
     * The backward of the ops that pick values by position (sort, topk, cummax, cummin; ATen's
     * {@code value_selecting_reduction_backward} with several positions per line): each gradient element added at its
     * value's position along dim, a scatter_add into zeros whose own backward is the gather at the same positions.
     * Positions repeat only in the scans, where the adds are what is wanted.
     */
    private static Tensor toPositions(Tensor g, Tensor self, long dim, Tensor indices) {
        return ScatterOps.scatterAdd(ScatterOps.zeros(self.impl().shapeRef(), g), (int) dim, indices, g);
    }

    /** {@code argsort}: sort's positions only. Args: (self, Boolean stable, Long dim, Boolean descending). */
    public static final OpDef ARGSORT = OpDef.structured(
            "argsort.stable(Tensor self, *, bool stable, int dim=-1, bool descending=False) -> Tensor",
            args -> {
                Tensor x = (Tensor) args[0];
                return Spec.of(x.impl().shapeRef(), DType.INT64, x.device(), sortPlan("argsort", args));
            },
            (args, outs, spec) -> {
                SortPlan p = (SortPlan) spec.plan();
                SortKernels.sort(((Tensor) args[0]).impl(), p.dim(), p.descending(), null, outs[0].impl());
            },
            OpDef.Flag.NOT_DIFFERENTIABLE);

    /** {@code msort}: sorted along dim 0. Args: (self). */
    public static final OpDef MSORT = OpDef.composite("msort(Tensor self) -> Tensor", args -> {
        checkOrdered("msort", ((Tensor) args[0]).dtype());
        return ((Tensor[]) Dispatcher.call(SORT, args[0], false, 0L, false))[0];
    });

    // ---- selection ----------------------------------------------------------------------------------

    /** What topk's meta rule hands its kernel. */
    record TopkPlan(int dim, int k, boolean largest) {}

    /**
     * {@code topk}: the k largest (or smallest), in order. Args: (self, Long k, Long dim, Boolean largest, Boolean
     * sorted).
     */
    public static final OpDef TOPK = OpDef.structured(
                    "topk(Tensor self, SymInt k, int dim=-1, bool largest=True, "
                            + "bool sorted=True) -> (Tensor values, Tensor indices)",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        long k = (Long) args[1];
                        int dim = Shapes.wrapDim((Long) args[2], x.dim());
                        checkSortable("topk", "topk_cpu", x);
                        // PyTorch 2.13's words; 2.15 makes it a NotImplementedError (spec §5)
                        if (x.dtype() == DType.BOOL) {
                            throw new UnsupportedOperationException("topk does not support bool dtypes on CPU");
                        }
                        long size = x.dim() > 0 ? x.impl().shapeRef()[dim] : 1;
                        if (k < 0 || k > size) {
                            throw new TorchException("topk(): selected index k out of range (k = " + k
                                    + ", size of dimension " + dim + " = " + size + ")");
                        }
                        return valuesIndices(
                                x,
                                withDim(x.impl().shapeRef(), dim, k),
                                new TopkPlan(dim, (int) k, args[3] == null || (Boolean) args[3]));
                    },
                    (args, outs, spec) -> {
                        TopkPlan p = (TopkPlan) spec.plan();
                        SortKernels.topk(
                                ((Tensor) args[0]).impl(), p.dim(), p.k(), p.largest(), outs[0].impl(), outs[1].impl());
                    })
            .defineVjp(
                    OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {toPositions(g[0], (Tensor) a[0], (Long) a[2], o[1])})
            .defineJvp(Jvps.selected(2, -1));

    /** What kthvalue's meta rule hands its kernel. */
    record KthPlan(int dim, int k) {}

    /**
     * {@code kthvalue}: the k-th smallest (1-based) along dim and its position. Args: (self, Long k, Long dim, Boolean
     * keepdim).
     */
    public static final OpDef KTHVALUE = OpDef.structured(
                    "kthvalue(Tensor self, SymInt k, int dim=-1, bool keepdim=False) -> (Tensor values, "
                            + "Tensor indices)",
                    args -> {
                        Tensor x = (Tensor) args[0];
                        long k = (Long) args[1];
                        int dim = Shapes.wrapDim((Long) args[2], x.dim());
                        checkSortable("kthvalue", "kthvalue_cpu", x);
                        if (x.dtype() == DType.BOOL) throw notImplemented("kthvalue_cpu", x.dtype());
                        long size = x.dim() > 0 ? x.impl().shapeRef()[dim] : 1;
                        if (x.numel() == 0 && size == 0) {
                            throw new IndexOutOfBoundsException(
                                    "kthvalue(): Expected reduction dim " + dim + " to have non-zero size.");
                        }
                        if (k < 1 || k > size)
                            throw new TorchException("kthvalue(): selected number k out of range for dimension " + dim);
                        return valuesIndices(
                                x, withoutDim(x.impl().shapeRef(), dim, bool(args[3])), new KthPlan(dim, (int) k));
                    },
                    (args, outs, spec) -> {
                        KthPlan p = (KthPlan) spec.plan();
                        SortKernels.kthvalue(((Tensor) args[0]).impl(), p.dim(), p.k(), outs[0].impl(), outs[1].impl());
                    })
            .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) -> new Tensor[] {
                BackwardOps.valueSelectingReductionBackward(
                        g[0], (Long) a[2], o[1], ((Tensor) a[0]).shape(), bool(a[3]))
            })
            .defineJvp(Jvps.selected(2, 3));

    // ---- scans --------------------------------------------------------------------------------------

    private static OpDef cumExtremum(String name, boolean max) {
        OpDef.Meta meta = args -> {
            Tensor x = (Tensor) args[0];
            int dim = Shapes.wrapDim((Long) args[1], x.dim());
            checkSortable(name, name + "_cpu", x);
            return valuesIndices(x, x.impl().shapeRef(), dim);
        };
        OpDef.Kernel kernel = (args, outs, spec) -> SortKernels.cumExtremum(
                ((Tensor) args[0]).impl(), (Integer) spec.plan(), max, outs[0].impl(), outs[1].impl());
        return OpDef.structured(name + "(Tensor self, int dim) -> (Tensor values, Tensor indices)", meta, kernel)
                .defineVjp(OpDef.Save.OUTPUTS, (a, o, g) ->
                        new Tensor[] {toPositions(g[0], (Tensor) a[0], (Long) a[1], o[1])});
    }

    /**
     * {@code cummax}: running maximum and where it came from (a later tie or NaN takes over). Args: (self, Long dim).
     */
    public static final OpDef CUMMAX = cumExtremum("cummax", true).defineJvp(Jvps.selected(1, -1));

    /** {@code cummin}: running minimum and where it came from. Args: (self, Long dim). */
    public static final OpDef CUMMIN = cumExtremum("cummin", false).defineJvp(Jvps.selected(1, -1));

    // ---- unique -------------------------------------------------------------------------------------

    private static void checkUnique(String op, Tensor x) {
        if (x.isComplex() || x.dtype().isFloat8()) throw notImplemented(op, x.dtype());
        if (x.impl().isFake()) throw new DynamicOutputShapeException("aten::" + op);
        if (x.isMeta()) {
            throw new UnsupportedOperationException(
                    op + ": the output size depends on the data, which a meta tensor does not have");
        }
    }

    private static Tensor emptyLongs(long... shape) {
        return Tensor.of(TensorImpl.empty(shape, DType.INT64));
    }

    /**
     * Outputs of a flat unique: the first element of each group, each element's group, group sizes. Unrequested outputs
     * are empty, as ATen's.
     */
    private static Tensor[] flatUnique(Tensor x, boolean consecutive, boolean inverse, boolean counts) {
        Tensor c = CopyOps.contiguous(x);
        if (c.numel() == 0) {
            return new Tensor[] {
                Tensor.of(TensorImpl.empty(new long[] {0}, x.dtype())),
                inverse ? emptyLongs(x.shape()) : emptyLongs(0),
                emptyLongs(0)
            };
        }
        SortKernels.Groups g = SortKernels.group(c.impl(), consecutive);
        long[] first = new long[g.groups()];
        for (int i = 0; i < first.length; i++) first[i] = g.order()[g.starts()[i]];
        Tensor out = Tensor.of(TensorImpl.empty(new long[] {g.groups()}, x.dtype()));
        SortKernels.gather(c.impl(), c.storageOffset(), 1, first, first.length, out.impl(), 0, 1);
        return new Tensor[] {
            out, inverse ? inverseOf(g, x.shape()) : emptyLongs(0), counts ? countsOf(g) : emptyLongs(0)
        };
    }

    private static Tensor inverseOf(SortKernels.Groups g, long[] shape) {
        Tensor t = emptyLongs(shape);
        long[] inv = (long[]) t.impl().storage().array();
        for (int grp = 0; grp < g.groups(); grp++) {
            for (int i = g.starts()[grp]; i < g.starts()[grp + 1]; i++) inv[(int) g.order()[i]] = grp;
        }
        return t;
    }

    private static Tensor countsOf(SortKernels.Groups g) {
        Tensor t = emptyLongs(g.groups());
        long[] c = (long[]) t.impl().storage().array();
        for (int grp = 0; grp < g.groups(); grp++) c[grp] = g.starts()[grp + 1] - g.starts()[grp];
        return t;
    }

    /**
     * Unique slices along {@code dim} (sorted lexicographically unless consecutive), as ATen's
     * {@code _unique_dim_cpu_template}.
     */
    private static Tensor[] dimUnique(Tensor x, long dimArg, boolean consecutive, boolean inverse, boolean counts) {
        if (x.dim() == 0)
            throw new IndexOutOfBoundsException("Dimension specified as " + dimArg + " but tensor has no dimensions");
        int dim = Shapes.wrapDim(dimArg, x.dim());
        long[] shape = x.impl().shapeRef();
        long zeros = Arrays.stream(shape).filter(s -> s == 0).count();
        if (shape[dim] == 0) {
            if (zeros != 1)
                throw new TorchException(
                        "Number of zero sized dimensions is more than one, so unique cannot be applied ");
            return new Tensor[] {Tensor.of(TensorImpl.empty(shape.clone(), x.dtype())), emptyLongs(0), emptyLongs(0)};
        }
        if (zeros > 0)
            throw new TorchException(
                    "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
        Tensor moved = CopyOps.contiguous(ShapeOps.movedim(x, dim, 0));
        long rows = shape[dim], cols = x.numel() / rows;
        Tensor flat = ShapeOps.reshape(moved, rows, cols);
        SortKernels.Groups g = SortKernels.groupRows(flat.impl(), consecutive);
        long[] outShape = moved.shape();
        outShape[0] = g.groups();
        Tensor out = Tensor.of(TensorImpl.empty(outShape, x.dtype()));
        long[] columns = new long[(int) cols];
        for (int j = 0; j < columns.length; j++) columns[j] = j;
        for (int grp = 0; grp < g.groups(); grp++) {
            long row = g.order()[g.starts()[grp]];
            SortKernels.gather(
                    flat.impl(),
                    flat.storageOffset() + row * cols,
                    1,
                    columns,
                    columns.length,
                    out.impl(),
                    grp * cols,
                    1);
        }
        return new Tensor[] {
            ShapeOps.movedim(out, 0, dim),
            inverse ? inverseOf(g, new long[] {rows}) : emptyLongs(0),
            counts ? countsOf(g) : emptyLongs(0)
        };
    }

    /**
     * {@code _unique2}: the sorted unique elements (always sorted, as ATen's CPU kernel does; NaNs are each unique,
     * last), inverse indices shaped as the input, counts. Args: (self, Boolean sorted, Boolean return_inverse, Boolean
     * return_counts); returns {@code Tensor[3]}, unrequested ones empty.
     */
    public static final OpDef UNIQUE = OpDef.composite(
            "_unique2(Tensor self, bool sorted=True, bool return_inverse=False, "
                    + "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
            args -> {
                Tensor x = (Tensor) args[0];
                checkUnique("unique", x);
                return flatUnique(x, false, bool(args[2]), bool(args[3]));
            },
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    /**
     * {@code unique_dim}: unique slices along dim. Args: (self, Long dim, Boolean sorted, Boolean return_inverse,
     * Boolean return_counts).
     */
    public static final OpDef UNIQUE_DIM = OpDef.composite(
            "unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, "
                    + "bool return_counts=False) -> (Tensor, Tensor, Tensor)",
            args -> {
                Tensor x = (Tensor) args[0];
                checkUnique("unique_dim", x);
                return dimUnique(x, (Long) args[1], false, bool(args[3]), bool(args[4]));
            },
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    /**
     * {@code unique_consecutive}: collapses runs of equal elements (flattened without dim, slices with it). Args:
     * (self, Boolean return_inverse, Boolean return_counts, Long dim or null).
     */
    public static final OpDef UNIQUE_CONSECUTIVE = OpDef.composite(
            "unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, "
                    + "int? dim=None) -> (Tensor, Tensor, Tensor)",
            args -> {
                Tensor x = (Tensor) args[0];
                checkUnique("unique_consecutive", x);
                Long dim = (Long) args[3];
                if (dim == null || (dim == 0 && x.dim() == 1)) return flatUnique(x, true, bool(args[1]), bool(args[2]));
                return dimUnique(x, dim, true, bool(args[1]), bool(args[2]));
            },
            OpDef.Flag.NOT_DIFFERENTIABLE,
            OpDef.Flag.DYNAMIC_OUTPUT_SHAPE);

    // ---- Java entry points ----------------------------------------------------------------------------

    private static ValuesIndices pair(Object r) {
        Tensor[] t = (Tensor[]) r;
        return new ValuesIndices(t[0], t[1]);
    }

    private static UniqueResult unique(Object r, boolean inverse, boolean counts) {
        Tensor[] t = (Tensor[]) r;
        return new UniqueResult(t[0], inverse ? t[1] : null, counts ? t[2] : null);
    }

    /** {@code torch.sort(x)}: ascending along the last dim. */
    public static ValuesIndices sort(Tensor self) {
        return sort(self, false, -1, false);
    }

    /** {@code torch.sort(x, dim)}. */
    public static ValuesIndices sort(Tensor self, long dim) {
        return sort(self, false, dim, false);
    }

    /** {@code torch.sort(x, dim, descending)}. */
    public static ValuesIndices sort(Tensor self, long dim, boolean descending) {
        return sort(self, false, dim, descending);
    }

    /** {@code torch.sort(x, stable=stable, dim=dim, descending=descending)} (always stable, see the class comment). */
    public static ValuesIndices sort(Tensor self, boolean stable, long dim, boolean descending) {
        return pair(Dispatcher.call(SORT, self, stable, dim, descending));
    }

    /** {@code torch.argsort(x)}. */
    public static Tensor argsort(Tensor self) {
        return argsort(self, -1, false, false);
    }

    /** {@code torch.argsort(x, dim)}. */
    public static Tensor argsort(Tensor self, long dim) {
        return argsort(self, dim, false, false);
    }

    /** {@code torch.argsort(x, dim, descending)}. */
    public static Tensor argsort(Tensor self, long dim, boolean descending) {
        return argsort(self, dim, descending, false);
    }

    /** {@code torch.argsort(x, dim, descending, stable=stable)}. */
    public static Tensor argsort(Tensor self, long dim, boolean descending, boolean stable) {
        return ARGSORT.call1(self, stable, dim, descending);
    }

    /** {@code torch.msort(x)}: {@code sort(x, dim=0).values}. */
    public static Tensor msort(Tensor self) {
        return MSORT.call1(self);
    }

    /** {@code torch.topk(x, k)}: the k largest along the last dim. */
    public static ValuesIndices topk(Tensor self, long k) {
        return topk(self, k, -1, true, true);
    }

    /** {@code torch.topk(x, k, dim)}. */
    public static ValuesIndices topk(Tensor self, long k, long dim) {
        return topk(self, k, dim, true, true);
    }

    /** {@code torch.topk(x, k, dim, largest)}. */
    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest) {
        return topk(self, k, dim, largest, true);
    }

    /** {@code torch.topk(x, k, dim, largest, sorted)}. */
    public static ValuesIndices topk(Tensor self, long k, long dim, boolean largest, boolean sorted) {
        return pair(Dispatcher.call(TOPK, self, k, dim, largest, sorted));
    }

    /** {@code torch.kthvalue(x, k)}: along the last dim. */
    public static ValuesIndices kthvalue(Tensor self, long k) {
        return kthvalue(self, k, -1, false);
    }

    /** {@code torch.kthvalue(x, k, dim)}. */
    public static ValuesIndices kthvalue(Tensor self, long k, long dim) {
        return kthvalue(self, k, dim, false);
    }

    /** {@code torch.kthvalue(x, k, dim, keepdim)}. */
    public static ValuesIndices kthvalue(Tensor self, long k, long dim, boolean keepdim) {
        return pair(Dispatcher.call(KTHVALUE, self, k, dim, keepdim));
    }

    /** {@code torch.cummax(x, dim)}. */
    public static ValuesIndices cummax(Tensor self, long dim) {
        return pair(Dispatcher.call(CUMMAX, self, dim));
    }

    /** {@code torch.cummin(x, dim)}. */
    public static ValuesIndices cummin(Tensor self, long dim) {
        return pair(Dispatcher.call(CUMMIN, self, dim));
    }

    /** {@code torch.unique(x)}: the sorted unique elements. */
    public static Tensor unique(Tensor self) {
        return ((Tensor[]) Dispatcher.call(UNIQUE, self, true, false, false))[0];
    }

    /** {@code torch.unique(x, sorted, return_inverse, return_counts)}. */
    public static UniqueResult unique(Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts) {
        return unique(Dispatcher.call(UNIQUE, self, sorted, returnInverse, returnCounts), returnInverse, returnCounts);
    }

    /** {@code torch.unique(x, sorted, return_inverse, return_counts, dim)}. */
    public static UniqueResult unique(
            Tensor self, boolean sorted, boolean returnInverse, boolean returnCounts, long dim) {
        return unique(
                Dispatcher.call(UNIQUE_DIM, self, dim, sorted, returnInverse, returnCounts),
                returnInverse,
                returnCounts);
    }

    /** {@code torch.unique_consecutive(x)}. */
    public static Tensor uniqueConsecutive(Tensor self) {
        return ((Tensor[]) Dispatcher.call(UNIQUE_CONSECUTIVE, self, false, false, null))[0];
    }

    /** {@code torch.unique_consecutive(x, return_inverse, return_counts)}. */
    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts) {
        return unique(
                Dispatcher.call(UNIQUE_CONSECUTIVE, self, returnInverse, returnCounts, null),
                returnInverse,
                returnCounts);
    }

    /** {@code torch.unique_consecutive(x, return_inverse, return_counts, dim)}. */
    public static UniqueResult uniqueConsecutive(Tensor self, boolean returnInverse, boolean returnCounts, long dim) {
        return unique(
                Dispatcher.call(UNIQUE_CONSECUTIVE, self, returnInverse, returnCounts, dim),
                returnInverse,
                returnCounts);
    }
}

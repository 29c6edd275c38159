package org.jtorch.ops;

import static org.jtorch.ops.IndexGeometry.alongDim;
import static org.jtorch.ops.IndexGeometry.atLeast1d;
import static org.jtorch.ops.IndexGeometry.longIndex;
import static org.jtorch.ops.IndexGeometry.restrided;
import static org.jtorch.ops.IndexGeometry.with;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Spec;
import org.jtorch.internal.Shapes;
import org.jtorch.kernels.cpu.IndexLoops;
import org.jtorch.kernels.cpu.IndexLoops.Indexers;
import org.jtorch.kernels.cpu.IndexLoops.Reduce;
import org.jtorch.storage.TensorImpl;

/**
 * Ops that move elements along one dim by an index: {@code gather}, {@code scatter}, {@code scatter_add},
 * {@code scatter_reduce}, {@code index_select}, {@code index_add}, {@code index_copy}, {@code index_fill}. Each meta
 * rule owns the checks (ATen's {@code ScatterGatherChecks.h} and index-op meta functions, with their messages); each
 * kernel restrides its operands over the iteration space and runs one {@link IndexLoops} gather or scatter. Index
 * values are checked by the kernels (they are data).
 *
 * <p>Scatters with duplicate indices are deterministic: updates reach each destination in index order (see
 * {@link IndexLoops}), so {@code scatter_add} of floats gives the same bits for any thread count. The functional forms
 * copy {@code self} first; the in-place forms ({@code scatter_} ...) run the same op into {@code self}.
 *
 * <p><b>Gradients.</b> The ops are each other's backward, so gradients of any order work: gather ↔ scatter_add into
 * zeros, index_select ↔ index_add into zeros; writes (scatter, index_copy, index_fill) cut the gradient of the places
 * they overwrite with scatter/index_fill of 0. A src larger than index gets zeros beyond the part index covers.
 * scatter_reduce's rules are in {@link ScatterReduceGrads}.
 */
public final class ScatterOps {
    private ScatterOps() {}

    private static Tensor tensor(Object o) {
        return (Tensor) o;
    }

    private static long lng(Object o) {
        return ((Number) o).longValue();
    }

    /** ATen's {@code ensure_nonempty_size}: a 0-d tensor has size 1 along dim 0. */
    private static long size(Tensor t, int d) {
        return t.dim() == 0 ? 1 : t.size(d);
    }

    private static IndexLoops.OutOfRange outOfBounds(int dim, boolean indexError, String prefix) {
        return (v, which, size) -> {
            String msg = prefix + "index " + v + " is out of bounds for dimension " + dim + " with size " + size;
            return indexError ? new IndexOutOfBoundsException(msg) : new TorchException(msg);
        };
    }

    private static final IndexLoops.OutOfRange OUT_OF_RANGE_IN_SELF =
            (v, which, size) -> new IndexOutOfBoundsException("index out of range in self");

    /** The functional forms write a copy of self; the in-place forms get self itself as the output. */
    private static void copySelf(Object[] args, Tensor out) {
        Tensor self = tensor(args[0]);
        if (out != self) CopyOps.convert(self, out);
    }

    // ---- gather -------------------------------------------------------------------------------------

    private static void gatherShapeCheck(Tensor self, int dim, Tensor index) {
        int dims = Math.max(self.dim(), 1);
        if (dims != Math.max(index.dim(), 1)) {
            throw new TorchException("Index tensor must have the same number of dimensions as input tensor");
        }
        for (int i = 0; i < dims; i++) {
            if (i != dim && size(index, i) > size(self, i)) {
                throw new TorchException("Size does not match at dimension " + i + " expected index "
                        + Shapes.str(index.impl().shapeRef()) + " to be no larger than self "
                        + Shapes.str(self.impl().shapeRef()) + " apart from dimension " + dim);
            }
        }
    }

    /**
     * {@code gather(self, dim, index, sparse_grad)}: {@code out[i][j] = self[index[i][j]][j]} (dim 0); the result has
     * index's shape. With {@code sparse_grad} PyTorch's gradient of self is a sparse COO tensor; JTorch has no sparse
     * layout and gives its dense equivalent, the scatter-add of the incoming gradient, as without the flag.
     */
    public static final OpDef GATHER = OpDef.structured(
                    "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]), index = tensor(args[2]);
                        int dim = Shapes.wrapDim(lng(args[1]), self.dim());
                        if (index.numel() != 0) {
                            if (!isIndexDtype(index.dtype()))
                                throw new TorchException("gather(): Expected dtype int32/int64 for index");
                            gatherShapeCheck(self, dim, index);
                        }
                        return Spec.of(index.shape(), self.dtype(), Devices.common("gather", self, index), dim);
                    },
                    (args, outs, spec) -> {
                        int dim = (Integer) spec.plan();
                        Tensor self = atLeast1d(tensor(args[0])), index = atLeast1d(tensor(args[2]));
                        Tensor src = restrided(
                                self, index.impl().shapeRef(), with(self.impl().strideRef(), dim, 0));
                        IndexLoops.gather(
                                atLeast1d(outs[0]).impl(),
                                src.impl(),
                                Indexers.one(
                                        longIndex(index).impl(),
                                        self.impl().strideRef()[dim],
                                        self.impl().shapeRef()[dim],
                                        false,
                                        outOfBounds(dim, false, "")));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                scatterAdd(zeros(tensor(a[0]).impl().shapeRef(), g[0]), dim(a), tensor(a[2]), g[0]), null
            })
            .deriveJvp(Jvps.linearExcept(2));

    // ---- scatter family -----------------------------------------------------------------------------

    /** ATen's {@code scatter_shape_check}: index fits self (apart from dim) and src (everywhere). */
    private static void scatterShapeCheck(Tensor self, int dim, Tensor index, Tensor src) {
        if (index.numel() == 0) return;
        int dims = Math.max(self.dim(), 1);
        if (dims != Math.max(index.dim(), 1)) {
            throw new TorchException("Index tensor must have the same number of dimensions as self tensor");
        }
        boolean wrong = false;
        for (int d = 0; d < dims && !wrong; d++) wrong = d != dim && size(index, d) > size(self, d);
        for (int d = 0; d < dims && !wrong && src != null; d++) wrong = size(index, d) > size(src, d);
        String expected = "Expected index " + Shapes.str(index.impl().shapeRef()) + " to be no larger than self "
                + Shapes.str(self.impl().shapeRef()) + " apart from dimension " + dim;
        if (src != null) {
            if (Math.max(src.dim(), 1) != Math.max(index.dim(), 1)) {
                throw new TorchException("Index tensor must have the same number of dimensions as src tensor");
            }
            if (wrong)
                throw new TorchException(expected + " and to be no larger size than src "
                        + Shapes.str(src.impl().shapeRef()));
        } else if (wrong) {
            throw new TorchException(expected);
        }
    }

    /** The index dtypes gather and the scatter family take (int32 since PyTorch 2.1); kernels read them as int64. */
    private static boolean isIndexDtype(DType d) {
        return d == DType.INT64 || d == DType.INT32;
    }

    /**
     * ATen's {@code scatter_meta_impl}; returns the wrapped dim. Every scatter op names itself "scatter" in these
     * messages.
     */
    private static int scatterChecks(Tensor self, Object dimArg, Tensor index, Tensor src) {
        int dim = Shapes.wrapDim(lng(dimArg), self.dim());
        if (index.numel() != 0 && !isIndexDtype(index.dtype()))
            throw new TorchException("scatter(): Expected dtype int32/int64 for index");
        if (src != null && src.dtype() != self.dtype())
            throw new TorchException("scatter(): Expected self.dtype to be equal to src.dtype");
        scatterShapeCheck(self, dim, index, src);
        return dim;
    }

    private static Spec scatterSpec(Object[] args, Tensor src, Object plan) {
        Tensor self = tensor(args[0]);
        return Spec.of(self.shape(), self.dtype(), Devices.common("scatter", self, args[2], src), plan);
    }

    /**
     * Scatters {@code values} into {@code out} along {@code dim} by {@code index}; {@code values} is a tensor at least
     * as large as index (src) or a 0-d tensor (a value, read for every element).
     */
    private static void scatterInto(Tensor out, int dim, Tensor index, Tensor values, Reduce op) {
        boolean halfAccumulation = out.dtype() == DType.FLOAT16 || out.dtype() == DType.BFLOAT16;
        if (halfAccumulation && (op == Reduce.ADD || op == Reduce.MUL)) {
            // ATen's CPU scatter sums and products of float16/bfloat16 accumulate in float and round once per place
            // (index_put and the slice path of index_add round at every step: their kernels are separate)
            Tensor acc = Tensor.of(TensorImpl.empty(out.shape(), DType.FLOAT32));
            CopyOps.convert(out, acc);
            Tensor wide = Tensor.of(TensorImpl.empty(values.shape(), DType.FLOAT32));
            CopyOps.convert(values, wide);
            scatterInto(acc, dim, index, wide, op);
            CopyOps.convert(acc, out);
            return;
        }
        Tensor o = atLeast1d(out), idx = atLeast1d(index);
        long[] shape = idx.impl().shapeRef();
        Tensor dst = restrided(o, shape, with(o.impl().strideRef(), dim, 0));
        Tensor src = values.dim() == 0
                ? restrided(values, shape, new long[shape.length])
                : restrided(atLeast1d(values), shape, atLeast1d(values).impl().strideRef());
        IndexLoops.scatter(
                dst.impl(),
                src.impl(),
                Indexers.one(
                        longIndex(idx).impl(),
                        o.impl().strideRef()[dim],
                        o.impl().shapeRef()[dim],
                        false,
                        outOfBounds(dim, false, "")),
                op,
                null,
                dim);
    }

    /**
     * {@code scatter(self, dim, index, src)}: {@code out[index[i][j]][j] = src[i][j]} (dim 0); with duplicates the last
     * one wins.
     */
    public static final OpDef SCATTER = OpDef.structured(
                    "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
                    args -> scatterSpec(
                            args,
                            tensor(args[3]),
                            scatterChecks(tensor(args[0]), args[1], tensor(args[2]), tensor(args[3]))),
                    (args, outs, spec) -> {
                        copySelf(args, outs[0]);
                        scatterInto(
                                outs[0],
                                (Integer) spec.plan(),
                                tensor(args[2]),
                                atLeast1d(tensor(args[3])),
                                Reduce.ASSIGN);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                scatter(g[0], dim(a), tensor(a[2]), 0L), null, srcGrad(gather(g[0], dim(a), tensor(a[2])), tensor(a[3]))
            })
            .deriveJvp(Jvps.linearExcept(2));

    /** {@code scatter(self, dim, index, value)}: writes one value at every indexed place. */
    public static final OpDef SCATTER_VALUE = OpDef.structured(
                    "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
                    args -> {
                        int dim = scatterChecks(tensor(args[0]), args[1], tensor(args[2]), null);
                        ScalarConversion.check(
                                Scalar.of(args[3]), tensor(args[0]).dtype());
                        return scatterSpec(args, null, dim);
                    },
                    (args, outs, spec) -> {
                        copySelf(args, outs[0]);
                        Tensor value = Creation.scalarTensor(Scalar.of(args[3]), outs[0].dtype());
                        scatterInto(outs[0], (Integer) spec.plan(), tensor(args[2]), value, Reduce.ASSIGN);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {scatter(g[0], dim(a), tensor(a[2]), 0L), null})
            // the scattered places are constants: the tangent is self's with zeros there
            .defineJvp((a, o, t) ->
                    new Tensor[] {t[0] == null ? null : ScatterOps.SCATTER_VALUE.call1(t[0], a[1], a[2], 0L)});

    /**
     * {@code scatter_add(self, dim, index, src)}: adds every src element to its indexed place (duplicates accumulate).
     */
    public static final OpDef SCATTER_ADD = OpDef.structured(
                    "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
                    args -> scatterSpec(
                            args,
                            tensor(args[3]),
                            scatterChecks(tensor(args[0]), args[1], tensor(args[2]), tensor(args[3]))),
                    (args, outs, spec) -> {
                        copySelf(args, outs[0]);
                        scatterInto(
                                outs[0],
                                (Integer) spec.plan(),
                                tensor(args[2]),
                                atLeast1d(tensor(args[3])),
                                Reduce.ADD);
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0], null, srcGrad(gather(g[0], dim(a), tensor(a[2])), tensor(a[3]))})
            .deriveJvp(Jvps.linearExcept(2));

    /** The reductions of {@code scatter_reduce}, by PyTorch's names. */
    private enum ScatterReduction {
        SUM(Reduce.ADD),
        PROD(Reduce.MUL),
        MEAN(Reduce.ADD),
        AMAX(Reduce.MAX),
        AMIN(Reduce.MIN);

        final Reduce loop;

        ScatterReduction(Reduce loop) {
            this.loop = loop;
        }

        /** ATen's {@code get_reduction_enum}: "max" and "min" are accepted as "amax" and "amin" (forward only). */
        static ScatterReduction of(Object name) {
            for (ScatterReduction r : values())
                if (r.name().toLowerCase(java.util.Locale.ROOT).equals(name)) return r;
            if ("max".equals(name)) return AMAX;
            if ("min".equals(name)) return AMIN;
            throw new TorchException("reduce argument must be either sum, prod, mean, amax or amin, got " + name);
        }

        /** The value a place starts from when self is excluded (ATen's init_val). */
        Scalar identity(DType d) {
            return switch (this) {
                case SUM, MEAN -> Scalar.of(0L);
                case PROD -> Scalar.of(1L);
                case AMAX -> d.isFloatingPoint() ? Scalar.of(-largest(d)) : Scalar.of(lowest(d));
                case AMIN ->
                    d.isFloatingPoint()
                            ? Scalar.of(largest(d))
                            : d == DType.UINT64 ? Scalar.ofUnsigned(-1L) : Scalar.of(highest(d));
            };
        }

        /** Infinity, or the largest finite value of the float8 formats that have no infinity. */
        private static double largest(DType d) {
            boolean noInfinity = d == DType.FLOAT8_E4M3FN || d == DType.FLOAT8_E4M3FNUZ || d == DType.FLOAT8_E5M2FNUZ;
            return noInfinity ? PointwiseOps.maxFinite(d) : Double.POSITIVE_INFINITY;
        }

        private static long lowest(DType d) {
            if (d == DType.BOOL || !d.isSigned()) return 0;
            return d.bits() == 64 ? Long.MIN_VALUE : -(1L << (d.bits() - 1));
        }

        private static long highest(DType d) {
            if (d == DType.BOOL) return 1;
            if (d.isSigned()) return d.bits() == 64 ? Long.MAX_VALUE : (1L << (d.bits() - 1)) - 1;
            return (1L << d.bits()) - 1;
        }
    }

    private record ReducePlan(int dim, ScatterReduction reduction, boolean includeSelf) {}

    /**
     * {@code scatter_reduce(self, dim, index, src, reduce, include_self=True)}: reduces every src element into its
     * indexed place with {@code "sum"}, {@code "prod"}, {@code "mean"}, {@code "amax"} or {@code "amin"}. Without
     * {@code include_self}, places that receive values start from the reduction's identity; places no index reaches
     * keep self. NaN propagates through amax/amin; the mean of an integral dtype rounds down (floor division), as in
     * PyTorch.
     */
    public static final OpDef SCATTER_REDUCE = OpDef.structured(
                    "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, "
                            + "bool include_self=True) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]);
                        int dim = scatterChecks(self, args[1], tensor(args[2]), tensor(args[3]));
                        ScatterReduction r = ScatterReduction.of(args[4]);
                        String kernel = "\"scatter_gather_tensor_cpu_reduce_"
                                + r.name().toLowerCase(java.util.Locale.ROOT) + "\" not implemented for '";
                        // PyTorch's NotImplementedError: the kernel has no variant for these dtypes
                        if (r == ScatterReduction.MEAN && self.dtype() == DType.BOOL)
                            throw new UnsupportedOperationException(kernel + "Bool'");
                        if ((r == ScatterReduction.AMAX || r == ScatterReduction.AMIN) && self.isComplex()) {
                            throw new UnsupportedOperationException(
                                    kernel + self.dtype().cppName() + "'");
                        }
                        return scatterSpec(
                                args, tensor(args[3]), new ReducePlan(dim, r, args[5] == null || (Boolean) args[5]));
                    },
                    (args, outs, spec) -> {
                        ReducePlan p = (ReducePlan) spec.plan();
                        Tensor out = outs[0], index = tensor(args[2]);
                        copySelf(args, out);
                        if (!p.includeSelf()) {
                            scatterInto(
                                    out,
                                    p.dim(),
                                    index,
                                    Creation.scalarTensor(p.reduction().identity(out.dtype()), out.dtype()),
                                    Reduce.ASSIGN);
                        }
                        scatterInto(out, p.dim(), index, atLeast1d(tensor(args[3])), p.reduction().loop);
                        if (p.reduction() == ScatterReduction.MEAN)
                            divideByCounts(out, p.dim(), index, p.includeSelf());
                    })
            .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, (a, o, g) -> ScatterReduceGrads.of(a, o[0], g[0]))
            .deriveJvp(Jvps::transposedVjp);

    /**
     * {@code _scatter_reduce_prod_src_grad(grad)}: a copy of scatter_reduce("prod")'s src gradient for the case where
     * several zeros of src meet at one place, whose own backward raises (PyTorch's {@code DelayedError}): first order
     * is right there, second order is not implemented.
     */
    public static final OpDef SCATTER_REDUCE_PROD_SRC_GRAD = OpDef.structured(
                    "_scatter_reduce_prod_src_grad(Tensor grad) -> Tensor",
                    args -> {
                        Tensor g = tensor(args[0]);
                        return Spec.of(g.shape(), g.dtype(), g.device(), null);
                    },
                    (args, outs, spec) -> CopyOps.convert(tensor(args[0]), outs[0]))
            .defineVjp(OpDef.Save.NOTHING, (a, o, g) -> {
                throw new TorchException(
                        "scatter_reduce(): Double backward is unsupported for src when >1 zeros in src "
                                + "are scattered to "
                                + "the same position in self");
            })
            // an identity in its argument that stands for a function of src autograd cannot follow: refuse, as its VJP
            // does
            .defineJvp((a, o, t) -> {
                throw new TorchException(
                        "scatter_reduce(): forward AD of the src gradient is unsupported when >1 zeros in src are "
                                + "scattered to the same position in self");
            });

    /**
     * ATen's mean step: counts (in out's dtype) of the values each place received, self included or not, with 0 counted
     * as 1; out is divided by them (floor division for integral dtypes).
     */
    private static void divideByCounts(Tensor out, int dim, Tensor index, boolean includeSelf) {
        Tensor count = Creation.full(out.shape(), includeSelf ? 1L : 0L, out.dtype(), Device.CPU);
        scatterInto(count, dim, index, Creation.scalarTensor(Scalar.of(1L), out.dtype()), Reduce.ADD);
        count.maskedFill_(PointwiseOps.EQ.call1(count, 0L), 1L);
        boolean exact = out.dtype().isFloatingPoint() || out.dtype().isComplex();
        Dispatcher.callOut(exact ? PointwiseOps.DIV : PointwiseOps.DIV_FLOOR, new Tensor[] {out}, out, count);
    }

    // ---- index_select -------------------------------------------------------------------------------

    /**
     * {@code index_select(self, dim, index)}: the slices of self at the (int64 or int32, 1-d) index positions along
     * dim.
     */
    public static final OpDef INDEX_SELECT = OpDef.structured(
                    "index_select(Tensor self, int dim, Tensor index) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]), index = tensor(args[2]);
                        int dim = Shapes.wrapDim(lng(args[1]), self.dim());
                        if (index.dim() > 1)
                            throw new IndexOutOfBoundsException("index_select(): Index is supposed to be a vector");
                        if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
                            throw new TorchException("index_select(): Expected dtype int32 or int64 for index");
                        }
                        if (self.dim() == 0 && index.numel() != 1) {
                            throw new IndexOutOfBoundsException(
                                    "index_select(): Index to scalar can have only 1 value, got " + index.numel()
                                            + " value(s)");
                        }
                        long[] shape = self.dim() == 0
                                ? Shapes.SCALAR
                                : with(self.impl().shapeRef(), dim, index.numel());
                        return Spec.of(shape, self.dtype(), Devices.common("index_select", self, index), dim);
                    },
                    (args, outs, spec) -> {
                        int dim = (Integer) spec.plan();
                        Tensor self = atLeast1d(tensor(args[0])), index = tensor(args[2]), out = atLeast1d(outs[0]);
                        long[] shape = out.impl().shapeRef();
                        Tensor src = restrided(self, shape, with(self.impl().strideRef(), dim, 0));
                        Tensor idx = restrided(longIndex(index), shape, alongDim(longIndex(index), shape.length, dim));
                        IndexLoops.gather(
                                out.impl(),
                                src.impl(),
                                Indexers.one(
                                        idx.impl(),
                                        self.impl().strideRef()[dim],
                                        self.impl().shapeRef()[dim],
                                        false,
                                        OUT_OF_RANGE_IN_SELF));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                indexAdd(zeros(tensor(a[0]).impl().shapeRef(), g[0]), dim(a), tensor(a[2]), g[0]), null
            })
            .deriveJvp(Jvps.linearExcept(2));

    // ---- index_add / index_copy / index_fill ----------------------------------------------------------

    private record SlicePlan(int dim) {}

    /**
     * Scatters {@code source} into {@code out} by a 1-d {@code index} along {@code dim}: element i of source along dim
     * goes to position {@code index[i]}; source's slices broadcast to out's slices.
     */
    private static void indexScatter(
            Tensor out,
            int dim,
            Tensor index,
            Tensor source,
            Reduce op,
            Scalar alpha,
            boolean wrapNegative,
            IndexLoops.OutOfRange error) {
        Tensor o = atLeast1d(out), idx = longIndex(index);
        long[] shape = with(o.impl().shapeRef(), dim, index.numel());
        Tensor dst = restrided(o, shape, with(o.impl().strideRef(), dim, 0));
        long[] srcStrides = new long[shape.length];
        if (source.dim() > 0) {
            long[] sliceShape = remove(o.impl().shapeRef(), dim);
            long[] sliceStrides = Shapes.broadcastStrides(
                    remove(source.impl().shapeRef(), dim), remove(source.impl().strideRef(), dim), sliceShape);
            for (int d = 0, k = 0; d < shape.length; d++)
                srcStrides[d] = d == dim ? source.impl().strideRef()[dim] : sliceStrides[k++];
        }
        Tensor src = restrided(source, shape, srcStrides);
        Tensor ix = restrided(idx, shape, alongDim(idx, shape.length, dim));
        IndexLoops.scatter(
                dst.impl(),
                src.impl(),
                Indexers.one(ix.impl(), o.impl().strideRef()[dim], o.impl().shapeRef()[dim], wrapNegative, error),
                op,
                alpha,
                dim);
    }

    private static long[] remove(long[] a, int i) {
        long[] r = new long[a.length - 1];
        System.arraycopy(a, 0, r, 0, i);
        System.arraycopy(a, i + 1, r, i, a.length - i - 1);
        return r;
    }

    /** ATen's {@code index_func_meta_impl}, the checks of index_add (named by {@code func}). */
    private static int indexFuncChecks(String func, Tensor self, Object dimArg, Tensor index, Tensor source) {
        int dim = Shapes.wrapDim(lng(dimArg), self.dim());
        if (index.dim() > 1) {
            throw new IndexOutOfBoundsException(func + "_(): Index is supposed to be a vector, but got dim: "
                    + index.dim() + " with type: " + index.dtype().cppName() + " and size: "
                    + Shapes.str(index.impl().shapeRef()));
        }
        if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
            throw new TorchException(func + "_(): Expected dtype int32/int64 for index but got: "
                    + index.dtype().cppName());
        }
        if (self.dtype() != source.dtype()) {
            throw new TorchException(func + "_(): self (" + self.dtype().cppName() + ") and source ("
                    + source.dtype().cppName() + ") must have the same scalar type");
        }
        if (dim != 0 && dim >= source.dim()) {
            throw new TorchException(func + "_(): Indexing dim " + dim
                    + " is out of bounds of the source tensor with dim " + source.dim());
        }
        long sourceSize = source.dim() == 0 ? 1 : source.size(dim);
        if (index.numel() != sourceSize) {
            throw new TorchException(func + "_(): Number of indices (" + index.numel()
                    + ") should be equal to source.size(dim): (" + sourceSize + "), for dim: " + dim);
        }
        // the shapes apart from dim must be equal (no broadcasting); a 0-d operand is compared whole
        long[] selfShape = self.impl().shapeRef(), sourceShape = source.impl().shapeRef();
        boolean sliced = self.dim() > 0 && source.dim() > 0;
        if (!Arrays.equals(
                sliced ? remove(selfShape, dim) : selfShape, sliced ? remove(sourceShape, dim) : sourceShape)) {
            throw new TorchException("source tensor shape must match self tensor shape, excluding the specified "
                    + "dimension. Got self.shape = " + Shapes.str(selfShape) + " source.shape = "
                    + Shapes.str(sourceShape));
        }
        return dim;
    }

    /** An alpha of 1 is no scaling; others are kept as the Scalar the user gave (truncated for integral dtypes). */
    private static Scalar scaling(Object alpha) {
        if (alpha == null) return null;
        Scalar a = Scalar.of(alpha);
        return a.doubleValue() == 1 && a.imag() == 0 ? null : a;
    }

    /** ATen's condition for running index_add as a scatter_add along an expanded index. */
    private static boolean runsAsScatterAdd(Tensor out, int dim, Tensor index, Scalar alpha) {
        return out.dim() > 1
                && (dim == 0 || dim == out.dim() - 1)
                && alpha == null
                && index.dtype() == DType.INT64
                && out.dtype() != DType.COMPLEX32;
    }

    /**
     * {@code index_add(self, dim, index, source, alpha=1)}: {@code out[index[i]] += alpha * source[i]} along dim
     * (duplicates accumulate).
     */
    public static final OpDef INDEX_ADD = OpDef.structured(
                    "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]);
                        int dim = indexFuncChecks("index_add", self, args[1], tensor(args[2]), tensor(args[3]));
                        return Spec.of(
                                self.shape(),
                                self.dtype(),
                                Devices.common("index_add", self, args[2], args[3]),
                                new SlicePlan(dim));
                    },
                    (args, outs, spec) -> {
                        copySelf(args, outs[0]);
                        int dim = ((SlicePlan) spec.plan()).dim();
                        Tensor out = outs[0], index = tensor(args[2]), source = tensor(args[3]);
                        Scalar alpha = scaling(args[4]);
                        if (runsAsScatterAdd(out, dim, index, alpha)) {
                            // ATen's index_add_cpu_ hands these to scatter_add: its index errors, and its float
                            // accumulation of float16/bfloat16
                            long[] strides = new long[source.dim()];
                            strides[dim] = index.dim() == 0 ? 0 : index.impl().strideRef()[0];
                            scatterInto(out, dim, restrided(index, source.shape(), strides), source, Reduce.ADD);
                        } else {
                            indexScatter(out, dim, index, source, Reduce.ADD, alpha, false, OUT_OF_RANGE_IN_SELF);
                        }
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) ->
                    new Tensor[] {g[0], null, Grads.scaled(indexSelect(g[0], dim(a), tensor(a[2])), a[4])})
            .deriveJvp(Jvps.linearExcept(2));

    private static void indexCopyChecks(Tensor self, int dim, Tensor index, Tensor source) {
        if (index.dim() >= 2)
            throw new IndexOutOfBoundsException(
                    "index_copy_(): Index should have dimension 1 or 0 (got " + index.dim() + ")");
        long n = index.numel();
        if (source.dim() == 0 && n != 1) {
            throw new IndexOutOfBoundsException(
                    "index_copy_(): When source is scalar, index should have one element (got " + n + ")");
        }
        if (source.dim() != self.dim() && source.dim() != 0 && self.dim() != 0) {
            throw new IndexOutOfBoundsException(
                    "index_copy_(): When source and destination are not scalars, their dimensionality must "
                            + "match. Source dimensionality (" + source.dim() + "), destination dimensionality ("
                            + self.dim() + ")");
        }
        if (index.dtype() != DType.INT64) {
            throw new TorchException("index_copy_(): Expected a long tensor for index, but got "
                    + index.dtype().cppName());
        }
        if (self.dtype() != source.dtype()) {
            throw new TorchException("index_copy_(): self and source expected to have the same dtype, but got (self) "
                    + self.dtype().cppName() + " and (source) " + source.dtype().cppName());
        }
        long[] selfSlice = self.dim() > 0 ? remove(self.impl().shapeRef(), dim) : Shapes.SCALAR;
        long[] sourceSlice = source.dim() > 0 ? remove(source.impl().shapeRef(), dim) : Shapes.SCALAR;
        if (!Arrays.equals(selfSlice, sourceSlice)) {
            throw new TorchException(
                    "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
                            + spaced(selfSlice) + " at dimension " + dim + " and source slice shape: "
                            + spaced(sourceSlice) + " at dimension 0.");
        }
        if (source.dim() != 0 && n != source.size(dim)) {
            throw new IndexOutOfBoundsException("index_copy_(): Number of indices (" + n
                    + ") should be equal to source.size(dim) (" + source.size(dim) + ")");
        }
    }

    /** A size list as ATen streams a vector: {@code 2 4}. */
    private static String spaced(long[] a) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < a.length; i++) sb.append(i > 0 ? " " : "").append(a[i]);
        return sb.toString();
    }

    /**
     * {@code index_copy(self, dim, index, source)}: {@code out[index[i]] = source[i]} along dim; with duplicates the
     * last one wins.
     */
    public static final OpDef INDEX_COPY = OpDef.structured(
                    "index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
                    args -> {
                        Tensor self = tensor(args[0]);
                        int dim = Shapes.wrapDim(lng(args[1]), self.dim());
                        indexCopyChecks(self, dim, tensor(args[2]), tensor(args[3]));
                        return Spec.of(
                                self.shape(),
                                self.dtype(),
                                Devices.common("index_copy", self, args[2], args[3]),
                                new SlicePlan(dim));
                    },
                    (args, outs, spec) -> {
                        copySelf(args, outs[0]);
                        int dim = ((SlicePlan) spec.plan()).dim();
                        indexScatter(
                                outs[0],
                                dim,
                                tensor(args[2]),
                                tensor(args[3]),
                                Reduce.ASSIGN,
                                null,
                                false,
                                outOfBounds(dim, true, "index_copy_(): "));
                    })
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                indexFill(g[0], dim(a), tensor(a[2]), 0L), null, indexSelect(g[0], dim(a), tensor(a[2]))
            })
            .deriveJvp(Jvps.linearExcept(2));

    private static Spec indexFillMeta(Object[] args) {
        Tensor self = tensor(args[0]), index = tensor(args[2]);
        if (index.dtype() != DType.INT64)
            throw new IndexOutOfBoundsException("index_fill_(): Expected dtype int64 for index.");
        if (args[3] instanceof Tensor v) {
            if (v.dim() != 0) {
                throw new TorchException("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                        + v.dim() + " dimension(s).");
            }
        } else {
            Scalar value = Scalar.of(args[3]);
            if (!self.isComplex() && value.isComplex()) {
                throw new TorchException(
                        "index_fill_(): Converting complex Scalar to non-complex type is not supported");
            }
            ScalarConversion.check(value, self.dtype());
        }
        int dim = Shapes.wrapDim(lng(args[1]), Math.max(self.dim(), 1));
        if (index.dim() > 1) throw new TorchException("Index has to be a vector/scalar");
        return Spec.of(self.shape(), self.dtype(), Devices.common("index_fill", self, index), new SlicePlan(dim));
    }

    private static final OpDef.Kernel INDEX_FILL_KERNEL = (args, outs, spec) -> {
        copySelf(args, outs[0]);
        DType dtype = outs[0].dtype();
        Tensor value = Creation.scalarTensor(Scalar.of(0L), dtype);
        if (args[3] instanceof Tensor v) CopyOps.convert(v, value);
        else value = Creation.scalarTensor(Scalar.of(args[3]), dtype);
        int dim = ((SlicePlan) spec.plan()).dim();
        indexScatter(outs[0], dim, tensor(args[2]), value, Reduce.ASSIGN, null, true, outOfBounds(dim, true, ""));
    };

    /**
     * {@code index_fill(self, dim, index, value)}: {@code value} at the index positions along dim (negative positions
     * count from the end).
     */
    public static final OpDef INDEX_FILL = OpDef.structured(
                    "index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
                    ScatterOps::indexFillMeta,
                    INDEX_FILL_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {indexFill(g[0], dim(a), tensor(a[2]), 0L), null})
            .defineJvp((a, o, t) -> new Tensor[] {t[0] == null ? null : indexFill(t[0], dim(a), tensor(a[2]), 0L)});

    /** {@code index_fill(self, dim, index, value)} with a 0-d tensor value. */
    public static final OpDef INDEX_FILL_TENSOR = OpDef.structured(
                    "index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
                    ScatterOps::indexFillMeta,
                    INDEX_FILL_KERNEL)
            .defineVjp(OpDef.Save.INPUTS, (a, o, g) -> new Tensor[] {
                indexFill(g[0], dim(a), tensor(a[2]), 0L), null, indexFillValueGrad(g[0], dim(a), tensor(a[2]))
            })
            .deriveJvp(Jvps.linearExcept(2));

    /**
     * The gradient of index_fill's 0-d value: the sum of the gradient over the filled slices, each slice once however
     * often the index names it (ATen selects by {@code unique(index)}; negative positions are wrapped first, so
     * {@code -1} and {@code size - 1} count as one slice).
     */
    private static Tensor indexFillValueGrad(Tensor g, int dim, Tensor index) {
        if (index.numel() == 0) return null;
        long size = g.dim() == 0 ? 1 : g.size(Shapes.wrapDim(dim, g.dim()));
        Tensor wrapped = TernaryOps.where(index.lt(0L), index.add(size), index);
        return indexSelect(g, dim, SortOps.unique(wrapped)).sum();
    }

    // ---- backward helpers ---------------------------------------------------------------------------

    /** The dim argument (args[1]) of the ops of this family. */
    static int dim(Object[] args) {
        return (int) lng(args[1]);
    }

    /** Zeros of {@code shape} in the gradient's dtype and device: what backward rules scatter into. */
    static Tensor zeros(long[] shape, Tensor like) {
        return Creation.full(shape, 0L, like.dtype(), like.device());
    }

    /**
     * A gradient for {@code src} computed over index's shape, placed into zeros of src's shape: src may be larger than
     * index in any dim, and only its leading corner is read (the elements beyond it get none). Each enlargement is a
     * {@code slice_backward}, which is differentiable. An empty index reads nothing.
     */
    static Tensor srcGrad(Tensor g, Tensor src) {
        if (g.numel() == 0) return null;
        if (src.dim() == 0
                || java.util.Arrays.equals(g.impl().shapeRef(), src.impl().shapeRef())) return g;
        Tensor out = g.dim() < src.dim() ? g.reshape(1) : g; // a 0-d index addresses a 1-d src
        for (int d = 0; d < src.dim(); d++) {
            long have = out.size(d), want = src.size(d);
            if (have == want) continue;
            long[] sizes = out.shape();
            sizes[d] = want;
            out = BackwardOps.sliceBackward(out, sizes, d, 0L, have, 1);
        }
        return out;
    }

    /** {@code src} narrowed to index's shape (the part scatter reads), a view. */
    static Tensor srcUsed(Tensor src, Tensor index) {
        if (src.dim() == 0
                || java.util.Arrays.equals(src.impl().shapeRef(), index.impl().shapeRef())) return src;
        Tensor out = src;
        for (int d = 0; d < src.dim(); d++) {
            long want = index.dim() == 0 ? 1 : index.size(d);
            if (out.size(d) != want) out = ShapeOps.narrow(out, d, 0, want);
        }
        return out;
    }

    // ---- entry points -------------------------------------------------------------------------------

    /** {@code torch.gather(self, dim, index)}. */
    public static Tensor gather(Tensor self, int dim, Tensor index) {
        return GATHER.call1(self, (long) dim, index, false);
    }

    /**
     * {@code torch.gather(self, dim, index, sparse_grad=sparseGrad)}. PyTorch returns self's gradient as a sparse COO
     * tensor when {@code sparseGrad} is set (one entry per gathered element, duplicates uncoalesced); JTorch has no
     * sparse layout, so the gradient is the strided tensor that sparse gradient densifies to ({@code to_dense()}: the
     * same values, duplicates summed), which is what it is without the flag.
     */
    public static Tensor gather(Tensor self, int dim, Tensor index, boolean sparseGrad) {
        return GATHER.call1(self, (long) dim, index, sparseGrad);
    }

    /** {@code torch.scatter(self, dim, index, src)}. */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Tensor src) {
        return SCATTER.call1(self, (long) dim, index, src);
    }

    /**
     * {@code torch.scatter(self, dim, index, value)}: {@code value} is a Java number, {@link Boolean} or
     * {@link Scalar}.
     */
    public static Tensor scatter(Tensor self, int dim, Tensor index, Object value) {
        if (value instanceof Tensor src) return scatter(self, dim, index, src);
        return SCATTER_VALUE.call1(self, (long) dim, index, value);
    }

    /** {@code torch.scatter_add(self, dim, index, src)}. */
    public static Tensor scatterAdd(Tensor self, int dim, Tensor index, Tensor src) {
        return SCATTER_ADD.call1(self, (long) dim, index, src);
    }

    /**
     * {@code torch.scatter_reduce(self, dim, index, src, reduce)}: {@code reduce} is "sum", "prod", "mean", "amax" or
     * "amin".
     */
    public static Tensor scatterReduce(Tensor self, int dim, Tensor index, Tensor src, String reduce) {
        return scatterReduce(self, dim, index, src, reduce, true);
    }

    /** {@code torch.scatter_reduce(self, dim, index, src, reduce, include_self=includeSelf)}. */
    public static Tensor scatterReduce(
            Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return SCATTER_REDUCE.call1(self, (long) dim, index, src, reduce, includeSelf);
    }

    /** {@code torch.index_select(self, dim, index)}. */
    public static Tensor indexSelect(Tensor self, int dim, Tensor index) {
        return INDEX_SELECT.call1(self, (long) dim, index);
    }

    /** {@code torch.index_add(self, dim, index, source)}. */
    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source) {
        return indexAdd(self, dim, index, source, 1L);
    }

    /**
     * {@code torch.index_add(self, dim, index, source, alpha=alpha)}: {@code alpha} is a Java number or {@link Scalar}.
     */
    public static Tensor indexAdd(Tensor self, int dim, Tensor index, Tensor source, Object alpha) {
        return INDEX_ADD.call1(self, (long) dim, index, source, alpha);
    }

    /** {@code torch.index_copy(self, dim, index, source)}. */
    public static Tensor indexCopy(Tensor self, int dim, Tensor index, Tensor source) {
        return INDEX_COPY.call1(self, (long) dim, index, source);
    }

    /**
     * {@code self.index_fill(dim, index, value)}: {@code value} is a Java number, {@link Boolean}, {@link Scalar} or
     * 0-d tensor.
     */
    public static Tensor indexFill(Tensor self, int dim, Tensor index, Object value) {
        return (value instanceof Tensor ? INDEX_FILL_TENSOR : INDEX_FILL).call1(self, (long) dim, index, value);
    }
}

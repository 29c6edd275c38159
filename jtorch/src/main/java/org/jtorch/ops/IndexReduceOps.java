package org.jtorch.ops;

import java.util.Arrays;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.internal.Shapes;

/**
 * The reductions into indexed places that ATen defines over its scatter kernels: {@code index_reduce} (a
 * {@code scatter_reduce} with the 1-d index spread along {@code dim}), {@code put} (an {@code index_copy} or
 * {@code index_add} into the flattened tensor) and {@code scatter(..., reduce=)} (a {@code scatter_reduce} with
 * {@code "sum"} or {@code "prod"}). Each is composite, so its gradients, forward-mode rule and batching come from the
 * ops it is written with; unlike PyTorch, whose {@code scatter(reduce=)} has no derivative, that one is differentiable.
 */
public final class IndexReduceOps {
    private IndexReduceOps() {}

    private static final Set<String> INDEX_REDUCTIONS = Set.of("prod", "mean", "amax", "amin");

    /** {@code index_reduce(self, dim, index, source, reduce, *, include_self=True)}. */
    public static final OpDef INDEX_REDUCE = OpDef.composite(
            "index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, "
                    + "bool include_self=True) -> Tensor",
            a -> reduceInto(
                    (Tensor) a[0],
                    ((Number) a[1]).longValue(),
                    (Tensor) a[2],
                    (Tensor) a[3],
                    (String) a[4],
                    a[5] == null || (Boolean) a[5]));

    /** {@code scatter.reduce(self, dim, index, src, *, reduce)}: "add" or "multiply" into the indexed places. */
    public static final OpDef SCATTER_REDUCE_LEGACY = OpDef.composite(
            "scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor", a -> {
                String r = legacyReduction((String) a[4]);
                Warnings.warnOnce(
                        Warnings.Category.USER_WARNING,
                        "The reduce argument of torch.scatter with Tensor src is "
                                + "deprecated and will be removed in a future PyTorch release. Use "
                                + "torch.scatter_reduce instead for more reduction options.");
                return ScatterOps.SCATTER_REDUCE.call1(a[0], a[1], a[2], a[3], r, true);
            });

    /** {@code scatter.value_reduce(self, dim, index, value, *, reduce)}: the scalar "add"ed or "multiply"d in. */
    public static final OpDef SCATTER_VALUE_REDUCE = OpDef.composite(
            "scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor", a -> {
                String r = legacyReduction((String) a[4]);
                Tensor self = (Tensor) a[0], index = (Tensor) a[2];
                Tensor src = Creation.full(index.shape(), a[3], self.dtype(), self.device());
                return ScatterOps.SCATTER_REDUCE.call1(self, a[1], index, src, r, true);
            });

    private static String legacyReduction(String reduce) {
        return switch (reduce) {
            case "add" -> "sum";
            case "multiply" -> "prod";
            default -> throw new TorchException("reduce argument must be either add or multiply.");
        };
    }

    private static Tensor reduceInto(
            Tensor self, long dimArg, Tensor index, Tensor source, String reduce, boolean includeSelf) {
        if (!INDEX_REDUCTIONS.contains(reduce)) {
            throw new TorchException(
                    "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got " + reduce + ".");
        }
        Warnings.warnOnce(
                Warnings.Category.USER_WARNING, "index_reduce() is in beta and the API may change at any time.");
        int dim = Shapes.wrapDim(dimArg, Math.max(self.dim(), 1));
        if (index.dim() > 1) {
            throw new IndexOutOfBoundsException("index_reduce_(): Index is supposed to be a vector, but got dim: "
                    + index.dim() + " with type: " + index.dtype().cppName() + " and size: "
                    + Shapes.str(index.shape()));
        }
        if (index.dtype() != DType.INT64 && index.dtype() != DType.INT32) {
            throw new TorchException("index_reduce_(): Expected dtype int32/int64 for index but got: "
                    + index.dtype().cppName());
        }
        long sourceSize = source.dim() == 0 ? 1 : source.size(dim);
        if (index.numel() != sourceSize) {
            throw new TorchException("index_reduce_(): Number of indices (" + index.numel()
                    + ") should be equal to source.size(dim): (" + sourceSize + "), for dim: " + dim);
        }
        if (self.dtype() != source.dtype()) {
            throw new TorchException("index_reduce_(): self (" + self.dtype().cppName() + ") and source ("
                    + source.dtype().cppName() + ") must have the same scalar type");
        }
        long[] selfShape = self.shape(), sourceShape = source.shape();
        boolean match = selfShape.length == sourceShape.length;
        for (int d = 0; match && d < selfShape.length; d++) match = d == dim || selfShape[d] == sourceShape[d];
        if (!match && !(self.dim() <= 1 && source.dim() <= 1)) {
            throw new TorchException("source tensor shape must match self tensor shape, excluding the specified "
                    + "dimension. Got self.shape = " + Shapes.str(selfShape) + " source.shape = "
                    + Shapes.str(sourceShape));
        }
        checkRange(index, self.dim() == 0 ? 1 : self.size(dim));
        // the 1-d index placed along dim and spread over source's other dims: scatter_reduce's index
        long[] along = new long[Math.max(source.dim(), 1)];
        Arrays.fill(along, 1);
        along[dim] = index.numel();
        Tensor spread = index.to(DType.INT64).reshape(along).expand(sourceShape.length == 0 ? along : sourceShape);
        return ScatterOps.SCATTER_REDUCE.call1(self, (long) dim, spread, source, reduce, includeSelf);
    }

    /** Every index in [0, size), checked before any write: PyTorch's index_reduce error otherwise. */
    private static void checkRange(Tensor index, long size) {
        // without readable values (meta, fake, vmapped) the kernels' own bounds checks apply
        boolean readable = index.impl().hasData() && index.transformPayload() == null;
        if (!readable || index.numel() == 0) return;
        for (long i : index.toLongArray()) {
            if (i >= size || i < 0) throw new IndexOutOfBoundsException("index out of range in self");
        }
    }

    /** {@code torch.index_reduce(self, dim, index, source, reduce, include_self=...)}. */
    public static Tensor indexReduce(
            Tensor self, long dim, Tensor index, Tensor source, String reduce, boolean includeSelf) {
        return INDEX_REDUCE.call1(self, dim, index, source, reduce, includeSelf);
    }

    /** {@code torch.scatter(self, dim, index, src, reduce=reduce)}. */
    public static Tensor scatter(Tensor self, long dim, Tensor index, Tensor src, String reduce) {
        return SCATTER_REDUCE_LEGACY.call1(self, dim, index, src, reduce);
    }

    /** {@code torch.scatter(self, dim, index, value, reduce=reduce)}. */
    public static Tensor scatter(Tensor self, long dim, Tensor index, Number value, String reduce) {
        return SCATTER_VALUE_REDUCE.call1(self, dim, index, value, reduce);
    }
}

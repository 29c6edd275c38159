package org.jtorch.ops;

import static org.jtorch.ops.ScatterOps.dim;
import static org.jtorch.ops.ScatterOps.gather;
import static org.jtorch.ops.ScatterOps.scatter;
import static org.jtorch.ops.ScatterOps.scatterAdd;
import static org.jtorch.ops.ScatterOps.srcGrad;
import static org.jtorch.ops.ScatterOps.srcUsed;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;

/**
 * The backward of {@code scatter_reduce} (ATen's {@code scatter_reduce_backward}), one formula per reduction, written
 * with differentiable ops (the forward op itself among them) so that it can be differentiated again. Only the part of
 * src that index covers takes part: the formulas run on that part and its gradient is placed into zeros of src's shape.
 */
final class ScatterReduceGrads {
    private ScatterReduceGrads() {}

    /**
     * Gradients for (self, index, src) of {@code scatter_reduce(self, dim, index, src, reduce, include_self) = result}.
     */
    static Tensor[] of(Object[] args, Tensor result, Tensor grad) {
        if (((Tensor) args[2]).numel() == 0)
            return new Tensor[] {grad, null, null}; // nothing was reduced: the result is self
        Tensor self = (Tensor) args[0], index = (Tensor) args[2], src = srcUsed((Tensor) args[3], index);
        int dim = dim(args);
        String reduce = (String) args[4];
        boolean includeSelf = args[5] == null || (Boolean) args[5];
        Tensor[] g =
                switch (reduce) {
                    case "sum" -> new Tensor[] {grad, gather(grad, dim, index)};
                    case "mean" -> mean(grad, dim, index, src, includeSelf);
                    case "prod" -> prod(grad, self, dim, index, src, result, includeSelf);
                    case "amax", "amin" -> extremum(grad, self, dim, index, src, result, includeSelf);
                    // the forward's aliases "max" and "min" have no backward in PyTorch either
                    default ->
                        throw new TorchException("Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                                + "'amin' but got " + reduce + ".");
                };
        Tensor gradSelf = includeSelf ? g[0] : scatter(g[0], dim, index, 0L); // self was not part of the reached places
        return new Tensor[] {gradSelf, null, srcGrad(g[1], (Tensor) args[3])};
    }

    /** Each place's gradient shared by the values it averaged (the count as the forward computed it, 0 read as 1). */
    private static Tensor[] mean(Tensor grad, int dim, Tensor index, Tensor src, boolean includeSelf) {
        Tensor n = Creation.full(grad.impl().shapeRef(), includeSelf ? 1L : 0L, grad.dtype(), grad.device());
        n = scatterAdd(n, dim, index, Creation.full(src.impl().shapeRef(), 1L, grad.dtype(), grad.device()));
        n = TernaryOps.where(n.eq(0L), 1L, n);
        return new Tensor[] {grad.div(n), gather(grad, dim, index).div(gather(n, dim, index))};
    }

    /**
     * Each factor's gradient is the product of the other factors of its place. For self that is the result with self's
     * zeros read as 1. For src, {@code result / src} where src is non-zero; a zero of src that is alone at its place
     * gets the product of the place with it read as 1; where several zeros meet, every factor's gradient is 0, which is
     * right, but the formula's own derivative is not the second derivative, so it goes through an op whose backward
     * raises (PyTorch's DelayedError).
     */
    private static Tensor[] prod(
            Tensor grad, Tensor self, int dim, Tensor index, Tensor src, Tensor result, boolean includeSelf) {
        Tensor maskedSelf = TernaryOps.maskedFill(self, self.eq(0L), 1L);
        Tensor gradSelf = grad.mul(Grads.conj(
                reduce(maskedSelf, dim, index, src, "prod", includeSelf).div(maskedSelf)));
        Tensor srcZero = src.eq(0L);
        Tensor counts = Creation.full(self.impl().shapeRef(), 0L, DType.INT64, self.device());
        Tensor zerosAtPlace = gather(scatterAdd(counts, dim, index, srcZero.to(DType.INT64)), dim, index);
        Tensor singleZero = PointwiseOps.LOGICAL_AND.call1(srcZero, zerosAtPlace.eq(1L));
        Tensor maskedSrcResult =
                reduce(self, dim, index, TernaryOps.maskedFill(src, singleZero, 1L), "prod", includeSelf);
        Tensor gradSrc = TernaryOps.where(
                singleZero,
                gather(grad.mul(Grads.conj(maskedSrcResult)), dim, index),
                gather(grad.mul(Grads.conj(result)), dim, index)
                        .div(Grads.conj(TernaryOps.maskedFill(src, srcZero, 1L))));
        if (DispatchState.current().isGradEnabled() && zerosAtPlace.gt(1L).any().item() != 0) {
            gradSrc = ScatterOps.SCATTER_REDUCE_PROD_SRC_GRAD.call1(gradSrc);
        }
        return new Tensor[] {gradSelf, gradSrc};
    }

    /**
     * Each place's gradient shared evenly by the values equal to its result (NaN ties NaN), as amax's. Without
     * include_self the self values of the reached places were not candidates, so they are not counted (PyTorch counts
     * them when they happen to equal the result and then drops their share).
     */
    private static Tensor[] extremum(
            Tensor grad, Tensor self, int dim, Tensor index, Tensor src, Tensor result, boolean includeSelf) {
        Tensor value = gather(result, dim, index);
        Tensor selfTies = ties(self, result);
        if (!includeSelf) selfTies = scatter(selfTies, dim, index, false);
        Tensor selfIs = selfTies.to(grad.dtype()), srcIs = ties(src, value).to(grad.dtype());
        Tensor n = scatterAdd(selfIs, dim, index, srcIs);
        Tensor share = grad.div(TernaryOps.where(n.eq(0L), 1L, n));
        return new Tensor[] {selfIs.mul(share), srcIs.mul(gather(share, dim, index))};
    }

    private static Tensor ties(Tensor a, Tensor b) {
        return PointwiseOps.LOGICAL_OR.call1(a.eq(b), PointwiseOps.LOGICAL_AND.call1(a.isnan(), b.isnan()));
    }

    private static Tensor reduce(Tensor self, int dim, Tensor index, Tensor src, String reduce, boolean includeSelf) {
        return ScatterOps.scatterReduce(self, dim, index, src, reduce, includeSelf);
    }
}

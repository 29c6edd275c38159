package org.jtorch.ops;

import org.jtorch.DType;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.DefaultDtype;

/**
 * {@code isclose}: {@code |self − other| ≤ atol + rtol·|other|} element-wise, written with the pointwise ops exactly as
 * ATen composes it, so that every intermediate rounds in the same dtype as PyTorch's. Equal values are close (so equal
 * infinities are), NaN is close to NaN only with {@code equal_nan}, and a non-finite difference is never within
 * tolerance. Integer and bool inputs are compared exactly for equality, and against the tolerance in the default dtype,
 * as PyTorch does (a cast first, so that unsigned differences cannot wrap). {@code allclose} is
 * {@code isclose(...).all()} read as a boolean, as in ATen ({@code Tensor.allclose}).
 */
public final class CloseOps {
    private CloseOps() {}

    /** {@code isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False)}: a bool tensor of the broadcast shape. */
    public static final OpDef ISCLOSE = OpDef.composite(
            "isclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> Tensor",
            a -> closeness(
                    (Tensor) a[0],
                    (Tensor) a[1],
                    ((Number) a[2]).doubleValue(),
                    ((Number) a[3]).doubleValue(),
                    Boolean.TRUE.equals(a[4])),
            OpDef.Flag.POINTWISE);

    /** {@code torch.isclose(self, other, rtol, atol, equal_nan)}. */
    public static Tensor isclose(Tensor self, Tensor other, double rtol, double atol, boolean equalNan) {
        return ISCLOSE.call1(self, other, rtol, atol, equalNan);
    }

    /** ATen's composition; the checks come in its order: dtypes, then rtol, then atol. */
    private static Tensor closeness(Tensor self, Tensor other, double rtol, double atol, boolean equalNan) {
        if (self.dtype() != other.dtype()) {
            throw new TorchException(
                    self.dtype().cppName() + " did not match " + other.dtype().cppName());
        }
        // written so that NaN fails too, as ATen's TORCH_CHECK(rtol >= 0) does
        if (!(rtol >= 0)) {
            throw new TorchException("rtol must be greater than or equal to zero, but got " + RandomOps.cpp(rtol));
        }
        if (!(atol >= 0)) {
            throw new TorchException("atol must be greater than or equal to zero, but got " + RandomOps.cpp(atol));
        }
        Tensor close = self.eq(other);
        boolean inexact = self.dtype().isFloatingPoint() || self.dtype().isComplex();
        if (equalNan && inexact) {
            Tensor bothNan = PointwiseOps.LOGICAL_AND.call1(self.isnan(), other.isnan());
            close = PointwiseOps.LOGICAL_OR.call1(close, bothNan);
        }
        // zero tolerances mean plain equality: the check below, in the default dtype, would call distinct large
        // integers that round to one float close
        if (rtol == 0 && atol == 0) return close;
        DType compute = inexact ? self.dtype() : DefaultDtype.get();
        Tensor a = self.to(compute), b = other.to(compute);
        Tensor allowed = b.mul(rtol).abs().add(atol);
        Tensor actual = a.sub(b).abs();
        Tensor within = PointwiseOps.LOGICAL_AND.call1(PointwiseOps.ISFINITE.call1(actual), actual.le(allowed));
        return PointwiseOps.LOGICAL_OR.call1(close, within);
    }
}

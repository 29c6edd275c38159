package org.jtorch.distributions;

import java.util.Arrays;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code AffineTransform(loc, scale, event_dim)}: {@code y = loc + scale x}; its log-Jacobian is {@code log |scale|}
 * (summed over {@code event_dim} rightmost dims). Bounds given as Python numbers stay numbers, as in PyTorch: they
 * compute in the value's dtype and {@code log |scale|} in double precision.
 */
public final class AffineTransform extends Transform {
    private final Tensor loc;
    private final Tensor scale;
    private final double locNumber;
    private final double scaleNumber;

    /** {@code AffineTransform(loc, scale)}, elementwise. */
    public AffineTransform(Tensor loc, Tensor scale) {
        this(loc, scale, 0);
    }

    /** {@code AffineTransform(loc, scale, event_dim)}. */
    public AffineTransform(Tensor loc, Tensor scale, int eventDim) {
        super(eventDim);
        this.loc = loc;
        this.scale = scale;
        this.locNumber = Double.NaN;
        this.scaleNumber = Double.NaN;
    }

    /** {@code AffineTransform(loc, scale)} with Python numbers. */
    public AffineTransform(double loc, double scale) {
        super(0);
        this.loc = null;
        this.scale = null;
        this.locNumber = loc;
        this.scaleNumber = scale;
    }

    private boolean numbers() {
        return loc == null;
    }

    @Override
    public Tensor apply(Tensor x) {
        return numbers() ? x.mul(scaleNumber).add(locNumber) : loc.add(scale.mul(x));
    }

    @Override
    public Tensor inv(Tensor y) {
        return numbers() ? y.sub(locNumber).div(scaleNumber) : y.sub(loc).div(scale);
    }

    @Override
    public Tensor logAbsDetJacobian(Tensor x, Tensor y) {
        if (numbers()) return Torch.fullLike(x, Math.log(Math.abs(scaleNumber)));
        long[] shape = x.shape();
        Tensor result = scale.abs().log();
        if (eventDim() > 0) {
            result = Params.sumRightmost(result, Math.min(eventDim(), result.dim()));
            shape = Arrays.copyOf(shape, shape.length - eventDim());
        }
        return result.expand(shape);
    }

    @Override
    Tensor sign() {
        if (!numbers()) return scale.sign();
        return scaleNumber > 0 ? null : Params.scalar(Math.signum(scaleNumber));
    }

    @Override
    Constraint codomain() {
        return Constraint.REAL;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof AffineTransform a) || a.eventDim() != eventDim() || a.numbers() != numbers()) return false;
        if (numbers()) return a.locNumber == locNumber && a.scaleNumber == scaleNumber;
        return same(a.loc, loc) && same(a.scale, scale);
    }

    /** PyTorch's {@code __eq__}: the same values (element by element, as {@code (a == b).all()}). */
    private static boolean same(Tensor a, Tensor b) {
        return Arrays.equals(a.shape(), b.shape()) && a.eq(b).all().item() != 0;
    }

    @Override
    public int hashCode() {
        return eventDim();
    }
}

package org.jtorch.distributions;

import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.Torch;

/**
 * {@code torch.distributions.transforms.Transform}: an invertible map with the log of its Jacobian's absolute
 * determinant, written in differentiable ops. The transforms here act elementwise ({@code event_dim} 0) unless made
 * with an event dim ({@link AffineTransform}), and are bijective and monotone, so {@link #sign()} says their direction.
 */
public abstract class Transform {
    private final int eventDim;

    Transform(int eventDim) {
        this.eventDim = eventDim;
    }

    /** {@code domain.event_dim} (equal to {@code codomain.event_dim} for these transforms). */
    public int eventDim() {
        return eventDim;
    }

    /** {@code t(x)}. */
    public abstract Tensor apply(Tensor x);

    /** {@code t.inv(y)}. */
    public abstract Tensor inv(Tensor y);

    /** {@code log |dy/dx|}, elementwise over the event dims not summed (see {@link #eventDim()}). */
    public abstract Tensor logAbsDetJacobian(Tensor x, Tensor y);

    /** The direction of a monotone transform: null for increasing, else a tensor of +1 / -1 ({@code sign}). */
    Tensor sign() {
        return null;
    }

    /** The values the transform maps onto ({@code codomain}). */
    abstract Constraint codomain();

    /** {@code ExpTransform()}: {@code y = exp(x)}. */
    public static final class ExpTransform extends Transform {
        /** The transform. */
        public ExpTransform() {
            super(0);
        }

        @Override
        public Tensor apply(Tensor x) {
            return x.exp();
        }

        @Override
        public Tensor inv(Tensor y) {
            return y.log();
        }

        @Override
        public Tensor logAbsDetJacobian(Tensor x, Tensor y) {
            return x;
        }

        @Override
        Constraint codomain() {
            return Constraint.POSITIVE;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ExpTransform;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** {@code SigmoidTransform()}: {@code y = sigmoid(x)}, clipped into {@code [tiny, 1 - eps]} as PyTorch clips it. */
    public static final class SigmoidTransform extends Transform {
        /** The transform. */
        public SigmoidTransform() {
            super(0);
        }

        @Override
        public Tensor apply(Tensor x) {
            return x.sigmoid().clamp(Params.tiny(x.dtype()), 1.0 - Params.eps(x.dtype()));
        }

        @Override
        public Tensor inv(Tensor y) {
            Tensor c = y.clamp(Params.tiny(y.dtype()), 1.0 - Params.eps(y.dtype()));
            return c.log().sub(Torch.log1p(c.neg()));
        }

        @Override
        public Tensor logAbsDetJacobian(Tensor x, Tensor y) {
            return Params.softplus(x.neg()).neg().sub(Params.softplus(x));
        }

        @Override
        Constraint codomain() {
            return Constraint.UNIT_INTERVAL;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SigmoidTransform;
        }

        @Override
        public int hashCode() {
            return 2;
        }
    }

    /** {@code TanhTransform()}: {@code y = tanh(x)}; the inverse is {@code atanh}, unclamped, as in PyTorch. */
    public static final class TanhTransform extends Transform {
        /** The transform. */
        public TanhTransform() {
            super(0);
        }

        @Override
        public Tensor apply(Tensor x) {
            return x.tanh();
        }

        @Override
        public Tensor inv(Tensor y) {
            return Torch.atanh(y);
        }

        @Override
        public Tensor logAbsDetJacobian(Tensor x, Tensor y) {
            // 2 (log 2 - x - softplus(-2x)): log(1 - tanh(x)^2) without its cancellation
            return x.neg().sub(Params.softplus(x.mul(-2.0))).add(Math.log(2.0)).mul(2.0);
        }

        @Override
        Constraint codomain() {
            return Constraint.interval(-1.0, 1.0);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof TanhTransform;
        }

        @Override
        public int hashCode() {
            return 3;
        }
    }

    /** {@code ComposeTransform(parts)}: the parts applied in order. */
    public static final class ComposeTransform extends Transform {
        private final List<Transform> parts;

        /** The composition {@code parts[n-1] ∘ ... ∘ parts[0]}. */
        public ComposeTransform(List<Transform> parts) {
            super(parts.stream().mapToInt(Transform::eventDim).max().orElse(0));
            this.parts = List.copyOf(parts);
        }

        /** The parts, in application order. */
        public List<Transform> parts() {
            return parts;
        }

        @Override
        public Tensor apply(Tensor x) {
            for (Transform t : parts) x = t.apply(x);
            return x;
        }

        @Override
        public Tensor inv(Tensor y) {
            for (int i = parts.size() - 1; i >= 0; i--) y = parts.get(i).inv(y);
            return y;
        }

        @Override
        public Tensor logAbsDetJacobian(Tensor x, Tensor y) {
            if (parts.isEmpty()) return Torch.zerosLike(x);
            Tensor result = null;
            for (int i = 0; i < parts.size(); i++) {
                Transform part = parts.get(i);
                Tensor next = i == parts.size() - 1 ? y : part.apply(x);
                Tensor term = Params.sumRightmost(part.logAbsDetJacobian(x, next), eventDim() - part.eventDim());
                result = result == null ? term : result.add(term);
                x = next;
            }
            return result;
        }

        @Override
        Tensor sign() {
            Tensor s = null;
            for (Transform t : parts) {
                Tensor ts = t.sign();
                if (ts != null) s = s == null ? ts : s.mul(ts);
            }
            return s;
        }

        @Override
        Constraint codomain() {
            return parts.isEmpty() ? Constraint.REAL : parts.getLast().codomain();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ComposeTransform c && c.parts.equals(parts);
        }

        @Override
        public int hashCode() {
            return parts.hashCode();
        }
    }
}

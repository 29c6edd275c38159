package org.jtorch.ops;

import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;

/**
 * Building blocks for forward-mode (JVP) rules, PyTorch's {@code derivatives.yaml} {@code result:} shorthands. A rule
 * gets the op's arguments, its outputs and one tangent per tensor argument (null = zero) and returns one tangent per
 * output (null = zero); it may return a broadcastable shape or the compute dtype, which forward AD conforms to the
 * output's.
 */
public final class Jvps {
    private Jvps() {}

    /**
     * {@code auto_linear}: for an op linear in its tensor arguments (views, shape ops, joins, sums), the tangent is the
     * op applied to the tangents. Tensor arguments without a tangent, integer ones (a promoted {@code cat}) and wrapped
     * scalars in tensor positions contribute zeros. For an op that also takes tensors it is not differentiable in
     * (indices, masks, conditions), use {@link #linearExcept}.
     */
    public static OpDef.Jvp linear(OpDef op) {
        return linear(op, new int[0]);
    }

    /**
     * {@code auto_linear} for an op linear in its tensor arguments except those at {@code constantArgs} (schema
     * positions of indices, masks, conditions: {@code non_differentiable} in PyTorch's {@code derivatives.yaml}), which
     * keep their values. Use as {@code deriveJvp(Jvps.linearExcept(2))}.
     */
    public static Function<OpDef, OpDef.Jvp> linearExcept(int... constantArgs) {
        return op -> linear(op, constantArgs);
    }

    private static OpDef.Jvp linear(OpDef op, int[] constantArgs) {
        boolean[] data = dataArguments(op.schema(), constantArgs);
        return (a, o, t) -> {
            Object[] args = a.clone();
            int k = 0;
            for (int i = 0; i < args.length; i++) {
                boolean isData = i >= data.length || data[i];
                if (args[i] instanceof Tensor x) {
                    Tensor tangent = t[k++];
                    if (isData) args[i] = tangent != null ? tangent : Creation.zerosLike(x);
                } else if (args[i] instanceof Tensor[] xs) {
                    Tensor[] ts = new Tensor[xs.length];
                    for (int j = 0; j < xs.length; j++, k++) {
                        ts[j] = xs[j] == null || !isData ? xs[j] : t[k] != null ? t[k] : Creation.zerosLike(xs[j]);
                    }
                    args[i] = ts;
                } else if (isData && i < data.length && (args[i] instanceof Number || args[i] instanceof Scalar)) {
                    args[i] = 0L; // a wrapped scalar where the schema has a Tensor: a constant
                }
            }
            Object r = Dispatcher.call(op, args);
            return r instanceof Tensor out ? new Tensor[] {out} : (Tensor[]) r;
        };
    }

    /** Per schema argument: whether it holds tensors the op is linear in (a tensor type, not a constant). */
    private static boolean[] dataArguments(Schema schema, int[] constantArgs) {
        List<Schema.Argument> params = schema.arguments();
        boolean[] data = new boolean[params.size()];
        for (int i = 0; i < data.length; i++) data[i] = params.get(i).type().holdsTensors();
        for (int c : constantArgs) {
            if (c < 0 || c >= data.length || !data[c]) {
                throw new IllegalArgumentException(schema.qualifiedName() + ": argument " + c + " is not a tensor");
            }
            data[c] = false;
        }
        return data;
    }

    /**
     * {@code auto_element_wise}: for an elementwise op whose VJP is {@code g * conj(∂f/∂x_i)} (real, or holomorphic in
     * each complex input), the tangent is {@code Σ_i conj(vjp_i(conj(t_i)))}. Not for non-holomorphic complex ops (abs,
     * angle, sgn, real parts), which need their own rule.
     */
    public static OpDef.Jvp elementwise(OpDef op) {
        return (a, o, t) -> {
            Tensor out = o[0], sum = null;
            for (int i = 0; i < t.length; i++) {
                if (t[i] == null) continue;
                Tensor g = Grads.conj(t[i]);
                if (g.dtype() != out.dtype()) g = g.to(out.dtype());
                if (!java.util.Arrays.equals(g.impl().shapeRef(), out.impl().shapeRef())) g = g.expand(out.shape());
                boolean[] only = new boolean[t.length];
                only[i] = true;
                Tensor[] gs = {g};
                Tensor[] grads = op.vjp().apply(a, o, gs, InputMask.of(only));
                if (grads[i] != null) sum = plus(sum, Grads.conj(grads[i]));
            }
            return new Tensor[] {sum};
        };
    }

    /** For ops whose derivative is zero wherever it exists (floor, sign, round...): a zero tangent per output. */
    public static OpDef.Jvp zero(OpDef op) {
        return (a, o, t) -> {
            Tensor[] r = new Tensor[o.length];
            for (int j = 0; j < o.length; j++)
                if (o[j].isFloatingPoint() || o[j].isComplex()) r[j] = Creation.zerosLike(o[j]);
            return r;
        };
    }

    /** {@code a + b} where null is zero. */
    public static Tensor plus(Tensor a, Tensor b) {
        if (a == null) return b;
        if (b == null) return a;
        return a.add(b);
    }

    /** {@code a - b} where null is zero. */
    public static Tensor minus(Tensor a, Tensor b) {
        if (b == null) return a;
        if (a == null) return b.neg();
        return a.sub(b);
    }

    /** {@code t * factor} (a tensor, a number or a {@link Scalar}, not conjugated) where a null tangent stays null. */
    public static Tensor times(Tensor t, Object factor) {
        if (t == null) return null;
        if (factor instanceof Tensor f) return t.mul(f);
        Scalar s = Scalar.of(factor);
        if (s.isComplex()) return t.mul(Creation.scalarTensor(s, t.dtype().toComplex()));
        return s.isIntegral() ? t.mul(s.longValue()) : t.mul(s.doubleValue());
    }

    /**
     * For a reduction whose every output element depends only on its own slice of the input (sum-like, prod, amax/amin,
     * logsumexp, var/std, norms): the tangent is {@code Σ_slice conj(∂out/∂x)·t}, the partial derivatives read off the
     * VJP with a unit output gradient. The real part is what a real output of a complex input (norms, var) needs, and
     * forward AD takes it on conforming.
     *
     * @param dimsArg the argument holding the reduced dims ({@code long[]}, null or empty = all), or -1 for all
     * @param keepdimArg the argument holding keepdim, or -1 for false
     */
    public static OpDef.Jvp reduction(OpDef op, int dimsArg, int keepdimArg) {
        return (a, o, t) -> {
            if (t[0] == null) return new Tensor[o.length];
            Tensor[] ones = new Tensor[o.length];
            for (int j = 0; j < o.length; j++)
                ones[j] =
                        o[j].isFloatingPoint() || o[j].isComplex() ? Creation.onesLike(o[j]) : Creation.zerosLike(o[j]);
            Tensor d = op.vjp().apply(a, o, ones, InputMask.of(true))[0];
            if (d == null) return new Tensor[o.length]; // a derivative that is zero wherever it exists (ord-0 norms)
            long[] dims = dimsArg < 0 ? null : (long[]) a[dimsArg];
            if (dims != null && dims.length == 0) dims = null;
            boolean keepdim = keepdimArg >= 0 && Boolean.TRUE.equals(a[keepdimArg]);
            Tensor prod = Grads.conj(d).mul(t[0]);
            Tensor[] r = new Tensor[o.length];
            r[0] = ReductionOps.SUM.call1(prod, dims, keepdim, null);
            return r;
        };
    }

    /**
     * For ops that return (values, indices) picked from {@code self} along {@code dim} (sort, topk, cummax, kthvalue,
     * max.dim): the values' tangent is the tangent picked at the same indices.
     *
     * @param keepdimArg the argument holding keepdim for reductions (-1: indices have self's rank)
     */
    public static OpDef.Jvp selected(int dimArg, int keepdimArg) {
        return (a, o, t) -> {
            if (t[0] == null) return new Tensor[o.length];
            long dim = ((Number) a[dimArg]).longValue();
            Tensor values = keepdimArg < 0
                    ? ScatterOps.GATHER.call1(t[0], dim, o[1], false)
                    : BackwardOps.VALUE_SELECTING_REDUCTION_GATHER.call1(
                            t[0], dim, o[1], Boolean.TRUE.equals(a[keepdimArg]));
            return new Tensor[] {values, null};
        };
    }

    /**
     * The JVP as the transpose of the VJP, for any op whose VJP is written in differentiable ops: with a dummy
     * cotangent {@code u}, {@code Re<u, J t> = Re<vjp(u), t>}, so {@code J t} is the gradient of {@code Re Σ
     * conj(vjp(u)) · t} with respect to {@code u} (the VJP is linear in {@code u}): the backward of {@code vjp(u)}
     * seeded with {@code t}. Seeding rather than differentiating a loss built from {@code t} keeps the differentiated
     * graph free of the tangents, so tangents batched by vmap batch the seeds only, as a vmapped backward pass does.
     * Costs a VJP and its backward; use it where no closed form is cheaper (cumprod, scatter_reduce, polar).
     */
    public static OpDef.Jvp transposedVjp(OpDef op) {
        return (a, o, t) -> {
            try (var _ = DispatchState.gradEnabled(true)) {
                Tensor[] us = new Tensor[o.length];
                java.util.List<Tensor> wrt = new java.util.ArrayList<>();
                for (int j = 0; j < o.length; j++) {
                    us[j] = Creation.zerosLike(o[j]);
                    if (o[j].isFloatingPoint() || o[j].isComplex()) wrt.add(us[j].requiresGrad(true));
                }
                boolean[] mask = new boolean[t.length];
                for (int i = 0; i < t.length; i++) mask[i] = t[i] != null;
                Tensor[] grads = op.vjp().apply(a, o, us, InputMask.of(mask));
                java.util.List<Tensor> linear = new java.util.ArrayList<>(), seeds = new java.util.ArrayList<>();
                for (int i = 0; i < t.length; i++) {
                    if (t[i] == null || grads[i] == null || !grads[i].requiresGrad()) continue;
                    // a real tangent meets only the real part of a complex gradient: Re(conj(g) t) = Re(g) t
                    Tensor g = grads[i].isComplex() && !t[i].isComplex() ? ComplexOps.real(grads[i]) : grads[i];
                    linear.add(g);
                    // a VJP may leave a broadcast input's gradient unreduced: the tangent broadcasts as in conj(g) t
                    seeds.add(Arrays.equals(t[i].shape(), g.shape()) ? t[i] : t[i].expand(g.shape()));
                }
                Tensor[] r = new Tensor[o.length];
                if (linear.isEmpty()) return r;
                java.util.List<Tensor> jt = Execution.autograd().gradWithGraph(linear, seeds, wrt);
                for (int j = 0, k = 0; j < o.length; j++) if (us[j].requiresGrad()) r[j] = jt.get(k++);
                return r;
            }
        };
    }

    /**
     * For a product bilinear in its first two (tensor) arguments (mm, bmm, mv, dot, vdot): {@code op(ta, b) + op(a,
     * tb)}.
     */
    public static OpDef.Jvp bilinear(OpDef op) {
        return (a, o, t) -> {
            Tensor r = null;
            for (int k = 0; k < 2; k++) {
                if (t[k] == null) continue;
                Object[] args = a.clone();
                args[k] = t[k];
                r = plus(r, op.call1(args));
            }
            return new Tensor[] {r};
        };
    }
}

package org.jtorch.ops;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Scalar;
import org.jtorch.Tensor;

/**
 * Small helpers for writing backward rules: aligning gradients with an op's tensor arguments, and the conjugations of
 * PyTorch's complex convention (the gradient of {@code a * b} with respect to {@code a} is {@code g * conj(b)}).
 */
final class Grads {
    private Grads() {}

    /**
     * One gradient per tensor argument, in argument order: {@code perArg[i]} belongs to {@code args[i]} and is dropped
     * when that argument is not a tensor (a Java scalar gets no gradient).
     */
    static Tensor[] forTensorArgs(Object[] args, Tensor... perArg) {
        List<Tensor> out = new ArrayList<>(perArg.length);
        for (int i = 0; i < perArg.length && i < args.length; i++) {
            if (args[i] instanceof Tensor) out.add(perArg[i]);
        }
        return out.toArray(Tensor[]::new);
    }

    /** The conjugate of a complex tensor; real tensors as they are. */
    static Tensor conj(Tensor t) {
        return t.isComplex() ? ComplexOps.conj(t) : t;
    }

    /** {@code g * conj(factor)}, where the factor may be a tensor or a Java scalar. */
    static Tensor times(Tensor g, Object factor) {
        if (factor instanceof Tensor f) return g.mul(conj(f));
        Scalar s = Scalar.of(factor);
        if (s.isComplex())
            return g.mul(Creation.scalarTensor(
                    Scalar.complex(s.doubleValue(), -s.imag()), g.dtype().toComplex()));
        return s.isIntegral() ? g.mul(s.longValue()) : g.mul(s.doubleValue());
    }

    /** {@code g * conj(s)} for an optional scalar factor ({@code null} means 1), as addmm's beta/alpha. */
    static Tensor scaled(Tensor g, Object s) {
        return s == null ? g : times(g, s);
    }

    /** The shape of the first input (saved as data or, when the rule reads no inputs, as a meta tensor). */
    static long[] inputShape(Object[] args, Tensor[] outputs) {
        return ((Tensor) args[0]).shape();
    }

    /** The inverse of a permutation given with possibly negative dims. */
    static int[] inversePermutation(long[] dims, int rank) {
        int[] inv = new int[rank];
        for (int i = 0; i < rank; i++) inv[org.jtorch.internal.Shapes.wrapDim(dims[i], rank)] = i;
        return inv;
    }

    /**
     * The gradient of a dims/keepdim reduction broadcast back over the reduced dims of the input: args are (self,
     * long[] dims or null, Boolean keepdim, ...).
     */
    static Tensor expandReduced(Tensor g, Object[] args) {
        long[] shape = reducedInputShape(args);
        boolean keep = Boolean.TRUE.equals(args[2]);
        if (!keep && g.dim() != shape.length) {
            long[] kept = shape.clone();
            boolean[] reduced = reducedMask(args, shape.length);
            for (int d = 0; d < shape.length; d++) if (reduced[d]) kept[d] = 1;
            g = g.reshape(kept);
        }
        return g.expand(shape);
    }

    /** Number of input elements that fed each output element of a reduction. */
    static long reducedCount(Object[] args) {
        long[] shape = reducedInputShape(args);
        boolean[] reduced = reducedMask(args, shape.length);
        long n = 1;
        for (int d = 0; d < shape.length; d++) if (reduced[d]) n *= shape[d];
        return n;
    }

    private static long[] reducedInputShape(Object[] args) {
        return ((Tensor) args[0]).shape();
    }

    private static boolean[] reducedMask(Object[] args, int rank) {
        long[] dims = (long[]) args[1];
        boolean[] m = new boolean[rank];
        if (rank == 0) return m;
        if (dims == null || dims.length == 0) {
            java.util.Arrays.fill(m, true);
            return m;
        }
        for (long d : dims) m[org.jtorch.internal.Shapes.wrapDim(d, rank)] = true;
        return m;
    }

    /**
     * Zeros shaped like {@code g}, PyTorch's {@code zeros_like(grad)}: the derivative of a piecewise-constant op
     * (floor, sign, rounding division). The true second derivative is zero too, so that these zeros are not connected
     * to the graph is exact, not a shortcut.
     */
    static Tensor zeros(Tensor g) {
        return Creation.zerosLike(g);
    }

    /** {@link #zeros} for every tensor argument, in argument order. */
    static Tensor[] zerosForTensorArgs(Object[] args, Tensor g) {
        List<Tensor> out = new ArrayList<>(args.length);
        for (Object a : args) if (a instanceof Tensor) out.add(zeros(g));
        return out.toArray(Tensor[]::new);
    }

    /** {@code g} with zeros where {@code mask} holds, as PyTorch's {@code grad.masked_fill(mask, 0)}. */
    static Tensor zeroWhere(Tensor mask, Tensor g) {
        return TernaryOps.where(mask, 0L, g);
    }

    /**
     * The subgradient of an elementwise selection between {@code args[0]} and {@code args[1]} (maximum, minimum, fmax,
     * fmin, clamp_min/clamp_max with a Tensor bound, 2.14 rule): each operand gets {@code g}, halved at an exact tie,
     * and nothing where the mask says it lost.
     */
    static Tensor[] selection(Object[] args, Tensor g, Tensor firstLoses, Tensor secondLoses) {
        Tensor half = TernaryOps.where(((Tensor) args[0]).eq(args[1]), g.div(2L), g);
        return forTensorArgs(args, zeroWhere(firstLoses, half), zeroWhere(secondLoses, half));
    }

    /** The imaginary unit as a 0-d tensor of the complex dtype matching {@code like}. */
    static Tensor imaginaryUnit(Tensor like) {
        return Creation.scalarTensor(
                Scalar.complex(0, 1),
                like.dtype().isComplex() ? like.dtype() : like.dtype().toComplex());
    }

    /**
     * A real gradient laid out as view_as_complex needs it (contiguous, at an even storage offset): the backward of
     * view_as_real, whose incoming gradient may be an expanded or offset view.
     */
    static Tensor pairedForComplexView(Tensor g) {
        return g.isContiguous() && g.storageOffset() % 2 == 0 ? g : g.clone();
    }

    /** The operand as a tensor (a Java scalar becomes a 0-d tensor of the op's dtype). */
    static Tensor asTensor(Object o, Tensor like) {
        return o instanceof Tensor t ? t : Creation.scalarTensor(Scalar.of(o), Pointwise.opMath(like.dtype()));
    }
}

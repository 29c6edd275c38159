package org.jtorch.compile.inductor;

import java.util.function.UnaryOperator;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Expr;

/**
 * View ops as changes of an expression's index: every access the expression makes (loads, gathers' bases, positions) is
 * re-expressed over the view's dimensions, so that a view of a value computes nothing and copies nothing.
 */
final class Views {
    private Views() {}

    /** {@code e} with every access replaced by {@code f} of it, or null when {@code f} returns null for one. */
    static Expr remap(Expr e, UnaryOperator<Access> f) {
        return switch (e) {
            case Expr.Load l -> {
                Access a = f.apply(l.access());
                yield a == null ? null : new Expr.Load(l.buffer(), a, l.elem());
            }
            case Expr.IndirectLoad l -> {
                Access a = f.apply(l.access());
                Expr index = remap(l.index(), f);
                yield a == null || index == null
                        ? null
                        : new Expr.IndirectLoad(l.buffer(), a, l.elem(), index, l.stride(), l.size());
            }
            case Expr.Index i -> {
                Access a = f.apply(i.access());
                yield a == null ? null : new Expr.Index(a);
            }
            default -> {
                boolean[] failed = {false};
                Expr out = e.map(c -> {
                    Expr r = remap(c, f);
                    if (r == null) failed[0] = true;
                    return r == null ? c : r;
                });
                yield failed[0] ? null : out;
            }
        };
    }

    /** Dimension {@code i} of the result is dimension {@code perm[i]} of the input. */
    static UnaryOperator<Access> permute(int[] perm) {
        return a -> {
            long[] s = new long[perm.length];
            for (int i = 0; i < perm.length; i++) s[i] = a.stride(perm[i]);
            return new Access(a.offset(), s);
        };
    }

    /** Broadcasting from {@code from} to {@code to} (dimensions aligned at the right). */
    static UnaryOperator<Access> expand(long[] from, long[] to) {
        return a -> {
            long[] s = new long[to.length];
            int lead = to.length - from.length;
            for (int i = 0; i < to.length; i++) {
                int j = i - lead;
                s[i] = j < 0 || (from[j] == 1 && to[i] != 1) ? 0 : a.stride(j);
            }
            return new Access(a.offset(), s);
        };
    }

    /** {@code slice(dim, start, _, step)} with {@code start} already clamped to the dimension. */
    static UnaryOperator<Access> slice(int dim, long start, long step) {
        return a -> {
            long[] s = a.strides();
            long offset = a.offset() + start * s[dim];
            s[dim] *= step;
            return new Access(offset, s);
        };
    }

    /** {@code select(dim, index)} with {@code index} already wrapped. */
    static UnaryOperator<Access> select(int dim, long index) {
        return a -> {
            long[] s = new long[a.rank() - 1];
            for (int i = 0, j = 0; i < a.rank(); i++) if (i != dim) s[j++] = a.stride(i);
            return new Access(a.offset() + index * a.stride(dim), s);
        };
    }

    /** A new dimension of size one at {@code dim}. */
    static UnaryOperator<Access> unsqueeze(int dim) {
        return a -> {
            long[] s = new long[a.rank() + 1];
            for (int i = 0, j = 0; i < s.length; i++) s[i] = i == dim ? 0 : a.stride(j++);
            return new Access(a.offset(), s);
        };
    }

    /** Drops the dimensions marked in {@code drop} (all of size one). */
    static UnaryOperator<Access> squeeze(boolean[] drop) {
        return a -> {
            int n = 0;
            for (boolean d : drop) if (!d) n++;
            long[] s = new long[n];
            for (int i = 0, j = 0; i < drop.length; i++) if (!drop[i]) s[j++] = a.stride(i);
            return new Access(a.offset(), s);
        };
    }

    /** {@code view(shape)}: the strides ATen's {@code computeStride} gives, or null when the access cannot view. */
    static UnaryOperator<Access> reshape(long[] from, long[] to) {
        return a -> {
            long[] s = computeStride(from, a.strides(), to);
            return s == null ? null : new Access(a.offset(), s);
        };
    }

    /** ATen's {@code computeStride}: the strides of a view of {@code newShape}, or null when none exists. */
    static long[] computeStride(long[] oldShape, long[] oldStride, long[] newShape) {
        long numel = 1;
        for (long s : oldShape) numel *= s;
        long[] newStride = new long[newShape.length];
        if (numel == 0) {
            return java.util.Arrays.equals(oldShape, newShape) ? oldStride.clone() : contiguous(newShape);
        }
        int viewD = newShape.length - 1;
        long chunkBaseStride = oldStride.length == 0 ? 1 : oldStride[oldStride.length - 1];
        long tensorNumel = 1, viewNumel = 1;
        for (int tensorD = oldShape.length - 1; tensorD >= 0; tensorD--) {
            tensorNumel *= oldShape[tensorD];
            if (tensorD == 0
                    || (oldShape[tensorD - 1] != 1 && oldStride[tensorD - 1] != tensorNumel * chunkBaseStride)) {
                while (viewD >= 0 && (viewNumel < tensorNumel || newShape[viewD] == 1)) {
                    newStride[viewD] = viewNumel * chunkBaseStride;
                    viewNumel *= newShape[viewD];
                    viewD--;
                }
                if (viewNumel != tensorNumel) return null;
                if (tensorD > 0) {
                    chunkBaseStride = oldStride[tensorD - 1];
                    tensorNumel = 1;
                    viewNumel = 1;
                }
            }
        }
        return viewD != -1 ? null : newStride;
    }

    static long[] contiguous(long[] shape) {
        long[] s = new long[shape.length];
        long acc = 1;
        for (int i = shape.length - 1; i >= 0; i--) {
            s[i] = acc;
            acc *= Math.max(shape[i], 1);
        }
        return s;
    }
}

package org.jtorch.compile.inductor;

import static org.jtorch.compile.inductor.Lowering.binary;
import static org.jtorch.compile.inductor.Lowering.cast;
import static org.jtorch.compile.inductor.Lowering.compare;
import static org.jtorch.compile.inductor.Lowering.unary;

import java.util.Arrays;
import java.util.List;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.Expr.BinaryOp;
import org.jtorch.compile.inductor.ir.Expr.CompareOp;
import org.jtorch.compile.inductor.ir.Expr.UnaryOp;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.LoopKernel.ReduceKind;
import org.jtorch.compile.inductor.ir.ScalarKind;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;

/**
 * Reductions and the row ops as row kernels: the input's expression is inlined into each reduction loop, and a row op
 * (softmax, log-softmax, their backwards, layer norm, negative log likelihood) is one kernel whose reductions and
 * stores read each row from cache, not one pass per ATen op.
 */
final class RowLowerings {
    private RowLowerings() {}

    /** The value of a reduction or row op, or null when {@code n} is neither (or this form is not lowered). */
    static Value lower(Lowering l, Node n) {
        List<Object> a = n.args();
        if (!a.isEmpty() && a.get(0) instanceof Node x && l.meta(x) != null && l.shape(x).length == 0) {
            return null; // a 0-d tensor's reductions and row ops are single values: left to the eager kernels
        }
        return switch (n.target()) {
            case "aten.sum.dim_IntList" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.SUM, false);
            case "aten.sum.default" -> reduce(l, n, null, false, ReduceKind.SUM, false);
            case "aten.mean.dim" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.SUM, true);
            case "aten.mean.default" -> reduce(l, n, null, false, ReduceKind.SUM, true);
            case "aten.amax.default" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.MAX, false);
            case "aten.amin.default" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.MIN, false);
            case "aten.max.default" -> reduce(l, n, null, false, ReduceKind.MAX, false);
            case "aten.min.default" -> reduce(l, n, null, false, ReduceKind.MIN, false);
            case "aten.all.dims", "aten.all.dim" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.ALL, false);
            case "aten.all.default" -> reduce(l, n, null, false, ReduceKind.ALL, false);
            case "aten.any.dims", "aten.any.dim" -> reduce(l, n, dims(l, a, 1), flag(a, 2), ReduceKind.ANY, false);
            case "aten.any.default" -> reduce(l, n, null, false, ReduceKind.ANY, false);
            case "aten._softmax.default", "aten.softmax.int" -> softmax(l, n, false);
            case "aten._log_softmax.default", "aten.log_softmax.int" -> softmax(l, n, true);
            case "aten._softmax_backward_data.default" -> softmaxBackward(l, n, false);
            case "aten._log_softmax_backward_data.default" -> softmaxBackward(l, n, true);
            case "aten.native_layer_norm.default" -> layerNorm(l, n);
            case "aten.nll_loss_forward.default" -> nllLoss(l, n);
            case "aten.nll_loss_backward.default" -> nllLossBackward(l, n);
            default -> null;
        };
    }

    private static boolean flag(List<Object> a, int at) {
        return a.size() > at && a.get(at) instanceof Boolean b && b;
    }

    /** The reduced dimensions, or null for all of them (an absent or empty list). */
    private static long[] dims(Lowering l, List<Object> a, int at) {
        if (a.size() <= at || a.get(at) == null) return null;
        Object d = a.get(at);
        long[] dims = d instanceof Number ? new long[] {l.concrete(d)} : l.concreteList(d);
        return dims.length == 0 ? null : dims;
    }

    private static int[] normalized(long[] dims, int rank) {
        if (dims == null) return Lowerings.identityPerm(rank);
        return Arrays.stream(dims)
                .mapToInt(d -> (int) Lowerings.normDim(d, rank))
                .distinct()
                .sorted()
                .toArray();
    }

    private static Value reduce(Lowering l, Node n, long[] dims, boolean keepDim, ReduceKind kind, boolean mean) {
        Node x = (Node) n.args().get(0);
        long[] xShape = l.shape(x);
        int[] reduced = normalized(dims, xShape.length);
        if (reduced.length == 0 && xShape.length > 0) return null;
        TensorMeta out = l.meta(n);
        ScalarKind k = kind == ReduceKind.ALL || kind == ReduceKind.ANY
                ? ScalarKind.BOOL
                : l.elem(n).kind();
        if (mean && !k.isFloating()) return null;
        Lowering.RowSpace rs = l.rows(xShape, reduced);
        boolean[] isReduced = new boolean[xShape.length];
        for (int d : reduced) isReduced[d] = true;
        KernelPlan kernel = new KernelPlan(n.name(), rs.outer(), rs.inner());
        kernel.reductions.add(new LoopKernel.Reduction(kind, rs.reorder(cast(l.expr(x), k))));
        Expr value = new Expr.RowValue(0, k);
        if (mean) value = binary(BinaryOp.DIV, value, new Expr.Constant(rs.rowLength(), k));
        boolean keep = keepDim && out.shape().length == xShape.length;
        Access store = rs.store(Lowering.reducedOutputStride(xShape, isReduced, out.stride(), keep));
        kernel.rowStores.add(
                new LoopKernel.Store(l.slot(n), store, cast(value, l.elem(n).kind())));
        kernel.outputs.add(n);
        l.addKernel(kernel);
        return new Value.Realized(n);
    }

    private static Value softmax(Lowering l, Node n, boolean log) {
        Node x = (Node) n.args().get(0);
        long[] shape = l.shape(x);
        int dim = (int) Lowerings.normDim(l.concrete(n.args().get(1)), shape.length);
        ScalarKind k = l.elem(n).kind();
        if (!k.isFloating()) return null;
        Lowering.RowSpace rs = l.rows(shape, new int[] {dim});
        KernelPlan kernel = new KernelPlan(n.name(), rs.outer(), rs.inner());
        Expr xe = rs.reorder(cast(l.expr(x), k));
        kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.MAX, xe));
        Expr shifted = binary(BinaryOp.SUB, xe, new Expr.RowValue(0, k));
        Expr exp = unary(UnaryOp.EXP, shifted);
        kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.SUM, exp));
        Expr sum = new Expr.RowValue(1, k);
        Expr result = log ? binary(BinaryOp.SUB, shifted, unary(UnaryOp.LOG, sum)) : binary(BinaryOp.DIV, exp, sum);
        kernel.elementStores.add(
                new LoopKernel.Store(l.slot(n), rs.store(l.meta(n).stride()), result));
        kernel.outputs.add(n);
        l.addKernel(kernel);
        return new Value.Realized(n);
    }

    private static Value softmaxBackward(Lowering l, Node n, boolean log) {
        Node grad = (Node) n.args().get(0);
        Node output = (Node) n.args().get(1);
        long[] shape = l.shape(n);
        int dim = (int) Lowerings.normDim(l.concrete(n.args().get(2)), shape.length);
        ScalarKind k = l.elem(n).kind();
        if (!k.isFloating()) return null;
        Lowering.RowSpace rs = l.rows(shape, new int[] {dim});
        KernelPlan kernel = new KernelPlan(n.name(), rs.outer(), rs.inner());
        Expr g = rs.reorder(l.operand(grad, shape, k));
        Expr y = rs.reorder(l.operand(output, shape, k));
        Expr sum = new Expr.RowValue(0, k);
        Expr result;
        if (log) {
            kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.SUM, g));
            result = binary(BinaryOp.SUB, g, binary(BinaryOp.MUL, unary(UnaryOp.EXP, y), sum));
        } else {
            kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.SUM, binary(BinaryOp.MUL, g, y)));
            result = binary(BinaryOp.MUL, y, binary(BinaryOp.SUB, g, sum));
        }
        kernel.elementStores.add(
                new LoopKernel.Store(l.slot(n), rs.store(l.meta(n).stride()), result));
        kernel.outputs.add(n);
        l.addKernel(kernel);
        return new Value.Realized(n);
    }

    /**
     * {@code native_layer_norm}: per row, the mean, then the variance about it (two passes over the row, in cache),
     * then the normalized, scaled and shifted elements; mean and reciprocal standard deviation are stored for the
     * backward when the graph reads them.
     */
    private static Value layerNorm(Lowering l, Node n) {
        List<Object> a = n.args();
        Node x = (Node) a.get(0);
        long[] shape = l.shape(x);
        long[] normalizedShape = l.concreteList(a.get(1));
        int m = normalizedShape.length;
        Node[] outs = new Node[3];
        for (Node user : n.users()) {
            if (!user.target().equals(Node.GETITEM)) return null;
            outs[Math.toIntExact((Long) user.args().get(1))] = user;
        }
        ScalarKind k = l.elem(x).kind();
        if (!k.isFloating() || m == 0 || m > shape.length) return null;
        int[] reduced = new int[m];
        for (int i = 0; i < m; i++) reduced[i] = shape.length - m + i;
        Lowering.RowSpace rs = l.rows(shape, reduced);
        long count = rs.rowLength();
        KernelPlan kernel = new KernelPlan(n.name(), rs.outer(), rs.inner());
        Expr xe = cast(l.expr(x), k);
        kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.SUM, xe));
        Expr mean = binary(BinaryOp.DIV, new Expr.RowValue(0, k), new Expr.Constant(count, k));
        Expr centered = binary(BinaryOp.SUB, xe, mean);
        kernel.reductions.add(new LoopKernel.Reduction(ReduceKind.SUM, binary(BinaryOp.MUL, centered, centered)));
        Expr variance = binary(BinaryOp.DIV, new Expr.RowValue(1, k), new Expr.Constant(count, k));
        Expr rstd = unary(UnaryOp.RSQRT, binary(BinaryOp.ADD, variance, Lowering.constant(a.get(4), k)));
        Expr y = binary(BinaryOp.MUL, centered, rstd);
        if (a.size() > 2 && a.get(2) instanceof Node w) y = binary(BinaryOp.MUL, y, l.operand(w, shape, k));
        if (a.size() > 3 && a.get(3) instanceof Node b) y = binary(BinaryOp.ADD, y, l.operand(b, shape, k));
        boolean[] isReduced = new boolean[shape.length];
        for (int d : reduced) isReduced[d] = true;
        Value[] items = new Value[3];
        Expr[] values = {y, mean, rstd};
        for (int i = 0; i < 3; i++) {
            if (outs[i] == null) continue;
            TensorMeta meta = l.meta(outs[i]);
            if (Elem.of(meta.dtype()) == null) return null;
            ScalarKind ok = Elem.of(meta.dtype()).kind();
            if (i == 0) {
                kernel.elementStores.add(new LoopKernel.Store(l.slot(outs[i]), Access.of(meta.stride()), cast(y, ok)));
            } else {
                long[] stride = Lowering.reducedOutputStride(shape, isReduced, meta.stride(), true);
                kernel.rowStores.add(new LoopKernel.Store(l.slot(outs[i]), Access.of(stride), cast(values[i], ok)));
            }
            kernel.outputs.add(outs[i]);
            items[i] = new Value.Realized(outs[i]);
        }
        l.addKernel(kernel);
        return new Value.Tuple(items);
    }

    /**
     * {@code nll_loss_forward} without class weights on {@code [N, C]} scores: one row of N targets summing the picked
     * negated scores and counting the targets that are not ignored; output and total weight.
     */
    private static Value nllLoss(Lowering l, Node n) {
        List<Object> a = n.args();
        Node self = (Node) a.get(0);
        Node target = (Node) a.get(1);
        long reduction = l.concrete(a.get(3));
        long ignore = l.concrete(a.get(4));
        long[] shape = l.shape(self);
        if (a.get(2) != null || shape.length != 2 || reduction == 0) return null;
        Node[] outs = new Node[2];
        for (Node user : n.users()) {
            if (!user.target().equals(Node.GETITEM)) return null;
            outs[Math.toIntExact((Long) user.args().get(1))] = user;
        }
        ScalarKind k = l.elem(self).kind();
        if (!k.isFloating()) return null;
        l.realize(self);
        Access selfAccess = ((Expr.Load) l.expr(self)).access();
        KernelPlan kernel = new KernelPlan(n.name(), new long[0], new long[] {shape[0]});
        Expr t = cast(l.expr(target), ScalarKind.LONG);
        Expr kept = compare(CompareOp.NE, t, new Expr.Constant(ignore, ScalarKind.LONG));
        Expr picked = new Expr.IndirectLoad(
                l.slot(self),
                new Access(selfAccess.offset(), new long[] {selfAccess.stride(0)}),
                l.elem(self),
                t,
                selfAccess.stride(1),
                shape[1]);
        Expr zero = new Expr.Constant(0, k);
        kernel.reductions.add(new LoopKernel.Reduction(
                ReduceKind.SUM, new Expr.Masked(kept, unary(UnaryOp.NEG, cast(picked, k)), zero)));
        kernel.reductions.add(
                new LoopKernel.Reduction(ReduceKind.SUM, new Expr.Where(kept, new Expr.Constant(1, k), zero)));
        Expr sum = new Expr.RowValue(0, k), count = new Expr.RowValue(1, k);
        Expr[] values = {reduction == 1 ? binary(BinaryOp.DIV, sum, count) : sum, count};
        Value[] items = new Value[2];
        for (int i = 0; i < 2; i++) {
            if (outs[i] == null) continue;
            kernel.rowStores.add(new LoopKernel.Store(l.slot(outs[i]), new Access(0, new long[] {0}), values[i]));
            kernel.outputs.add(outs[i]);
            items[i] = new Value.Realized(outs[i]);
        }
        l.addKernel(kernel);
        return new Value.Tuple(items);
    }

    /** {@code nll_loss_backward} without class weights: {@code -grad / total_weight} at each target, else zero. */
    private static Value nllLossBackward(Lowering l, Node n) {
        List<Object> a = n.args();
        Node target = (Node) a.get(2);
        long reduction = l.concrete(a.get(4));
        long ignore = l.concrete(a.get(5));
        long[] shape = l.shape(n);
        if (a.get(3) != null || shape.length != 2 || reduction == 0) return null;
        ScalarKind k = l.elem(n).kind();
        Expr g = l.operand(a.get(0), shape, k);
        Expr t = Views.remap(
                cast(l.expr(target), ScalarKind.LONG), acc -> new Access(acc.offset(), new long[] {acc.stride(0), 0}));
        Expr column = new Expr.Index(new Access(0, new long[] {0, 1}));
        Expr hit = binary(
                BinaryOp.AND,
                compare(CompareOp.EQ, column, t),
                compare(CompareOp.NE, t, new Expr.Constant(ignore, ScalarKind.LONG)));
        Expr scale = reduction == 1 ? binary(BinaryOp.DIV, g, l.operand(a.get(6), shape, k)) : g;
        return new Value.Virtual(
                shape, l.elem(n), new Expr.Where(hit, unary(UnaryOp.NEG, scale), new Expr.Constant(0, k)));
    }
}

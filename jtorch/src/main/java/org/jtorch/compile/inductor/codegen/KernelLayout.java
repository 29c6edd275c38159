package org.jtorch.compile.inductor.codegen;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.LoopKernel.ReduceKind;
import org.jtorch.compile.inductor.ir.ScalarKind;

/**
 * The decisions both code generators share for one (coalesced) kernel: its distinct accesses, numbered in the order the
 * code declares them; which loops run a vector form; and how the reductions split into passes over a row. The bytecode
 * ({@link KernelBytecode}) and the readable listing ({@link KernelSource}) take them from here, so the listing shows
 * the very loop structure that runs.
 */
final class KernelLayout {
    /** A buffer access (buffer -1 for an {@link Expr.Index}, which reads no buffer). */
    record AccessKey(int buffer, Access access) {}

    /** The unary operations that have a float32 vector form. */
    static final Set<Expr.UnaryOp> VECTOR_UNARY = EnumSet.of(
            Expr.UnaryOp.NEG,
            Expr.UnaryOp.ABS,
            Expr.UnaryOp.EXP,
            Expr.UnaryOp.LOG,
            Expr.UnaryOp.LOG1P,
            Expr.UnaryOp.EXPM1,
            Expr.UnaryOp.SQRT,
            Expr.UnaryOp.RSQRT,
            Expr.UnaryOp.TANH,
            Expr.UnaryOp.SIGMOID,
            Expr.UnaryOp.SIN,
            Expr.UnaryOp.COS,
            Expr.UnaryOp.ERF,
            Expr.UnaryOp.RECIPROCAL,
            Expr.UnaryOp.RELU);

    /** The binary operations that have a float32 vector form. */
    static final Set<Expr.BinaryOp> VECTOR_BINARY = EnumSet.of(
            Expr.BinaryOp.ADD,
            Expr.BinaryOp.SUB,
            Expr.BinaryOp.MUL,
            Expr.BinaryOp.DIV,
            Expr.BinaryOp.MAX,
            Expr.BinaryOp.MIN,
            Expr.BinaryOp.POW);

    private final LoopKernel k;
    private final Map<AccessKey, Integer> ids = new LinkedHashMap<>();
    private final List<AccessKey> accesses = new ArrayList<>();
    private final KernelArguments arguments;

    /** The layout of {@code kernel} once its loops are coalesced ({@link Coalesce}). */
    static KernelLayout of(LoopKernel kernel) {
        return new KernelLayout(Coalesce.apply(kernel));
    }

    private KernelLayout(LoopKernel coalesced) {
        this.k = coalesced;
        for (LoopKernel.Reduction r : k.reductions()) collect(r.body());
        for (LoopKernel.Store s : k.rowStores()) {
            id(s.buffer(), s.access());
            collect(s.value());
        }
        for (LoopKernel.Store s : k.elementStores()) {
            id(s.buffer(), s.access());
            collect(s.value());
        }
        arguments = new KernelArguments(this);
    }

    /** The kernel, coalesced. */
    LoopKernel kernel() {
        return k;
    }

    /** The sizes, strides and offsets the kernel reads at run time. */
    KernelArguments arguments() {
        return arguments;
    }

    /** The distinct accesses, by number. */
    List<AccessKey> accesses() {
        return accesses;
    }

    /** The number of access {@code a} of buffer {@code buffer} (-1 for an index). */
    int id(int buffer, Access a) {
        AccessKey key = new AccessKey(buffer, a);
        Integer id = ids.get(key);
        if (id == null) {
            id = accesses.size();
            ids.put(key, id);
            accesses.add(key);
        }
        return id;
    }

    private void collect(Expr e) {
        switch (e) {
            case Expr.Load l -> id(l.buffer(), l.access());
            case Expr.IndirectLoad l -> id(l.buffer(), l.access());
            case Expr.Index i -> id(-1, i.access());
            default -> {}
        }
        for (Expr c : e.children()) collect(c);
    }

    /** The stride of {@code a} along the innermost loop (0 when the kernel has no inner loop). */
    long innermostStride(Access a) {
        return a.rank() == 0 || k.inner().length == 0 ? 0 : a.stride(a.rank() - 1);
    }

    /**
     * The reductions in passes {@code [from, to)}: a reduction joins the current pass unless it reads the result of one
     * in that pass.
     */
    List<int[]> passes() {
        List<LoopKernel.Reduction> all = k.reductions();
        List<int[]> out = new ArrayList<>();
        int start = 0;
        while (start < all.size()) {
            int end = start + 1;
            while (end < all.size() && !readsAny(all.get(end).body(), start, end)) end++;
            out.add(new int[] {start, end});
            start = end;
        }
        return out;
    }

    private static boolean readsAny(Expr e, int from, int to) {
        if (e instanceof Expr.RowValue r && r.reduction() >= from && r.reduction() < to) return true;
        for (Expr c : e.children()) if (readsAny(c, from, to)) return true;
        return false;
    }

    /** Whether the element stores run a vector loop. */
    boolean vectorElements() {
        List<LoopKernel.Store> stores = k.elementStores();
        return vectorizable(stores.stream().map(LoopKernel.Store::value).toList(), stores);
    }

    /** Whether the reductions {@code [from, to)} of one pass run a vector loop. */
    boolean vectorPass(int from, int to) {
        List<LoopKernel.Reduction> rs = k.reductions().subList(from, to);
        for (LoopKernel.Reduction r : rs) {
            if (r.kind() == ReduceKind.ALL || r.kind() == ReduceKind.ANY) return false;
        }
        return vectorizable(rs.stream().map(LoopKernel.Reduction::body).toList(), List.of());
    }

    /** Whether every store and expression has a float32 vector form with unit- or zero-stride accesses. */
    private boolean vectorizable(List<Expr> values, List<LoopKernel.Store> stores) {
        if (k.inner().length == 0) return false;
        for (LoopKernel.Store s : stores) {
            if (k.buffers().get(s.buffer()) != Elem.FLOAT32 || innermostStride(s.access()) != 1) return false;
        }
        for (Expr v : values) if (v.kind() != ScalarKind.FLOAT || !vectorizable(v)) return false;
        return true;
    }

    private boolean vectorizable(Expr e) {
        boolean ok =
                switch (e) {
                    case Expr.Load l ->
                        l.elem() == Elem.FLOAT32
                                && innermostStride(l.access()) <= 1
                                && innermostStride(l.access()) >= 0;
                    case Expr.IndirectLoad l -> false;
                    case Expr.Index i -> false;
                    case Expr.Masked m -> false;
                    case Expr.Constant c -> c.kind() == ScalarKind.FLOAT || c.kind() == ScalarKind.BOOL;
                    case Expr.Unary u -> u.x().kind() == ScalarKind.FLOAT && VECTOR_UNARY.contains(u.op());
                    case Expr.Binary b -> b.kind() == ScalarKind.FLOAT && VECTOR_BINARY.contains(b.op());
                    case Expr.Compare c -> c.a().kind() == ScalarKind.FLOAT;
                    case Expr.Where w -> w.kind() == ScalarKind.FLOAT;
                    case Expr.Fma f -> f.kind() == ScalarKind.FLOAT;
                    case Expr.Cast c -> c.kind() == ScalarKind.FLOAT && c.x().kind() == ScalarKind.FLOAT;
                    case Expr.Round r -> r.elem() == Elem.FLOAT32;
                    case Expr.RowValue r -> r.kind() == ScalarKind.FLOAT;
                };
        if (!ok) return false;
        for (Expr c : e.children()) if (!vectorizable(c)) return false;
        return true;
    }
}

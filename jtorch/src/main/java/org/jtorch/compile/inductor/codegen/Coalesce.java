package org.jtorch.compile.inductor.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;

/**
 * Merges neighbouring loop dimensions that every access of a kernel walks as one (TensorIterator's coalescing): a
 * contiguous pointwise kernel becomes one loop of length numel, whatever its rank, so the innermost loop is as long as
 * the data allows. Size-one dimensions are dropped, except the last of a side (outer or inner) that has only size-one
 * dimensions: a one-element kernel keeps the loop structure of the longer kernels, so it shares their class (kernel
 * classes take sizes as arguments). Outer and inner dimensions are coalesced separately.
 */
final class Coalesce {
    private Coalesce() {}

    static LoopKernel apply(LoopKernel k) {
        List<Access> accesses = new ArrayList<>();
        collect(k, accesses);
        long[] sizes = concat(k.outer(), k.inner());
        int nOuter = k.outer().length;
        List<long[]> merged = new ArrayList<>(); // {size, first dimension, last dimension}
        int newOuter = 0;
        for (int d = 0; d < sizes.length; d++) {
            boolean lastOfSide = d == nOuter - 1 || d == sizes.length - 1;
            boolean sideEmpty = merged.isEmpty() || (d >= nOuter && merged.getLast()[2] < nOuter);
            if (sizes[d] == 1 && !(lastOfSide && sideEmpty)) continue;
            long[] last = merged.isEmpty() ? null : merged.getLast();
            boolean sameSide = last != null && (last[2] < nOuter) == (d < nOuter);
            if (last != null && sameSide && mergeable(accesses, (int) last[2], d, sizes[d])) {
                last[0] *= sizes[d];
                last[2] = d;
            } else {
                merged.add(new long[] {sizes[d], d, d});
                if (d < nOuter) newOuter++;
            }
        }
        long[] outer = new long[newOuter];
        long[] inner = new long[merged.size() - newOuter];
        for (int g = 0; g < merged.size(); g++) {
            if (g < newOuter) outer[g] = merged.get(g)[0];
            else inner[g - newOuter] = merged.get(g)[0];
        }
        int[] lastOfGroup = new int[merged.size()];
        for (int g = 0; g < merged.size(); g++) lastOfGroup[g] = (int) merged.get(g)[2];
        java.util.function.UnaryOperator<Access> remap = a -> {
            long[] s = new long[lastOfGroup.length];
            for (int g = 0; g < s.length; g++) s[g] = a.stride(lastOfGroup[g]);
            return new Access(a.offset(), s);
        };
        return new LoopKernel(
                k.name(),
                outer,
                inner,
                k.buffers(),
                k.reductions().stream()
                        .map(r -> new LoopKernel.Reduction(r.kind(), remapExpr(r.body(), remap)))
                        .toList(),
                k.rowStores().stream()
                        .map(s ->
                                new LoopKernel.Store(s.buffer(), remap.apply(s.access()), remapExpr(s.value(), remap)))
                        .toList(),
                k.elementStores().stream()
                        .map(s ->
                                new LoopKernel.Store(s.buffer(), remap.apply(s.access()), remapExpr(s.value(), remap)))
                        .toList());
    }

    /** Whether dimension {@code d} (of size {@code size}) walks as a continuation of dimension {@code prev}. */
    private static boolean mergeable(List<Access> accesses, int prev, int d, long size) {
        for (Access a : accesses) if (a.stride(prev) != a.stride(d) * size) return false;
        return true;
    }

    private static Expr remapExpr(Expr e, java.util.function.UnaryOperator<Access> remap) {
        return switch (e) {
            case Expr.Load l -> new Expr.Load(l.buffer(), remap.apply(l.access()), l.elem());
            case Expr.IndirectLoad l ->
                new Expr.IndirectLoad(
                        l.buffer(),
                        remap.apply(l.access()),
                        l.elem(),
                        remapExpr(l.index(), remap),
                        l.stride(),
                        l.size());
            case Expr.Index i -> new Expr.Index(remap.apply(i.access()));
            default -> e.map(c -> remapExpr(c, remap));
        };
    }

    private static void collect(LoopKernel k, List<Access> into) {
        for (LoopKernel.Reduction r : k.reductions()) collect(r.body(), into);
        for (LoopKernel.Store s : k.rowStores()) {
            into.add(s.access());
            collect(s.value(), into);
        }
        for (LoopKernel.Store s : k.elementStores()) {
            into.add(s.access());
            collect(s.value(), into);
        }
    }

    static void collect(Expr e, List<Access> into) {
        switch (e) {
            case Expr.Load l -> into.add(l.access());
            case Expr.IndirectLoad l -> into.add(l.access());
            case Expr.Index i -> into.add(i.access());
            default -> {}
        }
        for (Expr c : e.children()) collect(c, into);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

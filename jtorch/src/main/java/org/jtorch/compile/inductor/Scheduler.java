package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;

/**
 * Vertical fusion: a kernel joins an earlier kernel over the same loop nest when it reads that kernel's outputs or a
 * tensor that kernel also reads element by element, everything it reads of that kernel's outputs is the value that
 * kernel computes at the same point (an element) or for the same row (a reduction's result), and nothing it reads is
 * produced in between. The reads become the producer's expressions, computed in registers: a softmax, a layer norm's
 * backward, the pointwise tail after a reduction are one pass over each row. Afterwards a store that no later step, no
 * graph output and no other kernel reads is dropped, so an intermediate read only by fused consumers is never written
 * to memory.
 *
 * <p>Loop nests match when they are equal: pointwise over the same sizes, rows of the same outer and inner sizes, or a
 * pointwise loop over exactly a row kernel's outer sizes followed by its inner sizes (the layout of a reduction over
 * trailing dimensions and its epilogue).
 */
final class Scheduler {
    private Scheduler() {}

    /** The steps of {@code l} with kernels fused; {@code decisions} receives one line per fusion and dropped store. */
    static List<Object> schedule(Lowering l, GraphModule gm, List<String> decisions) {
        List<Object> out = new ArrayList<>();
        for (Object step : l.steps) {
            if (step instanceof KernelPlan k && fuseBackwards(l, out, k, decisions)) continue;
            out.add(step);
        }
        dropDeadStores(l, gm, out, decisions);
        return out;
    }

    /** Tries the kernels before {@code k}, latest first, back to the first step producing something {@code k} reads. */
    private static boolean fuseBackwards(Lowering l, List<Object> out, KernelPlan k, List<String> decisions) {
        Set<Integer> reads = new HashSet<>();
        for (Expr e : exprs(k)) slotsRead(e, reads);
        for (int i = out.size() - 1; i >= 0; i--) {
            Object step = out.get(i);
            Set<Integer> produced = produced(l, step);
            if (step instanceof KernelPlan g && tryFuse(l, g, k)) {
                decisions.add("fused " + k.name + " into " + g.name);
                return true;
            }
            for (int s : produced) if (reads.contains(s)) return false;
        }
        return false;
    }

    private static Set<Integer> produced(Lowering l, Object step) {
        Set<Integer> s = new HashSet<>();
        if (step instanceof KernelPlan k) {
            for (Node n : k.outputs) s.add(l.slot(n));
        } else {
            s.add(l.slot(((Lowering.ExternStep) step).node()));
        }
        return s;
    }

    /**
     * Merges {@code k} into {@code g} when their loop nests match, they share data and every read of g's outputs is
     * local.
     */
    private static boolean tryFuse(Lowering l, KernelPlan g, KernelPlan k) {
        long[] gAll = concat(g.outer, g.inner), kAll = concat(k.outer, k.inner);
        if (!Arrays.equals(gAll, kAll)) return false;
        if (!shareData(l, g, k)) return false;
        boolean sameSplit = Arrays.equals(g.outer, k.outer) && Arrays.equals(g.inner, k.inner);
        boolean kPointwise = k.isPointwise(), gPointwise = g.isPointwise();
        if (!sameSplit && !kPointwise && !gPointwise) return false;
        // what k may read of g: element values at the same point, row values of the same row
        Map<Integer, Map<Access, Expr>> elementValues = new HashMap<>();
        Map<Integer, Map<Access, Expr>> rowValues = new HashMap<>();
        Set<Integer> gSlots = new HashSet<>();
        for (LoopKernel.Store s : g.elementStores) {
            elementValues.computeIfAbsent(s.buffer(), b -> new HashMap<>()).put(s.access(), s.value());
            gSlots.add(s.buffer());
        }
        for (LoopKernel.Store s : g.rowStores) {
            rowValues.computeIfAbsent(s.buffer(), b -> new HashMap<>()).put(s.access(), s.value());
            gSlots.add(s.buffer());
        }
        int shift = g.reductions.size();
        boolean[] ok = {true};
        List<LoopKernel.Reduction> reductions = new ArrayList<>();
        for (LoopKernel.Reduction r : k.reductions) {
            reductions.add(new LoopKernel.Reduction(
                    r.kind(), substitute(shiftRows(r.body(), shift), gSlots, elementValues, rowValues, ok)));
        }
        List<LoopKernel.Store> rowStores = new ArrayList<>();
        for (LoopKernel.Store s : k.rowStores) {
            // a per-row value cannot read a per-element one
            Expr v = substitute(shiftRows(s.value(), shift), gSlots, Map.of(), rowValues, ok);
            rowStores.add(new LoopKernel.Store(s.buffer(), s.access(), v));
        }
        List<LoopKernel.Store> elementStores = new ArrayList<>();
        for (LoopKernel.Store s : k.elementStores) {
            Expr v = substitute(shiftRows(s.value(), shift), gSlots, elementValues, rowValues, ok);
            elementStores.add(new LoopKernel.Store(s.buffer(), s.access(), v));
        }
        if (!ok[0]) return false;
        if (gPointwise && !kPointwise) {
            g.outer = k.outer;
            g.inner = k.inner;
        }
        g.reductions.addAll(reductions);
        g.rowStores.addAll(rowStores);
        g.elementStores.addAll(elementStores);
        g.outputs.addAll(k.outputs);
        g.fused.addAll(k.fused);
        return true;
    }

    /**
     * Whether {@code k} reads what {@code g} stores, or both read one tensor element by element: fusing them saves
     * memory traffic. Kernels that share only broadcast scalars (an optimizer's per-parameter updates reading the
     * step's learning rate) stay apart: merged, they would make one ever larger loop body instead of independent
     * kernels a combo kernel can run side by side.
     */
    private static boolean shareData(Lowering l, KernelPlan g, KernelPlan k) {
        Set<Integer> kReads = new HashSet<>();
        for (Expr e : exprs(k)) slotsRead(e, kReads);
        for (Node out : g.outputs) if (kReads.contains(l.slot(out))) return true;
        Set<Integer> gStreams = new HashSet<>(), kStreams = new HashSet<>();
        for (Expr e : exprs(g)) streamedSlots(e, gStreams);
        for (Expr e : exprs(k)) streamedSlots(e, kStreams);
        gStreams.retainAll(kStreams);
        return !gStreams.isEmpty();
    }

    /** The slots {@code e} loads with an access that moves with the loop (not a broadcast scalar). */
    private static void streamedSlots(Expr e, Set<Integer> into) {
        if (e instanceof Expr.Load ld && Arrays.stream(ld.access().strides()).anyMatch(s -> s != 0)) {
            into.add(ld.buffer());
        }
        if (e instanceof Expr.IndirectLoad ld) into.add(ld.buffer());
        for (Expr c : e.children()) streamedSlots(c, into);
    }

    private static Expr shiftRows(Expr e, int shift) {
        if (shift == 0) return e;
        if (e instanceof Expr.RowValue r) return new Expr.RowValue(r.reduction() + shift, r.kind());
        return e.map(c -> shiftRows(c, shift));
    }

    /** {@code e} with its reads of g's outputs replaced by g's values; {@code ok[0]} false for a read not local. */
    private static Expr substitute(
            Expr e,
            Set<Integer> gSlots,
            Map<Integer, Map<Access, Expr>> elementValues,
            Map<Integer, Map<Access, Expr>> rowValues,
            boolean[] ok) {
        if (e instanceof Expr.Load ld && gSlots.contains(ld.buffer())) {
            Expr v = elementValues.getOrDefault(ld.buffer(), Map.of()).get(ld.access());
            if (v == null) v = rowValues.getOrDefault(ld.buffer(), Map.of()).get(ld.access());
            if (v == null) {
                ok[0] = false;
                return e;
            }
            return Lowering.cast(v, ld.kind());
        }
        if (e instanceof Expr.IndirectLoad ld && gSlots.contains(ld.buffer())) {
            ok[0] = false;
            return e;
        }
        return e.map(c -> substitute(c, gSlots, elementValues, rowValues, ok));
    }

    /** Removes the stores whose tensors nothing reads any more, with their allocations. */
    private static void dropDeadStores(Lowering l, GraphModule gm, List<Object> steps, List<String> decisions) {
        Set<Node> read = new HashSet<>();
        for (Object a : gm.graph().nodes().getLast().args()) if (a instanceof Node n) read.add(n);
        Map<KernelPlan, Set<Integer>> readByKernel = new HashMap<>();
        for (Object step : steps) {
            if (step instanceof Lowering.ExternStep x) {
                read.addAll(x.node().inputNodes());
            } else {
                KernelPlan k = (KernelPlan) step;
                Set<Integer> slots = new HashSet<>();
                for (Expr e : exprs(k)) slotsRead(e, slots);
                readByKernel.put(k, slots);
            }
        }
        for (Object step : steps) {
            if (!(step instanceof KernelPlan k)) continue;
            for (Node out : List.copyOf(k.outputs)) {
                int slot = l.slot(out);
                if (read.contains(out)) continue;
                boolean readByKernelStep = false;
                for (Set<Integer> s : readByKernel.values()) readByKernelStep |= s.contains(slot);
                if (readByKernelStep) continue;
                k.outputs.remove(out);
                k.rowStores.removeIf(s -> s.buffer() == slot);
                k.elementStores.removeIf(s -> s.buffer() == slot);
                decisions.add("not materialized: " + out.name() + " (read only inside " + k.name + ")");
            }
        }
        steps.removeIf(step -> step instanceof KernelPlan k && k.rowStores.isEmpty() && k.elementStores.isEmpty());
    }

    static List<Expr> exprs(KernelPlan k) {
        List<Expr> out = new ArrayList<>();
        for (LoopKernel.Reduction r : k.reductions) out.add(r.body());
        for (LoopKernel.Store s : k.rowStores) out.add(s.value());
        for (LoopKernel.Store s : k.elementStores) out.add(s.value());
        return out;
    }

    static void slotsRead(Expr e, Set<Integer> into) {
        if (e instanceof Expr.Load ld) into.add(ld.buffer());
        if (e instanceof Expr.IndirectLoad ld) into.add(ld.buffer());
        for (Expr c : e.children()) slotsRead(c, into);
    }

    private static long[] concat(long[] a, long[] b) {
        long[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

package org.jtorch.compile.inductor;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;

/**
 * Where each output of a kernel, or of an extern call placed in storage of the plan's ({@link ExternCall}), lives: in
 * one of the plan's arena slots, storage the plan keeps between calls, or in storage allocated on each call.
 *
 * <p>An intermediate's lifetime runs from the step that computes it to the last step that reads it. Views of realized
 * tensors run as extern calls, so the lifetime of every argument of an extern call whose result may be a view (its
 * schema's alias annotation says so, or it has no schema) covers its result's. A value that is, or may be a view of, a
 * graph output escapes: the caller holds it after the call, so it is never shared. The others share slots by storage
 * kind and size: once a buffer's last reader has run, a later output of the same kind and size takes its storage (never
 * the reader's own outputs, which it writes while it reads). With {@link InductorConfig#keepOutputs()} the escaping
 * outputs get slots of their own, written again by each call; without it they are allocated on each call. Write-backs
 * stored in place (a kernel storing into a graph input) allocate nothing.
 *
 * @param slotOf per launch and per planned extern call, per output, its arena slot, or -1 for storage allocated on each
 *     call (the input it is stored into, when a launch's {@code into} names one, is not looked at)
 * @param kinds per slot, its storage kind
 * @param sizes per slot, its size in storage slots
 * @param outputSlot per slot, whether it holds a graph output (handed to the caller, so written again only by the next
 *     call)
 * @param decisions what was shared, for the structured trace
 */
record MemoryPlan(
        Map<Object, int[]> slotOf,
        DType.StorageKind[] kinds,
        long[] sizes,
        boolean[] outputSlot,
        List<String> decisions) {

    /** A plan in which every output is allocated on every call. */
    static MemoryPlan none(List<Object> steps) {
        Map<Object, int[]> slotOf = new IdentityHashMap<>();
        for (Object step : steps) {
            for (Writer w : writersOf(step)) {
                int[] slots = new int[w.layouts().length];
                java.util.Arrays.fill(slots, -1);
                slotOf.put(w.step(), slots);
            }
        }
        return new MemoryPlan(slotOf, new DType.StorageKind[0], new long[0], new boolean[0], List.of());
    }

    /** The plan of {@code steps}, whose graph returns the arguments of {@code output}. */
    static MemoryPlan of(List<Object> steps, Node output, boolean keepOutputs) {
        Map<Node, Integer> lastUse = new HashMap<>();
        for (int i = 0; i < steps.size(); i++) {
            for (CompiledPlan.Launch l : launchesOf(steps.get(i))) {
                for (Node b : l.buffers()) lastUse.put(b, i);
            }
            Node extern = externNode(steps.get(i));
            if (extern != null) {
                for (Node in : extern.inputNodes()) lastUse.put(in, i);
            }
        }
        Set<Node> escaping = new HashSet<>();
        for (Object a : output.args()) {
            if (a instanceof Node n) {
                escaping.add(n);
                InputWritebacks.Copy copy = InputWritebacks.copyOf(n);
                if (copy != null) escaping.add(copy.input());
            }
        }
        // a view's arguments live as long as it does (latest steps first, so a chain of views reaches back to the
        // kernel output it views)
        for (int i = steps.size() - 1; i >= 0; i--) {
            if (!(steps.get(i) instanceof Lowering.ExternStep x) || !mayAlias(x.node())) continue;
            Node result = x.node();
            int end = Math.max(i, lastUse.getOrDefault(result, i));
            for (Node in : result.inputNodes()) {
                lastUse.merge(in, end, Math::max);
                if (escaping.contains(result)) escaping.add(in);
            }
        }
        return assign(steps, lastUse, escaping, keepOutputs);
    }

    /**
     * Whether an extern call's result may share memory with its arguments: a view (its schema says so), or a call whose
     * schema is unknown ({@code getitem} of a tuple, whose items may be views). A write-back copies, and what it
     * returns is the graph input it writes, not its value.
     */
    private static boolean mayAlias(Node n) {
        if (InputWritebacks.copyOf(n) != null) return false;
        return n.schema() == null || n.schema().returnsAlias();
    }

    /** The call node of an extern step, planned or not; null for a launch. */
    private static Node externNode(Object step) {
        if (step instanceof Lowering.ExternStep x) return x.node();
        if (step instanceof ExternCall c) return c.node();
        return null;
    }

    /**
     * A launch or planned extern call as this plan sees it: per output, its layout, the nodes holding it (their
     * lifetimes and escapes are the output's), and the graph input it is stored into (null: it needs storage).
     */
    private record Writer(Object step, TensorMeta[] layouts, Node[][] holders, Node[] into) {}

    private static List<Writer> writersOf(Object step) {
        List<Writer> out = new ArrayList<>();
        for (CompiledPlan.Launch l : launchesOf(step)) {
            Node[][] holders = new Node[l.outputs().length][];
            for (int o = 0; o < holders.length; o++) holders[o] = new Node[] {l.outputs()[o]};
            out.add(new Writer(l, l.layouts(), holders, l.into()));
        }
        if (step instanceof ExternCall c) {
            out.add(new Writer(c, c.layouts(), c.holders(), new Node[c.layouts().length]));
        }
        return out;
    }

    private record Size(DType.StorageKind kind, long slots) {}

    private static MemoryPlan assign(
            List<Object> steps, Map<Node, Integer> lastUse, Set<Node> escaping, boolean keepOutputs) {
        Map<Object, int[]> slotOf = new IdentityHashMap<>();
        List<Size> sizes = new ArrayList<>();
        List<Boolean> outputSlots = new ArrayList<>();
        List<String> decisions = new ArrayList<>();
        Map<Size, Deque<Integer>> free = new HashMap<>();
        // per slot, the step after which it is free again, and the buffer holding it
        List<Integer> busyUntil = new ArrayList<>();
        List<String> holder = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            for (int s = 0; s < busyUntil.size(); s++) {
                if (busyUntil.get(s) >= 0 && busyUntil.get(s) < i) {
                    busyUntil.set(s, -1);
                    free.computeIfAbsent(sizes.get(s), k -> new ArrayDeque<>()).push(s);
                }
            }
            for (Writer w : writersOf(steps.get(i))) {
                int[] slots = new int[w.layouts().length];
                for (int o = 0; o < slots.length; o++) {
                    Node[] holders = w.holders()[o];
                    Size size = new Size(w.layouts()[o].dtype().storageKind(), storageSlots(w.layouts()[o]));
                    boolean escapes = false;
                    int end = i; // an output nobody reads is free once its step has run
                    for (Node h : holders) {
                        escapes |= escaping.contains(h);
                        end = Math.max(end, lastUse.getOrDefault(h, i));
                    }
                    if (w.into()[o] != null || (escapes && !keepOutputs)) {
                        slots[o] = -1;
                        continue;
                    }
                    String name = holders.length > 0
                            ? holders[0].name()
                            : externNode(w.step()).name() + "[" + o + "]";
                    Deque<Integer> reusable = escapes ? null : free.get(size);
                    if (reusable != null && !reusable.isEmpty()) {
                        slots[o] = reusable.pop();
                        decisions.add("buffer " + name + " reuses the storage of " + holder.get(slots[o]));
                        holder.set(slots[o], name);
                    } else {
                        slots[o] = sizes.size();
                        sizes.add(size);
                        outputSlots.add(escapes);
                        holder.add(name);
                        busyUntil.add(-1);
                    }
                    // a graph output's slot is never free: the caller holds it until the next call
                    busyUntil.set(slots[o], escapes ? Integer.MAX_VALUE : end);
                }
                slotOf.put(w.step(), slots);
            }
        }
        DType.StorageKind[] kinds = new DType.StorageKind[sizes.size()];
        long[] slotCounts = new long[sizes.size()];
        boolean[] outputs = new boolean[sizes.size()];
        for (int s = 0; s < kinds.length; s++) {
            kinds[s] = sizes.get(s).kind();
            slotCounts[s] = sizes.get(s).slots();
            outputs[s] = outputSlots.get(s);
        }
        return new MemoryPlan(slotOf, kinds, slotCounts, outputs, decisions);
    }

    /** How many storage slots a tensor of this layout spans (0 for an empty one). */
    static long storageSlots(TensorMeta layout) {
        long[] shape = layout.shape();
        long[] stride = layout.stride();
        long slots = 1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 0) return 0;
            slots += (shape[d] - 1) * stride[d];
        }
        return slots * layout.dtype().slotsPerElement();
    }

    private static List<CompiledPlan.Launch> launchesOf(Object step) {
        if (step instanceof CompiledPlan.Launch l) return List.of(l);
        if (step instanceof CompiledPlan.ComboLaunch c) return c.parts();
        return List.of();
    }
}

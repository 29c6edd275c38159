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
 * Where each kernel output of a compiled graph lives: in one of the plan's arena slots, storage the plan keeps between
 * calls, or in storage allocated on each call.
 *
 * <p>An intermediate's lifetime runs from the step that computes it to the last step that reads it. Views of realized
 * tensors run as extern calls, so the lifetime of every argument of an extern call whose result may be a view (its
 * schema's alias annotation says so, or it has no schema) covers its result's. A value that is, or may be a view of, a
 * graph output escapes: the caller holds it after the call, so it is never shared. The others share slots by storage
 * kind and size: once a buffer's last reader has run, a later kernel's output of the same kind and size takes its
 * storage (never the reader's own outputs, which it writes while it reads). With {@link InductorConfig#keepOutputs()}
 * the escaping kernel outputs get slots of their own, written again by each call; without it they are allocated on each
 * call. Write-backs stored in place (a kernel storing into a graph input) allocate nothing.
 *
 * @param slotOf per launch, per output, its arena slot, or -1 for storage allocated on each call (the input it is
 *     stored into, when {@code into} names one, is not looked at)
 * @param kinds per slot, its storage kind
 * @param sizes per slot, its size in storage slots
 * @param outputSlot per slot, whether it holds a graph output (handed to the caller, so written again only by the next
 *     call)
 * @param decisions what was shared, for the structured trace
 */
record MemoryPlan(
        Map<CompiledPlan.Launch, int[]> slotOf,
        DType.StorageKind[] kinds,
        long[] sizes,
        boolean[] outputSlot,
        List<String> decisions) {

    /** A plan in which every kernel output is allocated on every call. */
    static MemoryPlan none(List<Object> steps) {
        Map<CompiledPlan.Launch, int[]> slotOf = new IdentityHashMap<>();
        for (CompiledPlan.Launch l : launches(steps)) {
            int[] slots = new int[l.outputs().length];
            java.util.Arrays.fill(slots, -1);
            slotOf.put(l, slots);
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
            if (steps.get(i) instanceof Lowering.ExternStep x) {
                for (Node in : x.node().inputNodes()) lastUse.put(in, i);
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

    private record Size(DType.StorageKind kind, long slots) {}

    private static MemoryPlan assign(
            List<Object> steps, Map<Node, Integer> lastUse, Set<Node> escaping, boolean keepOutputs) {
        Map<CompiledPlan.Launch, int[]> slotOf = new IdentityHashMap<>();
        List<Size> sizes = new ArrayList<>();
        List<Boolean> outputSlots = new ArrayList<>();
        List<String> decisions = new ArrayList<>();
        Map<Size, Deque<Integer>> free = new HashMap<>();
        // per slot, the step after which it is free again, and the buffer holding it
        List<Integer> busyUntil = new ArrayList<>();
        List<Node> holder = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            for (int s = 0; s < busyUntil.size(); s++) {
                if (busyUntil.get(s) >= 0 && busyUntil.get(s) < i) {
                    busyUntil.set(s, -1);
                    free.computeIfAbsent(sizes.get(s), k -> new ArrayDeque<>()).push(s);
                }
            }
            for (CompiledPlan.Launch l : launchesOf(steps.get(i))) {
                int[] slots = new int[l.outputs().length];
                for (int o = 0; o < slots.length; o++) {
                    Node out = l.outputs()[o];
                    Size size = new Size(l.layouts()[o].dtype().storageKind(), storageSlots(l.layouts()[o]));
                    boolean escapes = escaping.contains(out);
                    if (l.into()[o] != null || (escapes && !keepOutputs)) {
                        slots[o] = -1;
                        continue;
                    }
                    Deque<Integer> reusable = escapes ? null : free.get(size);
                    if (reusable != null && !reusable.isEmpty()) {
                        slots[o] = reusable.pop();
                        decisions.add("buffer " + out.name() + " reuses the storage of "
                                + holder.get(slots[o]).name());
                        holder.set(slots[o], out);
                    } else {
                        slots[o] = sizes.size();
                        sizes.add(size);
                        outputSlots.add(escapes);
                        holder.add(out);
                        busyUntil.add(-1);
                    }
                    // a graph output's slot is never free: the caller holds it until the next call
                    busyUntil.set(slots[o], escapes ? Integer.MAX_VALUE : lastUse.getOrDefault(out, i));
                }
                slotOf.put(l, slots);
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

    private static List<CompiledPlan.Launch> launches(List<Object> steps) {
        List<CompiledPlan.Launch> out = new ArrayList<>();
        for (Object step : steps) out.addAll(launchesOf(step));
        return out;
    }
}

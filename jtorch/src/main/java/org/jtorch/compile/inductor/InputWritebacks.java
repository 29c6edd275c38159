package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;

/**
 * Input mutation, as AOT autograd leaves it for Inductor: a graph that is functional except for trailing
 * {@code input.copy_(value)} nodes, each writing a computed value back into one of the graph's inputs (an optimizer
 * step writes the new parameters and state into the old tensors this way).
 *
 * <p>The graph is compiled as a functional graph whose copies run at the end, after every value has been computed, so
 * no value reads an input another copy has already overwritten. Then, where it is safe, the kernel computing a copied
 * value stores it straight into the input ({@link #reinplace}) and the copy disappears: the whole update is one pass
 * over memory, as Inductor's re-inplacing makes it. Safe means the input is read by that kernel alone, at exactly the
 * element the kernel writes (a pointwise kernel computes every value of a point before it stores any, so it reads the
 * old element), with the value's layout the input's own.
 */
final class InputWritebacks {
    private InputWritebacks() {}

    /** A write-back: {@code node} copies {@code value} into the graph input {@code input}. */
    record Copy(Node node, Node input, Node value) {}

    /**
     * The trailing copies into inputs of {@code gm}, in order; empty when the graph mutates nothing. Returns null when
     * the graph mutates in another way (an in-place op in the middle, a copy into a non-input, two copies into one
     * input), which the backend leaves to the interpreter.
     */
    static List<Copy> of(GraphModule gm) {
        List<Copy> copies = new ArrayList<>();
        Set<Node> targets = new HashSet<>();
        for (Node n : gm.graph().nodes()) {
            if (!n.op().equals("call_function")) continue;
            boolean mutates = n.form() != Node.Form.FUNCTIONAL
                    || (n.schema() != null && n.schema().isMutable());
            if (!mutates) {
                if (!copies.isEmpty()) return null; // computation after a write-back: not trailing
                continue;
            }
            Copy c = copyOf(n);
            if (c == null || !targets.add(c.input())) return null;
            for (Node user : n.users()) if (!user.op().equals("output")) return null;
            copies.add(c);
        }
        return copies;
    }

    /**
     * {@code n} as a write-back of a computed value into an input: {@code input.copy_(value)}, which the tracer records
     * as {@code aten.copy_} or as {@code aten._to_copy.out(value, ..., out=[input])}; null for anything else.
     */
    static Copy copyOf(Node n) {
        List<Object> a = n.args();
        Object input = null, value = null;
        if (n.target().equals("aten.copy_.default") && a.size() >= 2) {
            input = a.get(0);
            value = a.get(1);
        } else if (n.target().equals("aten._to_copy.out") && n.form() == Node.Form.OUT && !a.isEmpty()) {
            value = a.get(0);
            input = a.getLast() instanceof List<?> out && out.size() == 1 ? out.getFirst() : a.getLast();
        }
        if (input instanceof Node in && in.op().equals("placeholder") && value instanceof Node v) {
            return v.op().equals("placeholder") ? null : new Copy(n, in, v);
        }
        return null;
    }

    /**
     * The steps with each write-back whose value a kernel computes, and may store in place, removed; {@code into}
     * receives, per launch, the input node each of its outputs is stored into (null: a new tensor).
     */
    static List<Object> reinplace(
            List<Object> steps, GraphModule gm, Map<Node, TensorMeta> layouts, Map<CompiledPlan.Launch, Node[]> into) {
        Set<Node> graphOutputs = new HashSet<>();
        for (Object a : gm.graph().nodes().getLast().args()) if (a instanceof Node n) graphOutputs.add(n);
        Map<Node, CompiledPlan.Launch> producer = new HashMap<>();
        for (Object step : steps) {
            if (step instanceof CompiledPlan.Launch l) for (Node o : l.outputs()) producer.put(o, l);
        }
        List<Object> out = new ArrayList<>();
        Set<Node> stored = new HashSet<>();
        for (Object step : steps) {
            Copy copy = step instanceof Lowering.ExternStep x ? copyOf(x.node()) : null;
            if (copy != null) {
                Node dst = copy.input(), src = copy.value();
                CompiledPlan.Launch launch = producer.get(src);
                if (launch != null
                        && !graphOutputs.contains(src)
                        && !stored.contains(src)
                        && sameLayout(layouts.get(src), layouts.get(dst))
                        && readOnlyBy(dst, launch, steps, step)
                        && readsOnlyInPlace(launch, dst, src)) {
                    stored.add(src);
                    Node[] targets = into.computeIfAbsent(launch, l -> new Node[l.outputs().length]);
                    targets[List.of(launch.outputs()).indexOf(src)] = dst;
                    continue;
                }
            }
            out.add(step);
        }
        return out;
    }

    /** Same dtype, sizes and strides, and a contiguous layout (one element per address). */
    private static boolean sameLayout(TensorMeta value, TensorMeta input) {
        if (value == null || input == null || value.dtype() != input.dtype()) return false;
        if (!java.util.Arrays.equals(value.shape(), input.shape())) return false;
        if (!java.util.Arrays.equals(value.stride(), input.stride())) return false;
        return java.util.Arrays.equals(input.stride(), org.jtorch.internal.Shapes.contiguousStrides(input.shape()));
    }

    /** Whether no step but {@code launch} (and the write-back itself) reads {@code input}. */
    private static boolean readOnlyBy(Node input, CompiledPlan.Launch launch, List<Object> steps, Object writeback) {
        for (Object step : steps) {
            if (step == launch || step == writeback) continue;
            if (step instanceof CompiledPlan.Launch l && List.of(l.buffers()).contains(input)) return false;
            if (step instanceof Lowering.ExternStep x && x.node().inputNodes().contains(input)) return false;
        }
        return true;
    }

    /**
     * Whether {@code launch} is pointwise and reads {@code input} only at the element where it stores {@code value}, by
     * plain loads.
     */
    private static boolean readsOnlyInPlace(CompiledPlan.Launch launch, Node input, Node value) {
        LoopKernel ir = launch.ir();
        if (!ir.isPointwise() || !ir.rowStores().isEmpty()) return false;
        List<Node> buffers = List.of(launch.buffers());
        int in = buffers.indexOf(input), val = buffers.indexOf(value);
        Access at = null;
        for (LoopKernel.Store s : ir.elementStores()) if (s.buffer() == val) at = s.access();
        if (at == null) return false;
        if (in < 0) return true;
        for (LoopKernel.Store s : ir.elementStores()) if (!loadsOnlyAt(s.value(), in, at)) return false;
        return true;
    }

    private static boolean loadsOnlyAt(Expr e, int buffer, Access at) {
        if (e instanceof Expr.Load ld && ld.buffer() == buffer && !ld.access().equals(at)) return false;
        if (e instanceof Expr.IndirectLoad ld && ld.buffer() == buffer) return false;
        for (Expr c : e.children()) if (!loadsOnlyAt(c, buffer, at)) return false;
        return true;
    }

    /**
     * Whether an input a kernel stores into ({@code written}, positions in {@code inputs}) shares its storage with
     * another input: a store would then be seen by reads the graph orders before the copies, so such a call runs with
     * the interpreter.
     */
    static boolean aliased(Tensor[] inputs, int[] written) {
        Map<Object, Integer> tensorsPerStorage = new IdentityHashMap<>();
        // by memory, not storage object: a view as another dtype (Tensor.view(dtype)) has its own storage object
        for (Tensor t : inputs) tensorsPerStorage.merge(t.impl().storage().root(), 1, Integer::sum);
        for (int w : written)
            if (tensorsPerStorage.get(inputs[w].impl().storage().root()) > 1) return true;
        return false;
    }
}

package org.jtorch.autograd;

import java.io.Serial;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.ComplexOps;
import org.jtorch.ops.Creation;
import org.jtorch.ops.ReductionOps;

/**
 * Runs the backward graph: counts each node's incoming edges, then executes nodes whose gradients are complete, newest
 * first, summing the gradients that meet at a node. In capture mode (for {@code Autograd.grad}) it runs only the nodes
 * that lead to a requested input and leaves {@code .grad} fields alone.
 */
final class Engine {
    private Engine() {}

    /** A place whose arriving gradient is captured: slot {@code slot} of {@code node}, result index {@code index}. */
    private record Capture(Node node, int slot, int index) {}

    static Tensor[] run(
            List<Tensor> roots,
            List<Tensor> rootGrads,
            boolean keepGraph,
            boolean createGraph,
            List<Tensor> inputs,
            boolean allowUnused) {
        Edge[] rootEdges = new Edge[roots.size()];
        for (int i = 0; i < roots.size(); i++) {
            Tensor r = roots.get(i);
            if (!r.requiresGrad()) {
                throw new TorchException(
                        "element " + i + " of tensors does not require grad and does not have a grad_fn");
            }
            rootEdges[i] = Recorder.edgeOf(r);
        }
        Map<Node, Integer> deps = new IdentityHashMap<>();
        List<Node> order = discover(rootEdges, deps);

        Map<Node, List<Capture>> captures = new IdentityHashMap<>();
        Set<Node> needed = null;
        if (inputs != null) {
            for (int i = 0; i < inputs.size(); i++) {
                Tensor in = inputs.get(i);
                if (!in.requiresGrad())
                    throw new TorchException("One of the differentiated Tensors does not require grad");
                Edge e = Recorder.edgeOf(in);
                captures.computeIfAbsent(e.node(), k -> new ArrayList<>()).add(new Capture(e.node(), e.inputNr(), i));
            }
            needed = neededNodes(order, captures.keySet());
        }

        Map<Node, Tensor[]> buffers = new IdentityHashMap<>();
        Tensor[] captured = inputs == null ? null : new Tensor[inputs.size()];
        PriorityQueue<Node> ready = new PriorityQueue<>(
                Comparator.comparingLong((Node n) -> n.sequenceNr).reversed());
        for (Edge e : rootEdges) {
            if (deps.getOrDefault(e.node(), 0) == 0 && !ready.contains(e.node())) ready.add(e.node());
        }
        GradRecycler recycler = GradRecycler.begin(createGraph);
        try {
            for (int i = 0; i < roots.size(); i++) {
                Edge e = rootEdges[i];
                accumulate(buffers, e.node(), e.inputNr(), rootGrads.get(i), recycler);
            }
            try (GradMode.Scope _ = GradMode.set(createGraph)) {
                while (!ready.isEmpty()) {
                    Node node = ready.poll();
                    Tensor[] grads = buffers.remove(node);
                    Tensor[] held = grads == null ? null : grads.clone();
                    boolean contained = GradRecycler.contained(node);
                    if (recycler != null && !contained) recycler.escapeAll(grads);
                    Tensor[] out = null;
                    if (grads != null) {
                        grads = node.runNodePreHooks(runPreHooks(node, grads));
                        List<Capture> caps = captures.get(node);
                        if (caps != null) {
                            for (Capture c : caps) {
                                captured[c.index()] = grads[c.slot()];
                                if (recycler != null) recycler.escape(grads[c.slot()]);
                            }
                        }
                        boolean skip = inputs != null && (node instanceof AccumulateGrad || !needed.contains(node));
                        if (!skip) {
                            if (node.materializeGrads()) {
                                for (int j = 0; j < grads.length; j++) {
                                    if (grads[j] == null)
                                        grads[j] = Creation.full(
                                                node.outputShapes[j], 0L, node.outputDtypes[j], Device.CPU);
                                }
                            }
                            out = node.runPostHooks(call(node, grads), grads);
                            if (!keepGraph) node.release();
                        }
                    }
                    for (int i = 0; i < node.next.length; i++) {
                        Edge e = node.next[i];
                        if (e == null) continue;
                        if (out != null && i < out.length && out[i] != null) {
                            Tensor g = validate(out[i], node, i);
                            if (recycler != null && !contained) {
                                recycler.escape(out[i]);
                                recycler.escape(g);
                            }
                            accumulate(buffers, e.node(), e.inputNr(), g, recycler);
                        }
                        if (deps.merge(e.node(), -1, Integer::sum) == 0) ready.add(e.node());
                    }
                    // only now, after the results took their slots: a gradient passed through unchanged stays held
                    if (recycler != null) recycler.dropAll(held);
                }
            }
        } finally {
            if (recycler != null) recycler.close();
        }
        if (captured != null && !allowUnused) {
            for (int i = 0; i < captured.length; i++) {
                if (captured[i] == null) {
                    throw new TorchException(
                            "One of the differentiated Tensors appears to not have been used in the graph. "
                                    + "Set allowUnused = true (Autograd.GradOptions.allowUnused(true)) if this is "
                                    + "the desired behavior.");
                }
            }
        }
        return captured;
    }

    /** All nodes reachable from the roots, with the number of edges that reach each. */
    private static List<Node> discover(Edge[] roots, Map<Node, Integer> deps) {
        List<Node> order = new ArrayList<>();
        Set<Node> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        ArrayDeque<Node> stack = new ArrayDeque<>();
        for (Edge e : roots) {
            if (seen.add(e.node())) {
                stack.push(e.node());
                order.add(e.node());
            }
        }
        while (!stack.isEmpty()) {
            Node n = stack.pop();
            for (Edge e : n.next) {
                if (e == null) continue;
                deps.merge(e.node(), 1, Integer::sum);
                if (seen.add(e.node())) {
                    stack.push(e.node());
                    order.add(e.node());
                }
            }
        }
        return order;
    }

    /**
     * Nodes from which some capture node can be reached through at least one edge: only they need to run. A capture
     * node itself runs only if it leads to another capture, as in PyTorch, so {@code grad(y, h)} for a non-leaf
     * {@code h} neither computes nor frees the history of {@code h}.
     */
    private static Set<Node> neededNodes(List<Node> nodes, Set<Node> targets) {
        Set<Node> needed = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean changed = true;
        while (changed) { // graphs are DAGs discovered root-first; a few passes settle it
            changed = false;
            for (int k = nodes.size() - 1; k >= 0; k--) {
                Node n = nodes.get(k);
                if (needed.contains(n)) continue;
                for (Edge e : n.next) {
                    if (e != null && (needed.contains(e.node()) || targets.contains(e.node()))) {
                        needed.add(n);
                        changed = true;
                        break;
                    }
                }
            }
        }
        return needed;
    }

    /**
     * Runs one node. Under anomaly mode a returned NaN is an error, and any error carries the forward traceback of the
     * node (PyTorch prints it as a warning; here it travels with the exception).
     */
    private static Tensor[] call(Node node, Tensor[] grads) {
        if (!AnomalyMode.isEnabled()) return node.apply(grads);
        Tensor[] out;
        try {
            out = node.apply(grads);
        } catch (RuntimeException e) {
            if (node.creationTrace != null) e.addSuppressed(new AnomalyTrace(AnomalyMode.forwardTraceback(node)));
            throw e;
        }
        if (AnomalyMode.checksNan()) {
            for (int i = 0; i < out.length; i++) {
                if (out[i] != null && hasNan(out[i])) {
                    throw new TorchException("Function '" + node.name() + "' returned nan values in its " + i
                            + "th output." + AnomalyMode.forwardTraceback(node));
                }
            }
        }
        return out;
    }

    private static boolean hasNan(Tensor t) {
        if (!(t.isFloatingPoint() || t.isComplex())) return false;
        try (GradMode.Scope _ = GradMode.set(false)) {
            return t.isnan().any().item() != 0;
        }
    }

    /** The forward traceback attached to a backward error under anomaly mode (a record, not a cause). */
    static final class AnomalyTrace extends RuntimeException {
        @Serial
        private static final long serialVersionUID = 1L;

        AnomalyTrace(String message) {
            super(message, null, false, false);
        }
    }

    private static Tensor[] runPreHooks(Node node, Tensor[] grads) {
        for (Node.PreHook h : node.preHooks()) {
            Tensor g = grads[h.outputNr()];
            if (g == null) continue;
            Tensor r = h.fn().apply(g);
            if (r != null) grads[h.outputNr()] = r;
        }
        return grads;
    }

    private static void accumulate(Map<Node, Tensor[]> buffers, Node node, int slot, Tensor g, GradRecycler recycler) {
        Tensor[] buf = buffers.computeIfAbsent(node, n -> new Tensor[n.outputShapes.length]);
        Tensor previous = buf[slot];
        buf[slot] = previous == null ? g : previous.add(g);
        if (recycler != null) {
            recycler.hold(buf[slot]);
            if (previous != null) { // both addends left their slots; the sum took one
                recycler.drop(previous);
                recycler.hold(g);
                recycler.drop(g);
            }
        }
    }

    /**
     * PyTorch's {@code validate_outputs}: a gradient with the broadcast shape of the forward output is summed down to
     * the input's shape; a gradient of another dtype is cast to the input's dtype (the real part for a real input).
     */
    static Tensor validate(Tensor g, Node node, int input) {
        long[] shape = node.inputShapes[input];
        DType dtype = node.inputDtypes[input];
        if (!Arrays.equals(g.impl().shapeRef(), shape)) g = sumTo(g, shape, node, input);
        if (g.dtype() != dtype) {
            if (g.isComplex() && !dtype.isComplex()) g = ComplexOps.real(g);
            g = g.to(dtype);
        }
        return g;
    }

    static Tensor sumTo(Tensor g, long[] shape, Node node, int input) {
        long[] gs = g.impl().shapeRef();
        int lead = gs.length - shape.length;
        if (lead < 0) {
            throw new TorchException("Function " + node.name() + " returned an invalid gradient at index " + input
                    + " - got " + org.jtorch.internal.Shapes.str(gs) + " but expected shape compatible with "
                    + org.jtorch.internal.Shapes.str(shape));
        }
        List<Long> dims = new ArrayList<>();
        for (int d = 0; d < lead; d++) dims.add((long) d);
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 1 && gs[lead + d] != 1) dims.add((long) (lead + d));
            else if (shape[d] != gs[lead + d]) {
                throw new TorchException("Function " + node.name() + " returned an invalid gradient at index " + input
                        + " - got " + org.jtorch.internal.Shapes.str(gs) + " but expected shape compatible with "
                        + org.jtorch.internal.Shapes.str(shape));
            }
        }
        Tensor r = dims.isEmpty()
                ? g
                : ReductionOps.sum(g, dims.stream().mapToLong(Long::longValue).toArray(), true);
        return r.reshape(shape);
    }
}

package org.jtorch.fx;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.TorchException;

/**
 * Splits a joint graph ({@link AotAutograd#traceJoint}) into a forward and a backward graph once the saved values are
 * chosen: the forward graph is every node its outputs and the saved values need, the backward graph every node the
 * gradients need, starting from the saved values and the tangents. Constants ({@code get_attr}) are read by whichever
 * graph uses them, never saved.
 */
final class Partitioner {
    private Partitioner() {}

    static PartitionedGraphs partition(GraphModule joint, SavePolicy policy) {
        Joint j = Joint.of(joint);
        Set<Node> tangentDependent = j.tangentDependent();
        List<Node> saved = policy == SavePolicy.SAVE_ALL
                ? savedByForward(j, tangentDependent)
                : MinCutPartition.saved(j, tangentDependent);
        return build(j, saved);
    }

    /**
     * The save-all choice: the forward computes what its outputs need (and receives every input), and each of those
     * values that the backward reads is saved; whatever else the backward needs it computes itself.
     */
    private static List<Node> savedByForward(Joint j, Set<Node> tangentDependent) {
        Set<Node> forward = ancestors(j.outputs);
        forward.addAll(j.primals);
        // A multi-output op computed in the forward hands all its outputs over: a tuple cannot be saved, its items can.
        for (Node n : j.module.graph().nodes()) {
            if (n.target().equals(Node.GETITEM)
                    && forward.contains((Node) n.args().get(0))) forward.add(n);
        }
        for (Node n : forward) {
            if (tangentDependent.contains(n)) {
                throw new IllegalStateException("forward value " + n + " depends on a tangent");
            }
        }
        Set<Node> saved = identitySet();
        ArrayDeque<Node> work = new ArrayDeque<>();
        Set<Node> seen = identitySet();
        for (Node g : j.gradients) if (g != null) work.add(g);
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (!seen.add(n)) continue;
            if (forward.contains(n) && !n.op().equals(Node.GET_ATTR)) saved.add(n);
            else work.addAll(n.inputNodes());
        }
        return inJointOrder(j, saved);
    }

    /** The two graphs for the given saved values. */
    private static PartitionedGraphs build(Joint j, List<Node> saved) {
        List<Node> forwardResults = new ArrayList<>(j.outputs);
        forwardResults.addAll(saved);
        GraphModule forward = extract(j, j.primals, forwardResults);
        List<Node> backwardInputs = new ArrayList<>(saved);
        backwardInputs.addAll(j.tangents);
        GraphModule backward = extract(j, backwardInputs, j.gradients);
        DeadCodeElimination.run(forward.graph());
        DeadCodeElimination.run(backward.graph());
        boolean[] withTangent = new boolean[j.outputs.size()];
        for (int i = 0; i < withTangent.length; i++) {
            TensorMeta m = j.outputs.get(i).meta();
            withTangent[i] = m != null && m.requiresGrad();
        }
        return new PartitionedGraphs(forward, backward, j.outputs.size(), withTangent);
    }

    /**
     * A new graph with {@code inputs} as placeholders (named as in the joint graph) computing {@code results} (null
     * stays None): the joint nodes between them, copied in joint order. Reaching a placeholder of the joint graph that
     * is not an input means the partition is not closed, a fault of the partitioner.
     */
    private static GraphModule extract(Joint j, List<Node> inputs, List<Node> results) {
        Graph graph = new Graph();
        Map<Node, Node> copies = new IdentityHashMap<>();
        for (Node in : inputs) {
            Node p = graph.placeholder(in.name());
            p.setMeta(in.meta());
            copies.put(in, p);
        }
        Set<Node> needed = identitySet();
        ArrayDeque<Node> work = new ArrayDeque<>();
        for (Node r : results) if (r != null) work.add(r);
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (copies.containsKey(n) || !needed.add(n)) continue;
            if (n.op().equals(Node.PLACEHOLDER)) {
                throw new IllegalStateException("partition is not closed: " + n + " is needed but not an input");
            }
            work.addAll(n.inputNodes());
        }
        Map<String, org.jtorch.Tensor> constants = new LinkedHashMap<>();
        for (Node n : j.module.graph().nodes()) {
            if (!needed.contains(n)) continue;
            if (n.op().equals(Node.GET_ATTR))
                constants.put(n.target(), j.module.constants().get(n.target()));
            copies.put(n, GraphCopy.node(n, graph, copies));
        }
        Node[] out = new Node[results.size()];
        for (int i = 0; i < out.length; i++) out[i] = results.get(i) == null ? null : copies.get(results.get(i));
        graph.output(out);
        return new GraphModule(graph, constants);
    }

    static Set<Node> ancestors(List<Node> from) {
        Set<Node> seen = identitySet();
        ArrayDeque<Node> work = new ArrayDeque<>();
        for (Node n : from) if (n != null) work.add(n);
        while (!work.isEmpty()) {
            Node n = work.pop();
            if (seen.add(n)) work.addAll(n.inputNodes());
        }
        return seen;
    }

    static List<Node> inJointOrder(Joint j, Set<Node> nodes) {
        List<Node> ordered = new ArrayList<>(nodes.size());
        for (Node n : j.module.graph().nodes()) if (nodes.contains(n)) ordered.add(n);
        return ordered;
    }

    static Set<Node> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }

    /** A joint graph read by its signature: primals, tangents, the forward outputs and one gradient per primal. */
    static final class Joint {
        final GraphModule module;
        final List<Node> primals = new ArrayList<>();
        final List<Node> tangents = new ArrayList<>();
        final List<Node> outputs;
        final List<Node> gradients;

        private Joint(GraphModule module, List<Node> outputs, List<Node> gradients) {
            this.module = module;
            this.outputs = outputs;
            this.gradients = gradients;
        }

        static Joint of(GraphModule joint) {
            List<Node> nodes = joint.graph().nodes();
            List<Node> primals = new ArrayList<>(), tangents = new ArrayList<>();
            for (Node n : nodes) {
                if (!n.op().equals(Node.PLACEHOLDER)) continue;
                if (n.name().startsWith("primals_")) primals.add(n);
                else if (n.name().startsWith("tangents_")) tangents.add(n);
                else throw notJoint("placeholder " + n + " is neither primals_N nor tangents_N");
            }
            for (Node n : nodes) {
                if (n.op().equals(Node.CALL_FUNCTION) && n.form() != Node.Form.FUNCTIONAL) {
                    throw notJoint(n + " mutates its argument; functionalize the joint graph first");
                }
            }
            Node output = nodes.getLast();
            List<Node> results = new ArrayList<>();
            for (Object a : output.args()) results.add((Node) a);
            int outputCount = results.size() - primals.size();
            if (outputCount < 0) throw notJoint("it returns fewer values than it has primals");
            Joint j = new Joint(
                    joint,
                    new ArrayList<>(results.subList(0, outputCount)),
                    new ArrayList<>(results.subList(outputCount, results.size())));
            j.primals.addAll(primals);
            j.tangents.addAll(tangents);
            int withTangent = 0;
            for (Node o : j.outputs) {
                if (o == null) throw notJoint("a forward output is None");
                if (o.meta() != null && o.meta().requiresGrad()) withTangent++;
            }
            if (withTangent != tangents.size()) {
                throw notJoint(withTangent + " outputs require grad but there are " + tangents.size() + " tangents");
            }
            return j;
        }

        /** Every node computed from a tangent: the part of the graph that can only run in the backward. */
        Set<Node> tangentDependent() {
            Set<Node> seen = identitySet();
            ArrayDeque<Node> work = new ArrayDeque<>(tangents);
            while (!work.isEmpty()) {
                Node n = work.pop();
                if (seen.add(n)) for (Node u : n.users()) if (!u.op().equals(Node.OUTPUT)) work.add(u);
            }
            return seen;
        }

        private static TorchException notJoint(String why) {
            return new TorchException("aot_autograd.partition: not a joint graph from traceJoint: " + why);
        }
    }
}

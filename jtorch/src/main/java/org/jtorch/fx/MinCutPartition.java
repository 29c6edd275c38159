package org.jtorch.fx;

import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.ops.OpDef;

/**
 * The {@link SavePolicy#RECOMPUTE} choice of saved values, as PyTorch's {@code min_cut_rematerialization_partition}
 * makes it: a flow network in which every value is an edge {@code in → out} of capacity its size in bytes, each use an
 * edge of unbounded capacity, the source feeds the inputs and the values the outputs need that may not be recomputed,
 * and every value the tangent-dependent part of the backward reads drains to the sink. A minimum cut then crosses the
 * cheapest set of values that separates the forward from the backward: saving exactly those, the backward recomputes
 * the rest from them (also values the forward computed for its outputs, when recomputing them is cheaper than saving
 * them), and computes itself what only it needs.
 *
 * <p>May be recomputed: pointwise and view ops, reads of one output of a multi-output op whose op may be, and ops with
 * no tensor input that draw no random numbers (constants such as {@code full}). Recomputing one of these from the same
 * inputs runs the same kernel on the same values, so the backward's results do not change by a bit.
 */
final class MinCutPartition {
    /** Larger than any sum of tensor sizes, small enough that sums of it do not overflow. */
    private static final long UNBOUNDED = Long.MAX_VALUE / 8;
    /** Bytes are weighed in units of this, leaving room below for a tie-breaking unit (see {@link #weight}). */
    private static final long TIE_SCALE = 1 << 16;

    private static final int SOURCE = 0;
    private static final int SINK = 1;

    private MinCutPartition() {}

    static List<Node> saved(Partitioner.Joint j, Set<Node> tangentDependent) {
        Map<Node, Integer> index = new IdentityHashMap<>();
        for (Node n : j.module.graph().nodes()) {
            boolean candidate =
                    !n.op().equals(Node.OUTPUT) && !n.op().equals(Node.GET_ATTR) && !tangentDependent.contains(n);
            if (candidate) index.put(n, index.size());
        }
        Set<Node> forwardRequired = Partitioner.ancestors(j.outputs);
        Set<Node> gradients = Partitioner.identitySet();
        for (Node g : j.gradients) if (g != null) gradients.add(g);
        MaxFlow flow = new MaxFlow(2 + 2 * index.size());
        for (var e : index.entrySet()) {
            Node n = e.getKey();
            int in = inOf(e.getValue()), out = in + 1;
            flow.addEdge(in, out, n.meta() == null ? UNBOUNDED : weight(n));
            // The forward computes what its outputs need either way; what it must not leave to the backward is an
            // input, or a value its outputs need that may not be recomputed.
            if (n.op().equals(Node.PLACEHOLDER) || (forwardRequired.contains(n) && !isRecomputable(n))) {
                flow.addEdge(SOURCE, in, UNBOUNDED);
            }
            for (Node input : n.inputNodes()) {
                Integer at = index.get(input);
                if (at != null) flow.addEdge(inOf(at) + 1, in, UNBOUNDED);
            }
            boolean readByBackward = gradients.contains(n);
            for (Node user : n.users()) readByBackward |= tangentDependent.contains(user);
            if (readByBackward) flow.addEdge(out, SINK, UNBOUNDED);
        }
        long cut = flow.run(SOURCE, SINK);
        if (cut >= UNBOUNDED)
            throw new IllegalStateException("min-cut partition: the backward reads an unsavable value");
        boolean[] sourceSide = flow.reachableFromSource(SOURCE);
        Set<Node> saved = Partitioner.identitySet();
        for (var e : index.entrySet()) {
            int in = inOf(e.getValue());
            if (sourceSide[in] && !sourceSide[in + 1]) saved.add(e.getKey());
        }
        return Partitioner.inJointOrder(j, saved);
    }

    private static int inOf(int index) {
        return 2 + 2 * index;
    }

    /**
     * The cost of saving {@code n}: its bytes, scaled so that a unit more for a recomputable value breaks ties without
     * outweighing a byte. Between a value and a view or copy of it of the same size, the cut then saves the value
     * itself and the backward recomputes the view.
     */
    private static long weight(Node n) {
        TensorMeta m = n.meta();
        return m.numel() * m.dtype().itemSize() * TIE_SCALE + (isRecomputable(n) ? 1 : 0);
    }

    static boolean isRecomputable(Node n) {
        if (n.target().equals(Node.GETITEM))
            return isRecomputable((Node) n.args().get(0));
        OpDef op = n.opDef();
        if (op == null || n.isImpure()) return false;
        return op.has(OpDef.Flag.POINTWISE)
                || op.has(OpDef.Flag.VIEW)
                || n.inputNodes().isEmpty();
    }

    /** Dinic's maximum flow on a graph of integer-numbered vertices. */
    private static final class MaxFlow {
        private final int vertices;
        private int[] head, next, to;
        private long[] capacity;
        private int edges;
        private int[] level, cursor, pathEdges;

        MaxFlow(int vertices) {
            this.vertices = vertices;
            head = new int[vertices];
            java.util.Arrays.fill(head, -1);
            next = new int[16];
            to = new int[16];
            capacity = new long[16];
        }

        /** An edge and its residual twin (at the index with the low bit flipped). */
        void addEdge(int from, int target, long cap) {
            add(from, target, cap);
            add(target, from, 0);
        }

        private void add(int from, int target, long cap) {
            if (edges == to.length) {
                next = java.util.Arrays.copyOf(next, edges * 2);
                to = java.util.Arrays.copyOf(to, edges * 2);
                capacity = java.util.Arrays.copyOf(capacity, edges * 2);
            }
            to[edges] = target;
            capacity[edges] = cap;
            next[edges] = head[from];
            head[from] = edges++;
        }

        long run(int source, int sink) {
            long total = 0;
            level = new int[vertices];
            cursor = new int[vertices];
            pathEdges = new int[vertices];
            while (levels(source, sink)) {
                System.arraycopy(head, 0, cursor, 0, vertices);
                long pushed;
                while ((pushed = push(source, sink, UNBOUNDED)) > 0) {
                    total += pushed;
                    if (total >= UNBOUNDED) return total;
                }
            }
            return total;
        }

        private boolean levels(int source, int sink) {
            java.util.Arrays.fill(level, -1);
            level[source] = 0;
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(source);
            while (!queue.isEmpty()) {
                int v = queue.poll();
                for (int e = head[v]; e >= 0; e = next[e]) {
                    if (capacity[e] > 0 && level[to[e]] < 0) {
                        level[to[e]] = level[v] + 1;
                        queue.add(to[e]);
                    }
                }
            }
            return level[sink] >= 0;
        }

        /** One augmenting path's worth of flow along the level graph (iterative, so deep graphs cannot overflow). */
        private long push(int source, int sink, long limit) {
            int depth = 0;
            int v = source;
            while (true) {
                if (v == sink) {
                    long amount = limit;
                    for (int i = 0; i < depth; i++) amount = Math.min(amount, capacity[pathEdges[i]]);
                    for (int i = 0; i < depth; i++) {
                        capacity[pathEdges[i]] -= amount;
                        capacity[pathEdges[i] ^ 1] += amount;
                    }
                    return amount;
                }
                int e = cursor[v];
                while (e >= 0 && !(capacity[e] > 0 && level[to[e]] == level[v] + 1)) e = next[e];
                cursor[v] = e;
                if (e >= 0) {
                    pathEdges[depth++] = e;
                    v = to[e];
                } else {
                    if (depth == 0) return 0;
                    level[v] = -1; // a dead end: no path to the sink through it in this phase
                    v = to[pathEdges[--depth] ^ 1];
                    cursor[v] = next[cursor[v]];
                }
            }
        }

        /** Which vertices the source still reaches through edges with capacity left: the source side of the cut. */
        boolean[] reachableFromSource(int source) {
            boolean[] seen = new boolean[vertices];
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(source);
            seen[source] = true;
            while (!queue.isEmpty()) {
                int v = queue.poll();
                for (int e = head[v]; e >= 0; e = next[e]) {
                    if (capacity[e] > 0 && !seen[to[e]]) {
                        seen[to[e]] = true;
                        queue.add(to[e]);
                    }
                }
            }
            return seen;
        }
    }
}

package org.jtorch.fx;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.CopyOps;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.ShapeOps;

/**
 * Functionalization ({@code torch.func.functionalize}, the {@code FunctionalTensorMode} pass of AOT autograd): rewrites
 * a graph with in-place and {@code out=} calls into one of pure dataflow, in which the only mutations left are copies
 * of the final values into the graph inputs (and module constants) that the original graph wrote, at the end.
 *
 * <p>The rules are PyTorch's:
 *
 * <ul>
 *   <li>A mutating call ({@code aten.add_.Tensor}, {@code aten.masked_fill.Tensor_out}, a {@code copy_}) becomes the
 *       functional call of the same op on the current values, converted to the written tensor's dtype (and broadcast to
 *       its shape) when the op's result differs, as the in-place write converts it. Later uses of the written tensor
 *       use the new value.
 *   <li>Views are not materialized when recorded but when used, from the current value of their base, so a view of a
 *       mutated base sees the mutation (PyTorch regenerates views from their base's new value); a {@code view} of a
 *       written base is made with {@code reshape}, as the new value's strides may differ from the original's, and an
 *       {@code as_strided} view of one is refused.
 *   <li>Writing into a view writes the base: the new value is scattered back through the view chain with the view ops'
 *       out-of-place inverses ({@link ViewInverses}: {@code slice_scatter}, {@code select_scatter},
 *       {@code diagonal_scatter}, or the rearranging view run backwards). Writes through {@code as_strided},
 *       {@code view_as_real} and {@code view_as_complex} views are refused.
 *   <li>An input (placeholder or constant) that was written gets the epilogue {@code copy_} of its final value (JTorch
 *       spells it {@code aten._to_copy.out}, the {@code out=} call {@code x.copy_(src)} makes), so running the new
 *       graph mutates the caller's tensors exactly as the original did.
 * </ul>
 *
 * <p>Inputs are assumed not to alias each other, as PyTorch's functionalization assumes of graph inputs unless told
 * otherwise. Ops that write their arguments without an {@code out=} or in-place form ({@code Tensor(a!)} in their
 * schema: the fused optimizer steps) and {@code out=} calls that resize their tensor are refused: neither has a
 * functional form here. Every node of the new graph gets its metadata from the ops' meta rules, run on fake tensors as
 * the graph is built.
 */
public final class Functionalization {
    private Functionalization() {}

    /** The functionalized copy of {@code gm}; {@code gm} is left as it was. */
    public static GraphModule run(GraphModule gm) {
        try (FakeTensorMode mode = FakeTensorMode.open()) {
            return new Rewrite(gm, mode).run();
        }
    }

    /** One storage of the original graph: an input, a constant or a fresh result, and the node of its current value. */
    private static final class Root {
        final Node input;
        Node current;
        int version;

        Root(Node input, Node current) {
            this.input = input;
            this.current = current;
        }
    }

    /** What a tensor of the original graph is: its root, and the original view nodes leading from the root to it. */
    private record Alias(Root root, List<Node> views) {
        Alias then(Node view) {
            List<Node> longer = new ArrayList<>(views);
            longer.add(view);
            return new Alias(root, List.copyOf(longer));
        }

        Alias parent() {
            return new Alias(root, views.subList(0, views.size() - 1));
        }
    }

    private record Materialized(Node node, int version) {}

    private static final class Rewrite {
        private final GraphModule source;
        private final FakeTensorMode mode;
        private final Graph graph = new Graph();
        private final Map<Node, Object> fakes = new HashMap<>();
        private final Map<Node, Alias> aliases = new IdentityHashMap<>();
        private final Map<Node, List<Alias>> written = new IdentityHashMap<>();
        private final Map<Node, Node> tuples = new IdentityHashMap<>();
        private final Map<Node, Materialized> views = new IdentityHashMap<>();
        private final List<Root> inputs = new ArrayList<>();

        Rewrite(GraphModule source, FakeTensorMode mode) {
            this.source = source;
            this.mode = mode;
        }

        GraphModule run() {
            for (Node n : source.graph().nodes()) {
                switch (n.op()) {
                    case Node.PLACEHOLDER -> input(n, graph.placeholder(n.name()), placeholderFake(n));
                    case Node.GET_ATTR -> input(n, graph.getAttr(n.target()), constantFake(n));
                    case Node.CALL_FUNCTION -> call(n);
                    case Node.OUTPUT -> output(n);
                    default -> throw new IllegalStateException("unknown op " + n.op());
                }
            }
            return new GraphModule(graph, source.constants());
        }

        private Tensor placeholderFake(Node n) {
            if (n.meta() == null) {
                throw new TorchException("functionalization needs the metadata of input " + n.name()
                        + " (trace the graph with Fx.makeFx, or set it with setMeta)");
            }
            return mode.fromMeta(n.meta());
        }

        private Tensor constantFake(Node n) {
            Tensor c = source.constants().get(n.target());
            if (c == null) throw new TorchException("graph module has no constant " + n.target());
            return mode.fromTensor(c);
        }

        private void input(Node original, Node copy, Tensor fake) {
            fakes.put(copy, fake);
            copy.setMeta(original.meta() != null ? original.meta() : TensorMeta.of(fake));
            Root root = new Root(copy, copy);
            inputs.add(root);
            aliases.put(original, new Alias(root, List.of()));
        }

        private void call(Node n) {
            if (n.target().equals(Node.GETITEM)) {
                getitem(n);
                return;
            }
            OpDef op = n.opDef();
            if (n.form() != Node.Form.FUNCTIONAL) {
                mutation(n);
            } else if (op.schema().isMutable()) {
                throw new TorchException("functionalization cannot rewrite " + n.target() + " (" + n.name()
                        + "): it writes its arguments (Tensor(a!)) and has no functional form");
            } else if (op.viewFn() != null) {
                aliases.put(n, aliasOf((Node) n.args().getFirst()).then(n));
            } else {
                Node copy = emit(graph.callFunction(op, translate(n.args()).toArray()));
                if (n.meta() != null) aliases.put(n, new Alias(new Root(null, copy), List.of()));
                else tuples.put(n, copy);
            }
        }

        private void getitem(Node n) {
            Node tuple = (Node) n.args().get(0);
            int index = Math.toIntExact((Long) n.args().get(1));
            List<Alias> writes = written.get(tuple);
            if (writes != null) aliases.put(n, writes.get(index));
            else aliases.put(n, new Alias(new Root(null, emit(graph.getitem(tuples.get(tuple), index))), List.of()));
        }

        /** An in-place or {@code out=} call: the functional call, then each written tensor gets its new value. */
        @SuppressWarnings("unchecked")
        private void mutation(Node n) {
            List<Object> args = n.args();
            boolean inPlace = n.form() == Node.Form.IN_PLACE;
            List<Object> own = inPlace ? args : args.subList(0, args.size() - 1);
            List<Node> targets = inPlace ? List.of((Node) args.getFirst()) : (List<Node>) args.getLast();
            for (Node t : targets) for (Node view : aliasOf(t).views()) ViewInverses.requireInvertible(view);
            Node result = emit(graph.callFunction(n.opDef(), translate(own).toArray()));
            List<Alias> writes = new ArrayList<>(targets.size());
            for (int i = 0; i < targets.size(); i++) {
                Node target = targets.get(i);
                Node value = targets.size() == 1 && !(fakes.get(result) instanceof Tensor[])
                        ? result
                        : emit(graph.getitem(result, i));
                requireSameShape(n, target, i);
                writeInto(aliasOf(target), asWritten(value, target.meta()));
                writes.add(aliasOf(target));
            }
            if (targets.size() == 1) aliases.put(n, writes.getFirst());
            else written.put(n, writes);
        }

        /** An {@code out=} call that resized its tensor changed the tensor's metadata, which no functional op does. */
        private static void requireSameShape(Node call, Node target, int index) {
            TensorMeta after = call.meta();
            if (after == null) {
                for (Node user : call.users()) {
                    if (user.target().equals(Node.GETITEM) && user.args().get(1).equals((long) index)) {
                        after = user.meta();
                    }
                }
            }
            if (after != null
                    && target.meta() != null
                    && !Arrays.equals(after.shape(), target.meta().shape())) {
                throw new TorchException("functionalization cannot rewrite " + call.target() + " (" + call.name()
                        + "): it resizes " + target.name() + " from " + target.meta() + " to " + after);
            }
        }

        /** {@code value} as the write stores it into a tensor of {@code meta}: in its dtype, broadcast to its shape. */
        private Node asWritten(Node value, TensorMeta meta) {
            TensorMeta m = value.meta();
            if (m.dtype() == meta.dtype() && Arrays.equals(m.shape(), meta.shape())) return value;
            return emit(graph.callFunction(CopyOps.TO_COPY, value, meta.dtype(), meta.shape()));
        }

        /** Makes {@code value} the value of the tensor {@code alias} names: its root gets the new value. */
        private void writeInto(Alias alias, Node value) {
            Root root = alias.root();
            Node newValue = value;
            for (int i = alias.views().size() - 1; i >= 0; i--) {
                Alias baseAlias = new Alias(root, alias.views().subList(0, i));
                Node base = materialize(baseAlias);
                newValue = emit(ViewInverses.writeBack(graph, alias.views().get(i), base, newValue));
            }
            root.current = newValue;
            root.version++;
        }

        /** The functional graph's node for the current value of {@code alias}, regenerating views of a newer base. */
        private Node materialize(Alias alias) {
            if (alias.views().isEmpty()) return alias.root().current;
            Node view = alias.views().getLast();
            Materialized known = views.get(view);
            if (known != null && known.version() == alias.root().version) return known.node();
            Node base = materialize(alias.parent());
            List<Object> args = new ArrayList<>(view.args());
            args.set(0, base);
            Node copy = emit(graph.callFunction(regenerating(view, alias.root().version), args.toArray()));
            views.put(view, new Materialized(copy, alias.root().version));
            return copy;
        }

        /**
         * The op that makes {@code view} again from its base's value at {@code version}. A written base's new value may
         * have other strides than the original had (its last write came out of an op, not the caller's memory), so a
         * {@code view} of it becomes {@code reshape}, which gives the same elements whatever the strides, and an
         * {@code as_strided} view, whose elements depend on them, is refused.
         */
        private static OpDef regenerating(Node view, int version) {
            if (version == 0) return view.opDef();
            if (view.opDef() == ShapeOps.VIEW) return ShapeOps.RESHAPE;
            if (view.opDef() == ShapeOps.AS_STRIDED) {
                throw new TorchException("functionalization cannot make " + view.name() + " (" + view.target()
                        + ") again from its written base: its elements depend on the base's strides");
            }
            return view.opDef();
        }

        private Alias aliasOf(Node original) {
            Alias a = aliases.get(original);
            if (a == null) throw new IllegalStateException(original + " is not a tensor value of the graph");
            return a;
        }

        /** The epilogue copies into the written inputs, then the output of the current values. */
        private void output(Node n) {
            Node[] results = translate(n.args()).stream().map(Node.class::cast).toArray(Node[]::new);
            for (Root root : inputs) {
                if (root.version == 0) continue;
                TensorMeta m = root.input.meta();
                emit(graph.callFunctionOut(CopyOps.TO_COPY, List.of(root.input), root.current, m.dtype(), m.shape()));
            }
            graph.output(results);
        }

        private List<Object> translate(List<Object> args) {
            List<Object> out = new ArrayList<>(args.size());
            for (Object a : args) {
                switch (a) {
                    case Node node -> out.add(tuples.containsKey(node) ? tuples.get(node) : materialize(aliasOf(node)));
                    case List<?> list -> out.add(translate(new ArrayList<>(list)));
                    case null, default -> out.add(a);
                }
            }
            return out;
        }

        /** Runs the new node on fake tensors, so that it gets the metadata of its value. */
        private Node emit(Node node) {
            if (fakes.containsKey(node)) return node;
            Object value = GraphModule.runNode(node, fakes);
            fakes.put(node, value);
            if (value instanceof Tensor t) node.setMeta(TensorMeta.of(t));
            return node;
        }
    }
}

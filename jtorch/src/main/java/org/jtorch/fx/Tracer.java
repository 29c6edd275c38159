package org.jtorch.fx;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.ops.OpDef;

/**
 * The interpreter {@link Fx#makeFx} enters: every op that reaches it becomes a {@code call_function} node, and then
 * runs below the tracer on the real arguments, so the traced function sees real values (Java code that branches on them
 * still works; the graph records the branch taken) and each node gets its output's metadata.
 *
 * <p>Tensors are mapped to nodes by identity: the example inputs to placeholders, each op's outputs to its node. A
 * tensor the graph has not seen (one created outside the dispatcher, or before tracing) becomes a constant read by a
 * {@code get_attr} node. Under a fake mode (below the tracer) that constant's fake stands for the same node, so an
 * autograd node that saved the fake reads the constant in the traced backward.
 *
 * <p>A composite op is not recorded: the tracer expands it into the ops it is made of, which come back through the
 * tracer and are recorded, so the graph holds the ops that actually run (as make_fx decomposes
 * CompositeImplicitAutograd ops by default). An op with a rule in the tracer's decomposition table runs the rule
 * instead, whose ops come back through the tracer too ({@code make_fx(decomposition_table=...)}). In-place and
 * {@code out=} calls are recorded as mutations, as make_fx records them without functionalization.
 */
final class Tracer extends DispatchState.ModeInterpreter {
    private final Graph graph = new Graph();
    private final Map<Tensor, Node> nodes = new IdentityHashMap<>();
    private final Map<String, Tensor> constants = new LinkedHashMap<>();
    /** The decompositions to apply to every op reaching the tracer, by target (empty for plain make_fx). */
    private final Map<String, Decompositions.Rule> decompositions;

    Tracer() {
        this(Map.of());
    }

    Tracer(Map<String, Decompositions.Rule> decompositions) {
        super(DispatchState.Kind.TRACE, DispatchState.nextLevel());
        this.decompositions = decompositions;
    }

    Graph graph() {
        return graph;
    }

    Map<String, Tensor> constants() {
        return constants;
    }

    /** A placeholder standing for {@code input}. */
    void input(Tensor input) {
        input(input, "arg" + graph.nodes().size() + "_1");
    }

    /** A placeholder named {@code name} standing for {@code input}. */
    void input(Tensor input, String name) {
        bind(input, graph.placeholder(name));
    }

    /**
     * A placeholder for {@code input} added once tracing has begun, placed after the existing placeholders so that
     * every input still comes before the first call: how AOT autograd adds the tangents, whose shapes are known only
     * once the forward has run.
     */
    void lateInput(Tensor input, String name) {
        Node lastPlaceholder = null;
        for (Node n : graph.nodes()) if (n.op().equals(Node.PLACEHOLDER)) lastPlaceholder = n;
        if (lastPlaceholder == null) {
            input(input, name);
            return;
        }
        try (var _ = graph.insertingAfter(lastPlaceholder)) {
            input(input, name);
        }
    }

    /** The output node returning {@code results}; a null result is returned as None. */
    void output(Tensor[] results) {
        Node[] values = new Node[results.length];
        for (int i = 0; i < results.length; i++) values[i] = results[i] == null ? null : nodeOf(results[i]);
        graph.output(values);
    }

    @Override
    public Object process(Operator operator, Object[] args, Dispatcher.Next next) {
        OpDef op = (OpDef) operator;
        // A composite is expanded here, on the arguments the tracer knows, and its pieces come back through it. Passed
        // on, it would expand below, where a fake-tensor mode has already replaced the arguments by fakes the graph
        // has never seen.
        if (op.compositeFn() != null) return op.compositeFn().apply(args);
        Decompositions.Rule rule = decompositions.get(Graph.targetOf(op));
        if (rule != null) return rule.apply(args); // so do the rule's
        Object[] recorded = new Object[args.length];
        for (int i = 0; i < args.length; i++) recorded[i] = graphValue(args[i]);
        Object result = DispatchState.runBelow(this, () -> next.call(op, args));
        Node call = graph.callFunction(op, recorded);
        // An op whose schema returns nothing mutates its arguments; the tensors its entry point hands back are those
        // arguments, which keep their nodes.
        if (op.schema().returns().isEmpty()) return result;
        switch (result) {
            case null -> {}
            case Tensor t -> bind(t, call);
            case Tensor[] ts -> {
                for (int i = 0; i < ts.length; i++) if (ts[i] != null) bind(ts[i], graph.getitem(call, i));
            }
            default ->
                throw new TorchException(op.qualifiedName() + " returned a "
                        + result.getClass().getSimpleName() + ", which a graph cannot record");
        }
        return result;
    }

    /**
     * Records an in-place call (one writing its first argument) or an {@code out=} call as it runs, a mutation (see
     * {@link Functionalization} for the rewrite without them). The written tensors are bound to the call's node, so
     * that later uses name the value after the write.
     */
    @Override
    public Object processOut(Operator operator, Object[] outArray, Object[] args, Dispatcher.NextOut next) {
        OpDef op = (OpDef) operator;
        Tensor[] outs = (Tensor[]) outArray;
        Decompositions.Rule rule = decompositions.get(Graph.targetOf(op));
        if (rule != null) {
            Decompositions.copyInto(outs, rule.apply(args)); // the rule's ops and the copies come back through here
            return null;
        }
        Object[] recorded = new Object[args.length];
        for (int i = 0; i < args.length; i++) recorded[i] = graphValue(args[i]);
        boolean inPlace = outs.length == 1 && args.length > 0 && outs[0] == args[0];
        List<Node> written = new ArrayList<>(outs.length);
        for (Tensor t : outs) written.add(nodeOf(t));
        Object result = DispatchState.runBelow(this, () -> next.call(op, outs, args));
        Node call = inPlace ? graph.callFunctionInPlace(op, recorded) : graph.callFunctionOut(op, written, recorded);
        if (outs.length == 1) bind(outs[0], call);
        else for (int i = 0; i < outs.length; i++) bind(outs[i], graph.getitem(call, i));
        return result;
    }

    private void bind(Tensor t, Node n) {
        n.setMeta(TensorMeta.of(t));
        nodes.put(t, n);
    }

    /** An argument as the graph keeps it: tensors become nodes, tensor arrays lists of nodes. */
    private Object graphValue(Object arg) {
        return switch (arg) {
            case Tensor t -> nodeOf(t);
            case Tensor[] ts -> {
                List<Object> list = new ArrayList<>(ts.length);
                for (Tensor t : ts) list.add(t == null ? null : nodeOf(t));
                yield list;
            }
            case null, default -> arg;
        };
    }

    /** The node computing {@code t}, or a new constant holding it. */
    private Node nodeOf(Tensor t) {
        Node n = nodes.get(t);
        if (n != null) return n;
        String name = "_tensor_constant" + constants.size();
        constants.put(name, t);
        Node firstCall = firstNonInput();
        if (firstCall == null) n = graph.getAttr(name);
        else {
            try (var _ = graph.insertingBefore(firstCall)) {
                n = graph.getAttr(name);
            }
        }
        n.setMeta(TensorMeta.of(t));
        nodes.put(t, n);
        Tensor fake = FakeTensorMode.fakeInEffect(t);
        if (fake != null) nodes.putIfAbsent(fake, n);
        return n;
    }

    /** Constants go after the placeholders and before every call, as torch.fx lists them. */
    private Node firstNonInput() {
        for (Node n : graph.nodes()) if (!n.op().equals(Node.PLACEHOLDER) && !n.op().equals(Node.GET_ATTR)) return n;
        return null;
    }
}

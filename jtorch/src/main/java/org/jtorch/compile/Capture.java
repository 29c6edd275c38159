package org.jtorch.compile;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DataDependentOutputException;
import org.jtorch.DynamicOutputShapeException;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.Fx;
import org.jtorch.fx.Graph;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;
import org.jtorch.ops.AttentionOps;

/**
 * The capture step of {@code torch.compile} (Dynamo's job, for Java): runs the user's function once on fake tensors of
 * the given metadata under {@link Fx#makeFx}'s tracer, so every op it calls becomes a node and no kernel runs. The Java
 * code itself runs at trace time only: its side effects happen once per capture, not once per call.
 *
 * <p>Tensors the function reads from outside its arguments (a module's parameters, a captured weight) are recorded as
 * constants of the graph; those that require grad are then <i>lifted</i> to extra inputs after the user's, as Dynamo
 * lifts parameters, so that AOT autograd can differentiate with respect to them. They are passed by reference on each
 * call, so in-place updates (an optimizer step) are seen without recompiling.
 *
 * <p>A read of a tensor's data into Java ({@code item()}, {@code toDoubleArray()}) or an op whose output shape depends
 * on data ({@code nonzero}) cannot be captured: the trace stops with a {@link GraphBreak} naming the operation and the
 * Java call site.
 */
final class Capture {
    private Capture() {}

    /**
     * A captured graph whose placeholders are the user's inputs followed by {@code lifted}: the tensors the function
     * read from outside that require grad.
     */
    record Result(GraphModule graph, List<Tensor> lifted) {}

    /** The trace reached an operation that a graph cannot hold. */
    static final class GraphBreak extends RuntimeException {
        private static final long serialVersionUID = 1L;

        final String operation;
        final String callSite;

        GraphBreak(String operation, String callSite, RuntimeException cause) {
            super("graph break on " + operation + " at " + callSite + ": " + cause.getMessage(), cause);
            this.operation = operation;
            this.callSite = callSite;
        }
    }

    /**
     * Traces {@code fn} on fake tensors with {@code inputs}' metadata inside {@code fake}, with every interpreter the
     * caller had entered lowered (a DebugMode outside sees the compiled graph run, not its capture). {@code names}
     * gives lifted tensors their placeholder names (a module's parameter names); others are named after their constant.
     */
    static Result run(
            Function<Tensor[], Tensor[]> fn, List<TensorMeta> inputs, FakeTensorMode fake, Map<Tensor, String> names) {
        Tensor[] fakes = new Tensor[inputs.size()];
        for (int i = 0; i < fakes.length; i++) fakes[i] = fake.fromMeta(inputs.get(i));
        GraphModule traced;
        try {
            traced = AttentionOps.capturingFused(() -> Fx.makeFx(fn, fakes));
        } catch (DataDependentOutputException e) {
            throw new GraphBreak(e.op(), callSite(e), e);
        } catch (DynamicOutputShapeException e) {
            throw new GraphBreak(e.op(), callSite(e), e);
        }
        return lift(traced, names);
    }

    /** Runs {@code body} with the caller's interpreters lowered, inside a fresh fake-tensor mode. */
    static <T> T inFakeMode(Function<FakeTensorMode, T> body) {
        return DispatchState.runBelowAll(() -> {
            try (FakeTensorMode fake = FakeTensorMode.open()) {
                return body.apply(fake);
            }
        });
    }

    /** Turns the constants that require grad into placeholders after the existing ones. */
    private static Result lift(GraphModule traced, Map<Tensor, String> names) {
        Graph graph = traced.graph();
        Map<String, Tensor> constants = new LinkedHashMap<>(traced.constants());
        List<Tensor> lifted = new ArrayList<>();
        for (Node n : graph.nodes()) {
            if (!n.op().equals("get_attr")) continue;
            Tensor t = constants.get(n.target());
            if (!t.requiresGrad() || FakeTensorMode.isFake(t)) continue;
            Node input;
            try (Graph.InsertionPoint _ = graph.insertingBefore(firstNonInput(graph))) {
                input = graph.placeholder(names.getOrDefault(t, n.target()).replace('.', '_'));
            }
            input.setMeta(n.meta());
            n.replaceAllUsesWith(input);
            graph.erase(n);
            constants.remove(n.target());
            lifted.add(t);
        }
        return new Result(new GraphModule(graph, constants), List.copyOf(lifted));
    }

    private static Node firstNonInput(Graph graph) {
        for (Node n : graph.nodes()) if (!n.op().equals("placeholder")) return n;
        throw new IllegalStateException("a graph ends with its output node");
    }

    /**
     * The Java call site of the operation that broke the graph: the first frame under the library's own frames at the
     * top of the stack (the user's code that called {@code item()}).
     */
    static String callSite(Throwable e) {
        StackTraceElement[] user = userFrames(e.getStackTrace());
        return user.length > 0 ? user[0].toString() : "<unknown>";
    }

    /** The frames of {@code stack} (innermost first) below the library's own: the user's code that made the call. */
    static StackTraceElement[] userFrames(StackTraceElement[] stack) {
        int i = 0;
        while (i < stack.length && isLibraryFrame(stack[i])) i++;
        return java.util.Arrays.copyOfRange(stack, i, stack.length);
    }

    private static final String LIBRARY_LOCATION = locationOf(Tensor.class);

    /** Whether a frame runs library code: a class loaded from where {@link Tensor} was, or the JDK's. */
    private static boolean isLibraryFrame(StackTraceElement frame) {
        String cls = frame.getClassName();
        if (cls.startsWith("java.") || cls.startsWith("jdk.")) return true;
        if (!cls.startsWith("org.jtorch.")) return false;
        try {
            Class<?> c = Class.forName(cls, false, Capture.class.getClassLoader());
            String location = locationOf(c);
            return location != null && location.equals(LIBRARY_LOCATION);
        } catch (ClassNotFoundException | LinkageError ex) {
            return false;
        }
    }

    private static String locationOf(Class<?> c) {
        var source = c.getProtectionDomain().getCodeSource();
        return source == null || source.getLocation() == null
                ? null
                : source.getLocation().toString();
    }
}

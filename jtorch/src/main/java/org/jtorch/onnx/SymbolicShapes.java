package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportedProgram;
import org.jtorch.fx.Graph;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;

/**
 * Which sizes of a program are dynamic: the symbols (each read from a dimension of a user input), the node arguments
 * that depend on them (as {@link SymInt}s, in place of the example's integers), and the symbolic sizes of the inputs
 * and outputs.
 */
final class SymbolicShapes {
    /** Symbol {@code s<i>}: dimension {@code dim} of placeholder {@code placeholder}, named {@code name}. */
    record Symbol(int placeholder, int dim, String name) {}

    private final List<Symbol> symbols;
    private final IdentityHashMap<Node, List<Object>> args;
    private final Map<Integer, List<Object>> inputShapes;
    private final List<List<Object>> outputShapes;

    SymbolicShapes(
            List<Symbol> symbols,
            IdentityHashMap<Node, List<Object>> args,
            Map<Integer, List<Object>> inputShapes,
            List<List<Object>> outputShapes) {
        this.symbols = List.copyOf(symbols);
        this.args = args;
        this.inputShapes = Map.copyOf(inputShapes);
        this.outputShapes = List.copyOf(outputShapes);
    }

    /** Every size static. */
    static SymbolicShapes none() {
        return new SymbolicShapes(List.of(), new IdentityHashMap<>(), Map.of(), List.of());
    }

    /**
     * The symbols a program's graph carries itself ({@link Graph#symbols()}, a program exported with dynamic
     * dimensions): its arguments are symbolic already; the sizes come from the nodes' symbolic shapes.
     */
    static SymbolicShapes ofProgram(ExportedProgram program) {
        Graph graph = program.graphModule().graph();
        List<Symbol> symbols = new ArrayList<>();
        for (Graph.SymbolSource s : graph.symbols()) {
            symbols.add(new Symbol(s.input(), s.dim(), "s" + symbols.size()));
        }
        List<Node> nodes = graph.nodes();
        List<Node> placeholders =
                nodes.stream().filter(n -> n.op().equals("placeholder")).toList();
        Map<Integer, List<Object>> inputs = new java.util.HashMap<>();
        for (int i = 0; i < placeholders.size(); i++) {
            SymIntArray s = placeholders.get(i).symbolicShape();
            if (s != null) inputs.put(i, new ArrayList<>(s.elements()));
        }
        List<List<Object>> outputs = new ArrayList<>();
        var specs = program.graphSignature().outputSpecs();
        List<Object> results = nodes.getLast().args();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != OutputKind.USER_OUTPUT) continue;
            SymIntArray s = results.get(i) instanceof Node r ? r.symbolicShape() : null;
            outputs.add(s == null ? null : new ArrayList<>(s.elements()));
        }
        return new SymbolicShapes(symbols, new IdentityHashMap<>(), inputs, outputs);
    }

    List<Symbol> symbols() {
        return symbols;
    }

    IdentityHashMap<Node, List<Object>> args() {
        return args;
    }

    /** The sizes of placeholder {@code i}: symbolic where dynamic, else the example's. */
    List<Object> inputShape(int placeholder, long[] example) {
        List<Object> s = inputShapes.get(placeholder);
        return s != null ? s : boxed(example);
    }

    /** The sizes of user output {@code i}. */
    List<Object> outputShape(int output, long[] example) {
        List<Object> s = output < outputShapes.size() ? outputShapes.get(output) : null;
        return s != null ? s : boxed(example);
    }

    /** The name of a size that is exactly one symbol, else null (an ONNX dimension without a name). */
    String nameOf(SymInt size) {
        for (int i = 0; i < symbols.size(); i++) {
            if (size.equals(SymInt.symbol(i))) return symbols.get(i).name();
        }
        return null;
    }

    private static List<Object> boxed(long[] values) {
        List<Object> out = new ArrayList<>();
        for (long v : values) out.add(v);
        return out;
    }
}

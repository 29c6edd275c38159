package org.jtorch.export;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.fx.DeadCodeElimination;
import org.jtorch.fx.Graph;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;

/**
 * Builds an exported program's graph from a functionalized trace: placeholders renamed and ordered as PyTorch orders
 * them (parameters {@code p_*}, buffers {@code b_*}, lifted constants {@code c_*}, then the user's inputs), the
 * constants the trace read ({@code get_attr}) lifted into placeholders, and the functionalization's closing copies into
 * written inputs turned into outputs ahead of the user's (a buffer mutation is an output of the program, which
 * {@code module()} writes back).
 */
final class ProgramGraph {
    private ProgramGraph() {}

    /** The built graph, its signature and its lifted constants by name. */
    record Built(GraphModule graph, ExportGraphSignature signature, Map<String, Tensor> constants) {}

    /**
     * Builds from {@code functional}, whose placeholders are described in order by {@code specs} (parameters and
     * buffers first, then user inputs; names as they are to appear).
     */
    static Built build(GraphModule functional, List<InputSpec> specs) {
        List<Node> placeholders = functional.graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        if (placeholders.size() != specs.size()) {
            throw new IllegalStateException(
                    "export: " + placeholders.size() + " placeholders, " + specs.size() + " specs");
        }
        Graph out = new Graph();
        Map<Node, Node> copies = new IdentityHashMap<>();
        List<InputSpec> inputSpecs = new ArrayList<>();
        Map<String, Tensor> constants = new LinkedHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != InputKind.USER_INPUT)
                placeholder(out, placeholders.get(i), specs.get(i), copies, inputSpecs);
        }
        for (Node n : functional.graph().nodes()) {
            if (!n.op().equals("get_attr")) continue;
            String name = "c_" + n.target().replace('.', '_');
            constants.put(name, functional.constants().get(n.target()));
            placeholder(out, n, new InputSpec(InputKind.CONSTANT_TENSOR, name, name, false), copies, inputSpecs);
        }
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() == InputKind.USER_INPUT)
                placeholder(out, placeholders.get(i), specs.get(i), copies, inputSpecs);
        }
        Map<Node, InputSpec> specOf = new IdentityHashMap<>();
        for (int i = 0; i < specs.size(); i++) specOf.put(placeholders.get(i), specs.get(i));
        List<Node> mutationValues = new ArrayList<>();
        List<OutputSpec> mutationSpecs = new ArrayList<>();
        List<Node> userOutputs = new ArrayList<>();
        for (Node n : functional.graph().nodes()) {
            switch (n.op()) {
                case "placeholder", "get_attr" -> {}
                case "output" -> {
                    for (Object a : n.args()) userOutputs.add(copies.get((Node) a));
                }
                default -> {
                    if (n.form() == Node.Form.FUNCTIONAL) {
                        Node copy = n.target().equals(Node.GETITEM)
                                ? out.getitem(copies.get((Node) n.args().get(0)), Math.toIntExact((Long)
                                        n.args().get(1)))
                                : out.callFunction(
                                        n.opDef(), mapped(n.args(), copies).toArray());
                        copy.setMeta(n.meta());
                        copies.put(n, copy);
                    } else {
                        Node written = writtenInput(n);
                        InputSpec spec = specOf.get(written);
                        if (spec == null)
                            throw new TorchException("export: the forward writes a tensor it made from Java data");
                        mutationValues.add(copies.get((Node) n.args().getFirst()));
                        mutationSpecs.add(mutationSpec(spec));
                    }
                }
            }
        }
        List<Node> results = new ArrayList<>(mutationValues);
        results.addAll(userOutputs);
        out.output(results.toArray(Node[]::new));
        DeadCodeElimination.run(out);
        List<OutputSpec> outputSpecs = new ArrayList<>();
        for (int i = 0; i < mutationSpecs.size(); i++) {
            OutputSpec m = mutationSpecs.get(i);
            outputSpecs.add(new OutputSpec(m.kind(), results.get(i).name(), m.target()));
        }
        for (Node u : userOutputs) outputSpecs.add(new OutputSpec(OutputKind.USER_OUTPUT, u.name(), null));
        return new Built(new GraphModule(out, Map.of()), new ExportGraphSignature(inputSpecs, outputSpecs), constants);
    }

    private static void placeholder(
            Graph out, Node from, InputSpec spec, Map<Node, Node> copies, List<InputSpec> specs) {
        Node p = out.placeholder(spec.name());
        p.setMeta(from.meta());
        copies.put(from, p);
        specs.add(new InputSpec(spec.kind(), p.name(), spec.target(), spec.persistent()));
    }

    /** The input a functionalization epilogue ({@code aten._to_copy.out} into one placeholder) writes. */
    private static Node writtenInput(Node n) {
        if (n.form() == Node.Form.OUT
                && n.target().equals("aten._to_copy.out")
                && n.args().getLast() instanceof List<?> outs
                && outs.size() == 1
                && outs.getFirst() instanceof Node written
                && written.op().equals("placeholder")) {
            return written;
        }
        throw new TorchException("export: " + n.target() + " mutates a value that is not an input of the program");
    }

    private static OutputSpec mutationSpec(InputSpec written) {
        return switch (written.kind()) {
            case BUFFER -> new OutputSpec(OutputKind.BUFFER_MUTATION, null, written.target());
            case PARAMETER -> new OutputSpec(OutputKind.PARAMETER_MUTATION, null, written.target());
            case USER_INPUT -> new OutputSpec(OutputKind.USER_INPUT_MUTATION, null, written.name());
            case CONSTANT_TENSOR -> throw new TorchException("export: the forward writes a constant tensor");
        };
    }

    private static List<Object> mapped(List<?> args, Map<Node, Node> copies) {
        List<Object> out = new ArrayList<>(args.size());
        for (Object a : args) {
            if (a instanceof Node n) out.add(copies.get(n));
            else if (a instanceof List<?> l) out.add(mapped(l, copies));
            else out.add(a);
        }
        return out;
    }
}

package org.jtorch.export;

import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.fx.Graph;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;

/**
 * The checks {@code ep.module()} makes of its inputs before it runs the graph, with PyTorch's messages: each user input
 * has the rank and the static sizes of the example, and each symbolic size lies in its range and agrees with the other
 * sizes of the same symbol.
 */
final class InputGuards {
    private InputGuards() {}

    static void check(Graph graph, List<InputSpec> specs, Tensor[] args, Map<String, ValueRange> ranges) {
        List<Node> placeholders =
                graph.nodes().stream().filter(n -> n.op().equals("placeholder")).toList();
        int user = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != InputKind.USER_INPUT) continue;
            Node p = placeholders.get(i);
            Tensor t = args[i];
            String where = "*args[" + user++ + "]";
            if (t == null) throw new TorchException("Expected input at " + where + " to be a tensor, but got None");
            long[] expected = p.meta().shape();
            if (t.dim() != expected.length) {
                throw new TorchException("Unexpected number of dimensions in input at " + where + ".shape (expected "
                        + expected.length + ", got " + t.dim() + ")");
            }
        }
        long[] symbols = symbolValues(graph, placeholders, args, ranges);
        user = 0;
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).kind() != InputKind.USER_INPUT) continue;
            Node p = placeholders.get(i);
            Tensor t = args[i];
            String where = "*args[" + user++ + "]";
            SymIntArray symbolic = p.symbolicShape();
            long[] sizes = p.meta().shape();
            for (int d = 0; d < sizes.length; d++) {
                SymInt s = symbolic == null ? null : symbolic.elements().get(d);
                long want = s == null || s.isConstant() ? sizes[d] : s.eval(symbols);
                if (t.size(d) != want) {
                    throw new TorchException("Expected input at " + where + ".shape[" + d + "] to be equal to "
                            + (s == null || s.isConstant() ? String.valueOf(want) : s + " = " + want) + ", but got "
                            + t.size(d));
                }
            }
        }
    }

    /** Each symbol's value, read from the input dimension that sources it and checked against its range. */
    private static long[] symbolValues(
            Graph graph, List<Node> placeholders, Tensor[] args, Map<String, ValueRange> ranges) {
        List<Graph.SymbolSource> sources = graph.symbols();
        long[] values = new long[sources.size()];
        for (int k = 0; k < values.length; k++) {
            Graph.SymbolSource src = sources.get(k);
            long v = args[src.input()].size(src.dim());
            ValueRange r = ranges.get("s" + k);
            String where = placeholders.get(src.input()).name() + ".shape[" + src.dim() + "] (s" + k + ")";
            if (r != null && v < r.min())
                throw new TorchException("Expected input " + where + " to be >= " + r.min() + ", but got " + v);
            if (r != null && v > r.max())
                throw new TorchException("Expected input " + where + " to be <= " + r.max() + ", but got " + v);
            values[k] = v;
        }
        return values;
    }
}

package org.jtorch.fx;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaValue;

/**
 * A graph as Python source, in the spirit of {@code GraphModule.print_readable()}: a {@code forward} whose parameters
 * are the placeholders and which has one line per node, annotated with the value's dtype and shape ({@code add: "f32[2,
 * 3]" = torch.ops.aten.add.Tensor(x, y)}). Arguments equal to their schema default are left out, keyword-only ones are
 * written {@code name=value}, as a Python caller would write the call.
 */
final class GraphPrinter {
    private GraphPrinter() {}

    static String readable(Graph graph) {
        List<String> params = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (Node n : graph.nodes()) {
            switch (n.op()) {
                case Node.PLACEHOLDER -> params.add(n.name() + annotation(n));
                case Node.GET_ATTR -> line(body, n, "self." + n.target());
                case Node.CALL_FUNCTION -> line(body, n, call(n));
                case Node.OUTPUT ->
                    body.append("        return ").append(tuple(n.args())).append('\n');
                default -> throw new IllegalStateException("unknown op " + n.op());
            }
        }
        return "class GraphModule(torch.nn.Module):\n    def forward(self" + (params.isEmpty() ? "" : ", ")
                + String.join(", ", params) + "):\n" + symbols(graph) + body;
    }

    /** A comment naming where each symbol comes from: {@code # s0 = arg0_1.size(0)}. */
    private static String symbols(Graph graph) {
        List<Node> placeholders = graph.nodes().stream()
                .filter(n -> n.op().equals(Node.PLACEHOLDER))
                .toList();
        StringBuilder sb = new StringBuilder();
        List<Graph.SymbolSource> sources = graph.symbols();
        for (int i = 0; i < sources.size(); i++) {
            Graph.SymbolSource s = sources.get(i);
            String input = s.input() < placeholders.size()
                    ? placeholders.get(s.input()).name()
                    : "input" + s.input();
            sb.append("        # s")
                    .append(i)
                    .append(" = ")
                    .append(input)
                    .append(".size(")
                    .append(s.dim())
                    .append(")\n");
        }
        return sb.toString();
    }

    private static void line(StringBuilder body, Node n, String value) {
        body.append("        ")
                .append(n.name())
                .append(annotation(n))
                .append(" = ")
                .append(value)
                .append('\n');
    }

    private static String annotation(Node n) {
        if (n.meta() == null) return "";
        if (n.symbolicShape() == null) return ": \"" + n.meta() + "\"";
        String sizes = n.symbolicShape().toString();
        return ": \"" + n.meta().dtype().abbreviation() + sizes + "\"";
    }

    private static String call(Node n) {
        if (n.target().equals(Node.GETITEM))
            return value(n.args().get(0)) + "[" + n.args().get(1) + "]";
        Schema schema = n.schema();
        List<Object> args =
                n.form() == Node.Form.OUT ? n.args().subList(0, n.args().size() - 1) : n.args();
        List<Schema.Argument> params = schema.arguments();
        int positional = 0;
        while (positional < args.size() && !params.get(positional).kwargOnly()) positional++;
        int shown = positional;
        while (shown > 0 && isDefault(params.get(shown - 1), args.get(shown - 1))) shown--;
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < shown; i++) parts.add(value(args.get(i)));
        for (int i = positional; i < args.size(); i++) {
            if (!isDefault(params.get(i), args.get(i))) parts.add(params.get(i).name() + "=" + value(args.get(i)));
        }
        if (n.form() == Node.Form.OUT) parts.add("out=" + value(n.args().getLast()));
        return "torch.ops." + n.target() + "(" + String.join(", ", parts) + ")";
    }

    private static boolean isDefault(Schema.Argument param, Object v) {
        if (!param.hasDefault()) return false;
        return switch (param.defaultValue()) {
            case SchemaValue.None _ -> v == null;
            case SchemaValue.Int i -> v instanceof Number n && !(v instanceof Double) && n.longValue() == i.value();
            case SchemaValue.Float f -> v instanceof Number n && n.doubleValue() == f.value();
            case SchemaValue.Bool b -> v instanceof Boolean x && x == b.value();
            default -> false;
        };
    }

    private static String tuple(List<Object> values) {
        List<String> parts = values.stream().map(GraphPrinter::value).toList();
        return "(" + String.join(", ", parts) + (parts.size() == 1 ? ",)" : ")");
    }

    /** A value as Python source. */
    static String value(Object v) {
        return switch (v) {
            case null -> "None";
            case Node n -> n.name();
            case Boolean b -> b ? "True" : "False";
            case Double d -> pyFloat(d);
            case Float f -> pyFloat(f);
            case String s -> "'" + s + "'";
            case DType d -> "torch." + d.pyName();
            case Device d -> "device(type='" + d.type() + "')";
            case Enum<?> e -> "'" + e.name().toLowerCase(Locale.ROOT) + "'";
            case long[] a -> list(java.util.Arrays.stream(a).boxed().toList());
            case double[] a -> list(java.util.Arrays.stream(a).boxed().toList());
            case boolean[] a -> {
                List<Object> l = new ArrayList<>();
                for (boolean b : a) l.add(b);
                yield list(l);
            }
            case List<?> l -> list(l);
            default -> v.toString();
        };
    }

    private static String list(List<?> l) {
        return "[" + String.join(", ", l.stream().map(GraphPrinter::value).toList()) + "]";
    }

    private static String pyFloat(double d) {
        if (Double.isNaN(d)) return "nan";
        if (Double.isInfinite(d)) return d > 0 ? "inf" : "-inf";
        return Double.toString(d);
    }
}

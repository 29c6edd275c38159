package org.jtorch.export;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.RoundingMode;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaType;
import org.jtorch.dispatch.SchemaValue;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.Graph;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;
import org.jtorch.fx.TensorMeta;

/**
 * Writes an {@link ExportedProgram} in PyTorch's export schema 8.20, the {@code models/<name>.json} PyTorch 2.13's
 * {@code torch.export.save} writes and its {@code torch.export.load} reads: the graph's nodes with their arguments
 * named as the op's schema names them, a multi-output call as one node whose outputs are named after the
 * {@code getitem}s that read them ({@code <node>_unused_<i>} for the others, as PyTorch names them), each value's
 * metadata, the signature, the calling convention ({@code module_call_graph}) and the range of each symbol.
 *
 * <p>A symbolic integer argument is a value of the program in PyTorch's format: each symbol is read from its input by a
 * {@code aten.sym_size.int} node, and a polynomial of them is computed by {@code _operator.mul} and
 * {@code _operator.add} nodes, each value recorded with its expression ({@link SymExprs}) and its value for the
 * example's sizes.
 */
final class ProgramWriter {
    /** The operator version PyTorch 2.13 records for the aten namespace. */
    private static final long ATEN_OPSET = 10;
    /** JTorch's copy op, which always makes a contiguous copy. */
    private static final String CONTIGUOUS_COPY = "aten._to_copy.default";

    private final ExportedProgram program;
    private final Graph graph;
    private final List<Node> placeholders;
    private final long[] hints;
    private final Map<Node, Object> fakeValues = new IdentityHashMap<>();
    private final Set<String> names = new HashSet<>();
    private final List<Object> nodes = new ArrayList<>();
    private final Map<String, Object> tensorValues = new LinkedHashMap<>();
    private final Map<String, Object> symIntValues = new LinkedHashMap<>();
    private final Map<SymInt, String> symIntNames = new HashMap<>();
    /** Per multi-output call, the getitem node reading each output. */
    private final Map<Node, Map<Long, Node>> getitems = new IdentityHashMap<>();

    private ProgramWriter(ExportedProgram program) {
        this.program = program;
        this.graph = program.graphModule().graph();
        this.placeholders =
                graph.nodes().stream().filter(n -> n.op().equals("placeholder")).toList();
        List<Graph.SymbolSource> sources = graph.symbols();
        this.hints = new long[sources.size()];
        for (int i = 0; i < hints.length; i++) {
            Graph.SymbolSource s = sources.get(i);
            hints[i] = placeholders.get(s.input()).meta().shape()[s.dim()];
        }
        for (Node n : graph.nodes()) names.add(n.name());
    }

    /** The program as the schema's {@code ExportedProgram} object. */
    static Map<String, Object> write(ExportedProgram program) {
        return new ProgramWriter(program).model();
    }

    private Map<String, Object> model() {
        interpretOnFakes();
        for (Node n : graph.nodes()) {
            if (n.op().equals("call_function") && n.target().equals(Node.GETITEM)) {
                Node producer = (Node) n.args().get(0);
                getitems.computeIfAbsent(producer, k -> new HashMap<>())
                        .put((Long) n.args().get(1), n);
            }
        }
        List<Object> inputs = new ArrayList<>();
        for (Node p : placeholders) {
            inputs.add(Map.of("as_tensor", Map.of("name", p.name())));
            tensorValues.put(p.name(), tensorMeta(p.meta(), p.symbolicShape()));
        }
        for (int k = 0; k < hints.length; k++) symbolNode(k);
        List<Object> outputs = new ArrayList<>();
        for (Node n : graph.nodes()) {
            switch (n.op()) {
                case "placeholder" -> {}
                case "call_function" -> {
                    if (!n.target().equals(Node.GETITEM)) nodes.add(node(n));
                }
                case "output" -> {
                    for (Object a : n.args()) outputs.add(Map.of("as_tensor", Map.of("name", ((Node) a).name())));
                }
                default ->
                    throw new TorchException("torch.export.save: the program's graph has a " + n.op() + " node ("
                            + n.name() + "); an exported program's constants are inputs");
            }
        }
        Map<String, Object> g = new LinkedHashMap<>();
        g.put("inputs", inputs);
        g.put("outputs", outputs);
        g.put("nodes", nodes);
        g.put("tensor_values", tensorValues);
        g.put("sym_int_values", symIntValues);
        g.put("sym_bool_values", Map.of());
        g.put("is_single_tensor_return", false);
        g.put("custom_obj_values", Map.of());
        g.put("sym_float_values", Map.of());
        Map<String, Object> gm = new LinkedHashMap<>();
        gm.put("graph", g);
        gm.put("signature", signature());
        gm.put("module_call_graph", List.of(moduleCallEntry()));
        gm.put("metadata", Map.of());
        gm.put("treespec_namedtuple_fields", Map.of());
        Map<String, Object> ranges = new LinkedHashMap<>();
        for (var e : program.rangeConstraints().entrySet()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("min_val", e.getValue().min());
            r.put(
                    "max_val",
                    e.getValue().max() == Long.MAX_VALUE ? null : e.getValue().max());
            ranges.put(e.getKey(), r);
        }
        boolean functional = graph.nodes().stream().allMatch(n -> n.form() == Node.Form.FUNCTIONAL);
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("graph_module", gm);
        model.put("opset_version", Map.of("aten", ATEN_OPSET));
        model.put("range_constraints", ranges);
        model.put("schema_version", Map.of("major", 8L, "minor", 20L));
        model.put("verifiers", List.of(functional ? "ATEN" : "TRAINING"));
        model.put("torch_version", "2.13.0");
        model.put("guards_code", List.of());
        return model;
    }

    /** Every node's value on fake inputs: the metadata of outputs no {@code getitem} reads. */
    private void interpretOnFakes() {
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            Tensor[] inputs = new Tensor[placeholders.size()];
            for (int i = 0; i < inputs.length; i++)
                inputs[i] = fake.fromMeta(placeholders.get(i).meta());
            program.graphModule().interpret(inputs, fakeValues::put);
        }
    }

    private Map<String, Object> node(Node n) {
        if (n.form() == Node.Form.OUT) {
            throw new TorchException("torch.export.save: node " + n.name() + " (" + n.target() + ") writes out= "
                    + "tensors, which the export schema cannot hold");
        }
        Schema schema = n.schema();
        String where = "torch.export.save: argument of " + n.name() + " (" + n.target() + ")";
        List<Object> inputs = new ArrayList<>();
        List<Object> args = n.args();
        List<Schema.Argument> params = schema.arguments();
        if (args.size() > params.size()) throw new TorchException(where + ": more arguments than the schema has");
        for (int i = 0; i < args.size(); i++) {
            Schema.Argument p = params.get(i);
            Object v = args.get(i);
            if (v == null && p.hasDefault() && !(p.defaultValue() instanceof SchemaValue.None)) continue;
            Map<String, Object> named = new LinkedHashMap<>();
            named.put("name", p.name());
            named.put(
                    "arg", v == null ? Map.of("as_none", true) : argument(v, p.type(), where + " '" + p.name() + "'"));
            named.put("kind", p.kwargOnly() ? 2L : 1L);
            inputs.add(named);
        }
        if (n.target().equals(CONTIGUOUS_COPY)) {
            if (args.size() > 2 && args.get(2) != null) {
                throw new TorchException(where + ": JTorch's broadcasting _to_copy (size=) has no PyTorch counterpart");
            }
            // JTorch's _to_copy makes a contiguous copy; PyTorch's keeps a dense input's strides unless told otherwise
            inputs.add(named("memory_format", Map.of("as_memory_format", 1L), 2L));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        boolean wrapped = false;
        for (int i = 1; i < args.size(); i++) {
            wrapped |= args.get(i) instanceof Number && params.get(i).type().isTensor();
        }
        out.put("target", "torch.ops." + PyTorchOps.pyTorchTarget(n.target(), wrapped));
        out.put("inputs", inputs);
        out.put("outputs", outputs(n, schema));
        out.put("metadata", Map.of());
        out.put("is_hop_single_tensor_return", null);
        out.put("name", n.name());
        return out;
    }

    private List<Object> outputs(Node n, Schema schema) {
        List<Schema.Return> returns = schema.returns();
        Object value = fakeValues.get(n);
        if (returns.size() == 1 && !(returns.getFirst().type().isList())) {
            tensorValues.put(n.name(), tensorMeta(n.meta() != null ? n.meta() : meta(value), n.symbolicShape()));
            return List.of(Map.of("as_tensor", Map.of("name", n.name())));
        }
        Tensor[] results = value instanceof Tensor[] ts ? ts : new Tensor[] {(Tensor) value};
        List<Object> elements = new ArrayList<>();
        Map<Long, Node> readers = getitems.getOrDefault(n, Map.of());
        for (int i = 0; i < results.length; i++) {
            Node reader = readers.get((long) i);
            String name = reader != null ? reader.name() : fresh(n.name() + "_unused_" + i);
            TensorMeta m = reader != null && reader.meta() != null ? reader.meta() : meta(results[i]);
            tensorValues.put(name, tensorMeta(m, reader == null ? null : reader.symbolicShape()));
            elements.add(Map.of("as_tensor", Map.of("name", name)));
        }
        if (returns.size() == 1)
            return List.of(Map.of(
                    "as_tensors",
                    elements.stream().map(e -> ((Map<?, ?>) e).get("as_tensor")).toList()));
        return elements;
    }

    private static TensorMeta meta(Object value) {
        if (!(value instanceof Tensor t)) throw new TorchException("torch.export.save: a node has no tensor value");
        return TensorMeta.of(t);
    }

    private Map<String, Object> argument(Object v, SchemaType type, String where) {
        SchemaType.Base base = type.base();
        return switch (v) {
            case Node n -> Map.of("as_tensor", Map.of("name", n.name()));
            case List<?> list -> {
                boolean optional = type.required() instanceof SchemaType.ListType l
                        && l.element().isOptional();
                List<Object> out = new ArrayList<>();
                for (Object e : list) {
                    Map<String, Object> t = e == null ? null : Map.of("name", ((Node) e).name());
                    if (optional) out.add(t == null ? Map.of("as_none", true) : Map.of("as_tensor", t));
                    else if (t == null) throw new TorchException(where + ": None in a list of tensors");
                    else out.add(t);
                }
                yield Map.of(optional ? "as_optional_tensors" : "as_tensors", out);
            }
            case Boolean b -> Map.of("as_bool", b);
            case Double d -> Map.of("as_float", d);
            case Float f -> Map.of("as_float", f.doubleValue());
            case Long l -> base == SchemaType.Base.FLOAT ? Map.of("as_float", l.doubleValue()) : Map.of("as_int", l);
            case Integer i ->
                base == SchemaType.Base.FLOAT ? Map.of("as_float", i.doubleValue()) : Map.of("as_int", i.longValue());
            case Scalar s -> {
                if (s.isComplex()) throw new TorchException(where + ": complex scalars are not written");
                yield s.isIntegral() ? Map.of("as_int", s.longValue()) : Map.of("as_float", s.doubleValue());
            }
            case String s -> Map.of("as_string", s);
            case RoundingMode m -> {
                if (m == RoundingMode.NONE) throw new TorchException(where + ": rounding mode NONE is None");
                yield Map.of("as_string", m.name().toLowerCase(java.util.Locale.ROOT));
            }
            case long[] a -> {
                List<Object> l = new ArrayList<>();
                for (long x : a) l.add(base == SchemaType.Base.FLOAT ? (Object) (double) x : (Object) x);
                yield Map.of(base == SchemaType.Base.FLOAT ? "as_floats" : "as_ints", l);
            }
            case double[] a -> {
                List<Object> l = new ArrayList<>();
                for (double x : a) l.add(x);
                yield Map.of("as_floats", l);
            }
            case boolean[] a -> {
                List<Object> l = new ArrayList<>();
                for (boolean x : a) l.add(x);
                yield Map.of("as_bools", l);
            }
            case DType d -> Map.of("as_scalar_type", (long) ScalarTypes.code(d));
            case Device d -> device(d);
            case SymInt s ->
                s.isConstant()
                        ? Map.of("as_int", s.constantValue())
                        : Map.of("as_sym_int", Map.of("as_name", symIntName(s)));
            case SymIntArray a -> {
                List<Object> l = new ArrayList<>();
                for (SymInt s : a.elements()) {
                    l.add(s.isConstant() ? Map.of("as_int", s.constantValue()) : Map.of("as_name", symIntName(s)));
                }
                yield Map.of("as_sym_ints", l);
            }
            default ->
                throw new TorchException(
                        where + " is a " + v.getClass().getSimpleName() + ", which the export schema cannot hold");
        };
    }

    private static Map<String, Object> device(Device d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", d.type());
        m.put("index", d.index() < 0 ? null : (Object) (long) d.index());
        return Map.of("as_device", m);
    }

    // ---- symbolic integers as nodes

    /** The {@code sym_size.int} node reading symbol {@code k} from the input dimension that sources it. */
    private void symbolNode(int k) {
        Graph.SymbolSource s = graph.symbols().get(k);
        String name = fresh("sym_size_int_" + k);
        List<Object> inputs = List.of(
                named(
                        "self",
                        Map.of(
                                "as_tensor",
                                Map.of("name", placeholders.get(s.input()).name()))),
                named("dim", Map.of("as_int", (long) s.dim())));
        SymInt symbol = SymInt.symbol(k);
        nodes.add(symNode("torch.ops.aten.sym_size.int", inputs, name));
        defineSymInt(symbol, name);
    }

    /** The name of the program value computing {@code s}, emitting the arithmetic nodes it needs. */
    private String symIntName(SymInt s) {
        String known = symIntNames.get(s);
        if (known != null) return known;
        String sum = null;
        long constant = 0;
        for (var term : s.terms().entrySet()) {
            if (term.getKey() == 0) {
                constant = term.getValue();
                continue;
            }
            String product = null;
            long mask = term.getKey();
            for (int i = 0; mask != 0; i++, mask >>>= 1) {
                if ((mask & 1) == 0) continue;
                String factor = symIntNames.get(SymInt.symbol(i));
                product = product == null ? factor : arithmetic("mul", product, factor);
            }
            if (term.getValue() != 1) product = arithmetic("mul", product, term.getValue());
            sum = sum == null ? product : arithmetic("add", sum, product);
        }
        if (constant != 0) sum = arithmetic("add", sum, constant);
        symIntNames.put(s, sum);
        return sum;
    }

    /** An {@code _operator.<op>} node of two symbolic integers (a name) or a symbolic integer and a constant. */
    private String arithmetic(String op, String a, Object b) {
        String name = fresh(op);
        Map<String, Object> right =
                b instanceof String s ? Map.of("as_sym_int", Map.of("as_name", s)) : Map.of("as_int", b);
        nodes.add(symNode(
                "_operator." + op,
                List.of(named("a", Map.of("as_sym_int", Map.of("as_name", a))), named("b", right)),
                name));
        SymInt left = valueOf(a);
        SymInt value = b instanceof String s ? combine(op, left, valueOf(s)) : combine(op, left, (Long) b);
        defineSymInt(value, name);
        return name;
    }

    private SymInt valueOf(String name) {
        for (var e : symIntNames.entrySet()) if (e.getValue().equals(name)) return e.getKey();
        throw new IllegalStateException("no symbolic integer " + name);
    }

    private static SymInt combine(String op, SymInt a, Object b) {
        SymInt other = b instanceof SymInt s ? s : SymInt.constant((Long) b);
        Map<Long, Long> out = new HashMap<>();
        if (op.equals("add")) {
            out.putAll(a.terms());
            other.terms().forEach((k, v) -> out.merge(k, v, Math::addExact));
        } else {
            a.terms().forEach((ka, va) -> other.terms().forEach((kb, vb) -> {
                if ((ka & kb) != 0) throw new IllegalStateException("a symbol squared");
                out.merge(ka | kb, Math.multiplyExact(va, vb), Math::addExact);
            }));
        }
        return SymInt.of(out);
    }

    private void defineSymInt(SymInt value, String name) {
        symIntNames.putIfAbsent(value, name);
        symIntValues.put(name, symSize(value));
    }

    private static Map<String, Object> named(String name, Map<String, Object> arg) {
        return named(name, arg, 1L);
    }

    private static Map<String, Object> named(String name, Map<String, Object> arg, long kind) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("arg", arg);
        m.put("kind", kind);
        return m;
    }

    private static Map<String, Object> symNode(String target, List<Object> inputs, String name) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("target", target);
        out.put("inputs", inputs);
        out.put("outputs", List.of(Map.of("as_sym_int", Map.of("as_name", name))));
        out.put("metadata", Map.of());
        out.put("is_hop_single_tensor_return", null);
        out.put("name", name);
        return out;
    }

    private String fresh(String base) {
        String name = base;
        for (int i = 1; !names.add(name); i++) name = base + "_" + i;
        return name;
    }

    // ---- metadata

    /** A value's {@code TensorMeta}: sizes symbolic where the graph knows them to be, strides derived from them. */
    private Map<String, Object> tensorMeta(TensorMeta meta, SymIntArray symbolic) {
        long[] shape = meta.shape();
        List<SymInt> sizes = new ArrayList<>();
        for (int d = 0; d < shape.length; d++) {
            sizes.add(symbolic != null ? symbolic.elements().get(d) : SymInt.constant(shape[d]));
        }
        List<Object> sizeJson = new ArrayList<>();
        for (SymInt s : sizes) sizeJson.add(symSize(s));
        List<Object> strideJson = new ArrayList<>();
        for (SymInt s : strides(sizes, meta.stride(), shape)) strideJson.add(symSize(s));
        Map<String, Object> device = new LinkedHashMap<>();
        device.put("type", "cpu");
        device.put("index", null);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dtype", (long) ScalarTypes.code(meta.dtype()));
        m.put("sizes", sizeJson);
        m.put("requires_grad", meta.requiresGrad());
        m.put("device", device);
        m.put("strides", strideJson);
        m.put("storage_offset", Map.of("as_int", 0L));
        m.put("layout", 7L);
        return m;
    }

    /**
     * The strides as functions of the sizes when the value is dense in some order of its dimensions (contiguous,
     * transposed, permuted): each stride is then the product of the sizes of the faster dimensions. Other strides are
     * the example's.
     */
    private static List<SymInt> strides(List<SymInt> sizes, long[] stride, long[] shape) {
        int rank = shape.length;
        Integer[] order = new Integer[rank];
        for (int i = 0; i < rank; i++) order[i] = i;
        java.util.Arrays.sort(
                order, (a, b) -> stride[a] != stride[b] ? Long.compare(stride[b], stride[a]) : Integer.compare(a, b));
        SymInt[] out = new SymInt[rank];
        long expected = 1;
        SymInt symbolic = SymInt.constant(1);
        boolean dense = true;
        for (int k = rank - 1; k >= 0; k--) {
            int d = order[k];
            if (shape[d] != 1 && stride[d] != expected) dense = false;
            out[d] = shape[d] == 1 ? SymInt.constant(stride[d]) : symbolic;
            expected *= shape[d];
            symbolic = combine("mul", symbolic, sizes.get(d));
        }
        List<SymInt> result = new ArrayList<>();
        for (int d = 0; d < rank; d++) result.add(dense ? out[d] : SymInt.constant(stride[d]));
        return result;
    }

    private Map<String, Object> symSize(SymInt s) {
        if (s.isConstant()) return Map.of("as_int", s.constantValue());
        Map<String, Object> expr = new LinkedHashMap<>();
        expr.put("expr_str", SymExprs.srepr(s));
        expr.put("hint", Map.of("as_int", s.eval(hints)));
        return Map.of("as_expr", expr);
    }

    // ---- signature and calling convention

    private Map<String, Object> signature() {
        List<Object> inputs = new ArrayList<>();
        for (InputSpec s : program.graphSignature().inputSpecs()) {
            Map<String, Object> arg = Map.of("name", s.name());
            Map<String, Object> body = new LinkedHashMap<>();
            String kind;
            switch (s.kind()) {
                case USER_INPUT -> {
                    kind = "user_input";
                    body.put("arg", Map.of("as_tensor", arg));
                }
                case PARAMETER -> {
                    kind = "parameter";
                    body.put("arg", arg);
                    body.put("parameter_name", s.target());
                }
                case BUFFER -> {
                    kind = "buffer";
                    body.put("arg", arg);
                    body.put("buffer_name", s.target());
                    body.put("persistent", s.persistent());
                }
                case CONSTANT_TENSOR -> {
                    kind = "tensor_constant";
                    body.put("arg", arg);
                    body.put("tensor_constant_name", s.target());
                }
                default -> throw new IllegalStateException(s.kind().toString());
            }
            inputs.add(Map.of(kind, body));
        }
        List<Object> outputs = new ArrayList<>();
        for (OutputSpec s : program.graphSignature().outputSpecs()) {
            Map<String, Object> body = new LinkedHashMap<>();
            Map<String, Object> arg = Map.of("name", s.name());
            String kind =
                    switch (s.kind()) {
                        case USER_OUTPUT -> {
                            body.put("arg", Map.of("as_tensor", arg));
                            yield "user_output";
                        }
                        case BUFFER_MUTATION -> {
                            body.put("arg", arg);
                            body.put("buffer_name", s.target());
                            yield "buffer_mutation";
                        }
                        case PARAMETER_MUTATION -> {
                            body.put("arg", arg);
                            body.put("parameter_name", s.target());
                            yield "parameter_mutation";
                        }
                        case USER_INPUT_MUTATION -> {
                            body.put("arg", arg);
                            body.put("user_input_name", s.target());
                            yield "user_input_mutation";
                        }
                    };
            outputs.add(Map.of(kind, body));
        }
        Map<String, Object> sig = new LinkedHashMap<>();
        sig.put("input_specs", inputs);
        sig.put("output_specs", outputs);
        return sig;
    }

    /**
     * The root entry of {@code module_call_graph}: the pytree specs of the call, {@code ((x1, ..., xn), {})} in and one
     * tensor (or a tuple of them) out, in the treespec format version 1.
     */
    private Map<String, Object> moduleCallEntry() {
        List<String> userInputs = program.graphSignature().userInputs();
        long userOutputs = program.graphSignature().outputSpecs().stream()
                .filter(s -> s.kind() == OutputKind.USER_OUTPUT)
                .count();
        Map<String, Object> leaf = treespec(null, null, List.of());
        List<Object> args = new ArrayList<>();
        for (int i = 0; i < userInputs.size(); i++) args.add(leaf);
        Map<String, Object> in = treespec(
                "builtins.tuple",
                "null",
                List.of(treespec("builtins.tuple", "null", args), treespec("builtins.dict", "[]", List.of())));
        List<Object> results = new ArrayList<>();
        for (long i = 0; i < userOutputs; i++) results.add(leaf);
        Map<String, Object> out = userOutputs == 1 ? leaf : treespec("builtins.tuple", "null", results);
        Map<String, Object> sig = new LinkedHashMap<>();
        sig.put("inputs", List.of());
        sig.put("outputs", List.of());
        sig.put("in_spec", Json.write(List.of(1L, in)));
        sig.put("out_spec", Json.write(List.of(1L, out)));
        sig.put("forward_arg_names", userInputs);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("fqn", "");
        entry.put("signature", sig);
        return entry;
    }

    private static Map<String, Object> treespec(String type, String context, List<Object> children) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.put("context", context);
        m.put("children_spec", children);
        return m;
    }
}

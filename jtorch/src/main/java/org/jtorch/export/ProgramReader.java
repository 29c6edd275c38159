package org.jtorch.export;

import static org.jtorch.export.JsonValues.bool;
import static org.jtorch.export.JsonValues.field;
import static org.jtorch.export.JsonValues.integer;
import static org.jtorch.export.JsonValues.list;
import static org.jtorch.export.JsonValues.map;
import static org.jtorch.export.JsonValues.number;
import static org.jtorch.export.JsonValues.string;
import static org.jtorch.export.JsonValues.union;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaType;
import org.jtorch.dispatch.SchemaValue;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.InputSpec;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportGraphSignature.OutputSpec;
import org.jtorch.fx.Graph;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.fx.SymIntArray;
import org.jtorch.fx.TensorMeta;

/**
 * Reads a program in PyTorch's export schema ({@code models/<name>.json}, {@code torch/_export/serde/schema.py}) into
 * an {@link ExportedProgram}: the graph's inputs become placeholders, each node a call of the op its target names
 * ({@link PyTorchOps}) with its named arguments put in the schema's order (defaults filled in), each multiple output a
 * {@code getitem}. Symbolic sizes become the graph's symbols: each symbol is sourced from the first input dimension
 * that is exactly it, and the symbolic integers the nodes compute ({@code sym_size}, {@code mul} of sizes) are not
 * nodes here but {@link SymInt} arguments, read from the expressions the archive records for them. Every field is
 * checked; what JTorch cannot run (an op it lacks, a non-polynomial size, a higher-order op) is refused naming it.
 */
final class ProgramReader {
    /** Schema versions read: PyTorch writes major version 8 since 2.5 (2.13 writes 8.20). */
    private static final long SCHEMA_MAJOR = 8;
    /** Ops whose only effect is a check of symbolic sizes that the program's input guards make anyway. */
    private static final Set<String> SIZE_ASSERTIONS = Set.of(
            "torch.ops.aten._assert_scalar.default",
            "torch.ops.aten.sym_constrain_range_for_size.default",
            "torch.ops.aten.sym_constrain_range.default",
            "torch.ops.aten._assert_tensor_metadata.default");

    /** A state-dict name: identifiers joined by dots. */
    private static final java.util.regex.Pattern STATE_NAME =
            java.util.regex.Pattern.compile("[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)*");

    private final String what;
    private final Graph graph = new Graph();
    private final Map<String, Node> values = new HashMap<>();
    private final Map<String, Object> tensorValues;
    private final Map<String, Object> symIntValues;
    private final Map<String, Integer> symbols = new HashMap<>();

    private ProgramReader(String what, Map<String, Object> graphJson) {
        this.what = what;
        this.tensorValues = map(field(graphJson, "tensor_values", what + ": graph"), what + ": tensor_values");
        this.symIntValues = map(field(graphJson, "sym_int_values", what + ": graph"), what + ": sym_int_values");
    }

    /**
     * The program in {@code model}, whose parameters and persistent buffers are {@code weights} and whose
     * non-persistent buffers and constant tensors are {@code constants}, each by its state-dict or constant name.
     */
    static ExportedProgram read(
            Map<String, Object> model, Map<String, Tensor> weights, Map<String, Tensor> constants, String what) {
        Map<String, Object> version = map(field(model, "schema_version", what), what + ": schema_version");
        long major = integer(field(version, "major", what + ": schema_version"), what + ": schema_version.major");
        long minor = integer(field(version, "minor", what + ": schema_version"), what + ": schema_version.minor");
        if (major != SCHEMA_MAJOR) {
            throw new TorchException(what + ": export schema version " + major + "." + minor + "; JTorch reads "
                    + "version " + SCHEMA_MAJOR + ".x, which PyTorch 2.5 to 2.13 write");
        }
        Map<String, Object> gm = map(field(model, "graph_module", what), what + ": graph_module");
        Map<String, Object> graphJson = map(field(gm, "graph", what + ": graph_module"), what + ": graph");
        Map<String, Object> signature = map(field(gm, "signature", what + ": graph_module"), what + ": signature");
        ProgramReader r = new ProgramReader(what, graphJson);
        List<InputSpec> inputs = r.placeholders(graphJson, signature);
        r.nodes(list(field(graphJson, "nodes", what + ": graph"), what + ": nodes"));
        List<OutputSpec> outputs = r.outputs(graphJson, signature);
        r.checkNames(inputs, outputs);
        try {
            r.graph.lint();
        } catch (IllegalStateException e) {
            throw new TorchException(what + ": the program is not a valid graph: " + e.getMessage(), e);
        }
        Map<String, Tensor> stateDict = new LinkedHashMap<>();
        Map<String, Tensor> lifted = new LinkedHashMap<>();
        List<Node> placeholders = r.graph.nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        for (int i = 0; i < inputs.size(); i++) {
            InputSpec s = inputs.get(i);
            switch (s.kind()) {
                case PARAMETER, BUFFER -> {
                    boolean inWeights = s.kind() == InputKind.PARAMETER || s.persistent();
                    Tensor t = (inWeights ? weights : constants).get(s.target());
                    stateDict.put(s.target(), r.checked(t, s.target(), placeholders.get(i)));
                }
                case CONSTANT_TENSOR ->
                    lifted.put(s.target(), r.checked(constants.get(s.target()), s.target(), placeholders.get(i)));
                case USER_INPUT -> {}
            }
        }
        return new ExportedProgram(
                new GraphModule(r.graph, Map.of()),
                new ExportGraphSignature(inputs, outputs),
                stateDict,
                lifted,
                r.ranges(map(field(model, "range_constraints", what), what + ": range_constraints")));
    }

    /** A state tensor, which must exist and match its placeholder's dtype and shape. */
    private Tensor checked(Tensor t, String name, Node placeholder) {
        if (t == null) throw new TorchException(what + ": the archive holds no tensor '" + name + "'");
        TensorMeta m = placeholder.meta();
        if (t.dtype() != m.dtype() || !Arrays.equals(t.shape(), m.shape())) {
            throw new TorchException(what + ": tensor '" + name + "' is " + t.dtype() + Arrays.toString(t.shape())
                    + " but the program's input " + placeholder.name() + " is " + m);
        }
        return t;
    }

    // ---- inputs

    private List<InputSpec> placeholders(Map<String, Object> graphJson, Map<String, Object> signature) {
        List<Object> graphInputs = list(field(graphJson, "inputs", what + ": graph"), what + ": graph.inputs");
        List<Object> specs = list(field(signature, "input_specs", what + ": signature"), what + ": input_specs");
        if (graphInputs.size() != specs.size()) {
            throw new TorchException(
                    what + ": the graph has " + graphInputs.size() + " inputs but its signature " + specs.size());
        }
        List<InputSpec> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            String where = what + ": input_specs[" + i + "]";
            var spec = union(specs.get(i), where);
            Map<String, Object> body = map(spec.getValue(), where);
            String name = tensorName(union(graphInputs.get(i), what + ": graph.inputs[" + i + "]"), where);
            InputSpec parsed =
                    switch (spec.getKey()) {
                        case "user_input" -> {
                            var arg = union(field(body, "arg", where), where + ".arg");
                            requireName(tensorName(arg, where), name, where);
                            yield new InputSpec(InputKind.USER_INPUT, name, null, false);
                        }
                        case "parameter" ->
                            new InputSpec(
                                    InputKind.PARAMETER,
                                    argName(body, name, where),
                                    string(field(body, "parameter_name", where), where + ".parameter_name"),
                                    true);
                        case "buffer" ->
                            new InputSpec(
                                    InputKind.BUFFER,
                                    argName(body, name, where),
                                    string(field(body, "buffer_name", where), where + ".buffer_name"),
                                    bool(field(body, "persistent", where), where + ".persistent"));
                        case "tensor_constant" ->
                            new InputSpec(
                                    InputKind.CONSTANT_TENSOR,
                                    argName(body, name, where),
                                    string(field(body, "tensor_constant_name", where), where + ".tensor_constant_name"),
                                    false);
                        default ->
                            throw new TorchException(
                                    where + ": JTorch cannot run a program with a " + spec.getKey() + " input");
                    };
            if (values.containsKey(name)) throw new TorchException(where + ": input '" + name + "' is repeated");
            Node p = graph.placeholder(name);
            values.put(name, p);
            out.add(new InputSpec(parsed.kind(), p.name(), parsed.target(), parsed.persistent()));
        }
        // symbols first, then the shapes that use them: a symbol is sourced by the first dimension that is exactly it
        for (int i = 0; i < out.size(); i++) {
            Node p = values.get(nameOfInput(graphInputs, i));
            Map<String, Object> meta = tensorMeta(p.name(), nameOfInput(graphInputs, i));
            List<Object> sizes = list(field(meta, "sizes", what + ": " + p.name()), what + ": sizes of " + p.name());
            for (int d = 0; d < sizes.size(); d++) {
                var size = union(sizes.get(d), what + ": size " + d + " of " + p.name());
                if (!size.getKey().equals("as_expr")) continue;
                String expr = string(field(map(size.getValue(), what), "expr_str", what), what + ": expr_str");
                String symbol = SymExprs.bareSymbol(expr);
                if (symbol != null && !symbols.containsKey(symbol)) {
                    graph.defineSymbol(i, d);
                    symbols.put(symbol, symbols.size());
                }
            }
        }
        for (int i = 0; i < out.size(); i++) {
            String jsonName = nameOfInput(graphInputs, i);
            setMeta(values.get(jsonName), jsonName);
        }
        return out;
    }

    private String nameOfInput(List<Object> graphInputs, int i) {
        return tensorName(union(graphInputs.get(i), what + ": graph.inputs[" + i + "]"), what);
    }

    private String argName(Map<String, Object> body, String name, String where) {
        Map<String, Object> arg = map(field(body, "arg", where), where + ".arg");
        requireName(string(field(arg, "name", where + ".arg"), where + ".arg.name"), name, where);
        return name;
    }

    private void requireName(String specName, String inputName, String where) {
        if (!specName.equals(inputName)) {
            throw new TorchException(
                    where + " describes '" + specName + "' but the graph's input is '" + inputName + "'");
        }
    }

    private String tensorName(Map.Entry<String, Object> arg, String where) {
        if (!arg.getKey().equals("as_tensor")) {
            throw new TorchException(where + ": JTorch's programs take and return tensors, not " + arg.getKey());
        }
        return string(field(map(arg.getValue(), where), "name", where), where + ".name");
    }

    // ---- nodes

    private void nodes(List<Object> nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            Map<String, Object> n = map(nodes.get(i), what + ": nodes[" + i + "]");
            String target = string(field(n, "target", what + ": nodes[" + i + "]"), what + ": target");
            String where = what + ": node " + i + " (" + target + ")";
            List<Object> inputs = list(field(n, "inputs", where), where + ".inputs");
            List<Object> outputs = list(field(n, "outputs", where), where + ".outputs");
            if (SIZE_ASSERTIONS.contains(target) || computesOnlySizes(outputs, where)) continue;
            if (target.startsWith("torch.ops.higher_order.")) {
                throw new TorchException(where + ": JTorch cannot run higher-order ops (control flow in the graph)");
            }
            PyTorchOps.Resolved op = PyTorchOps.resolve(target, where);
            Object[] args = arguments(op.op().schema(), inputs, where);
            Node node = op.inPlace() ? graph.callFunctionInPlace(op.op(), args) : graph.callFunction(op.op(), args);
            bindOutputs(node, op.op().schema(), outputs, where);
        }
    }

    /** Whether a node computes symbolic integers only ({@code sym_size}, arithmetic on sizes): not a graph node. */
    private boolean computesOnlySizes(List<Object> outputs, String where) {
        if (outputs.isEmpty()) return false;
        for (int i = 0; i < outputs.size(); i++) {
            String kind = union(outputs.get(i), where + ".outputs[" + i + "]").getKey();
            if (!kind.equals("as_sym_int") && !kind.equals("as_sym_ints")) return false;
        }
        return true;
    }

    private Object[] arguments(Schema schema, List<Object> inputs, String where) {
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < inputs.size(); i++) {
            Map<String, Object> named = map(inputs.get(i), where + ".inputs[" + i + "]");
            String name = string(field(named, "name", where), where + ".inputs[" + i + "].name");
            if (given.put(name, field(named, "arg", where)) != null) {
                throw new TorchException(where + ": argument '" + name + "' is given twice");
            }
        }
        List<Schema.Argument> params = schema.arguments();
        Object[] args = new Object[params.size()];
        for (int i = 0; i < args.length; i++) {
            Schema.Argument p = params.get(i);
            String at = where + ", argument '" + p.name() + "'";
            if (given.containsKey(p.name())) args[i] = conform(p.type(), argument(given.remove(p.name()), at), at);
            else if (p.hasDefault()) args[i] = defaultValue(p.type(), p.defaultValue(), at);
            else throw new TorchException(at + " is missing");
        }
        for (var extra : given.entrySet()) {
            Object v = argument(extra.getValue(), where + ", argument '" + extra.getKey() + "'");
            if (v != null && !Boolean.FALSE.equals(v) && !Device.of("cpu").equals(v)) {
                throw new TorchException(where + ": JTorch's " + schema.operatorName() + " has no argument '"
                        + extra.getKey() + "' (given " + v + ")");
            }
        }
        return args;
    }

    /** An argument in JTorch's representation (see {@link Node}). */
    private Object argument(Object json, String where) {
        var arg = union(json, where);
        Object v = arg.getValue();
        return switch (arg.getKey()) {
            case "as_none" -> null;
            case "as_tensor" -> tensor(v, where);
            case "as_tensors" -> {
                List<Node> out = new ArrayList<>();
                for (Object t : list(v, where)) out.add(tensor(t, where));
                yield out;
            }
            case "as_optional_tensors" -> {
                List<Node> out = new ArrayList<>();
                for (Object t : list(v, where)) {
                    var opt = union(t, where);
                    out.add(opt.getKey().equals("as_none") ? null : tensor(opt.getValue(), where));
                }
                yield out;
            }
            case "as_optional_tensor" -> {
                var opt = union(v, where);
                yield opt.getKey().equals("as_none") ? null : tensor(opt.getValue(), where);
            }
            case "as_int" -> integer(v, where);
            case "as_ints" ->
                list(v, where).stream().mapToLong(x -> integer(x, where)).toArray();
            case "as_float" -> number(v, where);
            case "as_floats" ->
                list(v, where).stream().mapToDouble(x -> number(x, where)).toArray();
            case "as_bool" -> bool(v, where);
            case "as_bools" -> {
                List<Object> l = list(v, where);
                boolean[] out = new boolean[l.size()];
                for (int i = 0; i < out.length; i++) out[i] = bool(l.get(i), where);
                yield out;
            }
            case "as_string" -> string(v, where);
            case "as_scalar_type" -> ScalarTypes.dtype(integer(v, where), where);
            case "as_device" -> device(map(v, where), where);
            case "as_layout" -> {
                if (integer(v, where) != 7) throw new TorchException(where + ": only the strided layout is supported");
                yield null;
            }
            case "as_memory_format" -> {
                long f = integer(v, where);
                if (f != 1 && f != 4) {
                    throw new TorchException(where + ": memory format " + f + " (channels-last) is not supported");
                }
                yield null;
            }
            case "as_sym_int" -> symInt(v, where);
            case "as_sym_ints" -> {
                List<Object> l = list(v, where);
                List<SymInt> elements = new ArrayList<>();
                for (Object e : l) {
                    Object s = symInt(e, where);
                    elements.add(s instanceof SymInt sym ? sym : SymInt.constant((Long) s));
                }
                yield elements.stream().allMatch(SymInt::isConstant)
                        ? elements.stream().mapToLong(SymInt::constantValue).toArray()
                        : new SymIntArray(elements);
            }
            default -> throw new TorchException(where + ": JTorch cannot pass an argument of kind " + arg.getKey());
        };
    }

    private Node tensor(Object v, String where) {
        String name = string(field(map(v, where), "name", where), where + ".name");
        Node n = values.get(name);
        if (n == null) throw new TorchException(where + ": tensor '" + name + "' is used before it is computed");
        return n;
    }

    private Device device(Map<String, Object> d, String where) {
        String type = string(field(d, "type", where), where + ".type");
        Object index = d.get("index");
        try {
            return index == null ? Device.of(type) : Device.of(type, Math.toIntExact(integer(index, where)));
        } catch (RuntimeException e) {
            throw new TorchException(where + ": bad device " + d + ": " + e.getMessage(), e);
        }
    }

    /** A symbolic integer argument: a constant ({@link Long}) or the symbols' polynomial it names. */
    private Object symInt(Object v, String where) {
        var s = union(v, where);
        if (s.getKey().equals("as_int")) return integer(s.getValue(), where);
        if (!s.getKey().equals("as_name")) throw new TorchException(where + ": bad symbolic integer " + s.getKey());
        String name = string(s.getValue(), where);
        Object value = symIntValues.get(name);
        if (value == null) throw new TorchException(where + ": symbolic integer '" + name + "' is never defined");
        SymInt parsed = sizeValue(value, where + " (" + name + ")");
        return parsed.isConstant() ? (Object) parsed.constantValue() : parsed;
    }

    /** A {@code SymInt} of the schema ({@code as_int} or {@code as_expr}) as JTorch's polynomial. */
    private SymInt sizeValue(Object json, String where) {
        var s = union(json, where);
        if (s.getKey().equals("as_int")) return SymInt.constant(integer(s.getValue(), where));
        if (!s.getKey().equals("as_expr")) throw new TorchException(where + ": bad symbolic size " + s.getKey());
        String expr = string(field(map(s.getValue(), where), "expr_str", where), where + ".expr_str");
        return SymExprs.parse(expr, name -> symbols.getOrDefault(name, -1), where);
    }

    /** An argument converted to what JTorch's ops take for the parameter's type. */
    private static Object conform(SchemaType type, Object v, String where) {
        if (v == null) {
            if (!type.isOptional() && !type.holdsTensors()) {
                throw new TorchException(where + " is None, but the parameter is " + type);
            }
            return null;
        }
        SchemaType.Base base = type.base();
        if (type.required().isList()) {
            boolean fits =
                    switch (base) {
                        case INT, SYM_INT -> v instanceof long[] || v instanceof SymIntArray || v instanceof Long;
                        case FLOAT -> v instanceof double[] || v instanceof long[];
                        case BOOL -> v instanceof boolean[];
                        case TENSOR -> v instanceof List<?>;
                        default -> true;
                    };
            if (!fits) throw new TorchException(where + " is " + v + ", but the parameter is " + type);
            if (v instanceof Long l && (base == SchemaType.Base.INT || base == SchemaType.Base.SYM_INT)) {
                int n = ((SchemaType.ListType) type.required()).size();
                long[] out = new long[Math.max(n, 1)];
                Arrays.fill(out, l);
                return out;
            }
            if (base == SchemaType.Base.FLOAT && v instanceof long[] ints) {
                return Arrays.stream(ints).asDoubleStream().toArray();
            }
            return v;
        }
        if (base == SchemaType.Base.FLOAT && v instanceof Long l) return l.doubleValue();
        boolean fits =
                switch (base) {
                    case INT, SYM_INT -> v instanceof Long || v instanceof SymInt;
                    case FLOAT -> v instanceof Double;
                    case BOOL -> v instanceof Boolean;
                    case STR -> v instanceof String;
                    case SCALAR -> v instanceof Long || v instanceof Double || v instanceof Boolean;
                    case SCALAR_TYPE -> v instanceof DType;
                    case DEVICE -> v instanceof Device;
                    default -> true;
                };
        if (!fits) throw new TorchException(where + " is " + v + ", but the parameter is " + type);
        // a number where the schema has a tensor is PyTorch's wrapped number (add.Tensor(x, 1)), which ops take as is
        if (base == SchemaType.Base.TENSOR && !(v instanceof Node || v instanceof List<?> || v instanceof Number)) {
            throw new TorchException(where + " is " + v + ", but the parameter is a tensor");
        }
        return v;
    }

    /** A parameter's default, as the op takes it. */
    private static Object defaultValue(SchemaType type, SchemaValue def, String where) {
        return switch (def) {
            case SchemaValue.None _ -> null;
            case SchemaValue.Int i -> conform(type, i.value(), where);
            case SchemaValue.Float f -> f.value();
            case SchemaValue.Bool b -> b.value();
            case SchemaValue.Str s -> s.value();
            case SchemaValue.ListOf l -> {
                if (type.base() == SchemaType.Base.FLOAT) {
                    yield l.elements().stream()
                            .mapToDouble(e -> ((SchemaValue.Float) e).value())
                            .toArray();
                }
                yield l.elements().stream()
                        .mapToLong(e -> ((SchemaValue.Int) e).value())
                        .toArray();
            }
            case SchemaValue.Identifier _ -> null; // contiguous_format, strided: the op's own default
        };
    }

    private void bindOutputs(Node node, Schema schema, List<Object> outputs, String where) {
        if (schema.returns().size() == 1 && outputs.size() == 1) {
            var out = union(outputs.getFirst(), where + ".outputs[0]");
            switch (out.getKey()) {
                case "as_tensor" -> bind(node, out.getValue(), where);
                case "as_tensors" -> {
                    if (!schema.returns().getFirst().type().isList()) {
                        throw new TorchException(where + ": a list of outputs for an op that returns one tensor");
                    }
                    List<Object> elements = list(out.getValue(), where);
                    for (int i = 0; i < elements.size(); i++) bind(graph.getitem(node, i), elements.get(i), where);
                }
                case "as_none" -> {}
                default -> throw new TorchException(where + ": JTorch cannot bind an output of kind " + out.getKey());
            }
            return;
        }
        if (outputs.size() != schema.returns().size()) {
            throw new TorchException(where + ": " + outputs.size() + " outputs for an op that returns "
                    + schema.returns().size());
        }
        for (int i = 0; i < outputs.size(); i++) {
            var out = union(outputs.get(i), where + ".outputs[" + i + "]");
            switch (out.getKey()) {
                case "as_tensor" -> bind(graph.getitem(node, i), out.getValue(), where);
                case "as_none" -> {}
                default -> throw new TorchException(where + ": JTorch cannot bind an output of kind " + out.getKey());
            }
        }
    }

    private void bind(Node node, Object tensorArgument, String where) {
        String name = string(field(map(tensorArgument, where), "name", where), where + ".name");
        if (values.put(name, node) != null) throw new TorchException(where + ": value '" + name + "' is redefined");
        setMeta(node, name);
    }

    private Map<String, Object> tensorMeta(String nodeName, String jsonName) {
        Object meta = tensorValues.get(jsonName);
        if (meta == null) throw new TorchException(what + ": no tensor_values entry for '" + jsonName + "'");
        return map(meta, what + ": tensor_values of " + nodeName);
    }

    /**
     * Records a value's dtype, sizes (the example's, and the symbolic ones) and strides (the example's). Only an
     * input's sizes must be polynomials in the symbols, since they define the symbols and are checked on each call;
     * another value's size that is not ({@code Min(32, 32*s0)} from a view's stride computation) is kept as the
     * example's.
     */
    private void setMeta(Node node, String jsonName) {
        String where = what + ": tensor_values['" + jsonName + "']";
        boolean input = node.op().equals("placeholder");
        Map<String, Object> meta = tensorMeta(node.name(), jsonName);
        DType dtype = ScalarTypes.dtype(integer(field(meta, "dtype", where), where + ".dtype"), where);
        List<Object> sizes = list(field(meta, "sizes", where), where + ".sizes");
        List<Object> strides = list(field(meta, "strides", where), where + ".strides");
        if (sizes.size() != strides.size()) throw new TorchException(where + ": sizes and strides differ in length");
        long[] shape = new long[sizes.size()];
        long[] stride = new long[sizes.size()];
        List<SymInt> symbolic = new ArrayList<>();
        boolean known = true;
        for (int d = 0; d < shape.length; d++) {
            String at = where + ".sizes[" + d + "]";
            var size = union(sizes.get(d), at);
            if (size.getKey().equals("as_int")) {
                shape[d] = integer(size.getValue(), at);
                symbolic.add(SymInt.constant(shape[d]));
            } else {
                shape[d] = hint(sizes.get(d), at);
                try {
                    symbolic.add(sizeValue(sizes.get(d), at));
                } catch (TorchException notPolynomial) {
                    if (input) throw notPolynomial;
                    known = false;
                }
            }
            var st = union(strides.get(d), where + ".strides[" + d + "]");
            stride[d] = st.getKey().equals("as_int")
                    ? integer(st.getValue(), where + ".strides[" + d + "]")
                    : hint(strides.get(d), where + ".strides[" + d + "]");
            if (shape[d] < 0) throw new TorchException(where + ": negative size " + shape[d]);
        }
        boolean requiresGrad = bool(field(meta, "requires_grad", where), where + ".requires_grad");
        try {
            node.setMeta(new TensorMeta(shape, stride, dtype, Device.of("cpu"), requiresGrad));
        } catch (RuntimeException e) {
            throw new TorchException(where + ": " + e.getMessage(), e);
        }
        if (known && symbolic.stream().anyMatch(s -> !s.isConstant())) node.setSymbolicShape(new SymIntArray(symbolic));
    }

    /** The example's value of a symbolic size ({@code hint}). */
    private static long hint(Object size, String where) {
        Map<String, Object> expr = map(union(size, where).getValue(), where);
        Object hint = expr.get("hint");
        if (hint == null) throw new TorchException(where + ": a symbolic size without the example's value (hint)");
        var h = union(hint, where + ".hint");
        return integer(h.getValue(), where + ".hint");
    }

    // ---- outputs and ranges

    private List<OutputSpec> outputs(Map<String, Object> graphJson, Map<String, Object> signature) {
        List<Object> results = list(field(graphJson, "outputs", what + ": graph"), what + ": graph.outputs");
        List<Object> specs = list(field(signature, "output_specs", what + ": signature"), what + ": output_specs");
        if (results.size() != specs.size()) {
            throw new TorchException(
                    what + ": the graph has " + results.size() + " outputs but its signature " + specs.size());
        }
        List<Node> nodes = new ArrayList<>();
        List<OutputSpec> out = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            String where = what + ": output_specs[" + i + "]";
            String name = tensorName(union(results.get(i), what + ": graph.outputs[" + i + "]"), where);
            Node n = values.get(name);
            if (n == null) throw new TorchException(where + ": output '" + name + "' is never computed");
            nodes.add(n);
            var spec = union(specs.get(i), where);
            Map<String, Object> body = map(spec.getValue(), where);
            Object arg = field(body, "arg", where);
            String specName = arg instanceof Map<?, ?> m && m.size() == 1 && !m.containsKey("name")
                    ? tensorName(union(arg, where + ".arg"), where)
                    : string(field(map(arg, where), "name", where), where + ".arg.name");
            requireName(specName, name, where);
            out.add(
                    switch (spec.getKey()) {
                        case "user_output" -> new OutputSpec(OutputKind.USER_OUTPUT, n.name(), null);
                        case "buffer_mutation" ->
                            new OutputSpec(
                                    OutputKind.BUFFER_MUTATION,
                                    n.name(),
                                    string(field(body, "buffer_name", where), where + ".buffer_name"));
                        case "parameter_mutation" ->
                            new OutputSpec(
                                    OutputKind.PARAMETER_MUTATION,
                                    n.name(),
                                    string(field(body, "parameter_name", where), where + ".parameter_name"));
                        case "user_input_mutation" ->
                            new OutputSpec(
                                    OutputKind.USER_INPUT_MUTATION,
                                    n.name(),
                                    string(field(body, "user_input_name", where), where + ".user_input_name"));
                        default ->
                            throw new TorchException(
                                    where + ": JTorch cannot run a program with a " + spec.getKey() + " output");
                    });
        }
        graph.output(nodes.toArray(Node[]::new));
        return out;
    }

    /**
     * Checks that state names are dotted paths of identifiers, none both a tensor and a module, each named once, and
     * that each mutation writes a buffer, parameter or input the program has.
     */
    private void checkNames(List<InputSpec> inputs, List<OutputSpec> outputs) {
        Set<String> targets = new java.util.HashSet<>();
        Set<String> modules = new java.util.HashSet<>();
        for (InputSpec s : inputs) {
            if (s.kind() != InputKind.PARAMETER && s.kind() != InputKind.BUFFER) continue;
            if (!STATE_NAME.matcher(s.target()).matches()) {
                throw new TorchException(what + ": '" + s.target() + "' is not a parameter or buffer name");
            }
            if (!targets.add(s.target())) throw new TorchException(what + ": '" + s.target() + "' is named twice");
            String[] path = s.target().split("\\.");
            StringBuilder prefix = new StringBuilder();
            for (int i = 0; i < path.length - 1; i++) {
                prefix.append(i == 0 ? "" : ".").append(path[i]);
                modules.add(prefix.toString());
            }
        }
        for (String t : targets) {
            if (modules.contains(t)) throw new TorchException(what + ": '" + t + "' is both a tensor and a module");
        }
        for (OutputSpec o : outputs) {
            boolean known =
                    switch (o.kind()) {
                        case USER_OUTPUT -> true;
                        case BUFFER_MUTATION ->
                            inputs.stream()
                                    .anyMatch(i -> i.kind() == InputKind.BUFFER
                                            && i.target().equals(o.target()));
                        case PARAMETER_MUTATION ->
                            inputs.stream()
                                    .anyMatch(i -> i.kind() == InputKind.PARAMETER
                                            && i.target().equals(o.target()));
                        case USER_INPUT_MUTATION ->
                            inputs.stream()
                                    .anyMatch(i -> i.kind() == InputKind.USER_INPUT
                                            && i.name().equals(o.target()));
                    };
            if (!known)
                throw new TorchException(what + ": output " + o.name() + " writes '" + o.target()
                        + "', which the program has no "
                        + o.kind().name().toLowerCase(java.util.Locale.ROOT).replace("_mutation", ""));
        }
    }

    private Map<String, ValueRange> ranges(Map<String, Object> json) {
        Map<String, ValueRange> out = new LinkedHashMap<>();
        for (var e : json.entrySet()) {
            Integer index = symbols.get(e.getKey());
            if (index == null) continue; // PyTorch too ignores a range of a symbol no input has
            String where = what + ": range_constraints['" + e.getKey() + "']";
            Map<String, Object> r = map(e.getValue(), where);
            Object min = r.get("min_val");
            Object max = r.get("max_val");
            long lo = min == null ? 0 : integer(min, where + ".min_val");
            long hi = max == null ? Long.MAX_VALUE : integer(max, where + ".max_val");
            try {
                out.put("s" + index, new ValueRange(lo, hi));
            } catch (TorchException bad) {
                throw new TorchException(where + ": " + bad.getMessage());
            }
        }
        return out;
    }
}

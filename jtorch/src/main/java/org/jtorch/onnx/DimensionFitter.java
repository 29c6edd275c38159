package org.jtorch.onnx;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.TorchException;
import org.jtorch.export.Export;
import org.jtorch.export.ExportGraphSignature.InputKind;
import org.jtorch.export.ExportGraphSignature.OutputKind;
import org.jtorch.export.ExportedProgram;
import org.jtorch.fx.Node;
import org.jtorch.fx.SymInt;
import org.jtorch.nn.Module;

/**
 * Finds which integers of a module's exported graph follow its dynamic dimensions, by exporting it at several sizes: at
 * the example's (the base), once per symbol with that symbol one larger, and once with every symbol two larger. Every
 * integer of the graphs (view sizes, slice bounds, expand sizes, the outputs' sizes) is fitted as {@code c + a0*s0 +
 * a1*s1 ...} from the base and the per-symbol traces, and the last trace must give exactly what the fit predicts. A
 * graph that changes with a size in another way (other ops, a float that depends on it, a size that grows as a product
 * of two symbols) is refused with the node that differs, rather than exported with a shape that is right only at the
 * example's size.
 */
final class DimensionFitter {
    private DimensionFitter() {}

    /** The program at the example's sizes and its symbolic shapes. */
    record Fitted(ExportedProgram program, SymbolicShapes shapes) {}

    static Fitted fit(Module module, Tensor[] examples, List<OnnxOptions.DynamicAxis> axes) {
        Map<String, Long> base = new LinkedHashMap<>();
        for (OnnxOptions.DynamicAxis a : axes) {
            if (a.input() >= examples.length) {
                throw new IllegalArgumentException("onnx export: dynamic axis " + a + " names input " + a.input()
                        + ", but there are " + examples.length + " inputs");
            }
            long[] shape = examples[a.input()].shape();
            if (a.dim() >= shape.length) {
                throw new IllegalArgumentException(
                        "onnx export: dynamic axis " + a + " is past the input's rank " + shape.length);
            }
            long size = shape[a.dim()];
            if (size < 2) {
                throw new IllegalArgumentException("onnx export: the example's size along dynamic axis " + a + " is "
                        + size + "; give an example of size 2 or more there (sizes 0 and 1 are specialized)");
            }
            Long before = base.putIfAbsent(a.name(), size);
            if (before != null && before != size) {
                throw new IllegalArgumentException("onnx export: dynamic axes named '" + a.name()
                        + "' have different example sizes (" + before + " and " + size + ")");
            }
        }
        List<String> names = new ArrayList<>(base.keySet());
        long[] values = base.values().stream().mapToLong(Long::longValue).toArray();
        ExportedProgram reference = Export.export(module, examples);
        List<ExportedProgram> moved = new ArrayList<>();
        for (int j = 0; j < values.length; j++) {
            long[] at = values.clone();
            at[j] += 1;
            moved.add(Export.export(module, resized(examples, axes, names, at)));
        }
        long[] checkAt = values.clone();
        for (int j = 0; j < checkAt.length; j++) checkAt[j] += 2;
        ExportedProgram check = Export.export(module, resized(examples, axes, names, checkAt));
        return new Fitting(reference, moved, check, values).result(symbols(reference, axes, names), names);
    }

    /** Zero-filled inputs of the example's dtypes with the dynamic dimensions at the given sizes. */
    private static Tensor[] resized(
            Tensor[] examples, List<OnnxOptions.DynamicAxis> axes, List<String> names, long[] sizes) {
        Tensor[] out = new Tensor[examples.length];
        for (int i = 0; i < examples.length; i++) {
            long[] shape = examples[i].shape();
            for (OnnxOptions.DynamicAxis a : axes) {
                if (a.input() == i) shape[a.dim()] = sizes[names.indexOf(a.name())];
            }
            out[i] = Torch.zeros(shape, examples[i].dtype());
        }
        return out;
    }

    /** The symbols, each sourced from the first axis that names it (placeholder index of that user input). */
    private static List<SymbolicShapes.Symbol> symbols(
            ExportedProgram program, List<OnnxOptions.DynamicAxis> axes, List<String> names) {
        List<Integer> userPlaceholders = new ArrayList<>();
        var specs = program.graphSignature().inputSpecs();
        for (int i = 0; i < specs.size(); i++) if (specs.get(i).kind() == InputKind.USER_INPUT) userPlaceholders.add(i);
        List<SymbolicShapes.Symbol> out = new ArrayList<>();
        for (String name : names) {
            OnnxOptions.DynamicAxis a =
                    axes.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
            out.add(new SymbolicShapes.Symbol(userPlaceholders.get(a.input()), a.dim(), name));
        }
        return out;
    }

    /** One fit: the reference graph's integers against the moved traces'. */
    private static final class Fitting {
        private final List<Node> reference;
        private final List<List<Node>> moved;
        private final List<Node> check;
        private final long[] base;
        private final ExportedProgram program;

        Fitting(ExportedProgram reference, List<ExportedProgram> moved, ExportedProgram check, long[] base) {
            this.program = reference;
            this.reference = reference.graphModule().graph().nodes();
            this.moved =
                    moved.stream().map(p -> p.graphModule().graph().nodes()).toList();
            this.check = check.graphModule().graph().nodes();
            this.base = base;
            for (ExportedProgram other : moved) sameConstants(reference, other);
            sameConstants(reference, check);
        }

        Fitted result(List<SymbolicShapes.Symbol> symbols, List<String> names) {
            IdentityHashMap<Node, List<Object>> args = new IdentityHashMap<>();
            Map<Integer, List<Object>> inputShapes = new HashMap<>();
            List<List<Object>> outputShapes = new ArrayList<>();
            for (List<Node> other : moved) sameStructure(other);
            sameStructure(check);
            int placeholder = 0;
            for (int i = 0; i < reference.size(); i++) {
                Node n = reference.get(i);
                final int index = i;
                if (n.op().equals("placeholder")) {
                    if (n.meta() != null) {
                        List<Object> shape = fitList(
                                boxed(n.meta().shape()),
                                moved.stream()
                                        .map(m -> boxed(m.get(index).meta().shape()))
                                        .toList(),
                                boxed(check.get(i).meta().shape()),
                                n);
                        inputShapes.put(placeholder, shape);
                    }
                    placeholder++;
                    continue;
                }
                if (n.op().equals("output")) continue;
                List<Object> fitted = fitList(
                        n.args(),
                        moved.stream().map(m -> m.get(index).args()).toList(),
                        check.get(i).args(),
                        n);
                if (!fitted.equals(n.args())) args.put(n, fitted);
            }
            Node output = reference.getLast();
            var specs = program.graphSignature().outputSpecs();
            for (int k = 0; k < specs.size(); k++) {
                if (specs.get(k).kind() != OutputKind.USER_OUTPUT) continue;
                final int idx = k;
                Node r = (Node) output.args().get(k);
                int at = reference.indexOf(r);
                outputShapes.add(fitList(
                        boxed(r.meta().shape()),
                        moved.stream().map(m -> boxed(m.get(at).meta().shape())).toList(),
                        boxed(((Node) check.getLast().args().get(idx)).meta().shape()),
                        r));
            }
            return new Fitted(program, new SymbolicShapes(symbols, args, inputShapes, outputShapes));
        }

        private void sameStructure(List<Node> other) {
            if (other.size() != reference.size()) {
                throw new TorchException("onnx export: the graph changes with a dynamic size (" + reference.size()
                        + " nodes at the example's size, " + other.size()
                        + " at another); export it with static sizes");
            }
            for (int i = 0; i < reference.size(); i++) {
                Node a = reference.get(i), b = other.get(i);
                if (!a.op().equals(b.op()) || !a.target().equals(b.target())) {
                    throw new TorchException("onnx export: the graph changes with a dynamic size at node " + a.name()
                            + " (" + a.target() + " becomes " + b.target() + ")");
                }
            }
        }

        /** The reference's values with every integer that moves with a symbol replaced by its fitted SymInt. */
        private List<Object> fitList(List<?> ref, List<? extends List<?>> movedValues, List<?> checkValues, Node at) {
            List<Object> out = new ArrayList<>();
            for (int k = 0; k < ref.size(); k++) {
                final int index = k;
                out.add(fitValue(
                        ref.get(k),
                        movedValues.stream().map(l -> (Object) l.get(index)).toList(),
                        checkValues.get(k),
                        at));
            }
            return out;
        }

        private Object fitValue(Object ref, List<Object> movedValues, Object checkValue, Node at) {
            if (ref instanceof Node n) return n;
            if (ref instanceof List<?> l) {
                List<List<?>> ms = new ArrayList<>();
                for (Object m : movedValues) {
                    if (!(m instanceof List<?> ml) || ml.size() != l.size()) throw differs(at, ref, m);
                    ms.add(ml);
                }
                if (!(checkValue instanceof List<?> cl) || cl.size() != l.size()) throw differs(at, ref, checkValue);
                return fitList(l, ms, cl, at);
            }
            if (ref instanceof long[] arr) {
                List<List<?>> ms = new ArrayList<>();
                for (Object m : movedValues) ms.add(boxed((long[]) m));
                return fitList(boxed(arr), ms, boxed((long[]) checkValue), at);
            }
            if (ref instanceof Long || ref instanceof Integer) {
                long c0 = ((Number) ref).longValue();
                Map<Long, Long> terms = new HashMap<>();
                long constant = c0;
                long predicted = c0;
                for (int j = 0; j < movedValues.size(); j++) {
                    if (!(movedValues.get(j) instanceof Number m)) throw differs(at, ref, movedValues.get(j));
                    long a = m.longValue() - c0;
                    if (a != 0) terms.put(1L << j, a);
                    constant -= a * base[j];
                    predicted += 2 * a;
                }
                if (!(checkValue instanceof Number c) || c.longValue() != predicted) {
                    throw new TorchException("onnx export: node " + at.name() + " (" + at.target() + ") has an integer "
                            + ref + " that does not grow linearly with the dynamic sizes (" + checkValue
                            + " where " + predicted + " was predicted); export it with static sizes");
                }
                if (terms.isEmpty()) return ref;
                terms.put(0L, constant);
                return SymInt.of(terms);
            }
            for (Object m : movedValues) if (!java.util.Objects.equals(ref, m)) throw differs(at, ref, m);
            if (!java.util.Objects.equals(ref, checkValue)) throw differs(at, ref, checkValue);
            return ref;
        }

        private static TorchException differs(Node at, Object ref, Object other) {
            return new TorchException("onnx export: node " + at.name() + " (" + at.target() + ") has the argument "
                    + ref + " at the example's size and " + other + " at another, which ONNX cannot compute from the"
                    + " dynamic sizes; export it with static sizes");
        }

        private static boolean sameTensor(Tensor a, Tensor b) {
            return a == b
                    || java.util.Arrays.equals(a.shape(), b.shape())
                            && a.dtype() == b.dtype()
                            && Boolean.TRUE.equals(a.eq(b).all().tolist());
        }

        private static void sameConstants(ExportedProgram a, ExportedProgram b) {
            for (var e : a.constants().entrySet()) {
                Tensor other = b.constants().get(e.getKey());
                if (other == null || !sameTensor(other, e.getValue())) {
                    throw new TorchException("onnx export: the constant " + e.getKey()
                            + " the forward makes depends on a dynamic size; export it with static sizes");
                }
            }
        }
    }

    private static List<Object> boxed(long[] values) {
        List<Object> out = new ArrayList<>();
        for (long v : values) out.add(v);
        return out;
    }
}

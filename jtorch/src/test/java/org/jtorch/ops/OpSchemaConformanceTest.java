package org.jtorch.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Generator;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.Torch;
import org.jtorch.ValuesIndices;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.SchemaType;
import org.jtorch.dispatch.SchemaType.Base;
import org.jtorch.fft.FFT;
import org.jtorch.foreach.Foreach;
import org.jtorch.linalg.Linalg;
import org.jtorch.nn.functional.F;
import org.junit.jupiter.api.Test;

/**
 * Every op's public Java entry points agree with its schema. The rules, all read off the typed schema:
 *
 * <ol>
 *   <li><b>Which ops are public.</b> As in PyTorch, an op whose name starts with {@code _} is internal, and so is one
 *       that PyTorch's binding generator gives no Python function ({@link #NO_PYTHON_BINDING}); the {@code _foreach_}
 *       ops are public, through {@code Foreach}.
 *   <li><b>Where its entry points are</b> (the API naming rules): {@code torch.x} → static {@code Torch.x},
 *       {@code Tensor.x} → the instance method {@code x}, whose receiver is the argument PyTorch's method variant binds
 *       ({@code self}); {@code F.x} as a functional; {@code linalg_x} → {@code Linalg.x}; {@code fft_x} →
 *       {@code FFT.x}; {@code _foreach_x} → {@code Foreach.x} or {@code Foreach.x_}; names in lowerCamelCase. The
 *       in-place method {@code Tensor.x_} counts too: it runs the same op into {@code self} (and it is how PyTorch
 *       exposes {@code uniform} or {@code random} at all).
 *   <li><b>When a method matches.</b> Its parameters take the schema's positional arguments in order, then kwarg-only
 *       ones in any order (Python keywords have none), each of a corresponding type: Tensor ↔ {@code Tensor};
 *       int/SymInt ↔ {@code long}/{@code int}; int[] ↔ {@code long[]}/{@code int[]} (a fixed-length {@code int[N]} also
 *       from one {@code long}, as PyTorch expands it); float ↔ {@code double}; bool ↔ {@code boolean}; Scalar ↔ a Java
 *       number, {@code Scalar} or {@code Number}; ScalarType ↔ {@code DType}; str ↔ {@code String} or an enum (string
 *       choices are enums); lists ↔ arrays, varargs or collections; {@code T?} ↔ what {@code T} takes, boxed or
 *       nullable; {@code Object} stands for "tensor or number". An argument may be left out only where the schema gives
 *       it a default (positional ones only at the end: Java has no keywords); a last {@code ...Options} parameter
 *       carries the kwarg-only ones. Returns: one tensor ↔ {@code Tensor}; several ↔ a record of as many components, an
 *       array or a list.
 * </ol>
 *
 * A public op passes when at least one of its entry points matches; the failure lists the candidates seen.
 */
class OpSchemaConformanceTest {
    @Test
    void everySchemaRendersToItself() {
        for (OpDef op : OpRegistry.all())
            assertEquals(op.schema(), Schema.parse(op.schema().toString()), op.toString());
    }

    @Test
    void everyPublicOpHasAnEntryPointMatchingItsSchema() throws ReflectiveOperationException {
        Map<String, String> failures = new TreeMap<>();
        for (OpDef op : OpRegistry.all()) {
            Schema s = op.schema();
            if (isInternal(s)) continue;
            List<Method> candidates = entryPoints(s);
            if (candidates.stream().noneMatch(m -> matches(m, s))) {
                failures.put(
                        s.toString(),
                        candidates.isEmpty()
                                ? "no entry point"
                                : "entry points disagree: "
                                        + candidates.stream()
                                                .map(OpSchemaConformanceTest::signature)
                                                .toList());
            }
        }
        StringBuilder report = new StringBuilder();
        failures.forEach(
                (k, v) -> report.append("\n  ").append(k).append("\n      ").append(v));
        assertEquals(0, failures.size(), failures.size() + " ops without a conforming entry point:" + report);
    }

    /** The rules themselves, on signatures made to agree or disagree with real schemas. */
    @Test
    void theRulesTellAgreementFromDisagreement() throws NoSuchMethodException {
        Schema add = Schema.parse("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
        assertTrue(matches(fake("add", Tensor.class, Tensor.class), add));
        assertTrue(matches(fake("add", Tensor.class, Tensor.class, double.class), add));
        assertTrue(matches(fake("addMethod", Tensor.class), add), "self is the receiver");
        assertFalse(matches(fake("add", Tensor.class), add), "other has no default");
        assertFalse(matches(fake("add", Tensor.class, long[].class), add), "int[] is not a Tensor");
        assertFalse(matches(fake("addToLong", Tensor.class, Tensor.class), add), "returns a Tensor");
        Schema slice = Schema.parse("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, "
                + "SymInt step=1) -> Tensor(a)");
        assertTrue(matches(fake("slice", Tensor.class, int.class, Long.class, Long.class, long.class), slice));
        assertTrue(matches(fake("slice", Tensor.class, int.class), slice), "trailing defaults left out");
        assertFalse(matches(fake("slice", Tensor.class, int.class, double.class), slice), "float is not SymInt?");
        Schema sort = Schema.parse("sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) "
                + "-> (Tensor values, Tensor indices)");
        assertTrue(
                matches(fake("sort", Tensor.class, long.class, boolean.class, boolean.class), sort),
                "keywords in any order");
        assertFalse(matches(fake("sort", Tensor.class, long.class), sort), "stable has no default");
        Schema gelu = Schema.parse("gelu(Tensor self, *, str approximate='none') -> Tensor");
        assertTrue(matches(fake("gelu", Tensor.class, Fake.Options.class), gelu), "an options record");
        assertTrue(matches(fake("gelu", Tensor.class, java.math.RoundingMode.class), gelu), "an enum for a str");
        Schema conv = Schema.parse("conv(Tensor input, SymInt[2] stride=1) -> Tensor");
        assertTrue(matches(fake("conv", Tensor.class, long.class), conv), "one value for a fixed-length list");
    }

    /** Signatures for {@link #theRulesTellAgreementFromDisagreement}; never called. */
    @SuppressWarnings("unused")
    private static final class Fake {
        record Options(String approximate) {}

        static Tensor add(Tensor self) {
            return self;
        }

        static Tensor add(Tensor self, Tensor other) {
            return self;
        }

        static Tensor add(Tensor self, Tensor other, double alpha) {
            return self;
        }

        static Tensor add(Tensor self, long[] other) {
            return self;
        }

        static long addToLong(Tensor self, Tensor other) {
            return 0;
        }

        Tensor addMethod(Tensor other) {
            return other;
        }

        static Tensor slice(Tensor self, int dim) {
            return self;
        }

        static Tensor slice(Tensor self, int dim, double start) {
            return self;
        }

        static Tensor slice(Tensor self, int dim, Long start, Long end, long step) {
            return self;
        }

        static ValuesIndices sort(Tensor self, long dim) {
            return null;
        }

        static ValuesIndices sort(Tensor self, long dim, boolean descending, boolean stable) {
            return null;
        }

        static Tensor gelu(Tensor self, Options options) {
            return self;
        }

        static Tensor gelu(Tensor self, java.math.RoundingMode approximate) {
            return self;
        }

        static Tensor conv(Tensor input, long stride) {
            return input;
        }
    }

    private static Method fake(String name, Class<?>... params) throws NoSuchMethodException {
        return Fake.class.getDeclaredMethod(name, params);
    }

    // ---- rule 1: which ops are public -----------------------------------------------------------------

    private static final String FOREACH = "_foreach_";

    /**
     * The ops PyTorch's binding generator gives no Python function ({@code SKIP_PYTHON_BINDINGS} in
     * {@code tools/autograd/gen_python_functions.py}), as far as JTorch defines them: backward and forward kernels, and
     * the ops Python reaches by other means ({@code index} by indexing, {@code nonzero_numpy} by
     * {@code nonzero(as_tuple=True)}, {@code alias} and {@code normal_functional} only in functionalization).
     */
    private static final Pattern NO_PYTHON_BINDING =
            Pattern.compile(".*_backward.*|.*_forward|alias|index|nonzero_numpy|normal_functional");

    static boolean isInternal(Schema s) {
        if (s.name().startsWith(FOREACH)) return false;
        return s.name().startsWith("_") || NO_PYTHON_BINDING.matcher(s.name()).matches();
    }

    // ---- rule 2: where the entry points are -----------------------------------------------------------

    static List<Method> entryPoints(Schema s) {
        String name = s.name();
        List<Method> found = new ArrayList<>();
        if (name.startsWith(FOREACH)) {
            String x = camel(name.substring(FOREACH.length()));
            found.addAll(statics(Foreach.class, x));
            found.addAll(statics(Foreach.class, x + "_"));
            return found;
        }
        if (name.startsWith("linalg_")) found.addAll(statics(Linalg.class, camel(name.substring("linalg_".length()))));
        if (name.startsWith("fft_")) found.addAll(statics(FFT.class, camel(name.substring("fft_".length()))));
        String x = camel(name);
        found.addAll(statics(Torch.class, x));
        found.addAll(statics(F.class, x));
        found.addAll(methods(x));
        found.addAll(methods(x + "_"));
        return found;
    }

    /** {@code clamp_min} → {@code clampMin}; {@code mH} stays; an in-place {@code add_} keeps its {@code _}. */
    static String camel(String snake) {
        if (snake.endsWith("_")) return camel(snake.substring(0, snake.length() - 1)) + "_";
        StringBuilder sb = new StringBuilder();
        boolean upper = false;
        for (char c : snake.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }

    private static List<Method> statics(Class<?> owner, String name) {
        return Arrays.stream(owner.getMethods())
                .filter(m -> m.getName().equals(name) && Modifier.isStatic(m.getModifiers()))
                .toList();
    }

    private static List<Method> methods(String name) {
        return Arrays.stream(Tensor.class.getMethods())
                .filter(m -> m.getName().equals(name) && !Modifier.isStatic(m.getModifiers()))
                .toList();
    }

    private static String signature(Method m) {
        String params = String.join(
                ", ",
                Arrays.stream(m.getParameterTypes()).map(Class::getSimpleName).toList());
        String owner = m.getDeclaringClass().getSimpleName();
        return m.getReturnType().getSimpleName() + " " + owner + "." + m.getName() + "(" + params + ")";
    }

    // ---- rule 3: when a method matches ----------------------------------------------------------------

    static boolean matches(Method m, Schema s) {
        List<Schema.Argument> args = new ArrayList<>(s.arguments());
        if (!Modifier.isStatic(m.getModifiers())) {
            Schema.Argument receiver = args.stream()
                    .filter(a -> a.name().equals("self"))
                    .findFirst()
                    .orElse(null);
            if (receiver == null || !receiver.type().isTensor()) return false;
            args.remove(receiver);
        }
        List<Schema.Argument> positional =
                args.stream().filter(a -> !a.kwargOnly()).toList();
        List<Schema.Argument> keywords =
                args.stream().filter(Schema.Argument::kwargOnly).toList();
        return returnsMatch(m.getReturnType(), s)
                && bind(m.getParameterTypes(), 0, positional, 0, keywords, new boolean[keywords.size()]);
    }

    /**
     * Whether parameters {@code [i..)} take the positional arguments {@code [j..)} in order, then keyword arguments in
     * any order ({@code used}: those already taken): Python's keywords have no order, so a Java overload lists the ones
     * it takes where it likes.
     */
    private static boolean bind(
            Class<?>[] params,
            int i,
            List<Schema.Argument> positional,
            int j,
            List<Schema.Argument> keywords,
            boolean[] used) {
        if (i == params.length) return restHaveDefaults(positional, j) && unusedHaveDefaults(keywords, used);
        if (i == params.length - 1 && isOptionsRecord(params[i])) return restHaveDefaults(positional, j);
        if (j < positional.size()) {
            boolean takes = accepts(params[i], positional.get(j).type());
            if (takes && bind(params, i + 1, positional, j + 1, keywords, used)) return true;
            // Java cannot skip a positional argument and pass a later one: the rest must all be left out
            return restHaveDefaults(positional, j) && bind(params, i, positional, positional.size(), keywords, used);
        }
        for (int k = 0; k < keywords.size(); k++) {
            if (used[k] || !accepts(params[i], keywords.get(k).type())) continue;
            used[k] = true;
            boolean bound = bind(params, i + 1, positional, j, keywords, used);
            used[k] = false;
            if (bound) return true;
        }
        return false;
    }

    private static boolean restHaveDefaults(List<Schema.Argument> positional, int from) {
        return positional.subList(from, positional.size()).stream().allMatch(Schema.Argument::hasDefault);
    }

    private static boolean unusedHaveDefaults(List<Schema.Argument> keywords, boolean[] used) {
        for (int k = 0; k < keywords.size(); k++) {
            Schema.Argument a = keywords.get(k);
            if (!used[k] && !a.hasDefault()) return false;
        }
        return true;
    }

    /** An options record, by the API's naming ({@code CrossEntropyOptions}, {@code LSTM.Options}). */
    private static boolean isOptionsRecord(Class<?> c) {
        return c.getSimpleName().endsWith("Options");
    }

    private static boolean accepts(Class<?> p, SchemaType t) {
        if (p == Object.class) return t.base() == Base.TENSOR || t.base() == Base.SCALAR;
        return switch (t) {
            case SchemaType.OptionalType o -> accepts(p, o.element());
            case SchemaType.ListType l -> acceptsList(p, l);
            case SchemaType.BaseType b -> acceptsBase(p, b.base());
        };
    }

    private static boolean acceptsList(Class<?> p, SchemaType.ListType l) {
        if (Collection.class.isAssignableFrom(p) || p == Iterable.class) return true;
        if (p.isArray()) return accepts(p.getComponentType(), l.element());
        // int[2] stride=1: PyTorch expands one value to the fixed length
        return l.size() > 0 && accepts(p, l.element());
    }

    private static boolean acceptsBase(Class<?> p, Base b) {
        return switch (b) {
            case TENSOR -> p == Tensor.class;
            case INT, SYM_INT -> p == long.class || p == int.class || p == Long.class || p == Integer.class;
            case FLOAT -> p == double.class || p == float.class || p == Double.class || p == Float.class;
            case BOOL -> p == boolean.class || p == Boolean.class;
            case SCALAR -> isNumber(p) || p == boolean.class || p == Boolean.class;
            case SCALAR_TYPE -> p == DType.class;
            case STR -> p == String.class || p.isEnum();
            case GENERATOR -> p == Generator.class;
            case DEVICE -> p == Device.class;
            case MEMORY_FORMAT, LAYOUT -> p.isEnum();
            case DIMNAME -> p == String.class;
            default -> false;
        };
    }

    private static boolean isNumber(Class<?> p) {
        return p == double.class
                || p == float.class
                || p == long.class
                || p == int.class
                || Number.class.isAssignableFrom(p)
                || p == Scalar.class;
    }

    // ---- returns ----------------------------------------------------------------------------------------

    private static boolean returnsMatch(Class<?> r, Schema s) {
        List<Schema.Return> rets = s.returns();
        if (rets.isEmpty()) return true;
        if (rets.size() == 1) {
            SchemaType t = rets.get(0).type();
            if (t.isTensor()) return r == Tensor.class;
            return r.isArray() || List.class.isAssignableFrom(r);
        }
        if (r.isRecord()) return r.getRecordComponents().length == rets.size();
        return r.isArray() || List.class.isAssignableFrom(r);
    }
}

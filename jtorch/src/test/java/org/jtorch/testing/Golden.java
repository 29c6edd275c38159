package org.jtorch.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.jtorch.DType;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.kernels.cpu.ElementIO;
import org.jtorch.storage.TensorImpl;
import org.junit.jupiter.api.Assumptions;

/**
 * The golden fixtures made by real PyTorch ({@code src/test/resources/golden/core.json}, written by
 * {@code src/test/python/make_golden_core.py}, whose header documents the format): loading, decoding of tensors and
 * scalars, and comparison of JTorch's results with PyTorch's.
 *
 * <p>The fixtures come from PyTorch 2.13 while JTorch follows 2.15. A family's test lists the cases where the two
 * differ as {@link Deviation}s, each with its reason, so that every difference is visible in one place and nothing is
 * skipped silently.
 */
public final class Golden {
    private Golden() {}

    private static final String RESOURCE = "core.json";
    private static final List<Case> CASES = load(RESOURCE);
    private static final Map<String, List<Case>> FAMILIES = new java.util.concurrent.ConcurrentHashMap<>();

    /** One fixture: {@code op(*args, **kwargs) -> out}, with the raw JSON values. */
    public record Case(String id, String op, List<Object> args, Map<String, Object> kwargs, Object out, String note) {
        /** Whether PyTorch raised; {@link #error()} is then a substring of its message. */
        public boolean expectsError() {
            return out instanceof Map<?, ?> m && m.containsKey("error");
        }

        public String error() {
            return (String) ((Map<?, ?>) out).get("error");
        }

        /** Argument {@code i} decoded by {@link #decode}. */
        public Object arg(int i) {
            return decode(args.get(i));
        }

        public Tensor tensorArg(int i) {
            return (Tensor) arg(i);
        }

        public int argCount() {
            return args.size();
        }

        public boolean has(String kwarg) {
            return kwargs.containsKey(kwarg);
        }

        /** A keyword argument decoded by {@link #decode}; a {@code "dtype"} string becomes a {@link DType}. */
        public Object kwarg(String name) {
            Object v = kwargs.get(name);
            if (name.equals("dtype") && v instanceof String s) return dtype(s);
            return decode(v);
        }

        @Override
        public String toString() {
            return id;
        }
    }

    /** Why a case is not compared with PyTorch 2.13's outcome as recorded. */
    public enum Kind {
        /**
         * Not compared with the recorded outcome (it shows as skipped, with the reason): 2.15 semantics differ from
         * 2.13's, or the case cannot be expressed through the Java API. The reason says which, and where 2.15's
         * behaviour is tested instead.
         */
        NOT_COMPARED,
        /** JTorch cannot reproduce PyTorch's wording: the error must still be raised and name the op. */
        MESSAGE,
        /** 2.15 gives another result dtype than 2.13: the values are compared, the dtype must be the 2.15 one. */
        DTYPE_2_15
    }

    /**
     * A known difference: the case ids it covers ({@code *} at the end matches any suffix), its kind, its reason, and
     * for {@link Kind#DTYPE_2_15} the dtype 2.15 gives.
     */
    public record Deviation(String pattern, Kind kind, String reason, DType dtype) {
        public Deviation(String pattern, Kind kind, String reason) {
            this(pattern, kind, reason, null);
        }

        /** The result dtype differs in 2.15; values are still compared. */
        public static Deviation dtype(String pattern, DType dtype215, String reason) {
            return new Deviation(pattern, Kind.DTYPE_2_15, reason, dtype215);
        }

        public boolean matches(String id) {
            return pattern.endsWith("*")
                    ? id.startsWith(pattern.substring(0, pattern.length() - 1))
                    : id.equals(pattern);
        }
    }

    /** All cases, in file order. */
    public static List<Case> cases() {
        return CASES;
    }

    /**
     * The cases of a family's own fixture file, {@code src/test/resources/golden/<name>} (same format, written by that
     * family's {@code make_golden_<family>.py}), in file order.
     */
    public static List<Case> cases(String name) {
        return FAMILIES.computeIfAbsent(name, Golden::load);
    }

    /**
     * The parsed top-level object of a fixture file {@code src/test/resources/golden/<name>} whose layout is its own (a
     * family with per-test structures rather than {@link Case}s).
     */
    @SuppressWarnings("unchecked") // every fixture file is one JSON object
    public static Map<String, Object> fixture(String name) {
        String resource = "/golden/" + name;
        try (InputStream in = Golden.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException("missing test resource " + resource);
            return (Map<String, Object>) Json.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Case> load(String name) {
        Map<String, Object> root = fixture(name);
        List<Case> out = new ArrayList<>();
        for (Object o : (List<Object>) root.get("cases")) {
            Map<String, Object> c = (Map<String, Object>) o;
            out.add(new Case(
                    (String) c.get("id"),
                    (String) c.get("op"),
                    (List<Object>) c.get("args"),
                    (Map<String, Object>) c.get("kwargs"),
                    c.get("out"),
                    (String) c.get("note")));
        }
        return Collections.unmodifiableList(out);
    }

    // ---- decoding ---------------------------------------------------------------------------------

    /** A dtype from its PyTorch name ({@code "float32"}). */
    public static DType dtype(String name) {
        for (DType d : DType.values()) if (d.pyName().equals(name)) return d;
        throw new IllegalArgumentException("unknown dtype " + name);
    }

    /**
     * A JSON argument as a Java value: a tensor record becomes a {@link Tensor}; {@code {"scalar": v}} becomes a
     * {@link Long}, {@link Double}, {@link Boolean} or, for {@code [re, im]}, a complex {@link Scalar}; a list becomes
     * a list of decoded values; non-finite strings become doubles.
     */
    @SuppressWarnings("unchecked")
    public static Object decode(Object json) {
        if (json instanceof Map<?, ?> m) {
            if (m.containsKey("scalar")) return scalar(m.get("scalar"));
            if (m.containsKey("dtype")) return tensor((Map<String, Object>) m);
            throw new IllegalArgumentException("not a tensor or scalar: " + m);
        }
        if (json instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            for (Object o : l) out.add(decode(o));
            return out;
        }
        if (json instanceof String s && isNonFinite(s)) return number(s);
        return json;
    }

    private static boolean isNonFinite(String s) {
        return s.equals("nan") || s.equals("inf") || s.equals("-inf");
    }

    private static Object scalar(Object v) {
        if (v instanceof List<?> l) return Scalar.complex(number(l.get(0)), number(l.get(1)));
        if (v instanceof String s) return number(s);
        return v; // Long, Double or Boolean as parsed
    }

    /** A JSON number or non-finite string as a double. */
    public static double number(Object v) {
        return switch (v) {
            case Number n -> n.doubleValue();
            case Boolean b -> b ? 1 : 0;
            case String s ->
                switch (s) {
                    case "nan" -> Double.NaN;
                    case "inf" -> Double.POSITIVE_INFINITY;
                    case "-inf" -> Double.NEGATIVE_INFINITY;
                    default -> throw new IllegalArgumentException("not a number: " + s);
                };
            default -> throw new IllegalArgumentException("not a number: " + v);
        };
    }

    /**
     * A tensor record. Values are written element by element through {@link ElementIO}, so building an input never runs
     * the ops under test. With {@code "transpose": [d0, d1]} the data describes the tensor before transposing and the
     * result is the non-contiguous transposed view.
     */
    @SuppressWarnings("unchecked")
    public static Tensor tensor(Map<String, Object> t) {
        DType dtype = dtype((String) t.get("dtype"));
        List<Object> shapeJson = (List<Object>) t.get("shape");
        long[] shape = new long[shapeJson.size()];
        for (int i = 0; i < shape.length; i++) shape[i] = ((Number) shapeJson.get(i)).longValue();
        List<Object> data = (List<Object>) t.get("data");
        Tensor out = Tensor.of(TensorImpl.empty(shape, dtype));
        MemorySegment seg = out.impl().storage().segment();
        ElementIO io = ElementIO.of(dtype);
        long n = out.numel();
        for (int i = 0; i < n; i++) {
            if (dtype.isComplex()) io.setComplex(seg, i, number(data.get(2 * i)), number(data.get(2 * i + 1)));
            else if (dtype.isFloatingPoint()) io.setDouble(seg, i, number(data.get(i)));
            else if (dtype == DType.BOOL) io.setLong(seg, i, (Boolean) data.get(i) ? 1 : 0);
            else io.setLong(seg, i, ((Number) data.get(i)).longValue());
        }
        List<Object> transpose = (List<Object>) t.get("transpose");
        if (transpose == null) return out;
        int d0 = ((Number) transpose.get(0)).intValue(), d1 = ((Number) transpose.get(1)).intValue();
        long[] s = out.shape(), st = out.stride();
        swap(s, d0, d1);
        swap(st, d0, d1);
        return Views.of(out, out.storageOffset(), s, st);
    }

    private static void swap(long[] a, int i, int j) {
        long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    // ---- comparison -------------------------------------------------------------------------------

    /** Absolute and relative tolerance for results of {@code dtype} (of the real dtype for complex). */
    record Tolerance(double abs, double rel) {
        static Tolerance of(DType d) {
            return switch (d.toReal()) {
                case FLOAT64 -> new Tolerance(1e-12, 1e-10);
                case FLOAT32 -> new Tolerance(1e-6, 1e-5);
                case FLOAT16 -> new Tolerance(1e-5, 1e-3);
                case BFLOAT16 -> new Tolerance(1e-5, 1e-2);
                default -> new Tolerance(0, 0);
            };
        }
    }

    /**
     * Runs a case through {@code call} and checks the outcome against the fixture, honouring the deviation that covers
     * the case, if any. {@code exact} compares floats bit for bit (signed zeros included), for ops with one correct
     * answer such as conversions.
     */
    @SuppressWarnings("unchecked")
    public static void check(Case c, List<Deviation> deviations, boolean exact, Supplier<Object> call) {
        Deviation dev = null;
        for (Deviation d : deviations)
            if (d.matches(c.id())) {
                dev = d;
                break;
            }
        if (dev != null && dev.kind() == Kind.NOT_COMPARED) Assumptions.abort(dev.reason());
        if (c.expectsError()) {
            Object result;
            try {
                result = call.get();
            } catch (RuntimeException e) {
                assertError(c, e, dev != null && dev.kind() == Kind.MESSAGE);
                return;
            }
            fail(c.id() + ": PyTorch raised \"" + c.error() + "\" but JTorch returned " + result);
        }
        Object result = call.get();
        if (dev != null && dev.kind() == Kind.DTYPE_2_15) {
            assertInstanceOf(Tensor.class, result, c.id() + ": expected a tensor");
            assertEquals(dev.dtype(), ((Tensor) result).dtype(), c.id() + ": dtype (" + dev.reason() + ")");
            assertValues(c.id(), (Map<String, Object>) c.out(), (Tensor) result, exact);
            return;
        }
        assertOutput(c, result, exact);
    }

    /**
     * The error message carries PyTorch's wording, or (for a listed {@link Kind#MESSAGE} deviation) at least the op
     * name.
     */
    public static void assertError(Case c, Throwable e, boolean opNameSuffices) {
        String msg = String.valueOf(e.getMessage());
        if (msg.contains(c.error())) return;
        if (opNameSuffices && msg.contains(c.op())) return;
        fail(
                c.id() + ": expected an error containing \"" + c.error() + "\""
                        + (opNameSuffices ? " or \"" + c.op() + "\"" : "") + " but got "
                        + e.getClass().getSimpleName() + ": " + msg,
                e);
    }

    /** Compares a result (a tensor, or a list of tensors) with the case's recorded output. */
    @SuppressWarnings("unchecked")
    public static void assertOutput(Case c, Object actual, boolean exact) {
        if (c.out() instanceof List<?> outs) {
            assertInstanceOf(List.class, actual, c.id() + ": expected a list of tensors");
            List<Object> got = (List<Object>) actual;
            assertEquals(outs.size(), got.size(), c.id() + ": number of outputs");
            for (int i = 0; i < outs.size(); i++) {
                assertTensor(c.id() + "[" + i + "]", (Map<String, Object>) outs.get(i), (Tensor) got.get(i), exact);
            }
            return;
        }
        assertInstanceOf(Tensor.class, actual, c.id() + ": expected a tensor");
        assertTensor(c.id(), (Map<String, Object>) c.out(), (Tensor) actual, exact);
    }

    @SuppressWarnings("unchecked")
    static void assertTensor(String id, Map<String, Object> expected, Tensor actual, boolean exact) {
        assertNotNull(actual, id + ": result is null");
        assertEquals(expected.get("dtype"), actual.dtype().pyName(), id + ": dtype");
        List<Object> shape = (List<Object>) expected.get("shape");
        long[] s = new long[shape.size()];
        for (int i = 0; i < s.length; i++) s[i] = ((Number) shape.get(i)).longValue();
        assertArrayEquals(s, actual.shape(), id + ": shape");
        assertValues(id, expected, actual, exact);
    }

    /** The values (and shape), in the tolerance of the actual result's dtype. */
    @SuppressWarnings("unchecked")
    static void assertValues(String id, Map<String, Object> expected, Tensor actual, boolean exact) {
        List<Object> data = (List<Object>) expected.get("data");
        DType dt = actual.dtype();
        if (dt == DType.BOOL) {
            boolean[] got = actual.toBooleanArray();
            for (int i = 0; i < got.length; i++) {
                if (got[i] != (Boolean) data.get(i))
                    fail(id + ": element " + i + " expected " + data.get(i) + " but was " + got[i]);
            }
        } else if (dt.isFloatingPoint() || dt.isComplex()) {
            double[] got = actual.toDoubleArray();
            assertEquals(data.size(), got.length, id + ": number of values");
            Tolerance tol = Tolerance.of(dt);
            for (int i = 0; i < got.length; i++) {
                double e = number(data.get(i));
                if (!close(got[i], e, exact, tol)) {
                    String where =
                            dt.isComplex() ? (i / 2) + (i % 2 == 0 ? " (real)" : " (imag)") : Integer.toString(i);
                    fail(id + ": element " + where + " expected " + e + " but was " + got[i]
                            + (exact ? " (exact)" : " (tolerance " + tol.abs() + " abs + " + tol.rel() + " rel)"));
                }
            }
        } else {
            long[] got = actual.toLongArray();
            for (int i = 0; i < got.length; i++) {
                long e = ((Number) data.get(i)).longValue();
                if (got[i] != e) fail(id + ": element " + i + " expected " + e + " but was " + got[i]);
            }
        }
    }

    private static boolean close(double got, double e, boolean exact, Tolerance tol) {
        if (Double.isNaN(e) || Double.isNaN(got)) return Double.isNaN(e) && Double.isNaN(got);
        if (exact) return Double.compare(got, e) == 0;
        if (Double.isInfinite(e) || Double.isInfinite(got)) return got == e;
        return Math.abs(got - e) <= tol.abs() + tol.rel() * Math.abs(e);
    }

    /** Every deviation covers at least one case, so a mistyped id cannot leave a real difference unlisted. */
    public static void assertDeviationsExist(List<Deviation> deviations) {
        for (Deviation d : deviations) {
            assertTrue(
                    CASES.stream().anyMatch(c -> d.matches(c.id())),
                    "deviation " + d.pattern() + " matches no golden case");
        }
    }

    /** Sanity of the fixture file itself: the harness is useless if it silently loads nothing. */
    public static void assertLoaded(int atLeast) {
        assertTrue(CASES.size() >= atLeast, "golden fixture holds only " + CASES.size() + " cases");
    }
}

package org.jtorch.compile.inductor.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.Expr.BinaryOp;
import org.jtorch.compile.inductor.ir.Expr.CompareOp;
import org.jtorch.compile.inductor.ir.Expr.UnaryOp;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.LoopKernel.ReduceKind;
import org.jtorch.compile.inductor.ir.ScalarKind;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The bytecode {@link KernelBytecode} writes computes, bit for bit, what the kernel's listing ({@link KernelSource})
 * computes when javac compiles it: every expression form (each unary, binary and comparison op in each kind it is
 * defined for, casts between all kinds, roundings to every element type, constants with NaN, infinities and -0,
 * indices, gathers, masked loads), loads and stores of every element type, vector loops with their scalar tails,
 * strided and broadcast accesses, and row reductions in one and several passes. Inputs include NaN, infinities, -0,
 * subnormals and values that overflow float16. Where the listing throws (integer division by zero, an index out of
 * range), the bytecode throws the same exception.
 */
class KernelBytecodeTest {
    private static final String PACKAGE = KernelBytecodeTest.class.getPackageName();
    private static final long ROWS = 3;
    private static final long COLS = 37; // whole vectors and a scalar tail for any vector length up to 32
    private static final Access CONTIGUOUS = new Access(0, new long[] {COLS, 1});
    private static final Access TRANSPOSED = new Access(0, new long[] {1, ROWS});
    private static final Access BROADCAST_ROW = new Access(0, new long[] {0, 1});

    private record Case(String name, LoopKernel kernel) {}

    @TestFactory
    Stream<DynamicTest> bytecodeComputesWhatTheListingSays() throws Exception {
        List<Case> cases = cases();
        List<String> names = new ArrayList<>();
        List<String> listings = new ArrayList<>();
        for (int n = 0; n < cases.size(); n++) {
            names.add("Listing" + n);
            listings.add(KernelSource.generate(cases.get(n).kernel(), PACKAGE, names.get(n)));
        }
        List<byte[]> compiled = javac(names, listings);
        List<DynamicTest> tests = new ArrayList<>();
        for (int n = 0; n < cases.size(); n++) {
            Case c = cases.get(n);
            byte[] listing = compiled.get(n);
            int id = n;
            tests.add(DynamicTest.dynamicTest(c.name(), () -> check(c, listing, id)));
        }
        return tests.stream();
    }

    // ---------------------------------------------------------------- the kernels

    private static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        Elem[] numeric = {Elem.FLOAT32, Elem.FLOAT64, Elem.INT64};
        for (Elem in : numeric) {
            for (UnaryOp op : UnaryOp.values()) {
                if (op == UnaryOp.NOT) continue;
                out.add(pointwise(op + "/" + in, List.of(in), new Expr.Unary(op, load(0, in)), output(in)));
            }
            for (BinaryOp op : BinaryOp.values()) {
                boolean bitwise = op == BinaryOp.AND || op == BinaryOp.OR || op == BinaryOp.XOR;
                if (bitwise && in != Elem.INT64) continue;
                Expr value = new Expr.Binary(op, load(0, in), load(1, in));
                out.add(pointwise(op + "/" + in, List.of(in, in), value, output(in)));
            }
            for (CompareOp op : CompareOp.values()) {
                Expr value = new Expr.Compare(op, load(0, in), load(1, in));
                out.add(pointwise(op + "/" + in, List.of(in, in), value, Elem.BOOL));
            }
            Expr where =
                    new Expr.Where(new Expr.Compare(CompareOp.GT, load(0, in), load(1, in)), load(0, in), load(1, in));
            out.add(pointwise("where/" + in, List.of(in, in), where, output(in)));
        }
        for (BinaryOp op : List.of(BinaryOp.ADD, BinaryOp.MUL, BinaryOp.XOR, BinaryOp.MAX, BinaryOp.SUB)) {
            Expr value = new Expr.Binary(op, load(0, Elem.BOOL), load(1, Elem.BOOL));
            out.add(pointwise(op + "/bool", List.of(Elem.BOOL, Elem.BOOL), value, Elem.BOOL));
        }
        for (CompareOp op : CompareOp.values()) {
            Expr value = new Expr.Compare(op, load(0, Elem.BOOL), load(1, Elem.BOOL));
            out.add(pointwise(op + "/bool", List.of(Elem.BOOL, Elem.BOOL), value, Elem.BOOL));
        }
        out.add(pointwise("not", List.of(Elem.BOOL), new Expr.Unary(UnaryOp.NOT, load(0, Elem.BOOL)), Elem.BOOL));
        Elem[] kinds = {Elem.BOOL, Elem.INT64, Elem.FLOAT32, Elem.FLOAT64};
        for (Elem from : kinds) {
            for (Elem to : kinds) {
                Expr value = new Expr.Cast(load(0, from), to.kind());
                out.add(pointwise("cast/" + from + "->" + to, List.of(from), value, to));
            }
        }
        for (Elem elem : Elem.values()) {
            for (Elem in : kinds) {
                if (!roundable(elem, in.kind())) continue;
                Expr value = new Expr.Round(load(0, in), elem);
                out.add(pointwise("round/" + in + "->" + elem, List.of(in), value, in));
            }
            // every element type loaded, and stored from a value of its kind
            Elem wide = output(elem) == Elem.BOOL ? Elem.BOOL : output(elem);
            out.add(pointwise("load/" + elem, List.of(elem), load(0, elem), wide));
            out.add(pointwise("store/" + elem, List.of(wide), load(0, wide), elem));
        }
        out.add(pointwise("store/narrowing float to int8", List.of(Elem.FLOAT32), load(0, Elem.FLOAT32), Elem.INT8));
        out.add(pointwise("store/narrowing double to int16", List.of(Elem.FLOAT64), load(0, Elem.FLOAT64), Elem.INT16));
        out.add(pointwise("store/long to float", List.of(Elem.INT64), load(0, Elem.INT64), Elem.FLOAT32));
        for (double c : new double[] {Double.NaN, -0.0, Double.POSITIVE_INFINITY, 1e-3, -1e300, 1e-45}) {
            for (Elem e : List.of(Elem.FLOAT32, Elem.FLOAT64)) {
                Expr value = new Expr.Binary(BinaryOp.ADD, load(0, e), new Expr.Constant(c, e.kind()));
                out.add(pointwise("constant " + c + "/" + e, List.of(e), value, e));
            }
        }
        Expr minLong =
                new Expr.Binary(BinaryOp.MAX, load(0, Elem.INT64), new Expr.Constant(Long.MIN_VALUE, ScalarKind.LONG));
        out.add(pointwise("constant long min", List.of(Elem.INT64), minLong, Elem.INT64));
        out.add(pointwise("index", List.of(), new Expr.Index(new Access(5, new long[] {COLS, 1})), Elem.INT64));
        Expr gather =
                new Expr.IndirectLoad(1, new Access(0, new long[] {0, 0}), Elem.FLOAT32, load(0, Elem.INT64), 1, 7);
        out.add(new Case("gather", kernel(List.of(Elem.INT64, Elem.FLOAT32), gather, Elem.FLOAT32)));
        Expr position = new Expr.Index(new Access(0, new long[] {COLS, 1}));
        Expr masked = new Expr.Masked(
                new Expr.Compare(CompareOp.LT, position, new Expr.Constant(50, ScalarKind.LONG)),
                load(0, Elem.FLOAT32),
                new Expr.Constant(-1, ScalarKind.FLOAT));
        out.add(pointwise("masked", List.of(Elem.FLOAT32), masked, Elem.FLOAT32));
        out.addAll(vectorCases());
        out.addAll(rowCases());
        return out;
    }

    /** Float32 kernels whose loops run the vector form, including transposed and broadcast inputs. */
    private static List<Case> vectorCases() {
        List<Case> out = new ArrayList<>();
        Elem f = Elem.FLOAT32;
        for (UnaryOp op : KernelLayout.VECTOR_UNARY) {
            out.add(pointwise("vector " + op, List.of(f), new Expr.Unary(op, load(0, f)), f));
        }
        for (BinaryOp op : KernelLayout.VECTOR_BINARY) {
            Expr broadcast = new Expr.Load(1, BROADCAST_ROW, f);
            out.add(pointwise("vector " + op, List.of(f, f), new Expr.Binary(op, load(0, f), broadcast), f));
        }
        for (CompareOp op : CompareOp.values()) {
            Expr value = new Expr.Where(
                    new Expr.Compare(op, load(0, f), load(1, f)), load(1, f), new Expr.Constant(0.5, ScalarKind.FLOAT));
            out.add(pointwise("vector where " + op, List.of(f, f), value, f));
        }
        Expr chain = new Expr.Binary(
                BinaryOp.MUL,
                new Expr.Round(new Expr.Cast(load(0, f), ScalarKind.FLOAT), Elem.FLOAT32),
                new Expr.Where(new Expr.Constant(1, ScalarKind.BOOL), new Expr.Load(1, TRANSPOSED, f), load(0, f)));
        out.add(pointwise("vector chain with a transposed input (strided fallback)", List.of(f, f), chain, f));
        return out;
    }

    /** Row kernels: reductions of each kind, a softmax's three passes, and per-row stores. */
    private static List<Case> rowCases() {
        List<Case> out = new ArrayList<>();
        for (Elem in : List.of(Elem.FLOAT32, Elem.FLOAT64, Elem.INT64)) {
            for (ReduceKind r : List.of(ReduceKind.SUM, ReduceKind.MAX, ReduceKind.MIN)) {
                LoopKernel.Reduction red = new LoopKernel.Reduction(r, rowLoad(0, in, false));
                out.add(new Case("row " + r + "/" + in, rows(List.of(in), List.of(red), output(in), null)));
                out.add(new Case(
                        "row " + r + "/" + in + "/strided",
                        rows(
                                List.of(in),
                                List.of(new LoopKernel.Reduction(r, rowLoad(0, in, true))),
                                output(in),
                                null)));
            }
        }
        for (ReduceKind r : List.of(ReduceKind.ALL, ReduceKind.ANY)) {
            LoopKernel.Reduction red = new LoopKernel.Reduction(r, rowLoad(0, Elem.BOOL, false));
            out.add(new Case("row " + r, rows(List.of(Elem.BOOL), List.of(red), Elem.BOOL, null)));
        }
        Elem f = Elem.FLOAT32;
        Expr x = rowLoad(0, f, false);
        Expr max = new Expr.RowValue(0, ScalarKind.FLOAT);
        Expr exp = new Expr.Unary(UnaryOp.EXP, new Expr.Binary(BinaryOp.SUB, x, max));
        List<LoopKernel.Reduction> softmax = List.of(
                new LoopKernel.Reduction(ReduceKind.MAX, x),
                new LoopKernel.Reduction(ReduceKind.SUM, exp),
                new LoopKernel.Reduction(ReduceKind.SUM, new Expr.Binary(BinaryOp.MUL, x, x)));
        Expr probability = new Expr.Binary(BinaryOp.DIV, exp, new Expr.RowValue(1, ScalarKind.FLOAT));
        out.add(new Case("softmax rows", rows(List.of(f), softmax, f, probability)));
        return out;
    }

    private static boolean roundable(Elem elem, ScalarKind kind) {
        return switch (elem) {
            case FLOAT16, BFLOAT16 -> kind == ScalarKind.FLOAT;
            case FLOAT32 -> kind == ScalarKind.FLOAT || kind == ScalarKind.DOUBLE;
            case INT32, INT16, INT8 -> kind != ScalarKind.BOOL;
            case UINT8 -> kind == ScalarKind.LONG;
            case BOOL, INT64, FLOAT64 -> true;
        };
    }

    /** The element type a value of {@code in}'s kind is stored to without conversion. */
    private static Elem output(Elem in) {
        return switch (in.kind()) {
            case BOOL -> Elem.BOOL;
            case LONG -> Elem.INT64;
            case FLOAT -> Elem.FLOAT32;
            case DOUBLE -> Elem.FLOAT64;
        };
    }

    private static Expr load(int buffer, Elem elem) {
        return new Expr.Load(buffer, CONTIGUOUS, elem);
    }

    private static Case pointwise(String name, List<Elem> inputs, Expr value, Elem out) {
        return new Case(name, kernel(inputs, value, out));
    }

    /** A {@code ROWS × COLS} pointwise kernel storing {@code value} to an output buffer after the inputs. */
    private static LoopKernel kernel(List<Elem> inputs, Expr value, Elem out) {
        List<Elem> buffers = new ArrayList<>(inputs);
        buffers.add(out);
        LoopKernel.Store store = new LoopKernel.Store(inputs.size(), CONTIGUOUS, value);
        return new LoopKernel(
                "test", new long[0], new long[] {ROWS, COLS}, buffers, List.of(), List.of(), List.of(store));
    }

    private static Expr rowLoad(int buffer, Elem elem, boolean transposed) {
        return new Expr.Load(buffer, new Access(0, transposed ? new long[] {1, ROWS} : new long[] {COLS, 1}), elem);
    }

    /**
     * A kernel over {@code ROWS} rows of {@code COLS}: the reductions, a per-row store of the last one, and an element
     * store of {@code value} unless it is null.
     */
    private static LoopKernel rows(List<Elem> inputs, List<LoopKernel.Reduction> reductions, Elem out, Expr value) {
        List<Elem> buffers = new ArrayList<>(inputs);
        List<LoopKernel.Store> rowStores = new ArrayList<>();
        List<LoopKernel.Store> elementStores = new ArrayList<>();
        ScalarKind kind = reductions.getLast().body().kind();
        Expr last = new Expr.RowValue(reductions.size() - 1, kind);
        rowStores.add(new LoopKernel.Store(buffers.size(), new Access(0, new long[] {1, 0}), last));
        buffers.add(out);
        if (value != null) {
            elementStores.add(new LoopKernel.Store(buffers.size(), CONTIGUOUS, value));
            buffers.add(out);
        }
        return new LoopKernel(
                "rows", new long[] {ROWS}, new long[] {COLS}, buffers, reductions, rowStores, elementStores);
    }

    // ---------------------------------------------------------------- running both

    private static void check(Case c, byte[] listingClass, int n) throws Throwable {
        LoopKernel k = c.kernel();
        MethodHandle listing = define(listingClass);
        MethodHandle bytecode = define(KernelBytecode.generate(k, PACKAGE + ".Bytecode" + n));
        // integer division and remainder by zero throw, in the listing and in the bytecode alike
        boolean mayThrow = c.name().matches("(DIV|FLOOR_DIV|REMAINDER|RSQRT|RECIPROCAL)/INT64");
        for (long[] range : ranges(k)) {
            Object[] a = inputs(k, n);
            Object[] b = inputs(k, n);
            Object[] before = inputs(k, n);
            long[] args = KernelLayout.of(k).arguments().array();
            Class<?> thrownA = run(listing, a, args, range);
            Class<?> thrownB = run(bytecode, b, args, range);
            assertEquals(thrownA, thrownB, c.name() + ": the same outcome");
            if (!mayThrow) {
                assertEquals(null, thrownA, c.name() + " runs");
                Object output = a[a.length - 1];
                assertTrue(!Arrays.equals(bits(output), bits(before[a.length - 1])), c.name() + " writes its output");
            }
            for (int i = 0; i < a.length; i++) {
                assertArrayEquals(bits(a[i]), bits(b[i]), c.name() + ": buffer " + i + ", range " + range[0]);
            }
        }
    }

    /** The whole range, and a part that starts and ends inside a row (as the intra-op pool splits it). */
    private static List<long[]> ranges(LoopKernel k) {
        long total = k.isPointwise() ? k.rowLength() : k.rows();
        return k.isPointwise()
                ? List.of(new long[] {0, total}, new long[] {5, total - 3})
                : List.of(new long[] {0, total}, new long[] {1, total});
    }

    private static Class<?> run(MethodHandle kernel, Object[] buffers, long[] args, long[] range) {
        try {
            kernel.invoke(buffers, args, range[0], range[1]);
            return null;
        } catch (Throwable t) {
            return t.getClass();
        }
    }

    private static MethodHandle define(byte[] bytes) throws ReflectiveOperationException {
        MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClass(bytes, true);
        return hidden.findStatic(hidden.lookupClass(), "run", KernelCompiler.RUN);
    }

    /** The class files of the listings, compiled by javac in one run. */
    private static List<byte[]> javac(List<String> names, List<String> sources) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path dir = Files.createTempDirectory("kernel-listings");
        List<String> args = new ArrayList<>(
                List.of("--add-modules", "jdk.incubator.vector", "-nowarn", "-proc:none", "-implicit:none", "-g:none"));
        Path classes = Path.of(KernelRuntime.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        args.addAll(List.of("-classpath", classes.toString(), "-d", dir.toString()));
        for (int i = 0; i < names.size(); i++) {
            Path file = dir.resolve(names.get(i) + ".java");
            Files.writeString(file, sources.get(i));
            args.add(file.toString());
        }
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, args.toArray(String[]::new));
        assertEquals(0, rc, "the listings compile:\n" + errors);
        List<byte[]> out = new ArrayList<>();
        Path packageDir = dir.resolve(PACKAGE.replace('.', '/'));
        for (String name : names) out.add(Files.readAllBytes(packageDir.resolve(name + ".class")));
        return out;
    }

    /** Buffers of the kernel's element types, filled from a seeded generator with awkward values mixed in. */
    private static Object[] inputs(LoopKernel k, int seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Random gaussian = new Random(seed);
        Object[] out = new Object[k.buffers().size()];
        int size = (int) (ROWS * COLS);
        float[] specials = {Float.NaN, -0f, 0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 1e-40f, 70000f, 1f};
        for (int b = 0; b < out.length; b++) {
            Elem elem = k.buffers().get(b);
            float[] f = new float[size];
            long[] l = new long[size];
            for (int i = 0; i < size; i++) {
                // specials throughout, and all of them in the last 16 elements, which scalar tails cover
                boolean special = i % 11 == 3 || i >= size - 16;
                f[i] = special
                        ? specials[(i >= size - 16 ? i : i / 11) % specials.length]
                        : (float) (gaussian.nextGaussian() * 3);
                l[i] = random.nextLong(-20, 20);
            }
            out[b] = switch (elem) {
                case BOOL -> {
                    byte[] v = new byte[size];
                    for (int i = 0; i < size; i++) v[i] = (byte) (l[i] & 1);
                    yield v;
                }
                case UINT8, INT8 -> {
                    byte[] v = new byte[size];
                    for (int i = 0; i < size; i++) v[i] = (byte) (elem == Elem.UINT8 ? l[i] * 11 : l[i]);
                    yield v;
                }
                case INT16 -> {
                    short[] v = new short[size];
                    for (int i = 0; i < size; i++) v[i] = (short) l[i];
                    yield v;
                }
                case INT32 -> {
                    int[] v = new int[size];
                    for (int i = 0; i < size; i++) v[i] = (int) l[i];
                    yield v;
                }
                case INT64 -> {
                    if (b == 0 && k.elementStores().stream().anyMatch(s -> s.value() instanceof Expr.IndirectLoad)) {
                        for (int i = 0; i < size; i++) l[i] = random.nextLong(-7, 7);
                    }
                    yield l;
                }
                case FLOAT16 -> {
                    short[] v = new short[size];
                    for (int i = 0; i < size; i++) v[i] = Float.floatToFloat16(f[i]);
                    yield v;
                }
                case BFLOAT16 -> {
                    short[] v = new short[size];
                    for (int i = 0; i < size; i++) v[i] = (short) (Float.floatToRawIntBits(f[i]) >>> 16);
                    yield v;
                }
                case FLOAT32 -> f;
                case FLOAT64 -> {
                    double[] v = new double[size];
                    for (int i = 0; i < size; i++) v[i] = f[i] * (1 + 1e-9 * i);
                    yield v;
                }
            };
        }
        return out;
    }

    /** Every element's raw bits, so that NaN payloads and -0 count. */
    private static long[] bits(Object array) {
        return switch (array) {
            case byte[] v -> {
                long[] out = new long[v.length];
                for (int i = 0; i < v.length; i++) out[i] = v[i];
                yield out;
            }
            case short[] v -> {
                long[] out = new long[v.length];
                for (int i = 0; i < v.length; i++) out[i] = v[i];
                yield out;
            }
            case int[] v -> {
                long[] out = new long[v.length];
                for (int i = 0; i < v.length; i++) out[i] = v[i];
                yield out;
            }
            case long[] v -> v.clone();
            case float[] v -> {
                long[] out = new long[v.length];
                for (int i = 0; i < v.length; i++) out[i] = Float.floatToRawIntBits(v[i]);
                yield out;
            }
            case double[] v -> {
                long[] out = new long[v.length];
                for (int i = 0; i < v.length; i++) out[i] = Double.doubleToRawLongBits(v[i]);
                yield out;
            }
            default -> throw new IllegalArgumentException("not a buffer: " + array);
        };
    }
}

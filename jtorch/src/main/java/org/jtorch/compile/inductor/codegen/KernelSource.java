package org.jtorch.compile.inductor.codegen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.LoopKernel.ReduceKind;
import org.jtorch.compile.inductor.ir.ScalarKind;

/**
 * The readable Java listing of one kernel class, what the structured trace shows and the key of the kernel cache:
 * {@code public static void run(Object[] buffers, long[] args, long lo, long hi)} computes points {@code [lo, hi)} of a
 * pointwise kernel, or rows {@code [lo, hi)} of a row kernel, so that the intra-op pool can split the range statically.
 * {@code args} holds the buffers' storage offsets, then the kernel's sizes, strides and offsets
 * ({@link KernelArguments}): the listing names them ({@code n0, n1, …}) and holds no size, so kernels of one structure
 * have one listing and one class.
 *
 * <p>The loops walk the innermost dimension in runs (a run ends at the end of that dimension or of the range); inside a
 * run, when every access is float32 with unit or zero stride and every operation has a vector form, a Vector API loop
 * covers whole vectors and a scalar loop the tail; otherwise the scalar loop does the run with each access's own stride
 * (the strided fallback). Values are computed in float for float16/bfloat16/float32 and rounded once when stored. Row
 * reductions accumulate in index order (per vector lane, lanes then tail combined at the end): the order depends only
 * on the row's layout, never on the thread count.
 *
 * <p>The class that runs is not compiled from this listing: {@link KernelBytecode} writes its bytecode from the same
 * {@link KernelLayout}, expression by expression as javac would translate the listing (a test compiles listings with
 * javac and checks both give the same bits). The listing calls the helpers of {@link KernelRuntime}, as the bytecode
 * does.
 */
public final class KernelSource {
    private final KernelLayout layout;
    private final KernelArguments args;
    private final LoopKernel k;
    private final List<KernelLayout.AccessKey> accessList;
    private final StringBuilder out = new StringBuilder();
    private int temp;
    private int indent = 2;

    private KernelSource(KernelLayout layout) {
        this.layout = layout;
        this.args = layout.arguments();
        this.k = layout.kernel();
        this.accessList = layout.accesses();
    }

    /** The source of class {@code className} in package {@code packageName} computing {@code kernel}. */
    public static String generate(LoopKernel kernel, String packageName, String className) {
        return generate(KernelLayout.of(kernel), packageName, className, true);
    }

    /**
     * The source of class {@code className} computing {@code layout}'s kernel; with {@code named} false, without the
     * comment naming the fused ops, so that the listing is what the code depends on and nothing else (the cache key).
     */
    static String generate(KernelLayout layout, String packageName, String className, boolean named) {
        return new KernelSource(layout).source(packageName, className, named);
    }

    private String source(String packageName, String className, boolean named) {
        out.append("package ").append(packageName).append(";\n\n");
        out.append("import static ").append(KernelRuntime.class.getName()).append(".*;\n\n");
        out.append("import jdk.incubator.vector.*;\n\n");
        if (named) out.append("/** ").append(k.name().replace("*/", "* /")).append(" */\n");
        out.append("final class ").append(className).append(" {\n");
        out.append("    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;\n");
        out.append("    private static final int VL = S.length();\n\n");
        out.append("    public static void run(Object[] buffers, long[] args, long lo, long hi) {\n");
        for (int b = 0; b < k.buffers().size(); b++) {
            String type = k.buffers().get(b).arrayType();
            line("final " + type + " b" + b + " = (" + type + ") buffers[" + b + "];");
            line("final long o" + b + " = args[" + b + "];");
        }
        for (int n = 0; n < args.count(); n++) line("final long n" + n + " = args[" + args.position(n) + "];");
        for (int id = 0; id < accessList.size(); id++) {
            int s = args.innermostStride(id);
            if (s != KernelArguments.NONE && accessList.get(id).buffer() >= 0) {
                line("final int w" + id + " = (int) n" + s + ";");
            }
        }
        if (k.isPointwise()) {
            rowBases(new long[0]);
            elementPhase("lo", "hi");
        } else {
            line("for (long row = lo; row < hi; row++) {");
            indent++;
            long[] outer = k.outer();
            line("long q = row;");
            for (int d = outer.length - 1; d >= 0; d--) {
                if (d > 0) {
                    line("final long u" + d + " = q % n" + args.outerSize(d) + ";");
                    line("q /= n" + args.outerSize(d) + ";");
                } else {
                    line("final long u0 = q;");
                }
            }
            rowBases(outer);
            reductionPhases();
            if (!k.rowStores().isEmpty()) {
                // per-row values: every access is at the row's base (inner strides are zero)
                line("{");
                indent++;
                for (int id = 0; id < accessList.size(); id++) declareElement(id, "rb" + id);
                Map<Expr, String> memo = new HashMap<>();
                for (LoopKernel.Store s : k.rowStores()) store(s, scalar(s.value(), memo, "0"), "0", false);
                indent--;
                line("}");
            }
            if (!k.elementStores().isEmpty()) elementPhase("0", "n" + args.rowLength());
            indent--;
            line("}");
        }
        out.append("    }\n");
        out.append("}\n");
        return out.toString();
    }

    /** {@code rb<id>}: each access's offset from its buffer's start and the row's outer index. */
    private void rowBases(long[] outer) {
        for (int id = 0; id < accessList.size(); id++) {
            KernelLayout.AccessKey a = accessList.get(id);
            StringBuilder sb = new StringBuilder("final long rb" + id + " = ");
            sb.append(a.buffer() < 0 ? "0L" : "o" + a.buffer()).append(" + n").append(args.offset(id));
            for (int d = 0; d < outer.length; d++) {
                int s = args.stride(id, d);
                if (s != KernelArguments.NONE)
                    sb.append(" + n").append(s).append(" * u").append(d);
            }
            line(sb.append(';').toString());
        }
    }

    // ---------------------------------------------------------------- loops

    /** The runs of the inner dimensions over flat positions {@code [lo, hi)}; {@code body} emits a run's loop. */
    private void runs(String lo, String hi, Runnable body) {
        int n = k.inner().length;
        int first = k.outer().length;
        line("{");
        indent++;
        if (n == 0) {
            line("final int len = (int) (" + hi + " - " + lo + ");");
            for (int id = 0; id < accessList.size(); id++) declareElement(id, "rb" + id);
            body.run();
        } else {
            line("long r = " + lo + ";");
            for (int d = n - 1; d >= 0; d--) {
                if (d > 0) {
                    line("long i" + d + " = r % n" + args.innerSize(d) + ";");
                    line("r /= n" + args.innerSize(d) + ";");
                } else {
                    line("long i0 = r;");
                }
            }
            line("long p = " + lo + ";");
            line("while (p < " + hi + ") {");
            indent++;
            line("final int len = (int) Math.min(" + hi + " - p, n" + args.innerSize(n - 1) + " - i" + (n - 1) + ");");
            for (int id = 0; id < accessList.size(); id++) {
                Access a = accessList.get(id).access();
                StringBuilder sb = new StringBuilder("rb" + id);
                for (int d = 0; d < n; d++) {
                    int s = args.stride(id, first + d);
                    if (s != KernelArguments.NONE)
                        sb.append(" + n").append(s).append(" * i").append(d);
                    else if (a.stride(first + d) != 0) sb.append(" + i").append(d);
                }
                declareElement(id, sb.toString());
            }
            body.run();
            line("p += len;");
            line("i" + (n - 1) + " += len;");
            StringBuilder carry = new StringBuilder();
            for (int d = n - 1; d > 0; d--) {
                carry.append("if (i")
                        .append(d)
                        .append(" == n")
                        .append(args.innerSize(d))
                        .append(") { i")
                        .append(d)
                        .append(" = 0; i")
                        .append(d - 1)
                        .append("++; ");
            }
            carry.append("}".repeat(n - 1));
            if (n > 1) line(carry.toString());
            indent--;
            line("}");
        }
        indent--;
        line("}");
    }

    /** The element stores over positions {@code [lo, hi)} of the inner dimensions. */
    private void elementPhase(String lo, String hi) {
        List<LoopKernel.Store> stores = k.elementStores();
        boolean vector = layout.vectorElements();
        runs(lo, hi, () -> {
            line("int j = 0;");
            if (vector) {
                line("for (; j <= len - VL; j += VL) {");
                indent++;
                Map<Expr, String> memo = new HashMap<>();
                List<String> values = new ArrayList<>();
                for (LoopKernel.Store s : stores) values.add(vector(s.value(), memo));
                for (int i = 0; i < stores.size(); i++) store(stores.get(i), values.get(i), "j", true);
                indent--;
                line("}");
            }
            line("for (; j < len; j++) {");
            indent++;
            Map<Expr, String> memo = new HashMap<>();
            List<String> values = new ArrayList<>();
            for (LoopKernel.Store s : stores) values.add(scalar(s.value(), memo, "j"));
            for (int i = 0; i < stores.size(); i++) store(stores.get(i), values.get(i), "j", false);
            indent--;
            line("}");
        });
    }

    /**
     * The reductions, in passes: a reduction joins the current pass unless it reads the result of one in that pass.
     * Each ends as {@code rv<n>}, the row's value.
     */
    private void reductionPhases() {
        for (int[] pass : layout.passes()) pass(pass[0], pass[1]);
    }

    private void pass(int from, int to) {
        boolean vector = layout.vectorPass(from, to);
        for (int i = from; i < to; i++) {
            LoopKernel.Reduction r = k.reductions().get(i);
            ScalarKind kind = r.body().kind();
            line(kind.javaType() + " acc" + i + " = " + identity(r.kind(), kind) + ";");
            if (vector) line("FloatVector vacc" + i + " = FloatVector.broadcast(S, acc" + i + ");");
        }
        boolean vec = vector;
        runs("0", "n" + args.rowLength(), () -> {
            line("int j = 0;");
            if (vec) {
                line("for (; j <= len - VL; j += VL) {");
                indent++;
                Map<Expr, String> memo = new HashMap<>();
                for (int i = from; i < to; i++) {
                    LoopKernel.Reduction r = k.reductions().get(i);
                    String v = vector(r.body(), memo);
                    String op = r.kind() == ReduceKind.SUM ? "add" : r.kind() == ReduceKind.MAX ? "max" : "min";
                    line("vacc" + i + " = vacc" + i + "." + op + "(" + v + ");");
                }
                indent--;
                line("}");
            }
            line("for (; j < len; j++) {");
            indent++;
            Map<Expr, String> memo = new HashMap<>();
            for (int i = from; i < to; i++) {
                LoopKernel.Reduction r = k.reductions().get(i);
                line("acc" + i + " = " + combine(r.kind(), r.body().kind(), "acc" + i, scalar(r.body(), memo, "j"))
                        + ";");
            }
            indent--;
            line("}");
        });
        for (int i = from; i < to; i++) {
            LoopKernel.Reduction r = k.reductions().get(i);
            ScalarKind kind = r.body().kind();
            String value = "acc" + i;
            if (vector) {
                String lanes = "vacc" + i + ".reduceLanes(VectorOperators."
                        + (r.kind() == ReduceKind.SUM ? "ADD" : r.kind().name()) + ")";
                value = combine(r.kind(), kind, lanes, value);
            }
            line("final " + kind.javaType() + " rv" + i + " = " + value + ";");
        }
    }

    private static String identity(ReduceKind r, ScalarKind kind) {
        return switch (r) {
            case SUM -> kind == ScalarKind.FLOAT ? "0f" : kind == ScalarKind.DOUBLE ? "0d" : "0L";
            case MAX ->
                switch (kind) {
                    case BOOL -> "false";
                    case FLOAT -> "Float.NEGATIVE_INFINITY";
                    case DOUBLE -> "Double.NEGATIVE_INFINITY";
                    default -> "Long.MIN_VALUE";
                };
            case MIN ->
                switch (kind) {
                    case BOOL -> "true";
                    case FLOAT -> "Float.POSITIVE_INFINITY";
                    case DOUBLE -> "Double.POSITIVE_INFINITY";
                    default -> "Long.MAX_VALUE";
                };
            case ALL -> "true";
            case ANY -> "false";
        };
    }

    private static String combine(ReduceKind r, ScalarKind kind, String acc, String v) {
        return switch (r) {
            case SUM -> acc + " + " + v;
            case MAX -> kind == ScalarKind.BOOL ? acc + " || " + v : "Math.max(" + acc + ", " + v + ")";
            case MIN -> kind == ScalarKind.BOOL ? acc + " && " + v : "Math.min(" + acc + ", " + v + ")";
            case ALL -> acc + " && " + v;
            case ANY -> acc + " || " + v;
        };
    }

    // ---------------------------------------------------------------- stores and loads

    private void store(LoopKernel.Store s, String value, String j, boolean vector) {
        int id = layout.id(s.buffer(), s.access());
        Elem elem = k.buffers().get(s.buffer());
        String index = element(id, j);
        if (vector) line(value + ".intoArray(b" + s.buffer() + ", " + index + ");");
        else line("b" + s.buffer() + "[" + index + "] = " + elem.store(value) + ";");
    }

    /**
     * {@code e<id>}, access {@code id}'s position at the start of the run, and for a buffer access {@code x<id>}, the
     * same as an array index (an int, so that the run's index arithmetic and bounds checks stay in int).
     */
    private void declareElement(int id, String value) {
        line("final long e" + id + " = " + value + ";");
        if (accessList.get(id).buffer() >= 0) line("final int x" + id + " = (int) e" + id + ";");
    }

    /** The array index (an int) of access {@code id} at position {@code j} of the run. */
    private String element(int id, String j) {
        long s = innermostStride(accessList.get(id).access());
        if (s == 0 || j.equals("0")) return "x" + id;
        return "x" + id + (s == 1 ? " + " + j : " + w" + id + " * " + j);
    }

    private long innermostStride(Access a) {
        return layout.innermostStride(a);
    }

    // ---------------------------------------------------------------- vector code

    private static final Map<Expr.UnaryOp, String> VECTOR_UNARY = Map.ofEntries(
            Map.entry(Expr.UnaryOp.NEG, "%s.neg()"),
            Map.entry(Expr.UnaryOp.ABS, "%s.abs()"),
            Map.entry(Expr.UnaryOp.EXP, "%s.lanewise(VectorOperators.EXP)"),
            Map.entry(Expr.UnaryOp.LOG, "%s.lanewise(VectorOperators.LOG)"),
            Map.entry(Expr.UnaryOp.LOG1P, "%s.lanewise(VectorOperators.LOG1P)"),
            Map.entry(Expr.UnaryOp.EXPM1, "%s.lanewise(VectorOperators.EXPM1)"),
            Map.entry(Expr.UnaryOp.SQRT, "%s.sqrt()"),
            Map.entry(Expr.UnaryOp.RSQRT, "FloatVector.broadcast(S, 1f).div(%s.sqrt())"),
            Map.entry(Expr.UnaryOp.TANH, "%s.lanewise(VectorOperators.TANH)"),
            Map.entry(
                    Expr.UnaryOp.SIGMOID,
                    "FloatVector.broadcast(S, 1f).div(%s.neg().lanewise(VectorOperators.EXP).add(1f))"),
            Map.entry(Expr.UnaryOp.SIN, "%s.lanewise(VectorOperators.SIN)"),
            Map.entry(Expr.UnaryOp.COS, "%s.lanewise(VectorOperators.COS)"),
            Map.entry(Expr.UnaryOp.ERF, "erf(%s)"),
            Map.entry(Expr.UnaryOp.RECIPROCAL, "FloatVector.broadcast(S, 1f).div(%s)"),
            Map.entry(Expr.UnaryOp.RELU, "relu(%s)"));

    private static final Map<Expr.BinaryOp, String> VECTOR_BINARY = Map.of(
            Expr.BinaryOp.ADD, "%s.add(%s)",
            Expr.BinaryOp.SUB, "%s.sub(%s)",
            Expr.BinaryOp.MUL, "%s.mul(%s)",
            Expr.BinaryOp.DIV, "%s.div(%s)",
            Expr.BinaryOp.MAX, "%s.max(%s)",
            Expr.BinaryOp.MIN, "%s.min(%s)",
            Expr.BinaryOp.POW, "%s.lanewise(VectorOperators.POW, %s)");

    private String vector(Expr e, Map<Expr, String> memo) {
        String known = memo.get(e);
        if (known != null) return known;
        String code =
                switch (e) {
                    case Expr.Load l -> {
                        int id = layout.id(l.buffer(), l.access());
                        yield innermostStride(l.access()) == 0
                                ? "FloatVector.broadcast(S, b" + l.buffer() + "[(int) e" + id + "])"
                                : "FloatVector.fromArray(S, b" + l.buffer() + ", " + element(id, "j") + ")";
                    }
                    case Expr.Constant c ->
                        c.kind() == ScalarKind.BOOL
                                ? (c.value() != 0 ? "S.maskAll(true)" : "S.maskAll(false)")
                                : "FloatVector.broadcast(S, " + literal(c.value(), ScalarKind.FLOAT) + ")";
                    case Expr.Unary u -> String.format(VECTOR_UNARY.get(u.op()), vector(u.x(), memo));
                    case Expr.Binary b ->
                        String.format(VECTOR_BINARY.get(b.op()), vector(b.a(), memo), vector(b.b(), memo));
                    case Expr.Compare c ->
                        vector(c.a(), memo) + ".compare(VectorOperators." + c.op().name() + ", " + vector(c.b(), memo)
                                + ")";
                    case Expr.Where w ->
                        vector(w.b(), memo) + ".blend(" + vector(w.a(), memo) + ", " + vector(w.cond(), memo) + ")";
                    case Expr.Fma f ->
                        vector(f.a(), memo) + ".fma(" + vector(f.b(), memo) + ", " + vector(f.c(), memo) + ")";
                    case Expr.Cast c -> vector(c.x(), memo);
                    case Expr.Round r -> vector(r.x(), memo);
                    case Expr.RowValue r -> "FloatVector.broadcast(S, rv" + r.reduction() + ")";
                    case Expr.IndirectLoad l -> throw new IllegalStateException("no vector form: " + l);
                    case Expr.Index i -> throw new IllegalStateException("no vector form: " + i);
                    case Expr.Masked m -> throw new IllegalStateException("no vector form: " + m);
                };
        String type = e.kind() == ScalarKind.BOOL ? "VectorMask<Float>" : "FloatVector";
        String name = "v" + temp++;
        line("final " + type + " " + name + " = " + code + ";");
        memo.put(e, name);
        return name;
    }

    // ---------------------------------------------------------------- scalar code

    private String scalar(Expr e, Map<Expr, String> memo, String j) {
        String known = memo.get(e);
        if (known != null) return known;
        ScalarKind kind = e.kind();
        String code =
                switch (e) {
                    case Expr.Load l -> {
                        int id = layout.id(l.buffer(), l.access());
                        yield l.elem().load("b" + l.buffer() + "[" + element(id, j) + "]");
                    }
                    case Expr.IndirectLoad l -> {
                        int id = layout.id(l.buffer(), l.access());
                        String index = scalar(l.index(), memo, j);
                        int[] gather = args.gather(l);
                        String at = "(int) (" + element(id, j) + " + n" + gather[0] + " * index(" + index + ", n"
                                + gather[1] + "))";
                        yield l.elem().load("b" + l.buffer() + "[" + at + "]");
                    }
                    case Expr.Index i -> {
                        int id = layout.id(-1, i.access());
                        long s = innermostStride(i.access());
                        if (s == 0 || j.equals("0")) yield "e" + id;
                        yield s == 1 ? "e" + id + " + " + j : "e" + id + " + n" + args.innermostStride(id) + " * " + j;
                    }
                    case Expr.Constant c -> literal(c.value(), kind);
                    case Expr.Unary u -> unary(u.op(), u.x().kind(), scalar(u.x(), memo, j));
                    case Expr.Binary b -> binary(b.op(), kind, scalar(b.a(), memo, j), scalar(b.b(), memo, j));
                    case Expr.Compare c ->
                        compare(c.op(), c.a().kind(), scalar(c.a(), memo, j), scalar(c.b(), memo, j));
                    case Expr.Where w ->
                        scalar(w.cond(), memo, j) + " ? " + scalar(w.a(), memo, j) + " : " + scalar(w.b(), memo, j);
                    case Expr.Fma f ->
                        "Math.fma(" + scalar(f.a(), memo, j) + ", " + scalar(f.b(), memo, j) + ", "
                                + scalar(f.c(), memo, j) + ")";
                    case Expr.Cast c -> cast(scalar(c.x(), memo, j), c.x().kind(), kind);
                    case Expr.Round r -> round(scalar(r.x(), memo, j), r.elem(), kind);
                    case Expr.RowValue r -> "rv" + r.reduction();
                    case Expr.Masked m -> {
                        String mask = scalar(m.mask(), memo, j);
                        String name = "t" + temp++;
                        line(kind.javaType() + " " + name + " = " + scalar(m.other(), memo, j) + ";");
                        line("if (" + mask + ") {");
                        indent++;
                        line(name + " = " + scalar(m.value(), new HashMap<>(memo), j) + ";");
                        indent--;
                        line("}");
                        memo.put(e, name);
                        yield null;
                    }
                };
        if (code == null) return memo.get(e);
        String name = "t" + temp++;
        line("final " + kind.javaType() + " " + name + " = " + code + ";");
        memo.put(e, name);
        return name;
    }

    static String literal(double v, ScalarKind kind) {
        return switch (kind) {
            case BOOL -> v != 0 ? "true" : "false";
            case LONG -> (long) v + "L";
            case FLOAT -> {
                float f = (float) v;
                if (Float.isNaN(f)) yield "Float.NaN";
                if (Float.isInfinite(f)) yield f > 0 ? "Float.POSITIVE_INFINITY" : "Float.NEGATIVE_INFINITY";
                yield Float.toHexString(f) + "f";
            }
            case DOUBLE -> {
                if (Double.isNaN(v)) yield "Double.NaN";
                if (Double.isInfinite(v)) yield v > 0 ? "Double.POSITIVE_INFINITY" : "Double.NEGATIVE_INFINITY";
                yield Double.toHexString(v);
            }
        };
    }

    private static String unary(Expr.UnaryOp op, ScalarKind kind, String x) {
        String t = kind.javaType();
        boolean f = kind == ScalarKind.FLOAT;
        String one = f ? "1f" : kind == ScalarKind.DOUBLE ? "1d" : "1L";
        return switch (op) {
            case NEG -> "-" + x;
            case ABS -> "Math.abs(" + x + ")";
            case EXP -> "(" + t + ") Math.exp(" + x + ")";
            case LOG -> "(" + t + ") Math.log(" + x + ")";
            case LOG1P -> "(" + t + ") Math.log1p(" + x + ")";
            case EXPM1 -> "(" + t + ") Math.expm1(" + x + ")";
            case SQRT -> "(" + t + ") Math.sqrt(" + x + ")";
            case RSQRT -> one + " / (" + t + ") Math.sqrt(" + x + ")";
            case TANH -> "(" + t + ") Math.tanh(" + x + ")";
            case SIGMOID -> one + " / (" + one + " + (" + t + ") Math.exp(-" + x + "))";
            case SIN -> "(" + t + ") Math.sin(" + x + ")";
            case COS -> "(" + t + ") Math.cos(" + x + ")";
            case ERF -> "(" + t + ") erf((double) " + x + ")";
            case RECIPROCAL -> one + " / " + x;
            case RELU ->
                kind == ScalarKind.LONG
                        ? "Math.max(" + x + ", 0L)"
                        : "(" + x + " > 0 || " + x + " != " + x + " ? " + x + " : 0)";
            case NOT -> "!" + x;
            case SIGN -> kind == ScalarKind.LONG ? "Long.signum(" + x + ")" : "(" + t + ") Math.signum(" + x + ")";
            case FLOOR -> kind == ScalarKind.LONG ? x : "(" + t + ") Math.floor(" + x + ")";
            case CEIL -> kind == ScalarKind.LONG ? x : "(" + t + ") Math.ceil(" + x + ")";
            case TRUNC -> kind == ScalarKind.LONG ? x : "(" + t + ") trunc((double) " + x + ")";
            case ROUND -> kind == ScalarKind.LONG ? x : "(" + t + ") Math.rint(" + x + ")";
        };
    }

    private static String binary(Expr.BinaryOp op, ScalarKind kind, String a, String b) {
        String t = kind.javaType();
        if (kind == ScalarKind.BOOL) {
            // bool arithmetic as ATen's: + and max are or, * and min are and
            return switch (op) {
                case ADD, MAX, OR -> a + " || " + b;
                case MUL, MIN, AND -> a + " && " + b;
                case XOR, SUB, REMAINDER -> a + " ^ " + b;
                case DIV, POW, FLOOR_DIV -> throw new IllegalStateException(op + " of booleans");
            };
        }
        return switch (op) {
            case ADD -> a + " + " + b;
            case SUB -> a + " - " + b;
            case MUL -> a + " * " + b;
            case DIV -> a + " / " + b;
            case MAX -> "Math.max(" + a + ", " + b + ")";
            case MIN -> "Math.min(" + a + ", " + b + ")";
            case POW ->
                kind == ScalarKind.LONG ? "ipow(" + a + ", " + b + ")" : "(" + t + ") Math.pow(" + a + ", " + b + ")";
            case AND -> kind == ScalarKind.BOOL ? a + " && " + b : a + " & " + b;
            case OR -> kind == ScalarKind.BOOL ? a + " || " + b : a + " | " + b;
            case XOR -> a + " ^ " + b;
            case FLOOR_DIV ->
                kind == ScalarKind.LONG
                        ? "Math.floorDiv(" + a + ", " + b + ")"
                        : "(" + t + ") Math.floor(" + a + " / " + b + ")";
            case REMAINDER ->
                kind == ScalarKind.LONG ? "Math.floorMod(" + a + ", " + b + ")" : "remainder(" + a + ", " + b + ")";
        };
    }

    private static String compare(Expr.CompareOp op, ScalarKind kind, String a, String b) {
        if (kind == ScalarKind.BOOL && op != Expr.CompareOp.EQ && op != Expr.CompareOp.NE) {
            a = "(" + a + " ? 1 : 0)";
            b = "(" + b + " ? 1 : 0)";
        }
        String sym =
                switch (op) {
                    case EQ -> "==";
                    case NE -> "!=";
                    case LT -> "<";
                    case LE -> "<=";
                    case GT -> ">";
                    case GE -> ">=";
                };
        return a + " " + sym + " " + b;
    }

    private static String cast(String x, ScalarKind from, ScalarKind to) {
        if (from == to) return x;
        if (to == ScalarKind.BOOL) return x + " != 0";
        if (from == ScalarKind.BOOL) return "(" + x + " ? (" + to.javaType() + ") 1 : (" + to.javaType() + ") 0)";
        return "(" + to.javaType() + ") " + x;
    }

    private static String round(String x, Elem elem, ScalarKind kind) {
        return switch (elem) {
            case FLOAT16 -> "Float.float16ToFloat(Float.floatToFloat16(" + x + "))";
            case BFLOAT16 -> "Float.intBitsToFloat(toBFloat16(" + x + ") << 16)";
            case FLOAT32 -> kind == ScalarKind.DOUBLE ? "(double) (float) " + x : x;
            case INT32 -> "(long) (int) " + x;
            case INT16 -> "(long) (short) " + x;
            case INT8 -> "(long) (byte) " + x;
            case UINT8 -> "(long) (" + x + " & 0xFF)";
            default -> x;
        };
    }

    private void line(String s) {
        out.append("    ".repeat(indent)).append(s).append('\n');
    }
}

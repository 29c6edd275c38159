package org.jtorch.compile.inductor.codegen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.compile.inductor.ir.Access;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.compile.inductor.ir.LoopKernel.ReduceKind;
import org.jtorch.compile.inductor.ir.ScalarKind;

/**
 * The Java source of one kernel class: {@code public static void run(Object[] buffers, long[] offsets, long lo, long
 * hi)} computes points {@code [lo, hi)} of a pointwise kernel, or rows {@code [lo, hi)} of a row kernel, so that the
 * intra-op pool can split the range statically.
 *
 * <p>The loops walk the innermost dimension in runs (a run ends at the end of that dimension or of the range); inside a
 * run, when every access is float32 with unit or zero stride and every operation has a vector form, a Vector API loop
 * covers whole vectors and a scalar loop the tail; otherwise the scalar loop does the run with each access's own stride
 * (the strided fallback). Values are computed in float for float16/bfloat16/float32 and rounded once when stored. Row
 * reductions accumulate in index order (per vector lane, lanes then tail combined at the end): the order depends only
 * on the row's layout, never on the thread count.
 *
 * <p>The generated class uses only the JDK ({@code java.base} and {@code jdk.incubator.vector}), so it compiles without
 * the library on the compiler's class path.
 */
public final class KernelSource {
    private final LoopKernel k;
    private final StringBuilder out = new StringBuilder();
    private final Map<AccessKey, Integer> accessIds = new LinkedHashMap<>();
    private final List<AccessKey> accessList = new ArrayList<>();
    private int temp;
    private int indent = 2;

    /** A buffer access (buffer -1 for an {@link Expr.Index}, which reads no buffer). */
    private record AccessKey(int buffer, Access access) {}

    private KernelSource(LoopKernel k) {
        this.k = k;
    }

    /** The source of class {@code className} in package {@code packageName} computing {@code kernel}. */
    public static String generate(LoopKernel kernel, String packageName, String className) {
        return new KernelSource(Coalesce.apply(kernel)).source(packageName, className);
    }

    private String source(String packageName, String className) {
        collectAccesses();
        out.append("package ").append(packageName).append(";\n\n");
        out.append("import jdk.incubator.vector.*;\n\n");
        out.append("/** ").append(k.name().replace("*/", "* /")).append(" */\n");
        out.append("final class ").append(className).append(" {\n");
        out.append("    private static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;\n");
        out.append("    private static final int VL = S.length();\n\n");
        out.append("    public static void run(Object[] buffers, long[] offsets, long lo, long hi) {\n");
        for (int b = 0; b < k.buffers().size(); b++) {
            String type = k.buffers().get(b).arrayType();
            line("final " + type + " b" + b + " = (" + type + ") buffers[" + b + "];");
            line("final long o" + b + " = offsets[" + b + "];");
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
                    line("final long u" + d + " = q % " + outer[d] + "L;");
                    line("q /= " + outer[d] + "L;");
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
            if (!k.elementStores().isEmpty()) elementPhase("0", k.rowLength() + "L");
            indent--;
            line("}");
        }
        out.append("    }\n");
        helpers();
        out.append("}\n");
        return out.toString();
    }

    // ---------------------------------------------------------------- accesses

    private void collectAccesses() {
        for (LoopKernel.Reduction r : k.reductions()) collectAccesses(r.body());
        for (LoopKernel.Store s : k.rowStores()) {
            access(s.buffer(), s.access());
            collectAccesses(s.value());
        }
        for (LoopKernel.Store s : k.elementStores()) {
            access(s.buffer(), s.access());
            collectAccesses(s.value());
        }
    }

    private void collectAccesses(Expr e) {
        switch (e) {
            case Expr.Load l -> access(l.buffer(), l.access());
            case Expr.IndirectLoad l -> access(l.buffer(), l.access());
            case Expr.Index i -> access(-1, i.access());
            default -> {}
        }
        for (Expr c : e.children()) collectAccesses(c);
    }

    private int access(int buffer, Access a) {
        AccessKey key = new AccessKey(buffer, a);
        Integer id = accessIds.get(key);
        if (id == null) {
            id = accessList.size();
            accessIds.put(key, id);
            accessList.add(key);
        }
        return id;
    }

    /** {@code rb<id>}: each access's offset from its buffer's start and the row's outer index. */
    private void rowBases(long[] outer) {
        for (int id = 0; id < accessList.size(); id++) {
            AccessKey a = accessList.get(id);
            StringBuilder sb = new StringBuilder("final long rb" + id + " = ");
            sb.append(a.buffer() < 0 ? "0L" : "o" + a.buffer())
                    .append(" + ")
                    .append(a.access().offset())
                    .append("L");
            for (int d = 0; d < outer.length; d++) {
                long s = a.access().stride(d);
                if (s != 0) sb.append(" + ").append(s).append("L * u").append(d);
            }
            line(sb.append(';').toString());
        }
    }

    // ---------------------------------------------------------------- loops

    /** The runs of the inner dimensions over flat positions {@code [lo, hi)}; {@code body} emits a run's loop. */
    private void runs(String lo, String hi, Runnable body) {
        long[] inner = k.inner();
        int n = inner.length;
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
                    line("long i" + d + " = r % " + inner[d] + "L;");
                    line("r /= " + inner[d] + "L;");
                } else {
                    line("long i0 = r;");
                }
            }
            line("long p = " + lo + ";");
            line("while (p < " + hi + ") {");
            indent++;
            line("final int len = (int) Math.min(" + hi + " - p, " + inner[n - 1] + "L - i" + (n - 1) + ");");
            for (int id = 0; id < accessList.size(); id++) {
                Access a = accessList.get(id).access();
                StringBuilder sb = new StringBuilder("rb" + id);
                for (int d = 0; d < n; d++) {
                    long s = a.stride(first + d);
                    if (s != 0) sb.append(" + ").append(s).append("L * i").append(d);
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
                        .append(" == ")
                        .append(inner[d])
                        .append("L) { i")
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
        boolean vector =
                vectorizable(stores.stream().map(LoopKernel.Store::value).toList(), stores);
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
        List<LoopKernel.Reduction> all = k.reductions();
        int start = 0;
        while (start < all.size()) {
            int end = start + 1;
            while (end < all.size() && !readsAny(all.get(end).body(), start, end)) end++;
            pass(start, end);
            start = end;
        }
    }

    private static boolean readsAny(Expr e, int from, int to) {
        if (e instanceof Expr.RowValue r && r.reduction() >= from && r.reduction() < to) return true;
        for (Expr c : e.children()) if (readsAny(c, from, to)) return true;
        return false;
    }

    private void pass(int from, int to) {
        List<LoopKernel.Reduction> rs = k.reductions().subList(from, to);
        List<Expr> bodies = rs.stream().map(LoopKernel.Reduction::body).toList();
        boolean vector = vectorizable(bodies, List.of());
        for (LoopKernel.Reduction r : rs) {
            if (vector && (r.kind() == ReduceKind.ALL || r.kind() == ReduceKind.ANY)) vector = false;
        }
        for (int i = from; i < to; i++) {
            LoopKernel.Reduction r = k.reductions().get(i);
            ScalarKind kind = r.body().kind();
            line(kind.javaType() + " acc" + i + " = " + identity(r.kind(), kind) + ";");
            if (vector) line("FloatVector vacc" + i + " = FloatVector.broadcast(S, acc" + i + ");");
        }
        boolean vec = vector;
        runs("0", k.rowLength() + "L", () -> {
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
        int id = accessIds.get(new AccessKey(s.buffer(), s.access()));
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
        return "x" + id + (s == 1 ? " + " + j : " + " + s + " * " + j);
    }

    private long innermostStride(Access a) {
        return a.rank() == 0 || k.inner().length == 0 ? 0 : a.stride(a.rank() - 1);
    }

    // ---------------------------------------------------------------- vectorization

    /** Whether every store and expression has a float32 vector form with unit- or zero-stride accesses. */
    private boolean vectorizable(List<Expr> values, List<LoopKernel.Store> stores) {
        if (k.inner().length == 0) return false;
        for (LoopKernel.Store s : stores) {
            if (k.buffers().get(s.buffer()) != Elem.FLOAT32 || innermostStride(s.access()) != 1) return false;
        }
        for (Expr v : values) if (v.kind() != ScalarKind.FLOAT || !vectorizable(v)) return false;
        return true;
    }

    private boolean vectorizable(Expr e) {
        boolean ok =
                switch (e) {
                    case Expr.Load l ->
                        l.elem() == Elem.FLOAT32
                                && innermostStride(l.access()) <= 1
                                && innermostStride(l.access()) >= 0;
                    case Expr.IndirectLoad l -> false;
                    case Expr.Index i -> false;
                    case Expr.Masked m -> false;
                    case Expr.Constant c -> c.kind() == ScalarKind.FLOAT || c.kind() == ScalarKind.BOOL;
                    case Expr.Unary u -> u.x().kind() == ScalarKind.FLOAT && VECTOR_UNARY.containsKey(u.op());
                    case Expr.Binary b -> b.kind() == ScalarKind.FLOAT && VECTOR_BINARY.containsKey(b.op());
                    case Expr.Compare c -> c.a().kind() == ScalarKind.FLOAT;
                    case Expr.Where w -> w.kind() == ScalarKind.FLOAT;
                    case Expr.Cast c -> c.kind() == ScalarKind.FLOAT && c.x().kind() == ScalarKind.FLOAT;
                    case Expr.Round r -> r.elem() == Elem.FLOAT32;
                    case Expr.RowValue r -> r.kind() == ScalarKind.FLOAT;
                };
        if (!ok) return false;
        for (Expr c : e.children()) if (!vectorizable(c)) return false;
        return true;
    }

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
                        int id = accessIds.get(new AccessKey(l.buffer(), l.access()));
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
                        int id = accessIds.get(new AccessKey(l.buffer(), l.access()));
                        yield l.elem().load("b" + l.buffer() + "[" + element(id, j) + "]");
                    }
                    case Expr.IndirectLoad l -> {
                        int id = accessIds.get(new AccessKey(l.buffer(), l.access()));
                        String index = scalar(l.index(), memo, j);
                        String at = "(int) (" + element(id, j) + " + " + l.stride() + "L * index(" + index + ", "
                                + l.size() + "L))";
                        yield l.elem().load("b" + l.buffer() + "[" + at + "]");
                    }
                    case Expr.Index i -> {
                        int id = accessIds.get(new AccessKey(-1, i.access()));
                        long s = innermostStride(i.access());
                        yield s == 0 || j.equals("0") ? "e" + id : "e" + id + " + " + s + "L * " + j;
                    }
                    case Expr.Constant c -> literal(c.value(), kind);
                    case Expr.Unary u -> unary(u.op(), u.x().kind(), scalar(u.x(), memo, j));
                    case Expr.Binary b -> binary(b.op(), kind, scalar(b.a(), memo, j), scalar(b.b(), memo, j));
                    case Expr.Compare c ->
                        compare(c.op(), c.a().kind(), scalar(c.a(), memo, j), scalar(c.b(), memo, j));
                    case Expr.Where w ->
                        scalar(w.cond(), memo, j) + " ? " + scalar(w.a(), memo, j) + " : " + scalar(w.b(), memo, j);
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

    // ---------------------------------------------------------------- helpers

    private void helpers() {
        out.append(HELPERS);
    }

    /**
     * The functions the generated code calls: erf (Abramowitz and Stegun 7.1.26 refined by erfc's exponential form,
     * about 1e-7 absolute, ample for float), its vector form, ReLU propagating NaN, bfloat16 rounding to nearest even
     * (as c10 does), Python's remainder, C's trunc, integer powers, and index wrapping with a bounds check.
     */
    private static final String HELPERS = """

                private static double erf(double x) {
                    double z = Math.abs(x);
                    double t = 1.0 / (1.0 + 0.5 * z);
                    double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                            + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                            + t * (-0.82215223 + t * 0.17087277)))))))));
                    return x >= 0 ? 1.0 - r : r - 1.0;
                }

                private static FloatVector erf(FloatVector x) {
                    FloatVector z = x.abs();
                    FloatVector t = FloatVector.broadcast(S, 1f).div(z.mul(0.5f).add(1f));
                    FloatVector p = t.mul(0.17087277f).add(-0.82215223f);
                    p = p.mul(t).add(1.48851587f);
                    p = p.mul(t).add(-1.13520398f);
                    p = p.mul(t).add(0.27886807f);
                    p = p.mul(t).add(-0.18628806f);
                    p = p.mul(t).add(0.09678418f);
                    p = p.mul(t).add(0.37409196f);
                    p = p.mul(t).add(1.00002368f);
                    p = p.mul(t).add(-1.26551223f);
                    FloatVector r = t.mul(p.sub(z.mul(z)).lanewise(VectorOperators.EXP));
                    FloatVector one = FloatVector.broadcast(S, 1f);
                    return one.sub(r).blend(r.sub(one), x.compare(VectorOperators.LT, 0f));
                }

                private static FloatVector relu(FloatVector x) {
                    return x.blend(0f, x.compare(VectorOperators.LT, 0f));
                }

                private static short toBFloat16(float f) {
                    if (f != f) return (short) 0x7FC0;
                    int bits = Float.floatToRawIntBits(f);
                    return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
                }

                private static float remainder(float a, float b) {
                    float r = a % b;
                    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
                }

                private static double remainder(double a, double b) {
                    double r = a % b;
                    return r != 0 && (r < 0) != (b < 0) ? r + b : r;
                }

                private static double trunc(double x) {
                    return x < 0 ? Math.ceil(x) : Math.floor(x);
                }

                private static long ipow(long a, long b) {
                    if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) == 0 ? 1 : -1) : 0;
                    long r = 1;
                    for (long i = 0; i < b; i++) r *= a;
                    return r;
                }

                private static long index(long i, long size) {
                    long w = i < 0 ? i + size : i;
                    if (w < 0 || w >= size) {
                        throw new IndexOutOfBoundsException("index " + i + " is out of bounds for dimension with size "
                                + size);
                    }
                    return w;
                }
            """;

    private void line(String s) {
        out.append("    ".repeat(indent)).append(s).append('\n');
    }
}

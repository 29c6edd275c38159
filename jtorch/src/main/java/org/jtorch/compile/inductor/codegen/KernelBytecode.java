package org.jtorch.compile.inductor.codegen;

import static java.lang.constant.ConstantDescs.CD_Float;
import static java.lang.constant.ConstantDescs.CD_Long;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_double;
import static java.lang.constant.ConstantDescs.CD_float;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_short;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.OperatorInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
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
 * The class file of one kernel, written directly with the JDK's {@code java.lang.classfile} API: the bytecode javac
 * would produce for the kernel's listing ({@link KernelSource}), without javac. Both follow one {@link KernelLayout}
 * (accesses, vector loops, reduction passes), and each expression is translated as Java evaluates it — the same
 * primitive conversions (binary numeric promotion, the casts of the listing), the same {@code Math} and Vector API
 * methods and the same operand order — so a kernel computes bit for bit what its listing says.
 *
 * <p>A value the listing keeps in a {@code final} local lives in a fresh local slot here; slots are never reused, so
 * the stack map frames the API computes at loop heads and branch joins need no class hierarchy.
 */
final class KernelBytecode {
    private static final ClassDesc FLOAT_VECTOR = ClassDesc.of("jdk.incubator.vector.FloatVector");
    private static final ClassDesc VECTOR = ClassDesc.of("jdk.incubator.vector.Vector");
    private static final ClassDesc MASK = ClassDesc.of("jdk.incubator.vector.VectorMask");
    private static final ClassDesc SPECIES = ClassDesc.of("jdk.incubator.vector.VectorSpecies");
    private static final ClassDesc OPERATORS = ClassDesc.of("jdk.incubator.vector.VectorOperators");
    private static final ClassDesc UNARY = ClassDesc.of("jdk.incubator.vector.VectorOperators$Unary");
    private static final ClassDesc BINARY = ClassDesc.of("jdk.incubator.vector.VectorOperators$Binary");
    private static final ClassDesc ASSOCIATIVE = ClassDesc.of("jdk.incubator.vector.VectorOperators$Associative");
    private static final ClassDesc COMPARISON = ClassDesc.of("jdk.incubator.vector.VectorOperators$Comparison");
    private static final ClassDesc RUNTIME = ClassDesc.of(KernelRuntime.class.getName());
    private static final ClassDesc MATH = ClassDesc.of("java.lang.Math");

    private static final MethodTypeDesc RUN =
            MethodTypeDesc.of(CD_void, CD_Object.arrayType(), CD_long.arrayType(), CD_long, CD_long);
    private static final MethodTypeDesc VECTOR_TO_VECTOR = MethodTypeDesc.of(FLOAT_VECTOR, VECTOR);
    private static final MethodTypeDesc TO_VECTOR = MethodTypeDesc.of(FLOAT_VECTOR);
    private static final MethodTypeDesc BROADCAST = MethodTypeDesc.of(FLOAT_VECTOR, SPECIES, CD_float);

    private final CodeBuilder cb;
    private final ClassDesc self;
    private final KernelLayout layout;
    private final LoopKernel k;
    private final KernelArguments args;
    private final int[] buffer;
    private final int[] offset;
    private final int[] rowBase;
    private final int[] element;
    private final int[] index;
    private final int[] rowValue;
    /** The local slot of each argument ({@link KernelArguments}), read once at entry. */
    private final int[] argument;
    /** The local slot of each buffer access's innermost stride as an int, when it is an argument. */
    private final int[] innerStride;

    private int len;

    /** A {@code long} bound of a loop: a local slot, or a constant when {@code slot} is -1. */
    private record Bound(int slot, long constant) {
        static Bound of(long constant) {
            return new Bound(-1, constant);
        }
    }

    /** A computed scalar: the slot holding it and its kind. */
    private record Value(int slot, ScalarKind kind) {}

    private KernelBytecode(CodeBuilder cb, ClassDesc self, KernelLayout layout) {
        this.cb = cb;
        this.self = self;
        this.layout = layout;
        this.k = layout.kernel();
        this.args = layout.arguments();
        int accesses = layout.accesses().size();
        this.buffer = new int[k.buffers().size()];
        this.offset = new int[k.buffers().size()];
        this.rowBase = new int[accesses];
        this.element = new int[accesses];
        this.index = new int[accesses];
        this.rowValue = new int[k.reductions().size()];
        this.argument = new int[args.count()];
        this.innerStride = new int[accesses];
    }

    /** The class file of class {@code binaryName} (in this package) computing {@code kernel}. */
    static byte[] generate(LoopKernel kernel, String binaryName) {
        return generate(KernelLayout.of(kernel), binaryName);
    }

    /** The class file of class {@code binaryName} (in this package) computing {@code layout}'s kernel. */
    static byte[] generate(KernelLayout layout, String binaryName) {
        ClassDesc self = ClassDesc.of(binaryName);
        return ClassFile.of().build(self, clb -> {
            clb.withFlags(ClassFile.ACC_FINAL | ClassFile.ACC_SUPER);
            int constant = ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC | ClassFile.ACC_FINAL;
            clb.withField("S", SPECIES, constant);
            clb.withField("VL", CD_int, constant);
            clb.withMethodBody("<clinit>", MethodTypeDesc.of(CD_void), ClassFile.ACC_STATIC, cb -> {
                cb.getstatic(FLOAT_VECTOR, "SPECIES_PREFERRED", SPECIES);
                cb.putstatic(self, "S", SPECIES);
                cb.getstatic(self, "S", SPECIES);
                cb.invokeinterface(SPECIES, "length", MethodTypeDesc.of(CD_int));
                cb.putstatic(self, "VL", CD_int);
                cb.return_();
            });
            clb.withMethodBody(
                    "run", RUN, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC, cb -> new KernelBytecode(cb, self, layout)
                            .run());
        });
    }

    // ---------------------------------------------------------------- structure

    private void run() {
        for (int b = 0; b < buffer.length; b++) {
            cb.aload(0);
            cb.loadConstant(b);
            cb.aaload();
            cb.checkcast(arrayDesc(k.buffers().get(b)));
            buffer[b] = cb.allocateLocal(TypeKind.REFERENCE);
            cb.astore(buffer[b]);
            cb.aload(1);
            cb.loadConstant(b);
            cb.laload();
            offset[b] = cb.allocateLocal(TypeKind.LONG);
            cb.lstore(offset[b]);
        }
        for (int n = 0; n < argument.length; n++) {
            cb.aload(1);
            cb.loadConstant(args.position(n));
            cb.laload();
            argument[n] = cb.allocateLocal(TypeKind.LONG);
            cb.lstore(argument[n]);
        }
        for (int id = 0; id < innerStride.length; id++) {
            int s = args.innermostStride(id);
            if (s == KernelArguments.NONE || layout.accesses().get(id).buffer() < 0) continue;
            cb.lload(argument[s]);
            cb.l2i();
            innerStride[id] = cb.allocateLocal(TypeKind.INT);
            cb.istore(innerStride[id]);
        }
        if (k.isPointwise()) {
            rowBases(new int[0]);
            elementPhase(new Bound(2, 0), new Bound(4, 0));
        } else {
            int row = cb.allocateLocal(TypeKind.LONG);
            cb.lload(2);
            cb.lstore(row);
            Label head = cb.newBoundLabel();
            Label end = cb.newLabel();
            cb.lload(row);
            cb.lload(4);
            cb.lcmp();
            cb.ifge(end);
            long[] outer = k.outer();
            int q = cb.allocateLocal(TypeKind.LONG);
            cb.lload(row);
            cb.lstore(q);
            int[] u = new int[outer.length];
            for (int d = outer.length - 1; d >= 0; d--) {
                u[d] = cb.allocateLocal(TypeKind.LONG);
                cb.lload(q);
                if (d > 0) {
                    cb.lload(argument[args.outerSize(d)]);
                    cb.lrem();
                    cb.lstore(u[d]);
                    cb.lload(q);
                    cb.lload(argument[args.outerSize(d)]);
                    cb.ldiv();
                    cb.lstore(q);
                } else {
                    cb.lstore(u[0]);
                }
            }
            rowBases(u);
            for (int[] pass : layout.passes()) pass(pass[0], pass[1]);
            if (!k.rowStores().isEmpty()) {
                // per-row values: every access is at the row's base (inner strides are zero)
                for (int id = 0; id < rowBase.length; id++) {
                    cb.lload(rowBase[id]);
                    declareElement(id);
                }
                Map<Expr, Value> memo = new HashMap<>();
                for (LoopKernel.Store s : k.rowStores()) storeScalar(s, scalar(s.value(), memo, -1), -1);
            }
            if (!k.elementStores().isEmpty()) elementPhase(Bound.of(0), rowLength());
            cb.lload(row);
            cb.lconst_1();
            cb.ladd();
            cb.lstore(row);
            cb.goto_(head);
            cb.labelBinding(end);
        }
        cb.return_();
    }

    /** Each access's offset from its buffer's start and the row's outer index. */
    private void rowBases(int[] u) {
        List<KernelLayout.AccessKey> accesses = layout.accesses();
        for (int id = 0; id < accesses.size(); id++) {
            KernelLayout.AccessKey a = accesses.get(id);
            if (a.buffer() < 0) cb.lconst_0();
            else cb.lload(offset[a.buffer()]);
            cb.lload(argument[args.offset(id)]);
            cb.ladd();
            for (int d = 0; d < u.length; d++) {
                int s = args.stride(id, d);
                if (s == KernelArguments.NONE) continue;
                cb.lload(argument[s]);
                cb.lload(u[d]);
                cb.lmul();
                cb.ladd();
            }
            rowBase[id] = cb.allocateLocal(TypeKind.LONG);
            cb.lstore(rowBase[id]);
        }
    }

    /** A row's number of points: the argument's slot. */
    private Bound rowLength() {
        return new Bound(argument[args.rowLength()], 0);
    }

    private void load(Bound b) {
        if (b.slot() < 0) cb.loadConstant(b.constant());
        else cb.lload(b.slot());
    }

    /**
     * The runs of the inner dimensions over flat positions {@code [lo, hi)}: a run ends at the end of the innermost
     * dimension or of the range; {@code body} emits a run's loops over {@code len} points.
     */
    private void runs(Bound lo, Bound hi, Runnable body) {
        int n = k.inner().length;
        int first = k.outer().length;
        List<KernelLayout.AccessKey> accesses = layout.accesses();
        if (n == 0) {
            load(hi);
            load(lo);
            cb.lsub();
            cb.l2i();
            len = cb.allocateLocal(TypeKind.INT);
            cb.istore(len);
            for (int id = 0; id < accesses.size(); id++) {
                cb.lload(rowBase[id]);
                declareElement(id);
            }
            body.run();
            return;
        }
        int r = cb.allocateLocal(TypeKind.LONG);
        load(lo);
        cb.lstore(r);
        int[] i = new int[n];
        for (int d = n - 1; d >= 0; d--) {
            i[d] = cb.allocateLocal(TypeKind.LONG);
            cb.lload(r);
            if (d > 0) {
                cb.lload(argument[args.innerSize(d)]);
                cb.lrem();
                cb.lstore(i[d]);
                cb.lload(r);
                cb.lload(argument[args.innerSize(d)]);
                cb.ldiv();
                cb.lstore(r);
            } else {
                cb.lstore(i[0]);
            }
        }
        int p = cb.allocateLocal(TypeKind.LONG);
        load(lo);
        cb.lstore(p);
        Label head = cb.newBoundLabel();
        Label end = cb.newLabel();
        cb.lload(p);
        load(hi);
        cb.lcmp();
        cb.ifge(end);
        load(hi);
        cb.lload(p);
        cb.lsub();
        cb.lload(argument[args.innerSize(n - 1)]);
        cb.lload(i[n - 1]);
        cb.lsub();
        cb.invokestatic(MATH, "min", MethodTypeDesc.of(CD_long, CD_long, CD_long));
        cb.l2i();
        len = cb.allocateLocal(TypeKind.INT);
        cb.istore(len);
        for (int id = 0; id < accesses.size(); id++) {
            Access a = accesses.get(id).access();
            cb.lload(rowBase[id]);
            for (int d = 0; d < n; d++) {
                int s = args.stride(id, first + d);
                if (s == KernelArguments.NONE && a.stride(first + d) == 0) continue;
                if (s == KernelArguments.NONE) {
                    cb.lload(i[d]); // a unit stride
                } else {
                    cb.lload(argument[s]);
                    cb.lload(i[d]);
                    cb.lmul();
                }
                cb.ladd();
            }
            declareElement(id);
        }
        body.run();
        cb.lload(p);
        cb.iload(len);
        cb.i2l();
        cb.ladd();
        cb.lstore(p);
        cb.lload(i[n - 1]);
        cb.iload(len);
        cb.i2l();
        cb.ladd();
        cb.lstore(i[n - 1]);
        Label carried = cb.newLabel();
        for (int d = n - 1; d > 0; d--) {
            cb.lload(i[d]);
            cb.lload(argument[args.innerSize(d)]);
            cb.lcmp();
            cb.ifne(carried);
            cb.lconst_0();
            cb.lstore(i[d]);
            cb.lload(i[d - 1]);
            cb.lconst_1();
            cb.ladd();
            cb.lstore(i[d - 1]);
        }
        cb.labelBinding(carried);
        cb.goto_(head);
        cb.labelBinding(end);
    }

    /** Stores the {@code long} on the stack as access {@code id}'s position, and its int array index. */
    private void declareElement(int id) {
        element[id] = cb.allocateLocal(TypeKind.LONG);
        cb.lstore(element[id]);
        if (layout.accesses().get(id).buffer() >= 0) {
            index[id] = cb.allocateLocal(TypeKind.INT);
            cb.lload(element[id]);
            cb.l2i();
            cb.istore(index[id]);
        }
    }

    /** Pushes the array index (an int) of access {@code id} at run position {@code j} (-1: the run's start). */
    private void arrayIndex(int id, int j) {
        long s = layout.innermostStride(layout.accesses().get(id).access());
        cb.iload(index[id]);
        if (s == 0 || j < 0) return;
        if (s != 1) cb.iload(innerStride[id]);
        cb.iload(j);
        if (s != 1) cb.imul();
        cb.iadd();
    }

    /** A loop {@code for (; j <= len - VL; j += VL)} (vector) or {@code for (; j < len; j++)} around {@code body}. */
    private void loop(int j, boolean vector, Runnable body) {
        Label head = cb.newBoundLabel();
        Label end = cb.newLabel();
        cb.iload(j);
        cb.iload(len);
        if (vector) {
            cb.getstatic(self, "VL", CD_int);
            cb.isub();
            cb.if_icmpgt(end);
        } else {
            cb.if_icmpge(end);
        }
        body.run();
        if (vector) {
            cb.iload(j);
            cb.getstatic(self, "VL", CD_int);
            cb.iadd();
            cb.istore(j);
        } else {
            cb.iinc(j, 1);
        }
        cb.goto_(head);
        cb.labelBinding(end);
    }

    private int newJ() {
        int j = cb.allocateLocal(TypeKind.INT);
        cb.iconst_0();
        cb.istore(j);
        return j;
    }

    /** The element stores over positions {@code [lo, hi)} of the inner dimensions. */
    private void elementPhase(Bound lo, Bound hi) {
        List<LoopKernel.Store> stores = k.elementStores();
        boolean vector = layout.vectorElements();
        runs(lo, hi, () -> {
            int j = newJ();
            if (vector) {
                loop(j, true, () -> {
                    Map<Expr, Integer> memo = new HashMap<>();
                    int[] values = new int[stores.size()];
                    for (int s = 0; s < values.length; s++)
                        values[s] = vector(stores.get(s).value(), memo, j);
                    for (int s = 0; s < values.length; s++) {
                        LoopKernel.Store store = stores.get(s);
                        cb.aload(values[s]);
                        cb.aload(buffer[store.buffer()]);
                        arrayIndex(layout.id(store.buffer(), store.access()), j);
                        cb.invokevirtual(
                                FLOAT_VECTOR, "intoArray", MethodTypeDesc.of(CD_void, CD_float.arrayType(), CD_int));
                    }
                });
            }
            loop(j, false, () -> {
                Map<Expr, Value> memo = new HashMap<>();
                Value[] values = new Value[stores.size()];
                for (int s = 0; s < values.length; s++)
                    values[s] = scalar(stores.get(s).value(), memo, j);
                for (int s = 0; s < values.length; s++) storeScalar(stores.get(s), values[s], j);
            });
        });
    }

    /** One pass of reductions {@code [from, to)} over the row, leaving each result in {@code rowValue}. */
    private void pass(int from, int to) {
        boolean vector = layout.vectorPass(from, to);
        int[] acc = new int[to];
        int[] vacc = new int[to];
        for (int i = from; i < to; i++) {
            LoopKernel.Reduction r = k.reductions().get(i);
            ScalarKind kind = r.body().kind();
            identity(r.kind(), kind);
            acc[i] = cb.allocateLocal(typeKind(kind));
            cb.storeLocal(typeKind(kind), acc[i]);
            if (vector) {
                cb.getstatic(self, "S", SPECIES);
                cb.fload(acc[i]);
                cb.invokestatic(FLOAT_VECTOR, "broadcast", BROADCAST);
                vacc[i] = cb.allocateLocal(TypeKind.REFERENCE);
                cb.astore(vacc[i]);
            }
        }
        runs(Bound.of(0), rowLength(), () -> {
            int j = newJ();
            if (vector) {
                loop(j, true, () -> {
                    Map<Expr, Integer> memo = new HashMap<>();
                    for (int i = from; i < to; i++) {
                        LoopKernel.Reduction r = k.reductions().get(i);
                        int v = vector(r.body(), memo, j);
                        String op = r.kind() == ReduceKind.SUM ? "add" : r.kind() == ReduceKind.MAX ? "max" : "min";
                        cb.aload(vacc[i]);
                        cb.aload(v);
                        cb.invokevirtual(FLOAT_VECTOR, op, VECTOR_TO_VECTOR);
                        cb.astore(vacc[i]);
                    }
                });
            }
            loop(j, false, () -> {
                Map<Expr, Value> memo = new HashMap<>();
                for (int i = from; i < to; i++) {
                    LoopKernel.Reduction r = k.reductions().get(i);
                    ScalarKind kind = r.body().kind();
                    Value v = scalar(r.body(), memo, j);
                    cb.loadLocal(typeKind(kind), acc[i]);
                    cb.loadLocal(typeKind(v.kind()), v.slot());
                    assign(v.kind(), kind);
                    combine(r.kind(), kind);
                    cb.storeLocal(typeKind(kind), acc[i]);
                }
            });
        });
        for (int i = from; i < to; i++) {
            LoopKernel.Reduction r = k.reductions().get(i);
            ScalarKind kind = r.body().kind();
            if (vector) {
                cb.aload(vacc[i]);
                String op = r.kind() == ReduceKind.SUM ? "ADD" : r.kind().name();
                cb.getstatic(OPERATORS, op, ASSOCIATIVE);
                cb.invokevirtual(FLOAT_VECTOR, "reduceLanes", MethodTypeDesc.of(CD_float, ASSOCIATIVE));
                cb.loadLocal(typeKind(kind), acc[i]);
                combine(r.kind(), kind);
            } else {
                cb.loadLocal(typeKind(kind), acc[i]);
            }
            rowValue[i] = cb.allocateLocal(typeKind(kind));
            cb.storeLocal(typeKind(kind), rowValue[i]);
        }
    }

    private void identity(ReduceKind r, ScalarKind kind) {
        switch (r) {
            case SUM -> {
                switch (kind) {
                    case FLOAT -> cb.loadConstant(0f);
                    case DOUBLE -> cb.loadConstant(0d);
                    case LONG -> cb.loadConstant(0L);
                    case BOOL -> throw cannot("a sum of booleans");
                }
            }
            case MAX, MIN -> {
                boolean max = r == ReduceKind.MAX;
                switch (kind) {
                    case BOOL -> cb.loadConstant(max ? 0 : 1);
                    case FLOAT -> cb.loadConstant(max ? Float.NEGATIVE_INFINITY : Float.POSITIVE_INFINITY);
                    case DOUBLE -> cb.loadConstant(max ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY);
                    case LONG -> cb.loadConstant(max ? Long.MIN_VALUE : Long.MAX_VALUE);
                }
            }
            case ALL -> cb.loadConstant(1);
            case ANY -> cb.loadConstant(0);
        }
    }

    /** Combines the accumulator and the value on the stack (in that order) as {@code r} does. */
    private void combine(ReduceKind r, ScalarKind kind) {
        switch (r) {
            case SUM -> arithmetic(Expr.BinaryOp.ADD, kind);
            case MAX -> {
                if (kind == ScalarKind.BOOL) cb.ior();
                else math("max", kind, kind);
            }
            case MIN -> {
                if (kind == ScalarKind.BOOL) cb.iand();
                else math("min", kind, kind);
            }
            case ALL -> cb.iand();
            case ANY -> cb.ior();
        }
    }

    // ---------------------------------------------------------------- stores and loads

    private void storeScalar(LoopKernel.Store s, Value v, int j) {
        Elem elem = k.buffers().get(s.buffer());
        cb.aload(buffer[s.buffer()]);
        arrayIndex(layout.id(s.buffer(), s.access()), j);
        cb.loadLocal(typeKind(v.kind()), v.slot());
        ScalarKind kind = v.kind();
        switch (elem) {
            case BOOL -> {
                if (kind != ScalarKind.BOOL) throw cannot("a " + kind + " stored as bool");
                cb.bastore();
            }
            case UINT8, INT8 -> {
                toInt(kind);
                cb.i2b();
                cb.bastore();
            }
            case INT16 -> {
                toInt(kind);
                cb.i2s();
                cb.sastore();
            }
            case INT32 -> {
                toInt(kind);
                cb.iastore();
            }
            case INT64 -> {
                assign(kind, ScalarKind.LONG);
                cb.lastore();
            }
            case FLOAT32 -> {
                assign(kind, ScalarKind.FLOAT);
                cb.fastore();
            }
            case FLOAT64 -> {
                assign(kind, ScalarKind.DOUBLE);
                cb.dastore();
            }
            case FLOAT16 -> {
                assign(kind, ScalarKind.FLOAT);
                cb.invokestatic(CD_Float, "floatToFloat16", MethodTypeDesc.of(CD_short, CD_float));
                cb.sastore();
            }
            case BFLOAT16 -> {
                assign(kind, ScalarKind.FLOAT);
                cb.invokestatic(RUNTIME, "toBFloat16", MethodTypeDesc.of(CD_short, CD_float));
                cb.sastore();
            }
        }
    }

    /** Pushes the array element on the stack (array, int index below it) as a value of {@code elem}'s kind. */
    private void loadElement(Elem elem) {
        switch (elem) {
            case BOOL -> {
                cb.baload();
                truth(Opcode.IFNE);
            }
            case UINT8 -> {
                cb.baload();
                cb.loadConstant(0xFF);
                cb.iand();
                cb.i2l();
            }
            case INT8 -> {
                cb.baload();
                cb.i2l();
            }
            case INT16 -> {
                cb.saload();
                cb.i2l();
            }
            case INT32 -> {
                cb.iaload();
                cb.i2l();
            }
            case INT64 -> cb.laload();
            case FLOAT16 -> {
                cb.saload();
                cb.invokestatic(CD_Float, "float16ToFloat", MethodTypeDesc.of(CD_float, CD_short));
            }
            case BFLOAT16 -> {
                cb.saload();
                bfloat16BitsToFloat();
            }
            case FLOAT32 -> cb.faload();
            case FLOAT64 -> cb.daload();
        }
    }

    /** The short on the stack, bfloat16 bits, as a float ({@code Float.intBitsToFloat(bits << 16)}). */
    private void bfloat16BitsToFloat() {
        cb.loadConstant(16);
        cb.ishl();
        cb.invokestatic(CD_Float, "intBitsToFloat", MethodTypeDesc.of(CD_float, CD_int));
    }

    /** Replaces the int condition operand(s) consumed by {@code branch} with 1 where it jumps, else 0. */
    private void truth(Opcode branch) {
        Label yes = cb.newLabel();
        Label done = cb.newLabel();
        cb.branch(branch, yes);
        cb.iconst_0();
        cb.goto_(done);
        cb.labelBinding(yes);
        cb.iconst_1();
        cb.labelBinding(done);
    }

    // ---------------------------------------------------------------- scalar code

    private Value scalar(Expr e, Map<Expr, Value> memo, int j) {
        Value known = memo.get(e);
        if (known != null) return known;
        ScalarKind kind = e.kind();
        switch (e) {
            case Expr.Load l -> {
                cb.aload(buffer[l.buffer()]);
                arrayIndex(layout.id(l.buffer(), l.access()), j);
                loadElement(l.elem());
            }
            case Expr.IndirectLoad l -> {
                int id = layout.id(l.buffer(), l.access());
                Value at = scalar(l.index(), memo, j);
                cb.aload(buffer[l.buffer()]);
                arrayIndex(id, j);
                cb.i2l();
                int[] gather = args.gather(l);
                cb.lload(argument[gather[0]]);
                push(at);
                assign(at.kind(), ScalarKind.LONG);
                cb.lload(argument[gather[1]]);
                cb.invokestatic(RUNTIME, "index", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                cb.lmul();
                cb.ladd();
                cb.l2i();
                loadElement(l.elem());
            }
            case Expr.Index i -> {
                int id = layout.id(-1, i.access());
                long s = layout.innermostStride(i.access());
                cb.lload(element[id]);
                if (s == 1 && j >= 0) {
                    cb.iload(j);
                    cb.i2l();
                    cb.ladd();
                } else if (s != 0 && j >= 0) {
                    cb.lload(argument[args.innermostStride(id)]);
                    cb.iload(j);
                    cb.i2l();
                    cb.lmul();
                    cb.ladd();
                }
            }
            case Expr.Constant c -> constant(c.value(), kind);
            case Expr.Unary u -> unary(u.op(), scalar(u.x(), memo, j));
            case Expr.Binary b -> binary(b.op(), kind, scalar(b.a(), memo, j), scalar(b.b(), memo, j));
            case Expr.Compare c -> compare(c.op(), scalar(c.a(), memo, j), scalar(c.b(), memo, j));
            case Expr.Fma f -> fma(kind, scalar(f.a(), memo, j), scalar(f.b(), memo, j), scalar(f.c(), memo, j));
            case Expr.Where w -> {
                Value cond = scalar(w.cond(), memo, j);
                Value a = scalar(w.a(), memo, j);
                Value b = scalar(w.b(), memo, j);
                ScalarKind p = promote(a.kind(), b.kind());
                Label no = cb.newLabel();
                Label done = cb.newLabel();
                push(cond);
                cb.ifeq(no);
                push(a);
                convert(a.kind(), p);
                cb.goto_(done);
                cb.labelBinding(no);
                push(b);
                convert(b.kind(), p);
                cb.labelBinding(done);
                assign(p, kind);
            }
            case Expr.Cast c -> {
                Value x = scalar(c.x(), memo, j);
                if (x.kind() == kind) {
                    memo.put(e, x);
                    return x;
                }
                push(x);
                cast(x.kind(), kind);
            }
            case Expr.Round r -> {
                Value x = scalar(r.x(), memo, j);
                if (!round(x, r.elem())) {
                    memo.put(e, x);
                    return x;
                }
            }
            case Expr.RowValue r -> cb.loadLocal(typeKind(kind), rowValue[r.reduction()]);
            case Expr.Masked m -> {
                Value mask = scalar(m.mask(), memo, j);
                Value other = scalar(m.other(), memo, j);
                int slot = cb.allocateLocal(typeKind(kind));
                push(other);
                assign(other.kind(), kind);
                cb.storeLocal(typeKind(kind), slot);
                Label skip = cb.newLabel();
                push(mask);
                cb.ifeq(skip);
                Value value = scalar(m.value(), new HashMap<>(memo), j);
                push(value);
                assign(value.kind(), kind);
                cb.storeLocal(typeKind(kind), slot);
                cb.labelBinding(skip);
                Value out = new Value(slot, kind);
                memo.put(e, out);
                return out;
            }
        }
        Value out = new Value(cb.allocateLocal(typeKind(kind)), kind);
        cb.storeLocal(typeKind(kind), out.slot());
        memo.put(e, out);
        return out;
    }

    private void push(Value v) {
        cb.loadLocal(typeKind(v.kind()), v.slot());
    }

    private void constant(double v, ScalarKind kind) {
        switch (kind) {
            case BOOL -> cb.loadConstant(v != 0 ? 1 : 0);
            case LONG -> cb.loadConstant((long) v);
            case FLOAT -> cb.loadConstant(floatConstant(v));
            case DOUBLE -> cb.loadConstant(Double.isNaN(v) ? Double.NaN : v);
        }
    }

    /** The float a listing's literal denotes: NaN is {@code Float.NaN}. */
    private static float floatConstant(double v) {
        float f = (float) v;
        return Float.isNaN(f) ? Float.NaN : f;
    }

    /** {@code op(x)}, as {@link KernelSource}'s listing computes it, in x's kind ({@code NOT}: bool). */
    private void unary(Expr.UnaryOp op, Value x) {
        ScalarKind kind = x.kind();
        if (kind == ScalarKind.BOOL && op != Expr.UnaryOp.NOT) throw cannot(op + " of a boolean");
        boolean integer = kind == ScalarKind.LONG;
        switch (op) {
            case NEG -> {
                push(x);
                negate(kind);
            }
            case ABS -> {
                push(x);
                math("abs", kind);
            }
            case EXP -> viaDouble(x, "exp");
            case LOG -> viaDouble(x, "log");
            case LOG1P -> viaDouble(x, "log1p");
            case EXPM1 -> viaDouble(x, "expm1");
            case SQRT -> viaDouble(x, "sqrt");
            case TANH -> viaDouble(x, "tanh");
            case SIN -> viaDouble(x, "sin");
            case COS -> viaDouble(x, "cos");
            case RSQRT -> {
                one(kind);
                viaDouble(x, "sqrt");
                arithmetic(Expr.BinaryOp.DIV, kind);
            }
            case SIGMOID -> {
                one(kind);
                one(kind);
                push(x);
                negate(kind);
                widenToDouble(kind);
                cb.invokestatic(MATH, "exp", MethodTypeDesc.of(CD_double, CD_double));
                narrowFromDouble(kind);
                arithmetic(Expr.BinaryOp.ADD, kind);
                arithmetic(Expr.BinaryOp.DIV, kind);
            }
            case ERF -> {
                push(x);
                widenToDouble(kind);
                cb.invokestatic(RUNTIME, "erf", MethodTypeDesc.of(CD_double, CD_double));
                narrowFromDouble(kind);
            }
            case RECIPROCAL -> {
                one(kind);
                push(x);
                arithmetic(Expr.BinaryOp.DIV, kind);
            }
            case RELU -> {
                if (integer) {
                    push(x);
                    cb.lconst_0();
                    cb.invokestatic(MATH, "max", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                } else {
                    // x > 0 || x != x ? x : 0 — one compare that counts NaN as greater
                    Label keep = cb.newLabel();
                    Label done = cb.newLabel();
                    push(x);
                    if (kind == ScalarKind.FLOAT) {
                        cb.fconst_0();
                        cb.fcmpg();
                    } else {
                        cb.dconst_0();
                        cb.dcmpg();
                    }
                    cb.ifgt(keep);
                    constant(0, kind);
                    cb.goto_(done);
                    cb.labelBinding(keep);
                    push(x);
                    cb.labelBinding(done);
                }
            }
            case NOT -> {
                push(x);
                cb.iconst_1();
                cb.ixor();
            }
            case SIGN -> {
                push(x);
                if (integer) {
                    cb.invokestatic(CD_Long, "signum", MethodTypeDesc.of(CD_int, CD_long));
                    cb.i2l();
                } else {
                    math("signum", kind);
                }
            }
            case FLOOR -> integerOr(x, "floor");
            case CEIL -> integerOr(x, "ceil");
            case ROUND -> integerOr(x, "rint");
            case TRUNC -> {
                push(x);
                if (!integer) {
                    widenToDouble(kind);
                    cb.invokestatic(RUNTIME, "trunc", MethodTypeDesc.of(CD_double, CD_double));
                    narrowFromDouble(kind);
                }
            }
        }
    }

    /** {@code x} itself for an integer, else {@code (t) Math.fn(x)}. */
    private void integerOr(Value x, String fn) {
        if (x.kind() == ScalarKind.LONG) push(x);
        else viaDouble(x, fn);
    }

    /** {@code (t) Math.fn(x)} for a {@code Math} function of doubles. */
    private void viaDouble(Value x, String fn) {
        push(x);
        widenToDouble(x.kind());
        cb.invokestatic(MATH, fn, MethodTypeDesc.of(CD_double, CD_double));
        narrowFromDouble(x.kind());
    }

    private void one(ScalarKind kind) {
        constant(1, kind);
    }

    private void negate(ScalarKind kind) {
        switch (kind) {
            case LONG -> cb.lneg();
            case FLOAT -> cb.fneg();
            case DOUBLE -> cb.dneg();
            case BOOL -> throw cannot("a negated boolean");
        }
    }

    /** {@code a op b} in {@code kind}, a's kind, with Java's binary numeric promotion of the operands. */
    private void binary(Expr.BinaryOp op, ScalarKind kind, Value a, Value b) {
        if (kind == ScalarKind.BOOL) {
            if (b.kind() != ScalarKind.BOOL) throw cannot(op + " of a boolean and a " + b.kind());
            push(a);
            push(b);
            switch (op) {
                case ADD, MAX, OR -> cb.ior();
                case MUL, MIN, AND -> cb.iand();
                case XOR, SUB, REMAINDER -> cb.ixor();
                case DIV, POW, FLOOR_DIV -> throw cannot(op + " of booleans");
            }
            return;
        }
        ScalarKind p = promote(a.kind(), b.kind());
        if (kind == ScalarKind.LONG && p != ScalarKind.LONG) throw cannot(op + " of an integer and a " + b.kind());
        switch (op) {
            case POW -> {
                push(a);
                if (kind == ScalarKind.LONG) {
                    push(b);
                    cb.invokestatic(RUNTIME, "ipow", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                } else {
                    widenToDouble(a.kind());
                    push(b);
                    widenToDouble(b.kind());
                    cb.invokestatic(MATH, "pow", MethodTypeDesc.of(CD_double, CD_double, CD_double));
                    narrowFromDouble(kind);
                }
                return;
            }
            case FLOOR_DIV -> {
                pushPromoted(a, b, p);
                if (kind == ScalarKind.LONG) {
                    cb.invokestatic(MATH, "floorDiv", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                } else {
                    arithmetic(Expr.BinaryOp.DIV, p);
                    widenToDouble(p);
                    cb.invokestatic(MATH, "floor", MethodTypeDesc.of(CD_double, CD_double));
                    narrowFromDouble(kind);
                }
                return;
            }
            case REMAINDER -> {
                pushPromoted(a, b, p);
                if (kind == ScalarKind.LONG) {
                    cb.invokestatic(MATH, "floorMod", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                } else {
                    ClassDesc t = desc(p);
                    cb.invokestatic(RUNTIME, "remainder", MethodTypeDesc.of(t, t, t));
                }
            }
            case MAX, MIN -> {
                pushPromoted(a, b, p);
                math(op == Expr.BinaryOp.MAX ? "max" : "min", p, p);
            }
            case ADD, SUB, MUL, DIV, AND, OR, XOR -> {
                pushPromoted(a, b, p);
                arithmetic(op, p);
            }
        }
        assign(p, kind);
    }

    /** {@code Math.fma(a, b, c)} in {@code kind}, a floating kind (the lowering builds no other). */
    private void fma(ScalarKind kind, Value a, Value b, Value c) {
        if (!kind.isFloating()) throw cannot("a fused multiply-add of " + kind);
        for (Value v : List.of(a, b, c)) {
            push(v);
            convert(v.kind(), kind);
        }
        ClassDesc t = desc(kind);
        cb.invokestatic(MATH, "fma", MethodTypeDesc.of(t, t, t, t));
        assign(kind, kind);
    }

    private void pushPromoted(Value a, Value b, ScalarKind p) {
        push(a);
        convert(a.kind(), p);
        push(b);
        convert(b.kind(), p);
    }

    /** The arithmetic instruction of {@code op} on two operands of {@code kind} on the stack. */
    private void arithmetic(Expr.BinaryOp op, ScalarKind kind) {
        TypeKind t = typeKind(kind);
        Opcode code =
                switch (op) {
                    case ADD -> pick(t, Opcode.LADD, Opcode.FADD, Opcode.DADD);
                    case SUB -> pick(t, Opcode.LSUB, Opcode.FSUB, Opcode.DSUB);
                    case MUL -> pick(t, Opcode.LMUL, Opcode.FMUL, Opcode.DMUL);
                    case DIV -> pick(t, Opcode.LDIV, Opcode.FDIV, Opcode.DDIV);
                    case AND -> pick(t, Opcode.LAND, null, null);
                    case OR -> pick(t, Opcode.LOR, null, null);
                    case XOR -> pick(t, Opcode.LXOR, null, null);
                    default -> null;
                };
        if (code == null) throw cannot(op + " of " + kind);
        cb.with(OperatorInstruction.of(code));
    }

    private static Opcode pick(TypeKind t, Opcode forLong, Opcode forFloat, Opcode forDouble) {
        return switch (t) {
            case LONG -> forLong;
            case FLOAT -> forFloat;
            case DOUBLE -> forDouble;
            default -> null;
        };
    }

    /** {@code a op b} as a boolean (0 or 1), comparing as Java does (NaN compares false except with !=). */
    private void compare(Expr.CompareOp op, Value a, Value b) {
        boolean bools = a.kind() == ScalarKind.BOOL;
        if (bools != (b.kind() == ScalarKind.BOOL)) throw cannot("a comparison of a boolean and a number");
        Opcode branch =
                switch (op) {
                    case EQ -> Opcode.IFEQ;
                    case NE -> Opcode.IFNE;
                    case LT -> Opcode.IFLT;
                    case LE -> Opcode.IFLE;
                    case GT -> Opcode.IFGT;
                    case GE -> Opcode.IFGE;
                };
        if (bools) {
            push(a);
            push(b);
            cb.isub();
            truth(branch);
            return;
        }
        ScalarKind p = promote(a.kind(), b.kind());
        pushPromoted(a, b, p);
        // fcmpg/dcmpg make NaN greater (so < and <= fail), fcmpl/dcmpl make it less (so >, >= and == fail)
        boolean lessTests = op == Expr.CompareOp.LT || op == Expr.CompareOp.LE;
        switch (p) {
            case LONG -> cb.lcmp();
            case FLOAT -> {
                if (lessTests) cb.fcmpg();
                else cb.fcmpl();
            }
            case DOUBLE -> {
                if (lessTests) cb.dcmpg();
                else cb.dcmpl();
            }
            case BOOL -> throw cannot("unreachable");
        }
        truth(branch);
    }

    /** Java's cast of the value on the stack from {@code from} to {@code to} ({@code x != 0} to bool). */
    private void cast(ScalarKind from, ScalarKind to) {
        if (to == ScalarKind.BOOL) {
            switch (from) {
                case LONG -> {
                    cb.lconst_0();
                    cb.lcmp();
                }
                case FLOAT -> {
                    cb.fconst_0();
                    cb.fcmpl();
                }
                case DOUBLE -> {
                    cb.dconst_0();
                    cb.dcmpl();
                }
                case BOOL -> {}
            }
            truth(Opcode.IFNE);
        } else if (from == ScalarKind.BOOL) {
            switch (to) {
                case LONG -> cb.i2l();
                case FLOAT -> cb.i2f();
                case DOUBLE -> cb.i2d();
                case BOOL -> {}
            }
        } else {
            convert(from, to);
        }
    }

    /**
     * Rounds {@code x} to {@code elem}'s precision and back, leaving it on the stack; false (and nothing pushed) when
     * that is {@code x} itself.
     */
    private boolean round(Value x, Elem elem) {
        ScalarKind kind = x.kind();
        switch (elem) {
            case FLOAT16 -> {
                push(x);
                assign(kind, ScalarKind.FLOAT);
                cb.invokestatic(CD_Float, "floatToFloat16", MethodTypeDesc.of(CD_short, CD_float));
                cb.invokestatic(CD_Float, "float16ToFloat", MethodTypeDesc.of(CD_float, CD_short));
                assign(ScalarKind.FLOAT, kind);
            }
            case BFLOAT16 -> {
                push(x);
                assign(kind, ScalarKind.FLOAT);
                cb.invokestatic(RUNTIME, "toBFloat16", MethodTypeDesc.of(CD_short, CD_float));
                bfloat16BitsToFloat();
                assign(ScalarKind.FLOAT, kind);
            }
            case FLOAT32 -> {
                if (kind != ScalarKind.DOUBLE) return false;
                push(x);
                cb.d2f();
                cb.f2d();
            }
            case INT32, INT16, INT8 -> {
                push(x);
                toInt(kind);
                if (elem == Elem.INT16) cb.i2s();
                if (elem == Elem.INT8) cb.i2b();
                cb.i2l();
                assign(ScalarKind.LONG, kind);
            }
            case UINT8 -> {
                if (kind != ScalarKind.LONG) throw cannot("a " + kind + " rounded to uint8");
                push(x);
                cb.loadConstant(0xFFL);
                cb.land();
            }
            case BOOL, INT64, FLOAT64 -> {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- conversions

    private static ScalarKind promote(ScalarKind a, ScalarKind b) {
        if (a == b) return a;
        if (a == ScalarKind.BOOL || b == ScalarKind.BOOL) throw cannot("a boolean mixed with a number");
        if (a == ScalarKind.DOUBLE || b == ScalarKind.DOUBLE) return ScalarKind.DOUBLE;
        if (a == ScalarKind.FLOAT || b == ScalarKind.FLOAT) return ScalarKind.FLOAT;
        return ScalarKind.LONG;
    }

    /** Java's assignment conversion: identity or a widening conversion, as a {@code final} local's initializer. */
    private void assign(ScalarKind from, ScalarKind to) {
        if (from == to) return;
        if (from.ordinal() > to.ordinal() || from == ScalarKind.BOOL) {
            throw cannot("a " + from + " value assigned to a " + to);
        }
        convert(from, to);
    }

    /** Java's primitive conversion of the number on the stack. */
    private void convert(ScalarKind from, ScalarKind to) {
        if (from == to) return;
        switch (from) {
            case LONG -> {
                if (to == ScalarKind.FLOAT) cb.l2f();
                else if (to == ScalarKind.DOUBLE) cb.l2d();
                else throw cannot("a long converted to " + to);
            }
            case FLOAT -> {
                if (to == ScalarKind.LONG) cb.f2l();
                else if (to == ScalarKind.DOUBLE) cb.f2d();
                else throw cannot("a float converted to " + to);
            }
            case DOUBLE -> {
                if (to == ScalarKind.LONG) cb.d2l();
                else if (to == ScalarKind.FLOAT) cb.d2f();
                else throw cannot("a double converted to " + to);
            }
            case BOOL -> throw cannot("a boolean converted to " + to);
        }
    }

    /** The number on the stack as an int (Java's narrowing, through int for floating point). */
    private void toInt(ScalarKind kind) {
        switch (kind) {
            case LONG -> cb.l2i();
            case FLOAT -> cb.f2i();
            case DOUBLE -> cb.d2i();
            case BOOL -> throw cannot("a boolean converted to an integer");
        }
    }

    private void widenToDouble(ScalarKind kind) {
        convert(kind, ScalarKind.DOUBLE);
    }

    private void narrowFromDouble(ScalarKind kind) {
        convert(ScalarKind.DOUBLE, kind);
    }

    /** {@code Math.fn} of the operand(s) on the stack, the overload of {@code kind}. */
    private void math(String fn, ScalarKind kind) {
        ClassDesc t = desc(kind);
        cb.invokestatic(MATH, fn, MethodTypeDesc.of(t, t));
    }

    private void math(String fn, ScalarKind a, ScalarKind b) {
        ClassDesc t = desc(a);
        cb.invokestatic(MATH, fn, MethodTypeDesc.of(t, t, desc(b)));
    }

    private static ClassDesc desc(ScalarKind kind) {
        return switch (kind) {
            case BOOL -> CD_boolean;
            case LONG -> CD_long;
            case FLOAT -> CD_float;
            case DOUBLE -> CD_double;
        };
    }

    private static TypeKind typeKind(ScalarKind kind) {
        return switch (kind) {
            case BOOL -> TypeKind.INT;
            case LONG -> TypeKind.LONG;
            case FLOAT -> TypeKind.FLOAT;
            case DOUBLE -> TypeKind.DOUBLE;
        };
    }

    private static ClassDesc arrayDesc(Elem elem) {
        return switch (elem) {
            case BOOL, UINT8, INT8 -> ClassDesc.ofDescriptor("[B");
            case INT16, FLOAT16, BFLOAT16 -> ClassDesc.ofDescriptor("[S");
            case INT32 -> ClassDesc.ofDescriptor("[I");
            case INT64 -> ClassDesc.ofDescriptor("[J");
            case FLOAT32 -> ClassDesc.ofDescriptor("[F");
            case FLOAT64 -> ClassDesc.ofDescriptor("[D");
        };
    }

    /** An expression the listing could not compile either (the lowering never builds one). */
    private static IllegalStateException cannot(String what) {
        return new IllegalStateException("inductor: no kernel code for " + what);
    }

    // ---------------------------------------------------------------- vector code

    private int vector(Expr e, Map<Expr, Integer> memo, int j) {
        Integer known = memo.get(e);
        if (known != null) return known;
        switch (e) {
            case Expr.Load l -> {
                int id = layout.id(l.buffer(), l.access());
                cb.getstatic(self, "S", SPECIES);
                cb.aload(buffer[l.buffer()]);
                if (layout.innermostStride(l.access()) == 0) {
                    cb.lload(element[id]);
                    cb.l2i();
                    cb.faload();
                    cb.invokestatic(FLOAT_VECTOR, "broadcast", BROADCAST);
                } else {
                    arrayIndex(id, j);
                    cb.invokestatic(
                            FLOAT_VECTOR,
                            "fromArray",
                            MethodTypeDesc.of(FLOAT_VECTOR, SPECIES, CD_float.arrayType(), CD_int));
                }
            }
            case Expr.Constant c -> {
                cb.getstatic(self, "S", SPECIES);
                if (c.kind() == ScalarKind.BOOL) {
                    cb.loadConstant(c.value() != 0 ? 1 : 0);
                    cb.invokeinterface(SPECIES, "maskAll", MethodTypeDesc.of(MASK, CD_boolean));
                } else {
                    cb.loadConstant(floatConstant(c.value()));
                    cb.invokestatic(FLOAT_VECTOR, "broadcast", BROADCAST);
                }
            }
            case Expr.Unary u -> vectorUnary(u.op(), vector(u.x(), memo, j));
            case Expr.Binary b -> {
                int x = vector(b.a(), memo, j);
                int y = vector(b.b(), memo, j);
                cb.aload(x);
                if (b.op() == Expr.BinaryOp.POW) {
                    cb.getstatic(OPERATORS, "POW", BINARY);
                    cb.aload(y);
                    cb.invokevirtual(FLOAT_VECTOR, "lanewise", MethodTypeDesc.of(FLOAT_VECTOR, BINARY, VECTOR));
                } else {
                    cb.aload(y);
                    cb.invokevirtual(FLOAT_VECTOR, vectorMethod(b.op()), VECTOR_TO_VECTOR);
                }
            }
            case Expr.Compare c -> {
                int x = vector(c.a(), memo, j);
                int y = vector(c.b(), memo, j);
                cb.aload(x);
                cb.getstatic(OPERATORS, c.op().name(), COMPARISON);
                cb.aload(y);
                cb.invokevirtual(FLOAT_VECTOR, "compare", MethodTypeDesc.of(MASK, COMPARISON, VECTOR));
            }
            case Expr.Fma f -> {
                int a = vector(f.a(), memo, j);
                int b = vector(f.b(), memo, j);
                int c = vector(f.c(), memo, j);
                cb.aload(a);
                cb.aload(b);
                cb.aload(c);
                cb.invokevirtual(FLOAT_VECTOR, "fma", MethodTypeDesc.of(FLOAT_VECTOR, VECTOR, VECTOR));
            }
            case Expr.Where w -> {
                int cond = vector(w.cond(), memo, j);
                int a = vector(w.a(), memo, j);
                int b = vector(w.b(), memo, j);
                cb.aload(b);
                cb.aload(a);
                cb.aload(cond);
                cb.invokevirtual(FLOAT_VECTOR, "blend", MethodTypeDesc.of(FLOAT_VECTOR, VECTOR, MASK));
            }
            case Expr.Cast c -> {
                int x = vector(c.x(), memo, j);
                memo.put(e, x);
                return x;
            }
            case Expr.Round r -> {
                int x = vector(r.x(), memo, j);
                memo.put(e, x);
                return x;
            }
            case Expr.RowValue r -> {
                cb.getstatic(self, "S", SPECIES);
                cb.fload(rowValue[r.reduction()]);
                cb.invokestatic(FLOAT_VECTOR, "broadcast", BROADCAST);
            }
            case Expr.IndirectLoad l -> throw new IllegalStateException("no vector form: " + l);
            case Expr.Index i -> throw new IllegalStateException("no vector form: " + i);
            case Expr.Masked m -> throw new IllegalStateException("no vector form: " + m);
        }
        int slot = cb.allocateLocal(TypeKind.REFERENCE);
        cb.astore(slot);
        memo.put(e, slot);
        return slot;
    }

    private static String vectorMethod(Expr.BinaryOp op) {
        return switch (op) {
            case ADD -> "add";
            case SUB -> "sub";
            case MUL -> "mul";
            case DIV -> "div";
            case MAX -> "max";
            case MIN -> "min";
            default -> throw new IllegalStateException("no vector form: " + op);
        };
    }

    /** The vector form of {@code op} on the vector in slot {@code x}, left on the stack. */
    private void vectorUnary(Expr.UnaryOp op, int x) {
        switch (op) {
            case NEG -> {
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "neg", TO_VECTOR);
            }
            case ABS -> {
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "abs", TO_VECTOR);
            }
            case SQRT -> {
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "sqrt", TO_VECTOR);
            }
            case EXP, LOG, LOG1P, EXPM1, TANH, SIN, COS -> {
                cb.aload(x);
                lanewise(op.name());
            }
            case RSQRT -> {
                broadcastOne();
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "sqrt", TO_VECTOR);
                cb.invokevirtual(FLOAT_VECTOR, "div", VECTOR_TO_VECTOR);
            }
            case SIGMOID -> {
                broadcastOne();
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "neg", TO_VECTOR);
                lanewise("EXP");
                cb.fconst_1();
                cb.invokevirtual(FLOAT_VECTOR, "add", MethodTypeDesc.of(FLOAT_VECTOR, CD_float));
                cb.invokevirtual(FLOAT_VECTOR, "div", VECTOR_TO_VECTOR);
            }
            case RECIPROCAL -> {
                broadcastOne();
                cb.aload(x);
                cb.invokevirtual(FLOAT_VECTOR, "div", VECTOR_TO_VECTOR);
            }
            case ERF -> {
                cb.aload(x);
                cb.invokestatic(RUNTIME, "erf", MethodTypeDesc.of(FLOAT_VECTOR, FLOAT_VECTOR));
            }
            case RELU -> {
                cb.aload(x);
                cb.invokestatic(RUNTIME, "relu", MethodTypeDesc.of(FLOAT_VECTOR, FLOAT_VECTOR));
            }
            default -> throw new IllegalStateException("no vector form: " + op);
        }
    }

    private void lanewise(String operator) {
        cb.getstatic(OPERATORS, operator, UNARY);
        cb.invokevirtual(FLOAT_VECTOR, "lanewise", MethodTypeDesc.of(FLOAT_VECTOR, UNARY));
    }

    private void broadcastOne() {
        cb.getstatic(self, "S", SPECIES);
        cb.fconst_1();
        cb.invokestatic(FLOAT_VECTOR, "broadcast", BROADCAST);
    }
}

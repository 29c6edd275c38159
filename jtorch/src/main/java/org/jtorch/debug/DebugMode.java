package org.jtorch.debug;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import org.jtorch.Device;
import org.jtorch.Scalar;
import org.jtorch.Tensor;
import org.jtorch.debug.DebugRecord.TensorInfo;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.dispatch.Schema;
import org.jtorch.ops.OpDef;

/**
 * {@code torch.utils._debug_mode.DebugMode}: while open, records every op dispatched on the opening thread, including
 * the ops that composite ops run (one level deeper), and renders them as PyTorch's {@code debug_string()} does:
 *
 * <pre>
 *     aten::matmul(t: f32[3], t: f32[3, 4])  -&gt;  t: f32[4]
 *       aten::unsqueeze(t: f32[3], 0)  -&gt;  t: f32[1, 3]
 *       aten::mm(t: f32[1, 3], t: f32[3, 4])  -&gt;  t: f32[1, 4]
 *       aten::squeeze.dims(t: f32[1, 4], [0])  -&gt;  t: f32[4]
 * </pre>
 *
 * Each line is indented by two spaces plus two per nesting level (ops called by user code are at depth 1). With tensor
 * hashing on, a line ends in {@code # {'hash': ..., 'input_hash': ((...), {...})}} (the output hashes, then the hashes
 * of the positional and keyword arguments; {@code None} for non-tensors and meta tensors). Inputs are hashed before the
 * op runs and outputs after it.
 *
 * <p>Inside a graph compiled by the {@code "inductor"} backend, extern calls are ops like any other, and each generated
 * kernel's launch is a line of its own, {@code [java] K_relu_…(in_ptr0=t: f32[8], out_ptr0=t: f32[8])} (PyTorch's
 * {@code [triton]} lines), whose hashes are its inputs' before it runs and its outputs' after, computed as for ops, so
 * a compiled run's log can be compared with an eager run's ({@link #kernelLaunch}).
 *
 * <p>The mode never changes results: it passes every op on unchanged and reads tensors without dispatching. Ops run
 * through {@code Dispatcher.callOut} (the {@code out=} and in-place forms) do not pass the mode stack and are not
 * recorded. A DebugMode belongs to the thread that opened it: other threads' ops are not seen, and it must be closed on
 * that thread, innermost mode first.
 *
 * <pre>{@code
 * try (DebugMode dm = DebugMode.open(true)) {
 *     y = x.matmul(w).relu();
 * }
 * System.out.println(dm.log());
 * }</pre>
 */
public final class DebugMode implements AutoCloseable {
    /** Attributes that {@link Options#tensorAttributes()} can print after a tensor, as {@code {device=cpu}}. */
    private static final Set<String> TENSOR_ATTRIBUTES = Set.of("device", "requires_grad");

    /**
     * What a DebugMode records (PyTorch's constructor flags and {@code log_tensor_hashes} arguments).
     *
     * @param hashTensors hash tensors ({@code log_tensor_hashes} for the whole mode)
     * @param hashFn the hash function; {@link HashFn#BITS} by default, to detect any bitwise change
     * @param hashInputs also hash the inputs ({@code hash_inputs}), when hashing
     * @param recordOutput print each call's result after {@code -> } ({@code record_output})
     * @param recordIds suffix tensors with a stable id, {@code t$3}, to follow them across lines ({@code record_ids})
     * @param tensorAttributes attributes to print after each tensor ({@code record_tensor_attributes}): {@code device},
     *     {@code requires_grad}
     */
    public record Options(
            boolean hashTensors,
            HashFn hashFn,
            boolean hashInputs,
            boolean recordOutput,
            boolean recordIds,
            List<String> tensorAttributes) {
        /** PyTorch's defaults: outputs printed, no hashes, no ids, no attributes. */
        public static final Options DEFAULTS = new Options(false, HashFn.BITS, true, true, false, List.of());

        /** Checks the tensor attributes against those DebugMode can record ({@code device}, {@code requires_grad}). */
        public Options {
            Objects.requireNonNull(hashFn, "hashFn");
            tensorAttributes = List.copyOf(tensorAttributes);
            for (String a : tensorAttributes) {
                if (!TENSOR_ATTRIBUTES.contains(a)) {
                    throw new IllegalArgumentException(
                            "DebugMode: unknown tensor attribute '" + a + "' (supported: device, requires_grad)");
                }
            }
        }

        /** Hash every tensor the mode sees. */
        public Options withHashTensors(boolean on) {
            return new Options(on, hashFn, hashInputs, recordOutput, recordIds, tensorAttributes);
        }

        /** The hash function. */
        public Options withHashFn(HashFn fn) {
            return new Options(hashTensors, fn, hashInputs, recordOutput, recordIds, tensorAttributes);
        }

        /** Also hash inputs ({@code hash_inputs}). */
        public Options withHashInputs(boolean on) {
            return new Options(hashTensors, hashFn, on, recordOutput, recordIds, tensorAttributes);
        }

        /** Print results ({@code record_output}). */
        public Options withRecordOutput(boolean on) {
            return new Options(hashTensors, hashFn, hashInputs, on, recordIds, tensorAttributes);
        }

        /** Print tensor ids ({@code record_ids}). */
        public Options withRecordIds(boolean on) {
            return new Options(hashTensors, hashFn, hashInputs, recordOutput, on, tensorAttributes);
        }

        /** Attributes to print after each tensor ({@code record_tensor_attributes}). */
        public Options withTensorAttributes(String... names) {
            return new Options(hashTensors, hashFn, hashInputs, recordOutput, recordIds, List.of(names));
        }
    }

    /** A scope that undoes its setting when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Where two logs first differ: the first call, in the order calls returned, whose output hashes differ
     * ({@link Kind#OUTPUT}), or, if none did before the logs stop matching call for call, the first call that differs
     * in op, arguments, nesting or outcome ({@link Kind#CALL}).
     *
     * @param index position of the call in the logs
     * @param left the call in the first log ({@code null} if that log ended first)
     * @param right the call in the second log ({@code null} if that log ended first)
     * @param output for {@link Kind#OUTPUT}, the index of the first differing output tensor; else -1
     */
    public record Divergence(Kind kind, int index, DebugRecord left, DebugRecord right, int output) {
        /** What differs. */
        public enum Kind {
            /** The same call, with an output tensor whose hash differs. */
            OUTPUT,
            /** A different call (another op, other arguments), or one log ended first. */
            CALL
        }

        /** The op at the divergence, {@code aten::name.overload}. */
        public String op() {
            return left != null ? left.op() : right.op();
        }

        @Override
        public String toString() {
            if (kind == Kind.OUTPUT) {
                return op() + " (record " + index + "): output " + output + " hash " + hashAt(left) + " vs "
                        + hashAt(right);
            }
            return "record " + index + ": " + (left == null ? "<end of log>" : left.line()) + " vs "
                    + (right == null ? "<end of log>" : right.line());
        }

        private String hashAt(DebugRecord r) {
            return output < r.outputs().size()
                    ? String.valueOf(r.outputs().get(output).hash())
                    : "<no output>";
        }
    }

    private record Hashing(HashFn fn, boolean inputs) {}

    private static final ThreadLocal<Hashing> HASH_REGION = new ThreadLocal<>();

    /** A call being recorded; frozen into a {@link DebugRecord} when read. */
    private static final class Call {
        final int index, depth;
        final String op, args;
        final List<TensorInfo> inputs;
        String output, annotation;
        List<TensorInfo> outputs = List.of();
        int returnOrder = -1;

        Call(int index, int depth, String op, String args, List<TensorInfo> inputs) {
            this.index = index;
            this.depth = depth;
            this.op = op;
            this.args = args;
            this.inputs = inputs;
        }

        DebugRecord freeze() {
            return new DebugRecord(index, depth, op, args, output, annotation, inputs, outputs, returnOrder);
        }
    }

    private final Options options;
    private final Hashing ownHashing;
    private final Thread owner = Thread.currentThread();
    private final List<Call> calls = new ArrayList<>();
    // Tensors do not override equals/hashCode, so this is an identity map that lets dead tensors go.
    private final Map<Tensor, Integer> ids = new WeakHashMap<>();
    private final DispatchState.Scope scope;
    private int nextId;
    private int depth;
    private int returned;
    private boolean closed;

    private DebugMode(Options options) {
        this.options = options;
        this.ownHashing = options.hashTensors() ? new Hashing(options.hashFn(), options.hashInputs()) : null;
        this.scope = DispatchState.enter(DispatchState.Kind.DEBUG, new Recorder());
    }

    /** The mode on the dispatch stack: records the ops that reach it, and names its DebugMode for kernel launches. */
    private final class Recorder implements Dispatcher.Mode {
        @Override
        public Object process(Operator op, Object[] args, Dispatcher.Next next) {
            return DebugMode.this.process(op, args, next);
        }

        DebugMode owner() {
            return DebugMode.this;
        }
    }

    /**
     * A generated kernel's launch being recorded (PyTorch's {@code [triton]} lines, here {@code [java]}): {@link #done}
     * records its outputs once it has run.
     */
    public interface KernelLaunch {
        /** Records the kernel's outputs, hashed when hashing is on; call once, after the kernel has run. */
        void done();
    }

    /**
     * Records a compiled graph's launch of the generated kernel {@code kernel} in every DebugMode in effect on this
     * thread, as a line {@code [java] kernel(in_ptr0=t: f32[4], out_ptr0=t: f32[4])} at the depth an op called there
     * would have. With hashing on, {@code inputs} are hashed now (when inputs are hashed) and {@code outputs} by
     * {@link KernelLaunch#done}, as DebugMode hashes an op's tensors, so a compiled graph's log can be compared with an
     * eager run's. Returns null when no DebugMode is in effect.
     */
    public static KernelLaunch kernelLaunch(String kernel, List<Tensor> inputs, List<Tensor> outputs) {
        List<Runnable> finishers = new ArrayList<>();
        for (DispatchState.Interpreter i : DispatchState.allInEffect(DispatchState.Kind.DEBUG)) {
            if (i.mode() instanceof DebugMode.Recorder r) {
                finishers.add(r.owner().recordKernel(kernel, inputs, outputs));
            }
        }
        if (finishers.isEmpty()) return null;
        return () -> finishers.forEach(Runnable::run);
    }

    private Runnable recordKernel(String kernel, List<Tensor> inputs, List<Tensor> outputs) {
        Hashing hashing = HASH_REGION.get() != null ? HASH_REGION.get() : ownHashing;
        HashFn inputFn = hashing != null && hashing.inputs() ? hashing.fn() : null;
        StringBuilder args = new StringBuilder();
        List<TensorInfo> inputInfo = new ArrayList<>();
        boolean[] anyHash = {false};
        List<String> preHashes = new ArrayList<>();
        for (int k = 0; k < inputs.size(); k++) {
            if (k > 0) args.append(", ");
            args.append("in_ptr").append(k).append('=').append(tensorName(inputs.get(k)));
            preHashes.add("in_ptr" + k + ": " + hashTree(inputs.get(k), inputInfo, inputFn, false, anyHash));
        }
        for (int k = 0; k < outputs.size(); k++) {
            if (!args.isEmpty()) args.append(", ");
            args.append("out_ptr").append(k).append('=').append(tensorName(outputs.get(k)));
        }
        Call call = new Call(calls.size(), depth + 1, "[java] " + kernel, args.toString(), inputInfo);
        calls.add(call);
        return () -> {
            List<TensorInfo> outputInfo = new ArrayList<>();
            List<String> postHashes = new ArrayList<>();
            for (int k = 0; k < outputs.size(); k++) {
                String h = hashTree(outputs.get(k), outputInfo, hashing != null ? hashing.fn() : null, false, anyHash);
                postHashes.add("out_ptr" + k + ": " + h);
            }
            call.outputs = outputInfo;
            if (hashing != null && anyHash[0]) {
                StringBuilder sb = new StringBuilder();
                if (inputFn != null) {
                    sb.append("pre-kernel hashes: {")
                            .append(String.join(", ", preHashes))
                            .append("}, ");
                }
                call.annotation = sb.append("post-kernel hashes: {")
                        .append(String.join(", ", postHashes))
                        .append('}')
                        .toString();
            }
            call.returnOrder = returned++;
        };
    }

    /**
     * Opens a DebugMode on this thread with PyTorch's defaults, hashing every input and output with {@link HashFn#BITS}
     * if asked.
     */
    public static DebugMode open(boolean hashTensors) {
        return open(Options.DEFAULTS.withHashTensors(hashTensors));
    }

    /** Opens a DebugMode on this thread ({@code with DebugMode(...) as dm}). */
    public static DebugMode open(Options options) {
        return new DebugMode(Objects.requireNonNull(options, "options"));
    }

    /**
     * {@code DebugMode.log_tensor_hashes(hash_fn, hash_inputs)}: until the scope closes, every DebugMode open on this
     * thread hashes with {@code fn}, overriding its own options.
     */
    public static Scope logTensorHashes(HashFn fn, boolean hashInputs) {
        Hashing before = HASH_REGION.get();
        Hashing mine = new Hashing(Objects.requireNonNull(fn, "fn"), hashInputs);
        HASH_REGION.set(mine);
        boolean[] done = {false};
        return () -> {
            if (done[0]) return;
            if (HASH_REGION.get() != mine)
                throw new IllegalStateException("logTensorHashes scopes closed out of order");
            HASH_REGION.set(before);
            done[0] = true;
        };
    }

    /** The options this mode was opened with. */
    public Options options() {
        return options;
    }

    /** {@code debug_string()}: one indented line per recorded call. */
    public String log() {
        StringBuilder sb = new StringBuilder();
        for (Call c : calls) {
            if (!sb.isEmpty()) sb.append('\n');
            sb.append("  ".repeat(c.depth + 1)).append(c.freeze().line());
        }
        return sb.toString();
    }

    /** {@code operators}: the recorded calls, in log order (a snapshot). */
    public List<DebugRecord> records() {
        List<DebugRecord> out = new ArrayList<>(calls.size());
        for (Call c : calls) out.add(c.freeze());
        return List.copyOf(out);
    }

    /** Stops recording. Idempotent; must run on the opening thread, after any mode opened inside this one closed. */
    @Override
    public void close() {
        if (closed) return;
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException(
                    "DebugMode must be closed on the thread that opened it (" + owner.getName() + ")");
        }
        scope.close();
        closed = true;
    }

    /** {@link #firstDivergence(List, List)} of two modes' records. */
    public static Optional<Divergence> firstDivergence(DebugMode a, DebugMode b) {
        return firstDivergence(a.records(), b.records());
    }

    /**
     * The first place where two runs of the same program differ: the op whose outputs differ first, or the first call
     * that differs. Both logs need output hashes ({@code hashTensors}) made with the same {@link HashFn}; empty when
     * the logs agree.
     *
     * @throws IllegalArgumentException if a compared call has real output tensors without hashes, or hashes made by
     *     different functions
     */
    public static Optional<Divergence> firstDivergence(List<DebugRecord> a, List<DebugRecord> b) {
        int common = Math.min(a.size(), b.size());
        int s = 0;
        while (s < common && sameCall(a.get(s), b.get(s))) s++;
        boolean callsDiffer = s < a.size() || s < b.size();
        // The calls still open when call s started returned after it, so their outputs may depend on it.
        boolean[] open = new boolean[s];
        if (callsDiffer) {
            int d = s < common
                    ? Math.min(a.get(s).depth(), b.get(s).depth())
                    : (s < a.size() ? a : b).get(s).depth();
            for (int i = s - 1; i >= 0 && d > 1; i--) {
                if (a.get(i).depth() == d - 1) {
                    open[i] = true;
                    d--;
                }
            }
        }
        int first = -1, firstOutput = -1;
        for (int i = 0; i < s; i++) {
            DebugRecord x = a.get(i);
            if (open[i] || !x.returned()) continue;
            int out = differingOutput(i, x, b.get(i));
            if (out >= 0 && (first < 0 || x.returnOrder() < a.get(first).returnOrder())) {
                first = i;
                firstOutput = out;
            }
        }
        if (first >= 0)
            return Optional.of(new Divergence(Divergence.Kind.OUTPUT, first, a.get(first), b.get(first), firstOutput));
        if (callsDiffer) {
            return Optional.of(new Divergence(
                    Divergence.Kind.CALL, s, s < a.size() ? a.get(s) : null, s < b.size() ? b.get(s) : null, -1));
        }
        return Optional.empty();
    }

    private static boolean sameCall(DebugRecord x, DebugRecord y) {
        return x.op().equals(y.op())
                && x.depth() == y.depth()
                && x.args().equals(y.args())
                && x.returned() == y.returned();
    }

    /** Index of the first output whose hash differs, or -1. */
    private static int differingOutput(int index, DebugRecord x, DebugRecord y) {
        if (x.outputs().size() != y.outputs().size()) return 0;
        for (int k = 0; k < x.outputs().size(); k++) {
            TensorInfo ox = x.outputs().get(k), oy = y.outputs().get(k);
            TensorHash hx = ox.hash(), hy = oy.hash();
            if (hx == null && hy == null && ox.device() == Device.META && oy.device() == Device.META) continue;
            if (hx == null || hy == null) {
                throw new IllegalArgumentException("firstDivergence: record " + index + " (" + x.op() + ") output " + k
                        + " has no hash in "
                        + (hx == null && hy == null ? "either log" : hx == null ? "the first log" : "the second log")
                        + "; open both DebugModes with hashTensors");
            }
            if (hx.fn() != hy.fn()) {
                throw new IllegalArgumentException("firstDivergence: record " + index + " (" + x.op()
                        + ") was hashed with " + hx.fn() + " in one log and " + hy.fn() + " in the other");
            }
            if (!hx.equals(hy)) return k;
        }
        return -1;
    }

    // ---- the interpreter ----------------------------------------------------------------------------

    private Object process(Operator operator, Object[] args, Dispatcher.Next next) {

        OpDef op = (OpDef) operator;
        Schema schema = op.schema();
        CallFormat.Layout layout = CallFormat.layout(schema, args);
        Hashing hashing = HASH_REGION.get() != null ? HASH_REGION.get() : ownHashing;
        HashFn inputFn = hashing != null && hashing.inputs() ? hashing.fn() : null;
        String argText = CallFormat.args(schema, layout, args, this::tensorName);
        List<TensorInfo> inputs = new ArrayList<>();
        boolean[] anyHash = {false};
        String[] inputHashes = new String[args.length];
        for (int i = 0; i < args.length; i++) inputHashes[i] = hashTree(args[i], inputs, inputFn, false, anyHash);
        Call call = new Call(calls.size(), depth + 1, schema.qualifiedName(), argText, inputs);
        calls.add(call);
        Object result;
        depth++;
        try {
            result = next.call(op, args);
        } finally {
            depth--;
        }
        List<TensorInfo> outputs = new ArrayList<>();
        String outputHashes =
                hashTree(result, outputs, hashing != null ? hashing.fn() : null, schema.returnsTuple(), anyHash);
        call.outputs = outputs;
        if (options.recordOutput() && result != null) call.output = outputText(result, schema.returnsTuple());
        if (hashing != null && anyHash[0]) {
            StringBuilder sb = new StringBuilder("{'hash': ").append(outputHashes);
            if (hashing.inputs()) sb.append(", 'input_hash': ").append(inputTree(schema, layout, inputHashes));
            call.annotation = sb.append('}').toString();
        }
        call.returnOrder = returned++;
        return result;
    }

    /** {@code ((positional hashes), {'keyword': hash})}, the shape of PyTorch's {@code input_hash}. */
    private static String inputTree(Schema schema, CallFormat.Layout layout, String[] hashes) {
        StringBuilder sb = new StringBuilder("((");
        for (int i = 0; i < layout.positional(); i++) {
            if (i > 0) sb.append(", ");
            sb.append(i < hashes.length ? hashes[i] : "None");
        }
        if (layout.positional() == 1) sb.append(',');
        sb.append("), {");
        int[] kw = layout.keywords();
        for (int j = 0; j < kw.length; j++) {
            if (j > 0) sb.append(", ");
            String hash = kw[j] < hashes.length ? hashes[kw[j]] : "None";
            sb.append('\'')
                    .append(schema.arguments().get(kw[j]).name())
                    .append("': ")
                    .append(hash);
        }
        return sb.append("})").toString();
    }

    /**
     * Collects the tensors in {@code v} into {@code sink} (hashed with {@code fn} unless null or meta) and returns
     * their hashes printed in {@code v}'s structure, {@code None} for everything else.
     */
    private static String hashTree(Object v, List<TensorInfo> sink, HashFn fn, boolean tuple, boolean[] anyHash) {
        return switch (v) {
            case Tensor t -> {
                TensorHash h = fn == null || t.isMeta() ? null : TensorHash.of(t, fn);
                sink.add(new TensorInfo(t.dtype(), t.impl().shapeRef(), t.device(), h));
                if (h != null) anyHash[0] = true;
                yield h == null ? "None" : h.toString();
            }
            case Object[] arr -> {
                List<String> parts = new ArrayList<>();
                for (Object o : arr) parts.add(hashTree(o, sink, fn, false, anyHash));
                yield tuple ? pyTuple(parts) : "[" + String.join(", ", parts) + "]";
            }
            case List<?> list -> hashTree(list.toArray(), sink, fn, false, anyHash);
            case Scalar s -> "None";
            case Record r -> hashTree(CallFormat.components(r).toArray(), sink, fn, true, anyHash);
            case null, default -> "None";
        };
    }

    private static String pyTuple(List<String> parts) {
        return parts.size() == 1 ? "(" + parts.get(0) + ",)" : "(" + String.join(", ", parts) + ")";
    }

    private String outputText(Object result, boolean tuple) {
        return switch (result) {
            case Tensor t -> tensorName(t);
            case Object[] arr when tuple -> CallFormat.tuple(Arrays.asList(arr), this::tensorName);
            case Record r when !(r instanceof Scalar) -> CallFormat.tuple(CallFormat.components(r), this::tensorName);
            default -> CallFormat.str(result, this::tensorName);
        };
    }

    /** {@code t: f32[2, 3]}, with {@code $id} and {@code {attr=value}} when asked. */
    private String tensorName(Tensor t) {
        StringBuilder sb = new StringBuilder("t");
        if (options.recordIds()) sb.append('$').append(ids.computeIfAbsent(t, k -> nextId++));
        sb.append(": ")
                .append(t.dtype().abbreviation())
                .append(CallFormat.repr(t.impl().shapeRef(), null));
        List<String> attrs = options.tensorAttributes();
        if (!attrs.isEmpty()) {
            sb.append('{');
            for (int i = 0; i < attrs.size(); i++) {
                if (i > 0) sb.append(", ");
                String a = attrs.get(i);
                sb.append(a)
                        .append('=')
                        .append(a.equals("device") ? t.device().type() : t.requiresGrad() ? "True" : "False");
            }
            sb.append('}');
        }
        return sb.toString();
    }
}

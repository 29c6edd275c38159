package org.jtorch.compile.trace;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;

/**
 * The structured trace of compiles, PyTorch's {@code TORCH_TRACE} ({@code torch._logging.trace_structured}): one record
 * per event of a compile, written to {@code dedicated_log_torch_trace_rank_<r>_<suffix>.log} in the trace directory,
 * readable by {@code tlparse} and by JTorch's report ({@code bin/jtorch-trace DIR}).
 *
 * <p>Tracing is on when the system property {@code jtorch.trace.dir} (which wins) or the environment variable
 * {@code TORCH_TRACE} names a directory when this class is first used, or after {@link #start(Path)}. The rank in the
 * file name and in each record's {@code rank} key is the environment variable {@code RANK} (as {@code torchrun} sets
 * it); without it the file is rank 0's and records carry no {@code rank}.
 *
 * <p>Every event method returns at once when tracing is off (one volatile read), so a compiler calls them
 * unconditionally; graph payloads are printed only when tracing is on. Payloads given as strings are computed by the
 * caller: guard an expensive one with {@link #enabled()}. The methods are safe to call from any thread; each record is
 * written whole.
 *
 * <p>A compile's records, in the order PyTorch writes them:
 *
 * <pre>{@code
 * CompileId id = CompileId.of(0, 0);
 * try (Span compile = StructuredTrace.span(id, "entire_frame_compile")) {
 *     StructuredTrace.dynamoStart(id, userFrames);
 *     StructuredTrace.dynamoOutputGraph(id, captured);
 *     StructuredTrace.aotJointGraph(id, joint);
 *     StructuredTrace.aotForwardGraph(id, forward);
 *     StructuredTrace.aotBackwardGraph(id, backward);
 *     StructuredTrace.inductorPostGradGraph(id, postGrad);
 *     StructuredTrace.inductorOutputCode(id, "Kernel0.java", source);
 *     StructuredTrace.dynamoGuards(id, List.of("x.shape == (2, 3)", "x.dtype == torch.float32"));
 * }
 * StructuredTrace.compilationMetrics(id, Map.of("co_name", "forward", "graph_op_count", 2));
 * }</pre>
 */
public final class StructuredTrace {
    /** The property naming the trace directory; it wins over the environment variable {@code TORCH_TRACE}. */
    public static final String DIRECTORY_PROPERTY = "jtorch.trace.dir";

    private static volatile TraceFile current = configured();

    private StructuredTrace() {}

    /** Whether records are being written. */
    public static boolean enabled() {
        return current != null;
    }

    /**
     * Writes the trace to a new file in {@code directory} from now on (the programmatic counterpart of
     * {@code TORCH_TRACE}), instead of the file written so far, which is closed. Closing the returned file turns
     * tracing off.
     */
    public static TraceFile start(Path directory) {
        return start(directory, rankFromEnvironment());
    }

    static synchronized TraceFile start(Path directory, Integer rank) {
        TraceFile previous = current;
        current = new TraceFile(directory, rank);
        if (previous != null) previous.close();
        return current;
    }

    static synchronized void detach(TraceFile file) {
        if (current == file) current = null;
    }

    /**
     * {@code dynamo_start}: a compile begins, called from {@code stack} (Java's order, innermost call first, as
     * {@link Thread#getStackTrace()} gives it, whose own frame is dropped; written outermost first, with file names
     * interned). The report builds its tree of compiled call sites from these stacks, so pass the user's frames,
     * without the compiler's own.
     */
    public static void dynamoStart(CompileId id, StackTraceElement[] stack) {
        TraceFile file = current;
        if (file == null) return;
        emit(file, "dynamo_start", Map.of("stack", frames(file, withoutGetStackTrace(stack))), id, null);
    }

    /** {@code dynamo_output_graph}: the captured graph, with the sizes of its values in the metadata. */
    public static void dynamoOutputGraph(CompileId id, GraphModule graph) {
        TraceFile file = current;
        if (file == null) return;
        emit(file, "dynamo_output_graph", Map.of("sizes", sizes(graph)), id, graph.printReadable());
    }

    /** {@code aot_joint_graph}: AOT autograd's joint forward and backward graph. */
    public static void aotJointGraph(CompileId id, GraphModule graph) {
        graph(id, "aot_joint_graph", graph);
    }

    /** {@code aot_forward_graph}: the forward graph partitioned from the joint graph. */
    public static void aotForwardGraph(CompileId id, GraphModule graph) {
        graph(id, "aot_forward_graph", graph);
    }

    /** {@code aot_backward_graph}: the backward graph partitioned from the joint graph. */
    public static void aotBackwardGraph(CompileId id, GraphModule graph) {
        graph(id, "aot_backward_graph", graph);
    }

    /** {@code inductor_post_grad_graph}: the graph the backend lowers, after its graph passes. */
    public static void inductorPostGradGraph(CompileId id, GraphModule graph) {
        graph(id, "inductor_post_grad_graph", graph);
    }

    private static void graph(CompileId id, String event, GraphModule graph) {
        TraceFile file = current;
        if (file == null) return;
        emit(file, event, Map.of(), id, graph.printReadable());
    }

    /** {@code inductor_output_code}: the source the backend generated, and the file (or class) it went to. */
    public static void inductorOutputCode(CompileId id, String filename, String source) {
        TraceFile file = current;
        if (file == null) return;
        emit(file, "inductor_output_code", Map.of("filename", filename), id, source);
    }

    /**
     * {@code dynamo_guards}: the guards the compiled graph is cached under, each a condition as source text. The
     * payload is PyTorch's: a JSON list of {@code {"code": ...}} objects, one per line.
     */
    public static void dynamoGuards(CompileId id, List<String> guards) {
        TraceFile file = current;
        if (file == null) return;
        List<String> lines = new ArrayList<>();
        for (String g : guards) lines.add(TraceJson.of(Map.of("code", g)));
        emit(file, "dynamo_guards", Map.of(), id, jsonLines(lines));
    }

    /**
     * {@code compilation_metrics}: the compile's summary, with PyTorch's keys where they apply: {@code co_name},
     * {@code co_filename}, {@code co_firstlineno} (the compiled function), {@code cache_size}, {@code guard_count},
     * {@code graph_op_count}, {@code graph_node_count}, {@code graph_input_count}, {@code start_time},
     * {@code entire_frame_compile_time_s}, {@code backend_compile_time_s}, {@code restart_reasons} (a list),
     * {@code fail_type}, {@code fail_reason}, {@code fail_user_frame_filename}, {@code fail_user_frame_lineno} (a
     * failed compile). Values are strings, numbers, booleans, lists, maps or null; the keys are written sorted.
     */
    public static void compilationMetrics(CompileId id, Map<String, ?> metrics) {
        TraceFile file = current;
        if (file == null) return;
        // Sorted by key: the record is the same whatever map the caller built (Map.of's order changes between runs).
        emit(file, "compilation_metrics", new TreeMap<>(metrics), id, null);
    }

    /**
     * A graph break: why capture stopped ({@code reason}, naming the op) and where ({@code stack}, innermost first).
     * Written as PyTorch writes it, an {@code artifact} named {@code dynamo_graph_break_reason} whose text gives the
     * user's call site and a Python-style traceback of it.
     */
    public static void graphBreak(CompileId id, String reason, StackTraceElement[] stack) {
        TraceFile file = current;
        if (file == null) return;
        stack = withoutGetStackTrace(stack);
        StringBuilder text = new StringBuilder("Graph break in user code");
        if (stack.length > 0)
            text.append(" at ").append(fileOf(stack[0])).append(':').append(lineOf(stack[0]));
        text.append("\nReason: ").append(reason).append("\nUser code traceback:\n");
        for (int i = stack.length - 1; i >= 0; i--) {
            text.append("  File \"")
                    .append(fileOf(stack[i]))
                    .append("\", line ")
                    .append(lineOf(stack[i]))
                    .append(", in ")
                    .append(nameOf(stack[i]))
                    .append('\n');
        }
        emit(file, "artifact", artifactMetadata("dynamo_graph_break_reason", "string"), id, text.toString());
    }

    /**
     * Why a compiled function is compiled again: the guards that failed. Written as PyTorch writes it, an
     * {@code artifact} named {@code recompile_reasons} holding a JSON list of strings, on the new compile's id.
     */
    public static void recompileReasons(CompileId id, List<String> reasons) {
        TraceFile file = current;
        if (file == null) return;
        List<String> lines = new ArrayList<>();
        for (String r : reasons) lines.add(TraceJson.of(r));
        emit(file, "artifact", artifactMetadata("recompile_reasons", "json"), id, jsonLines(lines));
    }

    /**
     * {@code artifact}: a named payload of any other kind (a cache hit or miss, a config, an intermediate graph);
     * {@code encoding} is {@code "string"} or {@code "json"}, as PyTorch writes it.
     */
    public static void artifact(CompileId id, String name, String encoding, String payload) {
        TraceFile file = current;
        if (file == null) return;
        emit(file, "artifact", artifactMetadata(name, encoding), id, payload);
    }

    /**
     * A timed stage of a compile, as a pair of {@code chromium_event} records (begin now, end when the span is closed)
     * in the Chrome trace event format; the report gathers them into {@code chromium_events.json}, which Perfetto shows
     * as a timeline. {@code id} may be null for work outside any compile.
     */
    public static Span span(CompileId id, String name) {
        TraceFile file = current;
        if (file == null) return Span.OFF;
        Span span = new Span(file, id, name);
        span.begin();
        return span;
    }

    /** One {@code chromium_event} record. */
    static void chromiumEvent(TraceFile file, CompileId id, String name, String phase, long micros) {
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("name", name);
        event.put("ts", micros);
        event.put("args", id == null ? Map.of() : Map.of("compile_id", id.toString()));
        event.put("ph", phase);
        event.put("cat", "dynamo_timed");
        event.put("tid", Thread.currentThread().threadId());
        event.put("pid", 0);
        emit(file, "chromium_event", Map.of(), id, TraceJson.of(event));
    }

    private static void emit(TraceFile file, String event, Object metadata, CompileId id, String payload) {
        file.write(TraceRecord.format(file.rankOrNull(), event, metadata, id, payload));
    }

    private static Map<String, String> artifactMetadata(String name, String encoding) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("encoding", encoding);
        return m;
    }

    /** A JSON list with one element per line, as PyTorch writes list payloads. */
    private static String jsonLines(List<String> elements) {
        return "[\n" + String.join(",\n", elements) + "\n]";
    }

    /** {@code stack} without the frame of {@link Thread#getStackTrace()} that took it, which is no call site. */
    private static StackTraceElement[] withoutGetStackTrace(StackTraceElement[] stack) {
        int from = 0;
        while (from < stack.length
                && stack[from].getClassName().equals(Thread.class.getName())
                && stack[from].getMethodName().equals("getStackTrace")) {
            from++;
        }
        return from == 0 ? stack : Arrays.copyOfRange(stack, from, stack.length);
    }

    private static List<Map<String, Object>> frames(TraceFile file, StackTraceElement[] stack) {
        List<Map<String, Object>> frames = new ArrayList<>();
        for (int i = stack.length - 1; i >= 0; i--) {
            Map<String, Object> frame = new LinkedHashMap<>();
            frame.put("line", lineOf(stack[i]));
            frame.put("name", nameOf(stack[i]));
            frame.put("filename", file.intern(fileOf(stack[i])));
            frames.add(frame);
        }
        return frames;
    }

    private static Map<String, long[]> sizes(GraphModule graph) {
        Map<String, long[]> sizes = new LinkedHashMap<>();
        for (Node n : graph.graph().nodes()) {
            if (n.meta() != null) sizes.put(n.name(), n.meta().shape());
        }
        return sizes;
    }

    private static String fileOf(StackTraceElement e) {
        return GlogPrefix.sourcePath(e.getClassName(), e.getFileName());
    }

    private static int lineOf(StackTraceElement e) {
        return Math.max(0, e.getLineNumber());
    }

    private static String nameOf(StackTraceElement e) {
        return GlogPrefix.simpleName(e.getClassName()) + "." + e.getMethodName();
    }

    private static TraceFile configured() {
        String dir = System.getProperty(DIRECTORY_PROPERTY);
        if (dir == null || dir.isBlank()) dir = System.getenv("TORCH_TRACE");
        if (dir == null || dir.isBlank()) return null;
        return new TraceFile(Path.of(dir), rankFromEnvironment());
    }

    private static Integer rankFromEnvironment() {
        String rank = System.getenv("RANK");
        if (rank == null) return null;
        try {
            return Integer.valueOf(rank.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}

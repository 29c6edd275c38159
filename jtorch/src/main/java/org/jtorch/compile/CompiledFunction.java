package org.jtorch.compile;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.Warnings;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.compile.trace.Span;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.TensorMeta;
import org.jtorch.internal.Shapes;

/**
 * One compiled function (a Dynamo "frame"): a cache of compiled graphs, each with its {@link Guards}, tried in order on
 * every call; a miss compiles again (a recompile), up to {@link Compile#recompileLimit()} compilations, after which the
 * function runs eagerly with a warning, as PyTorch does.
 *
 * <p>A compilation captures the function on fake tensors ({@link Capture}), generalizes the graph over the dynamic
 * dimensions ({@link ShapeGeneralizer}) and hands it to the backend. A graph break ends it: with {@code fullGraph} an
 * {@link Unsupported} is thrown; otherwise the call, and later calls its guards admit, run the whole function eagerly.
 * (Running the captured prefix compiled and the rest eagerly would need to resume the Java method in the middle, which
 * the JVM cannot do; the whole call is the unit that can be re-run.)
 *
 * <p>The cache is read without locking; compilations are serialized.
 */
final class CompiledFunction {
    private final Function<Tensor[], Tensor[]> fn;
    private final CompileOptions options;
    private final Backend backend;
    private final Supplier<List<Object>> state;
    private final Supplier<Map<Tensor, String>> names;
    /** Its frame id in the trace, given at its first compilation after start-up or {@link Compile#reset()}. */
    private int frameId = -1;
    /** What the trace calls the function ({@code co_name}): where it was compiled, or the module's forward. */
    private final String name;

    private volatile Entry[] entries = new Entry[0];
    private int compilations;
    private boolean eagerFromNowOn;
    /** The sizes of the first compilation's inputs, and the dimensions seen to change since ("automatic dynamic"). */
    private long[][] firstSizes;

    private boolean[][] changed;

    /** A compiled graph (or an eager run, after a graph break) and when it applies. */
    private record Entry(Guards guards, Backend.Runner runner, List<Tensor> lifted) {
        Tensor[] run(Tensor[] inputs) {
            if (lifted.isEmpty()) return runner.run(inputs);
            Tensor[] args = Arrays.copyOf(inputs, inputs.length + lifted.size());
            for (int i = 0; i < lifted.size(); i++) args[inputs.length + i] = lifted.get(i);
            return runner.run(args);
        }
    }

    CompiledFunction(
            Function<Tensor[], Tensor[]> fn,
            CompileOptions options,
            Supplier<List<Object>> state,
            Supplier<Map<Tensor, String>> names,
            String name) {
        this.fn = fn;
        this.name = name;
        this.options = options;
        this.backend = Compile.backend(options.backend());
        this.state = state;
        this.names = names;
        Compile.track(this);
    }

    /** Runs the function on {@code inputs}: a cached graph whose guards pass, else a new compilation. */
    Tensor[] call(Tensor[] inputs) {
        if (transformInEffect()) return fn.apply(inputs);
        for (Entry e : entries) if (e.guards.check(inputs)) return e.run(inputs);
        Compiled compiled = compile(inputs);
        if (compiled == null) return fn.apply(inputs);
        return compiled.result != null ? compiled.result : compiled.entry.run(inputs);
    }

    /** A compilation's cache entry, and this call's result when the compilation already ran the function eagerly. */
    private record Compiled(Entry entry, Tensor[] result) {}

    /** Drops every compiled graph ({@link Compile#reset()}). */
    synchronized void reset() {
        entries = new Entry[0];
        compilations = 0;
        frameId = -1;
        eagerFromNowOn = false;
        firstSizes = null;
        changed = null;
    }

    /**
     * Inside vmap, forward AD, another trace or a fake-tensor or autocast scope the function runs as written: those
     * transforms see its ops one by one (a DebugMode is fine: it sees the compiled graph's ops).
     */
    private static boolean transformInEffect() {
        if (DispatchState.isPlainEager()) return false;
        for (DispatchState.Kind k : DispatchState.Kind.values()) {
            if (k != DispatchState.Kind.DEBUG
                    && k != DispatchState.Kind.GRAD
                    && DispatchState.innermostInEffect(k) != null) {
                return true;
            }
        }
        return false;
    }

    /** Compiles for {@code inputs}; null when the function is to run eagerly from now on. */
    private synchronized Compiled compile(Tensor[] inputs) {
        for (Entry e : entries) if (e.guards.check(inputs)) return new Compiled(e, null);
        if (eagerFromNowOn) return null;
        String reason = entries.length == 0 ? null : entries[entries.length - 1].guards.failure(inputs);
        if (compilations >= Compile.recompileLimit()) {
            Warnings.warn("torch._dynamo hit config.recompile_limit (" + Compile.recompileLimit() + ")\n"
                    + "   function: " + fn + "\n   last reason: " + reason + "\n"
                    + "The structured trace (-Djtorch.trace.dir=DIR, then bin/jtorch-trace DIR) lists every "
                    + "recompilation's reason.");
            eagerFromNowOn = true;
            return null;
        }
        if (frameId < 0) frameId = Compile.nextFrameId();
        CompileId id = CompileId.of(frameId, compilations);
        Compile.countFrame(compilations > 0);
        compilations++;
        for (Tensor t : inputs) {
            if (t == null) throw new TorchException("torch.compile: an input of the compiled function is null");
        }
        noteChangedSizes(inputs);
        Plan plan = plan(inputs);
        long start = System.nanoTime();
        Entry entry;
        Tensor[] result = null;
        String failure = null;
        int[] ops = {0};
        try (Span _ = StructuredTrace.span(id, "entire_frame_compile")) {
            StructuredTrace.dynamoStart(
                    id, Capture.userFrames(Thread.currentThread().getStackTrace()));
            if (reason != null) StructuredTrace.recompileReasons(id, List.of(reason));
            try {
                ShapeGeneralizer.Outcome outcome = ShapeGeneralizer.generalize(
                        plan.baseValues(), plan.staticSizes(), values -> lower(inputs, plan, values));
                entry = entry(inputs, plan, outcome, id);
                ops[0] = (int) outcome.lowered().graphs().getFirst().graph().nodes().stream()
                        .filter(n -> n.op().equals("call_function"))
                        .count();
                trace(id, outcome, entry);
                Compile.countGraph();
            } catch (Capture.GraphBreak gb) {
                failure = gb.getMessage();
                Compile.countGraphBreak(failure);
                StructuredTrace.graphBreak(
                        id, failure, Capture.userFrames(gb.getCause().getStackTrace()));
                if (options.fullGraph()) throw new Unsupported(gb.operation, gb.callSite, gb.getCause());
                entry = eagerEntry(inputs);
            } catch (RuntimeException e) {
                failure = "capture failed at " + Capture.callSite(e) + ": " + e;
                result = runEagerlyAfterFailedCapture(inputs, e, failure);
                entry = eagerEntry(inputs);
                StructuredTrace.graphBreak(id, failure, Capture.userFrames(e.getStackTrace()));
            }
        } finally {
            StructuredTrace.compilationMetrics(id, metrics(start, reason, failure, ops[0]));
        }
        Entry[] next = Arrays.copyOf(entries, entries.length + 1);
        next[entries.length] = entry;
        entries = next;
        return new Compiled(entry, result);
    }

    /** The compile's graphs and guards, in the structured trace. */
    private void trace(CompileId id, ShapeGeneralizer.Outcome outcome, Entry entry) {
        if (!StructuredTrace.enabled()) return;
        List<GraphModule> graphs = outcome.lowered().graphs();
        StructuredTrace.dynamoOutputGraph(id, graphs.getFirst());
        backend.trace(id, graphs.subList(1, graphs.size()));
        StructuredTrace.dynamoGuards(id, entry.guards.describe());
        if (!outcome.note().isEmpty()) StructuredTrace.artifact(id, "dynamic_shapes", "string", outcome.note());
    }

    /** {@code compilation_metrics} with PyTorch's key names. */
    private Map<String, Object> metrics(long start, String recompileReason, String failure, int graphOps) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("co_name", name);
        m.put("frame_key", frameId);
        m.put("graph_op_count", graphOps);
        m.put("entire_frame_compile_time_s", (System.nanoTime() - start) / 1e9);
        m.put("backend", options.backend());
        m.put("dynamic", String.valueOf(options.dynamic()));
        m.put("restart_reasons", recompileReason == null ? List.of() : List.of(recompileReason));
        m.put("graph_break_reasons", failure == null ? List.of() : List.of(failure));
        m.put("fail_type", failure == null ? null : "graph_break");
        return m;
    }

    /**
     * A capture that failed on something other than a graph break: if the function fails eagerly too, that is the
     * user's error and is thrown as eager code throws it; if it runs, the failure was the capture's (an op without a
     * fake rule), counted and handled as a graph break, and the eager run's result is this call's (the function runs
     * once per call, as eager code does).
     */
    private Tensor[] runEagerlyAfterFailedCapture(Tensor[] inputs, RuntimeException captureFailure, String reason) {
        Tensor[] result = fn.apply(inputs); // throws the eager error, if there is one
        Compile.countGraphBreak(reason);
        if (options.fullGraph()) {
            throw new Unsupported("capture", Capture.callSite(captureFailure), captureFailure);
        }
        return result;
    }

    private Entry eagerEntry(Tensor[] inputs) {
        Guards.Input[] guards = new Guards.Input[inputs.length];
        for (int i = 0; i < inputs.length; i++) guards[i] = Guards.input(inputs[i], noSymbols(inputs[i]));
        return new Entry(new Guards(guards, 0, state), fn::apply, List.of());
    }

    /** The dynamic dimensions of this compilation, with one symbol per distinct size (duck sizing). */
    private record Plan(int[][] symbolOf, long[] baseValues, List<Long> staticSizes) {}

    private Plan plan(Tensor[] inputs) {
        Map<Long, Integer> symbolBySize = new HashMap<>();
        List<Long> bases = new ArrayList<>();
        List<Long> staticSizes = new ArrayList<>();
        int[][] symbolOf = new int[inputs.length][];
        for (int i = 0; i < inputs.length; i++) {
            Tensor t = inputs[i];
            symbolOf[i] = noSymbols(t);
            for (int d = 0; d < t.dim(); d++) {
                long size = t.size(d);
                if (!isDynamic(i, d, t)) {
                    staticSizes.add(size);
                    continue;
                }
                Integer s = symbolBySize.get(size);
                if (s == null) {
                    s = bases.size();
                    symbolBySize.put(size, s);
                    bases.add(size);
                }
                symbolOf[i][d] = s;
            }
        }
        return new Plan(symbolOf, bases.stream().mapToLong(Long::longValue).toArray(), staticSizes);
    }

    private boolean isDynamic(int input, int dim, Tensor t) {
        if (t.size(dim) < 2 || !t.isContiguous()) return false;
        Boolean dynamic = options.dynamic();
        if (dynamic == null)
            return changed != null && input < changed.length && dim < changed[input].length && changed[input][dim];
        return dynamic;
    }

    private void noteChangedSizes(Tensor[] inputs) {
        if (firstSizes == null) {
            firstSizes = new long[inputs.length][];
            changed = new boolean[inputs.length][];
            for (int i = 0; i < inputs.length; i++) {
                firstSizes[i] = inputs[i].shape();
                changed[i] = new boolean[inputs[i].dim()];
            }
            return;
        }
        for (int i = 0; i < Math.min(inputs.length, firstSizes.length); i++) {
            if (inputs[i].dim() != firstSizes[i].length) continue;
            for (int d = 0; d < firstSizes[i].length; d++) {
                if (inputs[i].size(d) != firstSizes[i][d]) changed[i][d] = true;
            }
        }
    }

    private static int[] noSymbols(Tensor t) {
        int[] none = new int[t.dim()];
        Arrays.fill(none, -1);
        return none;
    }

    /**
     * One trace: the function captured and lowered on fake inputs whose symbolic sizes take {@code values}; the graphs
     * are the captured one, then the backend's.
     */
    private ShapeGeneralizer.Lowered lower(Tensor[] inputs, Plan plan, long[] values) {
        List<TensorMeta> metas = new ArrayList<>(inputs.length);
        for (int i = 0; i < inputs.length; i++) {
            Tensor t = inputs[i];
            long[] shape = t.shape();
            boolean moved = false;
            for (int d = 0; d < shape.length; d++) {
                int s = plan.symbolOf()[i][d];
                if (s >= 0 && values[s] != shape[d]) {
                    shape[d] = values[s];
                    moved = true;
                }
            }
            long[] stride = moved ? Shapes.contiguousStrides(shape) : t.stride();
            metas.add(new TensorMeta(shape, stride, t.dtype(), t.device(), t.requiresGrad()));
        }
        Map<Tensor, String> liftedNames = names == null ? Map.of() : names.get();
        return Capture.inFakeMode(fake -> {
            Capture.Result captured = Capture.run(fn, metas, fake, liftedNames);
            List<Tensor> lifted = captured.lifted();
            Tensor[] fakeArgs = new Tensor[metas.size() + lifted.size()];
            List<org.jtorch.fx.Node> placeholders = captured.graph().graph().nodes().stream()
                    .filter(n -> n.op().equals("placeholder"))
                    .toList();
            for (int i = 0; i < fakeArgs.length; i++)
                fakeArgs[i] = fake.fromMeta(placeholders.get(i).meta());
            List<GraphModule> graphs = new ArrayList<>();
            graphs.add(captured.graph());
            graphs.addAll(backend.lower(captured.graph(), fakeArgs, fake));
            return new ShapeGeneralizer.Lowered(graphs, lifted);
        });
    }

    private Entry entry(Tensor[] inputs, Plan plan, ShapeGeneralizer.Outcome outcome, CompileId id) {
        List<Integer> symbolic = outcome.symbolic();
        Guards.Input[] guards = new Guards.Input[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            int[] symbolOf = noSymbols(inputs[i]);
            for (int d = 0; d < symbolOf.length; d++) {
                int planned = plan.symbolOf()[i][d];
                if (planned >= 0) symbolOf[d] = symbolic.indexOf(planned); // -1 when specialized
            }
            guards[i] = Guards.input(inputs[i], symbolOf);
        }
        Guards g = new Guards(guards, symbolic.size(), state);
        List<GraphModule> graphs = outcome.lowered().graphs();
        Backend.Runner runner = backend.build(graphs.getFirst(), graphs.subList(1, graphs.size()), id, options);
        return new Entry(g, runner, outcome.lowered().lifted());
    }

    static Map<Tensor, String> identityNames(Map<String, Tensor> byName) {
        Map<Tensor, String> out = new IdentityHashMap<>();
        for (var e : byName.entrySet()) if (e.getValue() != null) out.putIfAbsent(e.getValue(), e.getKey());
        return out;
    }
}

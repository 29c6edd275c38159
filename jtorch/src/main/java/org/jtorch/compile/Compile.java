package org.jtorch.compile;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.inductor.Inductor;
import org.jtorch.compile.inductor.InductorConfig;
import org.jtorch.fx.GraphCompiler;

/**
 * {@code torch.compile}'s machinery and {@code torch._dynamo}'s controls: compiling Java functions of tensors
 * ({@link #compile(Function, CompileOptions)}; {@code Torch.compile} and {@code Module.compile()} are the usual entry
 * points), the counters ({@link #counters()}) and {@link #reset()}.
 *
 * <p>A compiled function is captured on its first call: the Java code runs once on fake tensors while every op it calls
 * is recorded into a graph (see {@link org.jtorch.fx.Fx#makeFx}). <b>Java side effects in the function therefore run at
 * capture time, not on every call</b> (printing, counting, appending to a list, reading a field that changes later), as
 * under JAX's {@code jit}; only tensor operations are replayed. Tensors the function reads from outside its arguments
 * are used by reference, so in-place updates to them (an optimizer step) are seen. Later calls reuse the graph while
 * its guards hold (dtypes, devices, sizes, layouts, requires-grad, grad mode, deterministic mode, a module's parameters
 * and training flags) and compile again when they don't.
 */
public final class Compile {
    private Compile() {}

    private static final AtomicLong FRAMES = new AtomicLong();
    private static final AtomicLong GRAPHS = new AtomicLong();
    private static final AtomicLong GRAPH_BREAKS = new AtomicLong();
    private static final AtomicLong RECOMPILES = new AtomicLong();
    private static final AtomicInteger FRAME_IDS = new AtomicInteger();
    private static final Set<CompiledFunction> LIVE =
            Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));
    private static final Map<String, Long> BREAK_REASONS = new java.util.concurrent.ConcurrentSkipListMap<>();
    private static volatile int recompileLimit = 8;

    // "inductor" compiles AOT autograd's forward and backward graphs (or the captured graph, without gradients) to
    // generated kernels; "aot_eager" runs the same graphs with the interpreter.
    private static final Map<String, Backend> BACKENDS = Map.of(
            "eager",
            new EagerBackend(),
            "aot_eager",
            new AotBackend((id, options) -> GraphCompiler.INTERPRETER, (id, options) -> GraphCompiler.INTERPRETER),
            "inductor",
            new AotBackend(
                    (id, options) -> Inductor.compiler(id, inductorConfig(options)),
                    // gradients are not kept: autograd may store one as a leaf's .grad, which outlives the next call
                    (id, options) ->
                            Inductor.compiler(id, inductorConfig(options).withKeepOutputs(false))));

    /** The backend configuration of {@code options}: its {@code options} map, and its mode. */
    private static InductorConfig inductorConfig(CompileOptions options) {
        return InductorConfig.of(options.options()).withKeepOutputs(options.mode() == CompileMode.REDUCE_OVERHEAD);
    }

    /**
     * {@code torch.compile(fn, ...)} for a function of one tensor: a function that runs {@code fn} compiled. See the
     * class comment for what runs when; {@code options.disable()} returns {@code fn} itself.
     */
    public static Function<Tensor, Tensor> compile(Function<Tensor, Tensor> fn, CompileOptions options) {
        if (options.disable()) return fn;
        CompiledFunction compiled =
                new CompiledFunction(args -> new Tensor[] {fn.apply(args[0])}, options, null, null, callerName());
        return x -> compiled.call(new Tensor[] {x})[0];
    }

    /** {@code torch.compile(fn, ...)} for a function of two tensors. */
    public static BiFunction<Tensor, Tensor, Tensor> compile(
            BiFunction<Tensor, Tensor, Tensor> fn, CompileOptions options) {
        if (options.disable()) return fn;
        CompiledFunction compiled = new CompiledFunction(
                args -> new Tensor[] {fn.apply(args[0], args[1])}, options, null, null, callerName());
        return (x, y) -> compiled.call(new Tensor[] {x, y})[0];
    }

    /**
     * A module's call compiled ({@code nn.Module.compile()}): {@code call} runs the module's hooks and forward;
     * {@code state} lists what the graph's validity depends on besides the input (training flags, the parameter and
     * buffer tensors, compared by identity); {@code names} names the parameters for the graph's inputs; {@code name}
     * names the function in the structured trace.
     */
    public static Function<Tensor, Tensor> compileModuleCall(
            Function<Tensor, Tensor> call,
            CompileOptions options,
            Supplier<List<Object>> state,
            Supplier<Map<String, Tensor>> names,
            String name) {
        if (options.disable()) return call;
        CompiledFunction compiled = new CompiledFunction(
                args -> new Tensor[] {call.apply(args[0])},
                options,
                state,
                () -> CompiledFunction.identityNames(names.get()),
                name);
        return x -> compiled.call(new Tensor[] {x})[0];
    }

    /**
     * A function of several tensors compiled, for library code that drives a compiled update itself (an optimizer's
     * {@code compileStep()}): {@code fn} takes and returns arrays of tensors and may end by copying new values into its
     * inputs ({@code input.copy_(value)}), which the {@code "inductor"} backend turns into kernels storing in place.
     * {@code state} lists what else the graph's validity depends on, read at each call and compared with the traced
     * call's (tensors by identity, other values by equality): a change recompiles. {@code name} names the function in
     * the structured trace. {@code options.disable()} returns {@code fn} itself.
     */
    public static Function<Tensor[], Tensor[]> compileTensors(
            Function<Tensor[], Tensor[]> fn, CompileOptions options, Supplier<List<Object>> state, String name) {
        if (options.disable()) return fn;
        CompiledFunction compiled = new CompiledFunction(fn, options, state, null, name);
        return compiled::call;
    }

    /**
     * Where user code called the operation that {@code e} reports: the first stack frame below the library's own
     * ({@code Class.method(File.java:line)}), as graph breaks and export errors name it.
     */
    public static String userCallSite(Throwable e) {
        return Capture.callSite(e);
    }

    /** Where {@code Torch.compile} was called from: the function's name in the trace, as Java lambdas have none. */
    private static String callerName() {
        StackTraceElement[] user = Capture.userFrames(Thread.currentThread().getStackTrace());
        return user.length == 0 ? "<compiled function>" : user[0].getClassName() + "." + user[0].getMethodName();
    }

    /** {@code torch._dynamo.utils.counters}: what the compiler has done since start-up or the last {@link #reset()}. */
    public static CompileCounters counters() {
        return new CompileCounters(
                FRAMES.get(),
                GRAPHS.get(),
                GRAPH_BREAKS.get(),
                RECOMPILES.get(),
                Inductor.kernels(),
                Inductor.comboKernels(),
                Inductor.kernelClassesGenerated(),
                Inductor.kernelCacheHits(),
                Inductor.planBytesAllocated(),
                Inductor.buffersReused(),
                Inductor.externOutputsAllocated());
    }

    /**
     * {@code torch._dynamo.utils.counters["graph_break"]}: each graph break's reason (the operation, the Java call site
     * and why), with how many captures it ended.
     */
    public static Map<String, Long> graphBreakReasons() {
        return Map.copyOf(BREAK_REASONS);
    }

    /**
     * {@code torch._dynamo.reset()}: forgets every compiled graph (each compiled function compiles again on its next
     * call, under a new frame id in the trace) and zeroes the counters.
     */
    public static void reset() {
        List<CompiledFunction> live;
        synchronized (LIVE) {
            live = List.copyOf(LIVE);
        }
        for (CompiledFunction f : live) f.reset();
        for (AtomicLong c : List.of(FRAMES, GRAPHS, GRAPH_BREAKS, RECOMPILES)) c.set(0);
        Inductor.resetCounters();
        BREAK_REASONS.clear();
        FRAME_IDS.set(0);
    }

    /** {@code torch._dynamo.list_backends()}: the names {@link CompileOptions#backend(String)} accepts. */
    public static List<String> listBackends() {
        return BACKENDS.keySet().stream().sorted().toList();
    }

    /** {@code torch._dynamo.config.recompile_limit}: compilations per function before it runs eagerly (8). */
    public static int recompileLimit() {
        return recompileLimit;
    }

    /** Sets {@link #recompileLimit()}; at least 1. */
    public static void setRecompileLimit(int limit) {
        if (limit < 1) throw new IllegalArgumentException("recompile limit must be at least 1, got " + limit);
        recompileLimit = limit;
    }

    static Backend backend(String name) {
        Backend b = BACKENDS.get(name);
        if (b == null) {
            throw new TorchException("Invalid backend: '" + name + "', see Compile.listBackends() for available "
                    + "backends: " + listBackends());
        }
        return b;
    }

    static int nextFrameId() {
        return FRAME_IDS.getAndIncrement();
    }

    static void track(CompiledFunction f) {
        LIVE.add(f);
    }

    static void countFrame(boolean recompile) {
        FRAMES.incrementAndGet();
        if (recompile) RECOMPILES.incrementAndGet();
    }

    static void countGraph() {
        GRAPHS.incrementAndGet();
    }

    static void countGraphBreak(String reason) {
        GRAPH_BREAKS.incrementAndGet();
        BREAK_REASONS.merge(reason, 1L, Long::sum);
    }
}

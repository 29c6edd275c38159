package org.jtorch.compile.inductor;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jtorch.Tensor;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.compile.trace.CompileId;
import org.jtorch.compile.trace.StructuredTrace;
import org.jtorch.fx.FakeTensorMode;
import org.jtorch.fx.GraphCompiler;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;

/**
 * The compiler backend behind {@code Torch.compile}'s {@code "inductor"}: a {@link GraphCompiler} that lowers a graph
 * to loop kernels, fuses them, generates and compiles their Java source, and runs the result.
 *
 * <p>A graph is compiled for the sizes and layouts of the inputs it is called with (symbolic graphs compile once per
 * set of concrete sizes): the node metadata comes from one run of the graph on fake tensors, then {@code Lowering},
 * {@code Scheduler} and code generation make a {@code CompiledPlan}. A graph whose only mutation is writing computed
 * values back into its inputs at the end (an optimizer step) is compiled, each value stored in place where that is safe
 * ({@code InputWritebacks}); a graph holding other mutation (in-place or {@code out=} nodes in the middle) or tensors
 * without heap storage runs with the interpreter instead.
 *
 * <p>Each plan keeps its intermediates' storage between calls ({@code MemoryPlan}, {@code Arena}): buffers whose
 * lifetimes do not overlap share storage, and a call with the sizes of an earlier one allocates none for them
 * ({@link #planBytesAllocated()}, {@link #buffersReused()}). With {@link InductorConfig#keepOutputs()}
 * ({@code mode="reduce-overhead"}) the graph's outputs are kept too, and the next call writes them again.
 *
 * <p>The plan is specialised to the sizes; its kernel classes are not: a class takes its kernel's sizes, strides and
 * offsets as arguments, so the kernels of differently sized graphs (or of equally structured parts of one graph) share
 * a class ({@link #kernelCacheHits()}).
 */
public final class Inductor {
    private Inductor() {}

    private static final AtomicLong KERNELS = new AtomicLong();
    private static final AtomicLong COMBO_KERNELS = new AtomicLong();
    private static final AtomicLong KERNEL_CLASSES_GENERATED = new AtomicLong();
    private static final AtomicLong KERNEL_CACHE_HITS = new AtomicLong();
    private static final AtomicLong PLAN_BYTES = new AtomicLong();
    private static final AtomicLong BUFFERS_REUSED = new AtomicLong();
    private static final AtomicLong EXTERN_OUTPUTS_ALLOCATED = new AtomicLong();

    /** The compiler: {@code compile(graph)} returns a callable that compiles per input signature on first use. */
    public static final GraphCompiler COMPILER = gm -> compile(gm, null, InductorConfig.DEFAULT);

    /**
     * The compiler for the graphs of one {@code torch.compile} compilation: as {@link #COMPILER}, and it writes each
     * generated kernel's source and the scheduler's fusion decisions to the structured trace under {@code id}.
     */
    public static GraphCompiler compiler(CompileId id, InductorConfig config) {
        return gm -> compile(gm, id, config);
    }

    /** Compiles {@code gm} lazily: the first call with each input signature lowers and generates its kernels. */
    public static GraphCompiler.CompiledGraph compile(GraphModule gm) {
        return compile(gm, null, InductorConfig.DEFAULT);
    }

    /** {@link #compile(GraphModule)} with {@code config}. */
    public static GraphCompiler.CompiledGraph compile(GraphModule gm, InductorConfig config) {
        return compile(gm, null, config);
    }

    private static GraphCompiler.CompiledGraph compile(GraphModule gm, CompileId id, InductorConfig config) {
        if (InputWritebacks.of(gm) == null) return gm::call;
        Map<List<Object>, CompiledPlan> plans = new ConcurrentHashMap<>();
        return inputs -> {
            if (!allOnHeap(inputs)) return gm.call(inputs);
            List<Object> key = signature(inputs);
            CompiledPlan plan = plans.get(key);
            if (plan == null) {
                Map<Node, TensorMeta> metas = new HashMap<>();
                Map<Node, TensorMeta[]> tuples = new HashMap<>();
                propagate(gm, inputs, metas, tuples);
                plan = CompiledPlan.build(gm, metas, tuples, gm.symbolValues(inputs), config);
                plans.put(key, plan);
                if (id != null) trace(id, plan);
            }
            return plan.run(inputs);
        };
    }

    /** Kernels generated since start-up or the last {@link #resetCounters()} (cache hits included). */
    public static long kernels() {
        return KERNELS.get();
    }

    /** Combo kernels (horizontally fused) generated since start-up or the last {@link #resetCounters()}. */
    public static long comboKernels() {
        return COMBO_KERNELS.get();
    }

    /**
     * Kernel classes whose class file was generated since start-up or the last {@link #resetCounters()}: kernels that
     * reused a loaded class ({@link #kernelCacheHits()}) or read theirs from the on-disk cache are not counted.
     */
    public static long kernelClassesGenerated() {
        return KERNEL_CLASSES_GENERATED.get();
    }

    /**
     * Kernels since start-up or the last {@link #resetCounters()} that reused a class already loaded in this process:
     * one of the same structure, whatever its sizes, strides and offsets.
     */
    public static long kernelCacheHits() {
        return KERNEL_CACHE_HITS.get();
    }

    /**
     * Bytes of tensor storage that compiled graphs allocated for the outputs of their kernels and of the extern calls
     * that write into given outputs ({@link ExternCall}) since start-up or the last {@link #resetCounters()}: the
     * storage they keep between calls, when first allocated, and the outputs allocated on each call (results the ops of
     * other extern calls allocate are counted by {@link #externOutputsAllocated()}).
     */
    public static long planBytesAllocated() {
        return PLAN_BYTES.get();
    }

    /**
     * Outputs of kernels and planned extern calls since start-up or the last {@link #resetCounters()} written into
     * storage a compiled graph already held: one that an earlier buffer of the same call no longer needed, or one kept
     * from an earlier call.
     */
    public static long buffersReused() {
        return BUFFERS_REUSED.get();
    }

    /**
     * Results of extern calls since start-up or the last {@link #resetCounters()} that the ops they run allocated (each
     * result not in storage a compiled graph allocated, nor a view of an argument): the results of calls that cannot
     * write into given outputs ({@link ExternCall}), and all results of calls that autograd records.
     */
    public static long externOutputsAllocated() {
        return EXTERN_OUTPUTS_ALLOCATED.get();
    }

    /**
     * Zeroes {@link #kernels()}, {@link #comboKernels()}, {@link #kernelClassesGenerated()},
     * {@link #kernelCacheHits()}, {@link #planBytesAllocated()}, {@link #buffersReused()},
     * {@link #externOutputsAllocated()}.
     */
    public static void resetCounters() {
        KERNELS.set(0);
        COMBO_KERNELS.set(0);
        KERNEL_CLASSES_GENERATED.set(0);
        KERNEL_CACHE_HITS.set(0);
        PLAN_BYTES.set(0);
        BUFFERS_REUSED.set(0);
        EXTERN_OUTPUTS_ALLOCATED.set(0);
    }

    static void countPlanBytes(long bytes) {
        PLAN_BYTES.addAndGet(bytes);
    }

    static void countExternOutputAllocated() {
        EXTERN_OUTPUTS_ALLOCATED.incrementAndGet();
    }

    static void countBufferReused() {
        BUFFERS_REUSED.incrementAndGet();
    }

    static void countKernels(List<KernelCompiler.Call> calls) {
        KERNELS.addAndGet(calls.size());
        for (KernelCompiler.Call c : calls) {
            if (c.origin() == KernelCompiler.Origin.GENERATED) KERNEL_CLASSES_GENERATED.incrementAndGet();
            if (c.origin() == KernelCompiler.Origin.CACHE) KERNEL_CACHE_HITS.incrementAndGet();
        }
    }

    static void countComboKernels(int n) {
        COMBO_KERNELS.addAndGet(n);
    }

    private static void trace(CompileId id, CompiledPlan plan) {
        if (!StructuredTrace.enabled()) return;
        // kernels of one structure share a class: its listing once, and each launch's arguments in the decisions
        java.util.Set<String> written = new java.util.HashSet<>();
        for (CompiledPlan.Launch launch : plan.launches) {
            if (written.add(launch.kernel().className())) {
                StructuredTrace.inductorOutputCode(
                        id,
                        launch.kernel().className() + ".java",
                        launch.kernel().source());
            }
        }
        StructuredTrace.artifact(id, "inductor_fusion_decisions", "string", String.join("\n", plan.fusionDecisions));
    }

    private static boolean allOnHeap(Tensor[] inputs) {
        for (Tensor t : inputs) {
            if (t == null || !t.impl().hasData() || t.impl().storage().array() == null) return false;
        }
        return true;
    }

    /** What a plan depends on: each input's dtype, sizes and strides. */
    private static List<Object> signature(Tensor[] inputs) {
        Object[] key = new Object[inputs.length * 3];
        for (int i = 0; i < inputs.length; i++) {
            key[3 * i] = inputs[i].dtype();
            key[3 * i + 1] = Arrays.stream(inputs[i].shape()).boxed().toList();
            key[3 * i + 2] = Arrays.stream(inputs[i].stride()).boxed().toList();
        }
        return List.of(key);
    }

    /**
     * Every tensor node's metadata for these inputs into {@code metas}, and the items' of every node whose value is a
     * tuple into {@code tuples}, from a run on fake tensors.
     */
    private static void propagate(
            GraphModule gm, Tensor[] inputs, Map<Node, TensorMeta> metas, Map<Node, TensorMeta[]> tuples) {
        try (FakeTensorMode fake = FakeTensorMode.open()) {
            Map<String, Tensor> constants = new HashMap<>();
            for (var e : gm.constants().entrySet()) constants.put(e.getKey(), fake.fromTensor(e.getValue()));
            Tensor[] fakes = new Tensor[inputs.length];
            for (int i = 0; i < inputs.length; i++) fakes[i] = fake.fromTensor(inputs[i]);
            new GraphModule(gm.graph(), constants).interpret(fakes, (node, value) -> {
                if (value instanceof Tensor t) metas.put(node, TensorMeta.of(t));
                if (value instanceof Tensor[] items) {
                    TensorMeta[] m = new TensorMeta[items.length];
                    for (int i = 0; i < m.length; i++) m[i] = items[i] == null ? null : TensorMeta.of(items[i]);
                    tuples.put(node, m);
                }
            });
        }
    }
}

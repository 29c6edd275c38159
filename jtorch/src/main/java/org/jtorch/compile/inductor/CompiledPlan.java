package org.jtorch.compile.inductor;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.GradMode;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.compile.inductor.codegen.KernelCompiler.CompiledKernel;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.debug.DebugMode;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.TensorImpl;

/**
 * A graph compiled for one set of input sizes: its steps in order, extern calls through the dispatcher and launches of
 * generated kernels, each kernel's range split statically over the intra-op pool, and where each kernel output lives
 * ({@link MemoryPlan}, in storage the plan keeps between calls: {@link Arena}).
 */
final class CompiledPlan {
    /**
     * One kernel launch: the kernel's class and its {@code args} (the buffers' storage offsets left to fill in, then
     * its sizes), the nodes whose tensors are its buffers, its outputs with their layouts, and per output the graph
     * input it is stored into ({@code into[i]} null: a tensor the launch allocates).
     */
    record Launch(
            CompiledKernel kernel,
            long[] arguments,
            LoopKernel ir,
            Node[] buffers,
            Node[] outputs,
            TensorMeta[] layouts,
            Node[] into) {
        /** The range the kernel's {@code run} covers: points of a pointwise kernel, rows of a row kernel. */
        long total() {
            return ir.isPointwise() ? ir.rowLength() : ir.rows();
        }

        /** The least piece of the range worth a thread: {@link Parallel#GRAIN} elements. */
        long grain() {
            return ir.isPointwise() ? Parallel.GRAIN : Math.max(1, Parallel.GRAIN / Math.max(1, ir.rowLength()));
        }
    }

    /**
     * Independent launches run as one combo kernel: one parallel region whose work items are pieces of the sub-kernels'
     * ranges, each piece computing exactly what the sub-kernel computes stand-alone.
     */
    record ComboLaunch(List<Launch> parts) {}

    private final GraphModule gm;
    private final List<Object> steps;
    private final List<Node> placeholders;
    private final Node output;
    private final long[] symbolValues;
    final List<Launch> launches;
    final List<String> fusionDecisions;
    /** The inputs some kernel stores into (in place of a write-back copy). */
    private final int[] storedInto;
    /** Where each kernel output lives. */
    private final MemoryPlan memory;
    /** The arena no call is using; a call takes it, or makes its own while another call runs the plan. */
    private final AtomicReference<Arena> idle = new AtomicReference<>();

    private CompiledPlan(
            GraphModule gm,
            List<Object> steps,
            long[] symbolValues,
            List<Launch> launches,
            List<String> decisions,
            MemoryPlan memory) {
        this.gm = gm;
        this.memory = memory;
        this.steps = steps;
        this.symbolValues = symbolValues;
        this.placeholders = gm.graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        this.output = gm.graph().nodes().getLast();
        this.launches = launches;
        this.fusionDecisions = decisions;
        this.storedInto = storedInto(steps, placeholders);
    }

    /** The positions of the inputs that kernels of {@code steps} store into. */
    private static int[] storedInto(List<Object> steps, List<Node> placeholders) {
        List<Launch> all = new ArrayList<>();
        for (Object step : steps) {
            if (step instanceof Launch l) all.add(l);
            if (step instanceof ComboLaunch c) all.addAll(c.parts());
        }
        return all.stream()
                .flatMap(l -> java.util.Arrays.stream(l.into()))
                .filter(java.util.Objects::nonNull)
                .mapToInt(placeholders::indexOf)
                .toArray();
    }

    /** Lowers, schedules and compiles {@code gm} for nodes of the given metadata. */
    static CompiledPlan build(
            GraphModule gm,
            Map<Node, TensorMeta> metas,
            Map<Node, TensorMeta[]> tuples,
            long[] symbolValues,
            InductorConfig config) {
        Lowering lowering = Lowering.lower(gm, metas, symbolValues);
        List<String> decisions = new ArrayList<>();
        List<Object> scheduled = Scheduler.schedule(lowering, gm, decisions);
        List<LoopKernel> kernels = new ArrayList<>();
        List<Node[]> bufferNodes = new ArrayList<>();
        List<KernelPlan> plans = new ArrayList<>();
        for (Object step : scheduled) {
            if (step instanceof KernelPlan k) {
                Node[] buffers = localBuffers(k, lowering);
                kernels.add(toLoopKernel(k, buffers, lowering));
                bufferNodes.add(buffers);
                plans.add(k);
            }
        }
        List<KernelCompiler.Call> compiled = KernelCompiler.compile(kernels);
        List<Object> steps = new ArrayList<>();
        List<Launch> launches = new ArrayList<>();
        int next = 0;
        for (Object step : scheduled) {
            if (step instanceof KernelPlan k) {
                Node[] outputs = k.outputs.toArray(Node[]::new);
                TensorMeta[] layouts = new TensorMeta[outputs.length];
                for (int i = 0; i < outputs.length; i++) layouts[i] = lowering.layouts.get(outputs[i]);
                Launch launch = new Launch(
                        compiled.get(next).kernel(),
                        compiled.get(next).arguments(),
                        kernels.get(next),
                        bufferNodes.get(next),
                        outputs,
                        layouts,
                        new Node[outputs.length]);
                next++;
                launches.add(launch);
                steps.add(launch);
            } else {
                steps.add(step);
            }
        }
        Inductor.countKernels(compiled);
        steps = storeInPlace(steps, gm, lowering, decisions);
        List<Object> grouped = config.comboKernels() ? combine(steps, decisions) : steps;
        if (config.allowBufferReuse()) grouped = planExterns(grouped, metas, tuples);
        MemoryPlan memory = config.allowBufferReuse()
                ? MemoryPlan.of(grouped, gm.graph().nodes().getLast(), config.keepOutputs())
                : MemoryPlan.none(grouped);
        decisions.addAll(memory.decisions());
        return new CompiledPlan(gm, grouped, symbolValues, launches, decisions, memory);
    }

    /**
     * The steps with the write-backs into inputs that kernels can store directly ({@link InputWritebacks}) folded in.
     */
    private static List<Object> storeInPlace(
            List<Object> steps, GraphModule gm, Lowering lowering, List<String> decisions) {
        Map<Launch, Node[]> into = new HashMap<>();
        List<Object> kept = InputWritebacks.reinplace(steps, gm, lowering.layouts, into);
        if (into.isEmpty()) return steps;
        List<Object> out = new ArrayList<>();
        for (Object step : kept) {
            Node[] targets = step instanceof Launch l ? into.get(l) : null;
            if (targets == null) {
                out.add(step);
                continue;
            }
            Launch l = (Launch) step;
            out.add(new Launch(l.kernel(), l.arguments(), l.ir(), l.buffers(), l.outputs(), l.layouts(), targets));
            for (int i = 0; i < targets.length; i++) {
                if (targets[i] != null) {
                    decisions.add("stored in place: " + l.outputs()[i].name() + " into input " + targets[i].name());
                }
            }
        }
        return out;
    }

    /** The steps with each extern call whose results can live in the plan's storage as an {@link ExternCall}. */
    private static List<Object> planExterns(
            List<Object> steps, Map<Node, TensorMeta> metas, Map<Node, TensorMeta[]> tuples) {
        List<Object> out = new ArrayList<>(steps.size());
        for (Object step : steps) {
            ExternCall call = step instanceof Lowering.ExternStep x ? ExternCall.of(x.node(), metas, tuples) : null;
            out.add(call != null ? call : step);
        }
        return out;
    }

    /**
     * Groups runs of consecutive launches that do not read each other's outputs into combo kernels of at most
     * {@link InductorConfig#MAX_SUB_KERNELS} sub-kernels.
     */
    private static List<Object> combine(List<Object> steps, List<String> decisions) {
        List<Object> out = new ArrayList<>();
        List<Launch> group = new ArrayList<>();
        java.util.Set<Node> written = new java.util.HashSet<>();
        for (Object step : steps) {
            if (step instanceof Launch launch
                    && group.size() < InductorConfig.MAX_SUB_KERNELS
                    && java.util.Collections.disjoint(written, List.of(launch.buffers()))) {
                group.add(launch);
                written.addAll(List.of(launch.outputs()));
                continue;
            }
            flush(group, out, decisions);
            written.clear();
            if (step instanceof Launch launch) {
                group.add(launch);
                written.addAll(List.of(launch.outputs()));
            } else {
                out.add(step);
            }
        }
        flush(group, out, decisions);
        return out;
    }

    private static void flush(List<Launch> group, List<Object> out, List<String> decisions) {
        if (group.size() == 1) out.add(group.getFirst());
        if (group.size() > 1) {
            out.add(new ComboLaunch(List.copyOf(group)));
            Inductor.countComboKernels(1);
            decisions.add("combo kernel of "
                    + group.stream().map(l -> l.kernel().className()).toList());
        }
        group.clear();
    }

    /** The slots a kernel reads or writes, numbered in order of first use. */
    private static Node[] localBuffers(KernelPlan k, Lowering l) {
        LinkedHashMap<Integer, Integer> seen = new LinkedHashMap<>();
        for (LoopKernel.Reduction r : k.reductions) slotsOf(r.body(), seen);
        for (LoopKernel.Store s : k.rowStores) {
            seen.putIfAbsent(s.buffer(), seen.size());
            slotsOf(s.value(), seen);
        }
        for (LoopKernel.Store s : k.elementStores) {
            seen.putIfAbsent(s.buffer(), seen.size());
            slotsOf(s.value(), seen);
        }
        Node[] out = new Node[seen.size()];
        for (var e : seen.entrySet()) out[e.getValue()] = l.slots.get(e.getKey());
        return out;
    }

    private static void slotsOf(Expr e, Map<Integer, Integer> seen) {
        if (e instanceof Expr.Load ld) seen.putIfAbsent(ld.buffer(), seen.size());
        if (e instanceof Expr.IndirectLoad ld) seen.putIfAbsent(ld.buffer(), seen.size());
        for (Expr c : e.children()) slotsOf(c, seen);
    }

    private static LoopKernel toLoopKernel(KernelPlan k, Node[] buffers, Lowering l) {
        Map<Integer, Integer> local = new HashMap<>();
        for (int i = 0; i < buffers.length; i++) local.put(l.slot(buffers[i]), i);
        List<Elem> elems = new ArrayList<>();
        for (Node b : buffers) elems.add(Elem.of(l.layouts.get(b).dtype()));
        return new LoopKernel(
                String.join("_", k.fused),
                k.outer,
                k.inner,
                elems,
                k.reductions.stream()
                        .map(r -> new LoopKernel.Reduction(r.kind(), renumber(r.body(), local)))
                        .toList(),
                k.rowStores.stream().map(s -> renumber(s, local)).toList(),
                k.elementStores.stream().map(s -> renumber(s, local)).toList());
    }

    private static LoopKernel.Store renumber(LoopKernel.Store s, Map<Integer, Integer> local) {
        return new LoopKernel.Store(local.get(s.buffer()), s.access(), renumber(s.value(), local));
    }

    private static Expr renumber(Expr e, Map<Integer, Integer> local) {
        return switch (e) {
            case Expr.Load ld -> new Expr.Load(local.get(ld.buffer()), ld.access(), ld.elem());
            case Expr.IndirectLoad ld ->
                new Expr.IndirectLoad(
                        local.get(ld.buffer()),
                        ld.access(),
                        ld.elem(),
                        renumber(ld.index(), local),
                        ld.stride(),
                        ld.size());
            default -> e.map(c -> renumber(c, local));
        };
    }

    // ---------------------------------------------------------------- running

    /** Runs the graph on {@code inputs}. */
    Tensor[] run(Tensor[] inputs) {
        if (storedInto.length > 0 && InputWritebacks.aliased(inputs, storedInto)) return gm.call(inputs);
        Map<Node, Object> values = new HashMap<>();
        for (int i = 0; i < placeholders.size(); i++) values.put(placeholders.get(i), inputs[i]);
        for (Node n : gm.graph().nodes()) {
            if (n.op().equals("get_attr")) values.put(n, gm.constants().get(n.target()));
        }
        Arena arena = idle.getAndSet(null);
        if (arena == null) arena = new Arena(memory);
        arena.startCall(inputs);
        // autograd records an out= call as a write into its outputs: a call it records allocates, as eager code does
        boolean recorded = GradMode.isEnabled()
                && (Arrays.stream(inputs).anyMatch(Tensor::requiresGrad)
                        || gm.constants().values().stream().anyMatch(Tensor::requiresGrad));
        try {
            for (Object step : steps) {
                switch (step) {
                    case Launch launch -> launch(launch, values, arena);
                    case ComboLaunch combo -> launchCombo(combo, values, arena);
                    case ExternCall call
                    when !recorded -> {
                        Tensor[] outs = new Tensor[call.layouts().length];
                        for (int o = 0; o < outs.length; o++) outs[o] = arena.output(call, o);
                        values.put(call.node(), GraphModule.runNodeInto(call.node(), values, symbolValues, outs));
                    }
                    default -> runExtern(externNode(step), values);
                }
            }
        } finally {
            idle.set(arena);
        }
        Tensor[] results = new Tensor[output.args().size()];
        for (int i = 0; i < results.length; i++) {
            Object a = output.args().get(i);
            results[i] = a instanceof Node n ? (Tensor) values.get(writtenInput(n)) : null;
        }
        return results;
    }

    private static Node externNode(Object step) {
        return step instanceof ExternCall call ? call.node() : ((Lowering.ExternStep) step).node();
    }

    /** An extern call run as eager code runs it: its results are allocated by the op, or views of its arguments. */
    private void runExtern(Node n, Map<Node, Object> values) {
        Object result = GraphModule.runNode(n, values, symbolValues);
        values.put(n, result);
        if (n.form() != Node.Form.FUNCTIONAL || n.target().equals(Node.GETITEM)) return;
        Tensor[] results = result instanceof Tensor t ? new Tensor[] {t} : (Tensor[]) result;
        for (Tensor r : results) {
            if (r == null) continue;
            Object array = r.impl().storage().root().array();
            boolean viewed = false;
            for (Node in : n.inputNodes()) {
                viewed |= values.get(in) instanceof Tensor t
                        && t.impl().storage().root().array() == array;
            }
            if (!viewed) Inductor.countExternOutputAllocated();
        }
    }

    /** A write-back's value is its input (the copy itself may have been folded into a kernel); else {@code n}. */
    private static Node writtenInput(Node n) {
        InputWritebacks.Copy copy = InputWritebacks.copyOf(n);
        return copy != null ? copy.input() : n;
    }

    /** The arrays of a launch's buffers and its {@code args} (storage offsets, then sizes), outputs allocated first. */
    private record Bound(MethodHandle run, Object[] arrays, long[] args, String name) {
        void run(long start, long end) {
            try {
                invoke(run, arrays, args, start, end);
            } catch (IndexOutOfBoundsException e) {
                throw new TorchException("index out of range in compiled kernel " + name + ": " + e.getMessage(), e);
            }
        }
    }

    private static Bound bind(Launch launch, Map<Node, Object> values, Arena arena) {
        for (int i = 0; i < launch.outputs().length; i++) {
            Node into = launch.into()[i];
            values.put(launch.outputs()[i], into != null ? values.get(into) : arena.output(launch, i));
        }
        Node[] buffers = launch.buffers();
        Object[] arrays = new Object[buffers.length];
        long[] args = launch.arguments().clone(); // the storage offsets go in its first slots
        for (int i = 0; i < buffers.length; i++) {
            TensorImpl impl = ((Tensor) values.get(buffers[i])).impl();
            arrays[i] = impl.storage().array();
            if (arrays[i] == null) {
                throw new TorchException("inductor: kernel " + launch.kernel().className() + " needs heap tensors; "
                        + buffers[i] + " has no heap array");
            }
            args[i] = impl.storageOffset();
        }
        return new Bound(launch.kernel().run(), arrays, args, launch.kernel().className());
    }

    private static void launch(Launch launch, Map<Node, Object> values, Arena arena) {
        Bound b = bind(launch, values, arena);
        DebugMode.KernelLaunch logged = DispatchState.isPlainEager() ? null : logLaunch(launch, values);
        Parallel.forRange(launch.total(), launch.grain(), b::run);
        if (logged != null) logged.done();
    }

    /**
     * The launch recorded by the DebugModes in effect ({@link DebugMode#kernelLaunch}): the tensors it reads, then
     * those it writes; null when none is in effect.
     */
    private static DebugMode.KernelLaunch logLaunch(Launch launch, Map<Node, Object> values) {
        List<Node> outputs = List.of(launch.outputs());
        List<Tensor> read = new ArrayList<>(), written = new ArrayList<>();
        for (Node b : launch.buffers()) if (!outputs.contains(b)) read.add((Tensor) values.get(b));
        for (Node o : outputs) written.add((Tensor) values.get(o));
        return DebugMode.kernelLaunch(launch.kernel().className(), read, written);
    }

    /**
     * The sub-kernels' ranges cut in pieces (a sub-kernel's range in at most as many pieces as threads, none smaller
     * than its grain), the pieces then split statically over the pool in one region.
     */
    private static void launchCombo(ComboLaunch combo, Map<Node, Object> values, Arena arena) {
        List<Bound> bound = new ArrayList<>();
        List<DebugMode.KernelLaunch> logged = new ArrayList<>();
        List<long[]> items = new ArrayList<>(); // {sub-kernel, start, end}
        int threads = Parallel.numThreads();
        for (int p = 0; p < combo.parts().size(); p++) {
            Launch launch = combo.parts().get(p);
            bound.add(bind(launch, values, arena));
            if (!DispatchState.isPlainEager()) {
                DebugMode.KernelLaunch l = logLaunch(launch, values);
                if (l != null) logged.add(l);
            }
            long total = launch.total();
            long piece = Math.max(launch.grain(), (total + threads - 1) / threads);
            for (long start = 0; start < total; start += piece)
                items.add(new long[] {p, start, Math.min(total, start + piece)});
        }
        Parallel.forRange(items.size(), 1, (from, to) -> {
            for (long i = from; i < to; i++) {
                long[] item = items.get((int) i);
                bound.get((int) item[0]).run(item[1], item[2]);
            }
        });
        for (DebugMode.KernelLaunch l : logged) l.done();
    }

    private static void invoke(MethodHandle run, Object[] arrays, long[] args, long start, long end) {
        try {
            run.invokeExact(arrays, args, start, end);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}

package org.jtorch.compile.inductor;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.compile.inductor.codegen.KernelCompiler;
import org.jtorch.compile.inductor.codegen.KernelCompiler.CompiledKernel;
import org.jtorch.compile.inductor.ir.Elem;
import org.jtorch.compile.inductor.ir.Expr;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.fx.GraphModule;
import org.jtorch.fx.Node;
import org.jtorch.fx.TensorMeta;
import org.jtorch.kernels.cpu.Parallel;
import org.jtorch.storage.Storage;
import org.jtorch.storage.TensorImpl;

/**
 * A graph compiled for one set of input sizes: its steps in order, extern calls through the dispatcher and launches of
 * generated kernels, each kernel's range split statically over the intra-op pool.
 */
final class CompiledPlan {
    /** One kernel launch: the kernel, the nodes whose tensors are its buffers, the outputs it allocates. */
    record Launch(CompiledKernel kernel, LoopKernel ir, Node[] buffers, Node[] outputs, TensorMeta[] layouts) {}

    private final GraphModule gm;
    private final List<Object> steps;
    private final List<Node> placeholders;
    private final Node output;
    private final long[] symbolValues;
    final List<Launch> launches;
    final List<String> fusionDecisions;

    private CompiledPlan(
            GraphModule gm, List<Object> steps, long[] symbolValues, List<Launch> launches, List<String> decisions) {
        this.gm = gm;
        this.steps = steps;
        this.symbolValues = symbolValues;
        this.placeholders = gm.graph().nodes().stream()
                .filter(n -> n.op().equals("placeholder"))
                .toList();
        this.output = gm.graph().nodes().getLast();
        this.launches = launches;
        this.fusionDecisions = decisions;
    }

    /** Lowers, schedules and compiles {@code gm} for nodes of the given metadata. */
    static CompiledPlan build(GraphModule gm, Map<Node, TensorMeta> metas, long[] symbolValues) {
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
        List<CompiledKernel> compiled = KernelCompiler.compile(kernels);
        List<Object> steps = new ArrayList<>();
        List<Launch> launches = new ArrayList<>();
        int next = 0;
        for (Object step : scheduled) {
            if (step instanceof KernelPlan k) {
                Node[] outputs = k.outputs.toArray(Node[]::new);
                TensorMeta[] layouts = new TensorMeta[outputs.length];
                for (int i = 0; i < outputs.length; i++) layouts[i] = lowering.layouts.get(outputs[i]);
                Launch launch =
                        new Launch(compiled.get(next), kernels.get(next), bufferNodes.get(next), outputs, layouts);
                next++;
                launches.add(launch);
                steps.add(launch);
            } else {
                steps.add(step);
            }
        }
        Inductor.countKernels(kernels.size());
        return new CompiledPlan(gm, steps, symbolValues, launches, decisions);
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
        Map<Node, Object> values = new HashMap<>();
        for (int i = 0; i < placeholders.size(); i++) values.put(placeholders.get(i), inputs[i]);
        for (Node n : gm.graph().nodes()) {
            if (n.op().equals("get_attr")) values.put(n, gm.constants().get(n.target()));
        }
        for (Object step : steps) {
            if (step instanceof Launch launch) {
                launch(launch, values);
            } else {
                Node n = ((Lowering.ExternStep) step).node();
                values.put(n, GraphModule.runNode(n, values, symbolValues));
            }
        }
        Tensor[] results = new Tensor[output.args().size()];
        for (int i = 0; i < results.length; i++) {
            Object a = output.args().get(i);
            results[i] = a instanceof Node n ? (Tensor) values.get(n) : null;
        }
        return results;
    }

    private static void launch(Launch launch, Map<Node, Object> values) {
        for (int i = 0; i < launch.outputs().length; i++) {
            values.put(launch.outputs()[i], allocate(launch.layouts()[i]));
        }
        Node[] buffers = launch.buffers();
        Object[] arrays = new Object[buffers.length];
        long[] offsets = new long[buffers.length];
        for (int i = 0; i < buffers.length; i++) {
            Tensor t = (Tensor) values.get(buffers[i]);
            TensorImpl impl = t.impl();
            arrays[i] = impl.storage().array();
            if (arrays[i] == null) {
                throw new TorchException("inductor: kernel " + launch.kernel().className() + " needs heap tensors; "
                        + buffers[i] + " has no heap array");
            }
            offsets[i] = impl.storageOffset();
        }
        LoopKernel k = launch.ir();
        boolean pointwise = k.isPointwise();
        long total = pointwise ? k.rowLength() : k.rows();
        long grain = pointwise ? Parallel.GRAIN : Math.max(1, Parallel.GRAIN / Math.max(1, k.rowLength()));
        MethodHandle run = launch.kernel().run();
        try {
            Parallel.forRange(total, grain, (start, end) -> invoke(run, arrays, offsets, start, end));
        } catch (IndexOutOfBoundsException e) {
            throw new TorchException(
                    "index out of range in compiled kernel " + launch.kernel().className() + ": " + e.getMessage(), e);
        }
    }

    private static void invoke(MethodHandle run, Object[] arrays, long[] offsets, long start, long end) {
        try {
            run.invokeExact(arrays, offsets, start, end);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private static Tensor allocate(TensorMeta layout) {
        long[] shape = layout.shape();
        long[] stride = layout.stride();
        long slots = 1;
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] == 0) {
                slots = 0;
                break;
            }
            slots += (shape[d] - 1) * stride[d];
        }
        Storage storage = Storage.allocate(layout.dtype().storageKind(), slots);
        return Tensor.of(TensorImpl.of(storage, 0, shape, stride, layout.dtype()));
    }
}

package org.jtorch.compile.inductor;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.compile.inductor.ir.LoopKernel;
import org.jtorch.fx.Node;

/**
 * A kernel while the graph is lowered and scheduled: the loop kernel's parts with buffers named by slot (an index into
 * the graph's list of run-time tensors), and the nodes whose tensors the kernel allocates. The scheduler merges plans
 * and drops stores nobody reads; {@code CompiledPlan} then numbers the buffers locally.
 */
final class KernelPlan {
    String name;
    long[] outer;
    long[] inner;
    final List<LoopKernel.Reduction> reductions = new ArrayList<>();
    final List<LoopKernel.Store> rowStores = new ArrayList<>();
    final List<LoopKernel.Store> elementStores = new ArrayList<>();
    /** The nodes whose tensors this kernel allocates and writes. */
    final List<Node> outputs = new ArrayList<>();
    /** The names of the graph nodes fused into this kernel, for the trace. */
    final List<String> fused = new ArrayList<>();

    KernelPlan(String name, long[] outer, long[] inner) {
        this.name = name;
        this.outer = outer;
        this.inner = inner;
        fused.add(name);
    }

    boolean isPointwise() {
        return reductions.isEmpty();
    }
}

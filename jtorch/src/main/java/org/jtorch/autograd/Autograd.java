package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.List;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.ops.Creation;

/** {@code torch.autograd}: backward passes and gradients of outputs with respect to inputs. */
public final class Autograd {
    private Autograd() {}

    /** Options of {@link #grad(List, List, GradOptions)}, named after {@code torch.autograd.grad}'s arguments. */
    public record GradOptions(
            List<Tensor> gradOutputs,
            Boolean retainGraph,
            boolean createGraph,
            boolean allowUnused,
            boolean materializeGrads) {
        /**
         * {@code torch.autograd.grad}'s defaults: no grad_outputs, retain_graph follows create_graph, nothing else on.
         */
        public static GradOptions defaults() {
            return new GradOptions(null, null, false, false, false);
        }

        /** {@code grad_outputs}: the vector of the vector-Jacobian product, one per output (null: ones for scalars). */
        public GradOptions gradOutputs(List<Tensor> g) {
            return new GradOptions(g, retainGraph, createGraph, allowUnused, materializeGrads);
        }

        /** {@code retain_graph}: keep the graph's saved tensors for another backward. */
        public GradOptions retainGraph(boolean b) {
            return new GradOptions(gradOutputs, b, createGraph, allowUnused, materializeGrads);
        }

        /** {@code create_graph}: record the backward itself, for higher-order derivatives. */
        public GradOptions createGraph(boolean b) {
            return new GradOptions(gradOutputs, retainGraph, b, allowUnused, materializeGrads);
        }

        /** {@code allow_unused}: an input the outputs do not depend on gets a null gradient instead of an error. */
        public GradOptions allowUnused(boolean b) {
            return new GradOptions(gradOutputs, retainGraph, createGraph, b, materializeGrads);
        }

        /** Unused inputs get zeros instead of null (implies allowUnused). */
        public GradOptions materializeGrads(boolean b) {
            return new GradOptions(gradOutputs, retainGraph, createGraph, allowUnused, b);
        }
    }

    /** {@code torch.autograd.grad(output, input, create_graph=createGraph)} for a scalar output. */
    public static Tensor grad(Tensor output, Tensor input, boolean createGraph) {
        return grad(List.of(output), List.of(input), GradOptions.defaults().createGraph(createGraph))
                .get(0);
    }

    /** {@code torch.autograd.grad(outputs, inputs, ...)}; an unused input gives null unless materializeGrads. */
    public static List<Tensor> grad(List<Tensor> outputs, List<Tensor> inputs, GradOptions options) {
        List<Tensor> seeds = seeds(outputs, options.gradOutputs());
        boolean keep = options.retainGraph() != null ? options.retainGraph() : options.createGraph();
        Tensor[] g = Engine.run(
                outputs,
                seeds,
                keep,
                options.createGraph(),
                inputs,
                options.allowUnused() || options.materializeGrads());
        List<Tensor> result = new ArrayList<>(g.length);
        for (int i = 0; i < g.length; i++) {
            Tensor gi = g[i], in = inputs.get(i);
            if (gi == null && options.materializeGrads())
                gi = Creation.full(in.impl().shapeRef(), 0L, in.dtype(), in.device());
            else if (gi != null && gi.dtype() != in.dtype()) gi = gi.to(in.dtype());
            result.add(gi);
        }
        return result;
    }

    private static final java.util.concurrent.atomic.AtomicLong BACKWARD_PASSES =
            new java.util.concurrent.atomic.AtomicLong();

    /**
     * How many backward passes that accumulate into {@code .grad} ({@link #backward}, {@code Tensor.backward()}) have
     * started in this JVM. JTorch's own, with no PyTorch counterpart: {@code Optimizer.step()} reads it to tell "no
     * gradient because no backward ran" from "a backward ran but reached none of my parameters".
     */
    public static long backwardPasses() {
        return BACKWARD_PASSES.get();
    }

    /** {@code torch.autograd.backward(tensors, grad_tensors, retain_graph, create_graph, inputs)}. */
    public static void backward(
            List<Tensor> tensors,
            List<Tensor> gradTensors,
            Boolean retainGraph,
            boolean createGraph,
            List<Tensor> inputs) {
        List<Tensor> seeds = seeds(tensors, gradTensors);
        BACKWARD_PASSES.incrementAndGet();
        boolean keep = retainGraph != null ? retainGraph : createGraph;
        if (inputs == null || inputs.isEmpty()) {
            Engine.run(tensors, seeds, keep, createGraph, null, false);
            return;
        }
        Tensor[] g = Engine.run(tensors, seeds, keep, createGraph, inputs, true);
        for (int i = 0; i < g.length; i++) {
            if (g[i] == null) continue;
            Tensor in = inputs.get(i);
            Tensor add = createGraph ? g[i] : g[i].detach();
            in.setGrad(in.grad() == null ? add : in.grad().add(add));
        }
    }

    /** {@code torch.autograd.gradcheck(fn, input)} with PyTorch's default tolerances; throws on mismatch. */
    public static boolean gradcheck(java.util.function.Function<Tensor, Tensor> fn, Tensor input) {
        return GradCheck.check(xs -> fn.apply(xs.get(0)), List.of(input), GradCheck.Options.defaults());
    }

    /** {@code torch.autograd.gradgradcheck(fn, input)}: second derivatives through createGraph. */
    public static boolean gradgradcheck(java.util.function.Function<Tensor, Tensor> fn, Tensor input) {
        return GradCheck.checkSecondOrder(xs -> fn.apply(xs.get(0)), List.of(input), GradCheck.Options.defaults());
    }

    /** {@code torch.autograd.detect_anomaly()}: a thread-local scope with creation traces and NaN checks. */
    public static AnomalyMode.Scope detectAnomaly() {
        return AnomalyMode.enable(true);
    }

    /** {@code torch.autograd.detect_anomaly(check_nan=checkNan)}. */
    public static AnomalyMode.Scope detectAnomaly(boolean checkNan) {
        return AnomalyMode.enable(checkNan);
    }

    /** {@code torch.is_anomaly_enabled()} for this thread. */
    public static boolean isAnomalyEnabled() {
        return AnomalyMode.isEnabled();
    }

    /** Gradient seeds: ones for scalar outputs, the given tensors otherwise. */
    private static List<Tensor> seeds(List<Tensor> outputs, List<Tensor> given) {
        List<Tensor> seeds = new ArrayList<>(outputs.size());
        for (int i = 0; i < outputs.size(); i++) {
            Tensor o = outputs.get(i);
            Tensor g = given == null ? null : given.get(i);
            if (g == null) {
                if (o.numel() != 1) throw new TorchException("grad can be implicitly created only for scalar outputs");
                g = Creation.full(o.impl().shapeRef(), 1L, o.dtype(), o.device());
            } else if (!java.util.Arrays.equals(g.impl().shapeRef(), o.impl().shapeRef())) {
                throw new TorchException("Mismatch in shape: grad_output[" + i + "] has a shape of "
                        + org.jtorch.internal.Shapes.str(g.impl().shapeRef()) + " and output[" + i + "] has a shape of "
                        + org.jtorch.internal.Shapes.str(o.impl().shapeRef()) + ".");
            }
            seeds.add(g);
        }
        return seeds;
    }
}

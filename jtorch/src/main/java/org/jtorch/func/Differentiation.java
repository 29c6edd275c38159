package org.jtorch.func;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.autograd.AccumulateGrad;
import org.jtorch.autograd.Autograd;
import org.jtorch.autograd.GradMode;
import org.jtorch.autograd.graph.Edge;
import org.jtorch.autograd.graph.Node;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.ops.ShapeOps;

/**
 * Reverse-mode transforms ({@code grad}, {@code vjp}) as a level: the differentiated inputs become fresh tensors that
 * require grad at this level, the function runs with grad mode on, and the engine is asked for the gradients of exactly
 * those tensors.
 *
 * <p>Inside a vmap, an input is lifted into the innermost vmap level (a batched tensor that requires grad itself), so
 * that the vmap records every op on the per-example tensors and each example's gradient stays separate (functorch's
 * grad level above the vmap level). An input that outer levels differentiate is aliased rather than detached, so the
 * gradient computed here stays a differentiable function of it; the backward is then recorded ({@code create_graph})
 * whenever some outer level can see it.
 */
final class Differentiation {
    private Differentiation() {}

    /**
     * A grad/vjp level on the interpreter stack. It sees no ops (autograd records for it); it is there so that nested
     * transforms know it is in flight and levels entered inside it are numbered above it.
     */
    private record GradLevel(int level) implements DispatchState.Interpreter {
        @Override
        public DispatchState.Kind kind() {
            return DispatchState.Kind.GRAD;
        }

        @Override
        public Dispatcher.Mode mode() {
            return null;
        }
    }

    /**
     * The result of running {@code f} at a grad level: its output, the differentiable inputs, and how to get gradients.
     */
    static final class Traced {
        final Object output;
        final Object aux;
        final List<Tensor> inputs;
        final boolean createGraph;

        Traced(Object output, Object aux, List<Tensor> inputs, boolean createGraph) {
            this.output = output;
            this.aux = aux;
            this.inputs = inputs;
            this.createGraph = createGraph;
        }

        /**
         * Gradients of {@code outputs} with seeds {@code cotangents} (null: ones), one per input; unused inputs get
         * zeros.
         */
        Tensor[] gradients(List<Tensor> outputs, List<Tensor> cotangents) {
            List<Tensor> roots = new ArrayList<>(), seeds = new ArrayList<>();
            for (int i = 0; i < outputs.size(); i++) {
                if (outputs.get(i).requiresGrad()) {
                    roots.add(outputs.get(i));
                    seeds.add(cotangents == null ? null : cotangents.get(i));
                }
            }
            Tensor[] out = new Tensor[inputs.size()];
            boolean graph = createGraph || DispatchState.anyEnteredBesides(DispatchState.Kind.GRAD, null);
            if (!roots.isEmpty()) {
                try (GradMode.Scope _ = GradMode.set(true)) {
                    List<Tensor> g = Autograd.grad(
                            roots,
                            inputs,
                            Autograd.GradOptions.defaults()
                                    .gradOutputs(cotangents == null ? null : seeds)
                                    .retainGraph(true)
                                    .createGraph(graph)
                                    .materializeGrads(true));
                    for (int i = 0; i < out.length; i++) out[i] = g.get(i);
                }
            }
            for (int i = 0; i < out.length; i++) if (out[i] == null) out[i] = org.jtorch.Torch.zerosLike(inputs.get(i));
            return out;
        }
    }

    /**
     * Runs {@code f(args)} with the leaves of {@code args[argnums[k]]} replaced by differentiable tensors of a new grad
     * level. With {@code hasAux}, f returns {@code (output, aux)}.
     */
    static Traced trace(Function<Object[], Object> f, Object[] args, int[] argnums, boolean hasAux, String api) {
        GradLevel level = new GradLevel(DispatchState.nextLevel());
        boolean outerGraph = GradMode.isEnabled();
        Object[] a = args.clone();
        List<Tensor> inputs = new ArrayList<>();
        boolean tracked = false;
        try (var _ = DispatchState.enter(level);
                var _ = GradMode.set(true)) {
            VmapInterpreter vm = (VmapInterpreter) DispatchState.innermostEntered(DispatchState.Kind.VMAP);
            for (int n : argnums) {
                List<Object> leaves = PyTree.leaves(args[n]);
                List<Object> replaced = new ArrayList<>();
                for (Object leaf : leaves) {
                    if (!(leaf instanceof Tensor t)) {
                        throw new TorchException(
                                api + ": Expected argnums to point to Tensors (or pytrees of Tensors), got "
                                        + Vmap.typeName(leaf));
                    }
                    tracked |= isTracked(t);
                    Tensor x = differentiable(t, vm);
                    inputs.add(x);
                    replaced.add(x);
                }
                a[n] = PyTree.rebuild(args[n], replaced.iterator());
            }
            Object result = f.apply(a);
            Object output = result, aux = null;
            if (hasAux) {
                if (!(result instanceof Object[] || result instanceof List<?>)
                        || PyTree.children(result).size() != 2) {
                    throw new TorchException(
                            api + "(f, *args): output of function f should be a tuple: (output, aux) if has_aux "
                                    + "is True");
                }
                output = PyTree.children(result).get(0);
                aux = PyTree.children(result).get(1);
            }
            boolean otherGrad = DispatchState.anyEnteredBesides(DispatchState.Kind.GRAD, level);
            boolean createGraph = outerGraph && (tracked || otherGrad || reachesOtherLeaf(output, inputs));
            return new Traced(output, aux, inputs, createGraph);
        }
    }

    /** Whether an outer level differentiates {@code t} (it, or the value inside a batched tensor, requires grad). */
    private static boolean isTracked(Tensor t) {
        while (t != null) {
            if (t.requiresGrad()) return true;
            t = t.transformPayload() instanceof Batched b ? b.value : null;
        }
        return false;
    }

    /**
     * The tensor this level differentiates with respect to, standing for {@code t}. Forward-mode tangents of enclosing
     * jvp levels carry over (jvp of grad, jacfwd of jacrev): only the reverse history is cut.
     */
    private static Tensor differentiable(Tensor t, VmapInterpreter vm) {
        if (!(t.isFloatingPoint() || t.isComplex())) {
            throw new TorchException("only Tensors of floating point and complex dtype can require gradients");
        }
        if (vm != null) {
            Batched b = Batched.at(t, vm.level());
            // Already differentiated at this vmap's level by an outer grad: alias it so that level sees through.
            if (b != null && t.requiresGrad()) return ShapeOps.view(t, t.shape());
            Tensor lifted = b != null ? Batched.wrap(b.value, b.bdim, vm.level()) : Batched.wrap(t, -1, vm.level());
            if (t.forwardGrads() != null) lifted.setForwardGrads(t.forwardGrads());
            return lifted.requiresGrad(true);
        }
        if (t.requiresGrad()) return ShapeOps.view(t, t.shape());
        Tensor x = t.detach();
        if (t.forwardGrads() != null) x.setForwardGrads(t.forwardGrads());
        return x.requiresGrad(true);
    }

    /**
     * Whether the graph of {@code output} reaches a leaf other than this level's inputs (a closed-over tensor that
     * requires grad).
     */
    private static boolean reachesOtherLeaf(Object output, List<Tensor> inputs) {
        Set<Node<Tensor>> own = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Tensor x : inputs) if (x.gradFn() == null) own.add(x.gradAccumulator());
        Set<Node<Tensor>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Node<Tensor>> stack = new ArrayList<>();
        for (Object leaf : PyTree.leaves(output))
            if (leaf instanceof Tensor t && t.gradFn() != null) stack.add(t.gradFn());
        while (!stack.isEmpty()) {
            Node<Tensor> n = stack.remove(stack.size() - 1);
            if (!seen.add(n)) continue;
            if (n instanceof AccumulateGrad && !own.contains(n)) return true;
            for (Edge<Tensor> e : n.nextFunctions()) if (e != null) stack.add(e.node());
        }
        return false;
    }

    /** The output of grad, which PyTorch requires to be a 0-d tensor. */
    static Tensor scalarOutput(Object output) {
        if (!(output instanceof Tensor t)) {
            throw new TorchException(
                    "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got " + Vmap.typeName(output));
        }
        if (t.dim() != 0) {
            throw new TorchException(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got tensor with " + t.dim()
                            + " dims. Maybe you wanted to use the vjp or jacrev APIs instead?");
        }
        return t;
    }

    /** The value handed back to the caller: detached from this level unless outer levels need its history. */
    static Object release(Object value, boolean keepHistory) {
        if (keepHistory) return value;
        List<Object> leaves = new ArrayList<>();
        for (Object l : PyTree.leaves(value)) leaves.add(l instanceof Tensor t ? t.detach() : l);
        return PyTree.rebuild(value, leaves.iterator());
    }

    /** argnums checks with PyTorch's messages. */
    static void checkArgnums(int[] argnums, int nargs, String api) {
        if (argnums.length == 0) throw new TorchException("argnums must be non-empty");
        Set<Integer> seen = new java.util.HashSet<>();
        for (int n : argnums) {
            int w = n < 0 ? n + nargs : n;
            if (w < 0 || w >= nargs) {
                throw new TorchException("Got argnums=" + n + ", but only " + nargs + " positional inputs");
            }
            if (!seen.add(w))
                throw new TorchException("argnums must be unique, got " + java.util.Arrays.toString(argnums));
        }
    }

    static int[] wrapArgnums(int[] argnums, int nargs) {
        int[] w = argnums.clone();
        for (int i = 0; i < w.length; i++) if (w[i] < 0) w[i] += nargs;
        return w;
    }
}

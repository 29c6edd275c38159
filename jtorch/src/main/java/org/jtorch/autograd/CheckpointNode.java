package org.jtorch.autograd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jtorch.DType;
import org.jtorch.Generator;
import org.jtorch.Tensor;
import org.jtorch.internal.Shapes;

/**
 * The node of a checkpointed region. Its inputs are the region's tensor inputs followed by the outside tensors
 * requiring grad that the region read; its backward recomputes the region and runs the engine on the recomputed graph,
 * capturing the gradients of those inputs.
 */
final class CheckpointNode extends Node {
    private Function<List<Tensor>, Tensor> fn;
    private final CheckpointOptions options;
    private Tensor[] inputs;
    private List<Tensor> external;
    private byte[] rngState;
    private SelectiveCache cache;

    CheckpointNode(
            Function<List<Tensor>, Tensor> fn,
            CheckpointOptions options,
            Tensor[] inputs,
            List<Tensor> external,
            byte[] rngState,
            SelectiveCache cache,
            Tensor output) {
        super(
                edges(inputs, external),
                shapes(inputs, external),
                dtypes(inputs, external),
                new long[][] {output.impl().shapeRef()},
                new DType[] {output.dtype()});
        this.fn = fn;
        this.options = options;
        this.inputs = inputs.clone();
        this.external = List.copyOf(external);
        this.rngState = rngState;
        this.cache = cache;
    }

    private static List<Tensor> all(Tensor[] inputs, List<Tensor> external) {
        List<Tensor> all = new ArrayList<>(List.of(inputs));
        all.addAll(external);
        return all;
    }

    private static Edge[] edges(Tensor[] inputs, List<Tensor> external) {
        return all(inputs, external).stream()
                .map(t -> t.requiresGrad() ? Recorder.edgeOf(t) : null)
                .toArray(Edge[]::new);
    }

    private static long[][] shapes(Tensor[] inputs, List<Tensor> external) {
        return all(inputs, external).stream().map(t -> t.impl().shapeRef()).toArray(long[][]::new);
    }

    private static DType[] dtypes(Tensor[] inputs, List<Tensor> external) {
        return all(inputs, external).stream().map(Tensor::dtype).toArray(DType[]::new);
    }

    @Override
    public String name() {
        return "CheckpointFunctionBackward";
    }

    @Override
    Tensor[] apply(Tensor[] gradOutputs) {
        if (fn == null) throw Node.freedError();
        boolean create = GradMode.isEnabled();
        int n = inputs.length;
        // Each input that needs a gradient enters the recompute as a fresh tensor. Without createGraph it is a
        // detached leaf whose gradient is captured, which keeps the engine off the outer graph. Under
        // createGraph it is an alias whose history leads to the input, so the gradients can be differentiated
        // again, and the gradient is captured at the input itself.
        List<Tensor> args = new ArrayList<>(n);
        List<Tensor> targets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Tensor x = inputs[i];
            if (next[i] == null) args.add(x);
            else {
                Tensor a = create ? AliasNode.of(x) : x.detach().requiresGrad(true);
                args.add(a);
                if (!create) targets.add(a);
            }
        }
        // The inputs themselves (each once), which also catches a region reading them from its lambda's closure.
        Map<Tensor, Integer> direct = new IdentityHashMap<>();
        for (int i = 0; i < n; i++) {
            if (next[i] != null && !direct.containsKey(inputs[i])) {
                direct.put(inputs[i], targets.size());
                targets.add(inputs[i]);
            }
        }
        int firstExternal = targets.size();
        targets.addAll(external);
        Tensor out = recompute(args);
        if (options.determinismCheck()) checkMetadata(out);
        Tensor[] result = new Tensor[next.length];
        if (!out.requiresGrad()) return result;
        Tensor[] g = Engine.run(List.of(out), List.of(gradOutputs[0]), create, create, targets, true);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (next[i] == null) continue;
            Tensor viaArg = create ? null : g[k++];
            Integer d = direct.remove(inputs[i]); // the direct gradient goes to the first occurrence only
            Tensor viaInput = d == null ? null : g[d];
            result[i] = viaArg == null ? viaInput : viaInput == null ? viaArg : viaArg.add(viaInput);
        }
        for (int j = 0; j < external.size(); j++) result[n + j] = g[firstExternal + j];
        return result;
    }

    /** Runs the region again with grad enabled, on the forward's RNG state, leaving the generator as it found it. */
    private Tensor recompute(List<Tensor> args) {
        Generator gen = rngState == null ? null : Generator.defaultGenerator();
        byte[] resume = gen == null ? null : gen.getStateBytes();
        try (GradMode.Scope _ = GradMode.set(true)) {
            if (gen != null) gen.setState(rngState);
            SelectiveCache c = cache;
            return c == null ? fn.apply(args) : Checkpoint.withMode(c::replay, () -> fn.apply(args));
        } finally {
            if (gen != null) gen.setState(resume);
        }
    }

    /** {@code determinism_check='default'}: the recomputed output must have the forward's shape and dtype. */
    private void checkMetadata(Tensor out) {
        if (Arrays.equals(out.impl().shapeRef(), outputShapes[0]) && out.dtype() == outputDtypes[0]) return;
        throw new CheckpointError(
                "torch.utils.checkpoint: Recomputed values for the following tensors have different metadata "
                        + "than during the forward pass.\ntensor at position 0:\nsaved metadata: {'shape': "
                        + Shapes.str(outputShapes[0])
                        + ", 'dtype': " + outputDtypes[0] + "}\nrecomputed metadata: {'shape': "
                        + Shapes.str(out.impl().shapeRef())
                        + ", 'dtype': " + out.dtype() + "}\n");
    }

    @Override
    void release() {
        fn = null;
        inputs = null;
        external = null;
        rngState = null;
        cache = null;
    }

    /** {@code view_as(x)}: the same values as {@code x}, with a node passing gradients straight to {@code x}. */
    private static final class AliasNode extends Node {
        private AliasNode(Tensor x) {
            super(
                    new Edge[] {Recorder.edgeOf(x)},
                    new long[][] {x.impl().shapeRef()},
                    new DType[] {x.dtype()},
                    new long[][] {x.impl().shapeRef()},
                    new DType[] {x.dtype()});
        }

        static Tensor of(Tensor x) {
            Tensor a = x.detach();
            a.setGradFn(new AliasNode(x), 0);
            return a;
        }

        @Override
        public String name() {
            return "AliasBackward0";
        }

        @Override
        Tensor[] apply(Tensor[] gradOutputs) {
            return gradOutputs.clone();
        }
    }
}

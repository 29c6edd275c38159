package org.jtorch.library;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.Spec;
import org.jtorch.ops.Backends;
import org.jtorch.ops.BatchCall;
import org.jtorch.ops.DeviceCopyOps;
import org.jtorch.ops.InputMask;
import org.jtorch.ops.OpDef;

/**
 * A custom operator ({@code torch.library.custom_op}): a schema and a Java kernel made into an {@link OpDef}, so that
 * it runs through the dispatcher as a built-in op does and every layer sees it by its qualified name
 * ({@code mylib::mysin}): autograd records it, vmap batches it, DebugMode logs it, meta tensors run its fake.
 *
 * <p>The definition is complete when it is made; what {@code register*} adds later is read by its slots at call time:
 *
 * <ul>
 *   <li><b>meta rule</b>: on meta and fake tensors, the {@link #registerFake fake implementation} (shapes and dtypes
 *       only), or an error naming the op when none is registered. On real tensors the outputs are whatever the kernel
 *       returns, so the meta rule runs the kernel and hands its results on in the {@link Spec}'s plan;
 *   <li><b>kernel</b>: copies those results into the outputs the dispatcher allocated, on any device (the user's kernel
 *       for a device type is the one {@link #registerKernel registered} for it, else the one given at definition). The
 *       user's kernel runs below every interpreter with grad mode off, as a backend kernel runs below PyTorch's modes:
 *       the ops it calls belong to no transform. Arguments its schema marks written ({@code Tensor(a!)}) get their
 *       version counter bumped;
 *   <li><b>VJP</b>: the {@link #registerAutograd registered} setup and backward, or an error naming the op;
 *   <li><b>batch rule</b>: the {@link #registerVmap registered} rule, or a decline, so that vmap runs its per-example
 *       loop with its performance warning.
 * </ul>
 */
public final class CustomOp {
    /**
     * {@code torch.library.register_vmap}'s rule: given the batch size, each argument's batch dim ({@code null} for an
     * argument that is not batched or not a tensor) and the arguments themselves (a batched one holding every example,
     * its batch dim at {@code inDims[i]}), returns the batched output and the dim of it that is the batch dim. The ops
     * it calls on those tensors, this op included, run as plain calls for this vmap level.
     */
    @FunctionalInterface
    public interface VmapRule {
        /** The batched call: the output and its batch dim, for {@code batchSize} examples. */
        VmapResult apply(long batchSize, Integer[] inDims, Object[] args);
    }

    /** A {@link VmapRule}'s result: the output and its batch dim ({@code null} when it is not batched). */
    public record VmapResult(Tensor output, Integer outDim) {}

    private record AutogradRegistration(
            BiFunction<AutogradContext, Tensor[], Tensor[]> backward, SetupContext setupContext) {}

    private final OpDef def;
    /** The kernel given at definition: it serves every device type without a kernel of its own. */
    private final Function<Object[], Object> kernel;
    /** Kernels registered for one device type ({@code register_kernel}), by type ({@code "cpu"}). */
    private final Map<String, Function<Object[], Object>> deviceKernels = new ConcurrentHashMap<>();

    private final int[] writtenArgs;
    private volatile Function<Object[], Object> fake;
    private volatile AutogradRegistration autograd;
    private volatile VmapRule vmapRule;

    CustomOp(String qualifiedName, String schema, Function<Object[], Object> kernel) {
        if (!qualifiedName.contains("::")) {
            throw new IllegalArgumentException(
                    "customOp: expected a qualified name namespace::name (e.g. mylib::mysin), got " + qualifiedName);
        }
        if (!schema.startsWith("(")) {
            throw new IllegalArgumentException(
                    qualifiedName + ": expected a schema without name, e.g. (Tensor x) -> Tensor, got " + schema);
        }
        Schema parsed = Schema.parse(qualifiedName + schema);
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.writtenArgs = writtenArguments(parsed);
        OpDef.Flag[] flags = writtenArgs.length > 0 ? new OpDef.Flag[] {OpDef.Flag.SIDE_EFFECTS} : new OpDef.Flag[0];
        this.def = OpDef.custom(parsed, this::infer, CustomOp::copyResults, flags)
                .defineVjp(OpDef.Save.INPUTS_AND_OUTPUTS, this::vjp)
                .defineBatchRule(this::batch);
        // The copy of the kernel's results into the dispatcher's outputs works on every device.
        Backends.registerDeviceGeneric(def);
    }

    private static int[] writtenArguments(Schema schema) {
        List<Schema.Argument> args = schema.arguments();
        return IntStream.range(0, args.size())
                .filter(i -> args.get(i).isMutable())
                .toArray();
    }

    /** {@code register_fake}: computes outputs of the right shapes and dtypes from meta tensors. Returns this. */
    public CustomOp registerFake(Function<Object[], Object> fake) {
        this.fake = Objects.requireNonNull(fake, "fake");
        return this;
    }

    /**
     * {@code register_autograd(backward, setup_context=...)}: {@code setupContext} saves what {@code backward} needs;
     * {@code backward(ctx, gradOutputs)} returns one gradient per tensor input, in argument order ({@code null} for
     * none), written in tensor ops so that higher orders come free. {@code setupContext} runs when the backward does,
     * on the inputs and output autograd saved for it (their version counters checked), so it must only select and
     * compute what to save, as PyTorch's setup_context does. Returns this.
     */
    public CustomOp registerAutograd(
            BiFunction<AutogradContext, Tensor[], Tensor[]> backward, SetupContext setupContext) {
        this.autograd = new AutogradRegistration(
                Objects.requireNonNull(backward, "backward"), Objects.requireNonNull(setupContext, "setupContext"));
        return this;
    }

    /**
     * {@code register_kernel(device_type, fn)}: the kernel for tensors on devices of {@code deviceType} ({@code "cpu"},
     * an accelerator backend's type), in place of the one given at definition. Its results may live on another device:
     * they are copied to the inputs' device. Meta tensors run the {@link #registerFake fake}. Returns this.
     */
    public CustomOp registerKernel(String deviceType, Function<Object[], Object> kernel) {
        Objects.requireNonNull(deviceType, "deviceType");
        if (deviceType.equals(Device.META.type())) {
            throw new IllegalArgumentException(
                    qualifiedName() + ": register the meta implementation with registerFake");
        }
        deviceKernels.put(deviceType, Objects.requireNonNull(kernel, "kernel"));
        return this;
    }

    /** {@code register_vmap}: the op's batching rule; without one, vmap loops over the examples. Returns this. */
    public CustomOp registerVmap(VmapRule rule) {
        if (def.schema().returns().size() != 1) {
            throw new IllegalArgumentException(qualifiedName() + ": registerVmap takes ops with one Tensor return; "
                    + "vmap runs the others per example");
        }
        this.vmapRule = Objects.requireNonNull(rule, "rule");
        return this;
    }

    /**
     * Calls the op through the dispatcher with its arguments in schema order. Returns a {@link Tensor}, a
     * {@code Tensor[]} for several returns, or null for none.
     */
    public Object call(Object... args) {
        Object result = Dispatcher.call(def, args);
        return def.schema().returns().isEmpty() ? null : result;
    }

    /** The qualified name, e.g. {@code mylib::mysin}. */
    public String qualifiedName() {
        return def.qualifiedName();
    }

    /** The schema as PyTorch prints it, e.g. {@code mylib::mysin(Tensor x) -> Tensor}. */
    public String schemaString() {
        return def.schema().toString();
    }

    /** The typed schema (not public: {@code dispatch} is not an exported package). */
    Schema schema() {
        return def.schema();
    }

    boolean hasFake() {
        return fake != null;
    }

    boolean hasAutograd() {
        return autograd != null;
    }

    /** The fake implementation, run on meta arguments below every interpreter. */
    Object runFake(Object[] metaArgs) {
        Function<Object[], Object> f = fake;
        if (f == null) throw noFake();
        return plain(f, metaArgs);
    }

    /** The user's kernel for the arguments' device, run on real arguments below every interpreter. */
    Object runKernel(Object[] args) {
        Function<Object[], Object> k = deviceKernels.getOrDefault(deviceOf(args).type(), kernel);
        return plain(k, args);
    }

    int[] writtenArgs() {
        return writtenArgs.clone();
    }

    // ---- the definition's slots -----------------------------------------------------------------------

    private Spec infer(Object[] args) {
        Device device = deviceOf(args);
        // fake tensors (FakeTensorMode) hold no data either: the fake implementation gives their outputs' metadata
        boolean meta = device == Device.META || DispatchState.current().isFakeAllocation();
        Tensor[] outs = outputs(meta ? runFake(args) : runKernel(args), meta ? "fake implementation" : "kernel");
        if (!meta)
            for (int i : writtenArgs) if (args[i] instanceof Tensor t) t.impl().bumpVersion();
        long[][] shapes = new long[outs.length][];
        DType[] dtypes = new DType[outs.length];
        for (int i = 0; i < outs.length; i++) {
            shapes[i] = outs[i].shape();
            dtypes[i] = outs[i].dtype();
        }
        return new Spec(shapes, dtypes, device, meta ? null : outs);
    }

    private static void copyResults(Object[] args, Tensor[] outs, Spec spec) {
        Tensor[] results = (Tensor[]) spec.plan();
        for (int i = 0; i < outs.length; i++) DeviceCopyOps.copyAcross(results[i], outs[i]);
    }

    private Tensor[] vjp(Object[] args, Tensor[] outputs, Tensor[] gradOutputs, InputMask mask) {
        AutogradRegistration r = autograd;
        if (r == null) {
            throw new TorchException(qualifiedName() + ": no autograd registered: an input requires grad but the "
                    + "custom op has no backward; register one with registerAutograd(backward, setupContext)");
        }
        AutogradContext ctx = new AutogradContext(mask);
        r.setupContext().setup(ctx, args.clone(), outputs.length == 1 ? outputs[0] : outputs.clone());
        Tensor[] grads = r.backward().apply(ctx, gradOutputs.clone());
        int tensorInputs = tensorInputCount(args);
        if (grads == null || grads.length != tensorInputs) {
            throw new TorchException(qualifiedName() + ": the registered backward returned "
                    + (grads == null ? "null" : grads.length + " gradients") + ", expected one per tensor input ("
                    + tensorInputs + ")");
        }
        return grads;
    }

    private Object batch(BatchCall call) {
        VmapRule rule = vmapRule;
        if (rule == null) return OpDef.BatchRule.DECLINE;
        Object[] args = call.args();
        Object[] physical = new Object[args.length];
        Integer[] inDims = new Integer[args.length];
        for (int i = 0; i < args.length; i++) {
            // A rule sees one batch dim per argument: a list holding batched tensors runs per example instead.
            if (args[i] instanceof Tensor[] ts) for (Tensor t : ts) if (call.batched(t)) return OpDef.BatchRule.DECLINE;
            if (!(args[i] instanceof Tensor)) physical[i] = args[i];
            else {
                physical[i] = call.front(args[i]);
                if (call.batched(i)) inDims[i] = 0;
            }
        }
        VmapResult result = rule.apply(call.batch(), inDims, physical);
        if (result == null || result.output() == null) {
            throw new TorchException(qualifiedName() + ": the registered vmap rule returned no output");
        }
        Tensor out = result.output();
        if (result.outDim() == null) {
            long[] size = call.withBatch(out.shape());
            return call.lift(call.expand(call.unsqueeze(out, 0), size));
        }
        int outDim = result.outDim() < 0 ? result.outDim() + out.dim() : result.outDim();
        return call.lift(call.moveDim(out, outDim, 0));
    }

    // ---- helpers ------------------------------------------------------------------------------------------

    /** Runs {@code fn} below every interpreter with grad mode off: its ops are the op's implementation. */
    private static Object plain(Function<Object[], Object> fn, Object[] args) {
        DispatchState state = DispatchState.current();
        boolean grad = state.isGradEnabled();
        state.setGradEnabled(false);
        try {
            return DispatchState.runBelowAll(() -> fn.apply(args));
        } finally {
            state.setGradEnabled(grad);
        }
    }

    /** The result as the schema's returns: one tensor per return, checked by count and type. */
    Tensor[] outputs(Object result, String what) {
        List<Schema.Return> returns = def.schema().returns();
        Tensor[] outs;
        if (returns.isEmpty()) {
            if (result != null && !(result instanceof Tensor[] ts && ts.length == 0)) {
                throw new TorchException(
                        qualifiedName() + ": the " + what + " returned a value, but the schema " + "returns nothing");
            }
            return new Tensor[0];
        }
        if (result instanceof Tensor t) outs = new Tensor[] {t};
        else if (result instanceof Tensor[] ts) outs = ts.clone();
        else {
            throw new TorchException(qualifiedName() + ": the " + what + " returned "
                    + (result == null ? "null" : result.getClass().getSimpleName()) + ", expected "
                    + (returns.size() == 1 ? "a Tensor" : "a Tensor[] of " + returns.size()));
        }
        if (outs.length != returns.size()) {
            throw new TorchException(qualifiedName() + ": the " + what + " returned " + outs.length
                    + (outs.length == 1 ? " tensor" : " tensors") + ", the schema returns " + returns.size());
        }
        for (int i = 0; i < outs.length; i++) {
            if (!returns.get(i).type().isTensor() || outs[i] == null) {
                throw new TorchException(qualifiedName() + ": return " + i + " of the schema is "
                        + returns.get(i).type() + "; custom ops return tensors");
            }
        }
        return outs;
    }

    private TorchException noFake() {
        return new TorchException(qualifiedName() + ": no fake implementation registered, so the op cannot run on "
                + "meta (fake) tensors; register one with registerFake");
    }

    private static Device deviceOf(Object[] args) {
        for (Object a : args) if (a instanceof Tensor t) return t.device();
        return Device.CPU;
    }

    static int tensorInputCount(Object[] args) {
        int n = 0;
        for (Object a : args) {
            if (a instanceof Tensor) n++;
            else if (a instanceof Tensor[] ts) n += ts.length;
        }
        return n;
    }

    static List<Tensor> tensorInputs(Object[] args) {
        List<Tensor> ts = new ArrayList<>();
        for (Object a : args) if (a instanceof Tensor t) ts.add(t);
        return ts;
    }

    @Override
    public String toString() {
        return schemaString();
    }
}

package org.jtorch.ops;

import java.util.EnumSet;
import java.util.Set;
import java.util.function.Predicate;
import org.jtorch.Tensor;
import org.jtorch.dispatch.DeterministicAlgorithms;
import org.jtorch.dispatch.DispatchState;
import org.jtorch.dispatch.Dispatcher;
import org.jtorch.dispatch.Operator;
import org.jtorch.dispatch.Schema;
import org.jtorch.dispatch.Spec;

/**
 * The one definition of an op: its schema, its meta rule, its kernels and the slots for the rules that autograd,
 * forward AD and vmap read. Every op runs through the {@link Dispatcher} ({@link #call}, {@link #call1},
 * {@link #callOut}), which sees it as an {@link Operator}; below the interpreters, {@link Execution} runs it.
 *
 * <p>An op is one of three kinds:
 *
 * <ul>
 *   <li><b>structured</b>: a {@link Meta} rule computes output shapes and dtypes and performs every input check; the
 *       dispatcher allocates the outputs on the inputs' device and, unless that device is meta, the CPU {@link Kernel}
 *       writes them. The meta rule always runs, so it cannot drift from the kernel;
 *   <li><b>view</b>: a {@link ViewFn} computes new geometry over the same storage; it touches no data, so it is its own
 *       meta rule;
 *   <li><b>composite</b>: a {@link Composite} built from other ops, which inherits their rules.
 * </ul>
 *
 * Args are the op's arguments in schema order: {@link Tensor}, {@link org.jtorch.Scalar}, boxed numbers,
 * {@code long[]}, enums, or {@code null} for an absent optional.
 */
public final class OpDef implements Operator {
    /**
     * Properties the dispatcher and transforms need to know (PyTorch's tags). {@code POINTWISE}: each output element
     * depends only on the broadcast input elements at its index (vmap batches it by broadcasting).
     * {@code DYNAMIC_OUTPUT_SHAPE}: the output's shape depends on the input's values (vmap refuses a batch of them, as
     * PyTorch does). {@code NONDETERMINISTIC}: some calls have no deterministic implementation, so that under
     * {@code torch.use_deterministic_algorithms(True)} they raise or warn ({@link #nondeterministicWhen}).
     */
    public enum Flag {
        INPLACE,
        VIEW,
        RANDOM,
        NONDETERMINISTIC,
        NOT_DIFFERENTIABLE,
        SIDE_EFFECTS,
        POINTWISE,
        DYNAMIC_OUTPUT_SHAPE
    }

    /** Shape/dtype rule of a structured op; owns every input check and its message. */
    @FunctionalInterface
    public interface Meta {
        Spec infer(Object[] args);
    }

    /**
     * CPU kernel of a structured op: writes {@code outs}, allocated from the meta rule's {@link Spec}. It must write
     * every element of its outputs without reading them first: fresh outputs are not zeroed (as ATen's
     * {@code at::empty} is not), and {@code out=} calls hand it the caller's tensors as they are.
     */
    @FunctionalInterface
    public interface Kernel {
        void run(Object[] args, Tensor[] outs, Spec spec);

        /**
         * {@code kernel} run on outputs filled with zeros first: for kernels that place values into zeros (a gradient
         * into its input's shape, a scatter, an unpooling), as ATen's kernels {@code zero_()} their outputs first.
         */
        static Kernel intoZeros(Kernel kernel) {
            return (args, outs, spec) -> {
                for (Tensor out : outs) out.zero_();
                kernel.run(args, outs, spec);
            };
        }
    }

    /** A view op: new sizes/strides/offset over the input's storage. */
    @FunctionalInterface
    public interface ViewFn {
        Tensor apply(Object[] args);
    }

    /** A composite op, written with other ops. Returns a Tensor, a Tensor[] or a record of tensors. */
    @FunctionalInterface
    public interface Composite {
        Object apply(Object[] args);
    }

    /**
     * Reverse-mode rule, written in differentiable tensor ops so that gradients of any order come free. Returns one
     * gradient per tensor input, in argument order ({@code Tensor[]} arguments expanded in place), {@code null} for
     * "zero". Gradients may have the output's broadcast shape and the compute dtype: the engine sums them to each
     * input's shape and casts them to its dtype, as PyTorch's {@code validate_outputs} does.
     */
    @FunctionalInterface
    public interface Vjp {
        Tensor[] apply(Object[] args, Tensor[] outputs, Tensor[] gradOutputs);
    }

    /**
     * A reverse-mode rule that is also told which tensor inputs need a gradient, so that it can skip expensive
     * gradients nobody asked for; otherwise as {@link Vjp}. Most rules are plain {@link Vjp}s.
     */
    @FunctionalInterface
    public interface MaskedVjp {
        Tensor[] apply(Object[] args, Tensor[] outputs, Tensor[] gradOutputs, InputMask mask);
    }

    /**
     * What a backward rule reads besides the output gradients; autograd keeps exactly that alive and checks its version
     * counters. Arguments that are not tensors (dims, scalars) are always kept.
     */
    public enum Save {
        NOTHING,
        INPUTS,
        OUTPUTS,
        INPUTS_AND_OUTPUTS;

        public boolean inputs() {
            return this == INPUTS || this == INPUTS_AND_OUTPUTS;
        }

        public boolean outputs() {
            return this == OUTPUTS || this == INPUTS_AND_OUTPUTS;
        }
    }

    /** Forward-mode rule: output tangents from input tangents, in differentiable ops. */
    @FunctionalInterface
    public interface Jvp {
        Tensor[] apply(Object[] args, Tensor[] outputs, Tensor[] inputTangents);
    }

    /**
     * vmap rule (functorch's batching rule): runs the call with the batch dims moved first and returns the wrapped
     * results, or {@link #DECLINE} for an argument pattern it does not cover, which then runs the per-example loop. The
     * call is seen through {@link BatchCall}, which the vmap interpreter implements.
     */
    @FunctionalInterface
    public interface BatchRule {
        /** Returned by a rule that does not handle this argument pattern. */
        Object DECLINE = new Object();

        Object apply(BatchCall call);
    }

    private final Schema schema;
    private final Meta meta;
    private final Kernel kernel;
    private final ViewFn view;
    private final Composite composite;
    private final Set<Flag> flags;
    private volatile MaskedVjp vjp;
    private volatile Save vjpSaves = Save.INPUTS_AND_OUTPUTS;
    private volatile boolean vjpTakesMissingGrads;
    private volatile long outputsWithoutGrad;
    private volatile Jvp jvp;
    private volatile BatchRule batchRule;
    private volatile String vmapFallbackReason;
    private volatile String derivativeGap;
    private volatile NondeterministicAlert nondeterministic;

    /**
     * Which calls of an op have no deterministic implementation: those whose args pass {@code when}; {@code caller} is
     * the kernel PyTorch's error names (e.g. {@code max_unpooling2d_forward_out}).
     */
    private record NondeterministicAlert(String caller, Predicate<Object[]> when) {}

    private OpDef(Schema schema, Meta meta, Kernel kernel, ViewFn view, Composite composite, Set<Flag> flags) {
        this.schema = schema;
        this.meta = meta;
        this.kernel = kernel;
        this.view = view;
        this.composite = composite;
        this.flags = flags;
    }

    /**
     * A structured op, registered in {@link OpRegistry}. The schema string is parsed here, once; a malformed one fails
     * the definition (and so the class that holds it) with an exception naming the schema.
     */
    public static OpDef structured(String schema, Meta meta, Kernel kernel, Flag... flags) {
        return structured(Schema.parse(schema), meta, kernel, flags);
    }

    /** A structured op of an already parsed schema (an op derived from another one's definition), registered. */
    public static OpDef structured(Schema schema, Meta meta, Kernel kernel, Flag... flags) {
        return registered(Unregistered.structured(schema, meta, kernel, flags));
    }

    /** A view op, registered in {@link OpRegistry}. */
    public static OpDef view(String schema, ViewFn view) {
        return registered(new OpDef(Schema.parse(schema), null, null, view, null, flagSet(new Flag[] {Flag.VIEW})));
    }

    /**
     * A view op that autograd never records ({@link Flag#NOT_DIFFERENTIABLE}, PyTorch's
     * {@code output_differentiability: False}), registered in {@link OpRegistry}.
     */
    public static OpDef nondifferentiableView(String schema, ViewFn view) {
        return registered(new OpDef(
                Schema.parse(schema), null, null, view, null, flagSet(new Flag[] {Flag.VIEW, Flag.NOT_DIFFERENTIABLE
                })));
    }

    /** A composite op, registered in {@link OpRegistry}. */
    public static OpDef composite(String schema, Composite composite, Flag... flags) {
        return registered(Unregistered.composite(schema, composite, flags));
    }

    /**
     * A structured op defined while the program runs ({@code torch.library}'s custom ops), registered with
     * {@link OpRegistry#registerCustom}: outside the built-in namespace, listed apart from the built-in ops.
     */
    public static OpDef custom(Schema schema, Meta meta, Kernel kernel, Flag... flags) {
        OpDef op = new OpDef(schema, meta, kernel, null, null, flagSet(flags));
        OpRegistry.registerCustom(op);
        return op;
    }

    private static OpDef registered(OpDef op) {
        OpRegistry.register(op);
        return op;
    }

    /**
     * Definitions kept out of {@link OpRegistry}, so that no sweep sees them (a test's probe of the dispatcher or
     * autograd), or that take a registered definition's place as it is declared ({@code Pointwise.checked}).
     */
    public static final class Unregistered {
        private Unregistered() {}

        public static OpDef structured(String schema, Meta meta, Kernel kernel, Flag... flags) {
            return structured(Schema.parse(schema), meta, kernel, flags);
        }

        public static OpDef structured(Schema schema, Meta meta, Kernel kernel, Flag... flags) {
            return new OpDef(schema, meta, kernel, null, null, flagSet(flags));
        }

        public static OpDef composite(String schema, Composite composite, Flag... flags) {
            return new OpDef(Schema.parse(schema), null, null, null, composite, flagSet(flags));
        }
    }

    private static Set<Flag> flagSet(Flag[] flags) {
        EnumSet<Flag> s = EnumSet.noneOf(Flag.class);
        for (Flag f : flags) s.add(f);
        return s;
    }

    /** Runs this op through the dispatcher: a {@link Tensor}, a {@code Tensor[]} or what a composite returns. */
    public Object call(Object... args) {
        return Dispatcher.call(this, args);
    }

    /** {@link #call} of an op with one tensor output. */
    public Tensor call1(Object... args) {
        return (Tensor) Dispatcher.call(this, args);
    }

    /** Runs this op through the dispatcher into the existing tensors {@code outs} (out= and in-place forms). */
    public void callOut(Tensor[] outs, Object... args) {
        Dispatcher.callOut(this, outs, args);
    }

    @Override
    public Object callBelowInterpreters(DispatchState state, Object[] args) {
        return Execution.call(state, this, args);
    }

    @Override
    public void callOutBelowInterpreters(Object[] outs, Object[] args) {
        // every output array reaching an op is one of tensors: made by callOut, or passed on by an interpreter
        Execution.callOut(this, (Tensor[]) outs, args);
    }

    /** The typed schema, e.g. of {@code add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor}. */
    @Override
    public Schema schema() {
        return schema;
    }

    /** Op name without overload, e.g. {@code add}. Errors and traces use it. */
    @Override
    public String name() {
        return schema.name();
    }

    /** The registry's key: {@code aten::name.overload}, or {@code aten::name} for an op without overload. */
    public String qualifiedName() {
        return schema.qualifiedName();
    }

    public Meta meta() {
        return meta;
    }

    public Kernel kernel() {
        return kernel;
    }

    public ViewFn viewFn() {
        return view;
    }

    public Composite compositeFn() {
        return composite;
    }

    public boolean has(Flag f) {
        return flags.contains(f);
    }

    /**
     * Tags the calls of this op whose args pass {@code when} as having no deterministic implementation: before such a
     * call runs, {@link DeterministicAlgorithms#alertNotDeterministic} raises (or warns) naming {@code caller} when
     * deterministic algorithms are on. Returns this.
     */
    public OpDef nondeterministicWhen(String caller, Predicate<Object[]> when) {
        this.nondeterministic = new NondeterministicAlert(caller, when);
        flags.add(Flag.NONDETERMINISTIC);
        return this;
    }

    /**
     * Alerts if this call has no deterministic implementation (see {@link #nondeterministicWhen}); an op flagged
     * {@link Flag#NONDETERMINISTIC} without a rule alerts on every call, under its own name.
     */
    void alertIfNondeterministic(Object[] args) {
        if (!flags.contains(Flag.NONDETERMINISTIC) || !DeterministicAlgorithms.enabled()) return;
        NondeterministicAlert alert = nondeterministic;
        if (alert == null) DeterministicAlgorithms.alertNotDeterministic(name());
        else if (alert.when().test(args)) DeterministicAlgorithms.alertNotDeterministic(alert.caller());
    }

    /** The flags, for a definition that wraps this one. */
    Flag[] flags() {
        return flags.toArray(Flag[]::new);
    }

    /** The reverse-mode rule ({@link Vjp}s are seen as masked rules that ignore the mask), or null. */
    public MaskedVjp vjp() {
        return vjp;
    }

    public Save vjpSaves() {
        return vjpSaves;
    }

    /** Whether the VJP receives null for an output no gradient reached (see {@link #vjpTakesMissingGrads()}). */
    public boolean vjpReadsMissingGradsAsNull() {
        return vjpTakesMissingGrads;
    }

    /**
     * Declares that the VJP handles a null gradient for an output nothing used, as PyTorch's formulas see an undefined
     * gradient; otherwise autograd hands it a zero tensor. For multi-output ops whose rule has a fast path when only
     * some outputs are used. Returns this.
     */
    public OpDef vjpTakesMissingGrads() {
        this.vjpTakesMissingGrads = true;
        return this;
    }

    /**
     * Declares outputs that autograd never connects to the graph (PyTorch's {@code output_differentiability: False}):
     * they never require grad, and the VJP receives null for them. Returns this.
     */
    public OpDef outputsWithoutGrad(int... outputs) {
        long mask = 0;
        for (int o : outputs) mask |= 1L << o;
        this.outputsWithoutGrad = mask;
        this.vjpTakesMissingGrads = true;
        return this;
    }

    /** Whether output {@code index} can carry a gradient (see {@link #outputsWithoutGrad}). */
    public boolean outputHasGrad(int index) {
        return (outputsWithoutGrad & (1L << index)) == 0;
    }

    /** Whether autograd records this op at all (false for integer-valued and explicitly flagged ops). */
    public boolean isDifferentiable() {
        return !flags.contains(Flag.NOT_DIFFERENTIABLE);
    }

    public Jvp jvp() {
        return jvp;
    }

    /**
     * The vmap rule, the one place vmap looks for it; null for an op without one. The rules are written with the vmap
     * machinery of {@code org.jtorch.func} and attach when its interpreter loads, before any vmap runs.
     */
    public BatchRule batchRule() {
        return batchRule;
    }

    /** Registers the reverse-mode rule and declares what it reads. Returns this, for use at the definition. */
    public OpDef defineVjp(Save saves, Vjp rule) {
        MaskedVjp ignoringMask = (args, outputs, gradOutputs, mask) -> rule.apply(args, outputs, gradOutputs);
        return defineVjp(saves, ignoringMask);
    }

    /** Registers a reverse-mode rule that reads which inputs need a gradient, and declares what it reads. */
    public OpDef defineVjp(Save saves, MaskedVjp rule) {
        if (derivativeGap != null) throw new IllegalStateException(this + " declares its derivative not implemented");
        this.vjpSaves = saves;
        this.vjp = rule;
        return this;
    }

    /**
     * Registers the forward-mode rule: output tangents from the input tangents (one per tensor argument, in the order
     * of {@link Vjp}'s gradients, null = zero), written in differentiable ops. Returns this.
     */
    public OpDef defineJvp(Jvp rule) {
        this.jvp = rule;
        return this;
    }

    /**
     * Registers a forward-mode rule built from this op, e.g. {@code deriveJvp(Jvps::linear)} (the op applied to the
     * tangents) or {@code deriveJvp(Jvps::elementwise)} (from the elementwise VJP). Returns this.
     */
    public OpDef deriveJvp(java.util.function.Function<OpDef, Jvp> rule) {
        this.jvp = rule.apply(this);
        return this;
    }

    /** Registers the vmap rule, once: a second rule for one op is an error. Returns this. */
    public OpDef defineBatchRule(BatchRule rule) {
        if (vmapFallbackReason != null) throw new IllegalStateException(this + " declares a vmap fallback, not a rule");
        if (batchRule != null) throw new IllegalStateException(this + " has a batch rule already");
        this.batchRule = rule;
        return this;
    }

    /**
     * Declares that vmap runs this op as a per-example loop (with a performance warning), and why no batch rule is
     * written; an op with tensor inputs needs a rule, this declaration, or to be composite or random.
     */
    public OpDef vmapFallsBack(String reason) {
        if (reason == null || reason.isBlank()) throw new IllegalArgumentException(this + ": a gap needs a reason");
        if (batchRule != null) throw new IllegalStateException(this + " has a batch rule: it does not fall back");
        this.vmapFallbackReason = reason;
        return this;
    }

    /** Why vmap loops over the examples of this op, or null if it does not by declaration. */
    public String vmapFallbackReason() {
        return vmapFallbackReason;
    }

    /**
     * Declares that autograd records this op but has no derivative for it, and why (PyTorch's {@code not_implemented}
     * in derivatives.yaml): a backward through it raises "the derivative ... is not implemented". An op differentiable
     * by its flags needs a VJP, this declaration, or to be composite.
     */
    public OpDef derivativeNotImplemented(String reason) {
        if (reason == null || reason.isBlank()) throw new IllegalArgumentException(this + ": a gap needs a reason");
        if (vjp != null) throw new IllegalStateException(this + " has a VJP: its derivative is implemented");
        this.derivativeGap = reason;
        return this;
    }

    /** Why this op has no derivative although autograd records it, or null. */
    public String derivativeNotImplementedReason() {
        return derivativeGap;
    }

    /**
     * Whether autograd knows what to do with this op: it has a VJP, is composite (its pieces have theirs), is not
     * differentiable, or declares its derivative missing. The registry refuses, as it loads, an op for which this is
     * false.
     */
    public boolean derivativeIsDeclared() {
        return vjp != null || composite != null || !isDifferentiable() || derivativeGap != null;
    }

    @Override
    public String toString() {
        return schema.toString();
    }
}

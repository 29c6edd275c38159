package org.jtorch.ops;

import java.util.EnumSet;
import java.util.Set;
import org.jtorch.Tensor;
import org.jtorch.dispatch.Schema;

/**
 * The one definition of an op: its schema, its meta rule, its kernels and the slots for the rules
 * that autograd, forward AD and vmap read. Every op runs through {@link org.jtorch.dispatch.Dispatcher}.
 *
 * <p>An op is one of three kinds:
 * <ul>
 *   <li><b>structured</b>: a {@link Meta} rule computes output shapes and dtypes and performs every input
 *       check; the dispatcher allocates the outputs on the inputs' device and, unless that device is
 *       meta, the CPU {@link Kernel} writes them. The meta rule always runs, so it cannot drift from
 *       the kernel;</li>
 *   <li><b>view</b>: a {@link ViewFn} computes new geometry over the same storage; it touches no data,
 *       so it is its own meta rule;</li>
 *   <li><b>composite</b>: a {@link Composite} built from other ops, which inherits their rules.</li>
 * </ul>
 * Args are the op's arguments in schema order: {@link Tensor}, {@link org.jtorch.Scalar}, boxed numbers,
 * {@code long[]}, enums, or {@code null} for an absent optional.
 */
public final class OpDef {
    /** Properties the dispatcher and transforms need to know. */
    public enum Flag { INPLACE, VIEW, RANDOM, NONDETERMINISTIC, NOT_DIFFERENTIABLE, SIDE_EFFECTS }

    /** Shape/dtype rule of a structured op; owns every input check and its message. */
    @FunctionalInterface
    public interface Meta {
        Spec infer(Object[] args);
    }

    /** CPU kernel of a structured op: writes {@code outs}, allocated from the meta rule's {@link Spec}. */
    @FunctionalInterface
    public interface Kernel {
        void run(Object[] args, Tensor[] outs, Spec spec);
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
     * Reverse-mode rule, written in differentiable tensor ops so that gradients of any order come free.
     * Returns one gradient per tensor input, in argument order ({@code Tensor[]} arguments expanded in
     * place), {@code null} for "zero". Gradients may have the output's broadcast shape and the compute
     * dtype: the engine sums them to each input's shape and casts them to its dtype, as PyTorch's
     * {@code validate_outputs} does.
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
     * What a backward rule reads besides the output gradients; autograd keeps exactly that alive and
     * checks its version counters. Arguments that are not tensors (dims, scalars) are always kept.
     */
    public enum Save { NOTHING, INPUTS, OUTPUTS, INPUTS_AND_OUTPUTS;
        public boolean inputs() { return this == INPUTS || this == INPUTS_AND_OUTPUTS; }

        public boolean outputs() { return this == OUTPUTS || this == INPUTS_AND_OUTPUTS; }
    }

    /** Forward-mode rule: output tangents from input tangents, in differentiable ops. */
    @FunctionalInterface
    public interface Jvp {
        Tensor[] apply(Object[] args, Tensor[] outputs, Tensor[] inputTangents);
    }

    /** vmap rule: runs the op on batched args whose batch dims are given (-1 = not batched). */
    @FunctionalInterface
    public interface BatchRule {
        Object apply(Object[] args, int[] batchDims);
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
    private volatile Jvp jvp;
    private volatile BatchRule batchRule;

    private OpDef(Schema schema, Meta meta, Kernel kernel, ViewFn view, Composite composite, Set<Flag> flags) {
        this.schema = schema;
        this.meta = meta;
        this.kernel = kernel;
        this.view = view;
        this.composite = composite;
        this.flags = flags;
    }

    /**
     * A structured op. The schema string is parsed here, once; a malformed one fails the definition (and so
     * the class that holds it) with an exception naming the schema.
     */
    public static OpDef structured(String schema, Meta meta, Kernel kernel, Flag... flags) {
        return structured(Schema.parse(schema), meta, kernel, flags);
    }

    /** A structured op of an already parsed schema (an op derived from another one's definition). */
    public static OpDef structured(Schema schema, Meta meta, Kernel kernel, Flag... flags) {
        return new OpDef(schema, meta, kernel, null, null, flagSet(flags));
    }

    public static OpDef view(String schema, ViewFn view) {
        return new OpDef(Schema.parse(schema), null, null, view, null, flagSet(new Flag[] {Flag.VIEW}));
    }

    public static OpDef composite(String schema, Composite composite, Flag... flags) {
        return new OpDef(Schema.parse(schema), null, null, null, composite, flagSet(flags));
    }

    private static Set<Flag> flagSet(Flag[] flags) {
        EnumSet<Flag> s = EnumSet.noneOf(Flag.class);
        for (Flag f : flags) s.add(f);
        return s;
    }

    /** The typed schema, e.g. of {@code add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor}. */
    public Schema schema() { return schema; }

    /** Op name without overload, e.g. {@code add}. Errors and traces use it. */
    public String name() { return schema.name(); }

    public Meta meta() { return meta; }

    public Kernel kernel() { return kernel; }

    public ViewFn viewFn() { return view; }

    public Composite compositeFn() { return composite; }

    public boolean has(Flag f) { return flags.contains(f); }

    /** The reverse-mode rule ({@link Vjp}s are seen as masked rules that ignore the mask), or null. */
    public MaskedVjp vjp() { return vjp; }

    public Save vjpSaves() { return vjpSaves; }

    /** Whether the VJP receives null for an output no gradient reached (see {@link #vjpTakesMissingGrads()}). */
    public boolean vjpReadsMissingGradsAsNull() { return vjpTakesMissingGrads; }

    /**
     * Declares that the VJP handles a null gradient for an output nothing used, as PyTorch's formulas see an
     * undefined gradient; otherwise autograd hands it a zero tensor. For multi-output ops whose rule has a fast
     * path when only some outputs are used. Returns this.
     */
    public OpDef vjpTakesMissingGrads() { this.vjpTakesMissingGrads = true; return this; }

    /** Whether autograd records this op at all (false for integer-valued and explicitly flagged ops). */
    public boolean isDifferentiable() { return !flags.contains(Flag.NOT_DIFFERENTIABLE); }

    public Jvp jvp() { return jvp; }

    public BatchRule batchRule() { return batchRule; }

    /** Registers the reverse-mode rule and declares what it reads. Returns this, for use at the definition. */
    public OpDef defineVjp(Save saves, Vjp rule) {
        MaskedVjp ignoringMask = (args, outputs, gradOutputs, mask) -> rule.apply(args, outputs, gradOutputs);
        return defineVjp(saves, ignoringMask);
    }

    /** Registers a reverse-mode rule that reads which inputs need a gradient, and declares what it reads. */
    public OpDef defineVjp(Save saves, MaskedVjp rule) {
        this.vjpSaves = saves;
        this.vjp = rule;
        return this;
    }

    /**
     * Registers the forward-mode rule: output tangents from the input tangents (one per tensor argument, in
     * the order of {@link Vjp}'s gradients, null = zero), written in differentiable ops. Returns this.
     */
    public OpDef defineJvp(Jvp rule) { this.jvp = rule; return this; }

    /**
     * Registers a forward-mode rule built from this op, e.g. {@code deriveJvp(Jvps::linear)} (the op applied
     * to the tangents) or {@code deriveJvp(Jvps::elementwise)} (from the elementwise VJP). Returns this.
     */
    public OpDef deriveJvp(java.util.function.Function<OpDef, Jvp> rule) { this.jvp = rule.apply(this); return this; }

    /** Registers the vmap rule (once). */
    public OpDef defineBatchRule(BatchRule rule) { this.batchRule = rule; return this; }

    @Override
    public String toString() { return schema.toString(); }
}

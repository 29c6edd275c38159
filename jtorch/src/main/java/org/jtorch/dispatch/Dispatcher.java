package org.jtorch.dispatch;

import java.util.Arrays;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.accelerator.spi.Backends;
import org.jtorch.autograd.GradMode;
import org.jtorch.autograd.Recorder;
import org.jtorch.autograd.ViewRebase;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.Spec;
import org.jtorch.ops.TypePromotion;

/**
 * The one entry point through which every op runs: modes (innermost last) → composite expansion →
 * view geometry or meta rule → allocation on the inputs' device → the kernel of that device (the op's CPU
 * kernel, or the one a device backend registered, see {@link Backends}).
 *
 * <p>The path with no active mode is a handful of branches and the allocation of the outputs: no
 * reflection, no maps, no exceptions for control flow (see docs/benchmarks.md for its cost).
 */
public final class Dispatcher {
    private Dispatcher() {}

    /** An interpreter on the mode stack (vmap, forward AD, tracing, DebugMode...). */
    @FunctionalInterface
    public interface Mode {
        /** Handles the op or passes it on with {@code next.call(op, args)}. */
        Object process(OpDef op, Object[] args, Next next);

        /**
         * Handles an in-place or {@code out=} call, whose results are written into {@code outs}. By default
         * the mode sees it as {@link #process} returning the written outputs; a mode that must see or
         * replace the destinations (vmap, whose outputs may be batched wrappers) overrides this.
         */
        default Object processOut(OpDef op, Tensor[] outs, Object[] args, NextOut next) {
            return process(op, args, (o, a) -> next.call(o, outs, a));
        }
    }

    /**
     * The rest of an in-place or {@code out=} dispatch below a mode. With {@code outs == null} it runs the plain
     * (out-of-place) call below the mode instead, for modes that need helper ops while handling an out= call.
     */
    @FunctionalInterface
    public interface NextOut {
        Object call(OpDef op, Tensor[] outs, Object[] args);
    }

    /** The rest of the dispatch below a mode. */
    @FunctionalInterface
    public interface Next {
        Object call(OpDef op, Object[] args);
    }

    private static final Mode[] NO_MODES = new Mode[0];
    private static final ThreadLocal<Mode[]> MODES = ThreadLocal.withInitial(() -> NO_MODES);

    /** Runs {@code op}; returns a {@link Tensor}, a {@code Tensor[]} (several outputs) or what a composite returns. */
    public static Object call(OpDef op, Object... args) {
        Mode[] modes = MODES.get();
        if (modes.length == 0) return callBelowModes(op, args);
        return callMode(modes, modes.length - 1, op, args, Dispatcher::callBelowModes);
    }

    /** {@link #call} for ops with one tensor output. */
    public static Tensor call1(OpDef op, Object... args) {
        return (Tensor) call(op, args);
    }

    /** Runs the modes from {@code level} down, then {@code bottom} (the plain call or the out= call). */
    private static Object callMode(Mode[] modes, int level, OpDef op, Object[] args, Next bottom) {
        if (level < 0) return bottom.call(op, args);
        return modes[level].process(op, args, (o, a) -> callMode(modes, level - 1, o, a, bottom));
    }

    /**
     * Pushes an interpreter for the current thread; closing the returned scope pops it. Scopes must
     * close in reverse order of opening.
     */
    public static AutoCloseable pushMode(Mode mode) {
        Mode[] before = MODES.get();
        Mode[] after = Arrays.copyOf(before, before.length + 1);
        after[before.length] = mode;
        MODES.set(after);
        return () -> {
            if (MODES.get() != after) throw new IllegalStateException("mode scopes closed out of order");
            MODES.set(before);
        };
    }

    /** Whether no mode (transform, debug or tracing interpreter) is on this thread's stack: ops run as plain eager calls. */
    public static boolean noModes() { return MODES.get().length == 0; }

    /** Whether {@code mode} is on this thread's stack (a mode is off it while lowered by {@link #withModesBelow}). */
    public static boolean isActive(Mode mode) {
        for (Mode m : MODES.get()) if (m == mode) return true;
        return false;
    }

    /**
     * Runs {@code body} with only the modes below {@code mode} active (functorch's "lower the level"): an
     * interpreter computing its rule with ops must not see those ops itself. {@code mode} must be on the stack.
     */
    public static <T> T withModesBelow(Mode mode, java.util.function.Supplier<T> body) {
        Mode[] before = MODES.get();
        int level = before.length - 1;
        while (level >= 0 && before[level] != mode) level--;
        if (level < 0) throw new IllegalStateException("mode is not active on this thread");
        MODES.set(level == 0 ? NO_MODES : Arrays.copyOf(before, level));
        try {
            return body.get();
        } finally {
            MODES.set(before);
        }
    }

    private static Object callBelowModes(OpDef op, Object[] args) {
        OpDef.Composite composite = op.compositeFn();
        if (composite != null) return composite.apply(args); // its pieces record themselves
        boolean record = Recorder.needed(op, args);
        OpDef.ViewFn view = op.viewFn();
        if (view != null) {
            Tensor result = view.apply(args);
            if (record) Recorder.begin(op, args, new Tensor[] {result}, false).finish(new Tensor[] {result});
            return result;
        }
        Spec spec = op.meta().infer(args);
        Tensor[] outs = new Tensor[spec.outputs()];
        for (int i = 0; i < outs.length; i++) outs[i] = Tensor.of(Backends.empty(spec.shapes()[i], spec.dtypes()[i],
                spec.device()));
        Device device = spec.device();
        if (device == Device.CPU) op.kernel().run(args, outs, spec);
        else if (device != Device.META) Backends.kernel(op, device).run(args, outs, spec);
        if (record) Recorder.begin(op, args, outs, false).finish(outs);
        return outs.length == 1 ? outs[0] : outs;
    }

    /**
     * In-place writes that autograd cannot follow are refused rather than silently giving wrong
     * gradients: a leaf that requires grad, and a view whose history cannot be rebased onto its base.
     */
    private static void checkInPlace(Tensor out) {
        if (out.isLeaf() && out.requiresGrad()) {
            throw new TorchException("a leaf Variable that requires grad is being used in an in-place operation.");
        }
        if (out.viewBase() != null) ViewRebase.check(out);
    }

    /** After a recorded write into views: their bases take the write into their history (PyTorch's rebase_history). */
    private static void rebaseViews(Tensor[] outs, Object[] args) {
        for (Tensor out : outs) {
            if (out.viewBase() != null && out.gradFn() != null) ViewRebase.rebase(out, slotOf(out, args));
        }
    }

    /** The input slot (tensor arguments flattened, as the recorder numbers them) holding {@code t}, or -1. */
    private static int slotOf(Tensor t, Object[] args) {
        int slot = 0;
        for (Object a : args) {
            if (a instanceof Tensor x) {
                if (x == t) return slot;
                slot++;
            } else if (a instanceof Tensor[] xs) {
                for (Tensor x : xs) {
                    if (x == t) return slot;
                    slot++;
                }
            }
        }
        return -1;
    }

    /**
     * Runs a structured op into existing outputs (PyTorch's {@code out=} and in-place forms). An output
     * must have the result's shape (an empty output is not resized: pass a correctly shaped one) and a
     * dtype the result can be cast to.
     */
    public static void callOut(OpDef op, Tensor[] outs, Object... args) {
        Mode[] modes = MODES.get();
        if (modes.length == 0) {
            callOutBelowModes(op, outs, args);
            return;
        }
        // Modes see the op, its outputs and its arguments; the result they get back is the written outputs.
        callOutMode(modes, modes.length - 1, op, outs, args);
    }

    private static Object callOutMode(Mode[] modes, int level, OpDef op, Tensor[] outs, Object[] args) {
        if (level < 0) {
            callOutBelowModes(op, outs, args);
            return outs.length == 1 ? outs[0] : outs;
        }
        return modes[level].processOut(op, outs, args, (o, w, a) -> w == null
                ? callMode(modes, level - 1, o, a, Dispatcher::callBelowModes) : callOutMode(modes, level - 1, o, w, a));
    }

    private static void callOutBelowModes(OpDef op, Tensor[] outs, Object[] args) {
        if (op.meta() == null) throw new TorchException(op.name() + ": has no out= variant");
        Spec spec = op.meta().infer(args);
        if (outs.length != spec.outputs()) {
            throw new TorchException(op.name() + "(): expected " + spec.outputs() + " out tensors, got " + outs.length);
        }
        Tensor[] targets = new Tensor[outs.length];
        boolean direct = true;
        for (int i = 0; i < outs.length; i++) {
            Tensor out = outs[i];
            long[] shape = spec.shapes()[i];
            if (!Arrays.equals(out.shape(), shape)) {
                throw new TorchException(op.name() + "(): output with shape " + Shapes.str(out.shape())
                        + " doesn't match the broadcast shape " + Shapes.str(shape));
            }
            DType dt = spec.dtypes()[i];
            if (out.dtype() != dt && !TypePromotion.canCast(dt, out.dtype())) {
                throw new TorchException(op.name() + "(): result type " + dt.cppName()
                        + " can't be cast to the desired output type " + out.dtype().cppName());
            }
            if (out.device() != spec.device()) {
                throw new TorchException(op.name() + "(): Expected out tensor to be on " + spec.device() + " but got "
                        + out.device());
            }
            if (out.dtype() == dt) targets[i] = out;
            else {
                targets[i] = Tensor.of(Backends.empty(shape, dt, spec.device()));
                direct = false;
            }
        }
        boolean record = Recorder.needed(op, args) || anyRequiresGrad(outs) && GradMode.isEnabled();
        if (GradMode.isEnabled()) for (Tensor out : outs) if (record || out.requiresGrad()) checkInPlace(out);
        Recorder.Pending pending = record ? Recorder.begin(op, args, outs, true) : null;
        Device device = spec.device();
        if (device == Device.META) {
            if (pending != null) {
                pending.finish(outs);
                rebaseViews(outs, args);
            }
            return;
        }
        try (GradMode.Scope noRecord = GradMode.set(false)) { // a dtype-converting copy below is part of this op
            (device == Device.CPU ? op.kernel() : Backends.kernel(op, device)).run(args, targets, spec);
            for (int i = 0; i < outs.length; i++) {
                if (!direct && targets[i] != outs[i]) outs[i].copy_(targets[i]);
                outs[i].impl().bumpVersion();
            }
        }
        if (pending != null) {
            pending.finish(outs);
            rebaseViews(outs, args);
        }
    }

    private static boolean anyRequiresGrad(Tensor[] ts) {
        for (Tensor t : ts) if (t.requiresGrad()) return true;
        return false;
    }
}

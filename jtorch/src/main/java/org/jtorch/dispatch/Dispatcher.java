package org.jtorch.dispatch;

import java.util.Arrays;
import java.util.ServiceLoader;
import org.jtorch.DType;
import org.jtorch.Device;
import org.jtorch.Tensor;
import org.jtorch.TorchException;
import org.jtorch.internal.Shapes;
import org.jtorch.ops.OpDef;
import org.jtorch.ops.Spec;
import org.jtorch.ops.TypePromotion;

/**
 * The one entry point through which every op runs: the interpreters in effect in this thread's {@link DispatchState}
 * (innermost first) → composite expansion → view geometry or meta rule → allocation on the inputs' device → the kernel
 * of that device (the op's CPU kernel, or the one a device backend registered, see {@link Backends}), with the
 * {@link AutogradLayer} recording the call when grad mode is on.
 *
 * <p>The path with no interpreter in effect is a handful of branches and the allocation of the outputs: one read of the
 * thread's state, no reflection, no maps, no exceptions for control flow (see docs/benchmarks.md for its cost).
 */
public final class Dispatcher {
    private Dispatcher() {}

    /** The autograd layer, installed when this class is first used, so before the first op runs. */
    private static final AutogradLayer AUTOGRAD = installedAutograd();

    private static AutogradLayer installedAutograd() {
        return ServiceLoader.load(AutogradLayer.class, AutogradLayer.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no implementation of " + AutogradLayer.class.getName()
                        + " is installed (its META-INF/services entry is missing from the class path)"));
    }

    /** What an interpreter of the {@link DispatchState} stack does with the ops that reach it. */
    @FunctionalInterface
    public interface Mode {
        /** Handles the op or passes it on with {@code next.call(op, args)}. */
        Object process(OpDef op, Object[] args, Next next);

        /**
         * Handles an in-place or {@code out=} call, whose results are written into {@code outs}. By default the mode
         * sees it as {@link #process} returning the written outputs; a mode that must see or replace the destinations
         * (vmap, whose outputs may be batched wrappers) overrides this.
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

    /** Runs {@code op}; returns a {@link Tensor}, a {@code Tensor[]} (several outputs) or what a composite returns. */
    public static Object call(OpDef op, Object... args) {
        DispatchState state = DispatchState.current();
        Mode[] modes = state.modes;
        if (modes.length == 0) return callBelowModes(state, op, args);
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

    /** The plain call below the interpreters, reading grad mode on the calling thread. */
    private static Object callBelowModes(OpDef op, Object[] args) {
        return callBelowModes(DispatchState.current(), op, args);
    }

    private static Object callBelowModes(DispatchState state, OpDef op, Object[] args) {
        OpDef.Composite composite = op.compositeFn();
        if (composite != null) return composite.apply(args); // its pieces record themselves
        boolean record = state.isGradEnabled() && op.isDifferentiable() && AUTOGRAD.anyRequiresGrad(args);
        OpDef.ViewFn view = op.viewFn();
        if (view != null) {
            Tensor result = view.apply(args);
            if (record) AUTOGRAD.begin(op, args, new Tensor[] {result}, false).finish(new Tensor[] {result});
            return result;
        }
        Spec spec = op.meta().infer(args);
        Tensor[] outs = new Tensor[spec.outputs()];
        for (int i = 0; i < outs.length; i++)
            outs[i] = Tensor.of(Backends.empty(spec.shapes()[i], spec.dtypes()[i], spec.device()));
        Device device = spec.device();
        if (device == Device.CPU) op.kernel().run(args, outs, spec);
        else if (device != Device.META) Backends.kernel(op, device).run(args, outs, spec);
        if (record) AUTOGRAD.begin(op, args, outs, false).finish(outs);
        return outs.length == 1 ? outs[0] : outs;
    }

    /**
     * Runs a structured op into existing outputs (PyTorch's {@code out=} and in-place forms). An output must have the
     * result's shape (an empty output is not resized: pass a correctly shaped one) and a dtype the result can be cast
     * to.
     */
    public static void callOut(OpDef op, Tensor[] outs, Object... args) {
        Mode[] modes = DispatchState.current().modes;
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
        return modes[level].processOut(
                op,
                outs,
                args,
                (o, w, a) -> w == null
                        ? callMode(modes, level - 1, o, a, Dispatcher::callBelowModes)
                        : callOutMode(modes, level - 1, o, w, a));
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
                throw new TorchException(
                        op.name() + "(): result type " + dt.cppName() + " can't be cast to the desired output type "
                                + out.dtype().cppName());
            }
            if (out.device() != spec.device()) {
                throw new TorchException(
                        op.name() + "(): Expected out tensor to be on " + spec.device() + " but got " + out.device());
            }
            if (out.dtype() == dt) targets[i] = out;
            else {
                targets[i] = Tensor.of(Backends.empty(shape, dt, spec.device()));
                direct = false;
            }
        }
        DispatchState state = DispatchState.current();
        boolean grad = state.isGradEnabled();
        boolean record = grad && (op.isDifferentiable() && AUTOGRAD.anyRequiresGrad(args) || anyRequiresGrad(outs));
        if (grad) for (Tensor out : outs) if (record || out.requiresGrad()) AUTOGRAD.checkWrite(out);
        AutogradLayer.Recording recording = record ? AUTOGRAD.begin(op, args, outs, true) : null;
        Device device = spec.device();
        if (device == Device.META) {
            if (recording != null) {
                recording.finish(outs);
                AUTOGRAD.rebaseWrittenViews(outs, args);
            }
            return;
        }
        state.setGradEnabled(false); // a dtype-converting copy below is part of this op
        try {
            (device == Device.CPU ? op.kernel() : Backends.kernel(op, device)).run(args, targets, spec);
            for (int i = 0; i < outs.length; i++) {
                if (!direct && targets[i] != outs[i]) outs[i].copy_(targets[i]);
                outs[i].impl().bumpVersion();
            }
        } finally {
            state.setGradEnabled(grad);
        }
        if (recording != null) {
            recording.finish(outs);
            AUTOGRAD.rebaseWrittenViews(outs, args);
        }
    }

    private static boolean anyRequiresGrad(Tensor[] ts) {
        for (Tensor t : ts) if (t.requiresGrad()) return true;
        return false;
    }
}

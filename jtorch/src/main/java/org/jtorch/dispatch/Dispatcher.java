package org.jtorch.dispatch;

/**
 * The one entry point through which every op runs: the interpreters in effect in this thread's {@link DispatchState}
 * (innermost first), then the op itself ({@link Operator#callBelowInterpreters}: composite expansion, view geometry or
 * meta rule, allocation, the device's kernel, autograd's recording; see {@code org.jtorch.ops.OpDef}).
 *
 * <p>The dispatcher is boxed: it sees an op as an {@link Operator} and its arguments, outputs and results as plain
 * objects, so that it depends on no tensor type and on no op definition (the layers above implement both).
 *
 * <p>The path with no interpreter in effect is one read of the thread's state and a call: no reflection, no maps, no
 * exceptions for control flow (see docs/benchmarks.md for its cost).
 */
public final class Dispatcher {
    private Dispatcher() {}

    /**
     * What an interpreter of the {@link DispatchState} stack does with the ops that reach it. Every operator is an op
     * definition of {@code org.jtorch.ops} and every output array an array of its tensors: interpreters, written above
     * that layer, cast to those types.
     */
    @FunctionalInterface
    public interface Mode {
        /** Handles the op or passes it on with {@code next.call(op, args)}. */
        Object process(Operator op, Object[] args, Next next);

        /**
         * Handles an in-place or {@code out=} call, whose results are written into {@code outs}. By default the mode
         * sees it as {@link #process} returning the written outputs; a mode that must see or replace the destinations
         * (vmap, whose outputs may be batched wrappers) overrides this.
         */
        default Object processOut(Operator op, Object[] outs, Object[] args, NextOut next) {
            return process(op, args, (o, a) -> next.call(o, outs, a));
        }
    }

    /**
     * The rest of an in-place or {@code out=} dispatch below a mode. With {@code outs == null} it runs the plain
     * (out-of-place) call below the mode instead, for modes that need helper ops while handling an out= call.
     */
    @FunctionalInterface
    public interface NextOut {
        Object call(Operator op, Object[] outs, Object[] args);
    }

    /** The rest of the dispatch below a mode. */
    @FunctionalInterface
    public interface Next {
        Object call(Operator op, Object[] args);
    }

    /** Runs {@code op}; returns a tensor, an array of tensors (several outputs) or what a composite returns. */
    public static Object call(Operator op, Object... args) {
        DispatchState state = DispatchState.current();
        Mode[] modes = state.modes;
        if (modes.length == 0) return op.callBelowInterpreters(state, args);
        return callMode(modes, modes.length - 1, op, args, Dispatcher::callBelowModes);
    }

    /** Runs the modes from {@code level} down, then {@code bottom} (the plain call or the out= call). */
    private static Object callMode(Mode[] modes, int level, Operator op, Object[] args, Next bottom) {
        if (level < 0) return bottom.call(op, args);
        return modes[level].process(op, args, (o, a) -> callMode(modes, level - 1, o, a, bottom));
    }

    /** The plain call below the interpreters, reading grad mode on the calling thread. */
    private static Object callBelowModes(Operator op, Object[] args) {
        return op.callBelowInterpreters(DispatchState.current(), args);
    }

    /**
     * Runs an op into existing outputs (PyTorch's {@code out=} and in-place forms). An output must have the result's
     * shape (an empty output is not resized: pass a correctly shaped one) and a dtype the result can be cast to.
     */
    public static void callOut(Operator op, Object[] outs, Object... args) {
        Mode[] modes = DispatchState.current().modes;
        if (modes.length == 0) {
            op.callOutBelowInterpreters(outs, args);
            return;
        }
        // Modes see the op, its outputs and its arguments; the result they get back is the written outputs.
        callOutMode(modes, modes.length - 1, op, outs, args);
    }

    private static Object callOutMode(Mode[] modes, int level, Operator op, Object[] outs, Object[] args) {
        if (level < 0) {
            op.callOutBelowInterpreters(outs, args);
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
}

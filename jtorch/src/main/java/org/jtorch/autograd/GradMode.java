package org.jtorch.autograd;

import org.jtorch.dispatch.DispatchState;

/**
 * Grad mode: whether ops record history, a flag of this thread's {@link DispatchState}. {@code Torch.noGrad()},
 * {@code enableGrad()}, {@code setGradEnabled} and {@code inferenceMode()} change it for the current thread with
 * try-with-resources scopes that restore the previous state.
 */
public final class GradMode {
    private GradMode() {}

    /** Whether ops on this thread record autograd history. */
    public static boolean isEnabled() {
        return DispatchState.current().isGradEnabled();
    }

    /** Whether this thread is inside {@code inferenceMode()}. */
    public static boolean isInference() {
        return DispatchState.current().isInference();
    }

    /** A scope that restores the previous mode when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Sets grad mode for the current thread until the returned scope is closed. */
    public static Scope set(boolean enabled) {
        DispatchState.Scope scope = DispatchState.gradEnabled(enabled);
        return scope::close;
    }

    /** Inference mode: no recording, as {@code torch.inference_mode()}. */
    public static Scope inference(boolean on) {
        DispatchState s = DispatchState.current();
        boolean beforeGrad = s.isGradEnabled(), beforeInf = s.isInference();
        s.setGradEnabled(beforeGrad && !on);
        s.setInference(on);
        return () -> {
            s.setGradEnabled(beforeGrad);
            s.setInference(beforeInf);
        };
    }
}

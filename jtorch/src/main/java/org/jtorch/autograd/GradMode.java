package org.jtorch.autograd;

/**
 * Thread-local grad mode: whether ops record history. {@code Torch.noGrad()}, {@code enableGrad()},
 * {@code setGradEnabled} and {@code inferenceMode()} change it for the current thread with
 * try-with-resources scopes that restore the previous state.
 */
public final class GradMode {
    private GradMode() {}

    private static final ThreadLocal<boolean[]> STATE = ThreadLocal.withInitial(() -> new boolean[] {true, false});

    /** Whether ops on this thread record autograd history. */
    public static boolean isEnabled() { return STATE.get()[0]; }

    /** Whether this thread is inside {@code inferenceMode()}. */
    public static boolean isInference() { return STATE.get()[1]; }

    /** A scope that restores the previous mode when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Sets grad mode for the current thread until the returned scope is closed. */
    public static Scope set(boolean enabled) {
        boolean[] s = STATE.get();
        boolean before = s[0];
        s[0] = enabled;
        return () -> s[0] = before;
    }

    /** Inference mode: no recording, as {@code torch.inference_mode()}. */
    public static Scope inference(boolean on) {
        boolean[] s = STATE.get();
        boolean beforeGrad = s[0], beforeInf = s[1];
        s[0] = beforeGrad && !on;
        s[1] = on;
        return () -> {
            s[0] = beforeGrad;
            s[1] = beforeInf;
        };
    }
}

package org.jtorch.autograd;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code torch.autograd.detect_anomaly}: while a scope is open on a thread, every node recorded there keeps the stack
 * trace of its forward op, and the engine checks every gradient a node returns for NaN. Thread-local, as the brief of
 * this port asks (PyTorch's flag is process-wide).
 */
public final class AnomalyMode {
    private AnomalyMode() {}

    /** Per thread: {enabled, checkNan}. */
    private static final ThreadLocal<boolean[]> STATE = ThreadLocal.withInitial(() -> new boolean[] {false, false});
    /** Open scopes on all threads: when zero, recording skips the thread-local lookup entirely. */
    private static final AtomicInteger OPEN = new AtomicInteger();

    /** Internal frames dropped from the top of a creation trace, so it starts at the caller's line. */
    private static final Set<String> INTERNAL_AUTOGRAD = Set.of(
            "AnomalyMode",
            "Node",
            "OpNode",
            "Recorder",
            "RecordingLayer",
            "Function",
            "FunctionNode",
            "Checkpoint",
            "CheckpointNode",
            "SelectiveCache",
            "Engine",
            "Autograd");

    /** A scope that restores the previous anomaly setting when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    /** Whether anomaly detection is on for this thread ({@code torch.is_anomaly_enabled()}). */
    public static boolean isEnabled() {
        return OPEN.get() != 0 && STATE.get()[0];
    }

    /** Whether the engine checks gradients for NaN on this thread ({@code torch.is_anomaly_check_nan_enabled()}). */
    public static boolean checksNan() {
        return OPEN.get() != 0 && STATE.get()[0] && STATE.get()[1];
    }

    /** Turns anomaly detection on for this thread until the scope closes. */
    public static Scope enable(boolean checkNan) {
        boolean[] s = STATE.get();
        boolean beforeOn = s[0], beforeNan = s[1];
        s[0] = true;
        s[1] = checkNan;
        OPEN.incrementAndGet();
        return new Scope() {
            private boolean closed;

            @Override
            public void close() {
                if (closed) return;
                closed = true;
                s[0] = beforeOn;
                s[1] = beforeNan;
                OPEN.decrementAndGet();
            }
        };
    }

    /** The current stack without the library's own frames on top, or null when anomaly mode is off. */
    static StackTraceElement[] captureTrace() {
        if (!isEnabled()) return null;
        StackTraceElement[] all = new Throwable().getStackTrace();
        int k = 0;
        while (k < all.length && isInternal(all[k].getClassName())) k++;
        return Arrays.copyOfRange(all, k, all.length);
    }

    private static boolean isInternal(String cls) {
        if (cls.equals("org.jtorch.Tensor") || cls.equals("org.jtorch.Torch") || cls.equals("org.jtorch.AtenOp"))
            return true;
        if (cls.startsWith("org.jtorch.dispatch.")
                || cls.startsWith("org.jtorch.ops.")
                || cls.startsWith("org.jtorch.kernels.")) {
            return true;
        }
        if (!cls.startsWith("org.jtorch.autograd.")) return false;
        String simple = cls.substring("org.jtorch.autograd.".length());
        int inner = simple.indexOf('$');
        return INTERNAL_AUTOGRAD.contains(inner < 0 ? simple : simple.substring(0, inner));
    }

    /** PyTorch's anomaly report: the forward traceback of the node whose backward failed ("" if none was kept). */
    static String forwardTraceback(Node node) {
        if (node.creationTrace == null) return "";
        StringBuilder sb = new StringBuilder("\nError detected in ")
                .append(node.name())
                .append(". Traceback of forward call that caused the error:");
        for (StackTraceElement e : node.creationTrace) sb.append("\n\tat ").append(e);
        return sb.toString();
    }
}

package org.jtorch.dispatch;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Everything that changes how an op runs on this thread: one stack of interpreters (vmap levels, grad levels,
 * forward-AD dual levels, DebugMode and other modes), outermost first, and the grad-mode flags that the autograd layer
 * reads. functorch's dynamic layer stack and JAX's interpreter stack are the models: each interpreter has a kind and a
 * level (its 1-based position on the stack), so nested transforms are ordered and told apart.
 *
 * <p>An interpreter that sees ops ({@link Interpreter#mode()} not null) is called by {@link Dispatcher#call} innermost
 * first. While one computes its rule with ops, it and the interpreters above it are <i>lowered</i> ({@link #runBelow}):
 * out of the dispatch walk, but still entered, so that levels entered meanwhile are numbered above them and autograd
 * keeps recording for the grad levels among them (grad levels see no ops: autograd records for them).
 *
 * <p>The plain eager path reads this state once per op: {@link Dispatcher#call} checks that no interpreter in effect
 * sees ops, and the grad-mode flag, on the same object.
 */
public final class DispatchState {
    /** What an interpreter is; transforms look for their own kind on the stack. */
    public enum Kind {
        /** A vmap level: batches the ops on its wrapped tensors. */
        VMAP,
        /** A grad/vjp level: sees no ops, autograd records for it. */
        GRAD,
        /** A forward-AD dual level: propagates tangents with the ops' JVP rules. */
        FORWARD_AD,
        /** A DebugMode: logs the ops that reach it. */
        DEBUG,
        /** A tracer ({@code make_fx}): records the ops that reach it into a graph and runs them below itself. */
        TRACE,
        /** A fake-tensor mode: runs every op on fake tensors, through the meta rules only. */
        FAKE,
        /** An autocast scope ({@code torch.autocast}): casts the arguments of the ops on its lists. */
        AUTOCAST,
        /** Any other interpreter that sees ops (a checkpointed region's watcher, a test's probe). */
        MODE
    }

    /** An entry of the stack. */
    public interface Interpreter {
        Kind kind();

        /** Its position on the stack when entered, 1 for the outermost: deeper levels are nested inside. */
        int level();

        /** What it does with the ops that reach it, or null when it sees none (a grad level). */
        Dispatcher.Mode mode();
    }

    /**
     * An interpreter that handles the ops reaching it itself (vmap, forward AD, tracing, fake tensors, autocast): its
     * kind, its level, and itself as its mode.
     */
    public abstract static class ModeInterpreter implements Interpreter, Dispatcher.Mode {
        private final Kind kind;
        /** Its position on the stack ({@link #nextLevel()} when it is made). */
        protected final int level;

        protected ModeInterpreter(Kind kind, int level) {
            this.kind = kind;
            this.level = level;
        }

        @Override
        public final Kind kind() {
            return kind;
        }

        @Override
        public final int level() {
            return level;
        }

        @Override
        public final Dispatcher.Mode mode() {
            return this;
        }
    }

    /** Leaves an interpreter when closed; scopes must close in reverse order of entering. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }

    private static final ThreadLocal<DispatchState> CURRENT = ThreadLocal.withInitial(DispatchState::new);
    private static final Dispatcher.Mode[] NO_MODES = new Dispatcher.Mode[0];

    /** The entered interpreters, outermost first: {@code entries[i].level() == i + 1}. */
    private Interpreter[] entries = new Interpreter[4];
    /** Per entry, how many {@link #runBelow} calls now lower it; it is in effect at zero. */
    private int[] lowered = new int[4];

    private int depth;
    /**
     * The modes of the entries in effect, innermost last: what {@link Dispatcher#call} walks. Replaced on every change,
     * never written in place, so that a walk in progress keeps the array it started with.
     */
    Dispatcher.Mode[] modes = NO_MODES;

    private boolean gradEnabled = true;
    private boolean recordingSuppressed;
    private boolean inference;
    private boolean fakeAllocation;

    private DispatchState() {}

    /** This thread's state. */
    public static DispatchState current() {
        return CURRENT.get();
    }

    // ---- grad mode ------------------------------------------------------------------------------------------

    /** Whether ops on this thread record autograd history. */
    public boolean isGradEnabled() {
        return gradEnabled;
    }

    public void setGradEnabled(boolean enabled) {
        this.gradEnabled = enabled;
    }

    /**
     * Sets grad mode for this thread until the returned scope closes, which restores the value it had before: the scope
     * behind {@code torch.no_grad()}/{@code enable_grad()}, for the layers below autograd.
     */
    public static Scope gradEnabled(boolean enabled) {
        DispatchState s = current();
        boolean before = s.gradEnabled;
        s.gradEnabled = enabled;
        return () -> s.gradEnabled = before;
    }

    /**
     * Whether autograd records the ops running now: grad mode is on, and no composite that autograd records as one op
     * is running its pieces ({@link #suppressRecording}).
     */
    public boolean isRecording() {
        return gradEnabled && !recordingSuppressed;
    }

    /**
     * Leaves the ops run until the returned scope closes unrecorded, with grad mode as it is: for the pieces of a
     * composite op that autograd records whole, which must still see grad mode on (they mark their views as a recorded
     * call does).
     */
    public static Scope suppressRecording() {
        DispatchState s = current();
        boolean before = s.recordingSuppressed;
        s.recordingSuppressed = true;
        return () -> s.recordingSuppressed = before;
    }

    /** Whether no interpreter at all is entered on this thread (lowered or not): ops run as plain eager code. */
    public static boolean noneEntered() {
        return current().depth == 0;
    }

    /** Whether this thread is inside {@code inference_mode()}. */
    public boolean isInference() {
        return inference;
    }

    public void setInference(boolean on) {
        this.inference = on;
    }

    /**
     * Whether ops running now make fake outputs and run no kernel: set by a fake-tensor mode while it passes an op on,
     * read where an op allocates its outputs.
     */
    public boolean isFakeAllocation() {
        return fakeAllocation;
    }

    /** Turns {@link #isFakeAllocation()} on for this thread until the returned scope closes, which restores it. */
    public static Scope fakeAllocation() {
        DispatchState s = current();
        boolean before = s.fakeAllocation;
        s.fakeAllocation = true;
        return () -> s.fakeAllocation = before;
    }

    // ---- the interpreter stack ----------------------------------------------------------------------------

    /** The level the next interpreter entered on this thread gets. */
    public static int nextLevel() {
        return current().depth + 1;
    }

    /**
     * Enters {@code interpreter} on this thread; closing the returned scope leaves it. Its level must be
     * {@link #nextLevel()}.
     */
    public static Scope enter(Interpreter interpreter) {
        DispatchState s = current();
        if (interpreter.level() != s.depth + 1) {
            throw new IllegalStateException(
                    "an interpreter entered at level " + (s.depth + 1) + " claims level " + interpreter.level());
        }
        if (s.depth == s.entries.length) {
            s.entries = Arrays.copyOf(s.entries, 2 * s.depth);
            s.lowered = Arrays.copyOf(s.lowered, 2 * s.depth);
        }
        int at = s.depth++;
        s.entries[at] = interpreter;
        s.lowered[at] = 0;
        Dispatcher.Mode[] before = s.modes;
        Dispatcher.Mode mode = interpreter.mode();
        if (mode != null) {
            Dispatcher.Mode[] after = Arrays.copyOf(before, before.length + 1);
            after[before.length] = mode;
            s.modes = after;
        }
        return () -> {
            if (s.depth != at + 1 || s.entries[at] != interpreter) {
                throw new IllegalStateException("interpreter scopes closed out of order");
            }
            s.entries[at] = null;
            s.depth = at;
            s.modes = before;
        };
    }

    /** Enters an interpreter of {@code kind} that handles ops with {@code mode}, at the next level. */
    public static Scope enter(Kind kind, Dispatcher.Mode mode) {
        return enter(new Entry(kind, nextLevel(), java.util.Objects.requireNonNull(mode, "mode")));
    }

    private record Entry(Kind kind, int level, Dispatcher.Mode mode) implements Interpreter {}

    /**
     * Runs {@code body} with {@code interpreter} and every interpreter above it lowered (functorch's "lower the
     * level"): an interpreter computing its rule with ops must not see those ops itself, while the levels below it do.
     * {@code interpreter} must be in effect.
     */
    public static <T> T runBelow(Interpreter interpreter, Supplier<T> body) {
        DispatchState s = current();
        int at = s.indexInEffect(interpreter);
        if (at < 0) throw new IllegalStateException("interpreter is not in effect on this thread");
        int top = s.depth;
        Dispatcher.Mode[] before = s.modes;
        for (int i = at; i < top; i++) s.lowered[i]++;
        s.modes = s.modesInEffect();
        try {
            return body.get();
        } finally {
            for (int i = at; i < top; i++) s.lowered[i]--;
            s.modes = before;
        }
    }

    /**
     * Runs {@code body} with every interpreter lowered, as a backend kernel runs below every mode in PyTorch: for code
     * that implements an op with other ops (a custom op's Java kernel), whose calls belong to no transform.
     */
    public static <T> T runBelowAll(Supplier<T> body) {
        DispatchState s = current();
        int top = s.depth;
        if (top == 0) return body.get();
        Dispatcher.Mode[] before = s.modes;
        for (int i = 0; i < top; i++) s.lowered[i]++;
        s.modes = s.modesInEffect();
        try {
            return body.get();
        } finally {
            for (int i = 0; i < top; i++) s.lowered[i]--;
            s.modes = before;
        }
    }

    /** Whether {@code interpreter} is entered on this thread and not lowered. */
    public static boolean isInEffect(Interpreter interpreter) {
        return current().indexInEffect(interpreter) >= 0;
    }

    /** Whether no interpreter in effect sees ops: every op runs as a plain eager call. */
    public static boolean isPlainEager() {
        return current().modes.length == 0;
    }

    /** The innermost interpreter of {@code kind} in effect on this thread, or null. */
    public static Interpreter innermostInEffect(Kind kind) {
        DispatchState s = current();
        for (int i = s.depth - 1; i >= 0; i--) {
            if (s.entries[i].kind() == kind && s.lowered[i] == 0) return s.entries[i];
        }
        return null;
    }

    /** The interpreters of {@code kind} in effect on this thread, outermost first. */
    public static java.util.List<Interpreter> allInEffect(Kind kind) {
        DispatchState s = current();
        java.util.List<Interpreter> out = new java.util.ArrayList<>();
        for (int i = 0; i < s.depth; i++) {
            if (s.entries[i].kind() == kind && s.lowered[i] == 0) out.add(s.entries[i]);
        }
        return out;
    }

    /** The innermost interpreter of {@code kind} entered on this thread, lowered or not, or null. */
    public static Interpreter innermostEntered(Kind kind) {
        DispatchState s = current();
        for (int i = s.depth - 1; i >= 0; i--) if (s.entries[i].kind() == kind) return s.entries[i];
        return null;
    }

    /** How many interpreters of {@code kind} are entered on this thread, lowered or not. */
    public static int countEntered(Kind kind) {
        DispatchState s = current();
        int n = 0;
        for (int i = 0; i < s.depth; i++) if (s.entries[i].kind() == kind) n++;
        return n;
    }

    /** Whether an interpreter of {@code kind} other than {@code except} is entered on this thread, lowered or not. */
    public static boolean anyEnteredBesides(Kind kind, Interpreter except) {
        DispatchState s = current();
        for (int i = 0; i < s.depth; i++) if (s.entries[i].kind() == kind && s.entries[i] != except) return true;
        return false;
    }

    private int indexInEffect(Interpreter interpreter) {
        for (int i = depth - 1; i >= 0; i--) if (entries[i] == interpreter && lowered[i] == 0) return i;
        return -1;
    }

    private Dispatcher.Mode[] modesInEffect() {
        int n = 0;
        for (int i = 0; i < depth; i++) if (lowered[i] == 0 && entries[i].mode() != null) n++;
        if (n == 0) return NO_MODES;
        Dispatcher.Mode[] m = new Dispatcher.Mode[n];
        for (int i = 0, k = 0; i < depth; i++) {
            if (lowered[i] == 0 && entries[i].mode() != null) m[k++] = entries[i].mode();
        }
        return m;
    }
}

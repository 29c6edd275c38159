package org.jtorch;

import java.net.URL;
import java.security.CodeSource;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Python's {@code warnings} module for JTorch: every warning of the library (PyTorch's {@code TORCH_WARN}, Python-side
 * {@code warnings.warn}) goes through {@link #warn}, never straight to {@code System.err}.
 *
 * <p>A warning has a {@link Category} and a message. What happens to it is decided by the first matching filter, newest
 * first, as in Python ({@link Action#DEFAULT} when none matches, {@link Action#ONCE} for {@link #warnOnce}):
 *
 * <ul>
 *   <li>{@code DEFAULT}: printed the first time a message of that category is raised from a given call site (the first
 *       caller outside JTorch, found by walking the stack);
 *   <li>{@code ONCE}: printed the first time a message of that category is raised anywhere;
 *   <li>{@code ALWAYS}: printed every time; {@code IGNORE}: dropped;
 *   <li>{@code ERROR}: thrown as a {@link TorchWarningException} (the {@code -W error} analogue).
 * </ul>
 *
 * Printed warnings go to {@code System.err} as {@code Train.java:12: UserWarning: message}, or to a
 * {@code System.Logger} once {@link #captureWarnings(boolean)} routes them there. Unlike Python,
 * {@code DeprecationWarning} is shown by default: a Java program has no {@code __main__} module to tell user code from
 * library code.
 *
 * <p>While a {@link #catchWarnings()} scope is open on a thread, warnings raised on that thread are recorded there
 * instead. Filters are global (settle them at start-up or in tests); the once-registries are shared by all threads.
 * Work a thread hands to other threads on its behalf (the intra-op workers of a parallel kernel) carries the thread's
 * scope along through {@link Context}, so a warning raised there is recorded where the caller records. Everything here
 * is thread-safe.
 */
public final class Warnings {
    private Warnings() {}

    /** The warning classes of Python and PyTorch. */
    public enum Category {
        /** {@code UserWarning}: the default category of {@code warnings.warn}. */
        USER_WARNING("UserWarning"),
        /** {@code DeprecationWarning}: a feature will be removed. */
        DEPRECATION_WARNING("DeprecationWarning"),
        /** {@code FutureWarning}: a behaviour will change in a future release. */
        FUTURE_WARNING("FutureWarning"),
        /** {@code RuntimeWarning}: a questionable runtime condition. */
        RUNTIME_WARNING("RuntimeWarning"),
        /** A slow path was taken (e.g. vmap's per-example fallback). */
        PERFORMANCE_WARNING("PerformanceWarning");

        private final String pythonName;

        Category(String pythonName) {
            this.pythonName = pythonName;
        }

        /** The name Python prints ({@code UserWarning}). */
        public String pythonName() {
            return pythonName;
        }
    }

    /** Filter actions, as Python's {@code warnings.filterwarnings(action, ...)}. */
    public enum Action {
        /** {@code "default"}: show a message the first time it is raised from a given call site. */
        DEFAULT,
        /** {@code "always"}: show every occurrence. */
        ALWAYS,
        /** {@code "ignore"}: never show it. */
        IGNORE,
        /** {@code "error"}: throw {@link TorchWarningException} instead of showing it. */
        ERROR,
        /** {@code "once"}: show a message the first time it is raised anywhere. */
        ONCE
    }

    /** A filter; a null category matches every category, a null pattern every message. */
    private record Filter(Category category, Pattern message, Action action) {
        boolean matches(Category c, String text) {
            return (category == null || category == c)
                    && (message == null || message.matcher(text).lookingAt());
        }
    }

    private static final Filter[] NO_FILTERS = new Filter[0];
    /** Newest first; replaced whole on every change, so readers need no lock. */
    private static volatile Filter[] filters = NO_FILTERS;

    /** DEFAULT: (category, message, call site) already shown. Cleared when the filters change, as Python does. */
    private static final Set<SiteKey> SHOWN_AT_SITE = ConcurrentHashMap.newKeySet();
    /** ONCE: (category, message) already shown. */
    private static final Set<MessageKey> SHOWN_ONCE = ConcurrentHashMap.newKeySet();

    private record MessageKey(Category category, String message) {}

    private record SiteKey(Category category, String message, Site site) {}

    /** A call site; the class name keeps same-named files of different packages apart. */
    private record Site(String className, String file, int line) {}

    private static final ThreadLocal<WarningRecorder> RECORDER = new ThreadLocal<>();

    // ---- raising ------------------------------------------------------------------------------------

    /** {@code warnings.warn(message)}: a {@link Category#USER_WARNING}. */
    public static void warn(String message) {
        warn(Category.USER_WARNING, message);
    }

    /** {@code warnings.warn(message, category)}. */
    public static void warn(Category category, String message) {
        raise(category, message, Action.DEFAULT);
    }

    /**
     * A warning the library gives once per process ({@code TORCH_WARN_ONCE}): when no filter matches it is printed the
     * first time its category and message are raised anywhere ({@link Action#ONCE}), not once per call site. Filters
     * and {@link #catchWarnings()} scopes treat it as any other warning, so a scope records every one.
     */
    public static void warnOnce(Category category, String message) {
        raise(category, message, Action.ONCE);
    }

    /** Raises a warning; {@code unfiltered} is the action when no filter matches. */
    private static void raise(Category category, String message, Action unfiltered) {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(message, "message");
        WarningRecorder recorder = RECORDER.get();
        if (recorder != null) {
            Site site = callerSite();
            recorder.add(new Warning(category, message, site.file(), site.line()));
            return;
        }
        switch (actionFor(category, message, unfiltered)) {
            case IGNORE -> {}
            case ERROR -> throw new TorchWarningException(category, message);
            case ONCE -> {
                if (SHOWN_ONCE.add(new MessageKey(category, message))) print(category, message, callerSite());
            }
            case ALWAYS -> print(category, message, callerSite());
            case DEFAULT -> {
                Site site = callerSite();
                if (SHOWN_AT_SITE.add(new SiteKey(category, message, site))) print(category, message, site);
            }
        }
    }

    private static Action actionFor(Category category, String message, Action unfiltered) {
        for (Filter f : filters) if (f.matches(category, message)) return f.action();
        return unfiltered;
    }

    private static void print(Category category, String message, Site site) {
        Warning w = new Warning(category, message, site.file(), site.line());
        System.Logger l = logger;
        if (l == null) System.err.println(w);
        else l.log(System.Logger.Level.WARNING, w.toString());
    }

    // ---- routing to System.Logger -------------------------------------------------------------------

    /** Where printed warnings go instead of {@code System.err}; null while not captured. */
    private static volatile System.Logger logger;

    /** The logger {@link #captureWarnings(boolean)} routes to, as Python's {@code py.warnings} logger. */
    public static final String LOGGER_NAME = "org.jtorch.Warnings";

    /**
     * Python's {@code logging.captureWarnings(capture)}: with {@code true}, every warning that would be printed goes to
     * the {@code System.Logger} named {@value #LOGGER_NAME} at level {@code WARNING} instead (so the handlers of the
     * program's logging backend see it, {@code java.util.logging} or an SLF4J/Log4j bridge); with {@code false} they
     * are printed to {@code System.err} again, the default. Filters, once-registries and {@link #catchWarnings()}
     * scopes apply first, as before.
     */
    public static void captureWarnings(boolean capture) {
        captureWarnings(capture ? System.getLogger(LOGGER_NAME) : null);
    }

    /** Routes printed warnings to {@code target}, or back to {@code System.err} with null. */
    static void captureWarnings(System.Logger target) {
        logger = target;
    }

    // ---- filters ------------------------------------------------------------------------------------

    /** {@code warnings.simplefilter(action, category)}: applies to every message of {@code category}. */
    public static void filter(Category category, Action action) {
        addFilter(new Filter(
                Objects.requireNonNull(category, "category"), null, Objects.requireNonNull(action, "action")));
    }

    /**
     * {@code warnings.filterwarnings(action, message=regex, category)}: applies to messages of {@code category} that
     * start with a match of {@code messageRegex} (case-insensitive, as Python).
     */
    public static void filter(Category category, Action action, String messageRegex) {
        addFilter(new Filter(
                Objects.requireNonNull(category, "category"),
                Pattern.compile(messageRegex, Pattern.CASE_INSENSITIVE),
                Objects.requireNonNull(action, "action")));
    }

    /** {@code warnings.simplefilter(action)}: applies to every category. */
    public static void filterAll(Action action) {
        addFilter(new Filter(null, null, Objects.requireNonNull(action, "action")));
    }

    /** {@code warnings.resetwarnings()}: removes every filter, so all categories are back to {@link Action#DEFAULT}. */
    public static synchronized void resetFilters() {
        filters = NO_FILTERS;
        SHOWN_AT_SITE.clear();
    }

    private static synchronized void addFilter(Filter f) {
        Filter[] old = filters;
        Filter[] next = new Filter[old.length + 1];
        next[0] = f;
        System.arraycopy(old, 0, next, 1, old.length);
        filters = next;
        SHOWN_AT_SITE.clear();
    }

    // ---- recording ----------------------------------------------------------------------------------

    /**
     * {@code warnings.catch_warnings(record=True)} with {@code simplefilter("always")}: until the returned scope is
     * closed, every warning raised on this thread is recorded in it (not printed, not thrown).
     *
     * <pre>{@code try (WarningRecorder rec = Warnings.catchWarnings()) { ...; rec.records() } }</pre>
     */
    public static WarningRecorder catchWarnings() {
        WarningRecorder r = new WarningRecorder(RECORDER.get(), Thread.currentThread());
        RECORDER.set(r);
        return r;
    }

    static void close(WarningRecorder r) {
        if (r.isClosed()) return;
        if (Thread.currentThread() != r.owner()) {
            throw new IllegalStateException("catchWarnings: a recorder must be closed by the thread that opened it");
        }
        if (RECORDER.get() != r) throw new IllegalStateException("catchWarnings: recorders closed out of order");
        r.markClosed();
        if (r.outer() == null) RECORDER.remove();
        else RECORDER.set(r.outer());
    }

    // ---- carrying the scope to other threads ------------------------------------------------------------

    /**
     * A thread's warning context (its innermost open {@link #catchWarnings()} scope, if any), to install on threads
     * that run work on its behalf, as PyTorch's {@code ThreadLocalState} carries the warning handler into
     * {@code at::parallel_for}'s workers. Filters are global already; the scope is what a thread would otherwise lose.
     *
     * <pre>{@code
     * Warnings.Context caller = Warnings.context();          // on the calling thread
     * Warnings.Context before = caller.install();            // on the worker
     * try { ... } finally { before.install(); }
     * }</pre>
     */
    public static final class Context {
        private static final Context NONE = new Context(null);
        private final WarningRecorder recorder;

        Context(WarningRecorder recorder) {
            this.recorder = recorder;
        }

        /** Makes this the current thread's context; returns the one it replaces, to install again afterwards. */
        public Context install() {
            WarningRecorder before = RECORDER.get();
            if (recorder == null) RECORDER.remove();
            else RECORDER.set(recorder);
            return before == null ? NONE : before.context();
        }
    }

    /** The calling thread's warning context (no allocation). */
    public static Context context() {
        WarningRecorder r = RECORDER.get();
        return r == null ? Context.NONE : r.context();
    }

    // ---- call sites ---------------------------------------------------------------------------------

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final Site UNKNOWN = new Site("", "<unknown>", -1);
    private static final String LIBRARY_SOURCE = sourceOf(Warnings.class);

    /**
     * Library classes: org.jtorch classes loaded from the same place as this one. The code source tells them apart from
     * user code that shares the package prefix (JTorch's own tests, for instance).
     */
    private static final ClassValue<Boolean> IS_LIBRARY = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> c) {
            return c.getName().startsWith("org.jtorch.") && Objects.equals(sourceOf(c), LIBRARY_SOURCE);
        }
    };

    private static String sourceOf(Class<?> c) {
        CodeSource cs = c.getProtectionDomain().getCodeSource();
        URL url = cs == null ? null : cs.getLocation();
        return url == null ? null : url.toExternalForm(); // not URL.equals, which resolves host names
    }

    private static boolean isPlatform(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        return l == null || l == ClassLoader.getPlatformClassLoader();
    }

    /** The first frame outside JTorch, preferring user code to JDK frames (a pool thread's run loop). */
    private static Site callerSite() {
        return WALKER.walk(frames -> {
            StackWalker.StackFrame fallback = null;
            for (var it = frames.iterator(); it.hasNext(); ) {
                StackWalker.StackFrame f = it.next();
                Class<?> c = f.getDeclaringClass();
                if (IS_LIBRARY.get(c)) continue;
                if (!isPlatform(c)) return site(f);
                if (fallback == null) fallback = f;
            }
            return fallback == null ? UNKNOWN : site(fallback);
        });
    }

    private static Site site(StackWalker.StackFrame f) {
        String file = f.getFileName();
        return new Site(f.getClassName(), file == null ? "<unknown>" : file, f.getLineNumber());
    }
}

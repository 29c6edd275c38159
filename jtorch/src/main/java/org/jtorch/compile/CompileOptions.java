package org.jtorch.compile;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyword arguments of {@code torch.compile}: {@code fullgraph}, {@code dynamic}, {@code backend}, {@code mode},
 * {@code options} and {@code disable}, with PyTorch's defaults. Immutable: each setter returns a new instance.
 *
 * <pre>{@code
 * CompileOptions o = CompileOptions.defaults().fullGraph(true).dynamic(true).backend("aot_eager");
 * }</pre>
 */
public final class CompileOptions {
    private static final CompileOptions DEFAULTS = new CompileOptions(false, null, "inductor", null, Map.of(), false);

    private final boolean fullGraph;
    private final Boolean dynamic;
    private final String backend;
    private final CompileMode mode;
    private final Map<String, Object> options;
    private final boolean disable;

    private CompileOptions(
            boolean fullGraph,
            Boolean dynamic,
            String backend,
            CompileMode mode,
            Map<String, Object> options,
            boolean disable) {
        if (mode != null && !options.isEmpty()) {
            throw new IllegalArgumentException(
                    "Either mode or options can be specified, but both can't be specified at the same time.");
        }
        this.fullGraph = fullGraph;
        this.dynamic = dynamic;
        this.backend = backend;
        this.mode = mode;
        this.options = options;
        this.disable = disable;
    }

    /**
     * PyTorch's defaults: {@code fullgraph=False}, {@code dynamic=None}, {@code backend="inductor"}, no mode, no
     * options, not disabled.
     */
    public static CompileOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@code fullgraph}: when true, an operation that would end the graph (a graph break) throws {@link Unsupported}
     * instead of running the function eagerly.
     */
    public CompileOptions fullGraph(boolean fullGraph) {
        return new CompileOptions(fullGraph, dynamic, backend, mode, options, disable);
    }

    /**
     * {@code dynamic}: {@code null} (the default) compiles for the sizes seen first and, when a later call changes a
     * size, recompiles once with the changed dimensions symbolic ("automatic dynamic"); {@code true} makes every
     * dimension symbolic from the start (but sizes 0 and 1, which are specialized, as PyTorch does); {@code false}
     * specializes to every new size.
     */
    public CompileOptions dynamic(Boolean dynamic) {
        return new CompileOptions(fullGraph, dynamic, backend, mode, options, disable);
    }

    /**
     * {@code backend}: {@code "inductor"} (the default), {@code "aot_eager"} (captured forward and backward graphs run
     * op by op) or {@code "eager"} (the captured graph run op by op, autograd as in eager code); see
     * {@link Compile#listBackends()}.
     */
    public CompileOptions backend(String backend) {
        Objects.requireNonNull(backend, "backend");
        return new CompileOptions(fullGraph, dynamic, backend, mode, options, disable);
    }

    /**
     * {@code mode}: how hard the backend works for speed. Throws {@link IllegalArgumentException} when options were
     * given too, as PyTorch does.
     */
    public CompileOptions mode(CompileMode mode) {
        return new CompileOptions(fullGraph, dynamic, backend, mode, options, disable);
    }

    /**
     * One entry of {@code options}, the backend's configuration: {@code option("combo_kernels", true)} makes the
     * {@code "inductor"} backend group independent kernels into combo kernels (off by default);
     * {@code option("allow_buffer_reuse", false)} makes it allocate every kernel output on every call instead of
     * keeping its intermediates' storage between calls. Throws {@link IllegalArgumentException} when a mode was given
     * too, as PyTorch does, or for a {@code combo_kernels} or {@code allow_buffer_reuse} that is not a boolean.
     */
    public CompileOptions option(String key, Object value) {
        Objects.requireNonNull(key, "key");
        if ((key.equals("combo_kernels") || key.equals("allow_buffer_reuse")) && !(value instanceof Boolean)) {
            throw new IllegalArgumentException("option " + key + " must be a boolean, got " + value);
        }
        Map<String, Object> next = new LinkedHashMap<>(options);
        next.put(key, value);
        return new CompileOptions(fullGraph, dynamic, backend, mode, Collections.unmodifiableMap(next), disable);
    }

    /** {@code disable}: when true, compiling returns the function itself. */
    public CompileOptions disable(boolean disable) {
        return new CompileOptions(fullGraph, dynamic, backend, mode, options, disable);
    }

    /** Whether a graph break is an error. */
    public boolean fullGraph() {
        return fullGraph;
    }

    /** {@code true}, {@code false} or {@code null} (automatic); see {@link #dynamic(Boolean)}. */
    public Boolean dynamic() {
        return dynamic;
    }

    /** The backend's name. */
    public String backend() {
        return backend;
    }

    /** The mode, or null when none was given. */
    public CompileMode mode() {
        return mode;
    }

    /** The backend options, in the order given (read-only). */
    public Map<String, Object> options() {
        return options;
    }

    /** Whether compiling is turned off. */
    public boolean disable() {
        return disable;
    }

    @Override
    public String toString() {
        return "CompileOptions(fullgraph=" + fullGraph + ", dynamic=" + dynamic + ", backend='" + backend + "', mode="
                + (mode == null ? "None" : "'" + mode.pyName() + "'") + ", options=" + options + ", disable="
                + disable + ")";
    }
}

package org.jtorch.optim;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyword arguments of an optimizer, keyed by PyTorch's names ({@code lr}, {@code weight_decay}, ...) in PyTorch's
 * order. Immutable: every fluent setter returns a copy.
 *
 * <p>{@code X.Options.defaults()} holds every hyper-parameter with PyTorch's default and is what the constructor takes;
 * {@code X.Options.overrides()} starts empty and is what a {@link ParamGroup} takes, so a group overrides only the
 * values set on it (like the keys of a param-group dict).
 *
 * @param <O> the concrete options type, so setters return it
 */
public abstract class OptimizerOptions<O extends OptimizerOptions<O>> {
    private final Map<String, Object> values;

    /** Options holding {@code values}, keyed by PyTorch's hyper-parameter names; copied, read-only. */
    protected OptimizerOptions(Map<String, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** A copy of this type holding {@code values}. */
    protected abstract O create(Map<String, Object> values);

    /** A copy with {@code key} set (kept at its position when already present, appended otherwise). */
    protected final O with(String key, Object value) {
        Objects.requireNonNull(key, "key");
        Map<String, Object> copy = new LinkedHashMap<>(values);
        copy.put(key, value);
        return create(copy);
    }

    /** The values set, in order, by PyTorch name; unmodifiable. */
    public final Map<String, Object> asMap() {
        return values;
    }

    /** The value of {@code key}, or null when it is not set. */
    public final Object get(String key) {
        return values.get(key);
    }

    @Override
    public final String toString() {
        return getClass().getSimpleName() + values;
    }
}

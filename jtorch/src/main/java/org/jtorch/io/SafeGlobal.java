package org.jtorch.io;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One entry of the weights-only allowlist ({@code torch.serialization.add_safe_globals}): a pickled global named
 * {@code module.qualname}, plus how to rebuild it in Java.
 *
 * <p>PyTorch allowlists a class or function object and then calls it. JTorch never runs pickled code: without a
 * factory, a call of the global (REDUCE) or an instantiation (NEWOBJ) is recorded as an inert {@link PyObject}; with a
 * factory, the factory receives the pickled arguments and its result takes the object's place. A BUILD (state) is only
 * applied to {@link PyObject}s.
 *
 * @param name the pickled name, {@code module.qualname} (e.g. {@code __main__.Foo})
 * @param factory maps the call's arguments to the Java object; null keeps a {@link PyObject}
 */
public record SafeGlobal(String name, Function<List<Object>, Object> factory) {
    /** Checks that the name is {@code module.qualname}. */
    public SafeGlobal {
        Objects.requireNonNull(name, "name");
        if (name.indexOf('.') <= 0 || name.endsWith(".")) {
            throw new IllegalArgumentException("SafeGlobal: expected a 'module.qualname' name, got '" + name + "'");
        }
    }

    /** Allows {@code name}; calls of it load as {@link PyObject}s. */
    public static SafeGlobal of(String name) {
        return new SafeGlobal(name, null);
    }

    /** Allows {@code name}; a call of it with arguments {@code args} loads as {@code factory.apply(args)}. */
    public static SafeGlobal of(String name, Function<List<Object>, Object> factory) {
        return new SafeGlobal(name, Objects.requireNonNull(factory, "factory"));
    }
}

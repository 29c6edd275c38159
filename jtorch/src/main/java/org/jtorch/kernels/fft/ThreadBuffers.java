package org.jtorch.kernels.fft;

import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * Work buffers kept per thread and per plan between transforms. Why: a transform of 2^20 points needs 16 MB of line
 * buffer and scratch, and allocating (and zeroing) them on every call cost about as much as a fifth of the transform.
 * The map is weak in its keys, so buffers go when their plan leaves {@link FftPlans}' cache; a thread uses its buffers
 * for one line at a time, and no transform calls back into another of the same plan on the same thread.
 */
final class ThreadBuffers {
    private ThreadBuffers() {}

    private static final ThreadLocal<Map<Object, Object>> BUFFERS = ThreadLocal.withInitial(WeakHashMap::new);

    /** This thread's buffers for {@code owner} (a plan), made by {@code make} the first time. */
    @SuppressWarnings("unchecked")
    static <T> T of(Object owner, Supplier<T> make) {
        return (T) BUFFERS.get().computeIfAbsent(owner, k -> make.get());
    }
}

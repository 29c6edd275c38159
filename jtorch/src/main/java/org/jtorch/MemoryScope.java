package org.jtorch;

import org.jtorch.storage.ArrayPool;

/**
 * Memory reuse for inference: tensor memory allocated on this thread while the scope is open goes back to the thread's
 * pool of free arrays when it closes (but for the tensors {@linkplain #keep kept}), and the next op outputs of the same
 * size take it instead of new arrays. A Java array has no reference count, so JTorch cannot see that an op's output is
 * dead the way PyTorch's caching allocator does; a scope is the caller saying so for a whole call, as a serving loop
 * can:
 *
 * <pre>{@code
 * try (var noGrad = Torch.noGrad(); MemoryScope scope = MemoryScope.open()) {
 *     return scope.keep(model.call(batch));
 * }
 * }</pre>
 *
 * Why: an op output in a new array is written to memory the CPU has not touched lately, and the JVM zeroes it first;
 * one in a reused array skips both costs (docs/benchmarks.md measures a GPT forward with and without).
 *
 * <p>Safe by construction: the memory of a tensor that is read after its scope closed without being kept has been
 * released, so the read raises a {@link TorchException} naming this scope instead of seeing another tensor's data. What
 * must be kept: every tensor allocated in the scope that is used after it, including views of them (keep the view: its
 * base's memory is kept). Tensors that existed before the scope opened (parameters, buffers, inputs) are never touched,
 * nor are in-place updates of them; parameters and buffers a module registers while a scope is open are kept. Only
 * arrays of at least 64 KiB are tracked: smaller ones are cheap for the JVM to allocate. A scope is for no-grad work:
 * autograd's saved tensors are allocated in it too, so a backward pass after the scope closed would read released
 * memory (and raise). Scopes nest: what an inner scope keeps is freed by the outer one unless kept there as well.
 * {@code -Djtorch.arrayPool.maxMB} caps the arrays each thread keeps (0 turns pooling off; memory is still released at
 * close, so misuse raises either way).
 */
public final class MemoryScope implements AutoCloseable {
    private static final String RELEASED = "this tensor's memory was given back by the MemoryScope it was created in,"
            + " which has closed: keep() a tensor that is used after its scope";

    private final ArrayPool.Scope scope;

    private MemoryScope(ArrayPool.Scope scope) {
        this.scope = scope;
    }

    /** Opens a scope on this thread. */
    public static MemoryScope open() {
        return new MemoryScope(ArrayPool.openScope(RELEASED));
    }

    /**
     * Keeps {@code t}'s memory (all of its storage, so its base's too when it is a view) past this scope; returns t.
     */
    public Tensor keep(Tensor t) {
        scope.keep(t.impl().storage());
        return t;
    }

    /**
     * Gives back every array allocated in this scope but those kept. Must run on the thread that opened the scope,
     * innermost scope first.
     */
    @Override
    public void close() {
        try {
            scope.close();
        } catch (IllegalStateException e) {
            throw new TorchException("MemoryScope.close(): " + e.getMessage());
        }
    }
}

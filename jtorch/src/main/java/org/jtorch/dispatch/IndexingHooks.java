package org.jtorch.dispatch;

/**
 * What {@code Tensor}'s indexing methods need from the op layer beyond calling one op: Python's {@code x[spec]} and
 * {@code x[spec] = v} (basic items as views, advanced ones through {@code index}/{@code index_put}), {@code index_put_}
 * with its mask fast path, and {@code masked_scatter_}'s checks. {@code Tensor} sits below the op layer, so it reaches
 * this logic through an interface declared here, generic in the tensor type ({@code T}) and the index item type
 * ({@code I}) only so that this package need not name them; the op layer implements it for its tensors, installed as a
 * service.
 */
public interface IndexingHooks<T, I> {
    /** {@code self[spec]}. */
    T index(T self, I[] spec);

    /** {@code self[spec] = value} ({@code +=} with {@code accumulate}); {@code value} is a tensor or a scalar. */
    T indexPutSpec(T self, I[] spec, Object value, boolean accumulate);

    /** {@code self.index_put_(indices, values, accumulate)}. */
    T indexPutTensors(T self, T[] indices, T values, boolean accumulate);

    /** {@code self.masked_scatter_(mask, source)}. */
    T maskedScatter(T self, T mask, T source);
}

package org.jtorch.debug;

/** How {@link DebugMode} summarises a tensor's values ({@code log_tensor_hashes(hash_fn=...)}). */
public enum HashFn {
    /**
     * A 64-bit hash of the dtype, the shape and the raw bits of every element in row-major order: equal exactly when
     * the values are bitwise equal (up to hash collisions), so {@code -0.0} and {@code 0.0}, or two NaN payloads,
     * differ. Any change of a single element always changes it.
     */
    BITS,
    /**
     * PyTorch's default {@code "norm"}: the L1 norm {@code Σ|x|} in float64 (integer and bool tensors are first
     * converted to float32, complex elements contribute their modulus), so close tensors get close, interpretable
     * values.
     */
    NORM
}
